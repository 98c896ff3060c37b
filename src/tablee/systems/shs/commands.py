"""Every SHS command, declared once: its fields, ranges, help, who may use it, its dice.

The command line (``tablee shs ...``, ``tablee odds shs``), the web forms and the JSON API
are generated from these classes; `tablee.systems.shs.plugin.Shs.decide` takes them. The
Actions of opposed, cooperative and simultaneous rolls are written as specs
(``NAME:CARACTERISTIQUE[:option...]``, ``CARACTERISTIQUE:DIFFICULTY[:option...]``), read
here into `tablee.systems.shs.planning.Attempt`.

Source: seed 003; rulings S-M1 to S-M9, S-N1, S-A1 to S-A15, S-T6.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeAlias

from tablee.dice import D8, DPM
from tablee.errors import N_, InputError
from tablee.systems.declare import Command, Param, Query, Who
from tablee.systems.shs.actions import MAX_MODIFIER
from tablee.systems.shs.clock import MAX_TOURS
from tablee.systems.shs.notation import attempt_options, difficulty_named, parse_test_notation
from tablee.systems.shs.planning import Attempt, OpposedInSet
from tablee.systems.shs.protagonist import MAX_COUNTER
from tablee.systems.shs.situations import MAX_SIMULTANEOUS
from tablee.systems.shs.traits import Characteristic

if TYPE_CHECKING:
    from tablee.systems.shs.events import RolledAction

__all__ = [
    "COMMANDS",
    "AddModifier",
    "ClockQuery",
    "Cooperate",
    "CreateProtagonist",
    "EditCounters",
    "EndModifier",
    "ImportProtagonists",
    "Kill",
    "NextTour",
    "OddsQuery",
    "Oppose",
    "Revive",
    "ShowProtagonists",
    "ShsCommand",
    "Simultaneous",
    "StartLongAction",
    "StartScene",
    "TestCommand",
    "TimeAdvance",
    "action_spec",
    "member_spec",
    "side_spec",
]

SHEETS_MAX = 20_000
"""Longest sheets text one import reads, in characters (Tablée's limit)."""
PROTAGONISTES = "protagonistes"
"""The choice source of a Protagoniste's name (`tablee.systems.shs.plugin.Shs.choices`)."""
CHARACTERISTICS = "characteristics"
"""The choice source of a Caractéristique."""

OPTIONS = ("surpasser", "sacrifier")
"""The options of an Action, as the commands name them (S-M5)."""
ROLL_HELP = N_(
    "the action dice (D8, or D10 with a matching Expertise), Action by Action, e.g. 1,5,8; "
    "the +/- dice have their own field"
)
REASON = Param(N_("a note kept in the log"))
SPEC_HELP = N_(
    "options after the Caractéristique, separated by ':': expertise=TEXT, bonus=N, malus=N, "
    "surpasser, sacrifier"
)
MEMBER_SHAPE = "NAME:CARACTERISTIQUE[:option...]"
ACTION_SHAPE = "CARACTERISTIQUE:DIFFICULTY[:option...]"
SIDE_SHAPE = "CARACTERISTIQUE[:option...]"


_CHARACTERISTIC_LABELS = tuple((c.value, c.title) for c in Characteristic)
"""Each Caractéristique's id and its name as the game writes it (``Sang-froid``)."""
_MORE = N_("Bonus, Malus and options")
"""The group of a Test's rarely used fields, folded in the web form."""
_OPPOSED = N_("An opposed Action in the set")
"""The group of a simultaneous set's opposed Action, folded in the web form (S-X5)."""


def _who(help_text: str, *, actor: bool = False) -> Param:
    return Param(help_text, choices=PROTAGONISTES, actor=actor, flag="--protagoniste")


def _modifier(help_text: str, *, group: str = "") -> Param:
    return Param(help_text, low=0, high=MAX_MODIFIER, rule="S-M3", group=group)


def _threshold(help_text: str) -> Param:
    return Param(help_text, placeholder="5..8", rule="S-M1")


class Rolled(Command):
    """What every rolled SHS command shares: action dice, then D+/- dice."""

    rolled: ClassVar[bool] = True
    who: ClassVar[Who] = Who.ACTOR
    dice_kinds: ClassVar[tuple[Any, ...]] = (D8, DPM)
    faces_help: ClassVar[str] = ROLL_HELP


# --- Protagonistes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CreateProtagonist(Command):
    """A new Protagoniste by free entry: Santé from Carrure."""

    name: ClassVar[str] = "protagoniste create"
    title: ClassVar[str] = N_("a new Protagoniste, Santé from Carrure")
    who: ClassVar[Who] = Who.ACTOR  # a player creates the Protagonistes they play
    rule: ClassVar[str] = "S-M9"

    protagonist: Annotated[str, Param(N_("the Protagoniste's name"), flag="--name")]
    carrure: Annotated[str, _threshold(N_("Carrure: threshold from 5+ to 8+"))]
    motricite: Annotated[str, _threshold(N_("Motricité: threshold from 5+ to 8+"))]
    science: Annotated[str, _threshold(N_("Science: threshold from 5+ to 8+"))]
    relationnel: Annotated[str, _threshold(N_("Relationnel: threshold from 5+ to 8+"))]
    sang_froid: Annotated[str, _threshold(N_("Sang-froid: threshold from 5+ to 8+"))]
    player: Annotated[
        str | None,
        Param(
            N_("the player who plays it (default: the Réalisateur)"),
            choices="players",
            actor=True,
        ),
    ] = None
    expertises: Annotated[
        tuple[str, ...], Param(N_("an Expertise (repeatable)"), flag="--expertise")
    ] = ()
    protection: Annotated[int, Param(N_("Protection"), low=0, high=MAX_COUNTER, rule="S-A9")] = 0
    air: Annotated[int, Param(N_("Air"), low=0, high=MAX_COUNTER, rule="S-A9")] = 0


@dataclass(frozen=True)
class ImportProtagonists(Command):
    """Protagonistes from JSON or TOML sheets, all or none."""

    name: ClassVar[str] = "protagoniste import"
    title: ClassVar[str] = N_("Protagonistes from a JSON or TOML file (all or none)")
    rule: ClassVar[str] = "S-M9"

    file: Annotated[
        str,
        Param(
            N_("a .json or .toml file: one Protagoniste or a list"),
            positional=True,
            file=True,
            max_length=SHEETS_MAX,
        ),
    ]
    format: Annotated[
        Literal["auto", "json", "toml"],
        Param(
            N_("how the sheets are written (auto: JSON if it reads as JSON, else TOML)"),
            option_labels=(
                ("auto", N_("guess: JSON if it reads as JSON, else TOML")),
                ("json", "JSON"),
                ("toml", "TOML"),
            ),
        ),
    ] = "auto"


@dataclass(frozen=True)
class ShowProtagonists(Query):
    """The Protagonistes' traits and counters."""

    name: ClassVar[str] = "protagoniste show"
    title: ClassVar[str] = N_("traits and counters")
    who: ClassVar[Who] = Who.ANYONE

    protagonist: Annotated[
        str | None,
        Param(N_("one Protagoniste (default: all)"), choices=PROTAGONISTES, positional=True),
    ] = None


_COUNTER_HELP = {
    "sante": (N_("change Santé by N"), N_("set Santé to N")),
    "protection": (N_("change Protection by N"), N_("set Protection to N")),
    "air": (N_("change Air by N"), N_("set Air to N")),
    "nt": (N_("change NT by N"), N_("set NT to N")),
}


def _change(counter: str) -> Param:
    return Param(
        _COUNTER_HELP[counter][0],
        low=-MAX_COUNTER,
        high=MAX_COUNTER,
        placeholder="±N",
        rule="S-A10",
        change=True,
    )


def _set(counter: str) -> Param:
    return Param(_COUNTER_HELP[counter][1], low=0, high=MAX_COUNTER, rule="S-A10")


@dataclass(frozen=True)
class EditCounters(Command):
    """Santé, Protection, Air or NT by hand: each by a change or to a value."""

    name: ClassVar[str] = "protagoniste edit"
    title: ClassVar[str] = N_("change Santé, Protection, Air or NT by hand")
    rule: ClassVar[str] = "S-A10"

    protagonist: Annotated[
        str, Param(N_("the Protagoniste"), choices=PROTAGONISTES, positional=True)
    ]
    sante: Annotated[int | None, _change("sante")] = None
    set_sante: Annotated[int | None, _set("sante")] = None
    protection: Annotated[int | None, _change("protection")] = None
    set_protection: Annotated[int | None, _set("protection")] = None
    air: Annotated[int | None, _change("air")] = None
    set_air: Annotated[int | None, _set("air")] = None
    nt: Annotated[int | None, _change("nt")] = None
    set_nt: Annotated[int | None, _set("nt")] = None

    def changes(self) -> list[tuple[str, int | None, int | None]]:
        """``(counter, change, value)`` for every counter given, in the sheet's order.

        Raises:
            InputError: no counter given.
        """
        changes = []
        for counter in ("sante", "protection", "air", "nt"):
            delta, value = getattr(self, counter), getattr(self, "set_" + counter)
            if delta is not None or value is not None:
                changes.append((counter, delta, value))
        if not changes:
            raise InputError(
                N_("nothing to edit"),
                cli_tip=N_("give --sante +N or -N, --set-sante N, --air, --nt..."),
            )
        return changes


@dataclass(frozen=True)
class Kill(Command):
    """The Réalisateur's call: the Protagoniste dies."""

    name: ClassVar[str] = "protagoniste kill"
    title: ClassVar[str] = N_("the Réalisateur's call: the Protagoniste dies")
    rule: ClassVar[str] = "S-A8"

    protagonist: Annotated[
        str, Param(N_("the Protagoniste"), choices=PROTAGONISTES, positional=True)
    ]
    reason: Annotated[str, REASON] = ""


@dataclass(frozen=True)
class Revive(Command):
    """The Réalisateur takes back a death decided by mistake."""

    name: ClassVar[str] = "protagoniste revive"
    title: ClassVar[str] = N_("take back a death decided by mistake")
    rule: ClassVar[str] = "S-A8"

    protagonist: Annotated[
        str, Param(N_("the Protagoniste"), choices=PROTAGONISTES, positional=True)
    ]
    reason: Annotated[str, REASON] = ""


# --- rolled Actions --------------------------------------------------------------------------


def _spec(
    text: str, *, what: str, shape: str, leading_parts: int = 2
) -> tuple[list[str], dict[str, Any]]:
    """Split ``A:B[:option...]``: the leading parts and the options (expertise=...).

    ``leading_parts`` is 2, or 1 for ``A[:option...]``.
    """
    parts = [p.strip() for p in text.split(":")]
    leading = parts[:leading_parts]
    if len(leading) < leading_parts or not all(leading):
        raise InputError(
            N_("{what} {value!r}: expected {shape}"), what=what, value=text, shape=shape
        )
    options, bad = attempt_options(parts[leading_parts:])
    if bad is not None:
        raise InputError(
            N_(
                "{what} {value!r}: {part!r} is not an option (expertise=TEXT, bonus=N, "
                "malus=N, surpasser, sacrifier)"
            ),
            what=what,
            value=text,
            part=bad,
        )
    return leading, {"surpass": False, "sacrifice": False, **options}


def member_attempt(text: str, *, what: str, difficulty: int | None) -> Attempt:
    """The Attempt of a ``NAME:CARACTERISTIQUE[:option...]`` spec.

    Raises:
        InputError: not of that shape, or an unknown option (naming the spec and ``what``).

    Source: seed 003; S-M2, S-M3, S-M5 (Tablée's notation).
    """
    (name, characteristic), extra = _spec(text, what=what, shape=MEMBER_SHAPE)
    return Attempt(name, characteristic, difficulty, **extra)


def action_attempt(protagonist: str, text: str) -> Attempt:
    """The Attempt of a ``CARACTERISTIQUE:DIFFICULTY[:option...]`` spec.

    Raises:
        InputError: not of that shape, an unknown option, a bad Difficulty.

    Source: seed 003; S-M2, S-M7 (Tablée's notation).
    """
    (characteristic, difficulty), extra = _spec(text, what="--action", shape=ACTION_SHAPE)
    return Attempt(protagonist, characteristic, difficulty_named(difficulty), **extra)


def side_attempt(protagonist: str, text: str) -> Attempt:
    """The Attempt of a ``CARACTERISTIQUE[:option...]`` spec: one side of an opposed Action.

    Raises:
        InputError: not of that shape, or an unknown option.

    Source: seed 003; S-M4, S-X5 (Tablée's notation).
    """
    (characteristic,), extra = _spec(text, what="--opposed", shape=SIDE_SHAPE, leading_parts=1)
    return Attempt(protagonist, characteristic, None, **extra)


def side_spec(action: RolledAction) -> str:
    """The spec naming a simultaneous set's side of its opposed Action (``carrure:bonus=1``)."""
    return ":".join([action.characteristic, *action.spec_options()])


def member_spec(action: RolledAction) -> str:
    """The spec naming a rolled Action's side or cooperator (``Jake:science:bonus=1``)."""
    return ":".join([action.protagonist, action.characteristic, *action.spec_options()])


def action_spec(action: RolledAction) -> str:
    """The spec naming one of a simultaneous set's Actions (``science:2:surpasser``)."""
    return ":".join([action.characteristic, str(action.difficulty), *action.spec_options()])


@dataclass(frozen=True)
class TestCommand(Rolled):
    """A Test: PS of three dice against a Difficulty, and the option's price."""

    name: ClassVar[str] = "test"
    title: ClassVar[str] = N_("a Test (Caractéristique, Difficulté)")
    rule: ClassVar[str] = "S-M2"

    protagoniste: Annotated[str, _who(N_("who acts"), actor=True)]
    characteristic: Annotated[
        str | None,
        Param(
            N_("the Caractéristique used"),
            choices=CHARACTERISTICS,
            option_labels=_CHARACTERISTIC_LABELS,
        ),
    ] = None
    difficulty: Annotated[
        str | None,
        Param(N_("PS needed, 1 or more (or Difficile, Extrême)"), placeholder="D", rule="S-A4"),
    ] = None
    test: Annotated[
        str | None,
        Param(N_("the text's notation, instead of both"), placeholder='"Test (Science, 3)"'),
    ] = None
    expertise: Annotated[str | None, Param(N_("a matching Expertise: D10"))] = None
    bonus: Annotated[int, _modifier(N_("sum of the bonuses"), group=_MORE)] = 0
    malus: Annotated[int, _modifier(N_("sum of the maluses"), group=_MORE)] = 0
    option: Annotated[
        tuple[str, ...],
        Param(
            N_("Se Surpasser (NT +1) or Se Sacrifier (+2 PS, death); one per Action"),
            placeholder="surpasser|sacrifier",
            rule="S-M5",
            group=_MORE,
        ),
    ] = ()
    long_action: Annotated[
        str | None,
        Param(
            N_("roll this Action over several Tours, in its last Tour"),
            gm_only=True,
            placeholder="LABEL",
            group=_MORE,
        ),
    ] = None
    reason: Annotated[str, REASON] = ""

    def attempt(self) -> Attempt:
        """The Attempt: the Caractéristique and Difficulty, or the text's notation.

        Raises:
            InputError: both the notation and either of them, or neither; a bad Difficulty.

        Source: seed 003, "Notation de Test"; S-M2, S-A4.
        """
        characteristic, difficulty = self.characteristic, self.difficulty
        if self.test is not None:
            if characteristic is not None or difficulty is not None:
                raise InputError(
                    N_("--test already names the Caractéristique and the Difficulty"),
                    cli_tip=N_("give either --test or --characteristic and --difficulty"),
                )
            notation = parse_test_notation(self.test)
            characteristic = notation.characteristic.value
            difficulty = str(notation.difficulty)
        if characteristic is None or difficulty is None:
            raise InputError(
                N_("a Test needs a Caractéristique and a Difficulty (rule S-M2)"),
                cli_tip=N_('give --characteristic and --difficulty, or --test "Test (Science, 3)"'),
            )
        for word in self.option:
            if word.casefold() not in OPTIONS:
                raise InputError(
                    N_("option: {value!r} is not one of {words}"),
                    value=word,
                    words=", ".join(OPTIONS),
                )
        chosen = {word.casefold() for word in self.option}
        return Attempt(
            self.protagoniste,
            characteristic,
            difficulty_named(difficulty),
            self.expertise,
            self.bonus,
            self.malus,
            "surpasser" in chosen,
            "sacrifier" in chosen,
        )


@dataclass(frozen=True)
class Oppose(Rolled):
    """Protagoniste against Protagoniste: the more PS prevails."""

    name: ClassVar[str] = "opposed"
    title: ClassVar[str] = N_("Protagoniste against Protagoniste: the more PS wins")
    description: ClassVar[str] = SPEC_HELP
    rule: ClassVar[str] = "S-M4"

    first: Annotated[str, Param(N_("one side"), placeholder=MEMBER_SHAPE, actor=True)]
    second: Annotated[str, Param(N_("the other side"), placeholder=MEMBER_SHAPE)]
    changer: Annotated[
        Literal["first", "second", "none"],
        Param(
            N_("the side seeking change, which loses a tie; default: first"),
            option_labels=(
                ("first", N_("one side")),
                ("second", N_("the other side")),
                ("none", N_("neither: their goals are symmetric")),
            ),
        ),
    ] = "first"
    reason: Annotated[str, REASON] = ""

    def attempts(self) -> tuple[Attempt, Attempt]:
        """Both sides' Attempts (no Difficulty).

        Raises:
            InputError: a spec of the wrong shape.
        """
        return (
            member_attempt(self.first, what="--first", difficulty=None),
            member_attempt(self.second, what="--second", difficulty=None),
        )


@dataclass(frozen=True)
class Cooperate(Rolled):
    """Protagonistes cooperating: Bonus 1 each, one success suffices."""

    name: ClassVar[str] = "cooperation"
    title: ClassVar[str] = N_("Protagonistes cooperating: Bonus 1 each, one success suffices")
    who: ClassVar[Who] = Who.GM
    description: ClassVar[str] = SPEC_HELP
    rule: ClassVar[str] = "S-M6"

    members: Annotated[
        tuple[str, ...],
        Param(N_("a cooperator (2 or more)"), flag="--member", placeholder=MEMBER_SHAPE),
    ]
    difficulty: Annotated[str, Param(N_("the shared Difficulty"), placeholder="D", rule="S-A4")]
    reason: Annotated[str, REASON] = ""

    def attempts(self) -> list[Attempt]:
        """Each cooperator's Attempt with the shared Difficulty.

        Raises:
            InputError: a bad Difficulty or spec.
        """
        difficulty = difficulty_named(self.difficulty)
        return [member_attempt(m, what="--member", difficulty=difficulty) for m in self.members]


@dataclass(frozen=True)
class Simultaneous(Rolled):
    """One Protagoniste's simultaneous Actions, Malus k - 1 on each."""

    name: ClassVar[str] = "simultaneous"
    title: ClassVar[str] = N_("one Protagoniste's simultaneous Actions, Malus k - 1 on each")
    description: ClassVar[str] = SPEC_HELP
    rule: ClassVar[str] = "S-M7"

    protagoniste: Annotated[str, _who(N_("who acts"), actor=True)]
    actions: Annotated[
        tuple[str, ...],
        Param(
            N_("a rolled Test (repeatable); at most one option in the set"),
            flag="--action",
            placeholder=ACTION_SHAPE,
        ),
    ] = ()
    trivial: Annotated[
        int,
        Param(
            N_("trivial Actions attempted at the same time (they count)"),
            low=0,
            high=MAX_SIMULTANEOUS,
            rule="S-M7",
        ),
    ] = 0
    opposed: Annotated[
        str | None,
        Param(
            N_(
                "an opposed Action in the set: this Protagoniste's Caractéristique, which "
                "takes the set's Malus"
            ),
            placeholder=SIDE_SHAPE,
            rule="S-X5",
            group=_OPPOSED,
        ),
    ] = None
    against: Annotated[
        str | None,
        Param(
            N_("the Protagoniste opposing that Action, with their Caractéristique"),
            placeholder=MEMBER_SHAPE,
            rule="S-X5",
            group=_OPPOSED,
        ),
    ] = None
    opposed_changer: Annotated[
        Literal["protagoniste", "opponent", "none"],
        Param(
            N_("in the opposed Action, the side seeking change, which loses a tie"),
            option_labels=(
                ("protagoniste", N_("the Protagoniste who acts")),
                ("opponent", N_("the opponent")),
                ("none", N_("neither: their goals are symmetric")),
            ),
            rule="S-A5",
            group=_OPPOSED,
        ),
    ] = "protagoniste"
    reason: Annotated[str, REASON] = ""

    def attempts(self) -> list[Attempt]:
        """The set's Tests' Attempts, in order.

        Raises:
            InputError: a bad spec.
        """
        return [action_attempt(self.protagoniste, text) for text in self.actions]

    def opposed_action(self) -> OpposedInSet | None:
        """The set's opposed Action, or None when the set has none.

        Raises:
            InputError: only one of its side and its opponent given, a side seeking
                change without them, or a bad spec.

        Source: seed 003, "Actions simultanées"; S-M4, S-A5, S-X5.
        """
        if self.opposed is None and self.against is None:
            if self.opposed_changer != "protagoniste":
                raise InputError(
                    N_("the side seeking change belongs to an opposed Action (rule S-X5)"),
                    cli_tip=N_("give --opposed CARACTERISTIQUE and --against NAME:CARACTERISTIQUE"),
                )
            return None
        if self.opposed is None or self.against is None:
            raise InputError(
                N_(
                    "an opposed Action in a simultaneous set needs this Protagoniste's side "
                    "and the opponent (rule S-X5)"
                ),
                cli_tip=N_("give --opposed CARACTERISTIQUE and --against NAME:CARACTERISTIQUE"),
            )
        changer = {"protagoniste": "first", "opponent": "second"}.get(self.opposed_changer)
        return OpposedInSet(
            side_attempt(self.protagoniste, self.opposed),
            member_attempt(self.against, what="--against", difficulty=None),
            changer,
        )


# --- the clock -------------------------------------------------------------------------------


@dataclass(frozen=True)
class StartScene(Command):
    """The next Scène, rythmée or lente."""

    name: ClassVar[str] = "scene start"
    title: ClassVar[str] = N_("begin the next Scène")
    rule: ClassVar[str] = "S-M8"

    kind: Annotated[
        Literal["rythmee", "lente"],
        Param(
            N_("scène rythmée or lente"),
            positional=True,
            option_labels=(("rythmee", "scène rythmée"), ("lente", "scène lente")),
        ),
    ]


@dataclass(frozen=True)
class NextTour(Command):
    """The next Tour of the scène rythmée."""

    name: ClassVar[str] = "tour next"
    title: ClassVar[str] = N_("begin the next Tour; expired modifiers stop")
    rule: ClassVar[str] = "S-M8"


@dataclass(frozen=True)
class TimeAdvance(Command):
    """Game time passes by the Réalisateur's estimate."""

    name: ClassVar[str] = "time advance"
    title: ClassVar[str] = N_("advance game time; modifiers past it stop")
    rule: ClassVar[str] = "S-M8"

    duration: Annotated[str, Param(N_("e.g. 30 min, 1 h, 45 s"), positional=True)]


@dataclass(frozen=True)
class AddModifier(Command):
    """A Bonus or Malus for some Tours, some game time, or lasting until ended (S-X1)."""

    name: ClassVar[str] = "modifier add"
    title: ClassVar[str] = N_("a Bonus or Malus for some Tours, some game time, or lasting")
    rule: ClassVar[str] = "S-M3"

    protagoniste: Annotated[str, _who(N_("who it applies to"))]
    bonus: Annotated[
        int | None,
        Param(N_("a Bonus of K"), low=1, high=MAX_MODIFIER, placeholder="K", rule="S-M3"),
    ] = None
    malus: Annotated[
        int | None,
        Param(N_("a Malus of K"), low=1, high=MAX_MODIFIER, placeholder="K", rule="S-M3"),
    ] = None
    tours: Annotated[
        int | None, Param(N_("lasts T Tours"), low=1, high=MAX_TOURS, placeholder="T", rule="S-M3")
    ] = None
    time: Annotated[
        str | None,
        Param(N_("lasts a game time: 30 min, 1 h 30 min, 2 jours"), placeholder="DURATION"),
    ] = None
    lasting: Annotated[
        bool,
        Param(N_("no duration: lasts until ended by hand (a wound, equipment)"), rule="S-X1"),
    ] = False
    label: Annotated[str, Param(N_("why"))] = ""

    def kind_amount(self) -> tuple[str, int]:
        """``("bonus" or "malus", amount)``.

        Raises:
            InputError: both or neither of a Bonus and a Malus.
        """
        if (self.bonus is None) == (self.malus is None):
            raise InputError(
                N_("give either a Bonus or a Malus (rule S-M3)"),
                cli_tip=N_("--bonus K or --malus K"),
            )
        return ("bonus", self.bonus) if self.bonus is not None else ("malus", self.malus or 0)

    def span(self) -> str | int | None:
        """The duration: a number of Tours, a game time as typed, or None when lasting.

        Raises:
            InputError: not exactly one of Tours, a game time and lasting.

        Source: seed 003, "Durée"; S-M3, S-X1.
        """
        given = [self.tours is not None, self.time is not None, self.lasting is True]
        if sum(given) != 1:
            raise InputError(
                N_("give either a number of Tours, a game time or lasting (rules S-M3, S-X1)"),
                cli_tip=N_("--tours T, --time 30 min or --lasting"),
            )
        if self.lasting:
            return None
        return self.tours if self.tours is not None else str(self.time)


@dataclass(frozen=True)
class EndModifier(Command):
    """The Réalisateur ends a temporary modifier early."""

    name: ClassVar[str] = "modifier end"
    title: ClassVar[str] = N_("end a modifier by hand")
    rule: ClassVar[str] = "S-A15"

    number: Annotated[
        int,
        Param(
            N_("its number, shown beside it on the clock (the number of the event that added it)"),
            positional=True,
            low=1,
            rule="S-A15",
        ),
    ]


@dataclass(frozen=True)
class StartLongAction(Command):
    """An Action over several Tours, started in the current Tour, rolled in its last."""

    name: ClassVar[str] = "long-action start"
    title: ClassVar[str] = N_("start it in the current Tour")
    rule: ClassVar[str] = "S-T6"

    protagoniste: Annotated[str, _who(N_("who acts"))]
    label: Annotated[str, Param(N_("what is attempted"))]
    tours: Annotated[
        int, Param(N_("how many Tours"), low=1, high=MAX_TOURS, placeholder="T", rule="S-M8")
    ]


@dataclass(frozen=True)
class ClockQuery(Query):
    """The clock: Scène, Tour, game time, modifiers in force, long Actions."""

    name: ClassVar[str] = "clock"
    title: ClassVar[str] = N_("Scène, Tour, game time, modifiers in force")
    who: ClassVar[Who] = Who.ANYONE


@dataclass(frozen=True)
class OddsQuery(Query):
    """The exact odds of an SHS Test, opposed Action, cooperation or simultaneous Action.

    No table is needed; with ``--table`` the odds follow that table's house rules.
    """

    name: ClassVar[str] = "odds"
    title: ClassVar[str] = N_("exact odds of a Space Horror Stories Action, before rolling")
    who: ClassVar[Who] = Who.ANYONE
    needs_table: ClassVar[bool] = False
    table_optional: ClassVar[bool] = True

    threshold: Annotated[
        int,
        Param(
            N_("the Caractéristique's threshold, 5 to 8"),
            low=5,
            high=8,
            placeholder="5..8",
            rule="S-M1",
        ),
    ]
    expertise: Annotated[bool, Param(N_("a matching Expertise: D10 instead of D8"))] = False
    bonus: Annotated[int, _modifier(N_("sum of the bonuses"))] = 0
    malus: Annotated[int, _modifier(N_("sum of the maluses"))] = 0
    option: Annotated[
        Literal["surpasser", "sacrifier"] | None, Param(N_("Se Surpasser or Se Sacrifier"))
    ] = None
    difficulty: Annotated[
        int | None, Param(N_("PS needed, 1 or more"), low=1, placeholder="D", rule="S-A4")
    ] = None
    simultaneous: Annotated[
        int,
        Param(
            N_("Actions attempted at once, this one included: Malus k - 1"),
            low=1,
            high=MAX_SIMULTANEOUS,
            placeholder="K",
            rule="S-M7",
        ),
    ] = 1
    cooperators: Annotated[
        int,
        Param(
            N_("Protagonistes cooperating alike, each with Bonus 1 (needs a Difficulty)"),
            low=1,
            high=MAX_SIMULTANEOUS,
            placeholder="N",
            rule="S-M6",
        ),
    ] = 1
    against: Annotated[
        int | None,
        Param(
            N_("an opposed Action: the other Protagoniste's threshold, 5 to 8"),
            low=5,
            high=8,
            placeholder="5..8",
            rule="S-M4",
        ),
    ] = None
    against_expertise: Annotated[bool, Param(N_("the other side has a matching Expertise"))] = False
    against_bonus: Annotated[int, _modifier(N_("the other side's sum of bonuses"))] = 0
    against_malus: Annotated[int, _modifier(N_("the other side's sum of maluses"))] = 0


COMMANDS: tuple[type[Command], ...] = (
    CreateProtagonist,
    ImportProtagonists,
    ShowProtagonists,
    EditCounters,
    Kill,
    Revive,
    TestCommand,
    Oppose,
    Cooperate,
    Simultaneous,
    StartScene,
    NextTour,
    TimeAdvance,
    AddModifier,
    EndModifier,
    StartLongAction,
    ClockQuery,
    OddsQuery,
)

ShsCommand: TypeAlias = (
    CreateProtagonist
    | ImportProtagonists
    | EditCounters
    | Kill
    | Revive
    | TestCommand
    | Oppose
    | Cooperate
    | Simultaneous
    | StartScene
    | NextTour
    | TimeAdvance
    | AddModifier
    | EndModifier
    | StartLongAction
)
"""Every command that decides events (queries apart): the union a plugin's ``decide`` takes."""
"""Every SHS command and query, in the order the interfaces show them."""
