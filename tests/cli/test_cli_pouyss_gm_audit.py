"""The game master's audit of Pouyss at the command line: what a roll shows of what was
imposed, the opposed roll's obligations, the correction of the cagnotte, a penalty on an
empty cagnotte.

Source: seed 000; rulings P-M3, P-M6, P-M7, P-M8; Tablée's P-X1 to P-X3.
"""

from __future__ import annotations

from .conftest import Run

IMPOSED = ("--imposed-bonus", "1", "--imposed-malus", "1", "--double-bonus")
REASONS = ("--reason", "fog", "--reason", "knows Chelsea")


def test_a_rolls_own_report_shows_what_was_imposed_the_double_bonus_and_the_reasons(
    table: Run,
) -> None:
    assert table("pouyss", "cagnotte", "correct", "--value", "9", "--reason", "x").code == 0
    argv = ("pouyss", "roll", "--player", "A", "--bonus", "1", *IMPOSED, *REASONS)
    result = table(*argv, "--dice", "1,2,3,4,5")
    assert result.code == 0, result.err
    assert "imposed: 1 bonus, 1 malus" in result.out
    assert "with a double bonus" in result.out
    assert "because: fog; knows Chelsea" in result.out
    french = table(*argv, "--dice", "1,2,3,4,5", "--lang", "fr")
    assert "avec un double bonus" in french.out and "fog ; knows Chelsea" in french.out
    assert "with a double bonus" not in french.out


def test_an_opposed_roll_takes_the_narrators_obligations_and_shows_them(table: Run) -> None:
    result = table(
        "pouyss",
        "opposed",
        "--active",
        "A",
        "--passive-npc",
        "Le Rôdeur",
        "--active-bonus",
        "1",
        *IMPOSED,
        *REASONS,
        "--dice",
        "1,2,3,4,5",
    )
    assert result.code == 0, result.err
    assert "A brings bonus 3 and malus 1" in result.out
    assert "imposed: 1 bonus, 1 malus" in result.out
    assert "with a double bonus" in result.out
    assert "because: fog; knows Chelsea" in result.out
    assert "Cagnotte: 4 → 2 (−3 drawn, +1 put back)" in result.out
    log = table("table", "log").out
    assert "imposed: 1 bonus, 1 malus; with a double bonus; because: fog; knows Chelsea" in log
    assert table("table", "check").code == 0


def test_an_opposed_roll_json_records_what_was_imposed(table: Run) -> None:
    doc = table(
        "pouyss",
        "opposed",
        "--active",
        "A",
        "--passive",
        "B",
        "--imposed-malus",
        "2",
        "--reason",
        "fog",
        "--dice",
        "6,5,4",
        "--json",
    ).json()
    assert (doc["imposed_bonus"], doc["imposed_malus"], doc["reasons"]) == (0, 2, ["fog"])
    assert (doc["malus"], doc["value"], doc["passive_value"]) == (2, 4, 3)


def test_a_report_names_only_the_imposed_dice_there_are(table: Run) -> None:
    argv = ("pouyss", "opposed", "--active", "A", "--passive", "B", "--imposed-malus", "2")
    result = table(*argv, "--reason", "fog", "--reason", "night", "--dice", "6,5,4")
    assert result.code == 0, result.err
    assert "\nimposed: 2 malus\n" in result.out
    french = table(*argv, "--reason", "brume", "--reason", "nuit", "--dice", "6,5,4", "--lang=fr")
    assert "brume ; nuit" in french.out


def test_a_bonus_cannot_be_imposed_on_an_opposed_roll_with_an_empty_cagnotte(run: Run) -> None:
    run("table", "new", "pouyss", "--name", "vide", "--players", "A")
    run("pouyss", "session", "start", "--cagnotte", "0")
    result = run("pouyss", "opposed", "--active", "A", "--passive-npc", "X", "--imposed-bonus", "1")
    assert result.code == 3
    assert "cannot impose a bonus" in result.err and "P-M6" in result.err


def test_the_narrator_corrects_the_cagnotte_with_a_reason(table: Run) -> None:
    result = table("pouyss", "cagnotte", "correct", "--value", "7", "--reason", "paper tally")
    assert result.code == 0, result.err
    assert "Cagnotte: 4 → 7 (corrected by the narrator: paper tally)" in result.out
    assert table("pouyss", "cagnotte", "correct", "--value", "3").code == 2
    assert "from 4 to 7 (paper tally) · cagnotte 7" in table("table", "log").out
    assert table("table", "show", "--json").json()["cagnotte"] == 7


def test_a_penalty_on_an_empty_cagnotte_is_refused_and_logs_nothing(run: Run) -> None:
    run("table", "new", "pouyss", "--name", "vide", "--players", "A")
    run("pouyss", "session", "start", "--cagnotte", "0")
    before = run("table", "log").out
    result = run("pouyss", "penalty")
    assert result.code == 3
    assert "the cagnotte is empty" in result.err and "P-X3" in result.err
    assert run("table", "log").out == before
