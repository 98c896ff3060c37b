"""Ichika Bachika: the choices, the Zorome ranking, the outcome and the damage."""

from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablee.dice import D6
from tablee.errors import InputError
from tablee.systems.ybs.gang import Hit
from tablee.systems.ybs.ichika import (
    IchikaChoice,
    IchikaOptions,
    decide_encounter,
    dice_for_ichika,
    ichika_hits,
    resolve_ichika,
    zorome_of,
)
from tablee.systems.ybs.straights import GangSide

HANDS = list(combinations_with_replacement(range(1, 7), 5))
five = st.lists(st.integers(1, 6), min_size=5, max_size=5)


def _sets(hand):
    """Sets of equal faces as (size, face), best first, written independently."""
    counts = Counter(hand)
    return sorted([(c, f) for f, c in counts.items() if c > 1], key=lambda s: (-s[0], -s[1]))


def _beats(a, b):
    """Y-A15/Y-A16 as a loop: compare set by set; more sets win when the rest is equal."""
    sa, sb = _sets(a), _sets(b)
    for x, y in zip(sa, sb, strict=False):
        if x != y:
            return x > y
    return len(sa) > len(sb)


def test_zorome_order_matches_the_written_rule_on_every_pair():
    zs = {h: zorome_of(h) for h in HANDS}
    for a in HANDS:
        for b in HANDS:
            assert (zs[a] > zs[b]) == _beats(a, b), (a, b)
            assert (zs[a] == zs[b]) == (not _beats(a, b) and not _beats(b, a))


def test_size_beats_face():
    assert zorome_of([1, 1, 1, 2, 3]) > zorome_of([6, 6, 5, 5, 4])
    assert zorome_of([6, 6, 5, 5, 4]) > zorome_of([6, 6, 1, 2, 3])
    assert zorome_of([2, 2, 2, 2, 2]) > zorome_of([6, 6, 6, 6, 1])
    assert zorome_of([1, 2, 3, 4, 5]).label == "-"
    assert zorome_of([2, 5, 5, 2, 5]).label == "5-5-5 2-2"


def test_dice_for_ichika():
    assert [(r.die, r.count) for r in dice_for_ichika()] == [(D6, 5), (D6, 5)]


@given(five, five, st.sampled_from(["draw", "reroll"]))
def test_swapping_sides_swaps_the_outcome(a, b, tie):
    options = IchikaOptions(tie=tie)
    one, two = resolve_ichika((a, b), options), resolve_ichika((b, a), options)
    assert (one.winner is None) == (two.winner is None)
    if one.winner is not None:
        assert two.winner is one.winner.other
        assert one.uchimi_for(one.winner) == 0 and one.uchimi_for(one.winner.other) == 4
    assert (one.players_uchimi, one.gm_uchimi) == (two.gm_uchimi, two.players_uchimi)
    assert one.draw == (one.winner is None and tie == "draw")
    assert one.reroll == (one.winner is None and tie == "reroll")


def test_outcome_hits_apply_the_three_hit_point_rule_to_losers_only():
    outcome = resolve_ichika(([1, 1, 1, 2, 3], [6, 6, 2, 3, 4]))
    assert outcome.winner is GangSide.PLAYERS
    assert outcome.hits_for(GangSide.GM, 3) == (Hit.UCHIMI,) * 3 + (Hit.KEGA,)
    assert outcome.hits_for(GangSide.GM, 5) == (Hit.UCHIMI,) * 4
    assert outcome.hits_for(GangSide.PLAYERS, 3) == ()
    assert outcome.damage_for(GangSide.GM, 3) == (3, 1)
    assert outcome.damage_for(GangSide.GM, 4) == (4, 0)
    assert outcome.damage_for(GangSide.PLAYERS, 3) == (0, 0)
    draw = resolve_ichika(([1, 2, 3, 4, 6], [1, 2, 3, 4, 6]))
    assert draw.hits_for(GangSide.PLAYERS, 3) == (Hit.UCHIMI,) * 2


@pytest.mark.parametrize(
    ("uchimi", "hp", "loser", "kega_at"),
    [
        (4, 3, True, 3),
        (4, 2, True, None),
        (4, 4, True, None),
        (4, 6, True, None),
        (4, 3, False, None),
        (2, 3, True, None),
        (6, 3, True, 3),
    ],
)
def test_ichika_hits(uchimi, hp, loser, kega_at):
    hits = ichika_hits(uchimi, hp, loser=loser)
    assert len(hits) == uchimi
    assert [i for i, h in enumerate(hits) if h is Hit.KEGA] == (
        [] if kega_at is None else [kega_at]
    )


def test_errors():
    with pytest.raises(InputError, match="faces given: 4"):
        resolve_ichika(([1, 2, 3, 4], [1, 2, 3, 4, 5]))
    with pytest.raises(InputError, match="face 7"):
        resolve_ichika(([1, 2, 3, 4, 7], [1, 2, 3, 4, 5]))
    with pytest.raises(InputError, match="Y-A16"):
        IchikaOptions(tie="again")
    with pytest.raises(InputError, match="loser_uchimi"):
        IchikaOptions(loser_uchimi=-2)
    with pytest.raises(InputError, match="hp"):
        ichika_hits(4, 0)
    with pytest.raises(InputError, match="uchimi"):
        ichika_hits(-1, 4)
    with pytest.raises(InputError, match="Y-M8"):
        decide_encounter({})
    with pytest.raises(InputError, match="'attack'"):
        decide_encounter({"Aoi": "attack"})


def test_encounters():
    assert decide_encounter({"A": IchikaChoice.FLEE, "B": "flee"}).kind == "flee"
    alone = decide_encounter({"A": IchikaChoice.ICHIKA_BACHIKA})
    assert (alone.kind, alone.fighters, alone.fleeing) == ("ichika_bachika", ("A",), ())
    assert "A" in alone.trace[0].render()
    mixed = decide_encounter({"A": "gang_fight", "B": "flee"})
    assert (mixed.fighters, mixed.fleeing) == (("A",), ("B",))
