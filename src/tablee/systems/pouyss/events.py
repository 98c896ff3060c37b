"""Every stored Pouyss event, one typed class per kind, with what it records.

Each event records the inputs of the command that produced it (so it can be decided again
to check it), the dice faces thrown and the outcome the rules gave (levels, the cagnotte's
move). Folding a log applies the recorded outcome (`tablee.systems.pouyss.plugin`).

Version 1 of every kind is the shape Tablée 0.1.0 stored; the roll is at version 2, which
adds the exact odds shown before the roll (None when not recorded). The opposed roll is at
version 3, which adds the narrator's imposed dice, the double bonus and the reasons (none
before).

Source: seed 000; rulings P-M1 to P-M8, P-A2 to P-A13.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, TypeAlias, get_args

from tablee.errors import N_
from tablee.systems.base import JSON
from tablee.systems.declare import Command
from tablee.systems.event import ODDS_UPGRADES, Event, Upgrade
from tablee.systems.pouyss.cagnotte import CagnotteMove
from tablee.systems.pouyss.commands import (
    CorrectCagnotte,
    EndSession,
    Opposed,
    Penalty,
    Reward,
    Roll,
    SetCharacter,
    StartSession,
)

__all__ = [
    "EVENTS",
    "OPPOSED_UPGRADES",
    "CagnotteCorrected",
    "CharacterSet",
    "OpposedRolled",
    "OptionsSet",
    "Penalised",
    "PouyssEvent",
    "Rewarded",
    "Rolled",
    "SessionEnded",
    "SessionStarted",
]

NO_FACES: tuple[int, ...] = ()


def _nothing_imposed(payload: dict[str, JSON]) -> dict[str, JSON]:
    """Version 2 -> 3 of an opposed roll: nothing imposed, no double bonus, no reasons."""
    return {
        **payload,
        "imposed_bonus": 0,
        "imposed_malus": 0,
        "double_bonus": False,
        "reasons": [],
    }


OPPOSED_UPGRADES: Mapping[int, Upgrade] = {**ODDS_UPGRADES, 2: _nothing_imposed}
"""The upgrades of an opposed roll: the odds (1 -> 2), then what was imposed (2 -> 3)."""


@dataclass(frozen=True)
class SessionStarted(Event):
    """A session starts with the cagnotte filled."""

    kind: ClassVar[str] = "pouyss.session_started"
    about: ClassVar[str] = N_("a session starts; the cagnotte it starts with")

    session: int
    cagnotte: int
    carried_over: bool

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        if self.carried_over:
            return StartSession(carry_over=True), NO_FACES
        return StartSession(cagnotte=self.cagnotte), NO_FACES


@dataclass(frozen=True)
class SessionEnded(Event):
    """The session being played ends."""

    kind: ClassVar[str] = "pouyss.session_ended"
    about: ClassVar[str] = N_("the session ends; the cagnotte it ends with")

    session: int
    cagnotte: int

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return EndSession(), NO_FACES


@dataclass(frozen=True)
class Rolled(Event):
    """An action roll: the counts asked for, the faces, the level, the cagnotte's move."""

    kind: ClassVar[str] = "pouyss.roll"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = ODDS_UPGRADES
    about: ClassVar[str] = N_("an action roll, its dice, its level and the cagnotte's move")

    player: str
    bonus: int
    malus: int
    imposed_bonus: int
    imposed_malus: int
    double_bonus: bool
    faces: tuple[int, ...]
    removed: tuple[int, ...]
    kept: tuple[int, ...]
    value: int
    level: str
    success: bool
    cagnotte: CagnotteMove
    reasons: tuple[str, ...]
    odds: Mapping[str, JSON] | None = None

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it, and its faces."""
        command = Roll(
            player=self.player,
            bonus=self.bonus,
            malus=self.malus,
            imposed_bonus=self.imposed_bonus,
            imposed_malus=self.imposed_malus,
            double_bonus=self.double_bonus,
            reasons=self.reasons,
        )
        return command, self.faces


@dataclass(frozen=True)
class OpposedRolled(Event):
    """An opposed roll: both sides' counts, the converted roll, both levels, the cagnotte."""

    kind: ClassVar[str] = "pouyss.opposed"
    version: ClassVar[int] = 3
    upgrades: ClassVar[Mapping[int, Upgrade]] = OPPOSED_UPGRADES
    about: ClassVar[str] = N_("an opposed roll, both sides' levels and the cagnotte's move")

    active: str
    passive: str
    passive_is_npc: bool
    active_bonus: int
    active_malus: int
    passive_bonus: int
    passive_malus: int
    bonus: int
    malus: int
    faces: tuple[int, ...]
    removed: tuple[int, ...]
    kept: tuple[int, ...]
    value: int
    level: str
    success: bool
    passive_value: int
    passive_level: str
    cagnotte: CagnotteMove
    odds: Mapping[str, JSON] | None = None
    imposed_bonus: int = 0
    imposed_malus: int = 0
    double_bonus: bool = False
    reasons: tuple[str, ...] = ()

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it, and its faces."""
        command = Opposed(
            active=self.active,
            passive=None if self.passive_is_npc else self.passive,
            passive_npc=self.passive if self.passive_is_npc else None,
            active_bonus=self.active_bonus,
            active_malus=self.active_malus,
            passive_bonus=self.passive_bonus,
            passive_malus=self.passive_malus,
            imposed_bonus=self.imposed_bonus,
            imposed_malus=self.imposed_malus,
            double_bonus=self.double_bonus,
            reasons=self.reasons,
        )
        return command, self.faces


@dataclass(frozen=True)
class Rewarded(Event):
    """Role-play rewarded with dice into the cagnotte."""

    kind: ClassVar[str] = "pouyss.reward"
    about: ClassVar[str] = N_("a role-play reward and the cagnotte's move")

    player: str | None
    amount: int
    reason: str
    cagnotte: CagnotteMove

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Reward(amount=self.amount, player=self.player, reason=self.reason), NO_FACES


@dataclass(frozen=True)
class Penalised(Event):
    """Role-play penalised with dice out of the cagnotte."""

    kind: ClassVar[str] = "pouyss.penalty"
    about: ClassVar[str] = N_("a role-play penalty and the cagnotte's move")

    player: str | None
    amount: int
    reason: str
    cagnotte: CagnotteMove

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Penalty(amount=self.amount, player=self.player, reason=self.reason), NO_FACES


@dataclass(frozen=True)
class CagnotteCorrected(Event):
    """The narrator's correction of the cagnotte, with its reason (not a reward, P-X1)."""

    kind: ClassVar[str] = "pouyss.cagnotte_corrected"
    about: ClassVar[str] = N_("the narrator's correction of the cagnotte and its reason")

    value: int
    reason: str
    cagnotte: CagnotteMove

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return CorrectCagnotte(value=self.value, reason=self.reason), NO_FACES


@dataclass(frozen=True)
class CharacterSet(Event):
    """A player's character: advantages and disadvantages."""

    kind: ClassVar[str] = "pouyss.character_set"
    about: ClassVar[str] = N_("a character's advantages and disadvantages")

    player: str
    advantages: tuple[str, ...]
    disadvantages: tuple[str, ...]

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        command = SetCharacter(
            player=self.player, advantages=self.advantages, disadvantages=self.disadvantages
        )
        return command, NO_FACES


@dataclass(frozen=True)
class OptionsSet(Event):
    """The table's house rules, all of them as they now are."""

    kind: ClassVar[str] = "pouyss.options_set"
    about: ClassVar[str] = N_("the table's house rules after a change")

    options: Mapping[str, JSON]

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """Options are changed through the table, not a game command."""
        raise NotImplementedError


PouyssEvent: TypeAlias = (
    SessionStarted
    | SessionEnded
    | Rolled
    | OpposedRolled
    | Rewarded
    | Penalised
    | CagnotteCorrected
    | CharacterSet
    | OptionsSet
)
"""Every event Pouyss stores: the union a plugin's ``apply`` and log lines take."""

EVENTS: tuple[type[Event], ...] = get_args(PouyssEvent)
"""Every Pouyss event class."""
