"""``tablee lab``: the designer's lab at the command line.

``tablee lab`` (or ``tablee lab list``) lists the questions of every game with their
titles; ``tablee lab GAME`` those of one game. ``tablee lab GAME NAME [--field ...]`` answers
one question: its options are generated from the question's declared fields (the same
`add_field` as a game's commands) and read by `tablee.systems.declare.build_command`, so a
bad value gives the same error as anywhere else. The figures are printed as a table (exact
fractions and percentages; estimates with their 95% interval), or as JSON (``--json``) or
CSV (``--csv``); ``--out DIR`` also writes ``NAME.json``, ``NAME.csv``, each chart as SVG
and PNG and the HTML report ``NAME.html``.

A simulation uses every core unless ``--workers`` says otherwise, and shows a progress bar
on a terminal. Ctrl+C stops it: the question returns what was done (its result says
``stopped``), which is printed and written like a finished run.

Source: docs/architecture.md, "The designer's lab"; README.md, "For designers".
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.declared import add_field, declared_values, description_of
from tablee.errors import N_, InputError

if TYPE_CHECKING:
    from tablee.lab.questions import Question
    from tablee.lab.results import LabResult

__all__ = ["add_parser", "cmd_lab_list", "cmd_lab_run", "games_with_questions", "write_outputs"]

Tr = Callable[[str], str]

STOPPED = N_("Stopped before the end: the figures below hold what was done.")
"""What a run stopped by Ctrl+C says first."""


WIDE = 240
"""The width of the figures' table written to a file or a pipe (never wrapped there)."""


NOTHING_DONE = N_("Stopped before the first figure: nothing to show.")
"""What Ctrl+C says when the question stopped has no figures to give."""

PAIR = N_("{name}: {value}")
"""An input and its value, in the blocks a narrow terminal shows."""

STOPPED_WRITING = N_("Stopped while writing the files into {path}: some may be missing.")
"""What Ctrl+C says when it comes while ``--out``'s files are drawn and written."""

INTERRUPTED = 130
"""The exit code of a run stopped by Ctrl+C with nothing done (the shells' 128 + SIGINT)."""


def games_with_questions() -> list[str]:
    """The games that have lab questions, in the order their first question is registered."""
    from tablee.lab.questions import QUESTIONS

    games: list[str] = []
    for key in QUESTIONS:
        game = key.split("/", 1)[0]
        if game not in games:
            games.append(game)
    return games


def add_parser(sub: Any, tr: Tr, game: str | None = None) -> None:
    """Add ``tablee lab`` to the top-level subparsers.

    Args:
        sub: the top-level subparsers.
        tr: translation of help texts.
        game: build only this game's questions (to start faster); None (or a word that is
            not a game with questions) builds them all.
    """
    from tablee.lab.questions import questions_of

    lab = sub.add_parser(
        "lab",
        help=tr("the designer's lab: exact tables, simulations and charts of the rules"),
        description=tr("Exact tables, simulations and charts of the games' rules."),
    )
    add_common(lab, tr, table=False)
    lab.set_defaults(handler=cmd_lab_list, lab_game=None)
    games = lab.add_subparsers(dest="lab_game", required=False, metavar="GAME")
    listing = games.add_parser("list", help=tr("list the lab's questions"))
    add_common(listing, tr, table=False)
    listing.set_defaults(handler=cmd_lab_list, lab_game=None)
    known = games_with_questions()
    for game_id in known:
        if game in known and game != game_id:
            continue
        holder = games.add_parser(game_id, help=tr("questions about {game}").format(game=game_id))
        add_common(holder, tr, table=False)
        holder.set_defaults(handler=cmd_lab_list, lab_game=game_id)
        names = holder.add_subparsers(dest="lab_question", required=False, metavar="QUESTION")
        for question in questions_of(game_id):
            _add_question(names, question, tr)


def _add_question(names: Any, question: type[Question], tr: Tr) -> None:
    from tablee.systems.declare import fields_of

    parser = names.add_parser(
        question.name, help=tr(question.title), description=description_of(question, tr)
    )
    for spec in fields_of(question):
        add_field(parser, spec, tr)
    outputs = parser.add_argument_group(tr("outputs"))
    form = outputs.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help=tr("print the figures as CSV"))
    outputs.add_argument(
        "--out",
        metavar="DIR",
        help=tr("also write NAME.json, NAME.csv, each chart as SVG and PNG, and NAME.html there"),
    )
    outputs.add_argument(
        "--workers",
        type=whole_number(tr),
        default=None,
        metavar="N",
        help=tr("processes a simulation uses (default: every core)"),
    )
    add_common(parser, tr, table=False)
    parser.set_defaults(handler=cmd_lab_run, question_class=question)


