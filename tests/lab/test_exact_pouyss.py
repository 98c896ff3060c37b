"""Pouyss lab tables against the text's worked examples and icepool.

icepool's own reading of P-M1: of ``1 + B + M`` d6, drop the ``M`` highest and keep the
next one; the opposed roll converts the passive side's dice first (P-M8) and the passive
side reads ``7 - value`` (P-A11).
"""

from fractions import Fraction

import icepool

from tablee.lab.pouyss import Opposed, Success
from tablee.lab.questions import LabContext


def _icepool_success(bonus: int, malus: int, threshold: int) -> Fraction:
    die = icepool.d6.pool(1 + bonus + malus).highest(keep=1, drop=malus).sum()
    return Fraction((die >= threshold).quantity(True), die.denominator())


def test_success_equals_icepool_for_every_threshold() -> None:
    result = Success(max_bonus=4, max_malus=4).answer(LabContext())
    assert len(result.rows) == 6 * 5 * 5
    for row in result.rows:
        expected = _icepool_success(row["bonus"], row["malus"], row["threshold"])
        assert row["p_success"] == expected, row


def test_success_from_the_worked_examples() -> None:
    rows = {
        (r["threshold"], r["bonus"], r["malus"]): r["p_success"]
        for r in Success().answer(LabContext()).rows
    }
    # P-T1..P-T6: one die, a success on 4, 5 or 6.
    assert rows[4, 0, 0] == Fraction(1, 2)
    # P-T7: William, two bonus dice: the best of three d6 is 4 or more unless all are below.
    assert rows[4, 2, 0] == 1 - Fraction(1, 2) ** 3
    # P-T8: one bonus, two malus: the third highest of four d6 is 4 or more when at least
    # three of the four are: (4 + 1) of 16 patterns.
    assert rows[4, 1, 2] == Fraction(5, 16)
    # A threshold of 1 always succeeds; a higher threshold never succeeds more often.
    for (threshold, bonus, malus), p in rows.items():
        if threshold == 1:
            assert p == 1
        else:
            assert p <= rows[threshold - 1, bonus, malus]


def test_success_without_comparison_keeps_the_threshold_given() -> None:
    result = Success(max_bonus=1, max_malus=1, threshold=5, compare="none").answer(LabContext())
    assert {r["threshold"] for r in result.rows} == {5}
    assert result.rows[0]["p_success"] == Fraction(1, 3)


def test_opposed_converts_the_passive_dice_and_mirrors() -> None:
    result = Opposed(max_bonus=3, active_malus=1, passive_malus=2).answer(LabContext())
    for row in result.rows:
        # P-M8: B = Ba + Mp, M = Ma + Bp.
        bonus, malus = row["active_bonus"] + 2, 1 + row["passive_bonus"]
        assert row["p_active_success"] == _icepool_success(bonus, malus, 4)
        # P-A11 at threshold 4: the passive side succeeds exactly when the active one fails.
        assert row["p_active_success"] + row["p_passive_success"] == 1


def test_opposed_passive_side_at_another_threshold() -> None:
    result = Opposed(max_bonus=2, threshold=5).answer(LabContext())
    for row in result.rows:
        die = icepool.d6.pool(1 + row["active_bonus"] + row["passive_bonus"])
        value = die.highest(keep=1, drop=row["passive_bonus"]).sum()
        passive = (7 - value) >= 5
        assert row["p_passive_success"] == Fraction(passive.quantity(True), passive.denominator())
        assert row["p_triomphe"] == Fraction(value.quantity(6), value.denominator())
