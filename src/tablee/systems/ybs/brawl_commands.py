"""The gang fight and Ichika Bachika commands of Yuigahama Bad Seeds, declared once.

A gang fight and Ichika Bachika throw two sides' dice: the players' d6 (``--dice``) and the
game master's d6 (``--gm-dice``, the kind `GM_D6`), which only the game master may type in.
Each side of a gang fight may throw on its own (``side``): both sides throw at once by the
rules (Y-M7 steps 3-4), so the first side's dice wait until the other side has thrown, and
the throw is then resolved; the server rolls only the dice of the side that throws.
A gang fight's throw continues the fight (``follows``): a viewer who may not see the last
throw may not throw next nor see the advice; the game master may show the next throw again.

Source: seed 004, "Les combats de bande", "Ichika Bachika"; rulings Y-M7, Y-M8, Y-A12 to
Y-A18.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

from tablee.dice import D6, Die
from tablee.errors import N_, InputError
from tablee.systems.declare import Command, Param, Who
from tablee.systems.ybs.commands import UCHIMI, note_param

__all__ = ["BRAWL_COMMANDS", "GM_D6", "Encounter", "StartGang", "StopGang", "ThrowGang"]

GM_D6 = Die("gm", D6.faces, N_("the game master's d6"))
"""The game master's d6 in a gang fight or Ichika Bachika: typed in with ``--gm-dice``."""

Side = Literal["players", "gm"]


_SIDE_LABELS = (("players", N_("the players' side")), ("gm", N_("the GM's side")))
"""How the forms name each side of a gang fight."""


def _side(help_text: str) -> Param:
    return Param(help_text, rule="Y-M7", option_labels=_SIDE_LABELS)


_AMOUNTS = N_("Other amounts of Uchimi")
"""The group of a gang fight's amounts of Uchimi, folded in the web form."""


def _amount(help_text: str) -> Param:
    return Param(
        help_text, low=0, high=20, unit=UCHIMI, rule="Y-M7", placeholder="N", group=_AMOUNTS
    )


_OPPONENT = N_("a GM character in the fight (repeatable)")


@dataclass(frozen=True)
class StartGang(Command):
    """Start a gang fight: dice per side from the disadvantages."""

    name: ClassVar[str] = "gang start"
    title: ClassVar[str] = N_("start a gang fight: dice from the disadvantages")
    rule: ClassVar[str] = "Y-M7"

    fighters: Annotated[
        tuple[str, ...],
        Param(
            N_("a fighter on the players' side (repeatable)"),
            flag="--fighter",
            placeholder="CHARACTER",
        ),
    ]
    opponents: Annotated[
        tuple[str, ...], Param(_OPPONENT, flag="--opponent", placeholder="CHARACTER")
    ] = ()
    outnumbered: Annotated[Side | None, _side(N_("the side with fewer fighters"))] = None
    outgunned: Annotated[Side | None, _side(N_("the side with worse weapons"))] = None
    winner_uchimi: Annotated[
        int | None, _amount(N_("Uchimi for each fighter of the winning side (default 1)"))
    ] = None
    loser_uchimi: Annotated[
        int | None, _amount(N_("Uchimi for each fighter of the losing side (default 3)"))
    ] = None
    draw_uchimi: Annotated[
        int | None,
        _amount(N_("Uchimi for every fighter on identical straights (default 2)")),
    ] = None


_KEEP = "FACES|advised|none"


