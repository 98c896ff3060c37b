"""Commands declared once: typed fields with their range, help, choices and who may use them.

A command of a game is a frozen dataclass deriving from `Command`. Each field's type says
what it holds (``int``, ``bool``, ``str``, ``tuple[str, ...]``, a ``Literal`` of words, any
of them ``| None`` when it may be left out) and its `Param` metadata says the rest: the help
text (English, marked `N_`, French in the catalogs), the range and unit of a number, where a
choice comes from (``"players"`` or a source the game names), whether only the game master
may set it and whether it names who acts. The class itself says its name, title, who may use
it (`Who`) and the dice it needs. For example::

    @dataclass(frozen=True)
    class Roll(Command):
        name: ClassVar[str] = "roll"
        title: ClassVar[str] = N_("Action roll")
        who: ClassVar[Who] = Who.ACTOR
        player: Annotated[str, Param(N_("who rolls"), choices="players", actor=True)]
        bonus: Annotated[int, Param(N_("bonus dice"), low=0, high=99)] = 0

The command line, the web forms and the JSON API are generated from these declarations
(`fields_of`), and every one of them turns what a person typed into a command through
`build_command`, so the same bad input gives the same error everywhere.

Source: architecture.md "One declaration per command"; python-chess and Typer/FastAPI's
signature-derived interfaces as models.
"""

from __future__ import annotations

import types
import typing
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, fields, is_dataclass
from enum import StrEnum
from typing import Any, ClassVar, Literal, TypeVar

from tablee.dice import D6, WHOLE_DIGITS, DiceRequest, Die, is_whole_in_reach, read_whole
from tablee.errors import N_, InputError

__all__ = [
    "MAX_TEXT",
    "Command",
    "FieldSpec",
    "Param",
    "Query",
    "Who",
    "build_command",
    "check_text",
    "check_value",
    "command_json",
    "fields_of",
    "parse_field",
    "unsafe_char",
]

C = TypeVar("C")

MAX_TEXT = 500
"""Longest free text one field accepts, in characters, unless its `Param` says otherwise."""

_DIRECTION = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Text-direction controls: one in a note would draw the rest of a log line backwards."""

TRUE_WORDS = ("true", "yes", "on", "1", "oui")
FALSE_WORDS = ("false", "no", "off", "0", "non")


class Who(StrEnum):
    """Who may use a command.

    * ``GM``: the game master alone;
    * ``ACTOR``: the game master, or the player named by the command's actor field (a
      field whose `Param` has ``actor=True``: a player, or a character a player plays);
    * ``ANYONE``: the game master or any player (never a spectator).
    """

    GM = "gm"
    ACTOR = "actor"
    ANYONE = "anyone"


@dataclass(frozen=True)
class Param:
    """What a field of a command is, beyond its type.

    Attributes:
        help: what the field holds, in English, marked with `N_`.
        low, high: the bounds of a number, inclusive (None: unbounded on that side).
        unit: the unit of a number (``dice``, ``minutes``), marked with `N_`, or empty.
        choices: where a text field's choices come from: ``players`` (the table's players)
            or a source the game names (its characters, challenges...); empty for free text.
        gm_only: only the game master may give a value other than the default.
        actor: this field names who acts; a player may only name themselves or a character
            they play.
        mine: a player's form left blank names the player themselves (the rules then find
            what they play), as a ``players`` choice does.
        flag: the command line's name of the option (``--passive-npc``); by default the field
            name with dashes.
        negative: for a ``bool | None`` field, the command line's option meaning false
            (``--fresh``); by default ``--no-`` and the flag.
        positional: the command line takes it as a positional argument.
        max_length: longest text accepted, in characters.
        placeholder: an example value shown in forms and in the command line's help.
        rule: the ruling id behind the field's range (``P-M1``), named in its errors.
        file: a text read from a file on the command line (the path is given there) and
            pasted in a form on the web: the rules receive the text, never a path.
        aliases: other command-line names of the option, kept from an earlier spelling
            (``--reason`` for ``--note``).
        form_default: the value a web form proposes first, when it differs from the default
            (which the command line and the JSON API keep); empty: the default.
        option_labels: ``(value, label)`` pairs naming a choice's values as players read
            them (``("gm", N_("the GM's side"))``): an English label marked with `N_`, or a
            game term kept in every language (``Choushi``). A value without a pair is shown
            as it is: the names of players and characters.
        group: a short English title marked with `N_` (``N_("In a fight")``) gathering
            rarely used fields: a web form draws the fields of one group together, folded,
            after the fields of no group; empty: no group. The command line ignores it. A
            required field belongs to no group (a contract test checks it).
        change: a number is a change to apply, written ``+N`` or ``-N`` (``+`` allowed);
            other numbers take only a ``-``.
    """

    help: str
    low: int | None = None
    high: int | None = None
    unit: str = ""
    choices: str = ""
    gm_only: bool = False
    actor: bool = False
    mine: bool = False
    flag: str = ""
    negative: str = ""
    positional: bool = False
    max_length: int = MAX_TEXT
    placeholder: str = ""
    rule: str = ""
    file: bool = False
    aliases: tuple[str, ...] = ()
    form_default: str = ""
    option_labels: tuple[tuple[str, str], ...] = ()
    group: str = ""
    change: bool = False

    def label_of(self, value: str) -> str:
        """How a choice's value is shown: its label in `option_labels`, else the value."""
        return next((label for known, label in self.option_labels if known == value), value)


