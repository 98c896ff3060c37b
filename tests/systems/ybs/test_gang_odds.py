"""Exact odds of the gang fight and Ichika Bachika against independent oracles.

1. Straights in one throw: a brute force over every ordered roll (itertools.product) and
   icepool 2.1.3 (``largest_straight_and_outcome``).
2. Ichika Bachika: the same brute force with the ranking rewritten here, and icepool's
   ``expand`` of a 5d6 pool.
3. The gang-fight race: each side's chance of finishing on throw t with each straight is
   propagated forward here (floats, 200 throws, the reroll enumerated with
   itertools.product), then the race is summed throw by throw; it must agree with the exact
   solution to 1e-12. Symmetric matchups are checked exactly.
4. A seeded run of the live resolver (`play_throw` + `advised_keeps`) agrees with the exact
   odds within 4.5 standard errors, a bound fixed in advance; the same bound rejects the odds
   of a different matchup, which shows the check can fail.
"""

import math
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import icepool
import pytest

from tablee.dice import D6, SeededSource
from tablee.errors import InputError
from tablee.systems.ybs.advisor import advised_keep, advised_keeps, expected_throws
from tablee.systems.ybs.gang import GangFight, GangOptions, Keeps, play_throw
from tablee.systems.ybs.gang_odds import (
    best_straight_distribution,
    encounter_odds,
    gang_fight_odds,
    ichika_odds,
    side_odds,
    straight_probability,
    zorome_distribution,
)
from tablee.systems.ybs.ichika import resolve_ichika
from tablee.systems.ybs.straights import GangSide

MATCHUPS = [(4, 6), (4, 5), (5, 5), (4, 4), (5, 6), (6, 6), (6, 4)]


def _best(hand):
    """Lowest face of the hand's best 4-run, 0 for none (written independently)."""
    present = set(hand)
    return max((low for low in (1, 2, 3) if set(range(low, low + 4)) <= present), default=0)


@cache
def _ordered(n):
    return Counter(tuple(sorted(r)) for r in product(range(1, 7), repeat=n))


# --- one throw ------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 7))
def test_straight_in_one_throw_brute_force(n):
    hits = sum(1 for r in product(range(1, 7), repeat=n) if _best(r))
    assert straight_probability(n) == Fraction(hits, 6**n)


def test_straight_in_one_throw_known_values():
    assert straight_probability(4) == Fraction(3 * 24, 6**4)  # three runs, 4! orders each
    assert straight_probability(3) == 0


@pytest.mark.parametrize("n", [4, 5, 6])
def test_straight_in_one_throw_icepool(n):
    die = icepool.d6.pool(n).largest_straight_and_outcome()
    expected = Counter()
    for (length, top), weight in die.items():
        expected[top - 3 if length >= 4 else 0] += weight
    got = best_straight_distribution(n)
    for key, weight in expected.items():
        assert got.probability(key) == Fraction(weight, die.denominator())
    assert straight_probability(n) == 1 - got.probability(0)


def test_bad_counts():
    for call in (
        lambda: straight_probability(0),
        lambda: gang_fight_odds(3, 5),
        lambda: ichika_odds(9),
    ):
        with pytest.raises(InputError):
            call()
    with pytest.raises(InputError, match="Y-A16"):
        ichika_odds(tie="coin")


# --- Ichika Bachika ----------------------------------------------------------------------


def _rank(hand):
    counts = Counter(hand)
    return tuple(sorted(((c, f) for f, c in counts.items() if c > 1), reverse=True))


def _pairs_odds(first, second):
    win = draw = loss = 0
    for x, wx in first.items():
        for y, wy in second.items():
            if x > y:
                win += wx * wy
            elif x == y:
                draw += wx * wy
            else:
                loss += wx * wy
    total = win + draw + loss
    return Fraction(win, total), Fraction(draw, total), Fraction(loss, total)


