"""The charts of a lab result, drawn with matplotlib as SVG and PNG.

Every `Chart` of a `LabResult` is drawn from the result's rows, never computed: a
``heatmap`` colours ``x`` by ``y`` cells by the measure and writes each cell's figure in it
(a percentage for a probability), ``lines`` and ``bars`` draw one series per value of the
chart's ``series`` column. An estimate is drawn with its 95% interval (a band around a line,
an error bar on a bar) and its exact figure, when known, is marked beside it (a black
cross); an exact figure is drawn as it is. Labels are translated (French and English) and
numbers written in the reader's format (``33,3 %`` in French, `tablee.errors.Number`).

Colours come from viridis (heatmaps) and cividis (series): both stay readable in grey and
to the common colour-vision deficiencies. A chart is 6.4 inches wide, drawn at 125 dots per
inch: 800 pixels for the PNG, its fonts readable at that width and shrunk to a phone's.

matplotlib is imported when a chart is first drawn, never by ``import tablee.lab``, and
only its object-oriented API with the Agg canvas is used (no ``pyplot``, no global figure
state), so charts may be drawn from several threads. The SVG is deterministic: its element
ids come from a fixed salt (``svg.hashsalt``) and no date is written, so the same result in
the same language gives the same bytes.

Source: docs/architecture.md, "The designer's lab".
"""

from __future__ import annotations

import io
import math
import re
import textwrap
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tablee.errors import N_, Number
from tablee.lab.results import Cell, Chart, Estimate, Label, LabResult, label_text
from tablee.locale import translation

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "DPI",
    "WIDTH_INCHES",
    "DrawnChart",
    "chart_png",
    "chart_slug",
    "chart_svg",
    "chart_title",
    "draw_all",
]

Tr = Callable[[str], str]

WIDTH_INCHES = 6.4
"""A chart's width in inches (800 pixels at `DPI`). Narrow on purpose: the text keeps a
larger share of the width, so a chart shrunk to a phone's screen stays readable."""

DPI = 125
"""Dots per inch of the PNG: `WIDTH_INCHES` * `DPI` = 800 pixels."""

TITLE_CHARACTERS = 52
"""A chart's title is wrapped after this many characters (a line of its bold type fits the
chart's width)."""

LEGEND_CHARACTERS = 80
"""A legend's label is wrapped after this many characters (a line of its type fits the
chart's width)."""

LEGEND_LINE_INCHES = 0.2
"""The height a chart grows by for each line of its legend (drawn under the plot)."""

SVG_SALT = "tablee-lab"
"""The fixed salt of the SVG's element ids (deterministic output)."""

EXACT_MARK = N_("exact figure")
"""The legend of the crosses marking exact figures beside estimates."""

INTERVAL = N_("confidence interval at 95 percent")
"""The legend of the intervals drawn around estimates."""

NO_FIGURES = N_("No figures to draw.")
"""What an empty chart says (a run stopped before its first figure)."""


@dataclass(frozen=True)
class DrawnChart:
    """One chart of a result, drawn.

    Attributes:
        slug: a file name without extension, unique within the result (``1-chance-of-a-success``).
        title: the chart's title in the reader's language.
        svg: the SVG document (UTF-8 bytes).
        png: the PNG image (bytes), `WIDTH_INCHES` * `DPI` pixels wide.
    """

    slug: str
    title: str
    svg: bytes
    png: bytes


class _Fill(dict[str, object]):
    """A ``format_map`` mapping that leaves unknown ``{fields}`` as they are written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def chart_title(chart: Chart, tr: Tr) -> str:
    """The chart's title in the reader's language, its ``{fields}`` filled from ``where``."""
    return label_text(chart.title, tr).format_map(_Fill(chart.where))


def chart_slug(index: int, chart: Chart) -> str:
    """A file name for the chart (no extension): its rank from 1 and its English title.

    Example: ``chart_slug(0, Chart("heatmap", "Chance of a success", ...))`` is
    ``1-chance-of-a-success``.
    """
    title = unicodedata.normalize("NFKD", label_text(chart.title).format_map(_Fill(chart.where)))
    words = re.sub(r"[^a-z0-9]+", "-", title.encode("ascii", "ignore").decode().lower())
    return f"{index + 1}-{words.strip('-')[:60] or 'chart'}"


def _number(value: float, tr: Tr, *, percent: bool, places: int) -> str:
    """A figure in the reader's format (``33,3 %``, ``3,49``); nan as an empty text."""
    if math.isnan(value):
        return ""
    if percent:  # a possible chance never reads 0%, nor an uncertain one 100%
        unit = 10.0 ** -(places + 2)
        if 0 < value < unit / 2:
            return "<" + _number(unit, tr, percent=True, places=places)
        if 1 - unit / 2 <= value < 1:
            return ">" + _number(1 - unit, tr, percent=True, places=places)
    return Number(Fraction(value).limit_denominator(10**12), places, percent=percent).render(tr)


