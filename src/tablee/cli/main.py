"""``tablee``: the command line's entry point, argument parsing and error handling.

Exit codes: 0 done; 2 malformed input or usage (a bad count, bad faces, an unknown table or
player); 3 refused by the rules now (an empty cagnotte, nothing to undo); 4 the table kept
changing under concurrent writers; 5 storage failure.

Source: README.md (the commands, "Exit codes"); docs/architecture.md, "Layers".
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any, NoReturn

from tablee import __version__
from tablee.errors import N_, TableeError
from tablee.locale import detect_language, translation

if TYPE_CHECKING:
    from tablee.cli.app import Context

# `tablee.cli.app` (and through it the table layer and the rules) is imported inside the
# functions below, once `main` has set the collector aside for the start-up (see `main`).

__all__ = ["build_parser", "main"]

USAGE_EXIT = 2


HEADING = N_("{title}:")
"""How a help section's heading is written (French puts a space before the colon)."""


def _terminal_columns(fallback: int = 80) -> int:
    """The terminal's width in columns, as `shutil.get_terminal_size` reads it.

    ``COLUMNS`` when it holds a positive whole number, else the width of the terminal on
    standard output, else ``fallback``.
    """
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or fallback


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, with section headings written through `HEADING`.

    argparse appends the colon itself, so the translated template's text before its final
    colon becomes the heading (``options`` gives ``options:`` in English and ``options :``
    in French). The template is read through argparse's message routing, which
    `_install_argparse_translation` points at our catalogs.

    The width is argparse's own (the terminal's columns less 2), read without importing
    `shutil`: argparse makes a formatter for every argument it adds, and `shutil` (with its
    compression modules) costs a command a few milliseconds.
    """

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = _terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)

    def start_section(self, heading: str | None) -> None:
        """Open a section whose heading follows the translated template."""
        if heading:
            tr: Callable[[str], str] = getattr(argparse, "_", str)
            text = tr(HEADING).format(title=heading)
            heading = text[:-1] if text.endswith(":") else text
        super().start_section(heading)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are translated and raise instead of exiting.

    Every parser of the tree (subparsers take the parent's class) formats its help with
    `_Formatter`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Raise `_UsageError` (the caller prints usage and the message)."""
        raise _UsageError(self, message)


class _UsageError(Exception):
    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser


def _install_argparse_translation(
    tr: Callable[[str], str], ntr: Callable[[str, str, int], str]
) -> None:
    """Route argparse's own messages ("usage:", "required"...) through our catalogs."""
    argparse._ = tr  # type: ignore[attr-defined]
    argparse.ngettext = ntr  # type: ignore[attr-defined]


GROUPS = ("table", "odds", "lab", "demo", "serve", "discord")
"""The command groups that are not games (each registered game adds its own group)."""

HAND_WIRED_COMMANDS: dict[str, dict[str, str]] = {
    # ``tablee agents play``: a whole adventure without a game master, asked step by step
    # at a prompt (or from a --script), each answer stored at once through the declared
    # commands; a loop of questions whose next one depends on the last answer.
    "agents": {"play": "tablee.cli.agents.play:add_play"},
}
"""Commands of plugin games that stay written by hand, and why: game id -> first word ->
``module:function`` adding them to the game's subparsers (``function(subparsers, tr)``).
Only an interactive loop belongs here (it asks and answers at a prompt, which no
declaration describes); every other command is generated from its declaration."""


def _plugin(game_id: str) -> Any:
    """The registered game ``game_id`` if it is a plugin (generated command line), else None."""
    from tablee.systems import system_named
    from tablee.systems.plugin import Game

    system = system_named(game_id)
    return system if isinstance(system, Game) else None


