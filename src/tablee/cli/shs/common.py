"""What the ``tablee shs`` commands share: the table's game, dice and a few argument types.

Each rolled command plans the Action against the table, throws the dice the plan needs
(typed in, seeded or fair) with `_Dice`, then appends the decision taken with those faces
through `_execute` or the service.

Source: issue 3 points 6 and 7; seed 003; rulings S-M3 (D+/- dice), S-A1, S-A2.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, parse_dice, whole_number
from tablee.cli.common import applied_head, execute_on, game_for, read_game
from tablee.dice import (
    DPM,
    DiceRequest,
    FairSource,
    RandomSource,
    SeededSource,
    check_typed_faces,
)
from tablee.errors import N_, InputError
from tablee.table.projection import TableState

if TYPE_CHECKING:
    from tablee.systems.shs import ActionRoll, Decision, ShsOptions, ShsState

__all__ = ["Tr"]


Tr = Callable[[str], str]


# --- the table -----------------------------------------------------------------------------------


def _game(state: TableState) -> ShsState:
    """The SHS game of a table, or InputError when the table plays another system."""
    game: ShsState = game_for(
        state,
        "shs",
        N_("table {name} plays {system}, not Space Horror Stories"),
        N_("create one with: tablee table new shs --name NAME --players A,B"),
    )
    return game


def _execute(ctx: Context, decide: Callable[[ShsState], Decision]) -> Any:
    """Decide against the named table's SHS game and append the facts (retrying if raced)."""
    return execute_on(ctx, _game, decide)


def _state_of(ctx: Context) -> tuple[str, ShsState]:
    return read_game(ctx, _game)


_head = applied_head


def _after(applied: Any, name: str) -> dict[str, Any]:
    hero = _game(applied.state).protagonists[name]
    return {"nt": hero.nt, "alive": hero.alive}


def _warnings(ctx: Context, decision: Decision) -> list[str]:
    return [f"[yellow]{w.render(ctx.tr)}[/]" for w in decision.warnings]


def _signed(tr: Tr) -> Callable[[str], int]:
    """An argparse ``type`` for a signed change: ``+2``, ``-1``, ``3``."""

    def parse(text: str) -> int:
        digits = text.strip()
        bare = digits[1:] if digits[:1] in "+-" else digits
        if digits and bare.isascii() and bare.isdigit():
            return int(digits)
        raise argparse.ArgumentTypeError(
            tr("{value!r} is not a change like +2 or -1").format(value=text)
        )

    return parse


# --- dice ----------------------------------------------------------------------------------------


def _parse_dpm(text: str | None) -> list[int] | None:
    from tablee.dice import DPM, typed_faces

    faces = typed_faces(text, DPM)
    return None if faces is None else list(faces)


_TYPED_COUNT = (
    N_(
        "{flag}: {given} action dice faces were typed in, but the roll needs {needed} (three "
        "D8 per Action, D10 with a matching Expertise; rules S-M2, S-A1)"
    ),
    N_(
        "{flag}: {given} D+/- faces were typed in, but the roll needs {needed} (one D+/- per "
        "point of net Bonus or Malus; rules S-M3, S-A7)"
    ),
)


class _Dice:
    """Where an Action's faces come from: typed in (``--dice``, ``--dpm-dice``), seeded, fair.

    Typed faces are handed out in order: each Action takes its action dice from ``--dice``
    and its D+/- dice from ``--dpm-dice``, Actions in the order they are named. Too few or
    too many typed faces are reported by `finish`, with the game's names for the dice, before
    anything is decided.
    """

    def __init__(self, ctx: Context) -> None:
        a = ctx.args
        typed, dpm = parse_dice(a.dice), _parse_dpm(a.dpm_dice)
        self.typed: list[tuple[str, list[int]]] = []
        self.needed = [0, 0]
        if typed is not None or dpm is not None:
            self.typed = [("--dice", typed or []), ("--dpm-dice", dpm or [])]
        source: RandomSource = SeededSource(a.seed) if a.seed is not None else FairSource()
        self.source = source

    def _take(self, index: int, die: Any, count: int) -> list[int]:
        start = self.needed[index]
        self.needed[index] += count
        if not self.typed:
            return list(self.source.roll(die, count))
        faces = list(check_typed_faces(self.typed[index][1][start : start + count], die, start + 1))
        filler = 1 if index == 0 else 0  # a shortfall is reported by `finish` before use
        return faces + [filler] * (count - len(faces))

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        """One request's faces (this is a `tablee.dice.Chance`): action or D+/- dice."""
        return tuple(self._take(1 if request.die is DPM else 0, request.die, request.count))

    def throw(self, roll: ActionRoll, options: ShsOptions) -> tuple[list[int], list[int]]:
        """One Action's ``(action faces, D+/- faces)``, asked as the rules ask for them."""
        from tablee.systems.shs import throw_action

        action, dpm = throw_action(roll, self, options)
        return list(action), list(dpm)

    def finish(self) -> None:
        """Typed faces that are too few or too many for the roll are an error."""
        for index, ((flag, faces), needed) in enumerate(zip(self.typed, self.needed, strict=False)):
            if len(faces) != needed:
                raise InputError(_TYPED_COUNT[index], flag=flag, given=len(faces), needed=needed)


def _dice_options(parser: argparse.ArgumentParser, tr: Tr) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--dice",
        metavar="1,5,8",
        help=tr("action dice read on physical dice, in the order the Actions are named"),
    )
    source.add_argument(
        "--seed", type=whole_number(tr), help=tr("roll reproducibly from this seed")
    )
    parser.add_argument(
        "--dpm-dice",
        metavar="+,-,0",
        help=tr(
            "D+/- dice read on physical dice (+, - or 0 for blank); write --dpm-dice=-,+ "
            "when the first is -"
        ),
    )
    parser.add_argument("--odds", action="store_true", help=tr("show the exact odds first"))
    parser.add_argument("--reason", metavar="TEXT", help=tr("a note kept in the log"))
