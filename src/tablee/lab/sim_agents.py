"""Agents in the lab: whole adventures played by the scenario generator, without a GM.

Each adventure is played as ``tablee agents play`` plays it: `next_step` says what the
adventure needs, and every step is decided by the game's own `decide` (the same commands
and rules, dice through the chance protocol; a challenge's actions by `play_course`, the
actions of the agents due one after another), with every choice a player would make taken
by a named policy instead. The defaults are ``play``'s empty answers: everyone together in
each challenge, no modifier ticked, the winner named by the rule (most reserve spent, a
roll-off on a tie, G-A12), the favori rolled off on a tie (G-A18), nobody challenging the
favori. The house rules compared are `AgentsOptions` variants. Under those default
policies each adventure is played by `play_lean` instead, on one mutable record per trial
(the rules' `Course` and `QuestCourse`): the same dice, the same ends, about fourteen times
less CPU.

Source: seed 002, "Génération de scénario", "Conclusion du scénario"; rulings G-M1 to
G-M12, G-A1 to G-A3, G-A12, G-A18; docs/rules/agents.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Annotated, ClassVar, Literal, NamedTuple

from tablee.dice import D6, Chance, DiceRequest
from tablee.errors import N_, InputError
from tablee.lab.questions import LabContext, Question, Seed
from tablee.lab.results import Cell, Chart, Column, LabResult, Policy, Variant
from tablee.lab.runner import Tally, run_simulation
from tablee.systems.agents.adventure import decide_quest
from tablee.systems.agents.agent import Agent, Reserve
from tablee.systems.agents.challenge import Course, Standing
from tablee.systems.agents.commands import (
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
    Quest,
    Settle,
)
from tablee.systems.agents.contest import most_wins, next_challengers
from tablee.systems.agents.decide import arrival_opposes, decide, roll_off
from tablee.systems.agents.flow import StepKind, next_step
from tablee.systems.agents.game import AgentsState, play_course
from tablee.systems.agents.generator import (
    CHALLENGE_GENERATOR,
    SHOWDOWN_AT,
    ChallengeInputs,
    Source,
    drawn_values,
)
from tablee.systems.agents.options import AgentsOptions
from tablee.systems.agents.quest import QuestCourse, QuestStatus
from tablee.systems.agents.starters import starter_tables
from tablee.systems.agents.tables import GeneratorTables
from tablee.systems.declare import Command, Param

__all__ = [
    "VARIANTS",
    "Adventure",
    "AdventurePolicies",
    "Ending",
    "ending_of",
    "lean",
    "play_adventure",
    "play_lean",
]

MAX_STEPS = 10_000
"""Most steps one simulated adventure takes (as ``play``: a guard against a loop)."""

VARIANTS: tuple[Variant, ...] = (
    Variant("rules", N_("the rulings' readings (defaults)")),
    Variant(
        "rows_literal",
        N_("opposition table rows as written (G-A1)"),
        {"opposition_rows": "literal"},
    ),
    Variant(
        "rounding_up",
        N_("half a d6 of opposition rounded up (G-A3)"),
        {"opposition_rounding": "up"},
    ),
    Variant(
        "minimum_one",
        N_("a generated opposition of at least 1 per agent (G-A2)"),
        {"opposition_minimum": "one_per_agent"},
    ),
)
"""The house rules compared, each a series of the result."""

FAVORI_SEATS = (
    N_("seat 1 is the favori"),
    N_("seat 2 is the favori"),
    N_("seat 3 is the favori"),
    N_("seat 4 is the favori"),
    N_("seat 5 is the favori"),
    N_("seat 6 is the favori"),
)
"""The label of the favori column of each seat, 1 to 6 (the most agents a row takes)."""

_PERMUTATIONS = ((7, 5, 3), (5, 3, 7), (3, 7, 5), (7, 3, 5), (5, 7, 3), (3, 5, 7))

Creation = Literal["rotate", "same"]
Concession = Literal["never", "when_low"]
Recovery = Literal["press_on", "recover"]
ContestPolicy = Literal["nobody", "everyone"]

CREATION: Mapping[str, str] = {
    "rotate": N_("seat k takes the k-th order of 7, 5 and 3 (Muscles, Sexe, Intelligence)"),
    "same": N_("every agent takes Muscles 7, Sexe 5, Intelligence 3"),
}
CONCESSION: Mapping[str, str] = {
    "never": N_("nobody concedes a challenge"),
    "when_low": N_(
        "before the first turn, an agent with at most the set points in the challenge's "
        "reserve concedes, getting it back in full (G-M8)"
    ),
}
RECOVERY: Mapping[str, str] = {
    "press_on": N_("between scenes, go straight to the next scene"),
    "recover": N_(
        "between scenes, each agent below a starting value fails one action on purpose "
        "on its most spent reserve, +1 (G-M7)"
    ),
}
CONTEST: Mapping[str, str] = {
    "nobody": N_("nobody challenges the favori: the favori takes the artefact"),
    "everyone": N_(
        "every agent wants the artefact: the agent due challenges the holder alone, on its "
        "highest reserve, until nobody may (G-M12)"
    ),
}


@dataclass(frozen=True)
class AdventurePolicies:
    """The choices of one simulated adventure (see the module's mappings for each name).

    Attributes:
        concession: ``never`` or ``when_low``; ``low`` is the threshold of ``when_low``.
        recovery: ``press_on`` or ``recover``.
        contest: ``nobody`` or ``everyone``.
        max_scenes: the group gives up the quest when it would start this scene (G-M9
            step 6 lets it give up).
        max_bouts: under ``everyone``, the agents stop challenging after this many
            challenges for the artefact (two agents may take it from each other forever).
    """

    concession: str = "never"
    low: int = 1
    recovery: str = "press_on"
    contest: str = "nobody"
    max_scenes: int = 30
    max_bouts: int = 12


@dataclass(frozen=True)
class Played:
    """How one simulated adventure ended.

    Attributes:
        state: the table at the end.
        scenes: the scenes the quest took.
        favori: the favori, None when the quest was not won.
        capped: the contest was closed by ``max_bouts`` while someone still could challenge.
    """

    state: AgentsState
    scenes: int
    favori: str | None
    capped: bool


def _present(state: AgentsState) -> tuple[str, ...]:
    """The agents who take part in the scene (not sitting out, Sang left), as ``play`` asks."""
    assert state.quest is not None
    return tuple(
        n for n in state.agents if n not in state.quest.sitting_out and state.agents[n].sang > 0
    )


def _concessions(state: AgentsState, number: int, policies: AdventurePolicies) -> list[Command]:
    """The concessions the policy makes before a challenge's first turn (G-M8)."""
    if policies.concession != "when_low":
        return []
    challenge = state.challenges[number]
    kind = challenge.kind
    return [
        Concede(agent=name, challenge=number)
        for name in challenge.agents
        if challenge.standing[name] is Standing.ACTIVE
        and state.agents[name].reserve(kind) <= policies.low
        and state.agents[name].reserve(kind) < state.agents[name].start(kind)
    ]


def _between_scenes(state: AgentsState, policies: AdventurePolicies) -> list[Command]:
    """What the group does between scenes: recover, then the next scene or give up."""
    if state.scene >= policies.max_scenes:
        return [GiveUp()]
    out: list[Command] = []
    if policies.recovery == "recover":
        for name, agent in state.agents.items():
            spent = max(Reserve, key=lambda r: agent.start(r) - agent.reserve(r))
            if agent.reserve(spent) < agent.start(spent):
                out.append(FailOnPurpose(agent=name, reserve=spent.value))
    return [*out, NextScene()]


def _contest_turn(state: AgentsState, policies: AdventurePolicies) -> Command | None:
    """The next challenge for the artefact, the contest's close, or None when capped (G-M12)."""
    contest = state.contest
    assert contest is not None
    if policies.contest == "nobody":
        return ContestClose()
    wanting = tuple(n for n in contest.agents if n != contest.holder)
    due = next_challengers(contest, wanting)
    if not due:
        return ContestClose()
    if contest.bouts >= policies.max_bouts:
        return None
    hero = state.agents[due[0]]
    attribute = max(Reserve, key=hero.reserve).value
    return ContestChallenge(challengers=(due[0],), attribute=attribute, wanting=wanting)


def play_adventure(start: AgentsState, policies: AdventurePolicies, chance: Chance) -> Played:
    """Play one adventure from a table with its agents to its end.

    Args:
        start: the table with its agents created and no quest yet.
        policies: every choice a player would make.
        chance: where every die comes from.

    Returns:
        How it ended.

    Raises:
        InputError: the adventure did not end within `MAX_STEPS` steps.
        RuleError, InputError: a rule refused a policy's command (a bug of the policy).

    Source: G-M5, G-M6, G-M9 to G-M12 (`next_step`).
    """
    state = start
    offered: set[int] = set()
    scenes, capped = 0, False
    for _ in range(MAX_STEPS):
        step = next_step(state)
        kind = step.kind
        commands: list[Command]
        if kind is StepKind.DONE:
            favori = state.contest.favori if state.contest is not None else None
            return Played(state, scenes, favori, capped)
        if kind is StepKind.DRAW_QUEST:
            commands = [Quest(starter="en")]
        elif kind is StepKind.DRAW:
            commands = [Draw(kind="boons" if step.table == "boons" else "environments")]
        elif kind is StepKind.START_SCENE:
            commands = _between_scenes(state, policies)
        elif kind is StepKind.GENERATE:
            commands = [Generate(agents=_present(state))]
        elif kind is StepKind.ACT:
            assert step.challenge is not None
            commands = []
            if step.challenge not in offered and state.challenges[step.challenge].actions == 0:
                offered.add(step.challenge)
                commands = _concessions(state, step.challenge, policies)
            if not commands:  # played to its end, each agent due acting in turn
                state = play_course(state, challenge=step.challenge, chance=chance)
                continue
        elif kind is StepKind.NAME_WINNER:
            assert step.challenge is not None
            commands = [NameWinner(challenge=step.challenge)]
        elif kind is StepKind.CONSEQUENCE:
            assert step.challenge is not None
            commands = [Settle(challenge=step.challenge)]
        elif kind is StepKind.START_CONTEST:
            scenes = state.scene
            commands = [ContestStart()]
        elif kind is StepKind.CONTEST_CHALLENGE:
            turn = _contest_turn(state, policies)
            capped = turn is None
            commands = [ContestClose() if turn is None else turn]
        elif kind is StepKind.SETTLE_BOUT:
            assert step.challenge is not None
            commands = [ContestSettle(challenge=step.challenge)]
        else:  # CREATE_AGENTS: the table comes with its agents
            raise InputError(N_("a simulated adventure starts with its agents created"))
        for command in commands:
            state = _decided(state, command, chance)
        if state.quest is not None and state.quest.status is not QuestStatus.WON:
            scenes = state.scene
    raise InputError(N_("the adventure did not end within {n} steps"), n=MAX_STEPS)


@cache
def _table_draws() -> tuple[DiceRequest, DiceRequest, DiceRequest, DiceRequest]:
    """One draw of each starter table: objectives, environments, creatures, boons."""
    t = _starter_tables()
    return (
        DiceRequest(t.objectives.die, 1),
        DiceRequest(t.environments.die, 1),
        DiceRequest(t.creatures.die, 1),
        DiceRequest(t.boons.die, 1),
    )


_LeanStart = tuple[tuple[Agent, ...], dict[Reserve, tuple[int, ...]], tuple[int, ...]]
_LEAN_STARTS: dict[int, tuple[AgentsState, _LeanStart]] = {}
"""`_lean_start`'s answers by table (the table kept: an id is reused once it is freed)."""


def _lean_start(start: AgentsState) -> _LeanStart:
    """``start``'s agents, their reserves by type and their Sang, read once per table."""
    kept = _LEAN_STARTS.get(id(start))
    if kept is None or kept[0] is not start:
        agents = tuple(start.agents.values())
        held = {kind: tuple(a.reserve(kind) for a in agents) for kind in Reserve}
        kept = (start, (agents, held, tuple(a.sang for a in agents)))
        if len(_LEAN_STARTS) > 64:
            _LEAN_STARTS.clear()
        _LEAN_STARTS[id(start)] = kept
    return kept[1]


@cache
def _starter_tables() -> GeneratorTables:
    """Tablée's English starter tables, read once per process (they never change)."""
    return starter_tables("en")


def _decided(state: AgentsState, command: Command, chance: Chance) -> AgentsState:
    """The state after ``command``, decided by the game's `decide` (``typed=False``).

    ``typed=False``: its events are neither typed nor folded, the rules' own state after is
    kept (the state the facts fold into).

    A quest is drawn by the rule that draws it (`adventure.decide_quest`, as `decide`
    does) from Tablée's English starter tables read once per process. Actions are not
    commands here: `play_adventure` plays each challenge's course with `game.play_course`.
    """
    if isinstance(command, Quest):
        tables = _starter_tables()
        face = chance.roll(DiceRequest(tables.objectives.die, 1))[0]
        return decide_quest(state, tables=tables, source="starter:en", face=face).after
    return decide(state, command, chance, typed=False).after


_DRAW, _SHOWDOWN_DRAW = (
    DiceRequest(D6, CHALLENGE_GENERATOR.dice_for(ChallengeInputs(progress, 1)).count, ordered=True)
    for progress in (0, SHOWDOWN_AT)
)
"""The generator's d6s, read in order (as `decide` throws them): below index 3, and at
index 3 where the relation is forced (no relation die)."""


_FAILED, _WON = QuestStatus.FAILED, QuestStatus.WON


class Ending(NamedTuple):
    """How one simulated adventure ended, as the tallies read it.

    Attributes:
        status: the quest's status at the end.
        scenes: the scenes the quest took.
        sang_lost: the party's Sang at the start minus its Sang at the end.
        favori: the favori's seat from 0, None when the quest was not won.
        favori_keeps: the favori holds the artefact at the end.
        bouts: the challenges for the artefact.
        capped: the contest was closed by ``max_bouts`` while someone still could challenge.
    """

    status: QuestStatus
    scenes: int
    sang_lost: int
    favori: int | None = None
    favori_keeps: bool = False
    bouts: int = 0
    capped: bool = False


def ending_of(start: AgentsState, played: Played) -> Ending:
    """The `Ending` of an adventure `play_adventure` played from ``start``."""
    end, favori = played.state, played.favori
    assert end.quest is not None
    lost = sum(start.agents[n].sang - a.sang for n, a in end.agents.items())
    if favori is None or end.contest is None:
        return Ending(end.quest.status, played.scenes, lost)
    seat = list(end.agents).index(favori)
    contest = end.contest
    return Ending(
        end.quest.status,
        played.scenes,
        lost,
        seat,
        contest.holder == favori,
        contest.bouts,
        played.capped,
    )


def lean(policies: AdventurePolicies) -> bool:
    """Whether `play_lean` plays adventures under these policies (the defaults' choices).

    Those are: nobody concedes, no recovery between scenes, nobody challenges the favori.
    """
    return (
        policies.concession == "never"
        and policies.recovery == "press_on"
        and policies.contest == "nobody"
    )


def play_lean(start: AgentsState, policies: AdventurePolicies, chance: Chance) -> Ending:
    """Play one adventure as `play_adventure` does, on one mutable record per trial.

    The rules are the game's own, applied to lists instead of stored records: the
    generator's draw (`drawn_values`), the arrival's opposition (`arrival_opposes`), each
    challenge's course (`Course`), the fallback winner and its roll-off
    (`Course.candidates`, `roll_off`), the scene's start and the consequences
    (`QuestCourse`), the favori (`most_wins`). The steps follow `next_step`'s order for the
    policies `lean` accepts, and throw the same dice in the same order as
    `play_adventure` does, so both end alike from the same seed (a test plays both). What
    the tallies never read is not built: no command, fact, trace or stored state, and the
    tables' entries are not looked up (their dice are thrown).

    Args:
        start: the table with its agents created and no quest yet.
        policies: the choices; `lean` must accept them.
        chance: where every die comes from.

    Returns:
        How it ended.

    Source: G-M4 to G-M6, G-M9 to G-M12, G-A2, G-A12, G-A16 to G-A18; G-X2.
    """
    assert lean(policies)
    objectives, environments, creatures, boons = _table_draws()
    agents, held_at_start, sang_at_start = _lean_start(start)
    count = len(agents)
    reserves = {kind: list(held) for kind, held in held_at_start.items()}
    quest = QuestCourse(list(sang_at_start), [0] * count, [False] * count)
    chance.roll(objectives)  # the quest's objective (never read here)
    chance.roll(environments)  # where the agents arrive (G-X2)
    options = start.options
    scene = 0
    while True:
        if scene >= policies.max_scenes:
            quest.status = QuestStatus.ABANDONED  # the group gives up (G-M9 step 6)
            break
        quest.start_scene()
        scene += 1
        sang, sitting = quest.sang, quest.sitting
        present = [i for i in range(count) if sang[i] > 0 and not sitting[i]]
        progress = quest.progress
        faces = chance.roll(_SHOWDOWN_DRAW if progress == SHOWDOWN_AT else _DRAW)
        source, relation, kind, score = drawn_values(progress, len(present), faces, options)
        if not arrival_opposes(source, scene):  # an arrival is always drawn here
            chance.roll(creatures if source is Source.CREATURES else environments)
        held = reserves[kind]
        involved = [held[i] for i in present]
        course = Course.opened((score,), involved)
        course.run(involved, chance)
        for i, value in zip(present, involved, strict=True):
            held[i] = value
        won = course.outcome == "won"
        winner = None
        if won and course.actions:
            tied = course.candidates()
            if len(tied) == 1:
                winner = present[tied[0]]
            else:
                named = roll_off(chance, [agents[present[t]].name for t in tied]).agent
                winner = next(i for i in present if agents[i].name == named)
        helped = quest.consequence(relation, won, present, winner)[2]
        status = quest.status
        if status is _FAILED:
            break
        if helped:
            chance.roll(boons)  # the boon drawn (G-A13)
        if status is _WON:
            break
    lost = sum(a.sang for a in agents) - sum(quest.sang)
    if quest.status is not QuestStatus.WON:
        return Ending(quest.status, scene, lost)
    tied = most_wins(quest.wins)
    favori = tied[0]
    if len(tied) > 1:  # a roll-off (G-A18)
        named = roll_off(chance, [agents[i].name for i in tied]).agent
        favori = next(i for i in tied if agents[i].name == named)
    return Ending(quest.status, scene, lost, favori, True, 0, False)


@dataclass(frozen=True)
class _AdventureTrial:
    """One trial: an adventure per variant and party size (picklable, for the workers)."""

    starts: tuple[tuple[str, int, AgentsState], ...]
    policies: AdventurePolicies

    def trial(self, chance: Chance, tally: Tally) -> None:
        policies = self.policies
        quick = lean(policies)
        for variant, size, start in self.starts:
            key = f"{variant}:{size}"
            if quick:
                end = play_lean(start, policies, chance)
            else:
                end = ending_of(start, play_adventure(start, policies, chance))
            tally.count(f"{key}:{end.status.value}")
            tally.add(f"{key}:scenes", end.scenes)
            tally.add(f"{key}:sang_lost", end.sang_lost)
            if end.favori is not None:
                tally.count(f"{key}:favori={end.favori + 1}")
                if end.favori_keeps:
                    tally.count(f"{key}:favori_keeps")
                tally.add(f"{key}:bouts", end.bouts)
                if end.capped:
                    tally.count(f"{key}:capped")


@dataclass(frozen=True)
class Adventure(Question):
    """Whole adventures without a GM: by party size and house rules, under named policies.

    Rows: one per house-rule variant (`VARIANTS`) and party size (``min_agents`` to
    ``max_agents``). Measures (each an estimate with its 95% interval, one adventure being
    one trial): the chance that the quest is won, failed (no Sang left, G-M11) or given
    up (after ``max_scenes`` scenes), the mean number of scenes, the mean Sang lost by the
    party (Sang at the start minus Sang at the end), and, among won quests, the chance
    that each seat becomes the favori, that the favori keeps the artefact, and the mean
    number of challenges for it.

    Raises (from `answer`):
        InputError: ``min_agents`` above ``max_agents``.

    Source: seed 002; G-M1 to G-M12, G-A1 to G-A3, G-A12, G-A18.
    """

    name: ClassVar[str] = "adventure"
    title: ClassVar[str] = N_("Whole adventures played by the generator")
    game: ClassVar[str] = "agents"
    rule: ClassVar[str] = "G-M9"
    simulated: ClassVar[bool] = True

    min_agents: Annotated[int, Param(N_("fewest agents"), low=1, high=6)] = 2
    max_agents: Annotated[int, Param(N_("most agents"), low=1, high=6)] = 4
    creation: Annotated[
        Creation,
        Param(N_("how the agents share 7, 5 and 3"), option_labels=tuple(CREATION.items())),
    ] = "rotate"
    concession: Annotated[
        Concession,
        Param(N_("who concedes a challenge"), option_labels=tuple(CONCESSION.items())),
    ] = "never"
    low: Annotated[
        int, Param(N_("reserve points at which a low agent concedes"), low=0, high=7)
    ] = 1
    recovery: Annotated[
        Recovery,
        Param(N_("what the agents do between scenes"), option_labels=tuple(RECOVERY.items())),
    ] = "press_on"
    contest: Annotated[
        ContestPolicy,
        Param(N_("who challenges the favori"), option_labels=tuple(CONTEST.items())),
    ] = "nobody"
    max_scenes: Annotated[
        int, Param(N_("scenes before the group gives the quest up"), low=1, high=200)
    ] = 30
    max_bouts: Annotated[
        int, Param(N_("challenges for the artefact before the agents stop"), low=1, high=100)
    ] = 12
    trials: Annotated[int, Param(N_("adventures simulated per row"), low=1, high=20_000)] = 200
    seed: Seed = 1

    def table(self, size: int, options: AgentsOptions) -> AgentsState:
        """A table with ``size`` agents created by the rules (G-M1), before its quest."""
        state = AgentsState(options=options)
        for seat in range(size):
            muscles, sexe, intelligence = _PERMUTATIONS[
                seat % len(_PERMUTATIONS) if self.creation == "rotate" else 0
            ]
            command = CreateAgent(
                name_=f"A{seat + 1}",
                muscles=muscles,
                sexe=sexe,
                intelligence=intelligence,
                organisation="Lab",
                signature="Die",
            )
            state = decide(state, command, _NoDice()).after
        return state

    def adventure_policies(self) -> AdventurePolicies:
        """The policies as the simulation plays them."""
        return AdventurePolicies(
            self.concession, self.low, self.recovery, self.contest, self.max_scenes, self.max_bouts
        )

    def policies(self) -> tuple[Policy, ...]:
        """Every policy the simulated choices follow, with its settings."""
        return (
            Policy(f"creation:{self.creation}", CREATION[self.creation]),
            Policy("groups:together", N_("everyone present takes part in one challenge")),
            Policy("modifiers:none", N_("no modifier ticked on any action")),
            Policy("abandon:never", N_("nobody abandons a challenge in progress")),
            Policy(
                f"concession:{self.concession}",
                CONCESSION[self.concession],
                {"low": self.low} if self.concession == "when_low" else {},
            ),
            Policy(
                "winner:rule",
                N_("the winner is who spent most reserve, a roll-off on a tie (G-A12)"),
            ),
            Policy(
                f"recovery:{self.recovery}",
                RECOVERY[self.recovery],
            ),
            Policy(
                "give_up",
                N_("the group gives the quest up when it would start the scene set"),
                {"max_scenes": self.max_scenes},
            ),
            Policy("favori:roll_off", N_("a tie for favori is rolled off (G-A18)")),
            Policy(
                f"contest:{self.contest}",
                CONTEST[self.contest],
                {"max_bouts": self.max_bouts} if self.contest == "everyone" else {},
            ),
        )

    def answer(self, context: LabContext) -> LabResult:
        """Simulate ``trials`` adventures per row (see the class)."""
        if self.min_agents > self.max_agents:
            raise InputError(
                N_("the fewest agents ({low}) must not be more than the most ({high})"),
                low=self.min_agents,
                high=self.max_agents,
            )
        sizes = range(self.min_agents, self.max_agents + 1)
        starts = tuple(
            (v.name, size, self.table(size, AgentsOptions(**v.options)))  # type: ignore[arg-type]
            for v in VARIANTS
            for size in sizes
        )
        run = run_simulation(
            _AdventureTrial(starts, self.adventure_policies()),
            self.trials,
            self.seed,
            workers=context.workers,
            progress=context.progress,
        )
        tally = run.tally
        rows: list[dict[str, Cell]] = []
        for variant, size, _ in starts:
            key = f"{variant}:{size}"
            won = tally.counts.get(f"{key}:{QuestStatus.WON.value}", 0)
            row: dict[str, Cell] = {"variant": variant, "agents": size}
            row["p_won"] = tally.proportion(f"{key}:{QuestStatus.WON.value}")
            row["p_failed"] = tally.proportion(f"{key}:{QuestStatus.FAILED.value}")
            row["p_abandoned"] = tally.proportion(f"{key}:{QuestStatus.ABANDONED.value}")
            row["scenes"] = tally.mean(f"{key}:scenes")
            row["sang_lost"] = tally.mean(f"{key}:sang_lost")
            for seat in range(1, self.max_agents + 1):
                row[f"favori_{seat}"] = (
                    tally.proportion(f"{key}:favori={seat}", out_of=won) if seat <= size else None
                )
            row["favori_keeps"] = tally.proportion(f"{key}:favori_keeps", out_of=won)
            row["bouts"] = tally.mean(f"{key}:bouts")
            row["p_capped"] = tally.proportion(f"{key}:capped", out_of=won)
            rows.append(row)
        columns = (
            Column("variant", N_("house rules"), "input"),
            Column("agents", N_("agents"), "input"),
            Column("p_won", N_("quest won"), percent=True),
            Column("p_failed", N_("quest failed"), percent=True),
            Column("p_abandoned", N_("quest given up"), percent=True),
            Column("scenes", N_("mean scenes")),
            Column("sang_lost", N_("mean Sang lost by the party")),
            *(
                Column(f"favori_{seat}", FAVORI_SEATS[seat - 1], percent=True)
                for seat in range(1, self.max_agents + 1)
            ),
            Column("favori_keeps", N_("the favori takes the artefact home"), percent=True),
            Column("bouts", N_("mean challenges for the artefact")),
            Column("p_capped", N_("contest stopped by the limit"), percent=True),
        )
        charts = (
            Chart("lines", N_("Quests won"), x="agents", value="p_won", series="variant"),
            Chart("lines", N_("Scenes per quest"), x="agents", value="scenes", series="variant"),
            Chart("lines", N_("Sang lost"), x="agents", value="sang_lost", series="variant"),
            Chart(
                "bars",
                N_("The first seat becomes the favori"),
                x="agents",
                value="favori_1",
                series="variant",
            ),
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            policies=self.policies(),
            variants=VARIANTS,
            notes=(
                N_("Favori and artefact figures count won quests only."),
                N_("Tablée's English starter tables; every choice follows the policies listed."),
            ),
            run=run,
        )


class _NoDice:
    """A `Chance` for commands that throw nothing (creating an agent)."""

    def roll(self, request: object) -> tuple[int, ...]:
        raise InputError(N_("creating an agent throws no dice"))
