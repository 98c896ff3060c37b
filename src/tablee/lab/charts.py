"""The charts of a lab result, drawn with matplotlib as SVG and PNG.

Every `Chart` of a `LabResult` is drawn from the result's rows, never computed: a
``heatmap`` colours ``x`` by ``y`` cells by the measure and writes each cell's figure in it
(a percentage for a probability), ``lines`` and ``bars`` draw one series per value of the
chart's ``series`` column. An estimate is drawn with its 95% interval (a band around a line,
an error bar on a bar) and its exact figure, when known, is marked beside it (a black
cross); an exact figure is drawn as it is. Labels are translated (French and English) and
numbers written in the reader's format (``33,3 %`` in French, `tablee.errors.Number`).

Colours come from viridis (heatmaps) and cividis (series): both stay readable in grey and
to the common colour-vision deficiencies. A chart is drawn for the width it is read at: 4
inches (384 CSS pixels), about what a phone gives a chart (348 pixels of a 390-pixel screen)
and what a laptop's lab page gives each of its two columns (428 pixels at 1280), its
smallest text `SMALLEST_POINTS` (12 CSS pixels on that phone, 15 on that laptop). Every text
fits that width: titles and legends wrap, crowded tick labels wrap or slant, a line chart
ticks at most `MOST_TICKS` values, a heatmap's colour bar lies under it, and its cells'
figures shrink a little, then lose a decimal, when the cells are too narrow for them (and
are left out of cells too small for any). The PNG is drawn at 200 dots per inch: 800 pixels.

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
    "SMALLEST_POINTS",
    "WIDTH_INCHES",
    "DrawnChart",
    "chart_png",
    "chart_slug",
    "chart_svg",
    "chart_title",
    "draw_all",
]

Tr = Callable[[str], str]

WIDTH_INCHES = 4.0
"""A chart's width in inches: 288 points, 384 CSS pixels at its natural size (800 pixels
of PNG at `DPI`). Narrow on purpose: the width a phone shows it at (348 CSS pixels of a
390-pixel screen, 0.9 of it), so its text is read at about its own size there."""

DPI = 200
"""Dots per inch of the PNG: `WIDTH_INCHES` * `DPI` = 800 pixels."""

SMALLEST_POINTS = 10.0
"""The size of a chart's smallest text (ticks, legend, a heatmap's figures when they fit),
in points of its `WIDTH_INCHES`-wide drawing: 12.1 CSS pixels when a phone shows the chart
348 pixels wide, 14.9 at a laptop's 428."""

SMALLEST_CELL_POINTS = 9.5
"""The smallest a heatmap's figures are written (11.5 CSS pixels on that phone): in cells
too small for them (a heatmap of more than about 9 columns), the figures are left out and
the colour bar reads the colours (the table under the charts gives every figure)."""

TITLE_POINTS = 12.0
"""The size of a chart's title (bold), in points."""

TITLE_CHARACTERS = 36
"""A chart's title is wrapped after this many characters (a line of its bold type fits the
chart's width)."""

LEGEND_CHARACTERS = 46
"""A legend's label is wrapped after this many characters (a line of its type fits the
chart's width)."""

LEGEND_LINE_INCHES = 0.22
"""The height a chart grows by for each line of its legend (drawn under the plot)."""

MOST_TICKS = 8
"""A line chart over whole numbers ticks each of them up to this many, else fewer, evenly
spaced (a tick label needs room: the chart is narrow)."""

PLOT_POINTS = 230.0
"""About the width of a chart's plot, in points (the width less the value axis's labels):
what the tick labels along it are measured against."""

EM = 0.62
"""The width of most characters of the charts' font (DejaVu Sans: digits 0.64 em, most
letters 0.55 to 0.63), to judge whether a text fits; `_ems` counts the narrow ones (a
space, a comma: 0.32) and the wide ones (a percent sign: 0.95) apart."""

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


