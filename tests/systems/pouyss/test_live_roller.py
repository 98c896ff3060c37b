"""A seeded run of the live roller agrees with the exact odds (chi-square goodness of fit).

The bound is fixed in advance: the 0.999 quantile of the chi-square distribution with
``cells - 1`` degrees of freedom (standard tables). A fair roller passes a given seed with
probability 0.999; the seeds are fixed, so the test is deterministic. A deliberately biased
source must fail the same statistic, which shows the test can fail.
"""

import random

import pytest

from tablee.dice import D6, SeededSource, roll
from tablee.systems.pouyss import ACTION, ActionRoll, action_distribution

ROLLS = 20_000
# 0.999 quantiles of chi-square by degrees of freedom (fixed before running the test).
CRITICAL_0999 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515}
CASES = [((0, 0), 1), ((2, 0), 2), ((1, 2), 3), ((3, 3), 4)]


def _chi_square(inputs, source):
    """Chi-square statistic and degrees of freedom of ``ROLLS`` rolls from ``source``."""
    observed = [0] * 7
    for _ in range(ROLLS):
        observed[roll(ACTION, inputs, source).value] += 1
    exact = action_distribution(inputs)
    cells, obs, exp = [], 0, 0
    for v in range(1, 7):  # merge adjacent values until each cell expects 5 or more
        obs += observed[v]
        exp += exact.probability(v) * ROLLS
        if exp >= 5:
            cells.append((obs, exp))
            obs, exp = 0, 0
    if exp:
        last_obs, last_exp = cells.pop()
        cells.append((last_obs + obs, last_exp + exp))
    statistic = sum((o - e) ** 2 / e for o, e in cells)
    return float(statistic), len(cells) - 1


@pytest.mark.parametrize(("counts", "seed"), CASES, ids=[str(c) for c, _ in CASES])
def test_seeded_roller_fits_exact_odds(counts, seed):
    statistic, df = _chi_square(ActionRoll(*counts), SeededSource(seed))
    assert df == 5
    assert statistic < CRITICAL_0999[df]


class _NeverSix:
    """A biased source: d6 faces 1 to 5 only."""

    def __init__(self, seed):
        self._rng = random.Random(seed)

    def roll(self, die, count):
        assert die == D6
        return tuple(self._rng.randint(1, 5) for _ in range(count))


class _SomeOnesRerolled:
    """A subtly biased source: a 1 is rerolled 12% of the time, so P(1) is 0.15, not 1/6."""

    def __init__(self, seed):
        self._rng = random.Random(seed)

    def roll(self, die, count):
        faces = []
        for _ in range(count):
            face = self._rng.randint(1, 6)
            if face == 1 and self._rng.random() < 0.12:
                face = self._rng.randint(1, 6)
            faces.append(face)
        return tuple(faces)


@pytest.mark.parametrize(("counts", "seed"), CASES, ids=[str(c) for c, _ in CASES])
def test_biased_source_fails_the_same_statistic(counts, seed):
    statistic, df = _chi_square(ActionRoll(*counts), _NeverSix(seed))
    assert statistic > CRITICAL_0999[df]


def test_subtly_biased_source_fails_on_one_die():
    statistic, df = _chi_square(ActionRoll(0, 0), _SomeOnesRerolled(7))
    assert statistic > CRITICAL_0999[df]
