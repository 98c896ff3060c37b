"""Exact odds of Pouyss rolls, in closed form.

With ``n = 1 + B + M`` dice, the result is the ``(M + 1)``-th highest die. It is at most ``v``
exactly when at most ``M`` dice show more than ``v``, so the number of the ``6 ** n`` ordered
rolls with result ``<= v`` is ``sum(C(n, k) * (6 - v) ** k * v ** (n - k) for k in 0..M)``.
Counts are integers; probabilities are `Fraction`. The tests prove this equal to resolving
every possible roll with `tablee.systems.pouyss.actions.resolve_action_roll`, and to icepool.

Source: seed 000, "Effet des malus"; rulings P-M1, P-M8, P-A10, P-A11.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from tablee.dice import Distribution
from tablee.systems.pouyss.actions import ActionRoll, OpposedRoll

__all__ = ["action_distribution", "opposed_distribution", "passive_distribution"]


@lru_cache(maxsize=4096)
def _cumulative(n: int, malus: int, v: int) -> int:
    """Ordered rolls of ``n`` d6 whose ``(malus + 1)``-th highest die is at most ``v``."""
    return sum(comb(n, k) * (6 - v) ** k * v ** (n - k) for k in range(malus + 1))


def action_distribution(inputs: ActionRoll) -> Distribution[int]:
    """Exact distribution of an action roll's value (1 to 6).

    Args:
        inputs: bonus and malus counts (at most `MAX_DICE` dice in all).

    Returns:
        value -> number of ordered rolls (out of ``6 ** (1 + B + M)``) giving it; values that
        cannot happen are left out.

    Source: P-M1 (result is the highest die once the M highest are removed).
    """
    n = inputs.pool
    weights: dict[int, int] = {}
    below = 0
    for v in range(1, 7):
        upto = _cumulative(n, inputs.malus, v)
        if upto > below:
            weights[v] = upto - below
        below = upto
    return Distribution(weights)


def opposed_distribution(inputs: OpposedRoll) -> Distribution[int]:
    """Exact distribution of the active side's value in an opposed roll.

    Source: P-M8 (the passive dice are converted, then one action roll).
    """
    return action_distribution(inputs.as_action())


def passive_distribution(inputs: OpposedRoll) -> Distribution[int]:
    """Exact distribution of the passive side's value (7 - active value).

    Source: P-M8, P-A11.
    """
    return opposed_distribution(inputs).map(lambda v: 7 - v)
