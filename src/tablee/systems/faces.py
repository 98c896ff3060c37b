"""Typed-in faces of a declared command: their field names, labels, and how they are read.

Every interface that offers typed-in faces for physical dice (the web forms, the JSON API,
the Discord bot) names the fields and reads them here, so the same typed text gives the same
dice and the same error everywhere (the command line reads its ``--dice`` options the same
way, with `tablee.dice.typed_faces`).

Source: architecture.md "One declaration per command".
"""

from __future__ import annotations

from collections.abc import Callable

from tablee.dice import DICE, Die, FacesByKind, RandomSource, TypedFaces, typed_faces
from tablee.errors import N_, InputError
from tablee.systems.declare import Command

__all__ = ["FACES_LABELS", "faces_field", "faces_label", "typed_dice"]

FACES_LABELS = {
    "d6": N_("d6 faces read on physical dice"),
    "gm": N_("The game master's d6 faces read on physical dice (empty: the server rolls)"),
    "d8": N_("D8 faces read on physical dice"),
    "d10": N_("D10 faces read on physical dice"),
    "dpm": N_("+/- dice read on physical dice: +, - or 0 for a blank face, e.g. +,0"),
}
"""The label of the faces field of each kind of die after a command's main one, naming the
dice as players do (never the internal ``dpm``)."""


def faces_field(die: Die, main: bool) -> str:
    """The form (and JSON) key of typed-in faces of a kind of die: ``faces``, ``faces_dpm``."""
    return "faces" if main else f"faces_{die.name}"


def faces_label(command: type[Command], die: Die, main: bool) -> str:
    """What to type in a faces field, naming the dice as players do (English, marked `N_`).

    The main kind's field says the command's ``faces_help``; another kind's, its label in
    `FACES_LABELS` (``+/- dice read on physical dice: ...``).
    """
    if main:
        return getattr(command, "faces_help", "") or N_("the faces, comma separated")
    return FACES_LABELS.get(die.name, die.label or die.name)


def typed_dice(command: type[Command], text_of: Callable[[Die, bool], str]) -> RandomSource | None:
    """The faces typed in for a command, each kind of die apart, or None (fair dice).

    The main kind's faces are read as whole numbers and checked against the die when they
    are used (so a wrong count is named before a wrong face), as on the command line; the
    others are read with their die (``+``, ``-``, ``0`` on a +/- die). Nothing typed: the
    server rolls every die (None). Once some faces are typed in, the server rolls none: a kind
    of die left empty that the roll needs is an error naming the dice as players do (the
    rules ask each side of a gang fight for its own dice, so one side's typed faces never
    make the server roll the other side's unasked).

    Args:
        command: the command's class (its ``dice_kinds``).
        text_of: ``(die, is_main) -> the text typed for that kind`` (empty when none).

    Raises:
        InputError: a value that is not a die face.
    """
    typed: dict[str, TypedFaces] = {}
    for index, die in enumerate(command.dice_kinds):
        try:
            faces = typed_faces(text_of(die, index == 0), die if index else None)
        except InputError as exc:
            if not index or die in DICE:
                raise
            raise InputError(N_("{dice}: {error}"), dice=die.said, error=exc) from None
        if faces is not None:
            typed[die.name] = TypedFaces(faces)
    if not typed:
        return None
    if len(command.dice_kinds) == 1:
        return typed[command.dice_kinds[0].name]
    others = frozenset(die.name for die in command.dice_kinds[1:])
    return FacesByKind(typed, command.dice_kinds[0].name, others)
