"""The command line's shared context: options common to every command, output, errors.

Source: README.md, "Exit codes" (2 malformed input or usage, 3 refused by the rules, 4
concurrent change, 5 storage failure); ``--json``, ``--lang``, ``--table``, ``--db`` on every
command.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import IO, Any

from tablee.locale import detect_language, translation
from tablee.table.service import TableService

__all__ = [
    "COMMON_FLAGS",
    "COMMON_VALUED",
    "LEADING",
    "Context",
    "add_common",
    "language_of",
    "merge_leading",
    "parse_dice",
    "parse_options",
    "whole_number",
]

COMMON_VALUED = ("--lang", "--db", "--table")
"""The common options that take a value."""

COMMON_FLAGS = ("--json",)
"""The common options without a value."""

LEADING = "leading_"
"""Prefix of the destinations of common options given before the command group."""


def add_common(
    parser: argparse.ArgumentParser,
    tr: Callable[[str], str],
    *,
    table: bool = True,
    leading: bool = False,
) -> None:
    """Add ``--json``, ``--lang``, ``--db`` (and ``--table``) to a parser.

    Args:
        parser: a command's parser, or the top-level parser when ``leading``.
        tr: the translation of the help texts.
        table: add ``--table`` too.
        leading: the top-level parser's copy (``tablee --lang fr pouyss roll``): the values
            go to ``leading_*`` destinations, never defaulted, and `merge_leading` gives them
            to the command unless the command's own options (after the subcommand) say
            otherwise.
    """
    prefix = LEADING if leading else ""
    group = parser.add_argument_group(tr("common options"))
    group.add_argument(
        "--json",
        dest=prefix + "json",
        action="store_true",
        default=argparse.SUPPRESS if leading else False,
        help=tr("print JSON instead of text"),
    )
    group.add_argument(
        "--lang",
        dest=prefix + "lang",
        choices=("fr", "en"),
        default=argparse.SUPPRESS,
        help=tr("language of the output (default: from the locale)"),
    )
    group.add_argument(
        "--db",
        dest=prefix + "db",
        default=argparse.SUPPRESS,
        metavar="PATH|URL",
        help=tr(
            "SQLite file or database URL (default: TABLEE_DATABASE_URL, else the user data folder)"
        ),
    )
    if table:
        group.add_argument(
            "--table",
            dest=prefix + "table",
            default=argparse.SUPPRESS if leading else None,
            metavar="NAME",
            help=tr("the table to act on (default: the table last used)"),
        )


def merge_leading(args: argparse.Namespace) -> argparse.Namespace:
    """Give the command the common options written before its group.

    A value written after the subcommand wins over one written before it; ``--json``
    anywhere turns JSON on. The ``leading_*`` attributes are removed.

    Args:
        args: the parsed arguments (changed in place).

    Returns:
        ``args``.
    """
    for name in ("json", "lang", "db", "table"):
        key = LEADING + name
        if not hasattr(args, key):
            continue
        value = getattr(args, key)
        delattr(args, key)
        if getattr(args, name, None) in (None, False):
            setattr(args, name, value)
    return args


@dataclass
class Context:
    """What a command handler needs: parsed arguments, language, output, the service.

    Attributes:
        args: the parsed arguments.
        lang: ``fr`` or ``en``.
        out: where to write (standard output by default).
        err: where warnings go (standard error by default).
    """

    args: argparse.Namespace
    lang: str
    out: IO[str] = field(default_factory=lambda: sys.stdout)
    _service: TableService | None = None
    err: IO[str] = field(default_factory=lambda: sys.stderr)

    @property
    def json(self) -> bool:
        """Whether ``--json`` was given."""
        return bool(getattr(self.args, "json", False))

    @cached_property
    def translations(self) -> Any:
        """The gettext catalog of ``lang``."""
        return translation(self.lang)

    def tr(self, message: str) -> str:
        """Translate one message."""
        return str(self.translations.gettext(message))

    def ntr(self, singular: str, plural: str, n: int) -> str:
        """Translate a message with a count (as many plural forms as the catalog declares)."""
        return str(self.translations.ngettext(singular, plural, n))

    ngettext = ntr
    """``ntr`` under gettext's name: a count rendered with ``tr`` (`tablee.errors.Plural`)
    finds it through the bound method and takes the form of the reader's language."""

    @property
    def service(self) -> TableService:
        """The table service on the chosen store (opened on first use)."""
        if self._service is None:
            from tablee.errors import N_, InputError
            from tablee.table.connect import open_store

            db = getattr(self.args, "db", None)
            if db is not None and not db.strip():
                raise InputError(N_("--db is empty: give a SQLite file or a database URL"))
            self._service = TableService(open_store(db))
        return self._service

    def close(self) -> None:
        """Close the store if it was opened."""
        if self._service is not None:
            self._service.store.close()

    def emit_json(self, document: Any) -> None:
        """Write one JSON document."""
        self.out.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")

    def emit(self, text: str, *, markup: bool = True) -> None:
        r"""Write Rich markup (or plain text), coloured only on a terminal.

        A control or text-direction character in the text (stored by an earlier release,
        which did not refuse them) is written as its escape (``\x1b``), never sent to
        the terminal.
        """
        from rich.console import Console

        Console(file=self.out, highlight=False, soft_wrap=True).print(
            shown_safely(text), markup=markup
        )

    def warn(self, text: str) -> None:
        """Write one plain line to the warnings stream (standard error), escaped as `emit`."""
        self.err.write(shown_safely(text) + "\n")


