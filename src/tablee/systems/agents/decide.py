"""How each declared agents command is decided: the names read, the dice asked, the events made.

`decide` takes the state, a declared command (`tablee.systems.agents.commands`) and a source
of dice faces; it asks the source for each die the command throws, in order, and runs the
rules of `tablee.systems.agents.game`, `recovery` and `adventure` (the same functions that
decided every event since Tablée 0.1.0). Their facts become typed events
(`tablee.systems.agents.events`) and the state after them is the one `apply` gives, so a
command and a replay of its events reach the same state.

Tablée's decisions where the rulings are silent:

* a command that leaves the challenge out means the one open challenge (involving the agent
  named, if any); one that leaves the acting agent out means the one whose turn it is;
* a drawn challenge without an opposition's name draws it from the table its source names
  (creatures or environments), as ``play`` does: two events, the draw first; but in the
  quest's first scene the environment is where the agents arrived, drawn already (G-X2);
* a winner or a favori left out when the rule leaves a tie is rolled off, a d6 each, ties
  rolling again (G-A12, G-A18); the agent it names is stored as the table's choice.

Source: seed ``002_59b03dd224c3b923.txt``; rulings G-M1 to G-M12, G-A6, G-A12, G-A18.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tablee.dice import D6, Chance, DiceRequest, is_whole_in_reach, read_whole
from tablee.errors import N_, InputError, RuleError
from tablee.systems.agents import adventure, game, recovery
from tablee.systems.agents.agent import reserve_named
from tablee.systems.agents.challenge import Challenge, next_actor, winner_candidates
from tablee.systems.agents.commands import (
    Abandon,
    Act,
    Concede,
    ContestChallenge,
    ContestClose,
    ContestSettle,
    ContestStart,
    CreateAgent,
    Draw,
    FailOnPurpose,
    Generate,
    GiveUp,
    NameWinner,
    NextScene,
    OpenChallenge,
    Quest,
    Settle,
)
from tablee.systems.agents.contest import most_wins
from tablee.systems.agents.events import EVENTS
from tablee.systems.agents.fold import apply
from tablee.systems.agents.game import AgentsState
from tablee.systems.agents.generator import CHALLENGE_GENERATOR, ChallengeInputs, Source
from tablee.systems.agents.quest import QuestStatus
from tablee.systems.agents.starters import starter_tables
from tablee.systems.agents.tables import GeneratorTables, TableKind, parse_table
from tablee.systems.base import JSON
from tablee.systems.declare import Command
from tablee.systems.event import Event, read_event
from tablee.systems.options import stored_changes
from tablee.systems.plugin import Decision

__all__ = [
    "ROLL_OFF_ROUNDS",
    "RollOff",
    "arrival_opposes",
    "arrived_in",
    "challenge_for",
    "decide",
    "decide_options",
    "decided",
    "names",
    "redecide_stored",
    "roll_off",
    "split_names",
    "the_agent",
]

ROLL_OFF_ROUNDS = 100
"""Most rounds of one roll-off (each round ties again with a chance below 1)."""

KINDS = {cls.kind: cls for cls in EVENTS}


@dataclass(frozen=True)
class RollOff:
    """A decision's outcome when a tie was rolled off first.

    Attributes:
        outcome: what the rules decided with the agent the roll-off named.
        rounds: each round's ``(agent, face)`` pairs, in order.
        agent: who the roll-off named.
    """

    outcome: Any
    rounds: tuple[tuple[tuple[str, int], ...], ...]
    agent: str


def decided(
    state: AgentsState, made: game.Decision, *, typed: bool = True
) -> Decision[AgentsState]:
    """The rules' decision as typed events, the state after them applied.

    Args:
        state: the state the decision was made on.
        made: what a ``decide_*`` function of the rules returned.
        typed: False for a caller that reads only the state (the lab's simulations): no
            event is typed nor folded, the decision has no events and its state is the
            rules' own ``made.after``, the state their facts fold into.

    Returns:
        The events (one per fact), who acted, the outcome and warnings kept, and the state
        after the events as `apply` gives it.
    """
    if not typed:
        actor = made.facts[0].actor if made.facts else "gm"
        return Decision((), made.after, actor, "all", made.outcome, made.warnings)
    events = tuple(read_event(KINDS, f.kind, f.payload) for f in made.facts)
    after = state
    for event in events:
        after = apply(after, event)
    actor = made.facts[0].actor if made.facts else "gm"
    return Decision(events, after, actor, "all", made.outcome, made.warnings)


def _joined(
    first: Decision[AgentsState], then: game.Decision, typed: bool
) -> Decision[AgentsState]:
    """Two decisions as one: the first's events, then the second's."""
    second = decided(first.after, then, typed=typed)
    return Decision(
        (*first.events, *second.events),
        second.after,
        second.actor,
        "all",
        second.outcome,
        (*first.warnings, *second.warnings),
    )


def split_names(given: Iterable[str]) -> list[str]:
    """Names typed one per item or several separated by commas (``Vega,Orso``), in order."""
    return [n.strip() for item in given for n in str(item).split(",") if n.strip()]


def names(state: AgentsState, given: Iterable[str]) -> list[str]:
    """The stored names of the agents typed (NotFoundError naming an unknown one)."""
    return [game.agent_named(state, n) for n in split_names(given)]


def challenge_for(state: AgentsState, number: int | None, agent: str | None) -> Challenge:
    """The challenge a command means: its number, else the one open (involving ``agent``).

    Raises:
        NotFoundError: no challenge has that number; an unknown agent.
        InputError: no number and not exactly one open challenge.
    """
    if number is not None:
        return game.challenge_numbered(state, number)
    who = None if agent is None else game.agent_named(state, agent)
    candidates = game.open_challenges(state, who)
    if len(candidates) != 1:
        raise InputError(
            N_("say which challenge with --challenge: {count} are open"),
            tip=N_("open challenges: {known}"),
            count=len(candidates),
            known=", ".join(str(c.number) for c in candidates) or "-",
        )
    return candidates[0]


def the_agent(state: AgentsState, challenge: Challenge, agent: str | None) -> str:
    """Who acts: the agent named, else the one whose turn it is.

    A finished challenge has nobody due: its first agent is named, and the rules then say
    it is over.

    Raises:
        NotFoundError: an unknown agent. InputError: nobody named and nobody due.
    """
    if agent is not None:
        return game.agent_named(state, agent)
    due = next_actor(challenge) or (None if challenge.is_open else challenge.agents[0])
    if due is None:
        raise InputError(N_("say who acts with --agent"))
    return due


def roll_off(dice: Chance, candidates: Iterable[str]) -> RollOff:
    """A d6 each, the highest wins, those tied roll again (G-A12, G-A18).

    Raises:
        RuleError: still tied after `ROLL_OFF_ROUNDS` rounds.
    """
    tied = list(candidates)
    rounds: list[tuple[tuple[str, int], ...]] = []
    for _ in range(ROLL_OFF_ROUNDS):
        faces = dice.roll(DiceRequest(D6, len(tied), ordered=True))
        rounds.append(tuple(zip(tied, faces, strict=True)))
        best = max(faces)
        tied = [n for n, f in zip(tied, faces, strict=True) if f == best]
        if len(tied) == 1:
            return RollOff(None, tuple(rounds), tied[0])
    raise RuleError(
        N_("{agents} are still tied after {rounds} rounds of the roll-off"),
        agents=", ".join(tied),
        rounds=ROLL_OFF_ROUNDS,
    )


def _with_roll_off(made: Decision[AgentsState], off: RollOff | None) -> Decision[AgentsState]:
    if off is None:
        return made
    outcome = RollOff(made.outcome, off.rounds, off.agent)
    return Decision(made.events, made.after, made.actor, made.visibility, outcome, made.warnings)


def _opposition(line: str) -> tuple[str, int]:
    """``NAME:SCORE`` as a pair (the score after the last colon)."""
    name, sep, score = line.rpartition(":")
    value = read_whole(score, negative=False)
    if not sep or not name.strip() or value is None or not is_whole_in_reach(value):
        raise InputError(
            N_("opposition {value!r}: expected NAME:SCORE, e.g. Dragon:6 (rule G-A7)"),
            value=line[:60],
        )
    return name.strip(), value


def _act(state: AgentsState, command: Act, dice: Chance, typed: bool) -> Decision[AgentsState]:
    current = challenge_for(state, command.challenge, command.agent)
    agent = the_agent(state, current, command.agent)
    from tablee.systems.agents.actions import declared_modifier
    from tablee.systems.agents.shown_odds import odds_record

    _ids, total = declared_modifier(current.kind, command.modifiers)  # refused before the roll
    odds = odds_record(state, current, agent, total, command.target)
    face = dice.roll(DiceRequest(D6, 1))[0]
    made = game.decide_action(
        state,
        challenge=current.number,
        agent=agent,
        modifiers=command.modifiers,
        face=face,
        target=command.target,
        declaration=command.declaration,
        odds=odds,
    )
    return decided(state, made, typed=typed)


def _leave(
    state: AgentsState,
    command: Concede | Abandon,
    rule: Callable[..., game.Decision],
    typed: bool,
) -> Decision[AgentsState]:
    current = challenge_for(state, command.challenge, command.agent)
    made = rule(state, challenge=current.number, agent=command.agent)
    return decided(state, made, typed=typed)


def _winner(
    state: AgentsState, command: NameWinner, dice: Chance, typed: bool
) -> Decision[AgentsState]:
    agent, off = command.agent, None
    current = game.challenge_numbered(state, command.challenge)
    if agent is None and current.outcome == "won" and current.winner is None:
        tied = winner_candidates(current)
        if len(tied) > 1:
            off = roll_off(dice, tied)
            agent = off.agent
    made = decided(
        state, game.decide_winner(state, challenge=current.number, agent=agent), typed=typed
    )
    return _with_roll_off(made, off)


def own_tables(command: Quest, lang: str) -> tuple[GeneratorTables, str]:
    """The quest's four tables: each given text, else the starter table; and their source.

    Raises:
        InputError: a text that breaks the table format (naming the table and the line);
            a source name that would pass for Tablée's starter tables.
    """
    starters = starter_tables(lang)
    given: Mapping[TableKind, str | None] = {
        TableKind.OBJECTIVES: command.objectives,
        TableKind.ENVIRONMENTS: command.environments,
        TableKind.CREATURES: command.creatures,
        TableKind.BOONS: command.boons,
    }
    if not any(given.values()):
        return starters, f"starter:{lang}"
    source = command.source.strip() or "own"
    if source.startswith("starter:"):
        raise InputError(
            N_("{value!r} names Tablée's starter tables: name your own tables otherwise"),
            value=source,
        )
    tables = {
        kind: parse_table(text, f"{source}/{kind.value}.txt") if text else starters.table(kind)
        for kind, text in given.items()
    }
    return GeneratorTables.of(tables), source


def _quest(state: AgentsState, command: Quest, dice: Chance, typed: bool) -> Decision[AgentsState]:
    lang = command.starter if command.starter is not None else state.lang
    tables, source = own_tables(command, lang)
    first = tables.objectives.die.faces[0]
    adventure.decide_quest(state, tables=tables, source=source, face=first)  # refused first
    face = dice.roll(DiceRequest(tables.objectives.die, 1))[0]
    made = adventure.decide_quest(state, tables=tables, source=source, face=face)
    return decided(state, made, typed=typed)


def _draw(state: AgentsState, table: str, dice: Chance) -> game.Decision:
    if state.tables is None:
        return adventure.decide_draw(state, table=table, face=1)  # refused: no quest yet
    die = state.tables.table(TableKind(table)).die
    return adventure.decide_draw(state, table=table, face=dice.roll(DiceRequest(die, 1))[0])


def _generate(
    state: AgentsState, command: Generate, dice: Chance, typed: bool
) -> Decision[AgentsState]:
    quest = state.quest
    group = names(state, command.agents) or [
        n
        for n in state.agents
        if (quest is None or n not in quest.sitting_out) and state.agents[n].sang > 0
    ]
    progress = min(quest.progress, 3) if quest is not None else 0
    inputs = ChallengeInputs(progress, max(1, len(group)), state.options)
    count = CHALLENGE_GENERATOR.dice_for(inputs).count
    adventure.check_generate(state, group)  # refused before rolling
    faces = list(dice.roll(DiceRequest(D6, count, ordered=True)))  # read in order
    source = CHALLENGE_GENERATOR.resolve(inputs, faces).source
    opposition = command.opposition
    if opposition is None:
        opposition = arrived_in(state, source)
    if opposition is None:
        table = "creatures" if source is Source.CREATURES else "environments"
        first = decided(state, _draw(state, table, dice), typed=typed)
        name = first.outcome.entry.text
        then = adventure.decide_generate(first.after, agents=group, faces=faces, opposition=name)
        return _joined(first, then, typed)
    made = adventure.decide_generate(state, agents=group, faces=faces, opposition=opposition)
    return decided(state, made, typed=typed)


def arrived_in(state: AgentsState, source: Source) -> str | None:
    """The environment where the agents arrived, when it opposes a challenge of ``source``.

    In the quest's first scene the environment is the one drawn for where the agents
    arrive: a challenge the environment itself presents is opposed by it, with no new draw
    (ruling G-X2). Later scenes draw their environment, the agents having moved on.

    Returns:
        The arrival environment's text, or None (another source, a later scene, or none
        drawn).

    Source: seed 002, "Génération de challenge"; G-M9 steps 3.1 and 3.2; G-X2.
    """
    if arrival_opposes(source, state.scene) and state.arrival:
        return state.arrival
    return None


def arrival_opposes(source: Source, scene: int) -> bool:
    """Whether the environment where the agents arrived opposes a challenge (G-X2).

    Args:
        source: the challenge's source as drawn.
        scene: the scene's number, from 1.

    Returns:
        True for a challenge the environment presents in the quest's first scene (no
        opposition drawn then, when an arrival was drawn).

    Source: G-M9 steps 3.1 and 3.2; G-X2.
    """
    return source is Source.ENVIRONMENT and scene == 1


def _contest_start(
    state: AgentsState, command: ContestStart, dice: Chance, typed: bool
) -> Decision[AgentsState]:
    favori, off = command.favori, None
    quest = state.quest
    won = quest is not None and quest.status is QuestStatus.WON
    if favori is None and quest is not None and won and state.contest is None:
        best = [quest.agents[i].name for i in most_wins(quest.wins)]
        if len(best) > 1:
            off = roll_off(dice, best)
            favori = off.agent
    made = decided(state, adventure.decide_contest_start(state, favori=favori), typed=typed)
    return _with_roll_off(made, off)


def decide(
    state: AgentsState, command: Command, dice: Chance, *, typed: bool = True
) -> Decision[AgentsState]:
    """Decide an agents command against the state, throwing its dice from ``dice`` (pure).

    Args:
        state: the table's state.
        command: a declared agents command.
        dice: where faces come from; asked once per throw, in order.
        typed: True (play) for the decision's events, typed and folded into the state
            after; False for a caller that reads only the state after (the lab's
            simulations): no events, the rules' own state after (the state their facts fold
            into; the same state, see `decided`).

    Returns:
        The decision: its events, the state after them, who acted, the rules' outcome.

    Raises:
        InputError: malformed input (a bad name, modifier, face); RuleError: refused by the
            rules now (NotFoundError, an unknown agent or challenge, is an InputError).

    Source: G-M1 to G-M12.
    """
    match command:
        case CreateAgent():
            game.check_identity(command.organisation, command.signature)  # G-X3
            made = game.decide_agent(
                state,
                name=command.name_,
                muscles=command.muscles,
                sexe=command.sexe,
                intelligence=command.intelligence,
                organisation=command.organisation,
                signature=command.signature,
                owner=command.owner,
            )
        case OpenChallenge():
            made = game.decide_challenge(
                state,
                kind=command.kind,
                agents=split_names(command.agents),
                oppositions=[_opposition(line) for line in command.oppositions],
                label=command.label,
            )
        case Act():
            return _act(state, command, dice, typed)
        case Concede():
            return _leave(state, command, recovery.decide_concede, typed)
        case Abandon():
            return _leave(state, command, recovery.decide_abandon, typed)
        case FailOnPurpose():
            made = recovery.decide_fail_on_purpose(
                state, agent=command.agent, reserve=command.reserve, reason=command.reason
            )
        case NameWinner():
            return _winner(state, command, dice, typed)
        case Quest():
            return _quest(state, command, dice, typed)
        case Draw():
            made = _draw(state, command.kind, dice)
        case NextScene():
            made = adventure.decide_scene(state)
        case Generate():
            return _generate(state, command, dice, typed)
        case Settle():
            made = adventure.decide_consequence(state, challenge=command.challenge)
        case GiveUp():
            made = adventure.decide_quest_abandon(state)
        case ContestStart():
            return _contest_start(state, command, dice, typed)
        case ContestChallenge():
            made = adventure.decide_contest_challenge(
                state,
                challengers=split_names(command.challengers),
                attribute=reserve_named(command.attribute).value,
                wanting=split_names(command.wanting),
                allies=split_names(command.allies),
            )
        case ContestSettle():
            made = adventure.decide_contest_settle(
                state, challenge=command.challenge, taker=command.taker
            )
        case ContestClose():
            made = adventure.decide_contest_close(state, wanting=split_names(command.wanting))
        case _:
            raise InputError(N_("{name} is not an agents command"), name=command.name)
    return decided(state, made, typed=typed)


def decide_options(state: AgentsState, changes: Mapping[str, str]) -> Decision[AgentsState]:
    """Change the table's house rules from text values (InputError naming a bad one)."""
    return decided(state, game.decide_options(state, changes))