def _ems(text: str) -> float:
    """About how wide ``text`` is, in ems of the charts' font (for the widest of its lines)."""

    def line(part: str) -> float:
        narrow = sum(1 for c in part if c in ".,;:!|' \u00a0\u202filjt()[]")
        wide = sum(1 for c in part if c in "%<>=mwMW")
        return 0.32 * narrow + 0.95 * wide + EM * (len(part) - narrow - wide)

    return max((line(part) for part in text.split("\n")), default=0.0)


def _x_ticks(axes: Axes, at: Sequence[float], labels: Sequence[str]) -> None:
    """Tick labels along x that fit the chart: wrapped to the room each has, else slanted.

    Args:
        axes: the plot.
        at: the ticks' positions.
        labels: their texts, one per position.
    """
    room = PLOT_POINTS / max(1, len(labels))  # points of width each label may take
    chars = max(4, int(room / (SMALLEST_POINTS * EM)))
    wrapped = [
        textwrap.fill(label, chars, break_long_words=False, break_on_hyphens=False)
        for label in labels
    ]
    if all(_ems(text) * SMALLEST_POINTS <= room for text in wrapped):
        axes.set_xticks(at, wrapped)
        return
    slanted = [textwrap.fill(label, 20, break_long_words=False) for label in labels]
    axes.set_xticks(at, slanted, rotation=30, ha="right", rotation_mode="anchor")


def _cell_texts(
    grid: Any, percent: bool, tr: Tr, row_labels: Sequence[str], height: float
) -> tuple[list[list[str]], float]:
    """Each heatmap cell's figure and the type size they are written in.

    The figures are written at `SMALLEST_POINTS`, or as large as the widest fits its cell
    (the chart's width less the rows' labels, over the columns; ``height`` inches less the
    title, axis and colour bar, over the rows) down to `SMALLEST_CELL_POINTS`; below that,
    with one decimal fewer (a percentage with none), and else not at all.

    Returns:
        The texts by row and column, and their size in points; no texts (an empty list)
        when the cells are too small for any (the colour bar then reads the colours).
    """
    import numpy as np

    rows, columns = np.shape(grid)
    # the plot: the width less the rows' labels, the axis's title and the margins (60 points)
    plot = WIDTH_INCHES * 72 - 60 - SMALLEST_POINTS * max(map(_ems, row_labels), default=1.0)
    width = plot / max(1, columns)
    tall = max(1.0, (height * 72 - 110) / max(1, rows))
    texts: list[list[str]] = []
    size = SMALLEST_POINTS
    for places in (1, 0) if percent else (2, 1):
        texts = [
            [
                "" if math.isnan(v) else _number(float(v), tr, percent=percent, places=places)
                for v in line
            ]
            for line in np.asarray(grid)
        ]
        widest = max((_ems(t) for line in texts for t in line), default=1.0) or 1.0
        size = min(SMALLEST_POINTS, 0.92 * width / widest, 0.6 * tall)
        if size >= SMALLEST_CELL_POINTS:
            break
    if size < SMALLEST_CELL_POINTS:
        return [], 0.0
    return texts, round(size, 1)


