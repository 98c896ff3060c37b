"""The stored events of YBS fights: individual rounds, gang fights, unexpected encounters.

Each records the inputs of its command and the outcome: the hits and the boxes after a
round, a gang-fight throw's kept and new faces, hands and (at its end) the damage, one
side's dice of a throw waiting for the other side's (``ybs.gang_side``, version 1), an
encounter's choices and the strike or fight they led to. Version 1 of every kind is the
shape Tablée 0.1.0 stored; ``ybs.gang_throw`` and ``ybs.encounter`` are at version 2, which
adds the exact odds shown before the throw (``odds``; None when not recorded, as in version
1; `tablee.systems.event.ODDS_UPGRADES`).

Source: seed 004, "Résolution d'un combat", "Les combats de bande", "Ichika Bachika";
rulings Y-M6 to Y-M8, Y-A9 to Y-A18.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from tablee.errors import N_
from tablee.systems.base import JSON
from tablee.systems.declare import Command
from tablee.systems.event import ODDS_UPGRADES, Event, Upgrade
from tablee.systems.ybs.brawl_commands import Encounter, StartGang, StopGang, ThrowGang
from tablee.systems.ybs.commands import EndFight, ResolveRound, Retreat

__all__ = [
    "Encountered",
    "FightEnded",
    "GangSideThrown",
    "GangStarted",
    "GangStopped",
    "GangThrown",
    "Retreated",
    "RoundResolved",
]

NO_FACES: tuple[int, ...] = ()
Doc = Mapping[str, JSON]


def _faces_text(faces: tuple[int, ...]) -> str:
    """Kept faces as a keep field says them: ``1,2,3``, or ``none`` for no die kept."""
    return ",".join(str(f) for f in faces) or "none"


# -- individual fights -----------------------------------------------------------------------


@dataclass(frozen=True)
class RoundResolved(Event):
    """The round's attacks resolved: the hits and the boxes of those hit."""

    kind: ClassVar[str] = "ybs.round_resolved"
    about: ClassVar[str] = N_("a fight round resolved: each attack's hit, the boxes after")

    round: int
    hits: tuple[Doc, ...]
    boxes: Mapping[str, Doc]

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return ResolveRound(), NO_FACES


@dataclass(frozen=True)
class Retreated(Event):
    """A character leaves the fight."""

    kind: ClassVar[str] = "ybs.retreat"
    about: ClassVar[str] = N_("a character retreats from the fight")

    character: str

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Retreat(self.character), NO_FACES


@dataclass(frozen=True)
class FightEnded(Event):
    """The individual fight is over."""

    kind: ClassVar[str] = "ybs.fight_ended"
    about: ClassVar[str] = N_("the individual fight ends after its rounds")

    rounds: int

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return EndFight(), NO_FACES


# -- gang fights and encounters --------------------------------------------------------------


@dataclass(frozen=True)
class GangStarted(Event):
    """A gang fight starts: its sides, their dice and the damage amounts."""

    kind: ClassVar[str] = "ybs.gang_started"
    about: ClassVar[str] = N_("a gang fight starts: the sides, their dice, the damage per fighter")

    fighters: tuple[str, ...]
    opponents: tuple[str, ...]
    outnumbered: str | None
    outgunned: str | None
    winner_uchimi: int
    loser_uchimi: int
    draw_uchimi: int
    players_dice: int
    gm_dice: int

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        command = StartGang(
            fighters=self.fighters,
            opponents=self.opponents,
            outnumbered=self.outnumbered,  # type: ignore[arg-type]
            outgunned=self.outgunned,  # type: ignore[arg-type]
            winner_uchimi=self.winner_uchimi,
            loser_uchimi=self.loser_uchimi,
            draw_uchimi=self.draw_uchimi,
        )
        return command, NO_FACES


