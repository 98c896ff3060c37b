"""The lab's ``ybs/race-advice``: exact race odds from the first throw, advisor v race-optimal."""

from fractions import Fraction

import pytest

from tablee.errors import InputError
from tablee.lab import question_named
from tablee.lab.questions import LabContext
from tablee.lab.results import label_text, to_json
from tablee.systems.declare import build_command
from tablee.systems.ybs.gang_odds import gang_fight_odds
from tablee.systems.ybs.race import race_start_odds


def test_four_against_four_rows_are_exact_and_the_race_policy_gains() -> None:
    question = build_command(
        question_named("ybs", "race-advice"), {"min_dice": "4", "max_dice": "4"}
    )
    result = question.answer(LabContext())
    assert len(result.rows) == 4  # one fight, two opponents, two policies
    rows = {(r["opponent"], r["policy"]): r for r in result.rows}
    for row in result.rows:
        assert row["win"] + row["tie"] + row["loss"] == 1
        assert row["score"] == row["win"] + row["tie"] / 2
        assert row["gain"] >= 0
    plain = gang_fight_odds(4, 4)
    both_advised = rows["advisor", "advisor"]
    assert (both_advised["win"], both_advised["tie"]) == (plain.win, plain.draw)
    assert both_advised["gain"] == 0
    # 4 against 4: a symmetric equilibrium, so race-optimal against itself is an even game.
    assert rows["race", "race"]["score"] == Fraction(1, 2)
    assert not result.notes  # the race-optimal opponent exists
    assert rows["advisor", "race"]["gain"] > 0
    assert rows["race", "advisor"]["score"] < Fraction(1, 2)
    data = to_json(result)
    assert data["rows"][0]["fight"] == "4v4"
    assert {c.series for c in result.charts} == {"policy"}


def test_a_fight_without_a_race_optimal_opponent_is_shown_against_the_advisor_only() -> None:
    question = build_command(
        question_named("ybs", "race-advice"), {"min_dice": "4", "max_dice": "6"}
    )
    result = question.answer(LabContext())
    cycled = {
        f"{ours}v{theirs}"
        for ours in range(4, 7)
        for theirs in range(4, 7)
        if not all(
            race_start_odds(ours, theirs, we_play=p, opponent="race").equilibrium
            for p in ("advisor", "race")
        )
    }
    assert cycled  # unequal dice with higher_straight_wins on: best responses cycle (Y-X9)
    against = {(r["fight"], r["opponent"]) for r in result.rows}
    for fight in cycled:
        assert (fight, "advisor") in against and (fight, "race") not in against
    (note,) = result.notes
    assert all(fight in label_text(note) for fight in cycled)


def test_bounds_in_the_wrong_order_are_refused() -> None:
    question = build_command(
        question_named("ybs", "race-advice"), {"min_dice": "6", "max_dice": "4"}
    )
    with pytest.raises(InputError, match="above"):
        question.answer(LabContext())
