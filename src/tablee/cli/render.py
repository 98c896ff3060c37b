"""Pure text rendering for the command line: every ``format_*`` returns text, none prints.

Human text uses Rich console markup (colours); the outer layer decides whether to colour it.
JSON documents are built by the ``*_json`` functions as plain dicts.

Source: docs/architecture.md, "Layers" (pure ``format_*`` functions return text, only the
outer layer prints): what a roll shows, odds with a bar chart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tablee.dice import Distribution, TraceStep
from tablee.errors import N_
from tablee.locale.numbers import SHORT_DIGITS, format_decimal, format_percent, is_short_fraction
from tablee.systems.pouyss import Level
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "EXACT_IN_JSON",
    "LEVEL_STYLE",
    "SHORT_DIGITS",
    "bar",
    "decimal",
    "distribution_json",
    "exact_text",
    "format_distribution",
    "format_level",
    "format_trace",
    "fraction_text",
    "percent",
]

Translate = Callable[[str], str]

LEVEL_STYLE: Mapping[Level, str] = {
    Level.DESASTRE: "bold red",
    Level.DEFAITE: "red",
    Level.REVERS: "yellow",
    Level.SUCCES: "green",
    Level.VICTOIRE: "bold green",
    Level.TRIOMPHE: "bold magenta",
}


percent = format_percent
"""A probability as a percentage in the language's format (`tablee.locale.numbers`)."""


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


def bar(p: Fraction, width: int = 30) -> str:
    """A probability as a bar of ``█``, ``width`` of them for certainty (rounded)."""
    return "█" * round(float(p) * width)


decimal = format_decimal
"""A number with ``places`` decimals in the language's format (`tablee.locale.numbers`)."""


def format_level(level: Level) -> str:
    """A level's game name, coloured."""
    return f"[{LEVEL_STYLE[level]}]{level.title}[/]"


def format_trace(steps: Sequence[TraceStep], tr: Translate) -> str:
    """The steps of a resolution, one per line, translated."""
    return "\n".join(f"  · {step.render(tr)}" for step in steps)


def distribution_json(dist: Distribution[int]) -> list[dict[str, Any]]:
    """A value distribution as the odds format: ``{outcome, value, probability, percent}``.

    ``outcome`` is the level id, ``probability`` the exact fraction as ``"n/d"`` and
    ``percent`` a float rounded to 4 decimals (for display only). Values 6 down to 1.
    """
    rows = []
    for value in range(6, 0, -1):
        p = dist.probability(value)
        rows.append(
            {
                "outcome": Level(value).id,
                "value": value,
                "probability": fraction_text(p),
                "percent": round(float(p) * 100, 4),
            }
        )
    return rows


def format_distribution(
    dist: Distribution[int], lang: str, width: int = 30, tr: Translate | None = None
) -> str:
    """A bar chart of a value distribution, best level first, with exact fractions.

    Fractions follow `exact_text` (shown when short, else pointed to ``--json``).
    """
    lines = []
    for value in range(6, 0, -1):
        level = Level(value)
        p = dist.probability(value)
        lines.append(
            f"  {value} [{LEVEL_STYLE[level]}]{level.title:<9} {bar(p, width):<{width}}[/] "
            f"{percent(p, lang):>8}  ({exact_text(p, tr)})"
        )
    return "\n".join(lines)


def event_line(event: StoredEvent, tr: Translate, state: TableState) -> str:
    """One line for the log: sequence number, time and summary; undone events marked."""
    from tablee.table.transcript import describe

    mark = " " + tr("(undone)") if event.seq in state.voided else ""
    when = event.created_at.strftime("%Y-%m-%d %H:%M:%S")
    return f"{event.seq:>4}  {when}  {describe(event, tr, state)}{mark}"
