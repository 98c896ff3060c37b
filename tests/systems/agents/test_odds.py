"""Exact odds of the agents game against brute force, a literal recursion, icepool and the
live roller.

* An action's distribution equals counting the six faces by hand and icepool's d6 + m.
* A challenge's win probability (a memoised Markov chain) equals enumerating every sequence
  of d6 faces long enough to finish the challenge (each sequence played through the real
  `act` rules), and a plain recursion written apart, over a grid of small cases.
* A seeded live roller agrees with the exact odds within 4 standard errors (bound fixed in
  advance), and a biased source does not.
"""

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import icepool
import pytest

from tablee.dice import D6, SeededSource, roll
from tablee.errors import InputError
from tablee.systems.agents import (
    ACTION,
    ActionRoll,
    Reserve,
    Result,
    act,
    action_distribution,
    challenge_win_probability,
    next_actor,
    open_challenge,
    resolve_action,
)


def _by_hand(modifier):
    counts = {"critical": 0, "success": 0, "failure": 0}
    for face in range(1, 7):
        total = face + modifier
        counts["critical" if total >= 7 else "success" if total >= 4 else "failure"] += 1
    return {k: Fraction(v, 6) for k, v in counts.items()}


@pytest.mark.parametrize("modifier", range(-5, 7))
def test_action_distribution_matches_hand_count_and_icepool(modifier):
    dist = action_distribution(modifier)
    exact = {r.value: dist.probability(r) for r in Result}
    assert exact == _by_hand(modifier)
    die = icepool.d6 + modifier
    assert exact["critical"] == Fraction(die.probability(">=", 7))
    assert exact["failure"] == Fraction(die.probability("<=", 3))


def test_action_distribution_refuses_a_wild_modifier():
    with pytest.raises(InputError):
        action_distribution(99)


def _play(reserves, modifiers, score, faces):
    """Play one challenge with the real rules, faces in order; True when the agents win."""
    names = [f"a{i}" for i in range(len(reserves))]
    pools = dict(zip(names, reserves, strict=True))
    challenge = open_challenge(1, Reserve.MUSCLES, names, [("them", score)], pools)
    for face in faces:
        if not challenge.is_open:
            break
        agent = next_actor(challenge)
        index = names.index(agent)
        result = resolve_action(ActionRoll(modifiers[index]), [face]).result
        challenge, pools[agent], _ = act(challenge, agent, pools[agent], result)
    assert not challenge.is_open  # the sequence was long enough
    return challenge.outcome == "won"


def _brute_force(reserves, modifiers, score):
    depth = score + sum(reserves)  # every action lowers the score or a reserve
    wins = sum(
        _play(reserves, modifiers, score, faces)
        for faces in itertools.product(range(1, 7), repeat=depth)
    )
    return Fraction(wins, 6**depth)


def _literal(pools, modifiers, score, turn=0):
    """The chance to win, recursing over the six faces without memory."""
    if score <= 0:
        return Fraction(1)
    live = [i for i in range(len(pools)) if pools[i] > 0]
    if not live:
        return Fraction(0)
    actor = min(live, key=lambda i: (i - turn) % len(pools))
    total = Fraction(0)
    for face in range(1, 7):
        r = face + modifiers[actor]
        nxt = (actor + 1) % len(pools)
        if r >= 7:
            total += _literal(pools, modifiers, score - 2, nxt)
        elif r >= 4:
            total += _literal(pools, modifiers, score - 1, nxt)
        else:
            drained = list(pools)
            drained[actor] -= 1
            total += _literal(tuple(drained), modifiers, score, nxt)
    return total / 6


SMALL = [
    ((1,), (0,), 1),
    ((2,), (0,), 2),
    ((1,), (3,), 2),
    ((1, 1), (0, 1), 2),
    ((2, 1), (-1, 2), 2),
    ((1, 2), (1, -2), 1),
    ((3,), (-2,), 2),
    ((1, 1, 1), (0, 0, 0), 2),
    ((0, 2), (0, 0), 1),
    ((2,), (0,), 0),
]


@pytest.mark.parametrize(("reserves", "modifiers", "score"), SMALL)
def test_challenge_odds_equal_brute_force_over_every_die_sequence(reserves, modifiers, score):
    assert challenge_win_probability(reserves, modifiers, score) == _brute_force(
        reserves, modifiers, score
    )


GRID = [
    (r, m, s)
    for r in [(3,), (2, 2), (3, 1, 2), (7, 5, 3)]
    for m in [(0,) * len(r), tuple((-1) ** i for i in range(len(r)))]
    for s in (1, 3, 5)
    if sum(r) + s <= 8  # the literal recursion is exponential
]


@pytest.mark.parametrize(("reserves", "modifiers", "score"), GRID)
def test_challenge_odds_equal_a_literal_recursion(reserves, modifiers, score):
    assert challenge_win_probability(reserves, modifiers, score) == _literal(
        reserves, modifiers, score
    )