def _heatmap(figure: Figure, result: LabResult, chart: Chart, tr: Tr) -> None:
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    rows = chart.rows(result)
    xs = _ordered([row.get(chart.x) for row in rows])
    ys = _ordered([row.get(chart.y) for row in rows])
    grid = np.full((len(ys), len(xs)), np.nan)
    for row in rows:
        grid[ys.index(row.get(chart.y)), xs.index(row.get(chart.x))] = _figure(row.get(chart.value))
    axes = figure.add_subplot()
    percent = _percent(result, chart.value)
    finite = grid[np.isfinite(grid)]
    if percent:  # a chance's colour means the same on every chart: 0% to 100%
        low, high = 0.0, 1.0
    else:
        low = float(finite.min()) if finite.size else 0.0
        high = float(finite.max()) if finite.size else 1.0
        if high <= low:
            high = low + 1.0
    image = axes.imshow(grid, cmap="viridis", origin="lower", aspect="auto", vmin=low, vmax=high)
    # under the plot, not beside it: the cells keep the chart's whole width for their figures
    bar = figure.colorbar(image, ax=axes, location="bottom", shrink=0.85, aspect=32)
    bar.ax.xaxis.set_major_formatter(_axis_formatter(percent, tr))
    bar.ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
    bar.set_label(_label(result, chart.value, tr))
    row_labels = [_shown(y, result, tr) for y in ys]
    texts, size = _cell_texts(grid, percent, tr, row_labels, figure.get_figheight())
    for (j, i), value in np.ndenumerate(grid):
        if math.isnan(value) or not texts:
            continue
        shade = (value - low) / (high - low)
        axes.text(
            i,
            j,
            texts[j][i],
            ha="center",
            va="center",
            fontsize=size,
            color="black" if shade > 0.55 else "white",
        )
    _x_ticks(axes, range(len(xs)), [_shown(x, result, tr) for x in xs])
    axes.set_yticks(range(len(ys)), row_labels)
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
        _x_ticks(axes, range(len(xs)), [_shown(x, result, tr) for x in xs])
    elif all(isinstance(x, int) for x in xs) and len(xs) <= MOST_TICKS:
        axes.set_xticks([float(x) for x in xs])  # type: ignore[arg-type]
    else:
        from matplotlib.ticker import MaxNLocator

        integer = all(isinstance(x, int) for x in xs)
        axes.xaxis.set_major_locator(MaxNLocator(nbins=MOST_TICKS - 2, integer=integer))
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
    _x_ticks(axes, range(len(xs)), [_shown(x, result, tr) for x in xs])
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
        half = LEGEND_CHARACTERS // 2 - 4  # two columns when every label fits half the width
        columns = 2 if len(wrapped) > 3 and all(len(w) <= half for w in wrapped) else 1
        from matplotlib.figure import Figure as Drawn

        figure = axes.get_figure(root=True)
        assert isinstance(figure, Drawn)  # an axes of `_figure_canvas`
        figure.legend(
            handles,
            wrapped,
            fontsize=SMALLEST_POINTS,
            loc="outside lower center",
            frameon=False,
            ncols=columns,
            handlelength=1.6,
            columnspacing=1.2,
        )
        lines = sum(w.count("\n") + 1 for w in wrapped)
        figure.set_figheight(figure.get_figheight() + LEGEND_LINE_INCHES * -(-lines // columns))


def _height(result: LabResult, chart: Chart) -> float:
    """A chart's height in inches before its legend: a heatmap grows with its rows."""
    if chart.kind != "heatmap":
        return 3.4
    rows = len(_ordered([row.get(chart.y) for row in chart.rows(result)]))
    return min(6.0, max(3.6, 1.7 + 0.36 * rows))


def _figure_of(result: LabResult, chart: Chart, lang: str) -> Figure:
    tr: Tr = translation(lang).gettext
    figure = _figure_canvas(_height(result, chart))
    title = textwrap.fill(chart_title(chart, tr), TITLE_CHARACTERS, break_on_hyphens=False)
    figure.suptitle(title, fontsize=TITLE_POINTS, fontweight="bold")
    if not chart.rows(result):
        axes = figure.add_subplot()
        axes.set_axis_off()
        axes.text(0.5, 0.5, tr(NO_FIGURES), ha="center", va="center", fontsize=TITLE_POINTS)
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
    "font.size": SMALLEST_POINTS,
    "axes.titlesize": TITLE_POINTS,
    "axes.labelsize": SMALLEST_POINTS + 0.5,
    "xtick.labelsize": SMALLEST_POINTS,
    "ytick.labelsize": SMALLEST_POINTS,
    "legend.fontsize": SMALLEST_POINTS,
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
