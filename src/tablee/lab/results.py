"""What a lab question answers: figures, exact or estimated, with the charts drawn from them.

A `LabResult` is a table: `columns` say what each cell of a row holds (an input of the
question, or a measure), `rows` hold the cells. A measure's cell is an exact
`fractions.Fraction` (a probability or an expected value) or an `Estimate` from a simulation
(its mean and 95% confidence interval, the trials behind it). Nothing here draws: charts and
reports read these (`tablee.lab.charts`, `tablee.lab.report`), and `to_json` / `to_csv` write
every figure.

Source: docs/architecture.md, "The designer's lab".
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from tablee.errors import N_, InputError, Message

__all__ = [
    "STOPPED_COLUMN",
    "Cell",
    "Chart",
    "Column",
    "Estimate",
    "LabResult",
    "Label",
    "Policy",
    "Variant",
    "label_text",
    "mean_estimate",
    "proportion_estimate",
    "stopped_text",
    "to_csv",
    "to_json",
]

Z_95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% confidence interval."""


@dataclass(frozen=True)
class Estimate:
    """A simulated figure: its point estimate and 95% confidence interval.

    Attributes:
        value: the point estimate (a proportion 0 to 1, or a mean).
        low, high: the 95% confidence interval, ``low <= value <= high``.
        trials: the number of independent trials behind it, at least 1.
        exact: the exact figure, when one is known (shown beside the estimate, marked as
            exact); None otherwise.

    Raises:
        InputError: ``low <= value <= high`` does not hold, or ``trials < 1``.
    """

    value: float
    low: float
    high: float
    trials: int
    exact: Fraction | None = None

    def __post_init__(self) -> None:
        if self.trials < 1:
            raise InputError(N_("an estimate needs at least one trial, not {n}"), n=self.trials)
        if not (self.low - 1e-12 <= self.value <= self.high + 1e-12):
            raise InputError(
                N_("the interval {low}..{high} does not hold the estimate {value}"),
                low=self.low,
                high=self.high,
                value=self.value,
            )

    def covers(self, figure: float | Fraction) -> bool:
        """Whether ``figure`` lies within the confidence interval."""
        return self.low - 1e-12 <= float(figure) <= self.high + 1e-12


def proportion_estimate(successes: int, trials: int, exact: Fraction | None = None) -> Estimate:
    """The proportion ``successes / trials`` with its Wilson score 95% interval.

    Args:
        successes: 0 to ``trials``.
        trials: at least 1.
        exact: the exact probability, when known.

    Raises:
        InputError: ``trials < 1`` or ``successes`` outside ``0..trials``.
    """
    if trials < 1 or not 0 <= successes <= trials:
        raise InputError(
            N_("{successes} successes out of {trials} trials is not a proportion"),
            successes=successes,
            trials=trials,
        )
    p = successes / trials
    z2 = Z_95 * Z_95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z_95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # at p = 0 or 1 one bound is p itself in exact arithmetic; in floating point it may land a
    # rounding error past p, so each bound is clamped to the proportion (and to 0..1)
    low = min(p, max(0.0, centre - half))
    high = max(p, min(1.0, centre + half))
    return Estimate(p, low, high, trials, exact)


def mean_estimate(
    total: float,
    total_of_squares: float,
    trials: int,
    exact: Fraction | None = None,
    *,
    within: tuple[float, float] | None = None,
) -> Estimate:
    """The mean of ``trials`` values from their sum and sum of squares, with a normal 95% interval.

    Args:
        total: the sum of the values.
        total_of_squares: the sum of their squares.
        trials: at least 1 (with one trial the interval is the single value).
        exact: the exact mean, when known.
        within: the bounds every value lies in, when known (``(0, 1)`` for a share of a
            session's rolls). The interval is then kept within them, and when every value
            sat on one bound (no spread to measure: a normal interval would be that single
            point) it reaches as far towards the other bound as the exact binomial 95%
            bound for "no trial left that bound" allows, ``1 - 0.025 ** (1 / trials)`` of
            the way: 0 in 400 sessions reads 0 [0, 0.9%], not 0 [0, 0].

    Raises:
        InputError: ``trials < 1``.
    """
    if trials < 1:
        raise InputError(N_("an estimate needs at least one trial, not {n}"), n=trials)
    mean = total / trials
    if trials == 1:
        low = high = mean
    else:
        variance = max(0.0, (total_of_squares - trials * mean * mean) / (trials - 1))
        half = Z_95 * math.sqrt(variance / trials)
        low, high = mean - half, mean + half
    if within is not None:
        bottom, top = within
        reach = (top - bottom) * (1 - 0.025 ** (1 / trials))
        if math.isclose(mean, bottom, abs_tol=1e-12) and high - low < 1e-12:
            high = bottom + reach
        elif math.isclose(mean, top, abs_tol=1e-12) and high - low < 1e-12:
            low = top - reach
        low, high = max(bottom, low), min(top, high)
    return Estimate(mean, min(low, mean), max(high, mean), trials, exact)