def test_ichika_brute_force():
    ranks = Counter(_rank(r) for r in product(range(1, 7), repeat=5))
    win, draw, loss = _pairs_odds(ranks, ranks)
    odds = ichika_odds()
    assert (odds.win, odds.draw, odds.loss, odds.expected_throws) == (win, draw, loss, 1)
    assert odds.win == odds.loss
    reroll = ichika_odds(tie="reroll")
    assert (reroll.win, reroll.draw) == (Fraction(1, 2), 0)
    assert reroll.expected_throws == 1 / (1 - draw)


def test_ichika_icepool_and_uneven_dice():
    four = icepool.d6.pool(4).expand().map(_rank)
    six = icepool.d6.pool(6).expand().map(_rank)
    win, draw, loss = _pairs_odds(dict(four.items()), dict(six.items()))
    odds = ichika_odds(4, 6)
    assert (odds.win, odds.draw, odds.loss) == (win, draw, loss)
    z = zorome_distribution(5)
    assert sum(z.weights.values()) == 6**5
    assert {k.sets: w for k, w in z.weights.items()} == dict(
        icepool.d6.pool(5).expand().map(_rank).items()
    )


def test_ichika_live_throws_agree():
    source, n = SeededSource(2026), 20_000
    wins = draws = 0
    for _ in range(n):
        outcome = resolve_ichika((source.roll(D6, 5), source.roll(D6, 5)))
        wins += outcome.winner is GangSide.PLAYERS
        draws += outcome.draw
    odds = ichika_odds()
    _within(wins, n, odds.win)
    _within(draws, n, odds.draw)


# --- the gang fight race -----------------------------------------------------------------


@cache
def _finish_by_throw(n, throws=200):
    """[{straight: P(first straight on throw t, with that best straight)}] for t = 1..throws."""
    keeps = {(): 1.0}
    out = []
    advised = cache(advised_keep)
    for _ in range(throws):
        finish, nxt = Counter(), Counter()
        for kept, p in keeps.items():
            k = n - len(kept)
            for r, w in _ordered(k).items():
                hand = tuple(sorted(kept + r))
                q = p * w / 6**k
                if _best(hand):
                    finish[_best(hand)] += q
                else:
                    nxt[advised(hand)] += q
        out.append(finish)
        keeps = nxt
    return out


def _race(n, m, higher=True):
    a, b = _finish_by_throw(n), _finish_by_throw(m)
    win = draw = loss = 0.0
    alive_a = alive_b = 1.0
    mean = 0.0
    for fa, fb in zip(a, b, strict=True):
        mean += alive_a * alive_b
        da, db = sum(fa.values()), sum(fb.values())
        win += da * (alive_b - db)
        loss += db * (alive_a - da)
        for x, px in fa.items():
            for y, py in fb.items():
                if higher and x > y:
                    win += px * py
                elif higher and x < y:
                    loss += px * py
                else:
                    draw += px * py
        alive_a, alive_b = alive_a - da, alive_b - db
    return win, draw, loss, mean


@pytest.mark.parametrize(("n", "m"), MATCHUPS)
@pytest.mark.parametrize("higher", [True, False])
def test_race_agrees_with_forward_propagation(n, m, higher):
    odds = gang_fight_odds(n, m, higher_straight_wins=higher)
    assert odds.win + odds.draw + odds.loss == 1
    expected = _race(n, m, higher)
    for got, want in zip(
        (odds.win, odds.draw, odds.loss, odds.expected_throws), expected, strict=True
    ):
        assert abs(float(got) - want) < 1e-12


@pytest.mark.parametrize("n", [4, 5, 6])
def test_one_side_alone(n):
    a = _finish_by_throw(n)
    mean = sum(t * sum(f.values()) for t, f in enumerate(a, start=1))
    assert abs(float(expected_throws(n)) - mean) < 1e-12
    assert sum(a[0].values()) == pytest.approx(float(straight_probability(n)), abs=1e-15)


