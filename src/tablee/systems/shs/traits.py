"""The five Caractéristiques of a Protagoniste, their thresholds, and Santé by Carrure.

A Caractéristique is a success threshold from 5+ (very good) to 8+ (bad): an action die
showing the threshold or more gives one Point de Succès. Starting and maximum Santé follow
from Carrure: 8+ gives 9, 7+ gives 10, 6+ gives 11, 5+ gives 12.

Source: seed 003, "Caractéristiques", "Santé"; rulings S-M9, S-N1, S-T13.
"""

from __future__ import annotations

import unicodedata
from enum import Enum

from tablee.errors import N_, InputError
from tablee.systems.common import whole

__all__ = [
    "MAX_THRESHOLD",
    "MIN_THRESHOLD",
    "Characteristic",
    "characteristic_named",
    "check_threshold",
    "parse_threshold",
    "starting_sante",
    "threshold_adjective",
    "threshold_text",
]

MIN_THRESHOLD = 5
"""Best (lowest) threshold a Caractéristique can have: 5+."""
MAX_THRESHOLD = 8
"""Worst (highest) threshold a Caractéristique can have: 8+."""


class Characteristic(Enum):
    """One of the five Caractéristiques; the value is a stable id without accents.

    Source: seed 003, "Caractéristiques"; S-M9.
    """

    CARRURE = "carrure"
    MOTRICITE = "motricite"
    SCIENCE = "science"
    RELATIONNEL = "relationnel"
    SANG_FROID = "sang_froid"

    @property
    def title(self) -> str:
        """The game's French name (a game term, kept in every language)."""
        return _TITLES[self]


_TITLES = {
    Characteristic.CARRURE: "Carrure",
    Characteristic.MOTRICITE: "Motricité",
    Characteristic.SCIENCE: "Science",
    Characteristic.RELATIONNEL: "Relationnel",
    Characteristic.SANG_FROID: "Sang-froid",
}
_ADJECTIVES = {8: "Mauvais", 7: "Passable", 6: "Bon", 5: "Très bon"}


def _fold(text: str) -> str:
    """Lowercase, accents dropped, spaces/hyphens/underscores as one ``_``."""
    decomposed = unicodedata.normalize("NFD", text.strip().casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return "_".join(bare.replace("-", " ").replace("_", " ").split())


def characteristic_named(name: object) -> Characteristic:
    """The Caractéristique with that name, typed with or without accents or case.

    Args:
        name: ``Carrure``, ``Motricité``, ``Science``, ``Relationnel``, ``Sang-froid`` (or an
            id such as ``sang_froid``), or a `Characteristic`.

    Raises:
        InputError: no Caractéristique has that name.

    Source: seed 003, "Caractéristiques"; S-M9.
    """
    if isinstance(name, Characteristic):
        return name
    if isinstance(name, str):
        for characteristic in Characteristic:
            if _fold(name) == characteristic.value:
                return characteristic
    raise InputError(
        N_("{name!r} is not a Caractéristique (rule S-M9)"),
        tip=N_("use one of {known}"),
        name=name,
        known=", ".join(c.title for c in Characteristic),
    )


def check_threshold(value: object, *, what: str = "threshold") -> int:
    """Check a Caractéristique threshold.

    Args:
        value: the threshold, an integer 5 to 8.
        what: the field's name for the message (``carrure``, ``threshold``...).

    Returns:
        The threshold.

    Raises:
        InputError: not a whole number from 5 to 8.

    Source: seed 003, "Caractéristiques" (scores from 5+ to 8+); S-M9.
    """
    return whole(value, what, MIN_THRESHOLD, MAX_THRESHOLD, rule="S-M9")


def parse_threshold(text: object, *, what: str = "threshold") -> int:
    """A threshold as typed: ``"6+"``, ``"6"`` or the integer 6.

    Raises:
        InputError: not a threshold from 5+ to 8+.

    Source: seed 003; S-M9.
    """
    if not isinstance(text, str):
        return check_threshold(text, what=what)
    bare = text.strip().removesuffix("+").strip()
    if bare.isascii() and bare.isdigit() and MIN_THRESHOLD <= int(bare) <= MAX_THRESHOLD:
        return int(bare)
    raise InputError(
        N_("{what} {value!r} is not a threshold from 5+ to 8+ (rule S-M9)"), what=what, value=text
    )


def threshold_text(threshold: int) -> str:
    """A threshold as the text writes it: ``6+``.

    Source: seed 003, "Caractéristiques"; S-M9.
    """
    return f"{check_threshold(threshold)}+"


def threshold_adjective(threshold: int) -> str:
    """The text's French adjective for a threshold: 8+ Mauvais ... 5+ Très bon.

    Raises:
        InputError: not a threshold from 5 to 8.

    Source: seed 003, "Caractéristiques" (adjective table); S-M9.
    """
    return _ADJECTIVES[check_threshold(threshold)]


def starting_sante(carrure: int) -> int:
    """Starting and maximum Santé for a Carrure threshold: ``17 - carrure`` (9 to 12).

    Args:
        carrure: the Carrure threshold, 5 to 8.

    Raises:
        InputError: not a threshold from 5 to 8.

    Source: seed 003, "Santé" (table); S-N1, S-T13.
    """
    return 17 - check_threshold(carrure, what="carrure")
