"""The lab's ``ybs/race-advice``: exact race odds from the first throw, advisor v race-optimal."""

from fractions import Fraction

import pytest

from tablee.errors import InputError
from tablee.lab import question_named
from tablee.lab.questions import LabContext
from tablee.lab.results import to_json
from tablee.systems.declare import build_command
from tablee.systems.ybs.gang_odds import gang_fight_odds


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
    assert rows["race", "race"]["equilibrium"] is True
    assert rows["advisor", "race"]["gain"] > 0
    assert rows["race", "advisor"]["score"] < Fraction(1, 2)
    data = to_json(result)
    assert data["rows"][0]["fight"] == "4v4"
    assert {c.series for c in result.charts} == {"policy"}


def test_bounds_in_the_wrong_order_are_refused() -> None:
    question = build_command(
        question_named("ybs", "race-advice"), {"min_dice": "6", "max_dice": "4"}
    )
    with pytest.raises(InputError, match="above"):
        question.answer(LabContext())
