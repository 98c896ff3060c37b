"""Exact odds of Pouyss rolls against three independent oracles.

1. `tablee.dice.exact_distribution`: every roll resolved by the rule code itself.
2. A literal brute force over every ordered roll, written here from the text.
3. icepool (tests only), with the text's rule: drop the M highest dice, keep the next one.
"""

from collections import Counter
from fractions import Fraction
from itertools import product

import icepool
import pytest

from tablee.dice import exact_distribution
from tablee.systems.pouyss import (
    ACTION,
    OPPOSED,
    ActionRoll,
    OpposedRoll,
    action_distribution,
    level_of,
    opposed_distribution,
    passive_distribution,
)

GRID_10 = [(b, m) for b in range(10) for m in range(10) if 1 + b + m <= 10]
GRID_6 = [(b, m) for b in range(6) for m in range(6) if 1 + b + m <= 6]
GRID_20 = [(b, m) for b in range(21) for m in range(21)]
OPPOSED_GRID = [
    (ba, ma, bp, mp)
    for ba in range(3)
    for ma in range(3)
    for bp in range(3)
    for mp in range(3)
    if 1 + ba + ma + bp + mp <= 7
]


def _brute_force(bonus, malus):
    """Seed 000, "Effet des malus": throw 1+B+M d6, remove the M highest, read the highest."""
    counts = Counter()
    for faces in product(range(1, 7), repeat=1 + bonus + malus):
        left = sorted(faces)[: len(faces) - malus]
        counts[max(left)] += 1
    return dict(counts)


def _icepool_probabilities(bonus, malus):
    die = icepool.d6.pool(1 + bonus + malus).highest(keep=1, drop=malus).sum()
    return {v: Fraction(q, die.denominator()) for v, q in die.items()}


@pytest.mark.parametrize(("bonus", "malus"), GRID_10)
def test_closed_form_equals_resolving_every_roll(bonus, malus):
    inputs = ActionRoll(bonus, malus)
    closed = action_distribution(inputs)
    resolved = exact_distribution(ACTION, inputs, key=lambda r: r.value)
    assert dict(closed.weights) == dict(resolved.weights)
    assert closed.total == 6 ** (1 + bonus + malus)
    assert resolved.total == 6 ** (1 + bonus + malus)


@pytest.mark.parametrize(("bonus", "malus"), GRID_6)
def test_closed_form_equals_brute_force(bonus, malus):
    assert dict(action_distribution(ActionRoll(bonus, malus)).weights) == _brute_force(bonus, malus)


@pytest.mark.parametrize(("bonus", "malus"), [(b, m) for b, m in GRID_6 if b + m <= 4])
def test_icepool_oracle_agrees_with_brute_force(bonus, malus):
    counts = _brute_force(bonus, malus)
    total = 6 ** (1 + bonus + malus)
    assert _icepool_probabilities(bonus, malus) == {
        v: Fraction(c, total) for v, c in counts.items()
    }


def test_closed_form_equals_icepool_up_to_20_bonus_and_20_malus():
    # 441 pools of 1 to 41 dice; about half a second on a laptop.
    for bonus, malus in GRID_20:
        ours = action_distribution(ActionRoll(bonus, malus))
        theirs = _icepool_probabilities(bonus, malus)
        assert dict(ours.items()) == theirs, (bonus, malus)


def test_hand_computed_odds():
    one_die = action_distribution(ActionRoll(0, 0))
    assert all(one_die.probability(v) == Fraction(1, 6) for v in range(1, 7))
    # Best of two dice: P(6) = 11/36; worst of two (one malus): P(6) = 1/36, P(1) = 11/36.
    assert action_distribution(ActionRoll(1, 0)).probability(6) == Fraction(11, 36)
    assert action_distribution(ActionRoll(0, 1)).probability(6) == Fraction(1, 36)
    assert action_distribution(ActionRoll(0, 1)).probability(1) == Fraction(11, 36)
    # P-A4: one bonus and one malus is the median of three, not a single die.
    assert action_distribution(ActionRoll(1, 1)) != one_die


def _success(v):
    return level_of(v).is_success(4)


def test_success_probability_of_one_die_is_one_half():
    # Seed 000, "Résultats": 4, 5 and 6 succeed on a single die.
    assert action_distribution(ActionRoll(0, 0)).probability_where(_success) == Fraction(1, 2)
    # Two dice: fails only when both show 1-3 (bonus) / when either does (malus).
    assert action_distribution(ActionRoll(1, 0)).probability_where(_success) == Fraction(3, 4)
    assert action_distribution(ActionRoll(0, 1)).probability_where(_success) == Fraction(1, 4)


@pytest.mark.parametrize(("ba", "ma", "bp", "mp"), OPPOSED_GRID)
def test_opposed_roll_is_the_converted_action_roll(ba, ma, bp, mp):
    inputs = OpposedRoll(ba, ma, bp, mp)
    active = opposed_distribution(inputs)
    assert active == action_distribution(ActionRoll(ba + mp, ma + bp))
    assert dict(active.weights) == dict(
        exact_distribution(OPPOSED, inputs, key=lambda r: r.roll.value).weights
    )
    passive = passive_distribution(inputs)
    assert passive == exact_distribution(OPPOSED, inputs, key=lambda r: r.passive_value)
    assert all(passive.probability(7 - v) == active.probability(v) for v in range(1, 7))
    assert sum(p for _, p in active.items()) == 1
    assert sum(p for _, p in passive.items()) == 1


def test_opposed_even_sides_is_the_median_of_three():
    # Ba = 1 against Bp = 1: B = 1, M = 1, so P(median of 3 d6 is 6) = (1 + 3*5) / 216.
    active = opposed_distribution(OpposedRoll(active_bonus=1, passive_bonus=1))
    assert active.probability(6) == Fraction(16, 216)
    assert passive_distribution(OpposedRoll(active_bonus=1, passive_bonus=1)).probability(
        1
    ) == Fraction(16, 216)
