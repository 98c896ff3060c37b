"""Table options shared by every system: text values parsed and checked, bad ones named.

Each system keeps its options in a frozen dataclass (`PouyssOptions`, `ShsOptions`) and
describes them with `OptionRules`: the allowed words of each choice, the range of each
number, which options may be ``none``. `with_changes` then reads text values (from the
command line or a stored event) the same way for every system; `HouseRules` gives those
dataclasses their shared methods (JSON in and out, text changes, checks at construction).

Source: every reading of the rules where the rulings allow several is a named option
(docs/rules/*.md, "Table options").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, ClassVar, Self, TypeVar

from tablee.errors import N_, InputError, Message
from tablee.systems.base import JSON

__all__ = [
    "HouseRules",
    "OptionRules",
    "bad_option",
    "changed_house_rules",
    "house_rule_lines",
    "house_rule_value",
    "option_text",
    "parse_option",
    "stored_changes",
    "with_changes",
]

T = TypeVar("T")

TRUE_WORDS = ("true", "yes", "on", "1", "oui")
FALSE_WORDS = ("false", "no", "off", "0", "non")


@dataclass(frozen=True)
class OptionRules:
    """How one system's options read text.

    Attributes:
        system: the system's name, for messages (``Pouyss``, ``SHS``).
        choices: option -> the allowed words.
        ranges: option -> (lowest, highest) for whole numbers; others take 0..1000.
        nullable: options that may be ``none`` (also ``off`` or empty).
    """

    system: str
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    ranges: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    nullable: frozenset[str] = frozenset()


def option_text(value: JSON) -> str:
    """An option value as typed on the command line: ``none``, ``true``, ``false``, ``3``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


HOUSE_RULE = N_("{label}: {value}")
"""One house rule as a player reads it (``Bonus dice per roll: no limit``)."""


def house_rule_value(value: JSON, words: Mapping[str, str] | None = None) -> Message:
    """An option's value in words: yes or no, no limit, a number, or its choice's phrase.

    Args:
        value: the option's JSON value.
        words: the option's choice words -> their phrase, in English, marked with `N_`; a
            word not listed is shown as it is.
    """
    if value is None:
        return Message(N_("no limit"))
    if isinstance(value, bool):
        return Message(N_("yes") if value else N_("no"))
    if isinstance(value, str) and words and value in words:
        return Message(words[value])
    return Message("{value}", value=value)


def house_rule_lines(
    values: Mapping[str, JSON],
    labels: Mapping[str, str],
    words: Mapping[str, Mapping[str, str]] | None = None,
) -> tuple[Message, ...]:
    """Each house rule as a sentence (``Se Surpasser allowed when cooperating: yes``).

    What players read names no option and no ruling: the option's label and its value in
    words; the option's name and its ``NAME=VALUE`` spelling stay for editing them.

    Args:
        values: option name -> JSON value, in the order shown.
        labels: option name -> a short label, in English, marked with `N_` (an option
            without one is shown by its name).
        words: option name -> its choice words' phrases (see `house_rule_value`).
    """
    return tuple(
        Message(
            HOUSE_RULE,
            label=Message(labels[name]) if name in labels else name,
            value=house_rule_value(value, (words or {}).get(name)),
        )
        for name, value in values.items()
    )


def changed_house_rules(
    values: Mapping[str, JSON],
    defaults: Mapping[str, JSON],
    labels: Mapping[str, str],
    words: Mapping[str, Mapping[str, str]] | None = None,
) -> Message:
    """The log line of a change of house rules: those now unlike the defaults, as sentences.

    Returns ``house rules back to the defaults`` when none differs.
    """
    changed = {k: v for k, v in values.items() if defaults.get(k) != v}
    if not changed:
        return Message(N_("house rules back to the defaults"))
    lines = house_rule_lines(changed, labels, words)
    joined = lines[0]
    for line in lines[1:]:
        joined = Message(N_("{before}; {after}"), before=joined, after=line)
    return Message(N_("house rules: {changes}"), changes=joined)


def stored_changes(payload: Mapping[str, JSON]) -> dict[str, str]:
    """The options of a stored ``<system>.options_set`` payload, as text changes to replay.

    Args:
        payload: ``{"options": {name: JSON value}}``.

    Raises:
        KeyError, TypeError, ValueError: no ``options`` object (a malformed payload).
    """
    return {k: option_text(v) for k, v in dict(payload["options"]).items()}