def _figure(cell: Cell) -> float:
    """The point value of a cell to draw (nan when there is none)."""
    if isinstance(cell, Estimate):
        return cell.value
    if isinstance(cell, Fraction | int) and not isinstance(cell, bool):
        return float(cell)
    return math.nan


def _ordered(values: Sequence[Cell]) -> list[Cell]:
    """The distinct values of a column, sorted when they are all numbers, else as first met."""
    seen: list[Cell] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    if all(isinstance(v, int | Fraction) for v in seen):
        return sorted(seen, key=lambda v: float(v))  # type: ignore[arg-type]
    return seen


def _named(result: LabResult) -> list[tuple[str, Label]]:
    """The ``(name, label)`` of the result's house-rule variants and policies."""
    return [(v.name, v.label) for v in result.variants] + [
        (p.name, p.label) for p in result.policies
    ]


def _shown(value: Cell, result: LabResult, tr: Tr) -> str:
    """How a coordinate is written: a variant's or policy's label for its name, else as is."""
    for name, label in _named(result):
        if name == value:
            return label_text(label, tr)
    if isinstance(value, Fraction):
        return _number(float(value), tr, percent=False, places=2)
    return "" if value is None else str(value)


def _label(result: LabResult, key: str, tr: Tr) -> str:
    try:
        return label_text(result.column(key).label, tr)
    except KeyError:
        return key


def _percent(result: LabResult, key: str) -> bool:
    try:
        return result.column(key).percent
    except KeyError:
        return False


def _figure_canvas(height: float) -> Figure:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_INCHES, height), dpi=DPI, layout="constrained")
    return figure


def _axis_formatter(percent: bool, tr: Tr) -> Any:
    from matplotlib.ticker import FuncFormatter

    def text(value: float, _position: object) -> str:
        if percent:
            decimals = f"{value * 100:.1f}".rstrip("0").partition(".")[2]
            return _number(value, tr, percent=True, places=len(decimals))
        decimals = f"{value:.2f}".rstrip("0").partition(".")[2]
        return _number(value, tr, percent=False, places=len(decimals))

    return FuncFormatter(text)


def _heatmap(figure: Figure, result: LabResult, chart: Chart, tr: Tr) -> None:
    import numpy as np

    rows = chart.rows(result)
    xs = _ordered([row.get(chart.x) for row in rows])
    ys = _ordered([row.get(chart.y) for row in rows])
    grid = np.full((len(ys), len(xs)), np.nan)
    for row in rows:
        grid[ys.index(row.get(chart.y)), xs.index(row.get(chart.x))] = _figure(row.get(chart.value))
    axes = figure.add_subplot()
    percent = _percent(result, chart.value)
    finite = grid[np.isfinite(grid)]
    low = float(finite.min()) if finite.size else 0.0
    high = float(finite.max()) if finite.size else 1.0
    if high <= low:
        high = low + 1.0
    image = axes.imshow(grid, cmap="viridis", origin="lower", aspect="auto", vmin=low, vmax=high)
    bar = figure.colorbar(image, ax=axes, shrink=0.9)
    bar.ax.yaxis.set_major_formatter(_axis_formatter(percent, tr))
    bar.set_label(_label(result, chart.value, tr))
    cells = len(xs) * len(ys)
    size = 10 if cells <= 49 else 8 if cells <= 100 else 6
    places = 0 if cells > 100 else 1
    for (j, i), value in np.ndenumerate(grid):
        if math.isnan(value):
            continue
        shade = (value - low) / (high - low)
        axes.text(
            i,
            j,
            _number(float(value), tr, percent=percent, places=places if percent else 2),
            ha="center",
            va="center",
            fontsize=size,
            color="black" if shade > 0.55 else "white",
        )
    axes.set_xticks(range(len(xs)), [_shown(x, result, tr) for x in xs])
    axes.set_yticks(range(len(ys)), [_shown(y, result, tr) for y in ys])
    axes.set_xlabel(_label(result, chart.x, tr))
    axes.set_ylabel(_label(result, chart.y, tr))


def _series(result: LabResult, chart: Chart) -> list[tuple[Cell, list[Mapping[str, Cell]]]]:
    rows = chart.rows(result)
    if not chart.series:
        return [(None, rows)]
    values = _ordered([row.get(chart.series) for row in rows])
    return [(v, [row for row in rows if row.get(chart.series) == v]) for v in values]