@dataclass(frozen=True)
class GangThrown(Event):
    """One throw of the gang fight: both sides' dice, hands and, at the end, the damage."""

    kind: ClassVar[str] = "ybs.gang_throw"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = ODDS_UPGRADES
    about: ClassVar[str] = N_("a gang-fight throw: kept and new faces, hands, the end and damage")

    throw: int
    minutes: int
    keep: tuple[int, ...]
    gm_keep: tuple[int, ...]
    faces: tuple[int, ...]
    gm_faces: tuple[int, ...]
    hand: tuple[int, ...]
    gm_hand: tuple[int, ...]
    straight: str | None
    gm_straight: str | None
    winner: str | None
    draw: bool
    inglorious: bool
    damage: tuple[Doc, ...]
    odds: Doc | None = None
    """The exact odds shown before the roll (`Ybs.odds`'s data); None: not recorded."""

    @property
    def ends(self) -> bool:
        """The throw ends the fight (a winner or a draw)."""
        return self.winner is not None or self.draw

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it, and the players' then the GM's new faces."""
        command = ThrowGang(keep=_faces_text(self.keep), gm_keep=_faces_text(self.gm_keep))
        return command, (*self.faces, *self.gm_faces)


@dataclass(frozen=True)
class GangSideThrown(Event):
    """One side's dice of a gang-fight throw, waiting for the other side's (Y-M7).

    Both sides throw at once; when each enters its own dice, the first side's are stored
    here and the other side's throw makes the whole ``ybs.gang_throw``.
    """

    kind: ClassVar[str] = "ybs.gang_side"
    about: ClassVar[str] = N_("one side's dice of a gang-fight throw, waiting for the other side")

    throw: int
    side: str
    keep: tuple[int, ...]
    faces: tuple[int, ...]
    odds: Doc | None = None
    """The exact odds shown before the roll (`Ybs.odds`'s data); None: not recorded."""

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it (that side alone), and that side's new faces."""
        kept = _faces_text(self.keep)
        if self.side == "gm":
            command = ThrowGang(gm_keep=kept, side="gm")
        else:
            command = ThrowGang(keep=kept, side="players")
        return command, self.faces


@dataclass(frozen=True)
class GangStopped(Event):
    """The GM stops the gang fight without a winner."""

    kind: ClassVar[str] = "ybs.gang_stopped"
    about: ClassVar[str] = N_("the GM stops the gang fight; no damage")

    throws: int
    note: str

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return StopGang(self.note), NO_FACES


_ICHIKA_KEYS = ("winner", "draw", "reroll", "zorome", "gm_zorome", "damage")


@dataclass(frozen=True)
class Encountered(Event):
    """An unexpected encounter: the players' choices and what they led to.

    A gang fight (``kind`` ``gang_fight``) stores the fight it starts under ``gang``;
    Ichika Bachika (``ichika_bachika``) stores the strike's outcome; the other keys are
    absent from the payload of the other kinds.
    """

    kind: ClassVar[str] = "ybs.encounter"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = ODDS_UPGRADES
    about: ClassVar[str] = N_("an unexpected encounter: the choices, the strike or the fight")

    choices: Mapping[str, str]
    outcome: str = field(metadata={"key": "kind"})
    fighters: tuple[str, ...]
    opponents: tuple[str, ...]
    outnumbered: str | None
    outgunned: str | None
    faces: tuple[int, ...]
    gm_faces: tuple[int, ...]
    gang: Doc | None = None
    winner: str | None = None
    draw: bool = False
    reroll: bool = False
    zorome: str = ""
    gm_zorome: str = ""
    damage: tuple[Doc, ...] = ()
    odds: Doc | None = None
    """The exact odds shown before the roll (`Ybs.odds`'s data); None: not recorded."""

    def payload(self) -> dict[str, JSON]:
        """The stored payload: only the keys of its kind of outcome."""
        full = super().payload()
        if self.outcome != "gang_fight":
            del full["gang"]
        if self.outcome != "ichika_bachika":
            for key in _ICHIKA_KEYS:
                del full[key]
        return full

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it, and the players' then the GM's faces."""
        command = Encounter(
            choices=tuple(f"{player}={choice}" for player, choice in self.choices.items()),
            opponents=self.opponents,
            outnumbered=self.outnumbered,  # type: ignore[arg-type]
            outgunned=self.outgunned,  # type: ignore[arg-type]
        )
        return command, (*self.faces, *self.gm_faces)
