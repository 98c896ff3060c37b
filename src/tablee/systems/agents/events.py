"""Every stored agents event, one typed class per kind, with what it records.

Each event records the inputs of the command that produced it (so it can be decided again
to check it), the dice faces thrown and the outcome the rules gave: the reserves, scores and
ends of challenges after an action, the quest's index and Sang after a consequence, the
artefact's holder. Folding a log applies those records (`tablee.systems.agents.fold`).

Version 1 of every kind is the shape Tablée 0.1.0 stored, and each records enough to be
applied. The action is at version 2, which adds the exact odds shown before its roll (None
when not recorded: `tablee.systems.event.ODDS_UPGRADES`); the abandon and the consequence
are at version 2, which add what the rules saw before (a reserve, each agent's Sang: None
when not recorded), so that a line can tell a gain the cap held back from one made, and the
consequence whether it only counted a win after the quest was accomplished (G-X1).
What an event leaves unrecorded is bookkeeping the state before it settles the same way
every time (the standings of the agents in a challenge just opened, an agent at reserve 0
put out of the other open challenges of that type, the winner's count of wins, the draws
the adventure owes), never an outcome of the rules.

Source: seed ``002_59b03dd224c3b923.txt``; rulings G-M1 to G-M12, G-A1 to G-A20.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, TypeAlias, get_args

from tablee.errors import N_
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
from tablee.systems.base import JSON
from tablee.systems.declare import Command
from tablee.systems.event import ODDS_UPGRADES, Event, Upgrade

__all__ = [
    "EVENTS",
    "Abandoned",
    "ActionTaken",
    "AgentCreated",
    "AgentsEvent",
    "ChallengeGenerated",
    "ChallengeOpened",
    "Conceded",
    "ConsequenceApplied",
    "ContestChallenged",
    "ContestClosed",
    "ContestSettled",
    "ContestStarted",
    "FailedOnPurpose",
    "OptionsSet",
    "QuestAbandoned",
    "QuestDrawn",
    "SceneStarted",
    "TableDrawn",
    "WinnerNamed",
]

NO_FACES: tuple[int, ...] = ()


@dataclass(frozen=True)
class AgentCreated(Event):
    """A new agent: Sang 3 and the three reserves, 7, 5 and 3 in some order."""

    kind: ClassVar[str] = "agents.agent_created"
    about: ClassVar[str] = N_("a new agent, its reserves and who plays it")

    name: str
    owner: str | None
    organisation: str
    signature: str
    muscles: int
    sexe: int
    intelligence: int
    sang: int

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        command = CreateAgent(
            name_=self.name,
            muscles=self.muscles,
            sexe=self.sexe,
            intelligence=self.intelligence,
            organisation=self.organisation,
            signature=self.signature,
            owner=self.owner,
        )
        return command, NO_FACES


@dataclass(frozen=True)
class ChallengeOpened(Event):
    """A challenge opened by hand: its type, agents in turn order and oppositions."""

    kind: ClassVar[str] = "agents.challenge_opened"
    about: ClassVar[str] = N_("a challenge opened by hand, and whether it ended at once")

    number: int
    kind_: str = field(metadata={"key": "kind"})
    agents: tuple[str, ...]
    oppositions: tuple[Mapping[str, JSON], ...]
    label: str
    outcome: str | None

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it (each opposition as ``NAME:SCORE``)."""
        lines = tuple(str(o["name"]) + ":" + str(o["score"]) for o in self.oppositions)
        command = OpenChallenge(
            kind=self.kind_, agents=self.agents, oppositions=lines, label=self.label
        )
        return command, NO_FACES


