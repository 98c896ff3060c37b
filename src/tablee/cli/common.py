"""What the system command groups (``tablee shs``, ``ybs``, ``agents``) share alike.

Each group reads its game from the named table (refusing a table of another system),
decides against it through the service (which retries when another writer raced it), and
prints the table and the stored event's number at the head of its JSON documents. The
messages naming a system stay with that system; the plumbing is here once.

Source: docs/architecture.md, "The event log" (decide, append, retry), for the command lines
of every system.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from tablee.cli.app import Context
from tablee.errors import InputError
from tablee.table.projection import TableState

if TYPE_CHECKING:
    from tablee.systems.plugin import Game

__all__ = ["applied_head", "execute_on", "game_for", "read_game"]

G = TypeVar("G")


def game_for(state: TableState[Any], game: Game[G, Any, Any], refusal: str, tip: str) -> G:
    """The state of ``game`` at a table that plays it, typed as that game's state.

    Args:
        state: the table as folded.
        game: the game plugin the command needs.
        refusal: the message (an `N_` template with ``{name}`` and ``{system}``).
        tip: what to do instead (an `N_` template).

    Raises:
        InputError: the table plays another game.
    """
    if state.system is not game:
        raise InputError(refusal, tip=tip, name=state.name, system=state.system.id)
    return state.of(game).game


def execute_on(
    ctx: Context, game_of: Callable[[TableState[Any]], G], decide: Callable[[G], Any]
) -> Any:
    """Decide against the named table's game and append the facts (retrying if raced).

    Args:
        ctx: the command's context (``ctx.args.table`` names the table, or the last used).
        game_of: the system's game of a table (refusing another system's table).
        decide: the decision from the game; its ``facts`` are appended.

    Returns:
        What `tablee.table.service.TableService.execute` returns (the stored events, the
        state after, the decision).
    """
    name = ctx.service.resolve_name(ctx.args.table)
    return ctx.service.execute(name, lambda s: decide(game_of(s)), lambda d: d.facts)


def read_game(ctx: Context, game_of: Callable[[TableState[Any]], G]) -> tuple[str, G]:
    """The named table's name and its game, for commands that only read."""
    name = ctx.service.resolve_name(ctx.args.table)
    return name, game_of(ctx.service.state(name))


def applied_head(applied: Any) -> dict[str, Any]:
    """The table and the last stored event's number, for JSON output."""
    return {"table": applied.state.name, "seq": applied.events[-1].seq}