def test_the_documented_example_is_exact():
    p = challenge_win_probability([7, 5, 3], [0, 1, 0], 6)
    assert isinstance(p, Fraction)
    assert 0 < p < 1
    assert p == _literal_memo((7, 5, 3), (0, 1, 0), 6)


def _literal_memo(pools, modifiers, score):
    from functools import cache

    @cache
    def go(pools, score, turn):
        return _literal_step(pools, modifiers, score, turn, go)

    return go(pools, score, 0)


def _literal_step(pools, modifiers, score, turn, go):
    if score <= 0:
        return Fraction(1)
    live = [i for i in range(len(pools)) if pools[i] > 0]
    if not live:
        return Fraction(0)
    actor = min(live, key=lambda i: (i - turn) % len(pools))
    nxt = (actor + 1) % len(pools)
    total = Fraction(0)
    for face in range(1, 7):
        r = face + modifiers[actor]
        if r >= 7:
            total += go(pools, score - 2, nxt)
        elif r >= 4:
            total += go(pools, score - 1, nxt)
        else:
            drained = list(pools)
            drained[actor] -= 1
            total += go(tuple(drained), score, nxt)
    return total / 6


def test_win_odds_rise_with_modifiers_and_reserves_and_fall_with_score():
    base = challenge_win_probability([3, 3], [0, 0], 6)
    assert challenge_win_probability([3, 3], [1, 0], 6) > base
    assert challenge_win_probability([4, 3], [0, 0], 6) > base
    assert challenge_win_probability([3, 3], [0, 0], 7) < base
    assert challenge_win_probability([0, 0], [0, 0], 1) == 0
    assert challenge_win_probability([0], [0], 0) == 1


@pytest.mark.parametrize(
    ("reserves", "modifiers", "score"),
    [([1], [0, 0], 1), ([], [], 1), ([-1], [0], 1), ([1], [0], -2), ([300], [0], 1)],
)
def test_challenge_odds_refuse_bad_input(reserves, modifiers, score):
    with pytest.raises(InputError):
        challenge_win_probability(reserves, modifiers, score)


# --- the live roller ------------------------------------------------------------------------

ROLLS = 20_000


def _within(observed, n, p, k=4.0):
    se = math.sqrt(float(p) * (1 - float(p)) / n)
    return abs(observed / n - float(p)) <= k * se + 1e-12


@pytest.mark.parametrize(("modifier", "seed"), [(-2, 1), (0, 2), (1, 3), (3, 4)])
def test_seeded_roller_agrees_with_action_odds(modifier, seed):
    source = SeededSource(seed)
    counts = dict.fromkeys(Result, 0)
    for _ in range(ROLLS):
        counts[roll(ACTION, ActionRoll(modifier), source).result] += 1
    dist = action_distribution(modifier)
    for result in Result:
        assert _within(counts[result], ROLLS, dist.probability(result)), result


def _simulate(source, reserves, modifiers, score, games):
    won = 0
    for _ in range(games):
        faces = source.roll(D6, score + sum(reserves))
        won += _play(reserves, modifiers, score, faces)
    return won


@pytest.mark.parametrize(("reserves", "modifiers", "score"), [([3, 2], [0, -1], 4)])
def test_seeded_challenges_agree_with_the_markov_chain(reserves, modifiers, score):
    games = 4000
    won = _simulate(SeededSource(11), reserves, modifiers, score, games)
    assert _within(won, games, challenge_win_probability(reserves, modifiers, score))


class _Biased:
    """A d6 that never shows 6 or 5: far fewer wins."""

    def __init__(self, seed):
        self._rng = random.Random(seed)

    def roll(self, die, count):
        return tuple(self._rng.randint(1, 4) for _ in range(count))


def test_biased_source_fails_the_same_bound():
    games = 4000
    won = _simulate(_Biased(11), [3, 2], [0, -1], 4, games)
    assert not _within(won, games, challenge_win_probability([3, 2], [0, -1], 4))


CHAIN_GRID = [
    ((3,), (0,), 4),
    ((2, 2), (1, -1), 3),
    ((2, 0, 1), (0, 2, -2), 3),
    ((3, 2), (-2, 3), 5),
    ((1, 1, 1), (0, 0, 0), 0),
    ((0, 0), (0, 0), 2),
    ((4, 3, 2), (1, 0, -1), 6),
]


@pytest.mark.parametrize(("reserves", "modifiers", "score"), CHAIN_GRID)
def test_recursion_equals_the_rule_code_driven_through_the_chain(reserves, modifiers, score):
    # accelerated=False runs next_actor, play_action and act, as live play does, per state
    fast = challenge_win_probability(reserves, modifiers, score)
    assert fast == challenge_win_probability(reserves, modifiers, score, accelerated=False)


def test_action_distribution_is_the_rule_code_over_the_six_faces():
    from tablee.systems.agents import resolve_action

    for modifier in range(-4, 5):
        counts = Counter(resolve_action(ActionRoll(modifier), [f]).result for f in range(1, 7))
        assert dict(action_distribution(modifier).weights) == dict(counts)
