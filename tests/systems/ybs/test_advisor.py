"""The advisor against independent checks.

1. The chance of a straight on the next throw, for every keep of every hand, equals a brute
   force over every ordered reroll (itertools.product).
2. The expected throws satisfy the Bellman equation EXACTLY, with the expectations
   recomputed here by brute force: for every hand without a straight, its value is the
   minimum over every keep of 1 + the mean value after the reroll. For this stochastic
   shortest-path problem that equation has one solution, so the values are the optimum.
3. A float value iteration written here from scratch agrees to 1e-9 (4 and 5 dice).
"""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from math import prod

import pytest

from tablee.errors import InputError, RuleError
from tablee.systems.ybs.advisor import (
    MAX_ADVISED_DICE,
    advise,
    advised_keep,
    advised_keeps,
    chain_step,
    expected_throws,
    sub_multisets,
)
from tablee.systems.ybs.gang import GangFight, Keeps, resolve_throw

RUNS = [{1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}]


def _straight(hand):
    return any(run <= set(hand) for run in RUNS)


def _hands(n):
    return list(combinations_with_replacement(range(1, 7), n))


@cache
def _rerolls(k):
    """Every ordered reroll of k dice, as a Counter of sorted tuples."""
    return Counter(tuple(sorted(r)) for r in product(range(1, 7), repeat=k))


def _subs(hand):
    """Sub-multisets by choosing index subsets (a different method from the module's)."""
    return {
        tuple(sorted(hand[i] for i in range(len(hand)) if mask >> i & 1))
        for mask in range(2 ** len(hand))
    }


def _value(hand):
    return Fraction(0) if _straight(hand) else advise(hand).best.expected_throws


def _q(n, kept, value):
    k = n - len(kept)
    total = sum(w * value(tuple(sorted(kept + r))) for r, w in _rerolls(k).items())
    return 1 + total / 6**k


@pytest.mark.parametrize("n", [4, 5, 6])
def test_every_keep_is_listed_with_the_brute_force_straight_chance(n):
    for hand in _hands(n)[::7] if n == 6 else _hands(n):
        if _straight(hand):
            continue
        advice = advise(hand)
        kept = [c.kept for c in advice.choices]
        assert len(kept) == len(set(kept)) == prod(c + 1 for c in Counter(hand).values())
        assert set(kept) == _subs(hand) == set(sub_multisets(hand))
        for choice in advice.choices:
            k = n - len(choice.kept)
            hits = sum(w for r, w in _rerolls(k).items() if _straight(choice.kept + r))
            assert choice.straight_probability == Fraction(hits, 6**k)
            assert choice.rerolled == k


@pytest.mark.parametrize("n", [4, 5, pytest.param(6, marks=pytest.mark.slow)])
def test_values_satisfy_the_bellman_equation_exactly(n):
    value = cache(_value)
    for hand in _hands(n):
        if _straight(hand):
            continue
        advice = advise(hand)
        qs = {k: _q(n, k, value) for k in _subs(hand)}
        assert min(qs.values()) == value(hand)
        for choice in advice.choices:
            assert choice.expected_throws == qs[choice.kept]
        assert advice.best.expected_throws == min(qs.values())
        assert advised_keep(hand) == advice.best.kept
    assert expected_throws(n) == _q(n, (), value)


def _value_iteration(n, sweeps=400):
    hands = _hands(n)
    v = {h: 0.0 for h in hands}
    keeps = {k for h in hands for k in _subs(h)}
    for _ in range(sweeps):
        w = {
            k: 1
            + sum(c * v[tuple(sorted(k + r))] for r, c in _rerolls(n - len(k)).items())
            / 6 ** (n - len(k))
            for k in keeps
        }
        v = {h: 0.0 if _straight(h) else min(w[k] for k in _subs(h)) for h in hands}
    return v, w


@pytest.mark.parametrize("n", [4, 5])
def test_float_value_iteration_agrees(n):
    v, w = _value_iteration(n, sweeps=250 if n == 4 else 120)
    for hand in _hands(n):
        if not _straight(hand):
            assert abs(float(advise(hand).best.expected_throws) - v[hand]) < 1e-9
    assert abs(float(expected_throws(n)) - w[()]) < 1e-9