def _series_name(result: LabResult, chart: Chart, value: Cell, tr: Tr) -> str:
    shown = _shown(value, result, tr)
    if any(name == value for name, _label in _named(result)):
        return shown
    return f"{_label(result, chart.series, tr)} = {shown}"


def _colours(count: int) -> list[Any]:
    from matplotlib import colormaps

    cividis = colormaps["cividis"]
    if count <= 1:
        return [cividis(0.15)]
    return [cividis(0.05 + 0.8 * k / (count - 1)) for k in range(count)]


def _positions(result: LabResult, chart: Chart) -> tuple[list[Cell], bool]:
    """The values along x, and whether they are numbers (drawn at their value)."""
    xs = _ordered([row.get(chart.x) for row in chart.rows(result)])
    numeric = all(isinstance(v, int | Fraction) for v in xs)
    return xs, numeric


def _exact_of(cell: Cell) -> float:
    if isinstance(cell, Estimate) and cell.exact is not None:
        return float(cell.exact)
    return math.nan


def _lines(figure: Figure, result: LabResult, chart: Chart, tr: Tr) -> bool:
    """Draw the lines; whether any estimate (with its interval) was drawn."""
    axes = figure.add_subplot()
    xs, numeric = _positions(result, chart)
    groups = _series(result, chart)
    estimated = exact_marked = False
    for colour, (value, rows) in zip(_colours(len(groups)), groups, strict=True):
        rows = sorted(rows, key=lambda r: xs.index(r.get(chart.x)))
        at = [
            float(r[chart.x]) if numeric else xs.index(r.get(chart.x))  # type: ignore[arg-type]
            for r in rows
        ]
        cells = [r.get(chart.value) for r in rows]
        label = (
            None if value is None and not chart.series else _series_name(result, chart, value, tr)
        )
        axes.plot(at, [_figure(c) for c in cells], marker="o", color=colour, label=label)
        if any(isinstance(c, Estimate) for c in cells):
            estimated = True
            axes.fill_between(
                at,
                [c.low if isinstance(c, Estimate) else math.nan for c in cells],
                [c.high if isinstance(c, Estimate) else math.nan for c in cells],
                color=colour,
                alpha=0.25,
                linewidth=0,
            )
        exact = [_exact_of(c) for c in cells]
        if any(not math.isnan(e) for e in exact):
            exact_marked = True
            axes.plot(at, exact, linestyle="none", marker="x", color="black", markersize=7)
    if not numeric:
        axes.set_xticks(range(len(xs)), [_shown(x, result, tr) for x in xs])
    elif all(isinstance(x, int) for x in xs) and len(xs) <= 20:
        axes.set_xticks([float(x) for x in xs])  # type: ignore[arg-type]
    _finish(axes, result, chart, tr, estimated, exact_marked, len(groups) > 1)
    return estimated


def _bars(figure: Figure, result: LabResult, chart: Chart, tr: Tr) -> bool:
    """Draw grouped bars; whether any estimate (with its interval) was drawn."""
    axes = figure.add_subplot()
    xs, _numeric = _positions(result, chart)
    groups = _series(result, chart)
    width = 0.8 / max(1, len(groups))
    estimated = exact_marked = False
    for k, (colour, (value, rows)) in enumerate(zip(_colours(len(groups)), groups, strict=True)):
        at = [xs.index(r.get(chart.x)) - 0.4 + width * (k + 0.5) for r in rows]
        cells = [r.get(chart.value) for r in rows]
        heights = [_figure(c) for c in cells]
        errors = None
        if any(isinstance(c, Estimate) for c in cells):
            estimated = True
            # an estimate's bounds may lie a rounding error inside its value (`Estimate`
            # allows 1e-12): matplotlib refuses a negative error bar, so each is 0 at least
            errors = [
                [
                    max(0.0, h - c.low) if isinstance(c, Estimate) else 0.0
                    for c, h in zip(cells, heights, strict=True)
                ],
                [
                    max(0.0, c.high - h) if isinstance(c, Estimate) else 0.0
                    for c, h in zip(cells, heights, strict=True)
                ],
            ]
        label = (
            None if value is None and not chart.series else _series_name(result, chart, value, tr)
        )
        axes.bar(at, heights, width=width * 0.92, color=colour, label=label, yerr=errors, capsize=3)
        exact = [_exact_of(c) for c in cells]
        if any(not math.isnan(e) for e in exact):
            exact_marked = True
            axes.plot(at, exact, linestyle="none", marker="x", color="black", markersize=7)
    axes.set_xticks(range(len(xs)), [_shown(x, result, tr) for x in xs])
    _finish(axes, result, chart, tr, estimated, exact_marked, len(groups) > 1)
    return estimated