def cmd_lab_list(ctx: Context) -> int:
    """``tablee lab [list]``, ``tablee lab GAME``: the questions, per game, with their titles."""
    from tablee.lab.questions import questions_of

    game = getattr(ctx.args, "lab_game", None)
    games = [game] if game else games_with_questions()
    if ctx.json:
        ctx.emit_json(
            [
                {
                    "id": f"{q.game}/{q.name}",
                    "game": q.game,
                    "name": q.name,
                    "title": ctx.tr(q.title),
                    "simulated": q.simulated,
                    "rule": q.rule,
                }
                for g in games
                for q in questions_of(g)
            ]
        )
        return 0
    from rich.markup import escape

    lines: list[str] = []
    from tablee.systems import system_named

    for g in games:
        lines.append(f"[bold]{escape(str(system_named(g).title))}[/bold] ({escape(g)})")
        for q in questions_of(g):
            kind = ctx.tr("simulated") if q.simulated else ctx.tr("exact")
            lines.append(
                f"  [cyan]{escape(q.name)}[/cyan]  {escape(ctx.tr(q.title))} [dim]({kind})[/dim]"
            )
    lines.append("")
    lines.append(ctx.tr("Run one with: tablee lab GAME QUESTION [--help]"))
    ctx.emit("\n".join(lines))
    return 0


def _workers(ctx: Context) -> int:
    workers = ctx.args.workers
    if workers is None:
        return os.cpu_count() or 1
    if workers < 1:
        raise InputError(N_("--workers must be at least 1, not {n}"), n=workers)
    return int(workers)


