"""Exact odds of a YBS test, by driving the rule code one throw at a time.

A reroll policy says how far the player is stubborn: ``never``; ``once`` (after a failed
first throw, if a token is left); ``any`` (after every failed throw while tokens last). The
policy is the table's reading of s'entêter (``stubborn`` = ``never``, ``once``, ``repeat``):
the player rerolls every throw that does not succeed whenever the rules allow it
(`tablee.systems.ybs.rolls.reroll_refusal`), and buys a critical success whenever the rules
allow that (a final 6 and a token left, `critical_refusal`; Y-A4).

Each throw is one step of an absorbing chain (`tablee.dice.absorbing`): `throw_test` throws
the die and `resolve_test` reads every die so far, as in live play. Since a reroll ignores
forced tokens, what follows a decision to reroll depends only on how many rerolls were made,
so the states are memoised on that count: the chain has at most ``tokens + 1`` states.

Source: seed 004, "Les tests"; rulings Y-M3, Y-A3, Y-A4, Y-A5.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from tablee.dice import Chance, End, Next, absorbing
from tablee.errors import N_, InputError
from tablee.systems.ybs.rolls import (
    MAX_FORCE,
    TestResult,
    YbsTest,
    critical_refusal,
    reroll_refusal,
    throw_test,
)

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


_STUBBORN = {"any": "repeat", "once": "once", "never": "never"}
"""The table's reading of s'entêter that each policy plays (Y-A3)."""

_End = tuple[bool, bool, bool]  # success, critical success bought, final natural 1


def odds_of_test(
    trait: int,
    *,
    force: int = 0,
    tokens: int = 0,
    policy: str = "any",
    stubborn_on: str = "any",
    gm_critical: bool = False,
) -> TestOdds:
    """Exact chances of a test.

    Args:
        trait: the trait value, -2..+2.
        force: tokens spent to force destiny, 0..3.
        tokens: tokens the actor holds once forced, 0..`MAX_ODDS_TOKENS`.
        policy: ``any``, ``once`` or ``never`` (see the module).
        stubborn_on: the table's reading, ``any`` or ``one`` (Y-A3).
        gm_critical: a GM character's test at a table whose GM's bag pays for its critical
            success (the house rule ``gm_criticals``, Y-X6); ``tokens`` is then 0.

    Returns:
        Success, critical, final natural 1, and the expected rerolls, as fractions.

    Raises:
        InputError: a value out of range or an unknown policy.

    Source: Y-M3, Y-A3, Y-A4, Y-A5, Y-X6.
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
    test = YbsTest(
        trait,
        force,
        tokens,
        _STUBBORN[policy],
        stubborn_on,
        npc=gm_critical,
        gm_critical=gm_critical,
    )

    def step(previous: TestResult | None, chance: Chance) -> Next[TestResult | None] | End[_End]:
        result = throw_test(test, previous, chance)
        if not result.success and reroll_refusal(test, result.faces) is None:
            return Next(result)
        critical = critical_refusal(test, result.faces) is None
        return End((result.success, critical, result.natural == 1))

    chain = absorbing(None, step, key=lambda r: -1 if r is None else r.rerolls)
    return TestOdds(
        chain.probability_where(lambda e: e[0]),
        chain.probability_where(lambda e: e[1]),
        chain.probability_where(lambda e: e[2]),
        chain.expected_steps - 1,
    )
