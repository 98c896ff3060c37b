"""What the ``tablee agents`` commands share: the table's game, dice, argument types.

Source: seed 002; rulings G-M4.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, whole_number
from tablee.cli.common import applied_head, execute_on, game_for, read_game
from tablee.cli.dice_source import dice_source
from tablee.dice import D6, Die
from tablee.errors import N_
from tablee.table.projection import TableState

if TYPE_CHECKING:
    from tablee.systems.agents import AgentsState, Decision

__all__ = [
    "QUEST_WORDS",
    "WORDS",
    "Dice",
    "Tr",
    "add_dice",
    "execute",
    "game_of",
    "head",
    "names",
    "quest_word",
    "state_of",
    "word",
]

Tr = Callable[[str], str]

WORDS = {
    "active": N_("active"),
    "out": N_("out"),
    "conceded": N_("conceded"),
    "abandoned": N_("abandoned"),
    "won": N_("won"),
    "lost": N_("lost"),
    "critical": N_("critical"),
    "success": N_("success"),
    "failure": N_("failure"),
}
"""Stable ids shown to people (standings, outcomes, quest statuses), marked for translation."""


QUEST_WORDS = {
    "ongoing": N_("under way"),
    "won": N_("accomplished"),
    "failed": N_("failed"),
    "abandoned": N_("given up"),
}
"""A quest's status ids, as shown to people."""


def quest_word(tr: Tr, key: object) -> str:
    """A quest status in the reader's language."""
    text = str(key)
    return tr(QUEST_WORDS[text]) if text in QUEST_WORDS else text


def word(tr: Tr, key: object) -> str:
    """A stable id in the reader's language (the id itself when unknown)."""
    text = str(key)
    return tr(WORDS[text]) if text in WORDS else text


def game_of(state: TableState) -> AgentsState:
    """The agents game of a table, or InputError when the table plays another system."""
    game: AgentsState = game_for(
        state,
        "agents",
        N_("table {name} plays {system}, not the agents game"),
        N_("create one with: tablee table new agents --name NAME --players A,B"),
    )
    return game


def execute(ctx: Context, decide: Callable[[AgentsState], Decision]) -> Any:
    """Decide against the named table's game and append the facts (retrying if raced)."""
    return execute_on(ctx, game_of, decide)


def state_of(ctx: Context) -> tuple[str, AgentsState]:
    """The table's name and its game, for commands that only read."""
    return read_game(ctx, game_of)


head = applied_head
"""The table and the last stored event's number, for JSON output."""


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
        "--seed", type=whole_number(tr), help=tr("roll reproducibly from this seed")
    )