@contextmanager
def _progress_bar(ctx: Context, simulated: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A progress callback drawing a Rich bar on standard error, for a simulation on a terminal."""
    if ctx.json or not simulated or not ctx.err.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress(
        "{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(file=ctx.err),
        transient=True,
    )
    task = bar.add_task(ctx.tr("trials"), total=None)

    def progress(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield progress


def cmd_lab_run(ctx: Context) -> int:
    """``tablee lab GAME NAME [--field ...] [--json|--csv] [--out DIR] [--workers N]``.

    Returns:
        0, also for a run stopped by Ctrl+C (its figures are printed and written);
        `INTERRUPTED` when Ctrl+C stopped a question that keeps nothing of a stopped run, or
        a simulation before its first trials were done (nothing is printed nor written).

    Raises:
        InputError: a value that does not fit its field (as every declared command), a
            ``--workers`` below 1, an ``--out`` folder that cannot be written (checked before
            the question runs).
    """
    from tablee.lab.questions import LabContext
    from tablee.lab.results import to_csv
    from tablee.systems.declare import build_command

    cls: type[Question] = ctx.args.question_class
    given, _paths = declared_values(ctx.args, cls)
    question = build_command(cls, given)
    workers = _workers(ctx)
    if ctx.args.out is not None:  # before the run: a long simulation is not lost to a bad path
        _prepare_folder(ctx.args.out)
    try:
        with _progress_bar(ctx, cls.simulated) as progress:
            result = question.answer(LabContext(workers=workers, progress=progress))
    except KeyboardInterrupt:  # a question that keeps nothing of a stopped run
        ctx.warn(ctx.tr(NOTHING_DONE))
        return INTERRUPTED
    if result.stopped and not result.exact and result.trials == 0:  # not one chunk done
        ctx.warn(ctx.tr(NOTHING_DONE))
        return INTERRUPTED
    replay = question.command_line()
    if result.stopped:
        ctx.warn(ctx.tr(STOPPED))
    written: list[str] = []
    failed: InputError | None = None
    if ctx.args.out is not None:
        try:
            written = write_outputs(result, ctx.args.out, ctx.lang, command=replay)
        except InputError as exc:  # the figures are still printed, then the error said
            failed = exc
        except KeyboardInterrupt:  # drawing the charts takes a while: Ctrl+C may come then
            ctx.warn(ctx.tr(STOPPED_WRITING).format(path=ctx.args.out))
            return INTERRUPTED
    try:
        if ctx.json:
            from tablee.lab.results import to_json

            ctx.emit_json(to_json(result))
        elif ctx.args.csv:
            ctx.out.write(to_csv(result, lang=ctx.lang))
        else:
            _print_result(ctx, result, written, replay)  # 1,000 rows take a second or two
    except KeyboardInterrupt:  # Ctrl+C while the figures are printed: stop there
        return INTERRUPTED
    if failed is not None:
        raise failed
    return 0


def _prepare_folder(folder: str) -> None:
    """Make ``folder`` (and its parents) if missing and check that a file can be made in it.

    Raises:
        InputError: an empty path, or a folder that cannot be made or written into.
    """
    if not folder.strip():
        raise InputError(N_("--out needs a folder, not an empty path"))
    try:
        os.makedirs(folder, exist_ok=True)
        probe = os.path.join(folder, f".tablee-lab-{os.getpid()}")
        with open(probe, "wb"):
            pass
        os.remove(probe)
    except OSError as exc:
        raise _cannot_write(folder, exc) from None


def _cannot_write(folder: str, exc: OSError) -> InputError:
    """The error of a folder that cannot be made or written into, with the system's reason."""
    return InputError(
        N_("cannot write into {path}: {reason}"),
        path=folder,
        reason=exc.strerror or exc.__class__.__name__,
    )


def write_outputs(result: LabResult, folder: str, lang: str, *, command: str = "") -> list[str]:
    """Write a result's files into ``folder`` (made if missing); returns their paths.

    Files: ``NAME.json``, ``NAME.csv``, ``NAME-<chart>.svg`` and ``.png`` per chart,
    ``NAME.html`` (the report), where NAME is the question's name.

    Raises:
        InputError: the folder cannot be made or a file cannot be written, naming it.
    """
    import json

    from tablee.lab.charts import draw_all
    from tablee.lab.report import html_report
    from tablee.lab.results import to_csv, to_json

    name = result.question.rsplit("/", 1)[-1]
    charts = draw_all(result, lang)
    files: list[tuple[str, bytes]] = [
        (
            f"{name}.json",
            (json.dumps(to_json(result), ensure_ascii=False, indent=2) + "\n").encode(),
        ),
        (f"{name}.csv", to_csv(result, lang=lang).encode()),
    ]
    for chart in charts:
        files += [(f"{name}-{chart.slug}.svg", chart.svg), (f"{name}-{chart.slug}.png", chart.png)]
    files.append((f"{name}.html", html_report(result, lang, charts, command=command).encode()))
    paths: list[str] = []
    try:
        os.makedirs(folder, exist_ok=True)
        for file_name, data in files:
            path = os.path.join(folder, file_name)
            with open(path, "wb") as handle:
                handle.write(data)
            paths.append(path)
    except OSError as exc:
        raise _cannot_write(folder, exc) from None
    return paths


def _column_groups(result: LabResult, widths: list[int], room: int) -> list[list[int]]:
    """The columns of each table printed: the inputs, then as many measures as fit ``room``.

    A table wider than the terminal would cut its figures; it is split instead into tables
    of a few measures each, every one repeating the input columns.
    """
    inputs = [i for i, c in enumerate(result.columns) if c.role == "input"]
    measures = [i for i, c in enumerate(result.columns) if c.role != "input"]
    base = sum(widths[i] for i in inputs) + 1  # the table's edge
    groups: list[list[int]] = []
    current: list[int] = []
    for i in measures:
        if current and base + sum(widths[j] for j in current) + widths[i] > room:
            groups.append(current)
            current = []
        current.append(i)
    groups.append(current)
    return [inputs + group for group in groups]


def _print_blocks(
    console: Any, result: LabResult, grid: list[list[Any]], title: str, tr: Tr
) -> None:
    """The figures for a terminal too narrow for a table: one block per row.

    Each block starts with the row's inputs (``label: value`` joined, wrapped), then one line
    per measure with its label (wrapped) and its figure, interval and exact fraction.
    """
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from tablee.lab.results import label_text

    console.print(Text(title, style="bold"))
    for row in grid:
        heading = "; ".join(
            tr(PAIR).format(name=label_text(c.label, tr), value=cell.plain)
            for c, cell in zip(result.columns, row, strict=True)
            if c.role == "input"
        )
        console.print()
        console.print(escape(heading), style="bold")
        block = Table.grid(padding=(0, 1))
        block.add_column(ratio=1)
        block.add_column(justify="right", no_wrap=True)
        for column, cell in zip(result.columns, row, strict=True):
            if column.role != "input":
                block.add_row(Text("  " + label_text(column.label, tr)), cell)
        console.print(block)
    console.print()


def _print_result(ctx: Context, result: LabResult, written: list[str], command: str) -> None:
    """The figures as a Rich table, then the command replaying them, policies, seed, notes.

    A policy's setting that is one of the question's inputs is named by its option.
    """
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from tablee.lab.questions import question_named
    from tablee.lab.report import figure_rows, input_pairs
    from tablee.lab.results import label_text
    from tablee.systems.declare import fields_of

    tr = ctx.tr
    game, _, name = result.question.partition("/")
    flags = {spec.name: spec.flag for spec in fields_of(question_named(game, name))}
    terminal = ctx.out.isatty()
    console = Console(file=ctx.out, highlight=False, width=None if terminal else WIDE)
    kind = tr("exact figures") if result.exact else tr("simulated figures")
    grid: list[list[Text]] = []
    for shown in figure_rows(result, ctx.lang):
        cells: list[Text] = []
        for column, cell in zip(result.columns, shown, strict=True):
            text = Text(cell.text)
            if column.role != "input":
                if cell.interval:
                    text.append("\n" + cell.interval, style="dim")
                if cell.exact and cell.fraction:
                    text.append("\n" + cell.fraction, style="dim")
                elif cell.exact_text:
                    text.append("\n" + tr("exact") + " " + cell.exact_text, style="green")
            cells.append(text)
        grid.append(cells)
    widths = [
        max([len(label_text(c.label, tr)), *(t.cell_len for row in grid for t in row[i].split())])
        + 3
        for i, c in enumerate(result.columns)
    ]  # each column: its widest line, a space each side and the space between columns
    inputs_width = 1 + sum(
        w for w, c in zip(widths, result.columns, strict=True) if c.role == "input"
    )
    if any(
        inputs_width + w > console.width
        for w, c in zip(widths, result.columns, strict=True)
        if c.role != "input"
    ):  # too narrow for the inputs and one figure side by side: one block per row instead
        _print_blocks(console, result, grid, f"{label_text(result.title, tr)} ({kind})", tr)
        groups = []
    else:
        groups = _column_groups(result, widths, console.width)
    for rank, part in enumerate(groups):
        table = Table(
            title=f"{label_text(result.title, tr)} ({kind})" if rank == 0 else None,
            title_justify="left",
            box=box.SIMPLE_HEAD,
            pad_edge=False,
        )
        for i in part:
            column = result.columns[i]
            table.add_column(
                label_text(column.label, tr),
                justify="left" if column.role == "input" else "right",
                style="bold" if column.role == "input" else None,
                no_wrap=True,
            )
        for row in grid:
            table.add_row(*(row[i] for i in part))
        console.print(table)
    lines: list[str] = []
    if result.exact:
        lines.append(
            tr(
                "Every figure is exact: the fraction under a percentage is its exact value; "
                "a fraction too long to read here is in --json."
            )
        )
    else:
        lines.append(
            tr("Estimates with their confidence interval at 95 percent, {n} trials each.").format(
                n=result.trials
            )
        )
    lines.append(tr("To run it again: {command}").format(command=command))
    for policy in result.policies:
        settings = ", ".join(f"{flags.get(k, k)} {v}" for k, v in input_pairs(policy.settings, tr))
        lines.append(
            tr("Policy {name}: {label}").format(
                name=policy.name, label=label_text(policy.label, tr)
            )
            + (f" ({settings})" if settings else "")
        )
    for variant in result.variants:
        lines.append(
            tr("House rule {name}: {label}").format(
                name=variant.name, label=label_text(variant.label, tr)
            )
        )
    if result.seed is not None:
        lines.append(
            tr("Seed: {seed} (the same seed gives the same figures)").format(seed=result.seed)
        )
    lines += [label_text(note, tr) for note in result.notes]
    if written:
        lines.append(tr("Written:"))
        lines += [f"  {path}" for path in written]
    console.print(escape("\n".join(lines)))
