"""Protagoniste against Protagoniste: both roll, the side with more PS wins.

Only Protagonistes roll, so an opposed Action always sets two Protagonistes against each
other (the Environment's opposition is a Test's Difficulty and modifiers, S-A6). Each side
keeps its own bonuses and maluses. The text does not say who wins a tie: by default the side
trying to change the situation fails and the status quo holds; when neither side resists
(two symmetric goals) neither achieves its goal. The ``opposed_tie = reroll`` option asks for
a new roll instead.

Source: seed 003, "Protagoniste contre Protagoniste", "Bonus et Malus"; rulings S-M3, S-M4,
S-A3, S-A5, S-A6, S-T9.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from tablee.dice import DiceRequest, Trace, TraceStep
from tablee.errors import N_, InputError
from tablee.systems.shs.actions import (
    DEFAULT_OPTIONS,
    ActionResult,
    ActionRoll,
    dice_for_action,
    resolve_action,
)
from tablee.systems.shs.options import ShsOptions

__all__ = [
    "OPPOSED",
    "OpposedAction",
    "OpposedMechanic",
    "OpposedResult",
    "Side",
    "dice_for_opposed",
    "resolve_opposed",
]


class Side(Enum):
    """One side of an opposed Action.

    Source: seed 003, "Protagoniste contre Protagoniste"; S-M4.
    """

    FIRST = "first"
    SECOND = "second"

    @property
    def other(self) -> Side:
        """The opposite side."""
        return Side.SECOND if self is Side.FIRST else Side.FIRST


@dataclass(frozen=True)
class OpposedAction:
    """Inputs of an opposed Action between two Protagonistes.

    Attributes:
        first: the first Protagoniste's roll (threshold, Expertise, own bonus and malus).
        second: the second Protagoniste's roll.
        changer: the side trying to change the situation (the other resists), or None when
            both pursue symmetric goals; it decides ties (S-A5).

    Raises:
        InputError: a side that is not an `ActionRoll`, or a ``changer`` that is not a `Side`.

    Source: seed 003, "Protagoniste contre Protagoniste", "Bonus et Malus"; S-M3, S-M4, S-A5,
    S-A6.
    """

    first: ActionRoll
    second: ActionRoll
    changer: Side | None = Side.FIRST

    def __post_init__(self) -> None:
        for name in ("first", "second"):
            if not isinstance(getattr(self, name), ActionRoll):
                raise InputError(
                    N_("the {side} side of an opposed Action must be a roll, not {value!r}"),
                    side=name,
                    value=getattr(self, name),
                )
        if self.changer is not None:
            object.__setattr__(self, "changer", Side(self.changer))

    def roll_of(self, side: Side) -> ActionRoll:
        """One side's roll."""
        return self.first if side is Side.FIRST else self.second


@dataclass(frozen=True)
class OpposedResult:
    """Outcome of an opposed Action.

    Attributes:
        first, second: each side's dice result.
        winner: the side whose goal prevails, or None (a tie with no resisting side, or a tie
            to be rolled again).
        tie: both sides have the same PS.
        reroll: a tie under ``opposed_tie = reroll``: roll the Action again.
        status_quo: the situation stays as it was (the changer did not win).
        trace: the steps.

    Source: seed 003, "Protagoniste contre Protagoniste"; S-M4, S-A5.
    """

    first: ActionResult
    second: ActionResult
    winner: Side | None
    tie: bool
    reroll: bool
    status_quo: bool
    trace: Trace

    def result_of(self, side: Side) -> ActionResult:
        """One side's dice result."""
        return self.first if side is Side.FIRST else self.second


def dice_for_opposed(
    inputs: OpposedAction, options: ShsOptions = DEFAULT_OPTIONS
) -> tuple[DiceRequest, ...]:
    """The dice: the first side's requests of `dice_for_action`, then the second side's.

    Source: seed 003; S-M4.
    """
    return (*dice_for_action(inputs.first, options), *dice_for_action(inputs.second, options))


