"""What the ``tablee ybs`` commands share: the table's game, dice, output of a stored fact.

Each rolled command throws the dice it needs (typed in with ``--faces``, seeded with
``--seed``, else fair) before deciding, then appends the decision taken with those faces.
Every command prints the fact's line (or, with ``--json``, its payload) and the tokens each
holder has after it.

Source: seed 004; rulings Y-M3, Y-M4.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, whole_number
from tablee.cli.common import execute_on, game_for
from tablee.cli.dice_source import dice_source
from tablee.cli.render import format_trace
from tablee.dice import D6
from tablee.errors import N_
from tablee.table.projection import TableState

if TYPE_CHECKING:
    from tablee.systems.ybs import Decision, YbsState

__all__ = ["Tr", "dice_options", "emit_applied", "execute", "game_of", "throw", "tokens_line"]

Tr = Callable[[str], str]


def game_of(state: TableState) -> YbsState:
    """The YBS game of a table, or InputError when the table plays another system."""
    game: YbsState = game_for(
        state,
        "ybs",
        N_("table {name} plays {system}, not Yuigahama Bad Seeds"),
        N_("create one with: tablee table new ybs --name NAME --players A,B"),
    )
    return game


def execute(ctx: Context, decide: Callable[[YbsState], Decision]) -> Any:
    """Decide against the named table's YBS game and append the facts (retrying if raced)."""
    return execute_on(ctx, game_of, decide)


def throw(ctx: Context, count: int) -> list[int]:
    """``count`` d6 faces: typed in (``--faces``, exactly that many), seeded or fair."""
    a = ctx.args
    source, typed = dice_source(getattr(a, "faces", None), getattr(a, "seed", None))
    if typed is not None:
        typed.expect(D6, count)
    return list(source.roll(D6, count))


def dice_options(parser: argparse.ArgumentParser, tr: Tr) -> None:
    """Add ``--dice`` (alias ``--faces``) and ``--seed`` (one of them, or neither: fair dice).

    ``--dice`` is the name the pouyss and shs commands use; ``--faces`` stays as an alias.
    """
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--dice",
        "--faces",
        dest="faces",
        metavar="1,5",
        help=tr("faces read on physical dice, instead of rolling"),
    )
    source.add_argument(
        "--seed", type=whole_number(tr), help=tr("roll reproducibly from this seed")
    )


def tokens_line(ctx: Context, game: YbsState) -> str:
    """``Unmei tokens: GM 95, A 3, B 2`` (``MJ`` in French)."""
    holders = [f"{ctx.tr('GM')} {game.ledger.gm}"]
    holders += [f"{p} {n}" for p, n in game.ledger.players.items()]
    return ctx.tr("Unmei tokens: {holders}").format(holders=", ".join(holders))


def emit_applied(ctx: Context, applied: Any, extra: dict[str, Any] | None = None) -> int:
    """Print a stored fact: its line, trace, notices and the tokens; or it as JSON."""
    event = applied.events[-1]
    game = game_of(applied.state)
    decision = applied.decision
    trace = getattr(decision.outcome, "trace", ())
    if ctx.json:
        doc: dict[str, Any] = {
            "table": applied.state.name,
            "seq": event.seq,
            "event": event.kind,
            **event.payload,
            **(extra or {}),
            "tokens": {"gm": game.ledger.gm, **game.ledger.players},
            "trace": [s.render(ctx.tr) for s in trace],
            "warnings": [w.render(ctx.tr) for w in decision.warnings],
        }
        ctx.emit_json(doc)
        return 0
    line = applied.state.system.describe(event.kind, event.payload, game).render(ctx.tr)
    lines = [f"[bold]{_escape(line)}[/]"]
    if trace:
        lines.append(_escape(format_trace(trace, ctx.tr)))
    lines += [f"[yellow]{_escape(w.render(ctx.tr))}[/]" for w in decision.warnings]
    lines.append(tokens_line(ctx, game))
    ctx.emit("\n".join(lines))
    return 0


def _escape(text: str) -> str:
    """Text with Rich markup characters escaped (names may hold brackets)."""
    return text.replace("[", "\\[")
