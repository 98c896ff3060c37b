"""A lab result for people: its figures as text, and a self-contained HTML report.

`shown_cell` writes one cell as the command line, the web lab page and the report show it:
an exact figure as a percentage (or a decimal) with its fraction, marked exact; an estimate
as its value, its 95% interval and the trials behind it, with the exact figure beside it
when one is known. `html_report` renders the whole result (its charts inline as SVG, the
table of figures, the inputs, policies, house-rule variants, seed and notes) as one HTML
file that fetches nothing: no external style sheet, script, font or image.

Jinja2 (the report's template) and matplotlib (its charts) are imported when a report is
rendered, never by ``import tablee.lab``.

Source: docs/architecture.md, "The designer's lab".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tablee.errors import N_
from tablee.lab.results import Cell, Column, Estimate, LabResult, label_text
from tablee.locale import translation
from tablee.locale.numbers import format_decimal, format_percent, is_short_fraction

if TYPE_CHECKING:
    from tablee.lab.charts import DrawnChart

__all__ = [
    "ShownCell",
    "figure_rows",
    "html_report",
    "input_pairs",
    "labelled_inputs",
    "percent_text",
    "setting_text",
    "shown_cell",
    "svg_inline",
]

Tr = Callable[[str], str]

EXACT = N_("exact")
"""The mark of an exact figure."""

INTERVAL_TEXT = N_("[{low}, {high}]")
"""A 95% confidence interval as written beside its estimate."""


@dataclass(frozen=True)
class ShownCell:
    """One cell of a result as a reader sees it.

    Attributes:
        text: the value in the reader's format (``33,3 %``, ``3,49``, an input as it is).
        fraction: the exact fraction (``1/3``), when the figure is exact (or an estimate's
            exact figure is known) and short enough to read; empty otherwise.
        exact: the figure itself is exact.
        interval: an estimate's 95% interval (``[31,2 %, 35,4 %]``); empty for an exact one.
        trials: the trials behind an estimate (0 for an exact figure or an input).
        exact_text: an estimate's exact figure in the reader's format, when known; empty
            otherwise.
    """

    text: str
    fraction: str = ""
    exact: bool = False
    interval: str = ""
    trials: int = 0
    exact_text: str = ""


def _value(value: float | Fraction, column: Column, lang: str) -> str:
    if column.percent:
        return percent_text(Fraction(value), lang)
    return format_decimal(value, lang, 2)


def percent_text(chance: Fraction, lang: str) -> str:
    """A probability as a percentage with one decimal, never rounded to impossible or certain.

    A chance above 0 that would read ``0.0%`` reads ``<0.1%``; one below 1 that would read
    ``100.0%`` reads ``>99.9%`` (in French ``<0,1 %``, ``>99,9 %``).
    """
    if 0 < chance < Fraction(1, 2000):
        return "<" + format_percent(Fraction(1, 1000), lang)
    if Fraction(1999, 2000) <= chance < 1:
        return ">" + format_percent(Fraction(999, 1000), lang)
    return format_percent(chance, lang)


def _fraction(value: Fraction, percent: bool = False) -> str:
    """The exact fraction shown beside a figure; empty when it adds nothing or is too long.

    A probability of 0 or 1 shows ``0`` or ``1``: impossible, certain.
    """
    if value.denominator == 1:
        return str(value) if percent and value in (0, 1) else ""
    return str(value) if is_short_fraction(value) else ""


def shown_cell(column: Column, cell: Cell, lang: str) -> ShownCell:
    """How ``cell`` of ``column`` is shown in ``lang`` (``fr`` or ``en``).

    Example: a probability ``Fraction(1, 3)`` in a percent column shows as ``33,3 %`` in
    French with the fraction ``1/3``, marked exact.
    """
    if cell is None:
        return ShownCell("–")
    if isinstance(cell, bool):
        return ShownCell(setting_text(cell, translation(lang).gettext))
    if column.role == "input" or isinstance(cell, str):
        if isinstance(cell, Fraction):
            return ShownCell(format_decimal(cell, lang, 2), _fraction(cell), True)
        return ShownCell(str(cell))
    if isinstance(cell, Estimate):
        tr = translation(lang).gettext
        interval = tr(INTERVAL_TEXT).format(
            low=_value(cell.low, column, lang), high=_value(cell.high, column, lang)
        )
        if cell.exact is None:
            return ShownCell(_value(cell.value, column, lang), "", False, interval, cell.trials)
        return ShownCell(
            _value(cell.value, column, lang),
            _fraction(cell.exact, column.percent),
            False,
            interval,
            cell.trials,
            _value(cell.exact, column, lang),
        )
    value = Fraction(cell)
    return ShownCell(_value(value, column, lang), _fraction(value, column.percent), True)


def figure_rows(result: LabResult, lang: str) -> list[list[ShownCell]]:
    """Every row of ``result`` as shown cells, in the order of its columns."""
    return [
        [shown_cell(column, row.get(column.key), lang) for column in result.columns]
        for row in result.rows
    ]


def setting_text(value: object, tr: Tr = lambda s: s) -> str:
    """An input's or a policy setting's value as written for people (lists joined).

    Args:
        value: the value.
        tr: translation of the words yes and no (English by default).
    """
    if isinstance(value, bool):
        return tr(N_("yes") if value else N_("no"))
    if isinstance(value, list | tuple):
        return ", ".join(setting_text(v, tr) for v in value)
    return "–" if value is None else str(value)


def input_pairs(settings: Mapping[str, object], tr: Tr = lambda s: s) -> list[tuple[str, str]]:
    """``(name, value)`` pairs of the inputs or settings, in ``tr``'s language (default English)."""
    return [(name, setting_text(value, tr)) for name, value in settings.items()]


