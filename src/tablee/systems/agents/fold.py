"""How a recorded agents event changes a table's state: its outcome applied, never decided.

`apply` takes what an event recorded (a reserve, a score, the end of a challenge, the
quest's index and Sang, the artefact's holder) and writes it into the state. What the
event leaves unrecorded is bookkeeping the state before it settles one way only: the
standings of the agents in a challenge just opened (an agent at reserve 0 is out at once),
an agent whose reserve falls to 0 put out of the other open challenges of that type
(G-T3), the count of a challenge's winner, the turn passing to the next agent.

Source: seed ``002_59b03dd224c3b923.txt``; rulings G-M1 to G-M12, G-A2, G-A11, G-A15,
G-A16, G-T3.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablee.errors import N_, InputError
from tablee.systems.agents.adventure import after_draw, tables_from_json
from tablee.systems.agents.agent import Agent, Reserve
from tablee.systems.agents.challenge import Challenge, Standing, mark_out, open_challenge
from tablee.systems.agents.contest import Bout, Contest
from tablee.systems.agents.events import (
    Abandoned,
    ActionTaken,
    AgentCreated,
    ChallengeGenerated,
    ChallengeOpened,
    Conceded,
    ConsequenceApplied,
    ContestChallenged,
    ContestClosed,
    ContestSettled,
    ContestStarted,
    FailedOnPurpose,
    OptionsSet,
    QuestAbandoned,
    QuestDrawn,
    SceneStarted,
    TableDrawn,
    WinnerNamed,
)
from tablee.systems.agents.game import AgentsState
from tablee.systems.agents.generator import DrawnChallenge, Relation, Source
from tablee.systems.agents.options import AgentsOptions
from tablee.systems.agents.quest import Quest, QuestStatus
from tablee.systems.common import replaced
from tablee.systems.event import Event

__all__ = ["apply"]


def _quest(state: AgentsState) -> Quest:
    """The quest with its agent records refreshed from the table's (as the rules read it).

    Raises:
        InputError: no quest was drawn (an event of the quest out of place).
    """
    quest = state.quest
    if quest is None:
        raise InputError(N_("no quest has been drawn at this table (rule G-M9)"))
    return replaced(quest, agents=tuple(state.agents[a.name] for a in quest.agents))


def _after_quest(state: AgentsState, quest: Quest, **changes: Any) -> AgentsState:
    """The state with the quest stored and the agents' records copied back from it."""
    agents = {**state.agents, **{a.name: a for a in quest.agents}}
    return replaced(state, quest=quest, agents=agents, **changes)


def _opened(
    state: AgentsState,
    number: int,
    kind: Reserve,
    agents: tuple[str, ...],
    oppositions: list[tuple[str, int]],
    label: str,
    outcome: str | None,
) -> Challenge:
    """A challenge as it opened: agents at reserve 0 out at once, its recorded end."""
    reserves = {n: state.agents[n].reserve(kind) for n in agents}
    challenge = open_challenge(number, kind, agents, oppositions, reserves, label=label)
    return replaced(challenge, outcome=outcome)


def _with_challenge(state: AgentsState, challenge: Challenge) -> AgentsState:
    return replaced(state, challenges={**state.challenges, challenge.number: challenge})


def _hit(challenge: Challenge, event: ActionTaken) -> int:
    """The opposition an action hit: its target, else the one opposition still standing."""
    if event.target is not None:
        return event.target - 1
    standing = [i for i, o in enumerate(challenge.oppositions) if o.score > 0]
    if len(standing) == 1:
        return standing[0]
    named = [i for i, o in enumerate(challenge.oppositions) if o.name == event.opposition]
    return (named or standing or [0])[0]