def shown_safely(text: str) -> str:
    r"""``text`` with each character free text may not hold written as its escape.

    ESC (U+001B) becomes the four characters ``\x1b``: the terminal shows the code instead of
    obeying it (clearing the screen, drawing the rest of the line backwards). Tabs and line
    ends stay. See `tablee.systems.declare.unsafe_char`.
    """
    from tablee.systems.declare import unsafe_char

    if text.isprintable():
        return text
    return "".join(
        ch.encode("unicode_escape").decode("ascii") if unsafe_char(ch) else ch for ch in text
    )


def whole_number(tr: Callable[[str], str]) -> Callable[[str], int]:
    """An argparse ``type`` for whole numbers (`tablee.dice.read_whole`), errors translated.

    Raises (from the returned function):
        argparse.ArgumentTypeError: not a whole number, or more than `WHOLE_DIGITS` digits.
    """
    from tablee.dice import WHOLE_DIGITS, is_whole_in_reach, read_whole

    def parse(text: str) -> int:
        number = read_whole(text)
        if number is None:
            shown = text if len(text) <= 30 else text[:30] + "…"
            raise argparse.ArgumentTypeError(
                tr("{value!r} is not a whole number").format(value=shown)
            )
        if not is_whole_in_reach(number):
            raise argparse.ArgumentTypeError(
                tr("{value} is out of range (at most {digits} digits)").format(
                    value=text.strip()[: WHOLE_DIGITS + 1] + "…", digits=WHOLE_DIGITS
                )
            )
        return number

    return parse


def language_of(args: argparse.Namespace) -> str:
    """``--lang`` if given, else the locale's language."""
    return str(getattr(args, "lang", None) or detect_language())


def parse_dice(text: str | None) -> list[int] | None:
    """Typed-in faces ``"1,4,5,6"`` as integers (None when not given or blank).

    The grammar is `tablee.dice.faces`', shared with the web table; the die is checked
    when the faces are used (`tablee.dice.TypedFaces`).

    Raises:
        InputError: a face that is not a whole number, named with its position.
    """
    from tablee.dice import typed_faces

    faces = typed_faces(text)
    return None if faces is None else list(faces)


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """``["bonus_cap=3", ...]`` as a dict.

    Raises:
        InputError: an item without ``=``.
    """
    from tablee.errors import N_, InputError

    result = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(N_("--option {value!r}: expected NAME=VALUE"), value=pair)
        result[key.strip()] = value.strip()
    return result
