"""Drawing a mechanic's outcome from its exact distribution: `Sampler` and ``below``.

A draw of ``below(total)`` read against the cumulative weights gives each outcome for
exactly its weight's share of the values; a seeded source draws what
`random.Random.randrange` draws; typed-in faces cannot draw.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tablee.dice import (
    D6,
    DiceRequest,
    Distribution,
    FairSource,
    Sampler,
    SeededSource,
    SourceChance,
    TypedFaces,
    exact,
)
from tablee.errors import InputError


class _Every:
    """A chance whose ``below(n)`` hands 0, 1, ..., n - 1 in turn (each value once a cycle)."""

    def __init__(self) -> None:
        self.next = 0

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        raise AssertionError("a draw throws no dice")

    def below(self, n: int) -> int:
        value = self.next % n
        self.next += 1
        return value


def test_each_outcome_is_drawn_for_exactly_its_share_of_the_values() -> None:
    # two d6: the sum's distribution, weights 1, 2, ..., 6, ..., 1 out of 36
    sums = exact(lambda c: sum(c.roll(DiceRequest(D6, 2, ordered=True))))
    sampler = Sampler(sums)
    assert sampler.total == 36
    chance = _Every()
    drawn = Counter(sampler.draw(chance) for _ in range(36))
    assert drawn == Counter(sums.weights)


def test_weights_are_reduced_before_drawing() -> None:
    sampler = Sampler(Distribution({"yes": 6, "no": 2}))
    assert sampler.total == 4
    chance = _Every()
    assert [sampler.draw(chance) for _ in range(4)] == ["yes", "yes", "yes", "no"]


def test_a_certain_outcome_takes_no_draw() -> None:
    chance = _Every()
    assert Sampler(Distribution({True: 5})).draw(chance) is True
    assert chance.next == 0


@pytest.mark.parametrize("seed", [0, 3, 2**40 + 1])
def test_a_seeded_draw_is_the_generators_randrange(seed: int) -> None:
    source, rng = SeededSource(seed), random.Random(seed)
    for n in (1, 2, 6, 7, 36, 1000, 3**13):
        assert source.below(n) == rng.randrange(n)


def test_the_chance_over_a_source_draws_with_it() -> None:
    assert SourceChance(SeededSource(5)).below(10) == random.Random(5).randrange(10)
    assert 0 <= SourceChance(FairSource()).below(3) < 3


def test_faces_typed_in_cannot_draw_and_say_so() -> None:
    with pytest.raises(InputError, match="typed in"):
        SourceChance(TypedFaces("1,2")).below(6)


def test_nothing_is_drawn_below_one() -> None:
    with pytest.raises(ValueError):
        SeededSource(1).below(0)
