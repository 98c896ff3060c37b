"""Straights: detection against a literal reading of the rule, ranking, simultaneous straights."""

from itertools import combinations_with_replacement, permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablee.errors import InputError
from tablee.systems.ybs.straights import (
    GangSide,
    Straight,
    best_straight,
    check_faces,
    resolve_simultaneous,
    straights_in,
)

RUNS = {(1, 2, 3, 4): "1-2-3-4", (2, 3, 4, 5): "2-3-4-5", (3, 4, 5, 6): "3-4-5-6"}
hands = st.lists(st.integers(1, 6), min_size=0, max_size=8)


def _literal(faces):
    """The runs the hand holds, by trying every choice of 4 dice in every order."""
    found = set()
    for four in permutations(faces, 4):
        if four in RUNS:
            found.add(RUNS[four])
    return sorted(found)


@pytest.mark.parametrize("n", range(0, 7))
def test_detection_matches_a_literal_reading(n):
    for hand in combinations_with_replacement(range(1, 7), n):
        labels = [s.label for s in straights_in(hand)]
        assert labels == _literal(hand), hand
        assert (best_straight(hand) is None) == (not labels)
        if labels:
            assert best_straight(hand).label == labels[-1]


@pytest.mark.parametrize("n", range(0, 9))
def test_checked_faces_give_the_same_best_straight(n):
    for hand in combinations_with_replacement(range(1, 7), n):
        found = straights_in(hand)
        best = found[-1] if found else None
        assert best_straight(hand) is best
        assert best_straight(hand, checked=True) is best
        assert best_straight(hand[::-1], checked=True) is best


def test_straights_rank_low_middle_high():
    assert Straight.LOW < Straight.MIDDLE < Straight.HIGH
    assert [s.faces for s in Straight] == list(RUNS)


def test_six_dice_can_hold_all_three():
    assert straights_in([6, 5, 4, 3, 2, 1]) == tuple(Straight)
    assert best_straight([6, 5, 4, 3, 2, 1]) is Straight.HIGH


@pytest.mark.parametrize("bad", [0, 7, -1, "3", 2.0, True])
def test_a_bad_face_is_refused_by_name(bad):
    with pytest.raises(InputError, match=repr(bad).replace("(", r"\(")):
        straights_in([1, 2, 3, bad])


def test_check_faces_sorts():
    assert check_faces([6, 1, 3]) == (1, 3, 6)


@pytest.mark.parametrize("a", list(Straight))
@pytest.mark.parametrize("b", list(Straight))
def test_simultaneous_straights(a, b):
    on = resolve_simultaneous(a, b)
    off = resolve_simultaneous(a, b, higher_straight_wins=False)
    assert off.winner is None and off.draw and not off.inglorious
    if a == b:
        assert on.winner is None and on.draw and not on.inglorious
    else:
        assert on.winner is (GangSide.PLAYERS if a > b else GangSide.GM)
        assert on.inglorious and not on.draw
    assert on.trace and off.trace
    rendered = " ".join(step.render() for step in on.trace)
    assert a.label in rendered and b.label in rendered


@given(hands, st.randoms(use_true_random=False))
def test_order_does_not_matter(hand, rnd):
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert straights_in(shuffled) == straights_in(hand)


@given(hands, st.integers(1, 6))
def test_one_more_die_never_loses_a_straight(hand, extra):
    assert set(straights_in(hand)) <= set(straights_in([*hand, extra]))


def test_sides_are_opposite():
    assert GangSide.PLAYERS.other is GangSide.GM and GangSide.GM.other is GangSide.PLAYERS