def test_choices_are_ordered_best_first():
    advice = advise([1, 1, 3, 6, 6])
    values = [(c.expected_throws, -c.straight_probability) for c in advice.choices]
    assert values == sorted(values)
    assert advice.best == advice.choices[0]
    assert advice.hand == (1, 1, 3, 6, 6)


def test_keeping_everything_costs_one_more_throw_than_the_hand_is_worth():
    advice = advise([1, 1, 5, 6])
    everything = next(c for c in advice.choices if c.kept == (1, 1, 5, 6))
    assert everything.straight_probability == 0
    assert everything.expected_throws == advice.best.expected_throws + 1


def test_expected_throws_decrease_with_more_dice():
    assert expected_throws(4) > expected_throws(5) > expected_throws(6) > 1


def test_errors():
    with pytest.raises(RuleError, match=r"\[1, 2, 3, 4, 6\]"):
        advise([6, 4, 3, 2, 1])
    with pytest.raises(RuleError):
        advised_keep([1, 2, 3, 4])
    with pytest.raises(InputError):
        advise([])
    with pytest.raises(InputError):
        advise([1] * (MAX_ADVISED_DICE + 1))
    with pytest.raises(InputError, match="face 9"):
        advise([9, 1, 1, 1])
    with pytest.raises(InputError, match="never"):
        expected_throws(3)
    with pytest.raises(InputError):
        chain_step(4, (1, 1, 1, 1, 1))


def test_advised_keeps_for_a_fight():
    fight = GangFight(5, 4)
    assert advised_keeps(fight) == Keeps()
    fight, _ = resolve_throw(fight, Keeps(), ([1, 1, 3, 5, 6], [2, 2, 6, 6]))
    keeps = advised_keeps(fight)
    assert keeps == Keeps(advised_keep([1, 1, 3, 5, 6]), advised_keep([2, 2, 6, 6]))
    done, _ = resolve_throw(GangFight(4, 4), Keeps(), ([1, 2, 3, 4], [1, 1, 1, 1]))
    with pytest.raises(RuleError):
        advised_keeps(done)


@pytest.mark.parametrize("n", [4, 5, 6])
def test_chain_steps_add_up_and_match_the_advice(n):
    step = chain_step(n, ())
    assert sum(step.finish.values()) + sum(step.keep.values()) == 1
    assert sum(step.finish.values()) == Fraction(
        sum(w for r, w in _rerolls(n).items() if _straight(r)), 6**n
    )
    for kept in step.keep:
        again = chain_step(n, kept)
        assert sum(again.finish.values()) + sum(again.keep.values()) == 1
        assert sum(again.finish.values()) == advise_value_p(n, kept)


def advise_value_p(n, kept):
    k = n - len(kept)
    return Fraction(sum(w for r, w in _rerolls(k).items() if _straight(kept + r)), 6**k)


@pytest.mark.parametrize("n", [4, 5, 6])
def test_advised_keeps_never_go_round_in_a_cycle(n):
    """The race odds rely on it: apart from staying put, advised keeps form no cycle."""
    graph, todo = {}, [()]
    while todo:
        kept = todo.pop()
        if kept not in graph:
            graph[kept] = [k for k in chain_step(n, kept).keep if k != kept]
            todo.extend(graph[kept])
    state = dict.fromkeys(graph, 0)  # 0 new, 1 on the path, 2 done

    def visit(node):
        state[node] = 1
        for nxt in graph[node]:
            assert state[nxt] != 1, (node, nxt)
            if state[nxt] == 0:
                visit(nxt)
        state[node] = 2

    visit(())
    assert all(v == 2 for v in state.values())


@pytest.mark.parametrize("hand", [[1, 2, 3], [6], [1, 2]])
def test_too_few_dice_to_ever_finish_are_refused(hand):
    with pytest.raises(InputError, match="never"):
        advise(hand)