def test_symmetry_and_mirror_exactly():
    for n in (4, 5, 6):
        odds = gang_fight_odds(n, n)
        assert odds.win == odds.loss
    for n, m in ((4, 6), (4, 5), (5, 6)):
        a, b = gang_fight_odds(n, m), gang_fight_odds(m, n)
        assert (a.win, a.draw, a.loss, a.expected_throws) == (
            b.loss,
            b.draw,
            b.win,
            b.expected_throws,
        )
    # more dice is better, and the higher-straight rule only turns draws into wins/losses
    assert gang_fight_odds(4, 6).win < gang_fight_odds(4, 5).win < gang_fight_odds(5, 5).win
    on, off = gang_fight_odds(4, 6), gang_fight_odds(4, 6, higher_straight_wins=False)
    assert off.draw > on.draw and off.win < on.win and on.win + on.draw + on.loss == 1


def _within(hits, n, p):
    bound = 4.5 * math.sqrt(float(p * (1 - p)) / n)
    assert abs(hits / n - float(p)) < bound, (hits / n, float(p), bound)


def _simulate(n, m, fights, seed):
    source = SeededSource(seed)
    wins = draws = throws = 0
    for _ in range(fights):
        fight = GangFight(n, m, GangOptions())
        while not fight.finished:
            fight, _ = play_throw(fight, advised_keeps(fight), source)
        wins += fight.result.winner is GangSide.PLAYERS
        draws += fight.result.draw
        throws += fight.result.throws
    return wins, draws, throws


@pytest.mark.parametrize(("n", "m", "seed"), [(4, 6, 11), (5, 5, 12), (4, 5, 13)])
def test_live_resolver_agrees_with_exact_odds(n, m, seed):
    fights = 4000
    wins, draws, _ = _simulate(n, m, fights, seed)
    odds = gang_fight_odds(n, m)
    _within(wins, fights, odds.win)
    _within(draws, fights, odds.draw)


def test_the_bound_rejects_the_wrong_matchup():
    fights = 4000
    wins, _, _ = _simulate(4, 6, fights, 11)
    with pytest.raises(AssertionError):
        _within(wins, fights, gang_fight_odds(4, 5).win)


def test_encounter_odds():
    assert encounter_odds({"A": "flee"}).odds is None
    strike = encounter_odds({"A": "flee", "B": "ichika_bachika"}, outnumbered=GangSide.PLAYERS)
    assert strike.kind == "ichika_bachika" and strike.odds == ichika_odds()
    fight = encounter_odds({"A": "gang_fight", "B": "flee"}, outnumbered=GangSide.PLAYERS)
    assert fight.fighters == ("A",) and fight.odds == gang_fight_odds(4, 5)
    crossed = encounter_odds(
        {"A": "gang_fight"},
        outnumbered=GangSide.PLAYERS,
        outgunned=GangSide.GM,
        mixed_disadvantages="both_lose",
    )
    assert crossed.odds == gang_fight_odds(4, 4)


def test_advised_first_throw_keeps_nothing():
    assert advised_keeps(GangFight(4, 6)) == Keeps()


# --- the race solved a second way, exactly: one linear system over pairs of keeps ----------


def _side_chain(n):
    """Advised keeps reachable from (), with their exact transitions, built here."""
    advised = cache(advised_keep)
    chain, todo = {}, [()]
    while todo:
        kept = todo.pop()
        if kept in chain:
            continue
        finish, nxt = Counter(), Counter()
        k = n - len(kept)
        for r, w in _ordered(k).items():
            hand = tuple(sorted(kept + r))
            if _best(hand):
                finish[_best(hand)] += Fraction(w, 6**k)
            else:
                nxt[advised(hand)] += Fraction(w, 6**k)
        chain[kept] = (finish, nxt)
        todo.extend(nxt)
    return chain


def _gauss(matrix, rhs):
    size = len(rhs)
    rows = [[*row, *b] for row, b in zip(matrix, rhs, strict=True)]
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rows[col] = [v / rows[col][col] for v in rows[col]]
        for r in range(size):
            if r != col and rows[r][col]:
                f = rows[r][col]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [row[size:] for row in rows]


