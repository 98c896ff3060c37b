"""The six result levels of a Pouyss roll, and their mirror for the passive side.

Source: seed 000, "Résultats"; rulings P-M2, P-A1 (a 6 is a Triomphe despite the text's
typo), P-A10 (success is 4 or more, a named option), P-A11 (passive = 7 - active).
"""

from __future__ import annotations

from enum import Enum

from tablee.errors import N_, InputError

__all__ = ["Level", "level_of", "mirror"]


class Level(Enum):
    """A result level; the value is the die value (1 to 6) that gives it."""

    DESASTRE = 1
    DEFAITE = 2
    REVERS = 3
    SUCCES = 4
    VICTOIRE = 5
    TRIOMPHE = 6

    @property
    def id(self) -> str:
        """Stable lowercase id without accents (``desastre`` ... ``triomphe``)."""
        return self.name.lower()

    @property
    def title(self) -> str:
        """The game's own French name (kept in every language: a game term)."""
        return _TITLES[self]

    def is_success(self, threshold: int = 4) -> bool:
        """Whether the level counts as a success.

        Args:
            threshold: lowest successful value, 1 to 6 (P-A10; 4 by default).
        """
        return self.value >= threshold


_TITLES = {
    Level.DESASTRE: "Désastre",
    Level.DEFAITE: "Défaite",
    Level.REVERS: "Revers",
    Level.SUCCES: "Succès",
    Level.VICTOIRE: "Victoire",
    Level.TRIOMPHE: "Triomphe",
}


_BY_VALUE = {level.value: level for level in Level}


def level_of(value: int) -> Level:
    """The level for a die value.

    Args:
        value: 1 to 6.

    Raises:
        InputError: the value is not 1 to 6.

    Source: seed 000, "Résultats"; P-M2, P-A1.
    """
    if type(value) is int and 1 <= value <= 6:
        return _BY_VALUE[value]
    raise InputError(N_("{value!r} is not a d6 value (1 to 6) (rule P-M2)"), value=value)


def mirror(level: Level) -> Level:
    """The passive side's level in an opposed roll: Triomphe <-> Désastre and so on.

    Source: seed 000, "Jets comparatifs"; P-M8, P-A11.
    """
    return Level(7 - level.value)
