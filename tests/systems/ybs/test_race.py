"""The race-optimal gang-fight advice against independent checks.

1. A brute force written here from scratch, on 4 dice against 4: every hand as a multiset,
   every sub-multiset keep (by index subsets), every reroll (itertools.product), value
   iteration in floats until nothing moves by 1e-14. Against the opponent policy the module
   states, its win and tie for every keep of many positions agree with the module's exact
   fractions to 1e-9, and the module's advised keep is a brute-force best keep.
2. Exact properties: each keep's win, tie and loss add up to 1; with equal dice the race
   equilibrium is symmetric (swapping the hands swaps win and loss); the race keep does at
   least as well as the advisor's keep against the same opponent; playing race-optimal
   from the start does at least as well as the advisor.
"""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product

import pytest

from tablee.errors import InputError, RuleError
from tablee.systems.ybs import race
from tablee.systems.ybs.advisor import advised_keep
from tablee.systems.ybs.gang_odds import gang_fight_odds
from tablee.systems.ybs.race import race_advice, race_keep, race_start_odds

RUNS = [(3, {3, 4, 5, 6}), (2, {2, 3, 4, 5}), (1, {1, 2, 3, 4})]


def _straight(hand):
    return next((rank for rank, run in RUNS if run <= set(hand)), 0)


@cache
def _rerolls(k):
    return Counter(tuple(sorted(r)) for r in product(range(1, 7), repeat=k))


@cache
def _after(kept, n):
    """Hand after keeping ``kept`` and rerolling the rest of ``n`` dice -> probability."""
    k = n - len(kept)
    total = 6**k
    out = Counter()
    for faces, count in _rerolls(k).items():
        out[tuple(sorted(kept + faces))] += count / total
    return dict(out)


def _keeps(hand):
    return {
        tuple(sorted(hand[i] for i in range(len(hand)) if mask >> i & 1))
        for mask in range(2 ** len(hand))
    }


def _settle(ours, theirs, higher):
    """(win, tie) of a throw where at least one side shows a straight."""
    if ours and not theirs:
        return 1.0, 0.0
    if theirs and not ours:
        return 0.0, 0.0
    if higher and ours != theirs:
        return (1.0, 0.0) if ours > theirs else (0.0, 0.0)
    return 0.0, 1.0


def _brute_force(n, m, higher, their_keep):
    """Our best response by value iteration: state values (win, tie) and a Q function."""
    ours_all = list(combinations_with_replacement(range(1, 7), n))
    theirs_all = list(combinations_with_replacement(range(1, 7), m))
    open_ours = [h for h in ours_all if not _straight(h)]
    open_theirs = [h for h in theirs_all if not _straight(h)]
    states = [(a, b) for a in open_ours for b in open_theirs]
    kb_of = {s: tuple(their_keep(*s)) for s in states}
    win = dict.fromkeys(states, 0.0)
    tie = dict.fromkeys(states, 0.0)

    def outcome(a2, b2):
        if _straight(a2) or _straight(b2):
            return _settle(_straight(a2), _straight(b2), higher)
        return win[a2, b2], tie[a2, b2]

    def q_function():
        g = {}
        for kb in set(kb_of.values()):
            for a2 in ours_all:
                w = t = 0.0
                for b2, p in _after(kb, m).items():
                    x, y = outcome(a2, b2)
                    w += p * x
                    t += p * y
                g[kb, a2] = (w, t)
        memo = {}

        def q(ka, kb):
            if (ka, kb) not in memo:
                w = t = 0.0
                for a2, p in _after(ka, n).items():
                    x, y = g[kb, a2]
                    w += p * x
                    t += p * y
                memo[ka, kb] = (w, t)
            return memo[ka, kb]

        return q

    while True:
        q = q_function()
        moved = 0.0
        new_win, new_tie = {}, {}
        for s in states:
            w, t = max((q(ka, kb_of[s]) for ka in _keeps(s[0])), key=lambda v: v[0] + v[1] / 2)
            moved = max(moved, abs(w - win[s]), abs(t - tie[s]))
            new_win[s], new_tie[s] = w, t
        win, tie = new_win, new_tie
        if moved < 1e-14:
            return q_function(), kb_of


def _module_their_keep(n, m, higher, opponent):
    solved = race._solved(n, m, higher, opponent)

    def keep(ours, theirs):
        return race._faces(solved.theirs[race._mask(ours), race._mask(theirs)])

    return keep


def _positions(n, m, every):
    ours = [h for h in combinations_with_replacement(range(1, 7), n) if not _straight(h)]
    theirs = [h for h in combinations_with_replacement(range(1, 7), m) if not _straight(h)]
    return [(a, b) for a in ours for b in theirs][::every]


