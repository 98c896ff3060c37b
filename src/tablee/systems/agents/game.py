"""An agents table as state folded from facts, and every decision that makes a fact.

Each ``decide_*`` function takes the current `AgentsState` and a command's inputs (the die
faces already thrown) and returns a `Decision`: the facts to store, the outcome to show and
the state right after. Folding a stored fact (`tablee.systems.agents.legacy.evolve`) decides
it again from its inputs, so every rule is checked on every replay.

Event kinds of this module (version 1, but ``agents.action`` at version 2, which records the
odds shown before its roll): ``agents.agent_created``, ``agents.challenge_opened``,
``agents.action``, ``agents.winner_named``, ``agents.options_set``; the recovery decisions
are in `tablee.systems.agents.recovery`.

Tablée's decisions where the rulings are silent:

* several open challenges of the same type share the agent's reserve (G-T3): an agent whose
  reserve falls to 0 is out of every open challenge of that type;
* an agent with Sang 0 cannot be put in a challenge (G-M11, G-A16).

Source: seed ``002_59b03dd224c3b923.txt``; rulings G-M1 to G-M8, G-A4 to G-A12, G-A15,
G-A20.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tablee.dice import Chance
from tablee.errors import N_, InputError, Message, NotFoundError, RuleError
from tablee.systems.agents.actions import ActionRoll, declared_modifier, resolve_action
from tablee.systems.agents.agent import Agent, Reserve, create_agent, reserve_named
from tablee.systems.agents.challenge import (
    Challenge,
    Course,
    act,
    mark_out,
    name_winner,
    open_challenge,
)
from tablee.systems.agents.contest import Bout, Contest
from tablee.systems.agents.generator import DrawnChallenge
from tablee.systems.agents.options import AgentsOptions
from tablee.systems.agents.quest import Quest
from tablee.systems.agents.tables import GeneratorTables
from tablee.systems.base import JSON, Fact
from tablee.systems.common import DecisionOf, clean_players, find_name, replaced, whole

__all__ = [
    "MAX_AGENTS",
    "MAX_CHALLENGES",
    "MAX_PLAYERS",
    "AgentsState",
    "Decision",
    "actor_of",
    "agent_json",
    "agent_named",
    "challenge_json",
    "challenge_numbered",
    "check_identity",
    "check_present",
    "decide_action",
    "decide_agent",
    "decide_challenge",
    "decide_options",
    "decide_winner",
    "initial_state",
    "one",
    "open_challenges",
    "play_course",
    "wins",
]

MAX_PLAYERS = 20
"""Most people at one table (Tablée's limit)."""
MAX_AGENTS = 50
"""Most agents at one table (Tablée's limit, against typing mistakes)."""
MAX_CHALLENGES = 10_000
"""Most challenges at one table (Tablée's limit)."""


@dataclass(frozen=True)
class AgentsState:
    """An agents table's state.

    Attributes:
        players: the people at the table, 0 to `MAX_PLAYERS`.
        options: the house rules.
        agents: each agent by stored name, in order of creation.
        owners: an agent's name -> the player who plays it (absent: the game master's).
        challenges: every challenge by number, from 1, open or over.
        quest: the scenario generator's quest, or None before a quest is drawn. Its agent
            records mirror ``agents``.
        tables: the quest's generator tables, or None before a quest is drawn.
        scene: scenes started in the quest, 0 before the first.
        scene_challenges: numbers of the challenges drawn in the current scene.
        generated: challenge number -> its draw (without its trace), for this quest.
        settled: numbers of generated challenges whose consequences were applied.
        contest: the artefact contest, or None.
        bouts: challenge number -> the contest challenge it plays (without its trace).
        settled_bouts: numbers of contest challenges already settled.
        lang: the table's language (``fr`` or ``en``): its starter tables by default.
        arrival: the environment drawn for where the agents arrive (after the quest, before
            its first scene), or None; the first scene's environment is this one (G-X2).
        boons_owed: draws from the boons table that consequences helping the quest still
            owe (each such consequence owes one, until drawn or the next scene starts).
    """

    players: tuple[str, ...] = ()
    options: AgentsOptions = field(default_factory=AgentsOptions)
    agents: Mapping[str, Agent] = field(default_factory=dict)
    owners: Mapping[str, str] = field(default_factory=dict)
    challenges: Mapping[int, Challenge] = field(default_factory=dict)
    quest: Quest | None = None
    tables: GeneratorTables | None = None
    scene: int = 0
    scene_challenges: tuple[int, ...] = ()
    generated: Mapping[int, DrawnChallenge] = field(default_factory=dict)
    settled: frozenset[int] = frozenset()
    contest: Contest | None = None
    bouts: Mapping[int, Bout] = field(default_factory=dict)
    settled_bouts: frozenset[int] = frozenset()
    lang: str = "en"
    arrival: str | None = None
    boons_owed: int = 0


class Decision(DecisionOf[AgentsState]):
    """What a command decided.

    Attributes:
        facts: the facts to append, in order.
        outcome: what to show (an `Agent`, a `Challenge`, an action's result...), or None.
        warnings: notices shown but never blocking.
        after: the state once the facts are folded.
    """


def initial_state(created: Mapping[str, JSON]) -> AgentsState:
    """The state of a new table from its ``table.created`` payload.

    Raises:
        InputError: a bad or repeated player name, an unknown option or value.

    Source: G-A2, G-A8, G-A20 (the options).
    """
    options = AgentsOptions.from_json(created.get("options") or {})
    return AgentsState(
        players=clean_players(created.get("players"), maximum=MAX_PLAYERS),
        options=options,
        lang="fr" if created.get("lang") == "fr" else "en",
    )


def agent_named(state: AgentsState, name: object) -> str:
    """The stored name of an agent, typed in any case or accents' form.

    Raises:
        NotFoundError: no agent has that name.
        InputError: not a name.
    """
    if type(name) is str and name in state.agents:
        return name  # the stored name itself (names are unique by `name_key`)
    found = find_name(state.agents, name, N_("an agent's name"))
    if found is None:
        raise NotFoundError(
            N_("no agent named {name!r} at this table"),
            tip=N_("agents: {known}"),
            name=name,
            known=", ".join(state.agents) or "-",
        )
    return found


def challenge_numbered(state: AgentsState, number: object) -> Challenge:
    """The challenge with that number.

    Raises:
        NotFoundError: no challenge has that number at this table.
    """
    if isinstance(number, bool) or not isinstance(number, int) or number not in state.challenges:
        raise NotFoundError(
            N_("no challenge {number!r} at this table"),
            tip=N_("open challenges: {known}"),
            number=number,
            known=", ".join(str(c.number) for c in open_challenges(state)) or "-",
        )
    return state.challenges[number]


def open_challenges(state: AgentsState, agent: str | None = None) -> tuple[Challenge, ...]:
    """The challenges still being played (those involving ``agent`` when given)."""
    return tuple(
        c for c in state.challenges.values() if c.is_open and (agent is None or c.involves(agent))
    )


def wins(state: AgentsState) -> dict[str, int]:
    """Each agent's number of challenges won (as named winner, G-M6), for the favori (G-M12)."""
    counts = {name: 0 for name in state.agents}
    for challenge in state.challenges.values():
        if challenge.winner in counts:
            counts[challenge.winner] += 1
    return counts


def check_present(state: AgentsState, name: str) -> None:
    """Refuse an agent who sits the scene out: Sang 0, or resting in the quest (G-A16).

    Raises:
        RuleError: the agent has no Sang or sits out the quest's current scene.

    Source: G-M11, G-A16.
    """
    resting = state.quest is not None and name in state.quest.sitting_out
    if resting or state.agents[name].sang <= 0:
        raise RuleError(
            N_("{agent} has no Sang left and sits this scene out (rules G-M11, G-A16)"),
            tip=N_("they return at Sang 1 when the next scene starts"),
            agent=name,
        )


def one(fact: Fact, outcome: Any, after: AgentsState) -> Decision:
    """A decision of one fact and no warning."""
    return Decision((fact,), outcome, (), after)


def actor_of(state: AgentsState, agent: str) -> str:
    """Who acts for an agent: the player who plays it, else ``gm``."""
    return state.owners.get(agent, "gm")


def check_identity(organisation: str | None = None, signature: str | None = None) -> None:
    """Refuse a new agent without an organisation or a signature object (G-M1).

    The player chooses the agent's organisation and the one object it always has at the
    start of an adventure, so a new agent needs both (ruling G-X3). An agent stored without
    them by an earlier Tablée still opens and is checked as stored: `decide_agent`, which
    decides stored events again, does not call this.

    Args:
        organisation, signature: the texts given; None leaves one unchecked (a prompt
            asking them one at a time).

    Raises:
        InputError: a blank organisation or signature object, naming which.

    Source: seed 002, "Création de personnage", "Equipement"; G-M1; G-X3.
    """
    for what, text in (
        (N_("an organisation"), organisation),
        (N_("a signature object"), signature),
    ):
        if text is not None and (not isinstance(text, str) or not text.strip()):
            raise InputError(
                N_("a new agent needs {what}, chosen by its player (rule G-M1)"),
                tip=N_("name it, even in a few words"),
                what=Message(what),
            )


def decide_agent(
    state: AgentsState,
    *,
    name: str,
    muscles: int,
    sexe: int,
    intelligence: int,
    organisation: str = "",
    signature: str = "",
    owner: str | None = None,
) -> Decision:
    """Create an agent: Sang 3, Muscles/Sexe/Intelligence 7, 5 and 3 in any order.

    Raises:
        InputError: not a permutation of 7, 5, 3 (G-M1); a bad name or text; unknown owner.
        RuleError: the name is taken, or the table has `MAX_AGENTS` agents.

    Source: G-M1.
    """
    agent = create_agent(
        name,
        organisation=organisation,
        signature=signature,
        muscles=muscles,
        sexe=sexe,
        intelligence=intelligence,
    )
    if find_name(state.agents, agent.name, N_("an agent's name")) is not None:
        raise RuleError(N_("an agent named {name!r} already exists"), name=agent.name)
    if len(state.agents) >= MAX_AGENTS:
        raise RuleError(
            N_("this table already has the maximum of {maximum} agents"), maximum=MAX_AGENTS
        )
    player = None
    if owner is not None:
        player = find_name(state.players, owner, N_("a player's name"))
        if player is None:
            raise NotFoundError(
                N_("no player named {name!r} at this table"),
                tip=N_("players: {players}"),
                name=owner,
                players=", ".join(state.players) or "-",
            )
    payload: dict[str, JSON] = {
        "name": agent.name,
        "owner": player,
        "organisation": agent.organisation,
        "signature": agent.signature,
        "muscles": agent.starting[0],
        "sexe": agent.starting[1],
        "intelligence": agent.starting[2],
        "sang": agent.sang,
    }
    owners = {**state.owners, agent.name: player} if player else state.owners
    after = replaced(state, agents={**state.agents, agent.name: agent}, owners=owners)
    return one(Fact("agents.agent_created", payload, actor=player or "gm"), agent, after)


def decide_challenge(
    state: AgentsState,
    *,
    kind: str,
    agents: Sequence[str],
    oppositions: Sequence[tuple[str, int]],
    label: str = "",
) -> Decision:
    """Open a challenge of a type, on some agents, against one or more oppositions.

    Args:
        state: current state.
        kind: ``muscles``, ``sexe`` or ``intelligence`` (any case).
        agents: involved agents, in turn order (G-A20).
        oppositions: ``(name, score)`` pairs (G-A7).
        label: a short description.

    Returns:
        The decision; its outcome is the new `Challenge` (won at once if every score is 0,
        G-A2).

    Raises:
        InputError: a bad type, agent list, opposition or score.
        NotFoundError: an unknown agent.
        RuleError: an agent with Sang 0 (G-M11), too many challenges.

    Source: G-M2, G-A2, G-A7, G-A20.
    """
    which = reserve_named(kind)
    names = [agent_named(state, a) for a in agents]
    for name in names:
        check_present(state, name)
    if len(state.challenges) >= MAX_CHALLENGES:
        raise RuleError(
            N_("this table already has the maximum of {maximum} challenges"), maximum=MAX_CHALLENGES
        )
    if not isinstance(label, str):
        raise InputError(N_("a label must be text, not {value!r}"), value=label)
    number = len(state.challenges) + 1
    reserves = {n: state.agents[n].reserve(which) for n in names}
    challenge = open_challenge(number, which, names, oppositions, reserves, label=label)
    payload: dict[str, JSON] = {
        "number": number,
        "kind": which.value,
        "agents": names,
        "oppositions": [{"name": o.name, "score": o.score} for o in challenge.oppositions],
        "label": challenge.label,
        "outcome": challenge.outcome,
    }
    after = replaced(state, challenges={**state.challenges, number: challenge})
    return one(Fact("agents.challenge_opened", payload, actor="gm"), challenge, after)


def _with_reserve(
    state: AgentsState, name: str, agent: Agent, which: Reserve, challenges: dict[int, Challenge]
) -> AgentsState:
    """The state with ``agent`` stored, out of every open challenge of ``which`` at 0."""
    return _with_reserves(state, {name: agent}, which, challenges)


def _with_reserves(
    state: AgentsState,
    changed: Mapping[str, Agent],
    which: Reserve,
    challenges: dict[int, Challenge],
) -> AgentsState:
    """The state with the ``changed`` agents stored (``challenges`` updated in place).

    Each agent at 0 of ``which`` is out of every open challenge of that type (G-T3).
    """
    for name, agent in changed.items():
        if agent.reserve(which) == 0:
            for number, challenge in challenges.items():
                if challenge.kind is which:
                    challenges[number] = mark_out(challenge, name)
    return replaced(state, agents={**state.agents, **changed}, challenges=challenges)


def decide_action(
    state: AgentsState,
    *,
    challenge: int,
    agent: str,
    modifiers: Iterable[str] = (),
    face: int,
    target: int | None = None,
    declaration: str = "",
    odds: Mapping[str, JSON] | None = None,
    record: bool = True,
) -> Decision:
    """An agent acts in a challenge: ticked modifiers, one d6 thrown, the result applied.

    Args:
        state: current state.
        challenge: the challenge's number.
        agent: the acting agent.
        modifiers: ids ticked on the challenge type's checklist (G-N2).
        face: the d6 face thrown (1 to 6).
        target: the targeted opposition's number from 1 (None when one is left, G-A7).
        declaration: the action as the player declared it (free text, G-M3; may be empty).
        odds: the odds shown before the roll, as recorded
            (`tablee.systems.agents.shown_odds.odds_record`), or None (not recorded).
        record: True (play) for the decision's fact; False for a caller that reads only
            its outcome and state after (the lab's simulations): no fact is built, the
            rules, checks, outcome and state being the same.

    Returns:
        The decision; its outcome is the `tablee.systems.agents.actions.ActionResult`.

    Raises:
        InputError: a modifier off the checklist or two exclusive ones (G-N2, G-A6), a bad
            face, an unknown or missing target.
        NotFoundError: an unknown challenge or agent.
        RuleError: the challenge is over; the agent is not in the running, at reserve 0, or
            not due (G-A20); the target is at 0.

    Source: G-M4, G-M5, G-A4 to G-A7, G-A14, G-A20.
    """
    current = challenge_numbered(state, challenge)
    name = agent_named(state, agent)
    ids, total = declared_modifier(current.kind, modifiers)
    if not isinstance(declaration, str) or len(declaration) > 1000:
        raise InputError(
            N_("a declaration must be text of at most 1000 characters, not {value!r}"),
            value=declaration,
        )
    if current.is_open and current.involves(name):
        check_present(state, name)
    index = None if target is None else _target_index(target)
    hero = state.agents[name]
    before = hero.reserve(current.kind)
    result = resolve_action(ActionRoll(total), [face])
    moved, after_reserve, hit = act(
        current,
        name,
        before,
        result.result,
        target=index,
        strict_turns=state.options.turn_order == "strict",
    )
    challenges = {**state.challenges, current.number: moved}
    after = _with_reserve(
        state, name, hero.with_reserve(current.kind, after_reserve), current.kind, challenges
    )
    if not record:
        return Decision((), result, (), after)
    final = after.challenges[current.number]
    payload: dict[str, JSON] = {
        "challenge": current.number,
        "agent": name,
        "kind": current.kind.value,
        "declaration": declaration.strip(),
        "modifiers": list(ids),
        "modifier": total,
        "die": "d6",
        "face": result.face,
        "total": result.total,
        "outcome": result.result.value,
        "target": target,
        "opposition": current.oppositions[hit].name,
        "score": final.oppositions[hit].score,
        "reserve": after_reserve,
        "ended": final.outcome,
        "odds": None if odds is None else dict(odds),
    }
    return one(Fact("agents.action", payload, actor=actor_of(state, name)), result, after)


def play_course(state: AgentsState, *, challenge: int, chance: Chance) -> AgentsState:
    """A challenge played to its end: the agent due acts, with no modifier, until it is over.

    The state that `decide_action` with ``record=False`` gives after each action in turn
    (each time the agent due, no modifier ticked, no declaration, the one opposition left
    targeted, one d6 from ``chance``), kept as one `Course` from the first action to the
    last instead of a new checked state per action: the lab's simulations play a challenge
    this way.

    Args:
        state: current state.
        challenge: the number of a challenge with one opposition left (or over: unchanged).
        chance: where each action's d6 comes from, one request of one d6 per action.

    Returns:
        The state after the challenge's last action.

    Raises:
        NotFoundError: an unknown challenge.
        InputError: several oppositions left (each action must name its target, G-A7).
        RuleError: an agent due who sits the scene out (G-M11, G-A16).

    Source: G-M4, G-M5, G-A4, G-A5, G-A14, G-A15, G-A20; G-T3 (`decide_action`).
    """
    current = challenge_numbered(state, challenge)
    course = Course(current)
    which, names = current.kind, current.agents
    reserves = [state.agents[n].reserve(which) for n in names]
    checked = [False] * len(names)

    def present(index: int) -> None:
        if not checked[index]:
            check_present(state, names[index])
            checked[index] = True

    course.run(reserves, chance, present)
    changed = {
        n: state.agents[n].with_reserve(which, r)
        for n, r in zip(names, reserves, strict=True)
        if r != state.agents[n].reserve(which)
    }
    challenges = {**state.challenges, current.number: course.frozen()}
    return _with_reserves(state, changed, which, challenges)


def _target_index(target: object) -> int:
    return whole(target, Message(N_("the target opposition")), 1, rule="G-M5") - 1


def decide_winner(state: AgentsState, *, challenge: int, agent: str | None = None) -> Decision:
    """Name the winner of a won challenge: the table's choice, else who spent most (G-M6).

    Raises:
        NotFoundError: an unknown challenge or agent.
        RuleError: not won, already named, the agent left it, or a tie (G-A12).

    Source: G-M6, G-A12.
    """
    current = challenge_numbered(state, challenge)
    name = None if agent is None else agent_named(state, agent)
    moved = name_winner(current, name)
    after = replaced(state, challenges={**state.challenges, current.number: moved})
    payload: dict[str, JSON] = {"challenge": current.number, "agent": name, "winner": moved.winner}
    return one(Fact("agents.winner_named", payload, actor="gm"), moved, after)


def decide_options(state: AgentsState, changes: Mapping[str, str]) -> Decision:
    """Change the table's house rules from text values.

    Raises:
        InputError: an unknown option or a bad value, naming both.

    Source: G-A2, G-A8, G-A20.
    """
    options = state.options.with_changes(changes)
    fact = Fact("agents.options_set", {"options": options.to_json()}, actor="gm")
    return one(fact, options, replaced(state, options=options))


def agent_json(state: AgentsState, name: str) -> dict[str, JSON]:
    """An agent's sheet as JSON (for the summary and ``--json`` output).

    Source: G-M1, G-M6.
    """
    hero = state.agents[name]
    return {
        "owner": state.owners.get(name),
        "organisation": hero.organisation,
        "signature": hero.signature,
        "sang": hero.sang,
        **{r.value: hero.reserve(r) for r in Reserve},
        "starting": {r.value: hero.start(r) for r in Reserve},
        "wins": wins(state)[name],
    }


def challenge_json(challenge: Challenge) -> dict[str, JSON]:
    """A challenge as JSON: type, agents and standings, oppositions, turn, end, winner.

    Source: G-M2, G-M5, G-M6.
    """
    from tablee.systems.agents.challenge import next_actor

    return {
        "number": challenge.number,
        "kind": challenge.kind.value,
        "label": challenge.label,
        "agents": [
            {"name": a, "standing": challenge.standing[a].value, "spent": challenge.spent[a]}
            for a in challenge.agents
        ],
        "oppositions": [
            {"name": o.name, "score": o.score, "start": o.start} for o in challenge.oppositions
        ],
        "actions": challenge.actions,
        "next": next_actor(challenge),
        "outcome": challenge.outcome,
        "winner": challenge.winner,
    }