def _acted(state: AgentsState, event: ActionTaken) -> AgentsState:
    """An action's records applied: the score hit, the agent's reserve, the turn passed."""
    current = state.challenges[event.challenge]
    which = current.kind
    index = _hit(current, event)
    oppositions = list(current.oppositions)
    oppositions[index] = replaced(oppositions[index], score=event.score)
    standing = dict(current.standing)
    if event.reserve == 0:
        standing[event.agent] = Standing.OUT
    lost = 1 if event.outcome == "failure" else 0
    moved = replaced(
        current,
        oppositions=tuple(oppositions),
        standing=standing,
        spent={**current.spent, event.agent: current.spent[event.agent] + lost},
        turn=(current.agents.index(event.agent) + 1) % len(current.agents),
        actions=current.actions + 1,
        outcome=event.ended,
    )
    challenges = {**state.challenges, moved.number: moved}
    if event.reserve == 0:  # out of every open challenge of this type (G-T3)
        for number, challenge in challenges.items():
            if challenge.kind is which:
                challenges[number] = mark_out(challenge, event.agent)
    agent = state.agents[event.agent].with_reserve(which, event.reserve)
    return replaced(state, agents={**state.agents, event.agent: agent}, challenges=challenges)


def _left(state: AgentsState, event: Conceded | Abandoned, standing: Standing) -> AgentsState:
    """An agent out of a challenge by their choice, the reserve recovered as recorded."""
    current = state.challenges[event.challenge]
    moved = replaced(
        current, standing={**current.standing, event.agent: standing}, outcome=event.ended
    )
    agent = state.agents[event.agent].with_reserve(current.kind, event.reserve)
    return replaced(_with_challenge(state, moved), agents={**state.agents, event.agent: agent})


def _quest_drawn(state: AgentsState, event: QuestDrawn) -> AgentsState:
    tables = tables_from_json(event.tables, event.source)
    objective = tables.objectives.entry_for(event.face)
    agents = tuple(state.agents[n] for n in event.agents)
    quest = Quest(objective, event.face, agents, (0,) * len(agents))
    return replaced(
        state,
        quest=quest,
        tables=tables,
        scene=0,
        scene_challenges=(),
        generated={},
        settled=frozenset(),
        contest=None,
        bouts={},
        settled_bouts=frozenset(),
        arrival=None,
        boons_owed=0,
    )


def _scene(state: AgentsState, event: SceneStarted) -> AgentsState:
    quest = _quest(state)
    agents = tuple(a.with_sang(1) if a.name in event.returned else a for a in quest.agents)
    quest = replaced(quest, agents=agents, sitting_out=frozenset(event.sitting_out))
    return _after_quest(state, quest, scene=event.scene, scene_challenges=(), boons_owed=0)


def _generated(state: AgentsState, event: ChallengeGenerated) -> AgentsState:
    kind = Reserve(event.kind_)
    drawn = DrawnChallenge(
        progress=event.progress,
        source=Source(event.source),
        relation=Relation(event.relation),
        relation_forced=event.forced,
        kind=kind,
        opposition_face=event.faces[-1],
        score=event.score,
        involved=event.agents,
        faces=event.faces,
    )
    name = (event.opposition or "").strip() or event.source
    challenge = _opened(
        state, event.number, kind, event.agents, [(name, event.score)], "", event.ended
    )
    return replaced(
        _with_challenge(state, challenge),
        generated={**state.generated, event.number: drawn},
        scene_challenges=(*state.scene_challenges, event.number),
    )


def _consequence(state: AgentsState, event: ConsequenceApplied) -> AgentsState:
    quest = _quest(state)
    records: Mapping[str, Any] = event.records
    sang: Mapping[str, int] = records["agents"]
    agents = tuple(a.with_sang(sang[a.name]) if a.name in sang else a for a in quest.agents)
    wins = list(quest.wins)
    winner = state.challenges[event.challenge].winner if event.won else None
    if winner is not None:
        wins[quest.index_of(winner)] += 1
    new = replaced(
        quest,
        agents=agents,
        wins=tuple(wins),
        progress=records["progress"],
        status=QuestStatus(records["status"]),
        objective_revealed=quest.objective_revealed or bool(records["revealed"]),
        challenges=quest.challenges + 1,
    )
    owed = state.boons_owed + (1 if records["helped"] else 0)  # a boon to draw (G-A13)
    return _after_quest(state, new, settled=state.settled | {event.challenge}, boons_owed=owed)