def bad_option(name: str, value: object, expected: str | Message) -> InputError:
    """The error for an option value that does not fit, naming the option and the value."""
    return InputError(
        N_("option {name} cannot be {value!r}: expected {expected}"),
        name=name,
        value=value,
        expected=expected,
    )


def parse_option(name: str, text: str, current: object, rules: OptionRules) -> object:
    """One option's value from text, by the kind of its current value.

    Raises:
        InputError: a word outside the choices, a bad boolean, a number that is not plain
            ASCII digits or is out of range.
    """
    low = text.strip().lower()
    if name in rules.choices:
        if low not in rules.choices[name]:
            raise bad_option(name, text, " | ".join(rules.choices[name]))
        return low
    if isinstance(current, bool):
        if low in TRUE_WORDS:
            return True
        if low in FALSE_WORDS:
            return False
        raise bad_option(name, text, "true | false")
    if name in rules.nullable and low in ("none", "off", ""):
        return None
    if not low.isascii() or not low.lstrip("-").isdigit():
        raise bad_option(name, text, Message(N_("a whole number")))
    number = int(low)
    lowest, highest = rules.ranges.get(name, (0, 1000))
    if not lowest <= number <= highest:
        raise bad_option(name, text, f"{lowest}..{highest}")
    return number


def with_changes(options: T, changes: Mapping[str, Any], rules: OptionRules) -> T:
    """``options`` with some changed from text values (``"3"``, ``"true"``, ``"none"``).

    Args:
        options: a frozen dataclass of options.
        changes: option name -> value (text, or a stored JSON value, read as its text).
        rules: how to read them.

    Raises:
        InputError: an unknown option name or a value that does not fit it, naming both.
    """
    known = [f.name for f in fields(options)]  # type: ignore[arg-type]
    parsed: dict[str, object] = {}
    for name, value in changes.items():
        if name not in known:
            raise InputError(
                N_("unknown {system} option {name!r}"),
                tip=N_("known options: {known}"),
                system=rules.system,
                name=name,
                known=", ".join(known),
            )
        text = value if isinstance(value, str) else option_text(value)
        parsed[name] = parse_option(name, text, getattr(options, name), rules)
    return replace(options, **parsed)  # type: ignore[type-var]


class HouseRules:
    """What every system's options dataclass does alike, given its `OptionRules`.

    A system's frozen options dataclass derives from it and sets ``RULES``; it then reads
    and writes JSON, takes text changes, and may check its values at construction.

    Source: every reading where the rulings allow several is a named option (docs/rules/*.md).
    """

    RULES: ClassVar[OptionRules]

    def to_json(self) -> dict[str, JSON]:
        """The options as a JSON object (for storing)."""
        data: dict[str, JSON] = asdict(self)  # type: ignore[call-overload]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Self:
        """Options from stored JSON, checked like text input.

        Raises:
            InputError: an unknown option or a bad value.
        """
        return with_changes(cls(), data, cls.RULES)

    def with_changes(self, changes: Mapping[str, str]) -> Self:
        """These options with some changed from text values (``"3"``, ``"true"``, ``"none"``).

        Raises:
            InputError: an unknown option name or a value that does not fit it, naming both.
        """
        return with_changes(self, changes, self.RULES)

    def check_values(self, booleans: Iterable[str] = ()) -> None:
        """Check each choice, each ranged number and the named booleans (at construction).

        Args:
            booleans: the options that must be exactly True or False.

        Raises:
            InputError: a word outside its choices, a number out of its range (None only
                for a nullable option), a boolean that is not one.
        """
        for name, choices in self.RULES.choices.items():
            if getattr(self, name) not in choices:
                raise bad_option(name, getattr(self, name), " | ".join(choices))
        for name, (low, high) in self.RULES.ranges.items():
            value = getattr(self, name)
            if value is None and name in self.RULES.nullable:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise bad_option(name, value, f"{low}..{high}")
        for name in booleans:
            if not isinstance(getattr(self, name), bool):
                raise bad_option(name, getattr(self, name), "true | false")
