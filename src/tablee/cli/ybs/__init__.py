"""``tablee ybs ...`` and ``tablee odds ybs``: Yuigahama Bad Seeds at the command line.

A GM runs a whole session: characters (created or imported), sessions and Unmei tokens,
tests with their follow-ups (s'entêter, critical success, critical failure), damage and rest,
individual fights, gang fights throw by throw with the advisor's odds, Ichika Bachika,
evolution. Each rolled command throws its dice (typed in with
``--faces``, seeded or fair), then appends the decision taken with those faces; ``--json``
prints the stored payload (natural dice, modified result, success, critical, token moves).

Source: seed 004; rulings Y-M1 to Y-M9.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablee.cli.app import Context
from tablee.cli.ybs.common import Tr
from tablee.cli.ybs.odds import add_odds_parser

__all__ = ["COMMANDS", "add_odds_parser", "add_parser", "format_summary"]

_GROUPS: dict[str, str] = {
    "character": "character",
    "session": "session",
    "tokens": "session",
    "invoke": "session",
    "shichi-fukujin": "session",
    "test": "test",
    "stubborn": "test",
    "critical": "test",
    "critical-failure": "test",
    "damage": "damage",
    "rest": "damage",
    "heal": "damage",
    "fight": "fight",
    "star": "star",
    "transfer": "star",
    "trauma": "star",
    "attributes": "star",
    "gang": "gang",
    "ichika": "gang",
}

COMMANDS: tuple[str, ...] = tuple(_GROUPS)
"""The commands of ``tablee ybs`` (each may be built with its group alone, to start faster)."""


def _builders() -> dict[str, Callable[[Any, Tr], None]]:
    from tablee.cli.ybs.commands import BUILDERS
    from tablee.cli.ybs.gang_cmds import BUILDERS as GANG

    builders: dict[str, Callable[[Any, Tr], None]] = {**BUILDERS, **GANG}
    return builders


def add_parser(sub: Any, tr: Tr, only: str | None = None) -> None:
    """Add ``tablee ybs ...`` to the top-level subparsers.

    Args:
        sub: the top-level subparsers.
        tr: translation of help texts.
        only: build just this command's group (one of `COMMANDS`), to start faster.
    """
    group = sub.add_parser("ybs", help=tr("play Yuigahama Bad Seeds"))
    cmds = group.add_subparsers(dest="command", required=True, metavar="COMMAND")
    wanted = _GROUPS.get(only or "")
    for key, build in _builders().items():
        if only is None or wanted is None or key == wanted:
            build(cmds, tr)


def format_summary(ctx: Context, game: Any) -> list[str]:
    """The YBS lines of ``table show``: session, tokens, then each character."""
    from tablee.cli.ybs.commands import character_lines
    from tablee.cli.ybs.common import tokens_line
    from tablee.systems.ybs import character_json

    status = (
        ctx.tr("session {n} in progress") if game.in_session else ctx.tr("no session in progress")
    ).format(n=game.session)
    lines = [ctx.tr("Status: {status}").format(status=status), tokens_line(ctx, game)]
    for name in game.characters:
        lines += character_lines(ctx, name, character_json(game, name))
    return lines
