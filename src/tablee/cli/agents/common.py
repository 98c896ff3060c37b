"""What ``tablee agents play`` shares: the table's game, its dice, names typed in a line.

Source: seed 002; docs/rules/agents.md (G-M4).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, whole_number
from tablee.cli.common import game_for
from tablee.cli.dice_source import dice_source
from tablee.dice import D6, Die
from tablee.errors import N_
from tablee.table.projection import TableState

if TYPE_CHECKING:
    from tablee.systems.agents import AgentsState

__all__ = ["Dice", "Rolls", "Tr", "add_dice", "game_of", "names"]

Tr = Callable[[str], str]


def game_of(state: TableState[Any]) -> AgentsState:
    """The agents game of a table, or InputError when the table plays another system."""
    from tablee.systems.agents.plugin import AGENTS_GAME

    return game_for(
        state,
        AGENTS_GAME,
        N_("table {name} plays {system}, not the agents game"),
        N_("create one with: tablee table new agents --name NAME --players A,B"),
    )


def names(text: str | None) -> list[str]:
    """``"A, B"`` as ``["A", "B"]`` (empty parts dropped)."""
    return [p.strip() for p in (text or "").split(",") if p.strip()]


class Dice:
    """Where faces come from: typed in (``--dice``), seeded (``--seed``) or fair.

    Typed faces are handed out in the order asked for; `finish` checks none is left over.
    """

    def __init__(self, ctx: Context) -> None:
        a = ctx.args
        self.source, self.typed = dice_source(getattr(a, "dice", None), getattr(a, "seed", None))

    def roll(self, count: int = 1, die: Die = D6) -> list[int]:
        """``count`` faces of ``die``."""
        return list(self.source.roll(die, count))

    def finish(self) -> None:
        """Typed faces left over are an error."""
        if self.typed is not None:
            self.typed.finish()


class Rolls:
    """A ``play`` run's dice as a `tablee.dice.RandomSource` for one command.

    The faces left over belong to the next commands of the run: nothing is checked when
    one command is done with them.
    """

    def __init__(self, dice: Dice) -> None:
        self.dice = dice

    def roll(self, die: Die, count: int) -> tuple[int, ...]:
        """``count`` faces of ``die`` from the run's dice."""
        return tuple(self.dice.roll(count, die))


def add_dice(parser: argparse.ArgumentParser, tr: Tr) -> None:
    """Add ``--dice`` (alias ``--faces``) and ``--seed``, mutually exclusive."""
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--dice",
        "--faces",
        dest="dice",
        metavar="4",
        help=tr("faces read on physical dice instead of rolling"),
    )
    source.add_argument(
        "--seed",
        type=whole_number(tr),
        help=tr(
            "roll reproducibly from this seed and the log's length: the same on the same "
            "log, new dice on a resumed game"
        ),
    )
