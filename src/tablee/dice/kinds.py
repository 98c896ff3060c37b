"""Dice kinds: the d6, d8, d10 and the D+/- die of Space Horror Stories.

A die is a tuple of faces, each face an integer value; a face appearing twice is twice as
likely. The D+/- die has six faces: two ``+1``, two ``-1`` and two blank (``0``).

Source: seeds 000 (d6 only), 003 (D8, D10, D+/-); rulings S-M3.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from tablee.errors import N_, InputError, Message

__all__ = ["D6", "D8", "D10", "DICE", "DPM", "Die", "die_named"]


@dataclass(frozen=True)
class Die:
    """One kind of die.

    Attributes:
        name: short id (``d6``, ``d8``, ``d10``, ``dpm``), used in option and field names
            (``--dpm-dice``, ``faces_dpm``), never shown to players.
        faces: the face values, one entry per physical face (repeats allowed).
        label: the dice as players name them, in English marked with `N_` (``D8``,
            ``+/- dice``; translated when shown), or empty to show ``name``.
    """

    name: str
    faces: tuple[int, ...]
    label: str = field(default="", compare=False)

    @property
    def said(self) -> Message | str:
        """The dice as players name them (``D8``, ``+/- dice``), to put in a message."""
        return Message(self.label) if self.label else self.name

    @property
    def sides(self) -> int:
        """Number of physical faces (6, 8 or 10)."""
        return len(self.faces)

    @property
    def values(self) -> frozenset[int]:
        """The distinct values a face can show (worked out once per die)."""
        values = self.__dict__.get("_values")
        if values is None:
            values = frozenset(self.faces)
            self.__dict__["_values"] = values
        return values

    def check_face(self, face: int) -> int:
        """Check one typed-in face value.

        Args:
            face: the value read on the die.

        Returns:
            The face, unchanged.

        Raises:
            InputError: the value is not one of this die's faces.
        """
        if isinstance(face, bool) or not isinstance(face, int) or face not in self.values:
            raise InputError(
                N_("face {face!r} is not a face of a {die} (faces: {allowed})"),
                face=face,
                die=self.said,
                allowed=", ".join(str(v) for v in sorted(self.values)),
            )
        return face

    def check_faces(self, faces: Iterable[int]) -> tuple[int, ...]:
        """Check several typed-in face values at once, as `check_face` checks each.

        Args:
            faces: the values read on the dice, in order.

        Returns:
            The faces as a tuple, in the order given.

        Raises:
            InputError: the first value that is not one of this die's faces (the same
                error as `check_face` gives for it).
        """
        checked = tuple(faces)
        values = self.values
        for face in checked:
            if type(face) is not int or face not in values:
                break
        else:
            return checked
        return tuple(self.check_face(face) for face in checked)


D6 = Die("d6", (1, 2, 3, 4, 5, 6), N_("d6"))
D8 = Die("d8", tuple(range(1, 9)), N_("D8"))
D10 = Die("d10", tuple(range(1, 11)), N_("D10"))
DPM = Die("dpm", (1, 1, -1, -1, 0, 0), N_("+/- dice"))
DICE: tuple[Die, ...] = (D6, D8, D10, DPM)


def die_named(name: str) -> Die:
    """Look a die up by its short name.

    Args:
        name: ``d6``, ``d8``, ``d10`` or ``dpm`` (case-insensitive).

    Returns:
        The die.

    Raises:
        InputError: no die has that name.
    """
    for die in DICE:
        if die.name == name.lower():
            return die
    raise InputError(N_("unknown die {name!r} (known: d6, d8, d10, dpm)"), name=name)
