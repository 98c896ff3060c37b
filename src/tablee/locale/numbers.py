"""Numbers for people to read, in each language's format: one home for the CLI and the web.

French writes a decimal comma and a non-breaking space before ``%``; English a point and no
space. Exact fractions are shown only when short enough to read.

Source: French and English for everything a player reads, at the command line and the web
table (docs/architecture.md, "i18n").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: a command that shows no odds never loads fractions
    from fractions import Fraction

__all__ = ["SHORT_DIGITS", "format_decimal", "format_percent", "is_short_fraction"]

SHORT_DIGITS = 9
"""An exact fraction is shown to people only when its numerator and denominator have at most
this many digits each; a longer one is unreadable (it stays in JSON documents)."""


def format_percent(probability: Fraction, lang: str) -> str:
    """A probability (0 to 1) as a percentage with one decimal: ``33,3 %`` or ``33.3%``."""
    value = f"{float(probability) * 100:.1f}"
    return (value.replace(".", ",") + "\u00a0%") if lang == "fr" else value + "%"


def format_decimal(value: Fraction | float, lang: str, places: int = 2) -> str:
    """A number with ``places`` decimals (0 or more): ``3,49`` in French, ``3.49`` otherwise."""
    text = f"{float(value):.{places}f}"
    return text.replace(".", ",") if lang == "fr" else text


def is_short_fraction(value: Fraction) -> bool:
    """Whether ``value``'s numerator and denominator both have at most `SHORT_DIGITS` digits."""
    return max(len(str(abs(value.numerator))), len(str(value.denominator))) <= SHORT_DIGITS
