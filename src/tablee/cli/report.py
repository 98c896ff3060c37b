"""A plugin game's report, odds and panels rendered for the terminal, or as JSON.

Every function here reads the data a game hands over (`tablee.systems.plugin.Report`,
`Odds`, `Line`, text that is either a translatable message or a plain string) and draws it;
no game is named.

Source: architecture.md "A game is one plugin" (rendering stays in the interfaces).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context
from tablee.cli.render import exact_text, fraction_text
from tablee.dice import TraceStep
from tablee.errors import N_, Message
from tablee.locale.numbers import format_percent
from tablee.systems.plugin import Line, Odds, Report, Text

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = ["emit_report", "odds_json", "render_odds", "render_text", "report_text"]

STYLES: Mapping[str, str] = {
    "heading": "bold",
    "result": "bold green",
    "warning": "yellow",
    "muted": "dim",
}
"""The Rich style of each line style."""

BAR_WIDTH = 30


def render_text(ctx: Context, text: Text) -> str:
    """A message in the reader's language (a plain string as it is)."""
    if isinstance(text, Message):
        return text.render(ctx.translations.gettext)
    return text


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def _exact(ctx: Context, p: Fraction) -> str:
    return exact_text(p, ctx.tr)


def render_odds(ctx: Context, odds: Odds) -> str:
    """An odds table: one bar per outcome, best first, then the chance of success."""
    labels = [render_text(ctx, label) for label, _ in odds.rows]
    width = max((len(label) for label in labels), default=0)
    lines = []
    for label, (_, p) in zip(labels, odds.rows, strict=True):
        bar = "█" * round(float(p) * BAR_WIDTH)
        lines.append(
            f"  {_escape(label):<{width}} {bar:<{BAR_WIDTH}} "
            f"{format_percent(p, ctx.lang):>8}  ({_exact(ctx, p)})"
        )
    if odds.success is not None:
        label = render_text(ctx, odds.note) if odds.note is not None else ctx.tr(N_("Success"))
        lines.append(
            ctx.tr(N_("{label}: {percent} ({fraction})")).format(
                label=label,
                percent=format_percent(odds.success, ctx.lang),
                fraction=_exact(ctx, odds.success),
            )
        )
    return "\n".join(lines)


def odds_json(odds: Odds) -> Any:
    """The odds as JSON: the game's own data, or the rows as exact fractions."""
    if odds.data is not None:
        return odds.data
    return {
        "rows": [{"label": str(label), "probability": fraction_text(p)} for label, p in odds.rows],
        "success": None if odds.success is None else fraction_text(odds.success),
    }


def _line(ctx: Context, line: Line) -> str:
    text = _escape(render_text(ctx, line.text))
    style = STYLES.get(line.style)
    drawn = f"[{style}]{text}[/]" if style and text else text
    if line.odds is not None:
        table = render_odds(ctx, line.odds)
        return f"{drawn}\n{table}" if drawn else table
    return drawn


def report_text(ctx: Context, report: Report) -> str:
    """The report's lines in the reader's language, with Rich markup for their styles."""
    return "\n".join(_line(ctx, line) for line in report.lines)


def emit_report(
    ctx: Context,
    report: Report,
    head: Mapping[str, Any],
    extra: Mapping[str, Any] | None = None,
    *,
    warnings: Sequence[TraceStep] = (),
    command: bool = False,
) -> None:
    """Print a report: its lines, or with ``--json`` its data after ``head``.

    Args:
        ctx: the command's context.
        report: what the game reported.
        head: keys put first in the JSON document (the table, the event's number).
        extra: keys put last (the odds shown before rolling).
        warnings: the decision's warnings, added to the JSON document.
        command: a command's report (its JSON always lists the warnings, maybe none).
    """
    if ctx.json:
        doc: dict[str, Any] = {**head, **report.data}
        if report.trace:
            doc["trace"] = [step.render(ctx.tr) for step in report.trace]
        if command or warnings or "warnings" in doc:
            doc["warnings"] = [w.render(ctx.tr) for w in warnings]
        doc.update(extra or {})
        ctx.emit_json(doc)
        return
    ctx.emit(report_text(ctx, report))