@dataclass(frozen=True)
class FieldSpec:
    """One field of a command, read from its declaration.

    Attributes:
        name: the field's name: the form key and the JSON key (a field whose name is a word
            the class itself uses, ``name``, takes another name in Python and says its
            key: ``field(metadata={"key": "name"})``).
        kind: ``int``, ``bool``, ``text``, ``lines`` (several texts) or ``word`` (one of
            ``words``).
        optional: None is allowed (the field may be left out with no default).
        required: it has no default: it must be given.
        default: the default value (None when there is none).
        words: the allowed words of a ``word`` field.
        param: its `Param`.
        attribute: the Python attribute holding it, when it differs from ``name``.
    """

    name: str
    kind: str
    optional: bool
    required: bool
    default: Any
    words: tuple[str, ...]
    param: Param
    attribute: str = ""

    @property
    def attr(self) -> str:
        """The Python attribute of the command holding this field."""
        return self.attribute or self.name

    @property
    def flag(self) -> str:
        """The command line's option (``--imposed-bonus``)."""
        return self.param.flag or "--" + self.name.replace("_", "-")

    @property
    def negative_flag(self) -> str:
        """The option saying no to a yes-or-no field that may be yes by default.

        The declared ``negative`` when there is one, else ``--no-`` before the flag, or the
        flag without its ``--no-`` when it already says no (``--no-reroll`` gives
        ``--reroll``).
        """
        if self.param.negative:
            return self.param.negative
        if self.flag.startswith("--no-"):
            return "--" + self.flag[5:]
        return "--no-" + self.flag[2:]


