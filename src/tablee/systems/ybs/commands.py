"""Every Yuigahama Bad Seeds command, declared once: fields, ranges, help, who, dice.

The command line (``tablee ybs ...`` and ``tablee odds ybs ...``), the web forms and the
JSON API are generated from these classes; `tablee.systems.ybs.plugin.Ybs.decide` takes them.

A test's follow-ups (s'entêter, a critical success or failure) continue the test in
progress: their events are never shown to more people than the test (``follows``). The gang
fight's commands are in `tablee.systems.ybs.brawl_commands`, the queries in
`tablee.systems.ybs.queries`.

Source: seed 004; rulings Y-M1 to Y-M9, Y-A2 to Y-A22, Y-X2, Y-X3, Y-X7.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

from tablee.dice import D6, DiceRequest
from tablee.errors import N_
from tablee.systems.declare import Command, Param, Who
from tablee.systems.ybs.character import MAX_TRAIT, MIN_TRAIT, Trait
from tablee.systems.ybs.damage import MAX_DAMAGE
from tablee.systems.ybs.rolls import MAX_FORCE

__all__ = [
    "CHARACTERS",
    "COMMANDS",
    "TOKENS",
    "UCHIMI",
    "ChangeAttributes",
    "CreateCharacter",
    "Critical",
    "CriticalFailure",
    "Damage",
    "EndFight",
    "EndSession",
    "HealKega",
    "ImportCharacters",
    "Invoke",
    "LiftTrauma",
    "ResolveRound",
    "Rest",
    "Retreat",
    "ShichiFukujin",
    "Star",
    "StartSession",
    "Stubborn",
    "Test",
    "Transfer",
    "Trauma",
    "note_param",
]

SHEETS_MAX = 60_000
"""Longest character-sheet text imported at once, in characters (a Foundry VTT actor export
with its attributes' descriptions runs to tens of thousands)."""

TOKENS = N_("tokens")
UCHIMI = N_("Uchimi")
MINUTES = N_("minutes")
TRAITS = "traits"
CHARACTERS = "characters"


def _character(help_text: str = N_("the character's name"), *, actor: bool = False) -> Param:
    return Param(
        help_text, choices=CHARACTERS, positional=True, placeholder="CHARACTER", actor=actor
    )


_TRAIT_LABELS = tuple((trait.value, trait.title) for trait in Trait)
"""Each trait's id and its name as the game writes it (``Choushi``), for the forms."""
_IN_A_FIGHT = N_("In a fight")
"""The group of a test's fight fields, folded in the web form."""


_TWO_TRAITS = N_("Two traits")
"""The group of a test's second trait, folded in the web form."""


def _trait(help_text: str, *, group: str = "") -> Param:
    return Param(
        help_text,
        choices=TRAITS,
        placeholder="TRAIT",
        rule="Y-M1",
        option_labels=_TRAIT_LABELS,
        group=group,
    )


def note_param(help_text: str = N_("a note kept in the log")) -> Param:
    """A free-text note's field: ``--note`` (or ``--reason``, as ``pouyss roll`` names it)."""
    return Param(help_text, flag="--note", aliases=("--reason",), placeholder="TEXT")


def _trait_value(help_text: str) -> Param:
    return Param(help_text, low=MIN_TRAIT, high=MAX_TRAIT, rule="Y-M1")


# -- characters, sessions and tokens ---------------------------------------------------------


@dataclass(frozen=True)
class CreateCharacter(Command):
    """A new character: six traits, attributes, its player (none: the GM's)."""

    name: ClassVar[str] = "character create"
    title: ClassVar[str] = N_("a new character: six traits from -2 to +2")
    who: ClassVar[Who] = Who.ACTOR
    rule: ClassVar[str] = "Y-M1"

    character: Annotated[
        str, Param(N_("the character's name"), positional=True, placeholder="NAME")
    ]
    choushi: Annotated[int, _trait_value(N_("the trait Choushi, -2 to +2 (default 0)"))] = 0
    kiyousa: Annotated[int, _trait_value(N_("the trait Kiyousa, -2 to +2 (default 0)"))] = 0
    chisei: Annotated[int, _trait_value(N_("the trait Chisei, -2 to +2 (default 0)"))] = 0
    yuuben: Annotated[int, _trait_value(N_("the trait Yuuben, -2 to +2 (default 0)"))] = 0
    chikaku: Annotated[int, _trait_value(N_("the trait Chikaku, -2 to +2 (default 0)"))] = 0
    nintai: Annotated[int, _trait_value(N_("the trait Nintai, -2 to +2 (default 0)"))] = 0
    player: Annotated[
        str | None,
        Param(N_("who plays it (none: a GM character)"), choices="players", actor=True),
    ] = None
    attributes: Annotated[
        tuple[str, ...], Param(N_("an attribute (repeatable)"), flag="--attribute")
    ] = ()

    def traits(self) -> dict[str, int]:
        """The six trait values by trait id."""
        return {
            "choushi": self.choushi,
            "kiyousa": self.kiyousa,
            "chisei": self.chisei,
            "yuuben": self.yuuben,
            "chikaku": self.chikaku,
            "nintai": self.nintai,
        }


@dataclass(frozen=True)
class ImportCharacters(Command):
    """Characters from a JSON or TOML text, all of them or none.

    The text holds Tablée's sheets, or actors exported from the Foundry VTT fan system
    (``remedywu/yuigahama``, "Export Data"), read by `tablee.systems.ybs.foundry` (Y-X7).
    ``player`` plays every character whose sheet names none (a Foundry actor never does).
    """

    name: ClassVar[str] = "character import"
    title: ClassVar[str] = N_("characters from a JSON or TOML file, all or none")
    rule: ClassVar[str] = "Y-M1"

    sheets: Annotated[
        str,
        Param(
            N_("a .json or .toml file: one sheet or a list (name, player, traits, attributes)"),
            file=True,
            positional=True,
            placeholder="FILE",
            max_length=SHEETS_MAX,
        ),
    ]
    player: Annotated[
        str | None,
        Param(
            N_("who plays the characters whose sheet names no player (a Foundry actor)"),
            choices="players",
            placeholder="PLAYER",
            rule="Y-X7",
        ),
    ] = None


@dataclass(frozen=True)
class StartSession(Command):
    """Start a session: leftover tokens back, then 2 to each player."""

    name: ClassVar[str] = "session start"
    title: ClassVar[str] = N_("start a session: 2 Unmei tokens to each player")
    rule: ClassVar[str] = "Y-M4"


@dataclass(frozen=True)
class EndSession(Command):
    """End the session: every unspent token back to the GM."""

    name: ClassVar[str] = "session end"
    title: ClassVar[str] = N_("end the session: every unspent token back to the GM")
    rule: ClassVar[str] = "Y-M4"


@dataclass(frozen=True)
class Invoke(Command):
    """The GM invokes a character's attribute against it: 1 token to its player."""

    name: ClassVar[str] = "invoke"
    title: ClassVar[str] = N_("the GM invokes an attribute against a character: 1 token")
    rule: ClassVar[str] = "Y-M2"

    character: Annotated[str, _character()]
    attribute: Annotated[str, Param(N_("the attribute"), placeholder="TEXT")]
    note: Annotated[str, note_param()] = ""


@dataclass(frozen=True)
class ShichiFukujin(Command):
    """A player spends 7 tokens at once to rewrite the scene."""

    name: ClassVar[str] = "shichi-fukujin"
    title: ClassVar[str] = N_("a player spends 7 tokens to rewrite the scene")
    who: ClassVar[Who] = Who.ACTOR
    rule: ClassVar[str] = "Y-M4"

    player: Annotated[
        str,
        Param(
            N_("the player (or one of the player's characters)"),
            choices="players",
            positional=True,
            actor=True,
            placeholder="PLAYER",
        ),
    ]
    proposal: Annotated[str, Param(N_("what the GM approved"), placeholder="TEXT")] = ""


# -- tests and their follow-ups --------------------------------------------------------------


@dataclass(frozen=True)
class Test(Command):
    """A test's first die: 1d6 + trait, 4 or more succeeds.

    A fight test uses Nintai (the gate) or Choushi alone unless the GM approves another
    trait or a pair (``trait_approved``, Y-X3).
    """

    name: ClassVar[str] = "test"
    title: ClassVar[str] = N_("a test: 1d6 + trait, 4 or more succeeds")
    who: ClassVar[Who] = Who.ACTOR
    rolled: ClassVar[bool] = True
    rule: ClassVar[str] = "Y-M3"
    faces_help: ClassVar[str] = N_("one d6 face, e.g. 5")
    dice_aliases: ClassVar[tuple[str, ...]] = ("--faces",)

    __test__: ClassVar[bool] = False  # not a pytest test class

    character: Annotated[str, _character(actor=True)]
    trait: Annotated[str, _trait(N_("the trait the GM names"))]
    second_trait: Annotated[
        str | None, _trait(N_("a second trait that also applies"), group=_TWO_TRAITS)
    ] = None
    combine: Annotated[
        Literal["average", "limit"] | None,
        Param(
            N_("how two traits combine"),
            option_labels=(("average", N_("average")), ("limit", N_("the lower one"))),
            group=_TWO_TRAITS,
        ),
    ] = None
    assistants: Annotated[
        tuple[str, ...],
        Param(
            N_("an assistant: its player gives 1 token"),
            flag="--assist",
            gm_only=True,
            placeholder="CHARACTER",
        ),
    ] = ()
    force: Annotated[
        int,
        Param(
            N_("tokens spent to force destiny, +1 each"),
            low=0,
            high=MAX_FORCE,
            unit=TOKENS,
            rule="Y-M3",
        ),
    ] = 0
    purpose: Annotated[
        Literal["plain", "gate", "attack", "defend"],
        Param(
            N_("a fight test: the Nintai gate, an attack, a defence"),
            option_labels=(
                ("plain", N_("not a fight test")),
                ("gate", N_("the Nintai gate")),
                ("attack", N_("an attack")),
                ("defend", N_("a defence")),
            ),
            group=_IN_A_FIGHT,
        ),
    ] = "plain"
    target: Annotated[
        str | None,
        Param(
            N_("an attack's target"), choices=CHARACTERS, placeholder="CHARACTER", group=_IN_A_FIGHT
        ),
    ] = None
    damage: Annotated[
        Literal["uchimi", "kega"],
        Param(
            N_("an attack's damage kind"),
            option_labels=(("uchimi", "Uchimi"), ("kega", "Kega")),
            group=_IN_A_FIGHT,
        ),
    ] = "uchimi"
    armed: Annotated[
        bool, Param(N_("the target bears a lethal or impressive weapon"), group=_IN_A_FIGHT)
    ] = False
    against: Annotated[
        str | None,
        Param(
            N_("the opponent a defence is against"),
            choices=CHARACTERS,
            placeholder="CHARACTER",
            group=_IN_A_FIGHT,
        ),
    ] = None
    note: Annotated[str, note_param()] = ""
    trait_approved: Annotated[
        bool,
        Param(
            N_("the GM approves another trait (or two) for a fight test"),
            gm_only=True,
            rule="Y-X3",
        ),
    ] = False

    def dice(self) -> tuple[DiceRequest, ...]:
        """The first natural die."""
        return (DiceRequest(D6, 1),)


@dataclass(frozen=True)
class Stubborn(Command):
    """S'entêter: 1 token to reroll the test in progress."""

    name: ClassVar[str] = "stubborn"
    title: ClassVar[str] = N_("s'entêter: 1 token to reroll the last test")
    who: ClassVar[Who] = Who.ACTOR
    rolled: ClassVar[bool] = True
    rule: ClassVar[str] = "Y-A3"
    faces_help: ClassVar[str] = N_("one d6 face, e.g. 5")
    dice_aliases: ClassVar[tuple[str, ...]] = ("--faces",)
    follows: ClassVar[tuple[str, ...]] = ("ybs.test",)

    def dice(self) -> tuple[DiceRequest, ...]:
        """The rerolled die."""
        return (DiceRequest(D6, 1),)


@dataclass(frozen=True)
class Critical(Command):
    """The player turns the test's natural 6 into a critical success for 1 token."""

    name: ClassVar[str] = "critical"
    title: ClassVar[str] = N_("turn the last test's 6 into a critical success: 1 token")
    who: ClassVar[Who] = Who.ACTOR
    rule: ClassVar[str] = "Y-A4"
    follows: ClassVar[tuple[str, ...]] = ("ybs.test",)


@dataclass(frozen=True)
class CriticalFailure(Command):
    """The GM turns the test's final natural 1 into a critical failure: 1 token to the player."""

    name: ClassVar[str] = "critical-failure"
    title: ClassVar[str] = N_(
        "the GM turns the last test's 1 into a critical failure: 1 token to the player"
    )
    rule: ClassVar[str] = "Y-A5"
    follows: ClassVar[tuple[str, ...]] = ("ybs.test",)


# -- damage, fights, evolution ---------------------------------------------------------------


def _boxes(help_text: str) -> Param:
    return Param(help_text, low=0, high=MAX_DAMAGE, unit=UCHIMI, rule="Y-M5", placeholder="N")


@dataclass(frozen=True)
class Damage(Command):
    """Uchimi and Kega marked, with overflow."""

    name: ClassVar[str] = "damage"
    title: ClassVar[str] = N_("mark Uchimi or Kega, with overflow")
    rule: ClassVar[str] = "Y-M5"

    character: Annotated[str, _character()]
    uchimi: Annotated[
        int, _boxes(N_("light blows: each marks a free box with /, else turns a / into X"))
    ] = 0
    kega: Annotated[
        int, _boxes(N_("serious wounds: each marks a free box with X, else turns a / into X"))
    ] = 0
    note: Annotated[str, note_param(N_("the wound's nature or care"))] = ""


@dataclass(frozen=True)
class Rest(Command):
    """A character rests: each full 30 minutes heal the last Uchimi."""

    name: ClassVar[str] = "rest"
    title: ClassVar[str] = N_("rest: 30 minutes heal the last Uchimi")
    rule: ClassVar[str] = "Y-N6"

    character: Annotated[str, _character()]
    minutes: Annotated[
        int,
        Param(
            N_("minutes of rest: each full 30 heal the last Uchimi"),
            low=0,
            high=10_000,
            unit=MINUTES,
            rule="Y-N6",
            placeholder="M",
        ),
    ]


@dataclass(frozen=True)
class HealKega(Command):
    """Kega healed by care, as the GM narrates."""

    name: ClassVar[str] = "heal"
    title: ClassVar[str] = N_("Kega healed by care, as the GM narrates")
    rule: ClassVar[str] = "Y-A22"

    character: Annotated[str, _character()]
    count: Annotated[
        int,
        Param(N_("Kega healed (default 1)"), low=1, high=MAX_DAMAGE, rule="Y-A22", placeholder="N"),
    ] = 1
    note: Annotated[str, note_param()] = ""


@dataclass(frozen=True)
class ResolveRound(Command):
    """Mark the damage of the round's attacks and start the next round."""

    name: ClassVar[str] = "fight resolve"
    title: ClassVar[str] = N_("an individual fight: mark the round's damage")
    rule: ClassVar[str] = "Y-M6"


@dataclass(frozen=True)
class Retreat(Command):
    """A character leaves the individual fight."""

    name: ClassVar[str] = "fight retreat"
    title: ClassVar[str] = N_("a character retreats from the fight")
    who: ClassVar[Who] = Who.ACTOR
    rule: ClassVar[str] = "Y-M6"

    character: Annotated[str, _character(N_("who retreats"), actor=True)]


@dataclass(frozen=True)
class EndFight(Command):
    """The individual fight is over."""

    name: ClassVar[str] = "fight end"
    title: ClassVar[str] = N_("the individual fight is over")
    rule: ClassVar[str] = "Y-M6"


@dataclass(frozen=True)
class Star(Command):
    """A star for a trait used heavily; the fifth raises it."""

    name: ClassVar[str] = "star"
    title: ClassVar[str] = N_("a star for a trait used heavily; 5 raise it")
    rule: ClassVar[str] = "Y-M9"

    character: Annotated[str, _character()]
    trait: Annotated[str, _trait(N_("the trait used heavily"))]


@dataclass(frozen=True)
class Transfer(Command):
    """Lower one trait by 1 to raise another.

    The game master's command; the house rule ``player_transfers`` lets a player transfer a
    level of their own character (`tablee.systems.ybs.plugin.Ybs.who`).
    """

    name: ClassVar[str] = "transfer"
    title: ClassVar[str] = N_("lower one trait by 1 to raise another")
    rule: ClassVar[str] = "Y-M9"

    character: Annotated[str, _character(actor=True)]
    lower: Annotated[str, _trait(N_("the trait lowered by 1 (not below -2)"))]
    raise_: Annotated[
        str,
        Param(
            N_("the trait raised by 1 (at most +2, two traits at +2)"),
            choices=TRAITS,
            option_labels=_TRAIT_LABELS,
            flag="--raise",
            placeholder="TRAIT",
            rule="Y-M9",
        ),
    ]


@dataclass(frozen=True)
class Trauma(Command):
    """After 3 Kega, a trait related to the wounds becomes -1."""

    name: ClassVar[str] = "trauma"
    title: ClassVar[str] = N_("after 3 Kega, a trait related to the wounds becomes -1")
    rule: ClassVar[str] = "Y-M9"

    character: Annotated[str, _character()]
    trait: Annotated[str, _trait(N_("the trait related to the wounds: it becomes -1 (a -2 stays)"))]
    note: Annotated[str, note_param()] = ""


@dataclass(frozen=True)
class LiftTrauma(Command):
    """The GM lifts a trauma: the trait gets back the levels it took (Y-X2)."""

    name: ClassVar[str] = "lift-trauma"
    title: ClassVar[str] = N_("the GM lifts a trauma: the trait gets back the levels it took")
    rule: ClassVar[str] = "Y-X2"

    character: Annotated[str, _character()]
    trait: Annotated[str, _trait(N_("the trait under the trauma"))]
    note: Annotated[str, note_param()] = ""


@dataclass(frozen=True)
class ChangeAttributes(Command):
    """Attributes gained or lost after a scenario."""

    name: ClassVar[str] = "attributes"
    title: ClassVar[str] = N_("attributes gained or lost after a scenario")
    rule: ClassVar[str] = "Y-M9"

    character: Annotated[str, _character()]
    add: Annotated[
        tuple[str, ...], Param(N_("an attribute gained (repeatable)"), flag="--add")
    ] = ()
    remove: Annotated[
        tuple[str, ...], Param(N_("an attribute lost (repeatable)"), flag="--remove")
    ] = ()


COMMANDS: tuple[type[Command], ...] = (
    Test,
    Stubborn,
    Critical,
    CriticalFailure,
    StartSession,
    EndSession,
    Invoke,
    ShichiFukujin,
    CreateCharacter,
    ImportCharacters,
    Damage,
    Rest,
    HealKega,
    ResolveRound,
    Retreat,
    EndFight,
    Star,
    Transfer,
    Trauma,
    LiftTrauma,
    ChangeAttributes,
)
"""The YBS commands of this module, in the order the interfaces show them (the gang fight's
are in `tablee.systems.ybs.brawl_commands`, the queries in `tablee.systems.ybs.queries`)."""
