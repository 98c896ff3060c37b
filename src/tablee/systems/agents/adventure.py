"""The adventure at the table: quest, scenes, drawn challenges, consequences, contest.

Each step is a stored fact decided by the generator's pure rules.

The scenario generator (`tablee.systems.agents.generator`, `quest`, `tables`, `contest`)
keeps the books; this module turns each of its steps into one fact that `evolve` decides
again, and keeps the agents' records in step: the table's agents hold the reserves and the
Sang, the quest's copies are refreshed from them before every step and copied back after.

Event kinds (version 1, but ``agents.consequence_applied`` at version 2, which records the
Sang before and a challenge settled after the quest was won, G-X1): ``agents.quest_drawn``,
``agents.table_drawn``, ``agents.scene_started``, ``agents.challenge_generated``,
``agents.consequence_applied``, ``agents.quest_abandoned``, ``agents.contest_started``,
``agents.contest_challenge``, ``agents.contest_settled``, ``agents.contest_closed``.

Tablée's decisions where the rulings are silent:

* The quest's four tables are stored in the ``quest_drawn`` fact (as canonical text), so a
  log replays without the files it was drawn from.
* A new scene cannot start while a generated challenge is unsettled (still open, or its
  consequences not applied): the generator's scene is one challenge, or a split group's.
* A won generated challenge needs its winner named (G-M6) before its consequences, unless
  nobody acted (a score of 0, G-A2).
* In the contest the defenders' reserves are the opposition score only (G-A18): the
  challengers' successes lower the score, not the defenders' reserves.
* A challenge of the scene whose earlier consequences accomplished the quest is still
  settled before the contest: its winner's win counts, nothing else (G-X1).
* The environment drawn before the first scene is where the agents arrive (G-X2); a
  consequence that helps owes a boon until it is drawn or the next scene starts.

Source: seed ``002_59b03dd224c3b923.txt`` ("Génération de scénario", "Conclusion du
scénario"); rulings G-M9 to G-M12, G-A1 to G-A3, G-A10, G-A11, G-A13, G-A15 to G-A18;
G-X1, G-X2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from tablee.errors import N_, InputError, NotFoundError, RuleError
from tablee.systems.agents.agent import reserve_named
from tablee.systems.agents.challenge import open_challenge
from tablee.systems.agents.contest import (
    Contest,
    close_contest,
    launch_challenge,
    opposition_for,
    settle_challenge,
    start_contest,
)
from tablee.systems.agents.game import AgentsState, Decision, agent_named, check_present
from tablee.systems.agents.quest import (
    Quest,
    QuestStatus,
    abandon_quest,
    apply_consequence,
    check_involved,
    count_late_win,
    draw_quest,
    generate_challenge,
    start_scene,
)
from tablee.systems.agents.tables import (
    TABLE_DRAW,
    GeneratorTables,
    Table,
    TableKind,
    parse_table,
)
from tablee.systems.agents.words import QUEST_WORDS, word
from tablee.systems.base import JSON, Fact
from tablee.systems.common import replaced

__all__ = [
    "after_draw",
    "check_generate",
    "decide_consequence",
    "decide_contest_challenge",
    "decide_contest_close",
    "decide_contest_settle",
    "decide_contest_start",
    "decide_draw",
    "decide_generate",
    "decide_quest",
    "decide_quest_abandon",
    "decide_scene",
    "quest_json",
    "table_text",
    "tables_from_json",
    "tables_json",
]


def table_text(table: Table) -> str:
    """A table in the file format, canonical: ``@die dN`` then one ``low-high | text`` a line.

    Source: G-A13 (the format of `tablee.systems.agents.tables`).
    """
    lines = [f"@die d{table.die.sides}"]
    for entry in table.entries:
        faces = str(entry.low) if entry.low == entry.high else f"{entry.low}-{entry.high}"
        lines.append(f"{faces} | {entry.text}")
    return "\n".join(lines) + "\n"


def tables_json(tables: GeneratorTables) -> dict[str, JSON]:
    """The four tables as ``{kind: canonical text}`` (stored in ``agents.quest_drawn``)."""
    return {kind.value: table_text(tables.table(kind)) for kind in TableKind}


def tables_from_json(data: Mapping[str, JSON], source: str) -> GeneratorTables:
    """The four tables back from `tables_json`.

    Raises:
        InputError: a missing table or one that does not parse (naming it and the line).
    """
    parsed = {}
    for kind in TableKind:
        text = data[kind.value]
        if not isinstance(text, str):
            raise InputError(N_("table {kind} must be text"), kind=kind.value)
        parsed[kind] = _parsed_table(text, f"{source}/{kind.value}.txt")
    return GeneratorTables.of(parsed)


@lru_cache(maxsize=64)
def _parsed_table(text: str, name: str) -> Table:
    """`parse_table`, remembered for the last texts read (a table is immutable)."""
    return parse_table(text, name)


def _quest(state: AgentsState) -> Quest:
    """The quest with its agent records refreshed from the table's."""
    quest = state.quest
    if quest is None:
        raise RuleError(
            N_("no quest has been drawn at this table (rule G-M9)"),
            cli_tip=N_("draw one with: tablee agents play"),
        )
    return replaced(quest, agents=tuple(state.agents[a.name] for a in quest.agents))


