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
from dataclasses import dataclass, replace
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
from tablee.systems.shs.situations import situation_steps

__all__ = [
    "OPPOSED",
    "OpposedAction",
    "OpposedMechanic",
    "OpposedOutcome",
    "OpposedResult",
    "Side",
    "dice_for_opposed",
    "net_across",
    "resolve_opposed",
    "settle_opposed",
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
        outcome: how it ends (`OpposedOutcome`, the id used by the odds).

    Source: seed 003, "Protagoniste contre Protagoniste"; S-M4, S-A5.
    """

    first: ActionResult
    second: ActionResult
    winner: Side | None
    tie: bool
    reroll: bool
    status_quo: bool
    trace: Trace
    outcome: OpposedOutcome


def _netted_to(roll: ActionRoll, target: int, options: ShsOptions) -> ActionRoll:
    """The roll with bonus and malus set so that its net modifier is ``target``."""
    option = roll.net_modifier(options) - (roll.bonus - roll.malus)
    value = target - option
    return replace(roll, bonus=max(value, 0), malus=max(-value, 0))


def net_across(
    first: ActionRoll, second: ActionRoll, options: ShsOptions = DEFAULT_OPTIONS
) -> tuple[ActionRoll, ActionRoll]:
    """Both sides' rolls with their modifiers netted as the table's option says (S-X4).

    Under ``opposed_modifiers = apart`` (the default) each side keeps its own net modifier.
    Under ``difference`` the two net modifiers (an option's Bonus 2 included when netted)
    are netted against each other, a Bonus for one side counting as a Malus for the other
    (S-M3): the side with the larger one gets the difference as a Bonus, the other none.

    Raises:
        InputError: a difference above `tablee.systems.shs.actions.MAX_MODIFIER`.

    Source: seed 003, "Bonus et Malus"; S-M3, S-M4, S-X4.
    """
    if options.opposed_modifiers != "difference":
        return first, second
    difference = first.net_modifier(options) - second.net_modifier(options)
    return (
        _netted_to(first, max(difference, 0), options),
        _netted_to(second, max(-difference, 0), options),
    )


def dice_for_opposed(
    inputs: OpposedAction, options: ShsOptions = DEFAULT_OPTIONS
) -> tuple[DiceRequest, ...]:
    """The dice: the first side's requests of `dice_for_action`, then the second side's.

    Source: seed 003; S-M4.
    """
    return (*dice_for_action(inputs.first, options), *dice_for_action(inputs.second, options))


class OpposedOutcome(Enum):
    """How an opposed Action ends; the value is a stable id (used in odds and JSON).

    Source: seed 003, "Protagoniste contre Protagoniste"; S-M4, S-A3, S-A5.
    """

    FIRST = "first"
    """The first side has more PS and wins."""
    SECOND = "second"
    """The second side has more PS and wins."""
    TIE_FIRST_HOLDS = "tie_first_holds"
    """A tie: the second side sought the change and fails; the first keeps things as they were."""
    TIE_SECOND_HOLDS = "tie_second_holds"
    """A tie: the first side sought the change and fails; the second keeps things as they were."""
    TIE_NEITHER = "tie_neither"
    """A tie between two symmetric goals: neither side achieves its own."""
    TIE_REROLL = "tie_reroll"
    """A tie under ``opposed_tie = reroll``: the Action is rolled again."""

    @property
    def winner(self) -> Side | None:
        """The side whose goal prevails, or None."""
        return {
            "first": Side.FIRST,
            "second": Side.SECOND,
            "tie_first_holds": Side.FIRST,
            "tie_second_holds": Side.SECOND,
        }.get(self.value)

    @property
    def tie(self) -> bool:
        """Both sides have the same PS."""
        return self.value.startswith("tie_")


def settle_opposed(
    inputs: OpposedAction, first_ps: int, second_ps: int, options: ShsOptions = DEFAULT_OPTIONS
) -> OpposedOutcome:
    """Who prevails, from the two PS totals that count (the rule shared by rolls and odds).

    Args:
        inputs: the sides and the side seeking change.
        first_ps, second_ps: each side's PS total as it counts (signed unless
            ``negative_ps = zero``, S-A3).
        options: ``opposed_tie`` matters here (S-A5).

    Source: seed 003, "Protagoniste contre Protagoniste"; S-M4, S-A3, S-A5.
    """
    if first_ps != second_ps:
        return OpposedOutcome.FIRST if first_ps > second_ps else OpposedOutcome.SECOND
    if options.opposed_tie == "reroll":
        return OpposedOutcome.TIE_REROLL
    if inputs.changer is None:
        return OpposedOutcome.TIE_NEITHER
    if inputs.changer is Side.FIRST:
        return OpposedOutcome.TIE_SECOND_HOLDS
    return OpposedOutcome.TIE_FIRST_HOLDS


_STEPS = {
    OpposedOutcome.FIRST: N_("the first side has more PS and wins"),
    OpposedOutcome.SECOND: N_("the second side has more PS and wins"),
    OpposedOutcome.TIE_SECOND_HOLDS: N_(
        "a tie at {ps} PS: the first side sought the change and does not get it; the second "
        "side keeps the situation as it was"
    ),
    OpposedOutcome.TIE_FIRST_HOLDS: N_(
        "a tie at {ps} PS: the second side sought the change and does not get it; the first "
        "side keeps the situation as it was"
    ),
    OpposedOutcome.TIE_NEITHER: N_(
        "a tie at {ps} PS: neither side achieves its goal, the situation stays as it was"
    ),
    OpposedOutcome.TIE_REROLL: N_("a tie at {ps} PS: roll again (house rule)"),
}


def resolve_opposed(
    inputs: OpposedAction,
    first_faces: tuple[Sequence[int], Sequence[int]],
    second_faces: tuple[Sequence[int], Sequence[int]],
    options: ShsOptions = DEFAULT_OPTIONS,
    *,
    first_malus: int = 0,
) -> OpposedResult:
    """Resolve an opposed Action: each side counts its PS, the higher total wins.

    Args:
        inputs: both rolls and the side seeking change.
        first_faces: the first side's ``(action faces, D+/- faces)``.
        second_faces: the second side's ``(action faces, D+/- faces)``.
        options: ``opposed_tie`` (S-A5) and ``negative_ps`` (S-A3) matter here; the rolls
            are already netted across the sides when ``opposed_modifiers`` says so
            (`net_across`, S-X4).
        first_malus: the situation's Malus on the first side, already in its roll: a
            simultaneous set's k - 1 when the Action is one of the set (S-X5); it is named
            first in that side's trace.

    Raises:
        InputError: the wrong number of faces, or a face a die cannot show.

    Source: seed 003; S-M4, S-M7, S-A3, S-A5, S-X4, S-X5.
    """
    first = resolve_action(inputs.first, *first_faces, options)
    if first_malus:
        first = replace(first, trace=(*situation_steps(0, first_malus), *first.trace))
    second = resolve_action(inputs.second, *second_faces, options)
    outcome = settle_opposed(inputs, first.ps, second.ps, options)
    winner = outcome.winner
    status_quo = inputs.changer is None or winner is not inputs.changer
    across = options.opposed_modifiers == "difference"
    steps = [
        *(
            [TraceStep(N_("house rule: the difference of the modifiers goes to one side"))]
            if across
            else []
        ),
        TraceStep(N_("first side: {ps} PS"), {"ps": first.ps}),
        *first.trace,
        TraceStep(N_("second side: {ps} PS"), {"ps": second.ps}),
        *second.trace,
        TraceStep(_STEPS[outcome], {"ps": first.ps} if outcome.tie else {}),
    ]
    reroll = outcome is OpposedOutcome.TIE_REROLL
    return OpposedResult(
        first, second, winner, outcome.tie, reroll, status_quo, tuple(steps), outcome
    )


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