@pytest.mark.parametrize(("n", "m"), [(4, 6), (4, 5), (4, 4), (5, 5)])
def test_race_solved_as_one_linear_system(n, m):
    a, b = _side_chain(n), _side_chain(m)
    pairs = [(x, y) for x in a for y in b]
    index = {p: i for i, p in enumerate(pairs)}
    matrix = [[Fraction(int(i == j)) for j in range(len(pairs))] for i in range(len(pairs))]
    rhs = []
    for i, (x, y) in enumerate(pairs):
        (fa, ka), (fb, kb) = a[x], b[y]
        da, db = sum(fa.values()), sum(fb.values())
        win, loss, draw = da * (1 - db), db * (1 - da), Fraction(0)
        for sx, px in fa.items():
            for sy, py in fb.items():
                if sx > sy:
                    win += px * py
                elif sx < sy:
                    loss += px * py
                else:
                    draw += px * py
        for nx, px in ka.items():
            for ny, py in kb.items():
                matrix[i][index[(nx, ny)]] -= px * py
        rhs.append([win, draw, loss, Fraction(1)])
    solution = _gauss(matrix, rhs)[index[((), ())]]
    odds = gang_fight_odds(n, m)
    assert solution == [odds.win, odds.draw, odds.loss, odds.expected_throws]


# --- the rule code driven through the chance protocol -----------------------------------


@pytest.mark.parametrize("n", [4, 5, pytest.param(6, marks=pytest.mark.slow)])
def test_advisor_values_equal_the_throw_step_driven_through_the_chain(n):
    # The advisor's policy iteration (its own enumeration of kept + rerolled dice) and the
    # chain of `throw_side` steps under the advised policy give the same expected throws.
    assert side_odds(n).expected_throws == expected_throws(n)
    assert sum(side_odds(n).straights.values()) == 1


def test_side_odds_of_a_plain_policy_by_hand():
    # Keeping nothing, every throw is a fresh throw of 4 dice: geometric with p = 24/1296
    # (the four faces of one straight, in any order: 3 straights x 4! = 72 of 1296).
    p = Fraction(72, 6**4)
    plain = side_odds(4, keep=lambda hand: ())
    assert plain.expected_throws == 1 / p
    assert all(v == Fraction(1, 3) for v in plain.straights.values())
    with pytest.raises(InputError, match="never ends"):
        side_odds(4, keep=lambda hand: hand)  # keeping every die never changes the hand


@pytest.mark.slow
def test_race_accelerator_equals_next_throw_driven_through_the_chain():
    # accelerated=False runs next_throw (both sides' dice together, resolve_throw) per pair
    # of advised keeps; the default pairs each side's throws enumerated apart. About 7 s of
    # CPU for 4 against 4, the smallest fight; the option Y-A13 is checked by the tests of
    # the accelerator above (forward propagation, one linear system).
    slow = gang_fight_odds(4, 4, accelerated=False)
    assert slow == gang_fight_odds(4, 4)


@pytest.mark.parametrize("tie", ["draw", "reroll"])
def test_ichika_accelerator_equals_resolve_ichika_over_every_throw(tie):
    assert ichika_odds(tie=tie, accelerated=False) == ichika_odds(tie=tie)


def test_rerolled_ties_with_one_die_a_side_are_refused_not_divided_by_zero() -> None:
    # One die a side never shows a pair: every throw ties, so "reroll" would never end.
    with pytest.raises(InputError, match="every throw ties"):
        ichika_odds(1, 1, tie="reroll")
    # One die against two still ends: the side with two dice shows a pair one time in six.
    odds = ichika_odds(1, 2, tie="reroll")
    assert (odds.win, odds.draw, odds.loss) == (0, 0, 1)


@pytest.mark.slow
@pytest.mark.parametrize("higher", [True, False])
def test_the_stored_odds_are_those_solved_again(higher):
    # the table of scripts/gang_odds_table.py, against the race solved from the rules now
    for n, m in product((4, 5, 6), repeat=2):
        stored = gang_fight_odds(n, m, higher_straight_wins=higher)
        solved = gang_fight_odds(n, m, higher_straight_wins=higher, stored=False)
        assert stored == solved, (n, m)
        assert stored.win + stored.draw + stored.loss == 1