@dataclass(frozen=True)
class ActionTaken(Event):
    """An action: the modifiers ticked, the d6, the result and what it changed."""

    kind: ClassVar[str] = "agents.action"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = ODDS_UPGRADES
    about: ClassVar[str] = N_(
        "an action, its d6 and result, the opposition's score and the reserve after it, "
        "and the exact odds shown before its roll"
    )

    challenge: int
    agent: str
    kind_: str = field(metadata={"key": "kind"})
    declaration: str
    modifiers: tuple[str, ...]
    modifier: int
    die: str
    face: int
    total: int
    outcome: str
    target: int | None
    opposition: str
    score: int
    reserve: int
    ended: str | None
    odds: Mapping[str, JSON] | None = None

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it, and its face."""
        command = Act(
            challenge=self.challenge,
            agent=self.agent,
            modifiers=self.modifiers,
            target=self.target,
            declaration=self.declaration,
        )
        return command, (self.face,)


@dataclass(frozen=True)
class Conceded(Event):
    """An agent conceded a challenge before its first turn."""

    kind: ClassVar[str] = "agents.conceded"
    about: ClassVar[str] = N_("an agent concedes a challenge; the reserve restored")

    challenge: int
    agent: str
    kind_: str = field(metadata={"key": "kind"})
    reserve: int
    ended: str | None

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Concede(agent=self.agent, challenge=self.challenge), NO_FACES


def _reserve_before_not_recorded(payload: dict[str, JSON]) -> dict[str, JSON]:
    """Version 1 -> 2 of ``agents.abandoned`` and ``agents.failed_on_purpose``: no ``before``.

    The reserve before doubling (or before the +1) was not kept.
    """
    return {**payload, "before": None}


def _sang_before_not_recorded(payload: dict[str, JSON]) -> dict[str, JSON]:
    """Version 1 -> 2 of ``agents.consequence_applied``: the Sang before was not kept.

    Nor was a challenge settled after the quest was accomplished (version 1 refused it).
    """
    return {**payload, "before": None, "late": False}


@dataclass(frozen=True)
class Abandoned(Event):
    """An agent abandoned a challenge in progress.

    Version 2 adds ``before``, the reserve before it was doubled (None: not recorded), so
    a doubling that the cap held back can say so.
    """

    kind: ClassVar[str] = "agents.abandoned"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = {1: _reserve_before_not_recorded}
    about: ClassVar[str] = N_("an agent abandons a challenge; the points left doubled")

    challenge: int
    agent: str
    kind_: str = field(metadata={"key": "kind"})
    reserve: int
    ended: str | None
    before: int | None = None

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Abandon(agent=self.agent, challenge=self.challenge), NO_FACES


@dataclass(frozen=True)
class FailedOnPurpose(Event):
    """An agent failed an action on purpose outside challenges.

    Version 2 adds ``before``, the reserve before the +1 (None: not recorded), so a +1 the
    cap held back can say so.
    """

    kind: ClassVar[str] = "agents.failed_on_purpose"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = {1: _reserve_before_not_recorded}
    about: ClassVar[str] = N_("an agent fails on purpose outside challenges; +1 reserve")

    agent: str
    kind_: str = field(metadata={"key": "kind"})
    reason: str
    reserve: int
    before: int | None = None

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return FailOnPurpose(agent=self.agent, reserve=self.kind_, reason=self.reason), NO_FACES


@dataclass(frozen=True)
class WinnerNamed(Event):
    """A won challenge's winner."""

    kind: ClassVar[str] = "agents.winner_named"
    about: ClassVar[str] = N_("a won challenge's winner, named or by the most points spent")

    challenge: int
    agent: str | None
    winner: str

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it (a roll-off's winner is stored as named)."""
        return NameWinner(challenge=self.challenge, agent=self.agent), NO_FACES


@dataclass(frozen=True)
class OptionsSet(Event):
    """The table's house rules, all of them as they now are."""

    kind: ClassVar[str] = "agents.options_set"
    about: ClassVar[str] = N_("the table's house rules after a change")

    options: Mapping[str, JSON]

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """Options are changed through the table, not a game command."""
        raise NotImplementedError


@dataclass(frozen=True)
class QuestDrawn(Event):
    """A quest drawn: its four tables (as text), the objective's face and entry."""

    kind: ClassVar[str] = "agents.quest_drawn"
    about: ClassVar[str] = N_("a quest drawn, its tables and its (secret) objective")

    source: str
    tables: Mapping[str, str]
    face: int
    objective: str
    agents: tuple[str, ...]

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it: the stored tables given as one's own."""
        command = Quest(
            objectives=self.tables["objectives"],
            environments=self.tables["environments"],
            creatures=self.tables["creatures"],
            boons=self.tables["boons"],
            source=self.source,
        )
        return command, (self.face,)


@dataclass(frozen=True)
class TableDrawn(Event):
    """One entry drawn from a quest table."""

    kind: ClassVar[str] = "agents.table_drawn"
    about: ClassVar[str] = N_("an entry drawn from a quest table")

    table: str
    face: int
    text: str

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it, and its face."""
        return Draw(kind=self.table), (self.face,)  # type: ignore[arg-type]


@dataclass(frozen=True)
class SceneStarted(Event):
    """A new scene: who comes back at Sang 1, who sits out."""

    kind: ClassVar[str] = "agents.scene_started"
    about: ClassVar[str] = N_("a new scene, the agents back and those sitting out")

    scene: int
    returned: tuple[str, ...]
    sitting_out: tuple[str, ...]

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return NextScene(), NO_FACES


@dataclass(frozen=True)
class ChallengeGenerated(Event):
    """A challenge drawn by the generator and opened."""

    kind: ClassVar[str] = "agents.challenge_generated"
    about: ClassVar[str] = N_("a challenge drawn by the generator, its d6s and its score")

    number: int
    agents: tuple[str, ...]
    faces: tuple[int, ...]
    opposition: str | None
    progress: int
    source: str
    relation: str
    forced: bool
    kind_: str = field(metadata={"key": "kind"})
    score: int
    ended: str | None

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it (its opposition named), and its d6s."""
        return Generate(agents=self.agents, opposition=self.opposition), self.faces


@dataclass(frozen=True)
class ConsequenceApplied(Event):
    """A drawn challenge's consequences: the index, the Sang, the quest's status.

    Version 2 adds ``before``, each involved agent's Sang before (None: not recorded), so a
    gain the cap held back is not shown as one; and ``late``, a challenge settled after
    the quest was accomplished earlier in its scene, which only counts its win (G-X1).
    """

    kind: ClassVar[str] = "agents.consequence_applied"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = {1: _sang_before_not_recorded}
    about: ClassVar[str] = N_("a drawn challenge's consequences on the quest")

    challenge: int
    won: bool
    records: Mapping[str, JSON]
    before: Mapping[str, int] | None = None
    late: bool = False

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Settle(challenge=self.challenge), NO_FACES


@dataclass(frozen=True)
class QuestAbandoned(Event):
    """The agents gave their quest up."""

    kind: ClassVar[str] = "agents.quest_abandoned"
    about: ClassVar[str] = N_("the agents give their quest up")

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return GiveUp(), NO_FACES


@dataclass(frozen=True)
class ContestStarted(Event):
    """The artefact contest opened: the favori holds the artefact."""

    kind: ClassVar[str] = "agents.contest_started"
    about: ClassVar[str] = N_("the artefact contest begins; the favori holds the artefact")

    favori: str | None
    holder: str

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it (a roll-off's favori is stored as named)."""
        return ContestStart(favori=self.favori), NO_FACES


@dataclass(frozen=True)
class ContestChallenged(Event):
    """A challenge for the artefact opened against its holder."""

    kind: ClassVar[str] = "agents.contest_challenge"
    about: ClassVar[str] = N_("a challenge for the artefact, its sides and its score")

    number: int
    challengers: tuple[str, ...]
    attribute: str
    wanting: tuple[str, ...]
    allies: tuple[str, ...]
    order: tuple[str, ...]
    defenders: tuple[str, ...]
    score: int
    ended: str | None

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        command = ContestChallenge(
            challengers=self.challengers,
            attribute=self.attribute,
            wanting=self.wanting,
            allies=self.allies,
        )
        return command, NO_FACES


@dataclass(frozen=True)
class ContestSettled(Event):
    """A contest challenge settled: who holds the artefact now."""

    kind: ClassVar[str] = "agents.contest_settled"
    about: ClassVar[str] = N_("a contest challenge settled and who holds the artefact")

    challenge: int
    taker: str | None
    holder: str

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return ContestSettle(challenge=self.challenge, taker=self.taker), NO_FACES


@dataclass(frozen=True)
class ContestClosed(Event):
    """The contest is over: the holder takes the artefact home."""

    kind: ClassVar[str] = "agents.contest_closed"
    about: ClassVar[str] = N_("the contest ends; the holder takes the artefact home")

    wanting: tuple[str, ...]
    holder: str

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return ContestClose(wanting=self.wanting), NO_FACES


AgentsEvent: TypeAlias = (
    AgentCreated
    | ChallengeOpened
    | ActionTaken
    | Conceded
    | Abandoned
    | FailedOnPurpose
    | WinnerNamed
    | OptionsSet
    | QuestDrawn
    | TableDrawn
    | SceneStarted
    | ChallengeGenerated
    | ConsequenceApplied
    | QuestAbandoned
    | ContestStarted
    | ContestChallenged
    | ContestSettled
    | ContestClosed
)
"""Every event Agents stores: the union a plugin's ``apply`` and log lines take."""

EVENTS: tuple[type[Event], ...] = get_args(AgentsEvent)
"""Every agents event class."""