def _finish(
    axes: Axes,
    result: LabResult,
    chart: Chart,
    tr: Tr,
    estimated: bool,
    exact_marked: bool,
    several: bool,
) -> None:
    """Axis labels, the value axis's format, the grid and the legend (series, marks)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    axes.set_xlabel(_label(result, chart.x, tr))
    axes.set_ylabel(_label(result, chart.value, tr))
    axes.yaxis.set_major_formatter(_axis_formatter(_percent(result, chart.value), tr))
    axes.grid(True, axis="y", alpha=0.3)
    axes.set_axisbelow(True)
    handles, labels = axes.get_legend_handles_labels()
    if estimated:
        handles.append(Patch(color="grey", alpha=0.3))
        labels.append(tr(INTERVAL))
    if exact_marked:
        handles.append(Line2D([], [], linestyle="none", marker="x", color="black"))
        labels.append(tr(EXACT_MARK))
    if several or estimated or exact_marked:
        # under the plot, never over the data: a series' label may be a whole sentence (a
        # policy's), wrapped to the chart's width; the chart grows by the legend's lines
        wrapped = [textwrap.fill(label, LEGEND_CHARACTERS) for label in labels]
        columns = 2 if len(wrapped) > 3 and all(len(w) <= 34 for w in wrapped) else 1
        from matplotlib.figure import Figure as Drawn

        figure = axes.get_figure(root=True)
        assert isinstance(figure, Drawn)  # an axes of `_figure_canvas`
        figure.legend(
            handles, wrapped, fontsize=9, loc="outside lower center", frameon=False, ncols=columns
        )
        lines = sum(w.count("\n") + 1 for w in wrapped)
        figure.set_figheight(figure.get_figheight() + LEGEND_LINE_INCHES * -(-lines // columns))


def _figure_of(result: LabResult, chart: Chart, lang: str) -> Figure:
    tr: Tr = translation(lang).gettext
    height = 4.9 if chart.kind == "heatmap" else 4.2
    figure = _figure_canvas(height)
    title = textwrap.fill(chart_title(chart, tr), TITLE_CHARACTERS, break_on_hyphens=False)
    figure.suptitle(title, fontsize=13, fontweight="bold")
    if not chart.rows(result):
        axes = figure.add_subplot()
        axes.set_axis_off()
        axes.text(0.5, 0.5, tr(NO_FIGURES), ha="center", va="center", fontsize=12)
    elif chart.kind == "heatmap":
        _heatmap(figure, result, chart, tr)
    elif chart.kind == "lines":
        _lines(figure, result, chart, tr)
    else:
        _bars(figure, result, chart, tr)
    return figure


RC: dict[str, Any] = {
    "svg.hashsalt": SVG_SALT,
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
"""The matplotlib settings of every chart (the SVG's salt, a font shipped with matplotlib)."""


def _saved(result: LabResult, chart: Chart, lang: str, form: str) -> bytes:
    from matplotlib import rc_context

    with rc_context(RC):  # type: ignore[arg-type]
        figure = _figure_of(result, chart, lang)
        out = io.BytesIO()
        metadata: dict[str, Any] = {"Date": None} if form == "svg" else {"Software": None}
        figure.savefig(out, format=form, dpi=DPI, metadata=metadata, facecolor="white")
    return out.getvalue()


def chart_svg(result: LabResult, chart: Chart, lang: str = "en") -> bytes:
    """One chart as an SVG document, the same bytes for the same result and language.

    Args:
        result: the result whose rows are drawn.
        chart: one of ``result.charts``.
        lang: ``fr`` or ``en``.

    Raises:
        ValueError: ``lang`` is not ``fr`` or ``en``.
    """
    return _saved(result, chart, lang, "svg")


def chart_png(result: LabResult, chart: Chart, lang: str = "en") -> bytes:
    """One chart as a PNG image, 800 pixels wide (`WIDTH_INCHES` * `DPI`).

    Raises:
        ValueError: ``lang`` is not ``fr`` or ``en``.
    """
    return _saved(result, chart, lang, "png")


def draw_all(result: LabResult, lang: str = "en", *, png: bool = True) -> list[DrawnChart]:
    """Every chart of ``result``, in order, as SVG (and PNG unless ``png`` is False).

    Raises:
        ValueError: ``lang`` is not ``fr`` or ``en``.
    """
    tr: Tr = translation(lang).gettext
    return [
        DrawnChart(
            chart_slug(i, chart),
            chart_title(chart, tr),
            chart_svg(result, chart, lang),
            chart_png(result, chart, lang) if png else b"",
        )
        for i, chart in enumerate(result.charts)
    ]