def labelled_inputs(result: LabResult, tr: Tr) -> list[tuple[str, str]]:
    """The result's inputs as a reader sees them: ``(label, value)`` pairs.

    Each input is named by its field's help in the reader's language (as the question's form
    names it; the input's own name when the question has no such field), a yes or no is
    translated, and the seed and the trials are left out when the result states them itself
    (`LabResult.seed`, `LabResult.trials`).
    """
    from tablee.errors import NotFoundError
    from tablee.lab.questions import question_named
    from tablee.systems.declare import fields_of

    game, _, name = result.question.partition("/")
    try:
        labels = {spec.name: tr(spec.param.help) for spec in fields_of(question_named(game, name))}
    except NotFoundError:
        labels = {}
    stated = {"seed": result.seed, "trials": result.trials or None}
    pairs: list[tuple[str, str]] = []
    for key, value in result.inputs.items():
        if key in stated and stated[key] is not None and stated[key] == value:
            continue
        pairs.append((labels.get(key) or key, setting_text(value, tr)))
    return pairs


def svg_inline(svg: bytes) -> str:
    """An SVG document as an element to put inside an HTML page (prologue and metadata removed)."""
    text = svg.decode("utf-8")
    start = text.find("<svg")
    text = text[start:] if start >= 0 else text
    head, found, rest = text.partition("<metadata>")
    if found:  # matplotlib's RDF block: namespaces and the tool's name, nothing to show
        text = head + rest.partition("</metadata>")[2]
    return text


def html_report(
    result: LabResult,
    lang: str = "en",
    charts: Sequence[DrawnChart] | None = None,
    *,
    command: str = "",
) -> str:
    """The whole result as one self-contained HTML page in ``lang``.

    Args:
        result: the result.
        lang: ``fr`` or ``en``.
        charts: the charts already drawn (`tablee.lab.charts.draw_all`); None draws them.
        command: the command line that replays the run, shown in the report (empty: none).

    Raises:
        ValueError: ``lang`` is not ``fr`` or ``en``.
    """
    import jinja2
    from markupsafe import Markup

    from tablee import __version__

    if charts is None:
        from tablee.lab.charts import draw_all

        charts = draw_all(result, lang, png=False)
    tr = translation(lang).gettext
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("tablee.lab", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    context: dict[str, Any] = {
        "_": tr,
        "lang": lang,
        "result": result,
        "title": label_text(result.title, tr),
        "columns": [label_text(c.label, tr) for c in result.columns],
        "rows": figure_rows(result, lang),
        "charts": [(c.title, Markup(svg_inline(c.svg))) for c in charts],
        "inputs": labelled_inputs(result, tr),
        "policies": [
            (label_text(p.label, tr), p.name, input_pairs(p.settings, tr)) for p in result.policies
        ],
        "variants": [
            (label_text(v.label, tr), v.name, input_pairs(v.options, tr)) for v in result.variants
        ],
        "notes": [label_text(n, tr) for n in result.notes],
        "version": __version__,
        "command": command,
    }
    return env.get_template("report.html").render(**context)