@dataclass(frozen=True)
class ThrowGang(Command):
    """One throw of the gang fight: each side keeps some dice and rerolls the rest."""

    name: ClassVar[str] = "gang throw"
    title: ClassVar[str] = N_("one throw: each side keeps some dice and rerolls the rest")
    who: ClassVar[Who] = Who.ACTOR
    rolled: ClassVar[bool] = True
    rule: ClassVar[str] = "Y-M7"
    faces_help: ClassVar[str] = N_("the players' new faces, e.g. 1,3,4,6")
    dice_kinds: ClassVar[tuple[Die, ...]] = (D6, GM_D6)
    dice_aliases: ClassVar[tuple[str, ...]] = ("--faces", "--gm-faces")
    gm_dice: ClassVar[tuple[str, ...]] = (GM_D6.name,)
    follows: ClassVar[tuple[str, ...]] = ("ybs.gang_started", "ybs.encounter", "ybs.gang_throw")
    keeps_hidden: ClassVar[bool] = False

    keep: Annotated[
        str | None,
        Param(N_("the faces the players keep (default: advised)"), placeholder=_KEEP, rule="Y-M7"),
    ] = None
    gm_keep: Annotated[
        str | None,
        Param(
            N_("the faces the GM keeps (default: advised)"),
            placeholder=_KEEP,
            gm_only=True,
            rule="Y-M7",
        ),
    ] = None
    fighter: Annotated[
        str | None,
        Param(
            N_("who throws the players' dice: one of their fighters (default: the GM)"),
            choices="fighters",
            actor=True,
            mine=True,
            placeholder="CHARACTER",
        ),
    ] = None
    side: Annotated[
        Literal["gm", "players", "both"] | None,
        Param(
            N_(
                "whose dice this throw is: the GM's side, the players' side or both (default: "
                "the players' when a fighter throws, else the side still to throw, else both)"
            ),
            gm_only=True,
            rule="Y-M7",
            form_default="gm",
            option_labels=(*_SIDE_LABELS, ("both", N_("both sides"))),
        ),
    ] = None


@dataclass(frozen=True)
class StopGang(Command):
    """The GM stops the gang fight, no damage."""

    name: ClassVar[str] = "gang stop"
    title: ClassVar[str] = N_("the GM stops the gang fight, no damage")
    rule: ClassVar[str] = "Y-M7"

    note: Annotated[str, note_param()] = ""


@dataclass(frozen=True)
class Encounter(Command):
    """An unexpected encounter: each player's secret choice, then the strike if called."""

    name: ClassVar[str] = "ichika"
    title: ClassVar[str] = N_("an unexpected encounter: flee, gang fight or Ichika Bachika")
    rolled: ClassVar[bool] = True
    rule: ClassVar[str] = "Y-M8"
    faces_help: ClassVar[str] = N_("Ichika Bachika: the players' 5 faces")
    dice_kinds: ClassVar[tuple[Die, ...]] = (D6, GM_D6)
    dice_aliases: ClassVar[tuple[str, ...]] = ("--faces", "--gm-faces")
    gm_dice: ClassVar[tuple[str, ...]] = (GM_D6.name,)

    choices: Annotated[
        tuple[str, ...],
        Param(
            N_("a player's secret choice: flee, gang-fight or ichika-bachika"),
            flag="--choice",
            placeholder="PLAYER=CHOICE",
            rule="Y-M8",
        ),
    ]
    opponents: Annotated[
        tuple[str, ...], Param(_OPPONENT, flag="--opponent", placeholder="CHARACTER")
    ] = ()
    outnumbered: Annotated[Side | None, _side(N_("the side with fewer fighters"))] = None
    outgunned: Annotated[Side | None, _side(N_("the side with worse weapons"))] = None

    def by_player(self) -> dict[str, str]:
        """The players' choices from the ``PLAYER=CHOICE`` entries, as ids (``ichika_bachika``).

        Raises:
            InputError: an entry without ``=`` or without a player.

        Source: Y-M8.
        """
        found: dict[str, str] = {}
        for entry in self.choices:
            player, sep, choice = entry.partition("=")
            if not sep or not player.strip():
                raise InputError(N_("{value!r}: expected PLAYER=CHOICE"), value=entry)
            found[player.strip()] = choice.strip().lower().replace("-", "_").replace(" ", "_")
        return found


BRAWL_COMMANDS: tuple[type[Command], ...] = (StartGang, ThrowGang, StopGang, Encounter)
"""The gang fight's commands, in the order the interfaces show them."""
