"""Every stored Yuigahama Bad Seeds event, one typed class per kind, with what it records.

Each event records the inputs of the command that produced it (so it can be decided again
to check it: `inputs`), the dice faces thrown and the outcome the rules gave: the token
moves, the boxes after damage, the test's result, the hands of a gang-fight throw. Folding a
log applies the recorded outcome (`tablee.systems.ybs.apply`).

Version 1 of every kind is the shape Tablée 0.1.0 stored. ``ybs.star_awarded`` is at version
2, which adds the character's boxes after the star: a fifth star on Choushi changes the hit
points and the marks are refitted; a version-1 star did not record them (``boxes`` is None
once upgraded) and its marks are refitted by the rule that decided it (Y-A1, Y-A20).
``ybs.test`` is at version 2, which adds the exact odds shown before its first die (None
when not recorded, as in version 1); a reroll shows no odds of its own and records none.
``ybs.character_created`` is at version 2, which adds the token moves of an imported sheet
(its player's Unmei tokens, from the GM's bag, Y-X7); version 1 moved none (``[]``).

The individual fights', gang fights' and encounters' events are in
`tablee.systems.ybs.brawl_events`; `EVENTS` lists them all.

Source: seed 004; rulings Y-M1 to Y-M9, Y-A1 to Y-A22.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, TypeAlias, get_args

from tablee.errors import N_
from tablee.systems.base import JSON
from tablee.systems.declare import Command
from tablee.systems.event import ODDS_UPGRADES, Event, Upgrade
from tablee.systems.ybs.brawl_events import (
    Encountered,
    FightEnded,
    GangSideThrown,
    GangStarted,
    GangStopped,
    GangThrown,
    Retreated,
    RoundResolved,
)
from tablee.systems.ybs.commands import (
    ChangeAttributes,
    Critical,
    CriticalFailure,
    Damage,
    EndSession,
    HealKega,
    ImportCharacters,
    Invoke,
    LiftTrauma,
    Rest,
    ShichiFukujin,
    Star,
    StartSession,
    Stubborn,
    Test,
    Transfer,
    Trauma,
)
from tablee.systems.ybs.unmei import TokenMove

__all__ = [
    "EVENTS",
    "FOLLOW_UPS",
    "AttributeInvoked",
    "AttributesChanged",
    "CharacterCreated",
    "CriticalFailed",
    "CriticalSucceeded",
    "Damaged",
    "KegaHealed",
    "OptionsSet",
    "Rerolled",
    "Rested",
    "SessionEnded",
    "SessionStarted",
    "ShichiFukujinCalled",
    "StarAwarded",
    "Tested",
    "TraitsTransferred",
    "TraumaLifted",
    "TraumaSet",
    "YbsEvent",
]

NO_FACES: tuple[int, ...] = ()
Moves = tuple[TokenMove, ...]
Doc = Mapping[str, JSON]


def _faces_text(faces: tuple[int, ...]) -> str:
    """Kept faces as a keep field says them: ``1,2,3``, or ``none`` for no die kept."""
    return ",".join(str(f) for f in faces) or "none"


# -- characters, sessions, tokens, house rules -----------------------------------------------


def _no_moves(payload: dict[str, JSON]) -> dict[str, JSON]:
    """Version 1 -> 2 of a new character: no token moved with it."""
    return {**payload, "moves": []}


@dataclass(frozen=True)
class CharacterCreated(Event):
    """A character joins the table, created or imported (with its player's tokens, Y-X7)."""

    kind: ClassVar[str] = "ybs.character_created"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = {1: _no_moves}
    about: ClassVar[str] = N_(
        "a new character: traits, attributes, stars, boxes, player and the tokens it brings"
    )

    name: str
    owner: str | None
    traits: Doc
    attributes: tuple[str, ...]
    stars: Doc
    uchimi: int
    kega: int
    hit_points: int
    moves: Moves = ()

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The sheet that decides it again (the whole sheet, stars, boxes and tokens)."""
        sheet: dict[str, JSON] = {
            "name": self.name,
            "player": self.owner,
            "traits": dict(self.traits),
            "attributes": list(self.attributes),
            "stars": dict(self.stars),
            "uchimi": self.uchimi,
            "kega": self.kega,
        }
        if self.owner is None:
            del sheet["player"]
        tokens = sum(move.count for move in self.moves)
        if tokens:
            sheet["tokens"] = tokens
        return ImportCharacters(json.dumps(sheet, ensure_ascii=False)), NO_FACES


@dataclass(frozen=True)
class SessionStarted(Event):
    """A session starts: leftover tokens back to the GM, then 2 to each player."""

    kind: ClassVar[str] = "ybs.session_started"
    about: ClassVar[str] = N_("a session starts; the Unmei tokens handed out")

    session: int
    moves: Moves

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return StartSession(), NO_FACES


@dataclass(frozen=True)
class SessionEnded(Event):
    """The session ends: every unspent token back to the GM."""

    kind: ClassVar[str] = "ybs.session_ended"
    about: ClassVar[str] = N_("the session ends; the Unmei tokens taken back")

    session: int
    moves: Moves

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return EndSession(), NO_FACES


@dataclass(frozen=True)
class AttributeInvoked(Event):
    """The GM invokes an attribute against a character: 1 token to its player."""

    kind: ClassVar[str] = "ybs.attribute_invoked"
    about: ClassVar[str] = N_("an attribute invoked by the GM and the token it gives")

    character: str
    attribute: str
    note: str
    moves: Moves

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Invoke(self.character, self.attribute, self.note), NO_FACES


@dataclass(frozen=True)
class ShichiFukujinCalled(Event):
    """A player spends 7 tokens to rewrite the scene."""

    kind: ClassVar[str] = "ybs.shichi_fukujin"
    about: ClassVar[str] = N_("a Shichi Fukujin: the proposal and the 7 tokens spent")

    player: str
    proposal: str
    moves: Moves

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return ShichiFukujin(self.player, self.proposal), NO_FACES


@dataclass(frozen=True)
class OptionsSet(Event):
    """The table's house rules, all of them as they now are."""

    kind: ClassVar[str] = "ybs.options_set"
    about: ClassVar[str] = N_("the table's house rules after a change")

    options: Doc

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """Options are changed through the table, not a game command."""
        raise NotImplementedError


# -- damage and evolution --------------------------------------------------------------------


@dataclass(frozen=True)
class Damaged(Event):
    """Uchimi and Kega marked on a character, with overflow."""

    kind: ClassVar[str] = "ybs.damage"
    about: ClassVar[str] = N_("damage marked on a character and its boxes after")

    character: str
    uchimi: int
    kega: int
    note: str
    boxes: Doc

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Damage(self.character, self.uchimi, self.kega, self.note), NO_FACES


@dataclass(frozen=True)
class Rested(Event):
    """A character rests and heals Uchimi."""

    kind: ClassVar[str] = "ybs.rest"
    about: ClassVar[str] = N_("a rest, the Uchimi it healed and the boxes after")

    character: str
    minutes: int
    healed: int
    boxes: Doc

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Rest(self.character, self.minutes), NO_FACES


@dataclass(frozen=True)
class KegaHealed(Event):
    """Kega healed by care."""

    kind: ClassVar[str] = "ybs.kega_healed"
    about: ClassVar[str] = N_("Kega healed by care and the boxes after")

    character: str
    count: int
    note: str
    boxes: Doc

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return HealKega(self.character, self.count, self.note), NO_FACES


def _no_boxes(payload: dict[str, JSON]) -> dict[str, JSON]:
    """Version 1 -> 2: the boxes after the star were not recorded."""
    return {**payload, "boxes": None}


@dataclass(frozen=True)
class StarAwarded(Event):
    """A star on a trait; the fifth raises it one level."""

    kind: ClassVar[str] = "ybs.star_awarded"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = {1: _no_boxes}
    about: ClassVar[str] = N_("a star on a trait, the trait and its stars after, the boxes after")

    character: str
    trait: str
    raised: bool
    wasted: bool
    value: int
    stars: int
    boxes: Doc | None = None

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Star(self.character, self.trait), NO_FACES


@dataclass(frozen=True)
class TraitsTransferred(Event):
    """One trait lowered by 1, another raised by 1."""

    kind: ClassVar[str] = "ybs.traits_transferred"
    about: ClassVar[str] = N_("a transfer between two traits, the traits and boxes after")

    character: str
    lower: str
    raise_: str = field(metadata={"key": "raise"})
    traits: Doc
    boxes: Doc

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Transfer(self.character, self.lower, self.raise_), NO_FACES


@dataclass(frozen=True)
class TraumaSet(Event):
    """After 3 Kega, a trait related to the wounds becomes -1."""

    kind: ClassVar[str] = "ybs.trauma"
    about: ClassVar[str] = N_("a trauma: the trait before and after, the boxes after")

    character: str
    trait: str
    from_: int = field(metadata={"key": "from"})
    value: int
    note: str
    boxes: Doc

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Trauma(self.character, self.trait, self.note), NO_FACES


@dataclass(frozen=True)
class TraumaLifted(Event):
    """The GM lifts a trauma: the trait gets back the levels it took (Y-X2)."""

    kind: ClassVar[str] = "ybs.trauma_lifted"
    about: ClassVar[str] = N_("a trauma lifted: the trait before and after, the boxes after")

    character: str
    trait: str
    from_: int = field(metadata={"key": "from"})
    value: int
    note: str
    boxes: Doc

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return LiftTrauma(self.character, self.trait, self.note), NO_FACES


@dataclass(frozen=True)
class AttributesChanged(Event):
    """Attributes gained or lost."""

    kind: ClassVar[str] = "ybs.attributes_changed"
    about: ClassVar[str] = N_("attributes gained and lost")

    character: str
    add: tuple[str, ...]
    remove: tuple[str, ...]

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return ChangeAttributes(self.character, self.add, self.remove), NO_FACES


# -- tests and their follow-ups --------------------------------------------------------------


@dataclass(frozen=True)
class Tested(Event):
    """A test's first die, with its assistance, forced destiny and purpose.

    A fight test on another trait than its own (Nintai for the gate, Choushi otherwise) can
    only have been approved by the GM, so it is decided again with ``trait_approved``; the
    payload needs no field of its own for it (Y-X3).
    """

    kind: ClassVar[str] = "ybs.test"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = ODDS_UPGRADES
    about: ClassVar[str] = N_("a test's first die, its result and the tokens it moved")

    character: str
    player: str | None
    trait: str
    second_trait: str | None
    combine: str | None
    value: int
    assistants: tuple[str, ...]
    force: int
    purpose: str
    target: str | None
    damage: str | None
    target_armed: bool
    against: str | None
    note: str
    faces: tuple[int, ...]
    natural: int
    modified: int
    success: bool
    critical_success: bool
    critical_failure: bool
    rerolls: int
    moves: Moves
    odds: Doc | None = None
    """The exact odds shown before the first die (`Ybs.odds`'s data); None: not recorded."""

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it, and its first die."""
        command = Test(
            character=self.character,
            trait=self.trait,
            second_trait=self.second_trait,
            combine=self.combine,  # type: ignore[arg-type]
            assistants=self.assistants,
            force=self.force,
            purpose=self.purpose,  # type: ignore[arg-type]
            target=self.target,
            damage=self.damage or "uchimi",  # type: ignore[arg-type]
            armed=self.target_armed,
            against=self.against,
            note=self.note,
            trait_approved=self._approved(),
        )
        return command, self.faces

    def _approved(self) -> bool:
        """A fight test on another trait than its own was approved by the GM (Y-X3)."""
        if self.purpose == "plain":
            return False
        own = "nintai" if self.purpose == "gate" else "choushi"
        return self.trait != own or self.second_trait is not None


@dataclass(frozen=True)
class Rerolled(Event):
    """S'entêter: the test in progress rerolled for 1 token."""

    kind: ClassVar[str] = "ybs.reroll"
    about: ClassVar[str] = N_("a reroll of the test in progress and its result")

    character: str
    face: int
    natural: int
    modified: int
    success: bool
    critical_success: bool
    critical_failure: bool
    rerolls: int
    moves: Moves

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it, and the rerolled die."""
        return Stubborn(), (self.face,)


@dataclass(frozen=True)
class CriticalSucceeded(Event):
    """The test's natural 6 made a critical success for 1 token."""

    kind: ClassVar[str] = "ybs.critical"
    about: ClassVar[str] = N_("a critical success bought for the test in progress")

    character: str
    natural: int
    modified: int
    success: bool
    critical_success: bool
    critical_failure: bool
    rerolls: int
    moves: Moves

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Critical(), NO_FACES


@dataclass(frozen=True)
class CriticalFailed(Event):
    """The test's final natural 1 made a critical failure by the GM."""

    kind: ClassVar[str] = "ybs.critical_failure"
    about: ClassVar[str] = N_("a critical failure decided by the GM for the test in progress")

    character: str
    natural: int
    modified: int
    success: bool
    critical_success: bool
    critical_failure: bool
    rerolls: int
    moves: Moves

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return CriticalFailure(), NO_FACES


FOLLOW_UPS = (Rerolled, CriticalSucceeded, CriticalFailed)
"""The events that continue the test in progress (any other event closes it)."""


YbsEvent: TypeAlias = (
    CharacterCreated
    | SessionStarted
    | SessionEnded
    | AttributeInvoked
    | ShichiFukujinCalled
    | OptionsSet
    | Damaged
    | Rested
    | KegaHealed
    | StarAwarded
    | TraitsTransferred
    | TraumaSet
    | TraumaLifted
    | AttributesChanged
    | Tested
    | Rerolled
    | CriticalSucceeded
    | CriticalFailed
    | RoundResolved
    | Retreated
    | FightEnded
    | GangStarted
    | GangThrown
    | GangSideThrown
    | GangStopped
    | Encountered
)
"""Every event Ybs stores: the union a plugin's ``apply`` and log lines take."""

EVENTS: tuple[type[Event], ...] = get_args(YbsEvent)
"""Every YBS event class."""