def _after_quest(state: AgentsState, quest: Quest, **changes: object) -> AgentsState:
    """The state with the quest stored and the agents' records copied back from it."""
    agents = {**state.agents, **{a.name: a for a in quest.agents}}
    return replaced(state, quest=quest, agents=agents, **changes)


def _fact(kind: str, payload: dict[str, JSON], actor: str = "gm") -> Fact:
    return Fact(kind, payload, actor=actor)


def decide_quest(
    state: AgentsState, *, tables: GeneratorTables, source: str, face: int
) -> Decision:
    """Draw a quest for every agent at the table: index 0, objective secret (G-M9).

    Args:
        state: current state; no quest ongoing.
        tables: the generator tables (starter or the group's own).
        source: where they come from (``starter:fr``, a folder's name), for the log.
        face: the objective table's die.

    Raises:
        InputError: a bad face or source; no agent at the table.
        RuleError: a quest is still ongoing.

    Source: G-M9 steps 1 and 2; G-A13.
    """
    if state.quest is not None and state.quest.status is QuestStatus.ONGOING:
        raise RuleError(
            N_("a quest is already under way (rule G-M9)"),
            tip=N_("finish it, or abandon it first"),
        )
    if not isinstance(source, str) or not source.strip():
        raise InputError(N_("the tables' source must be a name, not {value!r}"), value=source)
    stored = tables_json(tables)
    tables = tables_from_json(stored, source.strip())  # as a replay will read them
    drawn = draw_quest(tuple(state.agents.values()), tables.objectives, [face])
    payload: dict[str, JSON] = {
        "source": source.strip(),
        "tables": stored,
        "face": face,
        "objective": drawn.quest.objective.text,
        "agents": [a.name for a in drawn.quest.agents],
    }
    after = replaced(
        state,
        quest=drawn.quest,
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
    return Decision((_fact("agents.quest_drawn", payload),), drawn, (), after)


def after_draw(state: AgentsState, table: str, text: str) -> AgentsState:
    """The state after an entry of ``table`` is drawn: where the agents arrive, a boon owed.

    An environment drawn before the quest's first scene is where the agents arrive (the
    first scene's environment, G-X2); a boon drawn pays one that a consequence owes.

    Source: G-M9 step 3.1; G-A13 (boons: Tablée's addition); G-X2.
    """
    if table == TableKind.ENVIRONMENTS.value and state.quest is not None and state.scene == 0:
        return replaced(state, arrival=text)
    if table == TableKind.BOONS.value and state.boons_owed > 0:
        return replaced(state, boons_owed=state.boons_owed - 1)
    return state


def decide_draw(state: AgentsState, *, table: str, face: int) -> Decision:
    """Draw one entry of a quest table (an environment, creatures, a boon) for the story.

    Raises:
        InputError: an unknown table or a bad face.
        RuleError: no quest drawn; the objectives table (its one draw is the quest's, and
            drawing again would give the secret away, G-M9).

    Source: G-M9 steps 2, 3.1 and 3.2; G-A13 (boons: Tablée's addition).
    """
    _quest(state)
    try:
        kind = TableKind(str(table).strip().casefold())
    except ValueError:
        raise InputError(
            N_("{value!r} is not a generator table ({known})"),
            value=table,
            known=", ".join(k.value for k in TableKind),
        ) from None
    if kind is TableKind.OBJECTIVES:
        raise RuleError(
            N_(
                "the quest objective is drawn once, with the quest, and stays secret until "
                "the index reaches 1 (rule G-M9)"
            ),
            tip=N_("draw from the environments, creatures or boons table"),
        )
    tables = state.tables
    assert tables is not None  # drawn with the quest
    drawn = TABLE_DRAW.resolve(tables.table(kind), [face])
    payload: dict[str, JSON] = {"table": kind.value, "face": face, "text": drawn.entry.text}
    after = after_draw(state, kind.value, drawn.entry.text)
    return Decision((_fact("agents.table_drawn", payload),), drawn, (), after)


def _unsettled(state: AgentsState) -> list[int]:
    return [n for n in state.generated if n not in state.settled]


def decide_scene(state: AgentsState) -> Decision:
    """Start the quest's next scene: agents back from sitting out at Sang 1, Sang 0 sit out.

    Raises:
        RuleError: no quest, the quest is over, or a generated challenge is unsettled.

    Source: G-M11, G-A16.
    """
    quest = _quest(state)
    pending = _unsettled(state)
    if pending:
        raise RuleError(
            N_("challenge {number} is not settled yet: finish it and apply its consequences"),
            number=pending[0],
        )
    scene = start_scene(quest)
    payload: dict[str, JSON] = {
        "scene": state.scene + 1,
        "returned": list(scene.returned),
        "sitting_out": list(scene.sitting_out),
    }
    after = _after_quest(
        state, scene.quest, scene=state.scene + 1, scene_challenges=(), boons_owed=0
    )
    return Decision((_fact("agents.scene_started", payload),), scene, (), after)


def check_generate(state: AgentsState, agents: Sequence[str]) -> tuple[Quest, list[str]]:
    """Refuse a challenge that `decide_generate` would refuse whatever its dice.

    Returns:
        The quest (its agent records refreshed) and the involved agents' stored names.

    Raises:
        InputError: bad names. NotFoundError: an unknown agent.
        RuleError: no quest or scene; the quest is over; an agent sits out (G-A16).

    Source: G-M9 step 3, G-M11, G-A16.
    """
    quest = _quest(state)
    if state.scene == 0:
        raise RuleError(N_("start a scene before drawing its challenge (rule G-A16)"))
    names = [agent_named(state, a) for a in agents]
    for name in names:
        check_present(state, name)
    check_involved(quest, names)
    return quest, names


def decide_generate(
    state: AgentsState,
    *,
    agents: Sequence[str],
    faces: Sequence[int],
    opposition: str | None = None,
) -> Decision:
    """Draw the scene's next challenge for some agents and open it (G-M9 step 3).

    Args:
        state: current state, a scene started.
        agents: the involved agents (a split group), in turn order.
        faces: the d6s in order: source, relation (none at index 3), type, score.
        opposition: the opposition's name (a drawn creature...); None names its source.

    Raises:
        InputError: bad names or faces. NotFoundError: an unknown agent.
        RuleError: no quest or scene; the quest is over; an agent sits out (G-A16).

    Source: G-M9 step 3, G-N3, G-N4, G-A1 to G-A3, G-A16.
    """
    quest, names = check_generate(state, agents)
    generated = generate_challenge(quest, names, list(faces), state.options)
    label = opposition.strip() if isinstance(opposition, str) and opposition.strip() else ""
    number = len(state.challenges) + 1
    reserves = {n: state.agents[n].reserve(generated.kind) for n in names}
    name = label or generated.source.value
    challenge = open_challenge(
        number, generated.kind, names, [(name, generated.score)], reserves, label=""
    )
    payload: dict[str, JSON] = {
        "number": number,
        "agents": names,
        "faces": list(generated.faces),
        "opposition": opposition,
        "progress": generated.progress,
        "source": generated.source.value,
        "relation": generated.relation.value,
        "forced": generated.relation_forced,
        "kind": generated.kind.value,
        "score": generated.score,
        "ended": challenge.outcome,
    }
    after = replaced(
        state,
        challenges={**state.challenges, number: challenge},
        generated={**state.generated, number: generated.drawn()},
        scene_challenges=(*state.scene_challenges, number),
    )
    return Decision((_fact("agents.challenge_generated", payload),), challenge, (), after)


def _late(state: AgentsState, challenge: int) -> bool:
    """Whether ``challenge`` is of the scene whose earlier consequences won the quest (G-X1)."""
    quest = state.quest
    return (
        quest is not None
        and quest.status is QuestStatus.WON
        and state.contest is None
        and challenge in state.scene_challenges
    )


def decide_consequence(state: AgentsState, *, challenge: int) -> Decision:
    """Apply a finished generated challenge's consequences to the quest (G-M10).

    A challenge of the scene whose earlier consequences accomplished the quest is still
    settled, before the contest begins: only its winner's count changes (G-X1).

    Raises:
        NotFoundError: not a generated challenge.
        RuleError: still open; already applied; won without a winner named (G-M6); the
            quest is over (G-A17), but for the other challenges of the scene that won it.

    Source: G-M9 steps 4-6, G-M10, G-M11, G-A10, G-A11, G-A15, G-A17; G-X1.
    """
    quest = _quest(state)
    drawn = state.generated.get(challenge)
    played = state.challenges.get(challenge)
    if drawn is None or played is None:
        raise NotFoundError(
            N_("challenge {number!r} was not drawn by the generator in this quest"),
            number=challenge,
        )
    if played.is_open:
        raise RuleError(N_("challenge {number} is still being played"), number=challenge)
    if challenge in state.settled:
        raise RuleError(
            N_("challenge {number}'s consequences are already applied"), number=challenge
        )
    won = played.outcome == "won"
    if won and played.winner is None and played.actions:
        raise RuleError(N_("name challenge {number}'s winner first (rule G-M6)"), number=challenge)
    late = _late(state, challenge)
    settle = count_late_win if late else apply_consequence
    result = settle(quest, drawn, won=won, winner=played.winner if won else None)
    new = result.quest
    before: dict[str, JSON] = {a.name: a.sang for a in quest.agents if a.name in drawn.involved}
    payload: dict[str, JSON] = {
        "challenge": challenge,
        "won": won,
        "before": before,
        "late": late,
        "records": {
            "progress": new.progress,
            "change": result.progress_change,
            "sang": result.sang_change,
            "helped": result.helped,
            "revealed": result.revealed_now,
            "objective": new.objective.text if result.revealed_now else None,
            "status": new.status.value,
            "agents": {a.name: a.sang for a in new.agents if a.name in drawn.involved},
        },
    }
    owed = state.boons_owed + (1 if result.helped else 0)  # a boon to draw (G-A13)
    after = _after_quest(state, new, settled=state.settled | {challenge}, boons_owed=owed)
    return Decision((_fact("agents.consequence_applied", payload),), result, (), after)


def decide_quest_abandon(state: AgentsState) -> Decision:
    """The agents give up their quest (G-M9 step 6).

    Raises:
        RuleError: no quest, or it is over.
    """
    quest = abandon_quest(_quest(state))
    return Decision((_fact("agents.quest_abandoned", {}),), quest, (), _after_quest(state, quest))


def decide_contest_start(state: AgentsState, *, favori: str | None = None) -> Decision:
    """Open the artefact contest: the favori (most wins) restored, holding the artefact.

    Raises:
        RuleError: the quest is not won; a tie for most wins with no favori named.
        InputError: a favori without the most wins.

    Source: G-M12 step 1, G-A9, G-A18.
    """
    quest = _quest(state)
    if quest.status is not QuestStatus.WON:
        raise RuleError(
            N_("the artefact is contested once the quest is won (rule G-M12), not {status}"),
            status=word(QUEST_WORDS, quest.status.value),
        )
    if state.contest is not None:
        raise RuleError(N_("the artefact contest has already begun"))
    name = None if favori is None else agent_named(state, favori)
    start = start_contest(quest.agents, quest.wins, favori=name)
    agents = {**state.agents, start.favori.name: start.favori}
    payload: dict[str, JSON] = {"favori": name, "holder": start.contest.holder}
    after = replaced(state, agents=agents, contest=start.contest)
    return Decision((_fact("agents.contest_started", payload),), start, (), after)


def _contest(state: AgentsState) -> Contest:
    if state.contest is None:
        raise RuleError(N_("the artefact contest has not begun (rule G-M12)"))
    return state.contest


def _names(state: AgentsState, names: Iterable[str]) -> list[str]:
    if isinstance(names, str):
        names = [names]
    return [agent_named(state, n) for n in names]


def decide_contest_challenge(
    state: AgentsState,
    *,
    challengers: Sequence[str],
    attribute: str,
    wanting: Sequence[str] = (),
    allies: Sequence[str] = (),
) -> Decision:
    """Challenge the artefact's holder on a reserve; opens a challenge against them (G-A18).

    Raises:
        InputError: unknown names, sides that overlap, a bad attribute.
        RuleError: no contest or it is over; not the challengers' turn (fewest wins first);
            a challenger already lost to this holder; a bout still unsettled.

    Source: G-M12 steps 2-3, G-A18.
    """
    contest = _contest(state)
    pending = [n for n in state.bouts if n not in state.settled_bouts]
    if pending:
        raise RuleError(N_("contest challenge {number} is not settled yet"), number=pending[0])
    which = reserve_named(attribute)
    launched = launch_challenge(
        contest,
        _names(state, challengers),
        which,
        wanting=_names(state, wanting),
        allies=_names(state, allies),
    )
    for name in launched.challengers:
        check_present(state, name)
    score = opposition_for(launched, tuple(state.agents.values()))
    number = len(state.challenges) + 1
    reserves = {n: state.agents[n].reserve(which) for n in launched.challengers}
    opposition = " + ".join(launched.defenders)
    challenge = open_challenge(number, which, launched.challengers, [(opposition, score)], reserves)
    payload: dict[str, JSON] = {
        "number": number,
        "challengers": list(challengers),
        "attribute": which.value,
        "wanting": list(wanting),
        "allies": list(allies),
        "order": list(launched.challengers),
        "defenders": list(launched.defenders),
        "score": score,
        "ended": challenge.outcome,
    }
    after = replaced(
        state,
        challenges={**state.challenges, number: challenge},
        bouts={**state.bouts, number: launched.bout()},
    )
    return Decision((_fact("agents.contest_challenge", payload),), challenge, (), after)


def decide_contest_settle(
    state: AgentsState, *, challenge: int, taker: str | None = None
) -> Decision:
    """Record a finished contest challenge: the artefact changes hands on a win (G-M12).

    Raises:
        NotFoundError: not a contest challenge.
        RuleError: still open or already settled; the holder changed.
        InputError: a taker outside the winning alliance, or on a loss.

    Source: G-M12 steps 2 and 4, G-A18.
    """
    contest = _contest(state)
    launched = state.bouts.get(challenge)
    played = state.challenges.get(challenge)
    if launched is None or played is None:
        raise NotFoundError(
            N_("challenge {number!r} is not a challenge of the artefact contest"),
            number=challenge,
        )
    if played.is_open or challenge in state.settled_bouts:
        raise RuleError(
            N_("contest challenge {number} is still being played, or already settled"),
            number=challenge,
        )
    name = None if taker is None else agent_named(state, taker)
    step = settle_challenge(
        contest,
        launched,
        challengers_won=played.outcome == "won",
        taker=name,
    )
    payload: dict[str, JSON] = {"challenge": challenge, "taker": name, "holder": step.holder}
    after = replaced(state, contest=step.contest, settled_bouts=state.settled_bouts | {challenge})
    return Decision((_fact("agents.contest_settled", payload),), step, (), after)


def decide_contest_close(state: AgentsState, *, wanting: Sequence[str] = ()) -> Decision:
    """End the contest: nobody eligible wants to challenge the holder any more (G-M12).

    Raises:
        RuleError: an eligible agent still wants to; a bout unsettled; no contest.

    Source: G-M12 step 4.
    """
    contest = _contest(state)
    pending = [n for n in state.bouts if n not in state.settled_bouts]
    if pending:
        raise RuleError(N_("contest challenge {number} is not settled yet"), number=pending[0])
    step = close_contest(contest, _names(state, wanting))
    payload: dict[str, JSON] = {"wanting": list(wanting), "holder": step.holder}
    after = replaced(state, contest=step.contest)
    return Decision((_fact("agents.contest_closed", payload),), step, (), after)


def quest_json(state: AgentsState) -> dict[str, JSON] | None:
    """The quest for the summary: index, objective once revealed, status, scene, wins.

    Source: G-M9, G-M11, G-M12.
    """
    if state.quest is None:
        return None
    quest: Quest = state.quest
    contest = state.contest
    return {
        "progress": quest.progress,
        "objective": quest.objective.text if quest.objective_revealed else None,
        "status": quest.status.value,
        "scene": state.scene,
        "sitting_out": sorted(quest.sitting_out),
        "wins": quest.wins_by_name(),
        "unsettled": _unsettled(state),
        "contest": None
        if contest is None
        else {
            "favori": contest.favori,
            "holder": contest.holder,
            "finished": contest.finished,
            "challenged": sorted(contest.challenged),
        },
    }
