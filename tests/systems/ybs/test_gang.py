"""The gang fight's rules: dice per side, throws, keeps, the end, minutes and damage."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablee.dice import D6, SeededSource
from tablee.errors import InputError, RuleError
from tablee.systems.ybs.gang import (
    GangFight,
    GangOptions,
    Keeps,
    dice_for_throw,
    dice_per_side,
    is_sub_multiset,
    play_throw,
    resolve_throw,
    start_gang_fight,
    throw_result,
)
from tablee.systems.ybs.straights import GangSide, Straight

P, G = GangSide.PLAYERS, GangSide.GM
SIDES = [None, P, G]


def _expected_dice(outnumbered, outgunned, mutual):
    """The rule Y-M7/Y-A12 written as a table of cases."""
    handicaps = Counter(s for s in (outnumbered, outgunned) if s is not None)
    if handicaps[P] == 1 and handicaps[G] == 1:
        return (4, 4) if mutual == "both_lose" else (5, 5)
    if handicaps[P] == 2:
        return (4, 6)
    if handicaps[G] == 2:
        return (6, 4)
    return (5 - handicaps[P], 5 - handicaps[G])


@pytest.mark.parametrize("mutual", ["cancel", "both_lose"])
@pytest.mark.parametrize("outnumbered", SIDES)
@pytest.mark.parametrize("outgunned", SIDES)
def test_dice_per_side(outnumbered, outgunned, mutual):
    got = dice_per_side(outnumbered, outgunned, mixed_disadvantages=mutual)
    assert got == _expected_dice(outnumbered, outgunned, mutual)
    fight = start_gang_fight(outnumbered, outgunned, GangOptions(mixed_disadvantages=mutual))
    assert (fight.players_dice, fight.gm_dice) == got


def test_bad_disadvantage_and_options_are_refused():
    with pytest.raises(InputError, match="'players'"):
        dice_per_side("players")
    with pytest.raises(InputError, match="Y-A12"):
        GangOptions(mixed_disadvantages="both")
    with pytest.raises(InputError, match="loser_uchimi"):
        GangOptions(loser_uchimi=-1)


def test_first_throw_uses_every_die():
    fight = start_gang_fight(P, P)
    players, gm = dice_for_throw(fight)
    assert (players.die, players.count, gm.die, gm.count) == (D6, 4, D6, 6)
    assert fight.minutes == 0 and not fight.finished
    with pytest.raises(InputError, match="first throw"):
        dice_for_throw(fight, Keeps(players=(1,)))


def _after_first(players=(1, 2, 2, 5, 6), gm=(1, 1, 3, 3, 6)):
    return resolve_throw(GangFight(5, 5), Keeps(), (players, gm))


def test_later_throws_reroll_what_is_not_kept():
    fight, outcome = _after_first()
    assert outcome.result is None and outcome.throw == 1 and outcome.minutes == 0
    assert fight.players_hand == (1, 2, 2, 5, 6)
    keeps = Keeps(players=(2, 5), gm=(1, 1, 3, 3, 6))
    players, gm = dice_for_throw(fight, keeps)
    assert (players.count, gm.count) == (3, 0)
    fight, outcome = resolve_throw(fight, keeps, ([2, 2, 2], []))
    assert outcome.players_hand == (2, 2, 2, 2, 5) and outcome.gm_hand == (1, 1, 3, 3, 6)
    assert (outcome.throw, outcome.minutes, fight.minutes) == (2, 1, 1)
    assert outcome.players_kept == (2, 5) and outcome.players_rolled == (2, 2, 2)


@pytest.mark.parametrize(
    ("keep", "words"),
    [((6, 6), ["[6, 6]", "[1, 2, 2, 5, 6]"]), ((3,), ["[3]"]), ((2, 2, 2), ["[2, 2, 2]"])],
)
def test_a_keep_of_missing_dice_names_them_and_the_rule(keep, words):
    fight, _ = _after_first()
    with pytest.raises(InputError) as caught:
        dice_for_throw(fight, Keeps(players=keep))
    text = str(caught.value)
    assert all(w in text for w in words) and "Y-M7" in text and "players" in text
    with pytest.raises(InputError):
        resolve_throw(fight, Keeps(players=keep), ([1], [1, 1, 1, 1, 1]))


def test_a_keep_with_a_bad_face_is_refused():
    fight, _ = _after_first()
    with pytest.raises(InputError, match="7"):
        dice_for_throw(fight, Keeps(gm=(7,)))


def test_wrong_number_of_faces_is_refused():
    fight, _ = _after_first()
    with pytest.raises(InputError, match="the GM's side throws 5 dice"):
        resolve_throw(fight, Keeps(players=(1, 2, 2, 5, 6)), ([], [1, 2]))
    with pytest.raises(InputError, match="face 0"):
        resolve_throw(GangFight(5, 5), Keeps(), ([0, 1, 2, 3, 4], [1, 1, 1, 1, 1]))


def test_no_throw_after_the_end():
    fight, outcome = resolve_throw(GangFight(4, 4), Keeps(), ([1, 2, 3, 4], [1, 1, 1, 1]))
    assert fight.finished and outcome.result.winner is P
    with pytest.raises(RuleError, match="over"):
        dice_for_throw(fight)
    with pytest.raises(RuleError):
        resolve_throw(fight, Keeps(), ([1, 2, 3, 4], [1, 1, 1, 1]))


def test_damage_amounts_follow_the_options():
    options = GangOptions(winner_uchimi=0, loser_uchimi=2, draw_uchimi=1)
    _, won = resolve_throw(GangFight(4, 4, options), Keeps(), ([1, 1, 1, 1], [3, 4, 5, 6]))
    assert (won.result.players_uchimi, won.result.gm_uchimi) == (2, 0)
    _, tie = resolve_throw(GangFight(4, 4, options), Keeps(), ([3, 4, 5, 6], [3, 4, 5, 6]))
    assert (tie.result.players_uchimi, tie.result.gm_uchimi) == (1, 1)
    assert tie.result.players_straight is Straight.HIGH


def test_trace_names_each_side_and_the_damage():
    _, outcome = resolve_throw(GangFight(4, 6), Keeps(), ([1, 2, 3, 4], [2, 2, 2, 2, 2, 2]))
    text = "\n".join(step.render() for step in outcome.trace)
    assert "[1, 2, 3, 4]" in text and "players" in text and "3 Uchimi" in text


def test_is_sub_multiset():
    assert is_sub_multiset([2, 2], [1, 2, 2]) and not is_sub_multiset([2, 2], [1, 2, 3])
    assert is_sub_multiset([], [])
    assert is_sub_multiset((1, 6), (6, 5, 1)) and not is_sub_multiset((6, 6, 1), (6, 1, 1))
    assert not is_sub_multiset([4], [])


@pytest.mark.parametrize("higher_straight_wins", [True, False])
@pytest.mark.parametrize(
    ("faces", "gm_faces"),
    [
        ([1, 1, 2, 6], [2, 2, 5, 5]),  # no straight: the fight goes on
        ([4, 3, 2, 1], [6, 6, 6, 6]),  # the players first
        ([1, 1, 1, 1], [6, 5, 4, 3]),  # the GM's side first
        ([2, 3, 4, 5], [3, 4, 5, 6]),  # both, the GM's higher
        ([3, 4, 5, 6], [6, 5, 4, 3]),  # both, identical
    ],
)
def test_the_trace_read_later_is_the_throw_and_its_end(higher_straight_wins, faces, gm_faces):
    # the trace is written on first reading: the steps of each side's throw, then those of
    # throw_result for the same fight
    fight = GangFight(4, 4, GangOptions(higher_straight_wins=higher_straight_wins))
    _, outcome = resolve_throw(fight, Keeps(), (faces, gm_faces))
    result, tail = throw_result(fight, 1, outcome.players_straight, outcome.gm_straight)
    assert result == outcome.result
    steps = [step.render() for step in outcome.trace]
    assert steps[0] == (
        f"throw 1 (minute 0): the players' side keeps [], throws {faces}: {sorted(faces)}"
    )
    assert steps[1] == (
        f"throw 1 (minute 0): the GM's side keeps [], throws {gm_faces}: {sorted(gm_faces)}"
    )
    assert steps[2:] == [step.render() for step in tail]
    assert outcome.trace is outcome.trace  # written once


keep_picks = st.lists(st.booleans(), min_size=6, max_size=6)


@given(
    st.integers(4, 6), st.integers(4, 6), st.integers(0, 2**32), st.lists(keep_picks, max_size=6)
)
def test_any_sequence_of_keeps_keeps_the_counts_right(n, m, seed, picks):
    source = SeededSource(seed)
    fight, _ = play_throw(GangFight(n, m), Keeps(), source)
    for pick in picks:
        if fight.finished:
            break
        keeps = Keeps(
            tuple(f for f, k in zip(fight.players_hand, pick, strict=False) if k),
            tuple(f for f, k in zip(fight.gm_hand, reversed(pick), strict=False) if k),
        )
        before = fight.throws
        fight, outcome = play_throw(fight, keeps, source)
        assert len(fight.players_hand) == n and len(fight.gm_hand) == m
        assert fight.players_hand == tuple(sorted(fight.players_hand))
        assert is_sub_multiset(keeps.players, fight.players_hand)
        assert is_sub_multiset(keeps.gm, fight.gm_hand)
        assert fight.throws == before + 1 and fight.minutes == fight.throws - 1
        shown = outcome.players_straight is not None or outcome.gm_straight is not None
        assert fight.finished == shown
    if fight.finished:
        r = fight.result
        assert r.minutes == r.throws - 1 == fight.minutes
        if r.winner is not None:
            assert (r.uchimi_for(r.winner), r.uchimi_for(r.winner.other)) == (1, 3)
        else:
            assert r.players_straight == r.gm_straight and (r.players_uchimi, r.gm_uchimi) == (2, 2)


@given(st.integers(4, 6), st.integers(4, 6), st.integers(0, 2**32), st.integers(0, 4))
def test_json_round_trip(n, m, seed, throws):
    source = SeededSource(seed)
    fight = GangFight(n, m, GangOptions(higher_straight_wins=seed % 2 == 0))
    assert GangFight.from_json(fight.to_json()) == fight
    for _ in range(throws):
        if fight.finished:
            break
        fight, _ = play_throw(fight, Keeps(fight.players_hand[:1], ()), source)
        assert GangFight.from_json(fight.to_json()) == fight


def test_bad_json_is_refused():
    data = GangFight(5, 5).to_json()
    with pytest.raises(InputError, match="cannot be read"):
        GangFight.from_json({**data, "options": {"colour": 1}})
    with pytest.raises(InputError, match="before its first throw"):
        GangFight.from_json({**data, "players_hand": [1, 2, 3, 4, 5]})
    with pytest.raises(InputError, match="face 9"):
        GangFight.from_json({**data, "throws": 1, "players_hand": [9] * 5, "gm_hand": [1] * 5})


@pytest.mark.parametrize("bad", [3, 9, 0, True, "5"])
def test_bad_dice_counts_are_refused(bad):
    with pytest.raises(InputError, match="players_dice"):
        GangFight(bad, 5)


def test_negative_throws_in_json_are_refused():
    with pytest.raises(InputError, match="-1 throws"):
        GangFight.from_json({**GangFight(5, 5).to_json(), "throws": -1})
