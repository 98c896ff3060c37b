"""``tablee shs ...`` and ``tablee odds shs``: Space Horror Stories at the command line.

A Réalisateur runs a whole film: Protagonistes, Tests, opposed Actions, cooperation,
simultaneous Actions, options with their price, and the film's clock. Each rolled command
plans the Action against the table, throws the dice the plan needs (typed in, seeded or
fair), then appends the decision taken with those faces.

The commands live in modules by theme: `protagonists` (create, import, show, edit, kill,
revive), `actions` (test, opposed, cooperation, simultaneous), `clock` (scene, tour, time,
modifier, long-action, clock) and `odds` (``tablee odds shs``); `common` and `attempts`
hold what they share.

Source: seed 003; rulings S-M2, S-M3, S-M5, S-A1 to S-A4, S-A7.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablee.cli.app import Context
from tablee.cli.shs.actions import BUILDERS as ACTIONS
from tablee.cli.shs.clock import BUILDERS as CLOCK
from tablee.cli.shs.clock import clock_lines
from tablee.cli.shs.common import Tr
from tablee.cli.shs.odds import add_odds_parser, cmd_odds
from tablee.cli.shs.protagonists import BUILDERS as PROTAGONISTES
from tablee.cli.shs.protagonists import hero_lines

__all__ = ["COMMANDS", "add_odds_parser", "add_parser", "cmd_odds", "format_summary"]


COMMANDS = (
    "protagoniste",
    "test",
    "opposed",
    "cooperation",
    "simultaneous",
    "scene",
    "tour",
    "time",
    "modifier",
    "long-action",
    "clock",
)
"""The commands of ``tablee shs`` (each may be built alone, to start faster)."""


def add_parser(sub: Any, tr: Tr, only: str | None = None) -> None:
    """Add ``tablee shs ...`` to the top-level subparsers.

    Args:
        sub: the top-level subparsers.
        tr: translation of help texts.
        only: build just this command (one of `COMMANDS`), to start faster; None for all.
    """
    group = sub.add_parser("shs", help=tr("play Space Horror Stories"))
    cmds = group.add_subparsers(dest="command", required=True, metavar="COMMAND")
    builders: dict[str, Callable[[Any, Tr], None]] = {**PROTAGONISTES, **ACTIONS, **CLOCK}
    for name, build in builders.items():
        if only in (None, name):
            build(cmds, tr)


def format_summary(ctx: Context, game: Any) -> list[str]:
    """The SHS lines of ``table show``: the clock, then each Protagoniste."""
    from tablee.systems.shs import clock_json, protagonist_json

    lines = clock_lines(ctx, clock_json(game.clock))
    for name in game.protagonists:
        lines += hero_lines(ctx, name, protagonist_json(game, name))
    return lines
