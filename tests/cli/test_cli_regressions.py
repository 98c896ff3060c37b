"""Bugs found by following the README as a new user; each test holds the right value."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from .conftest import Run


def cagnotte(run: Run) -> int:
    return int(run("table", "show", "--json").json()["cagnotte"])


def test_undo_before_a_carried_over_session_changes_the_carried_value(table: Run) -> None:
    seq = table("pouyss", "reward", "--amount", "2", "--json").json()["seq"]  # 4 -> 6
    table("pouyss", "session", "end")
    table("pouyss", "session", "start", "--carry-over")
    assert cagnotte(table) == 6
    assert table("table", "undo", "--seq", str(seq)).code == 0
    assert cagnotte(table) == 4  # the carried value follows the fold


def test_undo_before_a_clamped_penalty_replays_the_penalty_by_the_rule(run: Run) -> None:
    run("table", "new", "pouyss", "--name", "lyon", "--players", "A,B,C")
    run("pouyss", "session", "start")  # 3
    first = run("pouyss", "penalty", "--amount", "2", "--json").json()["seq"]  # 3 -> 1
    run("pouyss", "penalty", "--amount", "2")  # 1 -> 0, clamped
    assert cagnotte(run) == 0
    assert run("table", "undo", "--seq", str(first)).code == 0
    assert cagnotte(run) == 1  # penalty of 2 from 3, not the stored 1 die


def test_undo_that_makes_a_refuse_penalty_impossible_is_refused(run: Run) -> None:
    run(
        "table",
        "new",
        "pouyss",
        "--name",
        "strict",
        "--players",
        "A,B",
        "--option",
        "penalty_floor=refuse",
    )
    run("pouyss", "session", "start")  # 2
    reward = run("pouyss", "reward", "--amount", "1", "--json").json()["seq"]  # 3
    run("pouyss", "penalty", "--amount", "2")  # 1
    run("pouyss", "penalty", "--amount", "1")  # 0
    result = run("table", "undo", "--seq", str(reward))
    assert result.code == 3
    assert "P-A8" in result.err


def test_a_player_cannot_oppose_themselves(table: Run) -> None:
    result = table("pouyss", "opposed", "--active", "A", "--passive", "a", "--dice", "3")
    assert result.code == 2
    assert "P-M8" in result.err


def test_a_refused_command_does_not_change_the_default_table(run: Run) -> None:
    run("table", "new", "pouyss", "--name", "paris", "--players", "A")
    run("table", "new", "pouyss", "--name", "rome", "--players", "B")
    assert run("pouyss", "roll", "--player", "Nobody", "--table", "paris").code == 2
    assert run("table", "show", "--json").json()["name"] == "rome"


def test_a_foreign_sqlite_file_is_refused_and_left_alone(run: Run, tmp_path: Path) -> None:
    foreign = tmp_path / "notes.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    conn.close()
    result = run("table", "list", "--db", str(foreign))
    assert result.code == 5
    assert "not a Tablée database" in result.err
    with sqlite3.connect(foreign) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    conn.close()
    assert names == ["notes"]


def test_demo_json_is_one_json_document(run: Run) -> None:
    result = run("demo", "--name", "d", "--json")
    assert result.code == 0, result.err
    steps = json.loads(result.out)
    assert steps[0]["command"].startswith("tablee table new pouyss")
    assert all(step["exit_code"] == 0 for step in steps)
    assert steps[-1]["command"] == "tablee table log"


def test_demo_in_french_translates_its_free_texts(run: Run) -> None:
    out = run("demo", "--name", "d", "--lang", "fr").out
    assert "the stranger" not in out
    assert "wrong player" not in out


def test_dice_and_seed_together_are_a_usage_error(table: Run) -> None:
    result = table("pouyss", "roll", "--player", "A", "--dice", "3", "--seed", "1")
    assert result.code == 2
    assert "--seed" in result.err


def test_a_non_number_count_is_named_in_the_tables_language(table: Run) -> None:
    result = table("pouyss", "roll", "--player", "A", "--bonus", "deux", "--lang", "fr")
    assert result.code == 2
    assert "'deux'" in result.err
    assert "int" not in result.err


def test_an_empty_db_option_is_refused(run: Run) -> None:
    result = run("table", "list", "--db", "")
    assert result.code == 2
    assert "--db" in result.err


def test_a_huge_start_cagnotte_is_refused(run: Run) -> None:
    run("table", "new", "pouyss", "--name", "big", "--players", "A")
    result = run("pouyss", "session", "start", "--cagnotte", "99999999999")
    assert result.code == 2
    assert "10000" in result.err


def test_export_to_a_file_says_where_it_wrote(table: Run, tmp_path: Path) -> None:
    target = tmp_path / "log.md"
    result = table("table", "export", "--format", "md", "--output", str(target))
    assert result.code == 0
    assert str(target) in result.out
    assert target.read_text(encoding="utf-8").startswith("# club")


def test_log_shows_reward_reason_and_the_folded_cagnotte(table: Run) -> None:
    table("pouyss", "reward", "--amount", "1", "--player", "A", "--reason", "great scene")
    roll = table(
        "pouyss", "roll", "--player", "B", "--bonus", "1", "--dice", "2,3", "--json"
    ).json()["seq"]
    table("table", "undo", "--seq", str(roll))
    log = table("table", "log").out
    assert "(A: great scene)" in log
    assert "(undone)" in log


def test_show_prints_house_rules_as_sentences(table: Run) -> None:
    out = table("table", "show").out
    assert "Bonus dice per roll: no limit" in out
    assert "None" not in out