_WINS = {
    Side.FIRST: N_("the first side has more PS and wins"),
    Side.SECOND: N_("the second side has more PS and wins"),
}
_TIE_KEEPS = {  # keyed by the resisting side, which wins the tie
    Side.SECOND: N_("a tie: the first side, seeking change, fails; the status quo holds (S-A5)"),
    Side.FIRST: N_("a tie: the second side, seeking change, fails; the status quo holds (S-A5)"),
}


def _winner(inputs: OpposedAction, a: int, b: int, options: ShsOptions) -> Side | None:
    if a != b:
        return Side.FIRST if a > b else Side.SECOND
    if options.opposed_tie == "reroll" or inputs.changer is None:
        return None
    return inputs.changer.other


def resolve_opposed(
    inputs: OpposedAction,
    first_faces: tuple[Sequence[int], Sequence[int]],
    second_faces: tuple[Sequence[int], Sequence[int]],
    options: ShsOptions = DEFAULT_OPTIONS,
) -> OpposedResult:
    """Resolve an opposed Action: each side counts its PS, the higher total wins.

    Args:
        inputs: both rolls and the side seeking change.
        first_faces: the first side's ``(action faces, D+/- faces)``.
        second_faces: the second side's ``(action faces, D+/- faces)``.
        options: ``opposed_tie`` (S-A5) and ``negative_ps`` (S-A3) matter here.

    Raises:
        InputError: the wrong number of faces, or a face a die cannot show.

    Source: seed 003; S-M4, S-A3, S-A5.
    """
    first = resolve_action(inputs.first, *first_faces, options)
    second = resolve_action(inputs.second, *second_faces, options)
    tie = first.ps == second.ps
    winner = _winner(inputs, first.ps, second.ps, options)
    reroll = tie and options.opposed_tie == "reroll"
    status_quo = inputs.changer is None or winner is not inputs.changer
    steps = [
        TraceStep(N_("first side: {ps} PS"), {"ps": first.ps}),
        *first.trace,
        TraceStep(N_("second side: {ps} PS"), {"ps": second.ps}),
        *second.trace,
    ]
    if reroll:
        steps.append(TraceStep(N_("a tie: roll again (option opposed_tie, S-A5)")))
    elif winner is None:
        steps.append(TraceStep(N_("a tie: neither side achieves its goal (rule S-A5)")))
    elif tie:
        steps.append(TraceStep(_TIE_KEEPS[winner]))
    else:
        steps.append(TraceStep(_WINS[winner]))
    return OpposedResult(first, second, winner, tie, reroll, status_quo, tuple(steps))


class OpposedMechanic:
    """An opposed Action as a mechanic over one flat face list.

    Face order: the first side's action dice and D+/- dice, then the second side's action
    dice and D+/- dice (the order of `dice_for_opposed`).

    Args:
        options: the house rules (the rulings' readings by default).

    Source: seed 003; S-M4.
    """

    def __init__(self, options: ShsOptions = DEFAULT_OPTIONS) -> None:
        self.options = options

    def dice_for(self, inputs: OpposedAction) -> tuple[DiceRequest, ...]:
        """See `dice_for_opposed`."""
        return dice_for_opposed(inputs, self.options)

    def resolve(self, inputs: OpposedAction, faces: Sequence[int]) -> OpposedResult:
        """Split the flat faces in the order of `dice_for_opposed` and resolve."""
        n = self.options.action_dice
        first_dpm = n + sum(g.count for g in inputs.first.dpm_groups(self.options))
        first = (faces[:n], faces[n:first_dpm])
        second = (faces[first_dpm : first_dpm + n], faces[first_dpm + n :])
        return resolve_opposed(inputs, first, second, self.options)


OPPOSED = OpposedMechanic()
"""The opposed Action mechanic with the rulings' readings (S-M4)."""
