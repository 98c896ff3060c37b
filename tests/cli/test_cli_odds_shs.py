"""``tablee odds shs``: the exact odds of an SHS Test at the command line."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from .conftest import Run


def brute_force(threshold: int, bonus: int, difficulty: int) -> Fraction:
    """Three D8 against the threshold plus ``bonus`` D+/- dice read as bonuses (+ faces)."""
    wins = total = 0
    dpm = (1, 1, -1, -1, 0, 0)
    for action in product(range(1, 9), repeat=3):
        for extra in product(dpm, repeat=bonus):
            ps = sum(face >= threshold for face in action) + sum(f == 1 for f in extra)
            total += 1
            wins += ps >= difficulty
    return Fraction(wins, total)


def test_odds_shs_json_reports_the_exact_success(run: Run) -> None:
    result = run("odds", "shs", "--threshold", "6", "--bonus", "1", "--difficulty", "2", "--json")
    assert result.code == 0, result.err
    doc = result.json()
    assert Fraction(doc["success"]) == brute_force(6, 1, 2)
    assert sum(Fraction(row["probability"]) for row in doc["distribution"]) == 1
    assert {row["outcome"] for row in doc["distribution"]} == {"success", "failure"}


def test_odds_shs_refuses_a_threshold_outside_5_to_8(run: Run) -> None:
    result = run("odds", "shs", "--threshold", "9")
    assert result.code == 2
    assert "9" in result.err


def test_odds_shs_human_output_in_french(run: Run) -> None:
    result = run("odds", "shs", "--threshold", "5", "--difficulty", "1", "--lang", "fr")
    assert result.code == 0, result.err
    assert " PS " in result.out
