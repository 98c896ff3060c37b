"""Agents lab tables against icepool, the opposition table written out, and a recursion.

The recursion here is the challenge as G-M4, G-M5 and G-A20 describe it, written apart
from the rule code: the agents act in turn, a failure costs the actor a reserve point, an
agent at 0 is out, a success takes 1 off the score and a critical 2.
"""

from fractions import Fraction
from functools import cache

import icepool
import pytest

from tablee.errors import InputError
from tablee.lab import question_named
from tablee.lab.agents import Action, ChallengeWin
from tablee.lab.questions import LabContext
from tablee.systems.declare import build_command


def _results(modifier: int) -> tuple[Fraction, Fraction, Fraction]:
    roll = icepool.d6 + modifier
    total = roll.denominator()
    critical = Fraction((roll >= 7).quantity(True), total)
    failure = Fraction((roll <= 3).quantity(True), total)
    return critical, 1 - critical - failure, failure


def test_action_results_equal_icepool_over_each_checklist_range() -> None:
    result = Action().answer(LabContext())
    ranges = {}
    for row in result.rows:
        ranges.setdefault(row["kind"], []).append(row["modifier"])
        critical, success, failure = _results(row["modifier"])
        assert (row["p_critical"], row["p_success"], row["p_failure"]) == (
            critical,
            success,
            failure,
        )
        assert row["mean_opposition_loss"] == 2 * critical + success
        assert row["mean_reserve_loss"] == failure
    # G-N2, G-A6: Muscles -2 to +3, Sexe 0 to +2, Intelligence -1 to +1.
    assert ranges == {
        "muscles": [-2, -1, 0, 1, 2, 3],
        "sexe": [0, 1, 2],
        "intelligence": [-1, 0, 1],
    }
    # G-A5: no critical without a positive modifier.
    assert all(r["p_critical"] == 0 for r in result.rows if r["modifier"] <= 0)


def _win(reserves: tuple[int, ...], modifier: int, score: int) -> Fraction:
    critical, success, failure = _results(modifier)
    n = len(reserves)

    @cache
    def win(left: int, pools: tuple[int, ...], turn: int) -> Fraction:
        if left <= 0:
            return Fraction(1)
        for step in range(n):
            actor = (turn + step) % n
            if pools[actor]:
                break
        else:
            return Fraction(0)
        after = (actor + 1) % n
        drained = (*pools[:actor], pools[actor] - 1, *pools[actor + 1 :])
        return (
            critical * win(left - 2, pools, after)
            + success * win(left - 1, pools, after)
            + failure * win(left, drained, after)
        )

    return win(score, reserves, 0)


def test_win_over_the_score_equals_the_recursion() -> None:
    result = ChallengeWin(reserves="3,2,4", modifier=1, opposition="score", max_score=8).answer(
        LabContext()
    )
    assert result.variants == ()
    for row in result.rows:
        party = (3, 2, 4)[: row["party"]]
        assert row["p_win"] == _win(party, 1, row["score"]), row
        if row["score"] == 0:
            assert row["p_win"] == 1  # G-A2: nothing to bring down, won at once


def _table_score(progress: int, face: int, party: int, rows: str, rounding: str) -> int:
    # G-N3 as written in the rulings: (half the d6 + row - 1) per agent; G-A1 the row
    # reading, G-A3 the rounding of rows 2 to 4 (row 1 always rounds down).
    row = progress + 1 if rows == "shifted" else progress
    row = max(1, min(4, row))
    half = face // 2 if row == 1 or rounding == "floor" else (face + 1) // 2
    return (half + row - 1) * party


def test_generated_opposition_under_each_reading_of_the_table() -> None:
    result = ChallengeWin(reserves="4,3", modifier=0).answer(LabContext())
    assert [v.name for v in result.variants] == [
        "shifted_floor",
        "shifted_up",
        "literal_floor",
        "literal_up",
    ]
    assert len(result.rows) == 4 * 2 * 4
    for row in result.rows:
        rows, rounding = row["variant"].split("_")
        party = (4, 3)[: row["party"]]
        scores = [
            _table_score(row["progress"], face, row["party"], rows, rounding)
            for face in range(1, 7)
        ]
        assert row["mean_score"] == Fraction(sum(scores), 6)
        assert row["p_zero"] == Fraction(scores.count(0), 6)
        assert row["p_win"] == sum(Fraction(1, 6) * _win(party, 0, s) for s in scores), row


def test_shifted_rows_make_the_showdown_hardest() -> None:
    # G-A1: at P = 3 the shifted reading uses the fourth row, the literal one the third.
    result = ChallengeWin(reserves="5", compare="opposition_rows").answer(LabContext())
    rows = {(r["variant"], r["progress"]): r for r in result.rows}
    assert rows["shifted", 3]["mean_score"] == 3 + Fraction(3, 2)
    assert rows["literal", 3]["mean_score"] == 2 + Fraction(3, 2)
    assert rows["shifted", 3]["p_win"] < rows["literal", 3]["p_win"]
    # At P = 0 both read the first row: a d6 of 1 gives 0, a challenge won at once.
    assert rows["shifted", 0]["p_zero"] == rows["literal", 0]["p_zero"] == Fraction(1, 6)


def test_minimum_of_one_per_agent_removes_free_wins() -> None:
    result = ChallengeWin(reserves="5,5", compare="opposition_minimum").answer(LabContext())
    for row in result.rows:
        if row["variant"] == "one_per_agent":
            assert row["p_zero"] == 0


def test_bad_reserves_and_too_large_tables_are_refused() -> None:
    cls = question_named("agents", "challenge")
    for text in (",", "5,5,5,5,5", "0", "10", "x"):
        with pytest.raises(InputError):
            build_command(cls, {"reserves": text}).answer(LabContext())
    big = build_command(cls, {"reserves": "9,9,9,9", "opposition": "score", "max_score": "30"})
    with pytest.raises(InputError, match="chain states"):
        big.answer(LabContext())
