"""Shared parts of the YBS forms: choice lists, field helpers and the player's limits.

The trait, purpose, damage and s'entêter choices of the forms, who a form may act for
(W-Y1: a player acts only for the characters they play), the open test's stored event, and
typed-in faces (``1,5,6``) and keep choices (``advised``, ``none`` or faces) of a gang fight.

Source: docs/web.md, "Yuigahama Bad Seeds at the web table"; seed 004; rulings Y-M3, Y-M7, Y-A2,
Y-A14; docs/web.md W-Y1.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tablee.dice import D6, typed_faces
from tablee.errors import N_, InputError
from tablee.locale.numbers import is_short_fraction
from tablee.systems import ybs
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.web.systems import (
    GM_AND_PLAYERS,
    GM_ONLY,
    ActionRequest,
    Field,
    acting_for,
    decimal_text,
    every,
    every_or_none,
    owned,
    owner_choices,
    owner_of,
)

__all__ = [
    "BOTH",
    "CHARACTER",
    "COMBINE",
    "DAMAGE",
    "NOTE",
    "POLICY",
    "PURPOSES",
    "SECOND",
    "SHEETS_MAX",
    "SIDES",
    "TRAITS",
    "acting_for_character",
    "every_character_or_none",
    "keep_faces",
    "last_test",
    "mean_text",
    "own_characters",
    "owners",
    "typed_side",
    "ybs_game",
]

_GM = GM_ONLY
BOTH = GM_AND_PLAYERS
TRAITS = tuple((t.value, t.title) for t in ybs.Trait)
SHEETS_MAX = 20_000
"""Longest pasted JSON or TOML text of the import form, in characters."""


# --- choices -------------------------------------------------------------------------------------


own_characters = owned("characters")
"""The characters the viewer plays (every character for the GM)."""
_every = every("characters")
every_character_or_none = every_or_none("characters")
owners = owner_choices(N_("the GM (a GM character)"))


SECOND = (("", "-"), *TRAITS)
COMBINE = (("", "-"), ("average", N_("average, rounded down")), ("limit", N_("the lower")))
PURPOSES = (
    ("plain", N_("an ordinary test")),
    ("gate", N_("the Nintai gate of a fight")),
    ("attack", N_("an attack")),
    ("defend", N_("a defence")),
)
DAMAGE = (("uchimi", "Uchimi"), ("kega", "Kega"))
POLICY = (
    ("", N_("as the house rules say")),
    ("any", N_("after every failure while tokens last")),
    ("once", N_("once")),
    ("never", N_("never")),
)
SIDES = (("", "-"), ("players", N_("the players")), ("gm", N_("the GM's side")))


# --- helpers -------------------------------------------------------------------------------------


def ybs_game(req: ActionRequest) -> Any:
    """The table's YBS game."""
    return req.state.game


def acting_for_character(req: ActionRequest, name: str) -> None:
    """A player may act only for a character they play (W-Y1)."""
    acting_for(req, owner_of(req, ybs.character_named, name))


def last_test(state: TableState) -> StoredEvent | None:
    """The stored ``ybs.test`` of the test in progress, or None."""
    if state.game.test is None:
        return None
    return next((e for e in reversed(state.events) if e.kind == "ybs.test"), None)


def _faces_list(text: str, what: str) -> list[int] | None:
    """Faces typed as ``1,5,6`` (None when blank), in the grammar of `tablee.dice.faces`.

    Raises:
        InputError: a face that is not a d6 face, prefixed with the field's name.
    """
    try:
        faces = typed_faces(text, D6)
    except InputError as exc:
        raise InputError(N_("{field}: {error}"), field=what, error=exc) from None
    return None if faces is None else list(faces)


def keep_faces(text: str, advised: tuple[int, ...]) -> tuple[int, ...]:
    """``advised`` (or empty: the advisor's pick), ``none`` (reroll all), or faces ``2,3``."""
    word = text.strip().lower()
    if word in ("", "advised"):
        return advised
    if word == "none":
        return ()
    return tuple(_faces_list(text, "keep") or [])


"""An exact fraction is shown next to its decimal only when it has at most this many digits
above and below (a gang fight's expected throws run to some thirty digits)."""


def mean_text(value: Fraction, lang: str) -> str:
    """An expected count in the viewer's number format: ``1,167 (7/6)`` in French.

    Three decimals (the command line's ``decimal(..., 3)``), then the exact fraction when short.
    """
    text = decimal_text(value, lang, 3)
    if is_short_fraction(value):
        text += f" ({value.numerator}/{value.denominator})"
    return text


def typed_side(req: ActionRequest, name: str, count: int) -> list[int]:
    """``count`` d6 faces for one side: typed in field ``name``, else rolled fair.

    Raises:
        InputError: a bad or missing typed face, naming the field.
    """
    typed = _faces_list(req.text(name), name)
    try:
        return req.throw(D6, count, typed)
    except InputError as exc:
        raise InputError(N_("{field}: {error}"), field=name, error=exc) from None


# --- fields shared by several forms --------------------------------------------------------------

CHARACTER = Field("character", N_("Character"), "choice", _every)
NOTE = Field("note", N_("A note kept in the log"))
