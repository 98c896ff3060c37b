"""What every game system offers the table: facts, state, evolve, event versions.

A system decides *facts* (events not yet stored) from its state and a command, and folds
stored facts back into state with a pure ``evolve``. It never touches storage, the clock or
a random generator; those are passed in by the table layer.

Source: docs/architecture.md, "A mechanic" and "The event log" (commands return facts; a pure
fold; randomness outside the rules).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tablee.errors import N_, InputError, Message

__all__ = [
    "JSON",
    "MAX_NAME",
    "VISIBILITIES",
    "Fact",
    "Upcaster",
    "clean_name",
    "name_key",
    "strictest",
]

JSON = Any
"""A JSON-compatible value: None, bool, int, str, list or dict of those (no floats used)."""

VISIBILITIES = ("all", "roller_and_gm", "gm")
"""Who may see an event: everyone, the roller and the game master, the game master alone
(from the widest to the narrowest)."""


def strictest(*visibilities: str) -> str:
    """The narrowest of some visibilities (``gm`` over ``roller_and_gm`` over ``all``).

    Raises:
        ValueError: a visibility that is not one of `VISIBILITIES`.
    """
    return max(visibilities, key=VISIBILITIES.index)


Upcaster = Callable[[dict[str, JSON]], dict[str, JSON]]
"""Turns a payload of version ``n`` into version ``n + 1``."""


@dataclass(frozen=True)
class Fact:
    """An event decided by the rules, not yet stored.

    Attributes:
        kind: stable dotted name, e.g. ``pouyss.roll`` (never a Python import path).
        payload: JSON-compatible data, including every die face and option used.
        actor: who acted (a player name, ``gm``), or None for the table itself.
        visibility: one of `VISIBILITIES`.
        version: the schema version of ``kind`` this payload follows (1 or more).
        rules_version: the version of the rules that decided it (stored with the event), or
            None when not given.
    """

    kind: str
    payload: Mapping[str, JSON] = field(default_factory=dict)
    actor: str | None = None
    visibility: str = "all"
    version: int = 1
    rules_version: str | None = None


MAX_NAME = 100
"""Longest name (player, character, table) in characters."""


def clean_name(text: object, *, what: str = N_("a name")) -> str:
    """A name as stored: Unicode NFC, trimmed, 1 to `MAX_NAME` characters, no control.

    The same name typed two ways (composed or decomposed accents) is then one name.

    Args:
        text: the name as typed.
        what: what the name is for, for the message (a `N_` marked phrase).

    Raises:
        InputError: not text, empty, too long, or with a control character (any of Unicode's
            "other" categories: stricter than free text, which keeps tabs, line ends and
            joiners). The name is quoted cut to 30 characters.
    """
    if not isinstance(text, str):
        raise InputError(
            N_("{value!r} cannot be {what}: it is not text"), value=text, what=Message(what)
        )
    name = unicodedata.normalize("NFC", text).strip()
    if not name or len(name) > MAX_NAME:
        raise InputError(
            N_("{value!r} cannot be {what}: 1 to {maximum} characters"),
            value=_quoted(text),
            what=Message(what),
            maximum=MAX_NAME,
        )
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise InputError(
            N_("{value!r} cannot be {what}: it has a control character"),
            value=_quoted(text),
            what=Message(what),
        )
    return name


def _quoted(text: str, length: int = 30) -> str:
    """``text`` cut to ``length`` characters (with ``…``), to be quoted in a message."""
    return text if len(text) <= length else text[:length] + "…"


def name_key(name: str) -> str:
    """The form two names are compared in: NFC after case folding ('Émile' == 'ÉMILE')."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