class Command:
    """Base of every declared command: a frozen dataclass with `Param`-annotated fields.

    Class attributes a command sets:
        name: the command's name, unique within its game; words separated by spaces make
            nested commands on the command line (``session start``).
        title: a short title, in English, marked with `N_`.
        who: who may use it (`Who`).
        rolled: it throws dice (the interfaces then offer typed-in faces, a seed, the odds
            and who may see the roll).
        rule: the ruling id of the command's mechanic (``P-M1``), named in its errors.
        faces_help: what to type in the faces field, in English, marked with `N_`.
        dice_kinds: the kinds of dice it may throw, the main one first: the interfaces
            take typed-in faces for each kind apart (``--dice``, then ``--dpm-dice``...).
        dice_aliases: other command-line names of each kind's faces option, in the order of
            ``dice_kinds``, kept from an earlier spelling (``--faces`` for ``--dice``).
        gm_dice: the names of the kinds among ``dice_kinds`` whose faces only the game
            master may type in (the game master's own dice); for anyone else they are rolled.
        follows: the stored event kinds this command continues (a reroll follows its test):
            whoever may not see the last event of those kinds may not use the command nor
            see its odds.
        keeps_hidden: the events of a command that ``follows`` are never shown to more
            people than the event it continues (a reroll of a blind test stays blind); False
            lets whoever acts choose again (a gang fight's next throw).
        description: a longer explanation shown in the command's help (how to write a
            structured field's values), in English, marked with `N_`; empty by default.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    who: ClassVar[Who] = Who.GM
    rolled: ClassVar[bool] = False
    rule: ClassVar[str] = ""
    faces_help: ClassVar[str] = ""
    dice_kinds: ClassVar[tuple[Die, ...]] = (D6,)
    dice_aliases: ClassVar[tuple[str, ...]] = ()
    gm_dice: ClassVar[tuple[str, ...]] = ()
    follows: ClassVar[tuple[str, ...]] = ()
    keeps_hidden: ClassVar[bool] = True
    description: ClassVar[str] = ""

    def __post_init__(self) -> None:
        """Check every field against its declaration, however the command was built.

        `build_command` reads text; a command built in code (a test, a stored event's
        inputs, another interface) is checked here the same way, so a negative count, a
        float or a word outside its choices never reaches the rules.

        Raises:
            InputError: a value of the wrong type or out of its range, naming the field.
        """
        for spec in fields_of(type(self)):
            check_value(spec, getattr(self, spec.attr))

    def dice(self) -> tuple[DiceRequest, ...]:
        """The dice the command throws, in the order they are asked for (none by default)."""
        return ()


class Query(Command):
    """A declared question that reads a table (or nothing) and stores no event.

    Its game answers it with a report; it has the same fields, parsing and errors as a
    command.
    """

    needs_table: ClassVar[bool] = True
    table_optional: ClassVar[bool] = False
    """Without ``needs_table``: the query may still be given a table (``--table``), whose
    state it then reads (a game's odds under the table's house rules)."""


def _unwrap(hint: Any) -> tuple[Any, Param | None, bool]:
    """``(type, param, optional)`` of an annotation, ``Annotated`` and ``| None`` removed."""
    param = None
    if typing.get_origin(hint) is typing.Annotated:
        args = typing.get_args(hint)
        hint = args[0]
        param = next((a for a in args[1:] if isinstance(a, Param)), None)
    optional = False
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = len(members) < len(typing.get_args(hint))
        hint = members[0] if len(members) == 1 else hint
    return hint, param, optional


def _kind(hint: Any, name: str, owner: type) -> tuple[str, tuple[str, ...]]:
    if hint is bool:
        return "bool", ()
    if hint is int:
        return "int", ()
    if hint is str:
        return "text", ()
    if typing.get_origin(hint) is Literal:
        return "word", tuple(str(w) for w in typing.get_args(hint))
    if typing.get_origin(hint) is tuple and typing.get_args(hint)[1:] == (Ellipsis,):
        return "lines", ()
    raise TypeError(f"{owner.__name__}.{name}: type {hint!r} cannot be declared")


_FIELDS: dict[type, tuple[FieldSpec, ...]] = {}


def fields_of(command: type[Command]) -> tuple[FieldSpec, ...]:
    """The declared fields of a command class, in order.

    Raises:
        TypeError: a field without `Param` metadata or of a type that cannot be declared
            (a programming error, found by the contract tests).
    """
    known = _FIELDS.get(command)
    if known is not None:
        return known
    if not is_dataclass(command):
        raise TypeError(f"{command.__name__} is not a dataclass")
    hints = typing.get_type_hints(command, include_extras=True)
    specs = []
    for item in fields(command):
        hint, param, optional = _unwrap(hints[item.name])
        if param is None:
            raise TypeError(f"{command.__name__}.{item.name} has no Param")
        kind, words = _kind(hint, item.name, command)
        has_default = item.default is not MISSING or item.default_factory is not MISSING
        default = item.default if item.default is not MISSING else None
        if item.default_factory is not MISSING:
            default = item.default_factory()
        key = str(item.metadata.get("key", item.name))
        specs.append(
            FieldSpec(
                key,
                kind,
                optional,
                not has_default,
                default,
                words,
                param,
                "" if key == item.name else item.name,
            )
        )
    _FIELDS[command] = tuple(specs)
    return _FIELDS[command]


def unsafe_char(ch: str) -> bool:
    """Whether typed text may not hold ``ch``.

    Refused: a control character (tab and line ends aside), a text-direction control, a lone
    surrogate, a byte-order mark. A direction control in a note would draw the rest of its
    log line backwards for every viewer.
    """
    if ch in "\t\n\r":
        return False
    return ch in _DIRECTION or ch == "\ufeff" or unicodedata.category(ch) in ("Cc", "Cs")


def check_text(text: str, field: str, maximum: int = MAX_TEXT) -> str:
    """Free text as kept: Unicode NFC, trimmed, checked for its length and characters.

    The one check of every free text Tablée keeps or shows (a declared field, an undo's
    reason, an imported event's text, an answer typed in ``agents play``), so the same text
    gets the same error wherever it is typed.

    Args:
        text: the text as typed or read.
        field: the name of the field, named in the error (``note``, ``reason``).
        maximum: the longest text accepted, in characters (after trimming).

    Returns:
        The text in NFC, trimmed.

    Raises:
        InputError: longer than ``maximum`` characters, or holding a character `unsafe_char`
            refuses (named by its code point, ``U+001B``).
    """
    value = unicodedata.normalize("NFC", text).strip()
    if len(value) > maximum:
        raise InputError(N_("{field}: at most {maximum} characters"), field=field, maximum=maximum)
    bad = next((ch for ch in value if unsafe_char(ch)), None)
    if bad is not None:
        raise InputError(
            N_("{field}: the character {code} is not allowed (a control character)"),
            field=field,
            code=f"U+{ord(bad):04X}",
        )
    return value


def _clean_text(spec: FieldSpec, text: str) -> str:
    return check_text(text, spec.name, spec.param.max_length)


def _cut(text: str, length: int = 30) -> str:
    """``text`` cut to ``length`` characters (with ``…``), to be quoted in a message."""
    return text if len(text) <= length else text[:length] + "…"


def _head(number: int) -> str:
    """The first digits of a number too long to show, then ``…``."""
    try:
        return f"{str(number)[: WHOLE_DIGITS + 1]}…"
    except ValueError:  # more digits than Python converts to text
        return "…"


def _whole(spec: FieldSpec, value: object) -> int:
    """A whole-number field's value, from an ``int`` or a text `read_whole` accepts.

    Raises:
        InputError: not a whole number (the value quoted, cut to 30 characters); out of
            the field's range, or more than `WHOLE_DIGITS` digits (the field's range named).
    """
    if isinstance(value, bool):
        raise InputError(
            N_("{field}: {value!r} is not a whole number"), field=spec.name, value=value
        )
    shown: object
    if isinstance(value, int):
        number = value
        shown = number if is_whole_in_reach(number) else _head(number)
    else:
        read = read_whole(str(value), plus=spec.param.change)
        if read is None:
            raise InputError(
                N_("{field}: {value!r} is not a whole number"),
                field=spec.name,
                value=_cut(str(value)),
            )
        number = read
        text = str(value).strip()
        shown = number if is_whole_in_reach(number) else f"{text[: WHOLE_DIGITS + 1]}…"
    low, high = spec.param.low, spec.param.high
    beyond = not is_whole_in_reach(number)
    if beyond or (low is not None and number < low) or (high is not None and number > high):
        shown_low: object = "…" if low is None else low
        shown_high: object = "…" if high is None else high
        if spec.param.rule:
            raise InputError(
                N_("{field}: {value} is out of range ({low} to {high}, rule {rule})"),
                field=spec.name,
                value=shown,
                low=shown_low,
                high=shown_high,
                rule=spec.param.rule,
            )
        raise InputError(
            N_("{field}: {value} is out of range ({low} to {high})"),
            field=spec.name,
            value=shown,
            low=shown_low,
            high=shown_high,
        )
    return number


def _boolean(spec: FieldSpec, value: object) -> bool:
    if isinstance(value, bool):
        return value
    low = str(value).strip().lower()
    if low in TRUE_WORDS:
        return True
    if low in FALSE_WORDS:
        return False
    raise InputError(N_("{field}: {value!r} is not true or false"), field=spec.name, value=value)


def check_value(spec: FieldSpec, value: object) -> None:
    """Check a typed value against its field's declaration.

    Raises:
        InputError: None for a field that is not optional, a value of another type (a
            ``bool`` for a number, a float, a list for a text), a number out of range, a
            word outside its choices, a text too long or with a control character.
    """
    if value is None:
        if spec.optional:
            return
        raise InputError(N_("{field} is required"), field=spec.name)
    expected: type | tuple[type, ...] = {
        "int": int,
        "bool": bool,
        "lines": tuple,
    }.get(spec.kind, str)
    if not isinstance(value, expected) or (spec.kind == "int" and isinstance(value, bool)):
        if spec.param.rule:
            raise InputError(
                N_("{field}: {value!r} is not of the declared type {kind} (rule {rule})"),
                field=spec.name,
                value=value,
                kind=spec.kind,
                rule=spec.param.rule,
            )
        raise InputError(
            N_("{field}: {value!r} is not of the declared type {kind}"),
            field=spec.name,
            value=value,
            kind=spec.kind,
        )
    if spec.kind == "int":
        _whole(spec, value)
    elif spec.kind == "lines":
        for item in value:  # type: ignore[attr-defined]
            if not isinstance(item, str):
                raise InputError(
                    N_("{field}: {value!r} is not of the declared type {kind}"),
                    field=spec.name,
                    value=item,
                    kind="text",
                )
            _clean_text(spec, item)
    elif spec.kind == "word":
        if value not in spec.words:
            raise InputError(
                N_("{field}: {value!r} is not one of {words}"),
                field=spec.name,
                value=value,
                words=", ".join(spec.words),
            )
    elif spec.kind == "text":
        _clean_text(spec, str(value))


def parse_field(spec: FieldSpec, value: object, *, partial: bool = False) -> Any:
    """One field's value from what a person or a program gave.

    Args:
        spec: the field.
        value: text (from a command line or a form), a list of texts for a ``lines``
            field, or an already typed JSON value (an ``int``, a ``bool``); None or an empty
            text for a field left out.
        partial: a required field left out takes an empty value instead of being refused
            (for a form being filled in, whose odds are shown before it is complete).

    Returns:
        The typed value; the field's default (or None) when left out.

    Raises:
        InputError: a required field left out, a number that is not one or is out of range,
            a word outside its choices, a text too long or with a control character. The
            message names the field and the value.
    """
    if value is None or (isinstance(value, str) and not value.strip()) or value == []:
        if spec.required and not spec.optional:
            if partial:
                return {"int": 0, "bool": False, "lines": ()}.get(spec.kind, "")
            raise InputError(N_("{field} is required"), field=spec.name)
        return () if spec.kind == "lines" and spec.default is None else spec.default
    if spec.kind == "int":
        return _whole(spec, value)
    if spec.kind == "bool":
        return _boolean(spec, value)
    if spec.kind == "lines":
        items = value if isinstance(value, list | tuple) else str(value).splitlines()
        cleaned = (_clean_text(spec, str(item)) for item in items)
        return tuple(item for item in cleaned if item)
    text = _clean_text(spec, value if isinstance(value, str) else str(value))
    if spec.kind == "word":
        word = text.lower()
        if word not in spec.words:
            raise InputError(
                N_("{field}: {value!r} is not one of {words}"),
                field=spec.name,
                value=text,
                words=", ".join(spec.words),
            )
        return word
    return text


def build_command(command: type[C], given: Mapping[str, object], *, partial: bool = False) -> C:
    """A command from the values given for its fields, each parsed by `parse_field`.

    Args:
        command: the command's class.
        given: field name -> value as typed (text, a list of texts) or as JSON; fields
            left out take their default.

    Returns:
        The command.

    Raises:
        InputError: an unknown field, or a value that does not fit its field.
    """
    specs = fields_of(command)  # type: ignore[arg-type]
    known = {spec.name for spec in specs}
    unknown = sorted(set(given) - known)
    if unknown:
        raise InputError(
            N_("unknown field {field!r}"),
            tip=N_("known fields: {known}"),
            field=unknown[0],
            known=", ".join(spec.name for spec in specs) or "-",
        )
    values = {spec.attr: parse_field(spec, given.get(spec.name), partial=partial) for spec in specs}
    return command(**values)


def command_json(command: Command) -> dict[str, Any]:
    """A command's fields as JSON (tuples as lists), for the JSON API and logs."""
    out: dict[str, Any] = {}
    for spec in fields_of(type(command)):
        value = getattr(command, spec.attr)
        out[spec.name] = list(value) if isinstance(value, tuple) else value
    return out


def field_named(command: type[Command], name: str) -> FieldSpec:
    """The field ``name`` of a command class (KeyError when it has none)."""
    for spec in fields_of(command):
        if spec.name == name:
            return spec
    raise KeyError(name)


def actor_field(command: type[Command]) -> FieldSpec | None:
    """The field naming who acts, if the command has one."""
    return next((spec for spec in fields_of(command) if spec.param.actor), None)


def declared_names(commands: Sequence[type[Command]]) -> tuple[str, ...]:
    """The names of commands, checked to differ (ValueError when two share one)."""
    names = tuple(c.name for c in commands)
    if len(set(names)) != len(names):
        raise ValueError(f"two commands share a name: {names}")
    return names
