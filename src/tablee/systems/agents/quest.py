"""The quest: its objective, progress index, agents' Sang and standing, and its end.

A quest starts at progress index 0 with an objective drawn from a table; the agents learn it
the first time the index reaches 1. Each challenge is drawn by
`tablee.systems.agents.generator`, resolved by `tablee.systems.agents.challenge`, and its
consequences (this module) move the index and the involved agents' Sang. The quest is won at
index 4 and failed when no agent has Sang left; an agent whose Sang falls to 0 sits out the
next scene and comes back at Sang 1. Scene starts and consequences go through `QuestCourse`,
the one mutable record of a quest being played that play and the lab's simulations share.

Source: seed 002, "Génération de scénario", "Résolution du challenge"; rulings G-M9, G-M10,
G-M11, G-A10, G-A11, G-A15, G-A16, G-A17.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from tablee.dice import Trace, TraceStep
from tablee.errors import N_, InputError, RuleError
from tablee.systems.agents.agent import Agent, bounded_sang
from tablee.systems.agents.generator import (
    CHALLENGE_GENERATOR,
    DEFAULT_OPTIONS,
    QUEST_WON_AT,
    ChallengeInputs,
    DrawnChallenge,
    GeneratedChallenge,
    OppositionOptions,
    Relation,
)
from tablee.systems.agents.tables import TABLE_DRAW, Entry, Table
from tablee.systems.agents.words import QUEST_WORDS, word
from tablee.systems.common import replaced

__all__ = [
    "Consequence",
    "Quest",
    "QuestCourse",
    "QuestDraw",
    "QuestStatus",
    "SceneStart",
    "abandon_quest",
    "apply_consequence",
    "check_involved",
    "count_late_win",
    "draw_quest",
    "generate_challenge",
    "quest_status",
    "start_scene",
    "with_agent",
]


class QuestStatus(Enum):
    """Where a quest stands (G-M9 step 6, G-M11)."""

    ONGOING = "ongoing"
    WON = "won"
    FAILED = "failed"
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class Quest:
    """A quest in progress: the objective, the index, the agents and their standing.

    Attributes:
        objective: the objective entry drawn; it names the adventure (G-M9 step 2).
        objective_face: the face that drew it.
        progress: the progress index, ``QUEST_WON_AT`` or less, possibly negative.
        objective_revealed: the agents have learnt the objective (index reached 1 once).
        agents: the agents, in seating order (their Sang and reserves live here).
        wins: challenges won by each agent (G-M6 winners), aligned with ``agents``.
        sitting_out: names of agents who sit out the current scene (G-A16).
        status: ongoing, won, failed or abandoned.
        challenges: consequences applied so far.
    """

    objective: Entry
    objective_face: int
    agents: tuple[Agent, ...]
    wins: tuple[int, ...]
    progress: int = 0
    objective_revealed: bool = False
    sitting_out: frozenset[str] = frozenset()
    status: QuestStatus = QuestStatus.ONGOING
    challenges: int = 0

    def index_of(self, name: str) -> int:
        """Position of the agent called ``name``.

        Raises:
            InputError: no agent of the quest has that name.
        """
        for index, agent in enumerate(self.agents):
            if agent.name == name:
                return index
        raise InputError(
            N_("no agent called {name!r} in this quest; agents: {known}"),
            name=name,
            known=", ".join(a.name for a in self.agents),
        )

    def wins_by_name(self) -> dict[str, int]:
        """Challenges won by each agent, by name (the favori's count, G-M12)."""
        return {a.name: w for a, w in zip(self.agents, self.wins, strict=True)}


@dataclass(frozen=True)
class QuestDraw:
    """A new quest and the steps of its drawing."""

    quest: Quest
    trace: Trace


def draw_quest(agents: Sequence[Agent], objectives: Table, faces: Sequence[int]) -> QuestDraw:
    """Start a quest: index 0, the objective drawn from a table and kept secret for now.

    Args:
        agents: the agents, 1 or more, distinct names, in seating order.
        objectives: the quest-objective table.
        faces: one face of that table's die (see `tablee.systems.agents.tables.TABLE_DRAW`).

    Returns:
        The quest and its trace.

    Raises:
        InputError: no agent, two agents with one name, or a bad face.

    Source: G-M9 steps 1 and 2; G-A13.
    """
    names = [a.name for a in agents]
    if not names or len(set(names)) != len(names):
        raise InputError(
            N_("a quest needs 1 or more agents with distinct names, not {names}"),
            names=", ".join(names) or "none",
        )
    drawn = TABLE_DRAW.resolve(objectives, faces)
    quest = Quest(drawn.entry, drawn.face, tuple(agents), (0,) * len(names))
    step = TraceStep(N_("quest drawn; progress index 0; objective kept secret until index 1"))
    return QuestDraw(quest, (*drawn.trace, step))


def _require_ongoing(quest: Quest) -> None:
    _require_ongoing_status(quest.status)


def _require_ongoing_status(status: QuestStatus) -> None:
    if status is not QuestStatus.ONGOING:
        raise RuleError(
            N_("the quest is over ({status}): no more challenges (rule G-M9)"),
            status=word(QUEST_WORDS, status.value),
        )


_ONGOING = QuestStatus.ONGOING


class QuestCourse:
    """A quest being played, as one mutable record: what scenes and consequences change.

    Every scene start and every consequence goes through `start_scene` and `consequence`:
    play makes a course of the stored `Quest` each time (the module's `start_scene` and
    `apply_consequence`) and stores `into`; the lab's simulations keep one course for a
    whole adventure (`tablee.lab.sim_agents`).

    Attributes (lists aligned with the quest's agents):
        sang: each agent's Sang, 0 to `MAX_SANG`.
        wins: challenges each agent won (G-M6 winners).
        sitting: whether each agent sits out the current scene (G-A16).
        progress: the progress index; revealed: the objective is known (index reached 1).
        status: ongoing, won, failed or abandoned.
        challenges: consequences applied so far.

    Source: G-M9 steps 4-6, G-M10, G-M11, G-A10, G-A11, G-A16, G-A17.
    """

    __slots__ = ("challenges", "progress", "revealed", "sang", "sitting", "status", "wins")

    def __init__(
        self,
        sang: list[int],
        wins: list[int],
        sitting: list[bool],
        progress: int = 0,
        revealed: bool = False,
        status: QuestStatus = QuestStatus.ONGOING,
        challenges: int = 0,
    ) -> None:
        self.sang, self.wins, self.sitting = sang, wins, sitting
        self.progress, self.revealed, self.status = progress, revealed, status
        self.challenges = challenges

    @classmethod
    def of(cls, quest: Quest) -> QuestCourse:
        """The course of a stored quest."""
        out = quest.sitting_out
        return cls(
            [a.sang for a in quest.agents],
            list(quest.wins),
            [a.name in out for a in quest.agents],
            quest.progress,
            quest.objective_revealed,
            quest.status,
            quest.challenges,
        )

    def into(self, quest: Quest) -> Quest:
        """``quest`` (the one the course was made of) as the course has it now."""
        agents, out = quest.agents, quest.sitting_out
        sitting = self.sitting
        if sitting != [a.name in out for a in agents]:  # else kept as stored
            out = frozenset(a.name for a, rests in zip(agents, sitting, strict=True) if rests)
        return replaced(
            quest,
            agents=tuple(
                a if a.sang == sang else a.with_sang(sang)
                for a, sang in zip(agents, self.sang, strict=True)
            ),
            wins=tuple(self.wins),
            progress=self.progress,
            objective_revealed=self.revealed,
            sitting_out=out,
            status=self.status,
            challenges=self.challenges,
        )

    def start_scene(self) -> tuple[list[int], list[int]]:
        """Begin the next scene (see the module's `start_scene`).

        Returns:
            The indices of the agents back from sitting out (now at Sang 1) and of those
            who sit this scene out (Sang 0).

        Raises:
            RuleError: the quest is over.
        """
        if self.status is not _ONGOING:
            _require_ongoing_status(self.status)  # raises
        sang, sitting = self.sang, self.sitting
        returned = [i for i, out in enumerate(sitting) if out] if True in sitting else []
        for i in returned:
            sang[i] = bounded_sang(1)
        if 0 in sang:
            resting = [i for i, value in enumerate(sang) if value == 0]
            self.sitting = [value == 0 for value in sang]
            return returned, resting
        if returned:  # nobody sits out now
            self.sitting = [False] * len(sang)
        return returned, []

    def consequence(
        self, relation: Relation, won: bool, involved: Sequence[int], winner: int | None
    ) -> tuple[int, int, bool, bool]:
        """Apply a resolved challenge's consequences (see `apply_consequence`).

        Args:
            relation: the challenge's relation.
            won: the agents won it.
            involved: the indices of its involved agents, distinct.
            winner: the index of its winner, or None (not checked here: see
                `apply_consequence`).

        Returns:
            ``(progress change, Sang change of each involved agent, helped, objective
            revealed now)``.

        Raises:
            RuleError: the quest is over.
        """
        if self.status is not _ONGOING:
            _require_ongoing_status(self.status)  # raises
        change, sang_change, helped = _TABLE[(relation, won)]
        sang = self.sang
        for i in involved:
            sang[i] = bounded_sang(sang[i] + sang_change)
        if winner is not None:
            self.wins[winner] += 1
        progress = min(QUEST_WON_AT, self.progress + change)
        revealed_now = not self.revealed and progress >= 1
        self.progress, self.revealed = progress, self.revealed or revealed_now
        self.challenges += 1
        if progress >= QUEST_WON_AT:
            self.status = QuestStatus.WON
        elif not any(sang):  # no agent has Sang left
            self.status = QuestStatus.FAILED
        return change, sang_change, helped, revealed_now


@dataclass(frozen=True)
class SceneStart:
    """A new scene begun.

    Attributes:
        quest: the quest afterwards.
        returned: agents back from sitting out, at Sang 1.
        sitting_out: agents who sit this scene out (Sang 0).
        trace: the steps.
    """

    quest: Quest
    returned: tuple[str, ...]
    sitting_out: tuple[str, ...]
    trace: Trace


def start_scene(quest: Quest) -> SceneStart:
    """Begin the next scene: those who sat the last one out return, those at Sang 0 sit out.

    A scene is one challenge with its linking scene, or every challenge of the split groups
    played at the same time (G-A16, G-A17). Call this before drawing the scene's challenges.

    Raises:
        RuleError: the quest is over.

    Source: G-M11, G-A16.
    """
    course = QuestCourse.of(quest)
    back, out = course.start_scene()
    returned = tuple(quest.agents[i].name for i in back)
    resting = tuple(quest.agents[i].name for i in out)
    new = replaced(course.into(quest), sitting_out=frozenset(resting))
    steps = [
        TraceStep(N_("{name} returns at Sang 1 after sitting out"), {"name": n}) for n in returned
    ]
    steps += [
        TraceStep(N_("{name} has no Sang and sits out this scene"), {"name": n}) for n in resting
    ]
    return SceneStart(new, returned, resting, tuple(steps))


def check_involved(quest: Quest, names: Sequence[str]) -> tuple[Agent, ...]:
    """The agents a challenge may involve, checked against the rules.

    Raises:
        InputError: no name, a repeated or unknown name.
        RuleError: the quest is over, or an agent sits out this scene or has no Sang
            (G-M11, G-A16).

    Source: G-M2, G-M11, G-A16.
    """
    _require_ongoing(quest)
    if not names or len(set(names)) != len(names):
        raise InputError(
            N_("a challenge involves 1 or more distinct agents, not {names}"),
            names=", ".join(names) or "none",
        )
    chosen = tuple(quest.agents[quest.index_of(n)] for n in names)
    for agent in chosen:
        if agent.name in quest.sitting_out or agent.sang == 0:
            raise RuleError(
                N_("{name} has no Sang and sits out this scene (rule G-M11, G-A16)"),
                tip=N_("leave {name} out of the challenge; they return at Sang 1 next scene"),
                name=agent.name,
            )
    return chosen


def generate_challenge(
    quest: Quest,
    involved: Sequence[str],
    faces: Sequence[int],
    options: OppositionOptions = DEFAULT_OPTIONS,
) -> GeneratedChallenge:
    """Draw the quest's next challenge for some of its agents.

    Args:
        quest: the quest, ongoing.
        involved: names of the agents the challenge involves (a split group, G-M9 3.5).
        faces: the d6s asked for by ``CHALLENGE_GENERATOR.dice_for`` (3 or 4).
        options: the opposition options.

    Returns:
        The challenge, naming the agents involved.

    Raises:
        InputError: bad names or faces. RuleError: see `check_involved`.

    Source: G-M9 step 3, G-N3, G-N4.
    """
    check_involved(quest, involved)
    inputs = ChallengeInputs(quest.progress, len(involved), options)
    return replaced(CHALLENGE_GENERATOR.resolve(inputs, faces), involved=tuple(involved))


@dataclass(frozen=True)
class Consequence:
    """What a resolved challenge did to the quest.

    Attributes:
        quest: the quest afterwards.
        won: the agents won the challenge.
        progress_change: -1, 0 or +1.
        sang_change: -1, 0 or +1 for each involved agent (before the 0..3 bounds).
        helped: the agents gain something that helps their quest (a boon to narrate).
        revealed_now: the objective is revealed by this consequence.
        trace: the steps.
    """

    quest: Quest
    won: bool
    progress_change: int
    sang_change: int
    helped: bool
    revealed_now: bool
    trace: Trace


_TABLE: Mapping[tuple[Relation, bool], tuple[int, int, bool]] = {
    (Relation.HOSTILE, False): (-1, -1, False),
    (Relation.HOSTILE, True): (+1, 0, True),
    (Relation.NEUTRAL, False): (0, -1, False),
    (Relation.NEUTRAL, True): (0, 0, False),
    (Relation.BENEVOLENT, False): (0, 0, False),
    (Relation.BENEVOLENT, True): (+1, +1, True),
}
"""(relation, won) -> (progress change, Sang change of each involved agent, helped); G-M10."""


def apply_consequence(
    quest: Quest, challenge: DrawnChallenge, *, won: bool, winner: str | None = None
) -> Consequence:
    """Apply a resolved challenge's consequences to the quest.

    Args:
        quest: the quest, ongoing.
        challenge: the challenge as drawn, naming its involved agents.
        won: the agents won (opposition at 0); False when every involved agent was out,
            abandoned or conceded (G-A15). A scene cut is no result: do not call this.
        winner: on a win, the challenge's winner (G-M6), one of the involved, or None when
            nobody is designated (a score of 0 won at once); must be None on a loss.

    Returns:
        The consequence, with the quest updated: index moved (capped at 4, G-A17), Sang of
        each involved agent moved within 0..3 (G-A10, G-A11), the winner's count, the
        objective revealed the first time the index reaches 1, the status (won at 4, failed
        when no agent has Sang).

    Raises:
        InputError: a challenge naming no agent or an unknown one, a winner not involved,
            or a winner on a loss.
        RuleError: the quest is over.

    Source: seed 002, "Résolution du challenge"; G-M9 steps 4-6, G-M10, G-M11, G-A10, G-A11,
    G-A15, G-A17.
    """
    _require_ongoing(quest)
    if not challenge.involved:
        raise InputError(
            N_("the challenge names no involved agent; draw it with generate_challenge")
        )
    indices = [quest.index_of(n) for n in challenge.involved]
    if winner is not None and (not won or winner not in challenge.involved):
        raise InputError(
            N_("winner {name!r} must be an involved agent of a won challenge (rule G-M6)"),
            name=winner,
        )
    course = QuestCourse.of(quest)
    change, sang, helped, revealed_now = course.consequence(
        challenge.relation,
        won,
        indices,
        None if winner is None else quest.index_of(winner),
    )
    new = course.into(quest)
    trace = _consequence_trace(challenge, won, change, sang, helped, new, revealed_now)
    return Consequence(new, won, change, sang, helped, revealed_now, trace)


def count_late_win(
    quest: Quest, challenge: DrawnChallenge, *, won: bool, winner: str | None = None
) -> Consequence:
    """Settle a challenge of the scene whose earlier consequences accomplished the quest.

    With split groups, one group's consequences may bring the index to 4 before another
    group's challenge is settled. The quest is over, so that challenge moves neither the
    index nor anyone's Sang (G-A17: the index stops at 4, where the quest ends), but its
    winner still counts towards the favori (ruling G-X1).

    Args:
        quest: the quest, won.
        challenge: the challenge as drawn, naming its involved agents.
        won: the agents won it.
        winner: on a win, its winner (G-M6), one of the involved, or None when nobody is
            designated; None on a loss.

    Returns:
        The consequence: only the winner's count changes.

    Raises:
        InputError: a challenge naming no agent, or a winner not involved or on a loss.
        RuleError: the quest is not won.

    Source: G-M6, G-M12 step 1, G-A17; G-X1.
    """
    if quest.status is not QuestStatus.WON:
        raise RuleError(
            N_("only a quest accomplished in this scene settles its other challenges so")
        )
    if not challenge.involved:
        raise InputError(
            N_("the challenge names no involved agent; draw it with generate_challenge")
        )
    if winner is not None and (not won or winner not in challenge.involved):
        raise InputError(
            N_("winner {name!r} must be an involved agent of a won challenge (rule G-M6)"),
            name=winner,
        )
    wins = list(quest.wins)
    steps = [TraceStep(N_("the quest was accomplished earlier in this scene"))]
    if winner is not None:
        wins[quest.index_of(winner)] += 1
        steps.append(TraceStep(N_("{name}'s win counts towards the favori"), {"name": winner}))
    new = replaced(quest, wins=tuple(wins), challenges=quest.challenges + 1)
    return Consequence(new, won, 0, 0, False, False, tuple(steps))


def _consequence_trace(
    challenge: DrawnChallenge,
    won: bool,
    change: int,
    sang: int,
    helped: bool,
    quest: Quest,
    revealed_now: bool,
) -> Trace:
    steps = [
        TraceStep(
            N_(
                "{relation} challenge {result}: index {change:+d} to {progress}, "
                "Sang {sang:+d} for {names}"
            ),
            {
                "relation": challenge.relation.value,
                "result": "won" if won else "lost",
                "change": change,
                "progress": quest.progress,
                "sang": sang,
                "names": ", ".join(challenge.involved),
            },
        )
    ]
    if helped:
        steps.append(TraceStep(N_("the agents gain something that helps their quest")))
    if revealed_now:
        steps.append(TraceStep(N_("objective revealed: {text}"), {"text": quest.objective.text}))
    if quest.status is QuestStatus.WON:
        steps.append(TraceStep(N_("index 4: the quest is accomplished; on to the artefact")))
    if quest.status is QuestStatus.FAILED:
        steps.append(TraceStep(N_("no agent has Sang left: the quest fails; they leave the world")))
    return tuple(steps)


def quest_status(quest: Quest) -> QuestStatus:
    """Where the quest stands: ongoing, won (index 4), failed (no Sang) or abandoned.

    Source: G-M9 step 6, G-M11.
    """
    return quest.status


def abandon_quest(quest: Quest) -> Quest:
    """The agents give up their quest; they may, between challenges.

    Raises:
        RuleError: the quest is already over.

    Source: G-M9 step 6.
    """
    _require_ongoing(quest)
    return replaced(quest, status=QuestStatus.ABANDONED)


def with_agent(quest: Quest, agent: Agent) -> Quest:
    """The quest with one agent's record replaced (after a challenge changed its reserves).

    Raises:
        InputError: no agent of the quest has that name.
    """
    agents = list(quest.agents)
    agents[quest.index_of(agent.name)] = agent
    return replaced(quest, agents=tuple(agents))
