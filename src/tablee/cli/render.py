"""Pure text rendering for the command line: every function returns text, none prints.

What a game shows is drawn by `tablee.cli.report` from the game's own data; this module holds
the pieces every command shares: an exact fraction as text and a line of the log.

Source: docs/architecture.md, "Layers" (the command line renders; only its outer layer prints).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tablee.errors import N_
from tablee.locale.numbers import SHORT_DIGITS, is_short_fraction
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = ["EXACT_IN_JSON", "SHORT_DIGITS", "event_line", "exact_text", "fraction_text"]

Translate = Callable[[str], str]


def fraction_text(p: Fraction) -> str:
    """An exact probability as ``"n/d"``."""
    return f"{p.numerator}/{p.denominator}"


EXACT_IN_JSON = N_("exact fraction: see --json")


def exact_text(value: Fraction, tr: Translate | None = None) -> str:
    """An exact value for TEXT output: ``"n/d"`` when short, else a pointer to ``--json``.

    Every odds text output writes its exact fractions through this function, so that a
    40-digit fraction (a gang fight's odds) never floods the terminal. JSON documents keep
    the exact fraction (`fraction_text`) whatever its length.

    Args:
        value: the exact probability or expectation.
        tr: the translation of the pointer (English when None).

    Returns:
        ``"n/d"`` if numerator and denominator have at most `SHORT_DIGITS` digits each,
        else the translated "exact fraction: see --json".
    """
    if is_short_fraction(value):
        return fraction_text(value)
    return (tr or str)(EXACT_IN_JSON)


def event_line(event: StoredEvent, tr: Translate, state: TableState[Any]) -> str:
    """One line for the log: sequence number, time and summary; undone events marked."""
    from tablee.table.transcript import describe

    mark = " " + tr("(undone)") if event.seq in state.voided else ""
    when = event.created_at.strftime("%Y-%m-%d %H:%M:%S")
    return f"{event.seq:>4}  {when}  {describe(event, tr, state)}{mark}"
