"""Exact odds of a YBS test, by driving `resolve_test` over every die the player may throw.

A reroll policy says when the player is stubborn: ``never``; ``once`` (after a failed first
throw, if a token is left); ``any`` (after every failed throw while tokens last). A failed
throw is one that does not succeed; a natural 6 never is one. The player buys a critical
success whenever the final die is a 6 and a token is left (Y-A4). Since a reroll ignores
forced tokens, what follows a reroll depends only on how many were made, so the walk is
memoised on that count: it costs O(tokens) resolutions.

Source: seed 004, "Les tests"; rulings Y-M3, Y-A3, Y-A4, Y-A5; issue 4 point 10.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from tablee.errors import N_, InputError
from tablee.systems.ybs.rolls import MAX_FORCE, YbsTest, resolve_test

__all__ = ["MAX_ODDS_TOKENS", "POLICIES", "TestOdds", "odds_of_test"]

POLICIES = ("any", "once", "never")
"""Reroll policies for the odds (Y-A3)."""
MAX_ODDS_TOKENS = 100
"""Most tokens the odds accept (beyond, nothing changes but the time taken)."""


@dataclass(frozen=True)
class TestOdds:
    """The exact chances of a test.

    Attributes:
        success: the test succeeds.
        critical: the final die is a 6 and a token is left to buy the critical (Y-A4).
        natural_one: the final die is a 1: the GM may make it a critical failure (Y-A5).
        expected_rerolls: the mean number of rerolls (tokens spent after the roll, without
            the critical).
    """

    success: Fraction
    critical: Fraction
    natural_one: Fraction
    expected_rerolls: Fraction

    __test__: ClassVar[bool] = False  # not a pytest test class


_Row = tuple[Fraction, Fraction, Fraction, Fraction]


def _wants_reroll(test: YbsTest, faces: tuple[int, ...], policy: str) -> bool:
    result = resolve_test(test, faces)
    if result.success or result.natural == 6 or result.rerolls >= test.tokens:
        return False
    if test.stubborn_on == "one" and result.natural != 1:
        return False
    return policy == "any" or (policy == "once" and result.rerolls == 0)


def _walk(test: YbsTest, prefix: tuple[int, ...], policy: str, memo: dict[int, _Row]) -> _Row:
    """Chances over the next die after ``prefix`` (memoised once the first die is past)."""
    if prefix and len(prefix) in memo:
        return memo[len(prefix)]
    totals = [Fraction(0)] * 4
    for face in range(1, 7):
        faces = (*prefix, face)
        if _wants_reroll(test, faces, policy):
            sub = _walk(test, faces, policy, memo)
            row = (sub[0], sub[1], sub[2], sub[3] + 1)
        else:
            result = resolve_test(test, faces)
            critical = result.natural == 6 and test.tokens - result.rerolls >= 1
            row = (
                Fraction(int(result.success)),
                Fraction(int(critical)),
                Fraction(int(result.natural == 1)),
                Fraction(0),
            )
        totals = [t + r / 6 for t, r in zip(totals, row, strict=True)]
    out = (totals[0], totals[1], totals[2], totals[3])
    if prefix:
        memo[len(prefix)] = out
    return out


def odds_of_test(
    trait: int, *, force: int = 0, tokens: int = 0, policy: str = "any", stubborn_on: str = "any"
) -> TestOdds:
    """Exact chances of a test.

    Args:
        trait: the trait value, -2..+2.
        force: tokens spent to force destiny, 0..3.
        tokens: tokens the actor holds once forced, 0..`MAX_ODDS_TOKENS`.
        policy: ``any``, ``once`` or ``never`` (see the module).
        stubborn_on: the table's reading, ``any`` or ``one`` (Y-A3).

    Returns:
        Success, critical, final natural 1, and the expected rerolls, as fractions.

    Raises:
        InputError: a value out of range or an unknown policy.

    Source: Y-M3, Y-A3, Y-A4, Y-A5.
    """
    if policy not in POLICIES:
        raise InputError(
            N_("reroll policy {value!r}: any | once | never (rule Y-A3)"), value=policy
        )
    if isinstance(tokens, int) and tokens > MAX_ODDS_TOKENS:
        raise InputError(
            N_("{value} tokens is more than the {maximum} the odds accept"),
            value=tokens,
            maximum=MAX_ODDS_TOKENS,
        )
    if isinstance(force, int) and not isinstance(force, bool) and force > MAX_FORCE:
        raise InputError(
            N_("forcing destiny takes 1 to 3 tokens, not {value} (rule Y-M3)"), value=force
        )
    test = YbsTest(trait, force, tokens, "repeat", stubborn_on)
    success, critical, one, rerolls = _walk(test, (), policy, {})
    return TestOdds(success, critical, one, rerolls)
