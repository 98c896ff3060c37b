"""Faces typed in from physical dice: one grammar for the command line and the web table.

The grammar:

* faces are separated by a comma, a semicolon or white space (``1;4;5``, `` 1 , 4 ``,
  ``1 4 5``); an empty face between two commas or after the last one (``1,,4``, ``4,``)
  is refused;
* a face is a whole number as `read_whole` reads it: an optional ``-`` and at most
  `WHOLE_DIGITS` ASCII digits (``6``, ``-1``). A ``+`` sign, a point (``1.0``),
  underscores (``1_0``) and other digits (``٣``, ``５``) are refused, although Python's
  ``int`` would take some of them;
* a D+/- face is written ``+``, ``-`` or ``0`` (blank); ``+1`` and ``-1`` are read too.

`read_whole` is the one reader of whole numbers typed as text, for every interface: the
command line's options, the web forms, the JSON API and the typed faces.

Every refusal names the face as typed, its position among the typed faces, the die and what
the die shows (``face 7 (the 3rd) is not a face of a d6 (1 to 6)``); `TypedFaces` reports
the faces it hands out the same way.

Source: house style (one parser for every interface); seed 003, "Mini-glossaire" (the D+/-
faces), ruling S-N3.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tablee.dice.kinds import DICE, DPM, Die
from tablee.errors import N_, InputError, Message

__all__ = [
    "WHOLE_DIGITS",
    "check_typed_face",
    "check_typed_faces",
    "is_whole_in_reach",
    "ordinal",
    "parse_faces",
    "read_whole",
    "split_faces",
    "typed_faces",
]

_SEPARATORS = re.compile(r"\s*[,;]\s*|\s+")
_MINUS = "\N{MINUS SIGN}"
_DPM_SYMBOLS = {"+": 1, "-": -1, "+1": 1}
_WHOLE = re.compile(r"-?[0-9]+")

WHOLE_DIGITS = 9
"""The most digits a typed whole number may have; a longer one is out of every range."""

_BEYOND: int = int("1" + "0" * WHOLE_DIGITS)  # the smallest number with one digit too many


def read_whole(text: str, *, negative: bool = True, plus: bool = False) -> int | None:
    """A whole number typed as text: an optional ``-`` then ASCII digits ``0`` to ``9``.

    Surrounding white space is ignored. Everything Python's ``int`` takes beyond that is
    refused: a ``+`` sign, underscores (``1_000``), a point (``1.0``), other digits (``５``).

    Args:
        text: the number as typed.
        negative: whether a leading ``-`` is allowed.
        plus: whether a leading ``+`` is allowed too (a change written ``+N`` or ``-N``).

    Returns:
        The number; None when ``text`` is not written as above. A number with more than
        `WHOLE_DIGITS` digits reads as ``10**WHOLE_DIGITS`` (or its negative), beyond every
        range a field may declare, so that the caller's range check refuses it (Python's
        own limit on long numbers is never reached).
    """
    body = text.strip()
    if plus and body.startswith("+"):
        body = body[1:]
        if body.startswith("-"):
            return None
    if not _WHOLE.fullmatch(body) or (body.startswith("-") and not negative):
        return None
    digits = body.lstrip("-")
    if len(digits) > WHOLE_DIGITS:
        return -_BEYOND if body.startswith("-") else _BEYOND
    return int(body)


def is_whole_in_reach(value: int) -> bool:
    """Whether ``value`` has at most `WHOLE_DIGITS` digits."""
    return abs(value) < _BEYOND


def split_faces(text: str) -> tuple[str, ...]:
    """The faces of a typed text, as typed, without their separators.

    Args:
        text: faces separated by commas, semicolons or white space, in any mix.

    Returns:
        The pieces, in order (empty for a blank text); an empty piece stands where two
        commas (or semicolons) follow each other, or where one begins or ends the text.
    """
    body = text.strip()
    return tuple(_SEPARATORS.split(body)) if body else ()


def ordinal(position: int) -> Message:
    """A position among typed faces, as an ordinal to translate (``the 3rd``, ``la 3e``).

    Args:
        position: 1 or more.
    """
    if position == 1:
        return Message(N_("the 1st"))
    if position % 100 in (11, 12, 13):
        return Message(N_("the {n}th"), n=position)
    suffix = {
        1: N_("the {n}st"),
        2: N_("the {n}nd"),
        3: N_("the {n}rd"),
    }.get(position % 10, N_("the {n}th"))
    return Message(suffix, n=position)


def _not_a_face(text: str, position: int, die: Die | None) -> InputError:
    where = ordinal(position)
    if die is None:
        return InputError(
            N_(
                "face {face} ({position}) is not a whole number (digits 0 to 9, an optional "
                "minus sign; faces separated by commas, semicolons or spaces)"
            ),
            face=text,
            position=where,
        )
    if die is DPM:
        return InputError(
            N_("face {face} ({position}) is not a face of a +/- die (+, - or 0)"),
            face=text,
            position=where,
        )
    return InputError(
        N_("face {face} ({position}) is not a face of a {die} (1 to {sides})"),
        face=text,
        position=where,
        die=_plain(die).said,
        sides=max(die.faces),
    )


def _plain(die: Die) -> Die:
    """The standard die with the same faces (the game master's d6 is a d6), or ``die``."""
    return next((d for d in DICE if d.faces == die.faces), die)


def _number(text: str) -> int | None:
    """The value of one typed face, or None when `read_whole` refuses it."""
    value = read_whole(text.replace(_MINUS, "-"))
    return value if value is not None and is_whole_in_reach(value) else None


def check_typed_face(face: str | int, position: int, die: Die | None = None) -> int:
    """The value of one typed face, checked against ``die``.

    Args:
        face: the face as typed (``"7"``, ``"+"``) or already read as a whole number.
        position: its position among the typed faces, 1 or more (shown in errors).
        die: the die it was read on; None checks only that it is a whole number.

    Returns:
        The face value (for the D+/- die: 1, -1 or 0).

    Raises:
        InputError: not a whole number (or a D+/- symbol), or not a face of ``die``; the
            message names the face as typed, its position, the die and its faces.
    """
    if isinstance(face, bool) or not isinstance(face, int | str):
        raise _not_a_face(repr(face), position, die)
    value: int | None
    if isinstance(face, int):
        text, value = str(face), face
    else:
        text = face.strip()
        symbol = _DPM_SYMBOLS.get(text.replace(_MINUS, "-")) if die is DPM else None
        value = symbol if symbol is not None else _number(text)
    if not text:
        raise InputError(
            N_("{position} face is empty (two commas in a row, or one at an end)"),
            position=ordinal(position),
        )
    if value is None or (die is not None and value not in die.values):
        raise _not_a_face(text, position, die)
    return value


def parse_faces(text: str, die: Die | None = None, *, first: int = 1) -> tuple[int, ...]:
    """Read typed faces (see the module for the grammar).

    Args:
        text: the faces as typed, e.g. ``"1,4,6"``, ``"1 4 6"``, ``"+,-,0"`` (D+/-).
        die: the die they were read on, checked face by face; None checks only that each
            face is a whole number (the die is then checked when the faces are used, by
            `tablee.dice.TypedFaces`, with the same message).
        first: the position of the first face (for a text that continues another).

    Returns:
        The face values, in order; empty for a blank text.

    Raises:
        InputError: the first face that is not a face of ``die`` (or not a whole number),
            named as typed with its position.
    """
    return tuple(
        check_typed_face(piece, position, die)
        for position, piece in enumerate(split_faces(text), start=first)
    )


def typed_faces(text: str | None, die: Die | None = None) -> tuple[int, ...] | None:
    """Faces typed in an optional field: None when nothing was typed (roll instead).

    Both interfaces read a missing or blank field (``--dice ""``, an empty form field) as
    "nothing typed", and anything else with `parse_faces`.

    Args:
        text: the field's text, or None when absent.
        die: as in `parse_faces`.

    Raises:
        InputError: as `parse_faces`.
    """
    if text is None or not text.strip():
        return None
    return parse_faces(text, die)


def check_typed_faces(faces: Sequence[int], die: Die, first: int = 1) -> tuple[int, ...]:
    """Check faces already read as numbers against ``die``, naming positions from ``first``.

    Raises:
        InputError: as `check_typed_face`.
    """
    return tuple(check_typed_face(f, first + i, die) for i, f in enumerate(faces))