Label = str | Message
"""What a reader sees of a column, chart, policy or variant: an English template marked with
`N_`, or a `Message` built from several (a variant that sets two house rules names both)."""


def label_text(label: Label, translate: Callable[[str], str] = lambda s: s) -> str:
    """``label`` in the language of ``translate`` (English by default)."""
    if isinstance(label, Message):
        return label.render(translate)
    return translate(label) if label else ""


Cell = bool | int | str | Fraction | Estimate | None
"""One cell of a row: an input (a yes or no, a count or a word), an exact figure, an
estimate, or none (a figure that does not exist for that row)."""


@dataclass(frozen=True)
class Column:
    """One column of a lab table.

    Attributes:
        key: its name in CSV and JSON (``bonus``, ``p_success``), lower case with underscores.
        label: what a reader sees, in English, marked with `N_` (translated when shown).
        role: ``input`` (a coordinate of the question: counts, thresholds, a house rule's
            name) or ``measure`` (a figure: probability, mean, count).
        percent: a measure that is a probability (drawn as a percentage).
    """

    key: str
    label: Label
    role: Literal["input", "measure"] = "measure"
    percent: bool = False


ChartKind = Literal["heatmap", "lines", "bars"]


@dataclass(frozen=True)
class Chart:
    """A chart to draw from a result's rows.

    Attributes:
        kind: ``heatmap`` (``x`` by ``y``, coloured by ``value``), ``lines`` (``value`` over
            ``x``, one line per value of ``series``), ``bars`` (``value`` per ``x``, grouped by
            ``series``).
        title: in English, marked with `N_`; ``{...}`` fields filled from ``where``.
        x: the key of the column along the horizontal axis.
        value: the key of the measure drawn.
        y: the heatmap's vertical column key (empty for other kinds).
        series: the column whose values make the lines or groups (a house rule, a policy);
            empty for one series.
        where: only the rows whose cells equal these (``{"threshold": 4}``), for a chart of
            one slice of the table.
    """

    kind: ChartKind
    title: Label
    x: str
    value: str
    y: str = ""
    series: str = ""
    where: Mapping[str, object] = field(default_factory=dict)

    def rows(self, result: LabResult) -> list[Mapping[str, Cell]]:
        """The rows of ``result`` this chart draws."""
        return [row for row in result.rows if all(row.get(k) == v for k, v in self.where.items())]


@dataclass(frozen=True)
class Policy:
    """A named rule for a choice that a player or the game master makes in a simulation.

    Attributes:
        name: its id (``greedy``, ``never``), as typed on the command line.
        label: a short description, in English, marked with `N_`.
        settings: its parameters and their values (``{"ask_bonus_below": 3}``).
    """

    name: str
    label: Label
    settings: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Variant:
    """A house-rule setting compared in a result (drawn as its own series).

    Attributes:
        name: the value written in the rows' series column (``literal``, ``up``).
        label: what a reader sees, in English, marked with `N_`.
        options: the game's house-rule options it sets (``{"sentêter": "keep_all"}``).
    """

    name: str
    label: Label
    options: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class LabResult:
    """The answer to one lab question.

    Attributes:
        question: the question's id, ``GAME/NAME`` (``pouyss/levels``).
        title: in English, marked with `N_`.
        columns: the columns, inputs first.
        rows: one mapping of column key -> `Cell` per row.
        charts: the charts to draw.
        inputs: the question's fields as given (name -> value), for replay.
        policies: every policy the simulated choices followed (empty for exact tables).
        variants: the house rules compared (empty when none).
        seed: the seed of a simulation (None for exact tables); the same question with the
            same inputs and seed gives the same figures.
        trials: trials per simulated figure (0 for exact tables).
        exact: every figure is exact.
        stopped: the run was stopped (Ctrl+C) before its end; the rows hold what was done.
        notes: sentences for the reader, in English, marked with `N_`.
    """

    question: str
    title: Label
    columns: tuple[Column, ...]
    rows: tuple[Mapping[str, Cell], ...]
    charts: tuple[Chart, ...] = ()
    inputs: Mapping[str, object] = field(default_factory=dict)
    policies: tuple[Policy, ...] = ()
    variants: tuple[Variant, ...] = ()
    seed: int | None = None
    trials: int = 0
    exact: bool = True
    stopped: bool = False
    notes: tuple[Label, ...] = ()

    def column(self, key: str) -> Column:
        """The column named ``key``.

        Raises:
            KeyError: no such column.
        """
        for column in self.columns:
            if column.key == key:
                return column
        raise KeyError(key)