def _contest_started(state: AgentsState, event: ContestStarted) -> AgentsState:
    quest = _quest(state)
    names = tuple(a.name for a in quest.agents)
    contest = Contest(names, quest.wins, event.holder, event.holder, finished=len(names) == 1)
    favori: Agent = state.agents[event.holder].restored()
    return replaced(state, agents={**state.agents, favori.name: favori}, contest=contest)


def _contest_challenge(state: AgentsState, event: ContestChallenged) -> AgentsState:
    kind = Reserve(event.attribute)
    opposition = " + ".join(event.defenders)
    challenge = _opened(
        state, event.number, kind, event.order, [(opposition, event.score)], "", event.ended
    )
    bout = Bout(event.order, event.defenders, kind)
    return replaced(_with_challenge(state, challenge), bouts={**state.bouts, event.number: bout})


def _the_contest(state: AgentsState) -> Contest:
    """The contest (InputError: a contest event before the contest began)."""
    if state.contest is None:
        raise InputError(N_("the artefact contest has not begun (rule G-M12)"))
    return state.contest


def _contest_settled(state: AgentsState, event: ContestSettled) -> AgentsState:
    contest = _the_contest(state)
    if event.holder != contest.holder:  # the challengers won: everyone may challenge again
        new = replaced(
            contest, holder=event.holder, challenged=frozenset(), bouts=contest.bouts + 1
        )
    else:
        bout = state.bouts[event.challenge]
        challenged = contest.challenged | set(bout.challengers)
        new = replaced(contest, challenged=challenged, bouts=contest.bouts + 1)
    return replaced(state, contest=new, settled_bouts=state.settled_bouts | {event.challenge})


def apply(state: AgentsState, event: Event) -> AgentsState:
    """The state after one event, from its recorded outcome (pure, never decides).

    Args:
        state: the state before.
        event: an agents event (`tablee.systems.agents.events`).

    Returns:
        The state after it.

    Raises:
        InputError: an event of another game.

    Source: G-M1 to G-M12 (what each event records), G-A15, G-A16, G-T3.
    """
    match event:
        case AgentCreated():
            values = (event.muscles, event.sexe, event.intelligence)
            agent = Agent(
                event.name, event.organisation, event.signature, values, values, event.sang
            )
            owners = {**state.owners, event.name: event.owner} if event.owner else state.owners
            return replaced(state, agents={**state.agents, event.name: agent}, owners=owners)
        case ChallengeOpened():
            oppositions = [(str(o["name"]), int(o["score"])) for o in event.oppositions]
            challenge = _opened(
                state,
                event.number,
                Reserve(event.kind_),
                event.agents,
                oppositions,
                event.label,
                event.outcome,
            )
            return _with_challenge(state, challenge)
        case ActionTaken():
            return _acted(state, event)
        case Conceded():
            return _left(state, event, Standing.CONCEDED)
        case Abandoned():
            return _left(state, event, Standing.ABANDONED)
        case FailedOnPurpose():
            agent = state.agents[event.agent].with_reserve(Reserve(event.kind_), event.reserve)
            return replaced(state, agents={**state.agents, event.agent: agent})
        case WinnerNamed():
            won = replaced(state.challenges[event.challenge], winner=event.winner)
            return _with_challenge(state, won)
        case OptionsSet():
            return replaced(state, options=AgentsOptions.from_json(event.options))
        case QuestDrawn():
            return _quest_drawn(state, event)
        case TableDrawn():
            return after_draw(state, event.table, event.text)
        case SceneStarted():
            return _scene(state, event)
        case ChallengeGenerated():
            return _generated(state, event)
        case ConsequenceApplied():
            return _consequence(state, event)
        case QuestAbandoned():
            quest = replaced(_quest(state), status=QuestStatus.ABANDONED)
            return _after_quest(state, quest)
        case ContestStarted():
            return _contest_started(state, event)
        case ContestChallenged():
            return _contest_challenge(state, event)
        case ContestSettled():
            return _contest_settled(state, event)
        case ContestClosed():
            return replaced(state, contest=replaced(_the_contest(state), finished=True))
    raise InputError(N_("{kind} is not an agents event"), kind=event.kind)