@pytest.mark.slow
@pytest.mark.parametrize(("opponent", "higher"), [("race", True), ("advisor", False)])
def test_four_against_four_agrees_with_brute_force(opponent, higher):
    q, kb_of = _brute_force(4, 4, higher, _module_their_keep(4, 4, higher, opponent))
    checked = 0
    for ours, theirs in _positions(4, 4, 53):
        advice = race_advice(ours, theirs, opponent=opponent, higher_straight_wins=higher)
        assert advice.their_keep == kb_of[ours, theirs]
        assert {c.kept for c in advice.choices} == _keeps(ours)
        brute = {ka: q(ka, advice.their_keep) for ka in _keeps(ours)}
        for choice in advice.choices:
            w, t = brute[choice.kept]
            assert abs(float(choice.win) - w) < 1e-9
            assert abs(float(choice.draw) - t) < 1e-9
        best = max(w + t / 2 for w, t in brute.values())
        assert abs(float(advice.best.score) - best) < 1e-9
        w, t = brute[race_keep(ours, theirs, opponent=opponent, higher_straight_wins=higher)]
        assert abs(w + t / 2 - best) < 1e-9
        checked += 1
    assert checked > 250


def test_every_keep_adds_up_to_one_and_the_best_comes_first():
    advice = race_advice([1, 2, 3, 5, 6], [1, 1, 3, 4, 5])
    assert advice.opponent == "race" and advice.their_keep
    for choice in advice.choices:
        assert choice.win + choice.draw + choice.loss == 1
        assert min(choice.win, choice.draw, choice.loss) >= 0
    scores = [c.score for c in advice.choices]
    assert scores == sorted(scores, reverse=True)
    assert advice.best.kept == race_keep([1, 2, 3, 5, 6], [1, 1, 3, 4, 5])


@pytest.mark.slow
@pytest.mark.parametrize("higher", [True, False])
def test_equal_dice_give_a_symmetric_equilibrium(higher):
    solved = race._solved(5, 5, higher, "race")
    assert solved.equilibrium
    for ours, theirs in _positions(5, 5, 97):
        one = race_advice(ours, theirs, higher_straight_wins=higher)
        other = race_advice(theirs, ours, higher_straight_wins=higher)
        assert one.their_keep == other.best.kept and other.their_keep == one.best.kept
        assert one.best.win == other.best.loss and one.best.draw == other.best.draw
    odds = race_start_odds(5, 5, higher_straight_wins=higher)
    assert odds.win == odds.loss and odds.score == Fraction(1, 2)


@pytest.mark.slow
@pytest.mark.parametrize("opponent", ["race", "advisor"])
def test_the_race_keep_never_does_worse_than_the_advisor_keep(opponent):
    for ours, theirs in _positions(4, 5, 41):
        advice = race_advice(ours, theirs, opponent=opponent)
        by_keep = {c.kept: c for c in advice.choices}
        assert advice.best.score >= by_keep[advised_keep(ours)].score
    for n, m in [(4, 5), (6, 6)]:
        ours = race_start_odds(n, m, opponent=opponent)
        plain = race_start_odds(n, m, we_play="advisor", opponent=opponent)
        assert ours.score >= plain.score
        assert ours.win + ours.draw + ours.loss == 1


def test_advisor_against_advisor_is_the_advised_race():
    """Both sides playing the advisor from the start: the gang-fight odds, exactly."""
    odds = race_start_odds(4, 5, we_play="advisor", opponent="advisor")
    known = gang_fight_odds(4, 5)
    assert (odds.win, odds.draw, odds.loss) == (known.win, known.draw, known.loss)


def test_the_advisor_keeps_no_second_copy_of_a_face():
    """The advisor's keep depends only on the faces shown (what `race` relies on)."""
    for n in (4, 5, 6):
        for hand in combinations_with_replacement(range(1, 7), n):
            if _straight(hand):
                continue
            kept = advised_keep(hand)
            assert len(set(kept)) == len(kept)
            assert race._mask(kept) == race._advisor_keep(n, race._mask(hand))


def test_bad_input():
    with pytest.raises(InputError):
        race_advice([1, 2, 3], [1, 2, 3, 5])
    with pytest.raises(InputError):
        race_advice([1, 2, 3, 7], [1, 2, 3, 5])
    with pytest.raises(InputError):
        race_advice([1, 2, 3, 5], [1, 2, 3, 5], opponent="chaos")
    with pytest.raises(RuleError):
        race_advice([1, 2, 3, 4], [1, 2, 3, 5])
    with pytest.raises(InputError):
        race_start_odds(3, 5)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ours", "theirs", "higher", "opponent"),
    [(4, 4, True, "race"), (4, 5, True, "race"), (5, 4, False, "race"), (6, 5, True, "advisor")],
)
def test_the_stored_policies_are_what_a_fresh_search_finds(ours, theirs, higher, opponent):
    stored = race._stored_table()[race.table_key(ours, theirs, higher, opponent)]
    fresh = race.solve(ours, theirs, higher, opponent)
    assert stored[:3] == [*race.encode_policy(fresh, ours, theirs, higher), fresh.equilibrium]
    assert race._solved(ours, theirs, higher, opponent).value == fresh.value


def test_every_game_is_stored():
    table = race._stored_table()
    assert len(table) == 3 * 3 * 2 * 2
    assert not table["45-1-race"][2] and table["45-0-race"][2] and table["55-1-race"][2]
