"""Driving SHS mechanics, which ask for several groups of dice at once.

An SHS Action throws action dice and D+/- dice, and an opposed Action throws two of each.
`tablee.dice.roll` and `tablee.dice.exact_distribution` take one request, so this module
drives a list of requests: `roll_requests` asks a source for each group in order (a live,
seeded or typed-in source, as for any mechanic), and `enumerate_requests` yields every
combination of rolls with its weight, so exact odds run the *same* resolve as live play.

Source: docs/architecture.md, "A mechanic" (one rule implementation serves live play, typed
faces and exact enumeration); seed 003, "Mini-glossaire" (two kinds of dice); S-M2.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import product
from typing import Protocol, TypeVar

from tablee.dice import DiceRequest, Distribution, RandomSource, enumerate_rolls

__all__ = [
    "GroupedMechanic",
    "enumerate_requests",
    "exact_grouped_distribution",
    "roll_grouped",
    "roll_requests",
]

I_contra = TypeVar("I_contra", contravariant=True)
O_co = TypeVar("O_co", covariant=True)
InT = TypeVar("InT")
OutT = TypeVar("OutT")
K = TypeVar("K", bound=Hashable)


class GroupedMechanic(Protocol[I_contra, O_co]):
    """A mechanic that asks for several groups of dice and resolves their faces flattened.

    Source: seed 003, "Mini-glossaire" (two kinds of dice); S-M2, S-M4.
    """

    def dice_for(self, inputs: I_contra) -> tuple[DiceRequest, ...]:
        """The groups of dice to roll, in order."""
        ...

    def resolve(self, inputs: I_contra, faces: Sequence[int]) -> O_co:
        """The outcome from every group's faces, concatenated in request order."""
        ...


def roll_requests(
    requests: Sequence[DiceRequest], source: RandomSource
) -> tuple[tuple[int, ...], ...]:
    """Roll each request with ``source``, in order.

    Args:
        requests: the groups (a count of 0 is asked for too, and gives no face).
        source: fair, seeded or typed-in faces (typed faces are taken in request order).

    Returns:
        One tuple of faces per request.

    Raises:
        InputError: the source cannot give those dice.

    Source: seed 003, "Mini-glossaire"; S-M2; docs/architecture.md, "A mechanic".
    """
    return tuple(source.roll(r.die, r.count) for r in requests)


def enumerate_requests(
    requests: Sequence[DiceRequest],
) -> Iterator[tuple[tuple[tuple[int, ...], ...], int]]:
    """Every combination of rolls of the requests, each group as a sorted multiset.

    Multisets of equal face values are merged (two D+/- blanks are one multiset), so the
    cost is the number of distinct multisets of values.

    Yields:
        ``(groups, weight)``: one sorted face tuple per request, and the number of ordered
        rolls giving it; the weights add up to the product of ``sides ** count``.

    Source: seed 003, "Mini-glossaire", S-N3; docs/architecture.md, "A mechanic".
    """
    each = [_merged(r) for r in requests]
    for combo in product(*each):
        weight = 1
        for _, w in combo:
            weight *= w
        yield tuple(faces for faces, _ in combo), weight


def _merged(request: DiceRequest) -> list[tuple[tuple[int, ...], int]]:
    """Rolls of one request, with repeated face values (the D+/- blanks...) merged."""
    weights: dict[tuple[int, ...], int] = {}
    for faces, weight in enumerate_rolls(request.die, request.count):
        weights[faces] = weights.get(faces, 0) + weight
    return list(weights.items())


def roll_grouped(mechanic: GroupedMechanic[InT, OutT], inputs: InT, source: RandomSource) -> OutT:
    """Roll the groups a mechanic asks for with ``source`` and resolve them.

    Raises:
        InputError: the source cannot give those dice.

    Source: S-M2, S-M4 (seed 003); docs/architecture.md, "A mechanic".
    """
    groups = roll_requests(mechanic.dice_for(inputs), source)
    return mechanic.resolve(inputs, [f for g in groups for f in g])


def exact_grouped_distribution(
    mechanic: GroupedMechanic[InT, OutT], inputs: InT, key: Callable[[OutT], K]
) -> Distribution[K]:
    """Exact distribution of ``key(outcome)`` by resolving every combination of rolls.

    Returns:
        A `Distribution` whose weights add up to the product of ``sides ** count``.

    Source: seed 003; S-M2, S-M4; docs/architecture.md, "A mechanic".
    """
    weights: dict[K, int] = {}
    for groups, weight in enumerate_requests(mechanic.dice_for(inputs)):
        k = key(mechanic.resolve(inputs, [f for g in groups for f in g]))
        weights[k] = weights.get(k, 0) + weight
    return Distribution(weights)