def _cell_json(cell: Cell) -> object:
    """A cell as JSON: a fraction as ``{"exact": "1/6", "value": 0.1666...}``."""
    if isinstance(cell, Fraction):
        return {"exact": str(cell), "value": float(cell)}
    if isinstance(cell, Estimate):
        out: dict[str, object] = {
            "value": cell.value,
            "low": cell.low,
            "high": cell.high,
            "trials": cell.trials,
        }
        if cell.exact is not None:
            out["exact"] = str(cell.exact)
        return out
    return cell


def to_json(result: LabResult) -> dict[str, Any]:
    """Every figure of ``result`` as JSON-ready data (English labels; exact fractions as text)."""
    return {
        "question": result.question,
        "title": label_text(result.title),
        "exact": result.exact,
        "stopped": result.stopped,
        "seed": result.seed,
        "trials": result.trials,
        "inputs": dict(result.inputs),
        "policies": [
            {"name": p.name, "label": label_text(p.label), "settings": dict(p.settings)}
            for p in result.policies
        ],
        "variants": [
            {"name": v.name, "label": label_text(v.label), "options": dict(v.options)}
            for v in result.variants
        ],
        "columns": [
            {"key": c.key, "label": label_text(c.label), "role": c.role, "percent": c.percent}
            for c in result.columns
        ],
        "rows": [{k: _cell_json(v) for k, v in row.items()} for row in result.rows],
        "notes": [label_text(note) for note in result.notes],
    }


def _csv_cells(column: Column, cell: Cell, width: int) -> list[object]:
    """A cell's CSV fields: 1 for an input, else ``width`` (2 for an exact result, else 5)."""
    if column.role == "input":
        return [cell]
    if isinstance(cell, Fraction):
        fields: list[object] = [float(cell), str(cell), "", "", ""]
    elif isinstance(cell, Estimate):
        exact = "" if cell.exact is None else str(cell.exact)
        fields = [cell.value, exact, cell.low, cell.high, cell.trials]
    else:
        fields = [cell, "", "", "", ""]
    return fields[:width]


STOPPED_COLUMN = "stopped"
"""The last CSV column of a stopped run (`to_csv`); a finished run's CSV has none."""


def stopped_text(result: LabResult, lang: str = "en") -> str:
    """What a stopped run's CSV says in its `STOPPED_COLUMN`, in the reader's language.

    Example: ``stopped before its end: 20 trials per figure`` (French: ``calcul arrêté
    avant la fin : 20 essais par chiffre``).

    Raises:
        ValueError: ``lang`` is not ``fr`` or ``en``.
    """
    from tablee.errors import Plural
    from tablee.locale import translation

    return Plural(
        "stopped before its end: {n} trial per figure",
        "stopped before its end: {n} trials per figure",
        result.trials,
    ).render(translation(lang).gettext)


def to_csv(result: LabResult, columns: Sequence[Column] | None = None, *, lang: str = "en") -> str:
    """Every row of ``result`` as CSV text.

    An input column is one CSV column; a measure is five: ``KEY`` (the value as a decimal),
    ``KEY_exact`` (the exact fraction, when there is one), ``KEY_low``, ``KEY_high`` (the 95%
    interval of an estimate) and ``KEY_trials``; in an exact result (`LabResult.exact`: no
    estimate) only the first two, the others being always empty.

    A run stopped before its end (`LabResult.stopped`) has one column more, the last:
    ``stopped`` (`STOPPED_COLUMN`), whose every cell says so in the reader's language with
    the trials done (`stopped_text`: ``stopped before its end: 20 trials per figure``). A
    column rather than a line above or under the rows: every row keeps the same fields, so
    a CSV reader (Python's ``csv``, pandas, a spreadsheet) reads the figures as before, a
    spreadsheet shows the words beside them, and a row copied elsewhere still says it. A
    finished run's CSV has no such column.

    Args:
        result: the result to write.
        columns: the columns to write, in order (default: all of them).
        lang: ``fr`` or ``en``, the language of the ``stopped`` cells; the header is the
            columns' keys in either language.

    Raises:
        ValueError: ``lang`` is not ``fr`` or ``en``.
    """
    chosen = tuple(columns or result.columns)
    stopped = [stopped_text(result, lang)] if result.stopped else []
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    parts = ("exact",) if result.exact else ("exact", "low", "high", "trials")
    header: list[str] = []
    for column in chosen:
        if column.role == "input":
            header.append(column.key)
        else:
            header += [column.key] + [f"{column.key}_{s}" for s in parts]
    writer.writerow(header + [STOPPED_COLUMN] * len(stopped))
    for row in result.rows:
        line: list[object] = []
        for column in chosen:
            line += _csv_cells(column, row.get(column.key), 1 + len(parts))
        writer.writerow(line + stopped)
    return out.getvalue()
