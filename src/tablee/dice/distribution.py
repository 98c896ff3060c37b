"""Exact discrete distributions with integer weights.

A `Distribution` maps outcomes to integer weights (counts of equally likely rolls). Every
probability it gives is a `fractions.Fraction`; floats appear only when rendering.

Source: docs/architecture.md ("A mechanic": exact odds use integer counts or Fraction).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from math import factorial
from typing import TYPE_CHECKING, Generic, TypeVar

from tablee.dice.kinds import Die

if TYPE_CHECKING:  # imported where used: a roll that shows no odds never needs fractions
    from fractions import Fraction

    from tablee.dice.chance import SamplingChance
from tablee.errors import N_, InputError

__all__ = ["Distribution", "Sampler", "enumerate_rolls", "ratio_text"]

K = TypeVar("K", bound=Hashable)
T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True)
class Distribution(Generic[K]):
    """Outcomes with integer weights.

    Attributes:
        weights: outcome -> weight, each weight a positive integer.

    Raises:
        InputError: at construction, when a weight is not a positive integer or there is none.
    """

    weights: Mapping[K, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.weights:
            raise InputError(N_("a distribution needs at least one outcome"))
        for outcome, weight in self.weights.items():
            if not isinstance(weight, int) or weight <= 0:
                raise InputError(
                    N_("weight {weight!r} of outcome {outcome!r} must be a positive integer"),
                    weight=weight,
                    outcome=outcome,
                )

    @property
    def total(self) -> int:
        """Sum of the weights (the number of equally likely rolls counted)."""
        return sum(self.weights.values())

    def probability(self, outcome: K) -> Fraction:
        """Exact probability of one outcome (0 when it never happens)."""
        from fractions import Fraction

        return Fraction(self.weights.get(outcome, 0), self.total)

    def probability_where(self, predicate: Callable[[K], bool]) -> Fraction:
        """Exact probability that an outcome satisfies ``predicate``."""
        from fractions import Fraction

        hits = sum(w for o, w in self.weights.items() if predicate(o))
        return Fraction(hits, self.total)

    def probability_text(self, outcome: K) -> str:
        """`probability` as text, ``str(self.probability(outcome))`` (``"1/6"``, ``"0"``).

        Written without `fractions`, which a roll that stores its odds would otherwise load.
        """
        return ratio_text(self.weights.get(outcome, 0), self.total)

    def probability_text_where(self, predicate: Callable[[K], bool]) -> str:
        """`probability_where` as text, ``str(self.probability_where(predicate))``."""
        return ratio_text(sum(w for o, w in self.weights.items() if predicate(o)), self.total)

    def map(self, function: Callable[[K], T]) -> Distribution[T]:
        """The distribution of ``function(outcome)``, weights added where outcomes merge."""
        merged: dict[T, int] = {}
        for outcome, weight in self.weights.items():
            key = function(outcome)
            merged[key] = merged.get(key, 0) + weight
        return Distribution(merged)

    def items(self) -> Iterator[tuple[K, Fraction]]:
        """Outcomes and their exact probabilities, outcomes sorted when they can be."""
        try:
            keys: Iterable[K] = sorted(self.weights)  # type: ignore[type-var]
        except TypeError:
            keys = list(self.weights)
        from fractions import Fraction

        total = self.total
        for key in keys:
            yield key, Fraction(self.weights[key], total)

    def reduced(self) -> Distribution[K]:
        """The same distribution with weights divided by their greatest common divisor."""
        from math import gcd

        g = 0
        for w in self.weights.values():
            g = gcd(g, w)
        return Distribution({o: w // g for o, w in self.weights.items()})

    def __eq__(self, other: object) -> bool:
        """Equal when every outcome has the same exact probability."""
        if not isinstance(other, Distribution):
            return NotImplemented
        keys = set(self.weights) | set(other.weights)
        return all(self.probability(k) == other.probability(k) for k in keys)

    def __hash__(self) -> int:
        """Hash of the reduced weights."""
        return hash(frozenset(self.reduced().weights.items()))


class Sampler(Generic[K]):
    """Draws outcomes of a `Distribution` with their exact probabilities, one draw each.

    A simulation that needs only a mechanic's outcome (a Test's success, say) draws it from
    the mechanic's exact distribution, computed once by the rule code through the chance
    protocol, instead of throwing its dice each time: the outcomes drawn have the same
    distribution, for the cost of one uniform draw and a binary search.

    Args:
        distribution: the outcomes and their integer weights (reduced by their greatest
            common divisor, so that a draw takes as few random bits as it can).

    Attributes:
        outcomes: the outcomes, in the distribution's order.
        total: the sum of the reduced weights, 1 or more.

    Source: docs/architecture.md, "The designer's lab" (drawing outcomes).
    """

    __slots__ = ("_cumulative", "outcomes", "total")

    def __init__(self, distribution: Distribution[K]) -> None:
        reduced = distribution.reduced().weights
        self.outcomes: tuple[K, ...] = tuple(reduced)
        running, cumulative = 0, []
        for weight in reduced.values():
            running += weight
            cumulative.append(running)
        self._cumulative = tuple(cumulative)
        self.total: int = running

    def draw(self, chance: SamplingChance) -> K:
        """One outcome: ``chance.below(total)`` read against the cumulative weights.

        An outcome that is certain is returned without a draw.

        Raises:
            InputError: the chance cannot draw (faces typed in).
        """
        if len(self.outcomes) == 1:
            return self.outcomes[0]
        return self.outcomes[bisect_right(self._cumulative, chance.below(self.total))]


def ratio_text(numerator: int, denominator: int) -> str:
    """``numerator / denominator`` in lowest terms as `fractions.Fraction` writes it.

    ``"1/6"``, ``"0"``, ``"1"``, ``"-1/2"``: equal to ``str(Fraction(numerator,
    denominator))``, without importing `fractions`.

    Raises:
        ZeroDivisionError: ``denominator`` is 0.
    """
    from math import gcd

    if denominator == 0:
        raise ZeroDivisionError(f"Fraction({numerator}, 0)")
    g = gcd(numerator, denominator)
    if denominator < 0:
        g = -g
    numerator, denominator = numerator // g, denominator // g
    return str(numerator) if denominator == 1 else f"{numerator}/{denominator}"


def enumerate_rolls(die: Die, count: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every roll of ``count`` dice as a sorted multiset of faces with its weight.

    The weight is the number of ordered rolls (out of ``die.sides ** count``) giving that
    multiset, so summing weights over the enumeration gives ``die.sides ** count``.

    Args:
        die: the kind of die (repeated faces such as the D+/- blank are handled).
        count: number of dice, 0 or more.

    Yields:
        ``(faces, weight)`` with ``faces`` sorted ascending.
    """
    sides = range(die.sides)
    for combo in combinations_with_replacement(sides, count):
        weight = factorial(count)
        for side in set(combo):
            weight //= factorial(combo.count(side))
        yield tuple(sorted(die.faces[s] for s in combo)), weight