def redecide_stored(state: AgentsState, event: Event) -> Decision[AgentsState] | None:
    """Decide again an event whose command does not say it all, or None for the others.

    The house rules are decided from their values; a quest from the tables it stored and
    its source as stored; a drawn challenge with its opposition as stored (even none),
    without drawing it again; an agent as stored, even without an organisation or a
    signature object, which a new agent needs (G-X3) but an earlier Tablée did not ask.
    """
    p: Mapping[str, JSON] = event.payload()
    match event.kind:
        case "agents.agent_created":
            made = game.decide_agent(
                state,
                name=p["name"],
                muscles=p["muscles"],
                sexe=p["sexe"],
                intelligence=p["intelligence"],
                organisation=p["organisation"],
                signature=p["signature"],
                owner=p["owner"],
            )
            return decided(state, made)
        case "agents.options_set":
            return decide_options(state, stored_changes(p))
        case "agents.quest_drawn":
            source = str(p["source"])
            tables = adventure.tables_from_json(p["tables"], source)
            made = adventure.decide_quest(state, tables=tables, source=source, face=p["face"])
            return decided(state, made)
        case "agents.challenge_generated":
            made = adventure.decide_generate(
                state, agents=list(p["agents"]), faces=list(p["faces"]), opposition=p["opposition"]
            )
            return decided(state, made)
    return None
