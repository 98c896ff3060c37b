"""Where a command's dice come from: faces typed in, a seed, or fair dice.

Every rolled command of the command line takes its faces from one of three sources, in this
order: faces read on physical dice and typed in (``--dice``), a reproducible roll from
``--seed``, else the fair source. `dice_source` makes that choice once for every system.

Source: docs/architecture.md, "A mechanic" (one resolve driven by a fair, seeded or typed-in
source).
"""

from __future__ import annotations

from tablee.cli.app import parse_dice
from tablee.dice import FairSource, RandomSource, SeededSource, TypedFaces
from tablee.errors import N_, InputError

__all__ = ["dice_source", "typed_faces"]


def typed_faces(text: str | None, flag: str = "--dice") -> list[int] | None:
    """Faces typed in with ``flag``, as integers (None when the option was not given).

    The grammar is `tablee.dice.faces`' (the one reader of typed faces, shared with the web).

    Args:
        text: the option's value, ``"1,4,5"``, or None.
        flag: the option's name, shown in the error.

    Returns:
        The faces in the order typed (none for a blank value), or None.

    Raises:
        InputError: a face that is not a whole number, naming the option, the face and its
            place.
    """
    if text is None:
        return None
    try:
        return parse_dice(text) or []
    except InputError as exc:
        raise InputError(N_("{flag}: {error}"), flag=flag, error=exc) from None


def dice_source(
    text: str | None, seed: int | None, *, flag: str = "--dice"
) -> tuple[RandomSource, TypedFaces | None]:
    """The source a command rolls with: typed-in faces, else seeded, else fair.

    Args:
        text: the faces typed in (``"1,4,5"``), or None when none were.
        seed: the ``--seed`` value, or None.
        flag: the option the faces were typed with, shown in errors.

    Returns:
        ``(source, typed)``: ``typed`` is the same `TypedFaces` as ``source`` when faces were
        typed in (so the caller can check their count with ``expect`` or ``finish``), else
        None.

    Raises:
        InputError: a typed part that is not a whole number.
    """
    faces = typed_faces(text, flag)
    if faces is not None:
        typed = TypedFaces(faces)
        return typed, typed
    return (SeededSource(seed) if seed is not None else FairSource()), None