def build_parser(
    lang: str, only: str | None = None, command: str | None = None
) -> argparse.ArgumentParser:
    """The command tree, with help texts in ``lang``.

    Args:
        lang: ``fr`` or ``en``.
        only: build just this top-level group (one of `GROUPS` or a game's id), to start
            faster; None builds every group.
        command: within a game, build just this command; within ``odds`` and ``lab``, just
            this game (None: all).
    """
    from tablee.systems import game_ids

    catalog = translation(lang)
    tr, ntr = catalog.gettext, catalog.ngettext
    _install_argparse_translation(tr, ntr)
    parser = _Parser(
        prog="tablee",
        description=tr(
            "Tablée: rules engine and virtual table for Pouyss and other French role-playing games."
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"tablee {__version__}",
        help=tr("show program's version number and exit"),
    )
    from tablee.cli.app import add_common

    add_common(parser, tr, leading=True)
    sub = parser.add_subparsers(
        dest="group", required=True, metavar="COMMAND", parser_class=_Parser
    )
    if only in (None, "table"):
        from tablee.cli import table_cmds  # lazy: a roll does not need it (nor pathlib)

        table_cmds.add_parser(sub, tr)
    for game_id in game_ids():
        if only not in (None, game_id):
            continue  # lazy: a Pouyss command never loads the other games
        from tablee.cli import declared

        extra = HAND_WIRED_COMMANDS.get(game_id, {})
        cmds = declared.add_game_parser(sub, game_id, _plugin(game_id), tr, command, tuple(extra))
        for word, where in extra.items():
            if command in (None, word) or command not in declared.command_words(_plugin(game_id)):
                from importlib import import_module

                module, _, function = where.partition(":")
                getattr(import_module(module), function)(cmds, tr)
    if only in (None, "odds"):
        odds = sub.add_parser("odds", help=tr("exact odds, before rolling"))
        odds_sub = odds.add_subparsers(dest="system", required=True, metavar="SYSTEM")
        from tablee.cli import declared

        for game_id in game_ids():
            if only == "odds" and command not in (None, game_id):
                continue  # `tablee odds pouyss` loads Pouyss alone
            declared.add_odds_parser(odds_sub, game_id, _plugin(game_id), tr)
    if only in (None, "lab"):
        from tablee.cli import lab  # lazy: the lab's questions load only for `tablee lab`

        lab.add_parser(sub, tr, command if only == "lab" else None)
    if only in (None, "demo"):
        _add_demo(sub, tr)
    if only in (None, "serve"):
        from tablee.cli import serve  # lazy: the web stack loads only when serving

        serve.add_parser(sub, tr)
    if only in (None, "discord"):
        from tablee.cli import bot  # the bot's own module loads discord.py when it runs

        bot.add_parser(sub, tr)
    return parser


def _add_demo(sub: Any, tr: Callable[[str], str]) -> None:
    from tablee.cli.app import add_common, whole_number

    demo = sub.add_parser("demo", help=tr("play a short scripted Pouyss session and print its log"))
    demo.add_argument("--name", help=tr("the demo table's name (default: demo and the time)"))
    demo.add_argument("--seed", type=whole_number(tr), default=2024, help=tr("seed for the dice"))
    add_common(demo, tr, table=False)
    demo.set_defaults(handler=_demo)


def _demo(ctx: Context) -> int:
    from tablee.cli.demo import run_demo

    return run_demo(ctx, main)


def _pre_language(argv: Sequence[str]) -> str:
    """The language of the help and errors: the last ``--lang`` given, else the locale's."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv) and argv[i + 1] in ("fr", "en"):
            found = argv[i + 1]
        if arg in ("--lang=fr", "--lang=en"):
            found = arg.split("=", 1)[1]
    return found or detect_language()


def _group_index(argv: Sequence[str]) -> int:
    """Where the command group starts, after the common options written before it."""
    from tablee.cli.app import COMMON_FLAGS, COMMON_VALUED

    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in COMMON_FLAGS or ("=" in arg and arg.split("=", 1)[0] in COMMON_VALUED):
            i += 1
        elif arg in COMMON_VALUED:
            i += 2
        else:
            break
    return i


def main(
    argv: Sequence[str] | None = None, out: IO[str] | None = None, err: IO[str] | None = None
) -> int:
    """Run one command.

    Run as the program (no ``argv``: the ``tablee`` command, ``python -m tablee``), the
    cyclic garbage collector is paused while the modules load and the parser is built, and
    what exists by then is frozen (`gc.freeze`) before the command runs. Start-up makes
    long-lived objects (modules, classes, the parser): the collector would walk them again
    and again while they are made, and once more when the process exits, for nothing (a
    few milliseconds of every command). A caller in the same process (``argv`` given: the
    tests, another program) finds the collector as it was.

    Args:
        argv: arguments without the program name (``sys.argv[1:]`` by default).
        out: where results go (standard output by default).
        err: where errors go (standard error by default).

    Returns:
        The exit code (see the module docstring).
    """
    if argv is not None:
        return _main(list(argv), out, err, None)
    enabled = gc.isenabled()
    gc.disable()

    def started() -> None:
        gc.freeze()
        if enabled:
            gc.enable()

    try:
        return _main(sys.argv[1:], out, err, started)
    finally:
        if enabled:
            gc.enable()


def _main(
    args_list: list[str],
    out: IO[str] | None,
    err: IO[str] | None,
    started: Callable[[], None] | None,
) -> int:
    """`main` itself; ``started`` is called once the parser is done, before the command."""
    from tablee.cli.app import Context, language_of, merge_leading

    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    lang = _pre_language(args_list)
    for arg in args_list:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            text = arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            message = translation(lang).gettext(
                N_("argument {value!r} is not UTF-8 text: set your terminal to UTF-8")
            )
            err.write(message.format(value=text) + "\n")
            return USAGE_EXIT
    start = _group_index(args_list)
    first = args_list[start] if len(args_list) > start else None
    second = args_list[start + 1] if len(args_list) > start + 1 else None
    command = None
    from tablee.systems import game_ids

    games = game_ids()
    if first in games or (first == "odds" and second in games) or first == "lab":
        command = second
    parser = build_parser(lang, first if first in (*GROUPS, *games) else None, command)
    try:
        with contextlib.redirect_stdout(out):  # --help and --version print to stdout
            args = parser.parse_args(args_list)
    except _UsageError as exc:
        exc.parser.print_usage(err)
        tr = translation(lang).gettext
        err.write(
            tr("{prog}: error: {message}").format(prog=exc.parser.prog, message=str(exc)) + "\n"
        )
        return USAGE_EXIT
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0)
    ctx = Context(merge_leading(args), language_of(args), out, err=err)
    if started is not None:
        started()
    try:
        return int(args.handler(ctx))
    except BrokenPipeError:  # output piped into a program that stopped reading (head)
        if out is sys.stdout:  # keep Python from failing again when it flushes at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except TableeError as exc:
        tr = translation(ctx.lang).gettext
        if ctx.json:
            ctx.out = err
            ctx.emit_json(
                {
                    "error": type(exc).__name__,
                    "message": exc.render(tr, cli=True),
                    "exit_code": exc.exit_code,
                }
            )
        else:
            err.write(tr("error: {message}").format(message=exc.render(tr, cli=True)) + "\n")
        return exc.exit_code
    finally:
        ctx.close()
