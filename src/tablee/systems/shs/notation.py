"""The Test notation ``Test (Caractéristique, Difficulté)`` and the named Difficulties.

The text names two Difficulties only: Difficile (2) and Extrême (4). Its examples also use
Difficulties 1 and 3 without a name; Tablée invents no name for them (S-A4), so any whole
number of at least 1 is a Difficulty, and the two names are accepted as input.

Source: seed 003, "Notation de Test", "Difficulté", "Se Surpasser"; rulings S-M2, S-A4,
S-N2, S-T12.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from tablee.errors import N_, InputError
from tablee.systems.shs.difficulty import Test, check_difficulty
from tablee.systems.shs.traits import Characteristic, characteristic_named

__all__ = [
    "NAMED_DIFFICULTIES",
    "TestNotation",
    "attempt_options",
    "difficulty_name",
    "difficulty_named",
    "notation_of",
    "parse_test_notation",
]

NAMED_DIFFICULTIES: dict[str, int] = {"Difficile": 2, "Extrême": 4}
"""The Difficulties the text names, by their French name (S-N2)."""

_NOTATION = re.compile(r"^\s*test\s*\(\s*([^,()]+?)\s*,\s*([^,()]+?)\s*\)\s*$", re.IGNORECASE)


def _bare(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def difficulty_named(text: object) -> int:
    """A Difficulty from a number or one of the text's names.

    Args:
        text: ``"3"``, ``3``, ``"Difficile"`` (2) or ``"Extrême"`` / ``"extreme"`` (4).

    Returns:
        The Difficulty, 1 or more.

    Raises:
        InputError: not a whole number of at least 1 nor a named Difficulty; for 0 or
            less, the tip says the Action is trivial (S-M1).

    Source: seed 003; S-M1, S-A4, S-N2.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        return check_difficulty(text)
    if isinstance(text, str):
        word = text.strip()
        bare = word[1:] if word[:1] in "+-" else word
        if bare.isascii() and bare.isdigit():
            return check_difficulty(int(word))  # 0 or less: a trivial Action (S-M1)
        for name, value in NAMED_DIFFICULTIES.items():
            if _bare(word) == _bare(name):
                return value
    raise InputError(
        N_("{value!r} is not a Difficulty: a whole number of at least 1 (rule S-A4)"),
        tip=N_("the text names only Difficile (2) and Extrême (4)"),
        value=text,
    )


def difficulty_name(difficulty: int) -> str | None:
    """The text's name of a Difficulty (Difficile for 2, Extrême for 4), else None.

    Source: seed 003; S-N2.
    """
    for name, value in NAMED_DIFFICULTIES.items():
        if value == difficulty:
            return name
    return None


@dataclass(frozen=True)
class TestNotation:
    """A Test as the text writes it: the Caractéristique used and the Difficulty.

    Attributes:
        characteristic: the Caractéristique.
        difficulty: 1 or more.

    Raises:
        InputError: an unknown Caractéristique or a Difficulty below 1.

    Source: seed 003, "Notation de Test"; S-M2, S-T12.
    """

    __test__: ClassVar[bool] = False

    characteristic: Characteristic
    difficulty: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "characteristic", characteristic_named(self.characteristic))
        object.__setattr__(self, "difficulty", difficulty_named(self.difficulty))

    def __str__(self) -> str:
        """``Test (Science, 3)``."""
        return f"Test ({self.characteristic.title}, {self.difficulty})"


def parse_test_notation(text: str) -> TestNotation:
    """Read ``Test (Caractéristique, Difficulté)``.

    Args:
        text: e.g. ``Test (Science, 3)``, ``test(sang-froid, Difficile)``.

    Raises:
        InputError: not of that shape, an unknown Caractéristique, or a bad Difficulty.

    Source: seed 003, "Notation de Test"; S-M2, S-T12.
    """
    match = _NOTATION.match(text) if isinstance(text, str) else None
    if match is None:
        raise InputError(
            N_("{text!r} is not a Test notation (rule S-M2)"),
            tip=N_("write it as Test (Science, 3)"),
            text=text,
        )
    return TestNotation(characteristic_named(match[1]), difficulty_named(match[2]))


def notation_of(test: Test) -> TestNotation:
    """The notation of a Test.

    Raises:
        InputError: the Test names no Caractéristique.

    Source: seed 003; S-M2, S-T12.
    """
    if test.characteristic is None:
        raise InputError(
            N_("this Test names no Caractéristique, so it has no notation (rule S-M2)")
        )
    return TestNotation(test.characteristic, test.difficulty)


def attempt_options(parts: Iterable[str]) -> tuple[dict[str, Any], str | None]:
    """The options written after an Action's ``NAME:CARACTERISTIQUE`` (or ``C:D``) parts.

    Each part is ``expertise=TEXT``, ``bonus=N``, ``malus=N``, ``surpasser`` or
    ``sacrifier`` (any case); a later one of the same kind wins.

    Args:
        parts: the parts after the two leading ones, each already trimmed.

    Returns:
        ``(options, bad)``: the options as `tablee.systems.shs.Attempt` keywords
        (``expertise``, ``bonus``, ``malus``, ``surpass``, ``sacrifice``) read up to the
        first part that is none of them, and that part (None when every part is one). The
        caller names the bad part in its own message.

    Source: seed 003, "Se Surpasser", "Se Sacrifier"; S-M3, S-A1 (Tablée's notation).
    """
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        key = key.strip().casefold()
        if not sep and key in ("surpasser", "sacrifier"):
            options["surpass" if key == "surpasser" else "sacrifice"] = True
        elif sep and key == "expertise" and value.strip():
            options["expertise"] = value.strip()
        elif sep and key in ("bonus", "malus") and value.strip().isdigit():
            options[key] = int(value)
        else:
            return options, part
    return options, None
