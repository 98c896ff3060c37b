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


def _success(run: Run, *args: str) -> Fraction:
    result = run("odds", "shs", "--threshold", "6", "--difficulty", "1", *args, "--json")
    assert result.code == 0, result.err
    return Fraction(result.json()["success"])


def test_odds_shs_with_table_uses_its_house_rules(run: Run) -> None:
    made = run(
        "table", "new", "shs", "--name", "capped", "--players", "Ana", "--option", "dpm_cap=1"
    )
    assert made.code == 0, made.err
    free = _success(run, "--bonus", "3")
    capped = _success(run, "--bonus", "3", "--table", "capped")
    assert free == brute_force(6, 3, 1) and capped == brute_force(6, 1, 1)


def test_odds_shs_simultaneous_cooperation_and_opposed(run: Run) -> None:
    # S-T10: Natalia at 5+ in a set of 2 Actions: Malus 1 against Difficulty 1.
    natalia = run("odds", "shs", "--threshold", "5", "--difficulty", "1", "--simultaneous", "2")
    assert natalia.code == 0 and "(3/4)" in natalia.out
    member = brute_force(6, 1, 2)
    result = run(
        "odds", "shs", "--threshold", "6", "--difficulty", "2", "--cooperators", "2", "--json"
    )
    assert Fraction(result.json()["cooperation"]["group"]) == 1 - (1 - member) ** 2
    result = run("odds", "shs", "--threshold", "6", "--against", "6", "--json")
    opposed = result.json()["opposed"]
    assert Fraction(opposed["first"]) == Fraction(44235, 131072)
    assert Fraction(opposed["first"]) + Fraction(opposed["second"]) == 1
    refused = run("odds", "shs", "--threshold", "6", "--cooperators", "2")
    assert refused.code != 0 and "Difficulty" in refused.err


def test_odds_shs_simultaneous_against_puts_the_malus_on_this_side_only(run: Run) -> None:
    # S-X5: 6+ in a set of 2 Actions (Malus 1, one D+/-) against 7+; this side loses ties.
    # Counted by hand over every roll: 3D8 x D+/- x 3D8, as in the rules tests.
    result = run(
        "odds", "shs", "--threshold", "6", "--simultaneous", "2", "--against", "7", "--json"
    )
    doc = result.json()
    assert doc["simultaneous"] == {"actions": 2, "set_malus": 1}
    assert Fraction(doc["opposed"]["first"]) == Fraction(11745, 32768)
    alone = run("odds", "shs", "--threshold", "6", "--against", "7", "--json").json()
    assert Fraction(alone["opposed"]["first"]) == Fraction(7533, 16384)
    text = run("odds", "shs", "--threshold", "6", "--simultaneous", "2", "--against", "7")
    assert "(11745/32768)" in text.out
