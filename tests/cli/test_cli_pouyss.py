"""The Pouyss command line, in-process: outputs, JSON contract, bad input, undo, export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablee.table.projection import fold
from tablee.table.transcript import parse_jsonl

from .conftest import Run


def log_of(run: Run) -> str:
    result = run("table", "export", "--format", "jsonl")
    assert result.code == 0
    return result.out


def unchained(text: str) -> list[str]:
    """An export's event lines without their chains or trailer, as Tablée 0.1.0 wrote them.

    An edited export of this installation is refused by its chain first; without the chain
    the rules are what must refuse it.
    """
    rows = [json.loads(line) for line in text.splitlines()]
    assert "trailer" in rows[-1]
    return [json.dumps({k: v for k, v in row.items() if k != "chain"}) for row in rows[:-1]]


def test_version(run: Run) -> None:
    result = run("--version")
    assert result.code == 0
    assert result.out.strip().startswith("tablee 0.")


def test_roll_json_contract_p_t8(table: Run) -> None:
    result = table(
        "pouyss",
        "roll",
        "--player",
        "A",
        "--bonus",
        "1",
        "--malus",
        "2",
        "--dice",
        "1,4,5,6",
        "--json",
    )
    assert result.code == 0, result.err
    doc = result.json()
    assert doc["value"] == 4
    assert doc["level"] == "succes"
    assert doc["dice"] == [1, 4, 5, 6]
    assert doc["removed"] == [6, 5]
    assert doc["kept"] == [4, 1]
    assert doc["cagnotte"] == {"before": 4, "drawn": 1, "deposited": 2, "after": 5}
    assert doc["success"] is True
    assert doc["trace"]


def test_roll_with_odds_reports_exact_fractions(table: Run) -> None:
    doc = table("pouyss", "roll", "--player", "B", "--dice", "6", "--odds", "--json").json()
    assert doc["level"] == "triomphe"
    assert [row["probability"] for row in doc["odds"]] == ["1/6"] * 6


def test_human_roll_shows_dice_removed_level_and_cagnotte(table: Run) -> None:
    result = table(
        "pouyss",
        "roll",
        "--player",
        "A",
        "--bonus",
        "1",
        "--malus",
        "2",
        "--dice",
        "1,4,5,6",
        "--odds",
    )
    assert result.code == 0, result.err
    text = result.out
    assert "Odds before rolling" in text
    assert "removed: 6 5" in text
    assert "Succès" in text
    assert "4 → 5" in text


def test_odds_command_json(run: Run) -> None:
    doc = run("odds", "pouyss", "--bonus", "1", "--malus", "0", "--json").json()
    by_level = {row["outcome"]: row for row in doc["distribution"]}
    assert by_level["triomphe"]["probability"] == "11/36"
    assert by_level["desastre"]["probability"] == "1/36"
    assert doc["success"] == "3/4"
    assert sum(row["percent"] for row in doc["distribution"]) == pytest.approx(100)


def test_odds_command_opposed_mirrors(run: Run) -> None:
    doc = run("odds", "pouyss", "--bonus", "0", "--passive-bonus", "1", "--json").json()
    assert (doc["bonus"], doc["malus"]) == (0, 1)
    active = {r["value"]: r["probability"] for r in doc["distribution"]}
    passive = {r["value"]: r["probability"] for r in doc["passive_distribution"]}
    assert all(passive[7 - v] == p for v, p in active.items())


def test_opposed_roll_converts_and_mirrors(table: Run) -> None:
    doc = table(
        "pouyss",
        "opposed",
        "--active",
        "A",
        "--passive-npc",
        "Guard",
        "--passive-bonus",
        "1",
        "--passive-malus",
        "1",
        "--dice",
        "2,5,6",
        "--json",
    ).json()
    # passive bonus -> malus on the roll, passive malus -> bonus: 1 + 1 + 1 dice, 6 removed
    assert (doc["bonus"], doc["malus"]) == (1, 1)
    assert doc["removed"] == [6]
    assert doc["value"] == 5
    assert doc["passive_value"] == 2
    assert doc["passive_level"] == "defaite"
    assert doc["cagnotte"] == {"before": 4, "drawn": 1, "deposited": 1, "after": 4}


def test_undo_restores_the_cagnotte_and_keeps_the_event(table: Run) -> None:
    table("pouyss", "roll", "--player", "A", "--bonus", "2", "--dice", "1,2,3")
    assert table("table", "show", "--json").json()["cagnotte"] == 2
    undo = table("table", "undo", "--json")
    assert undo.code == 0, undo.err
    assert undo.json()["cagnotte"] == 4
    events = [json.loads(line) for line in unchained(log_of(table))]
    assert [e["kind"] for e in events][-2:] == ["pouyss.roll", "table.voided"]


def test_undo_that_would_break_a_later_roll_is_refused(table: Run) -> None:
    table("pouyss", "roll", "--player", "A", "--malus", "2", "--dice", "1,2,3")  # 4 -> 6
    seq = table(
        "pouyss", "roll", "--player", "B", "--bonus", "6", "--dice", "1,1,1,1,1,1,1", "--json"
    ).json()["seq"]  # 6 -> 0
    before = log_of(table)
    result = table("table", "undo", "--seq", str(seq - 1))
    assert result.code == 3
    assert "later event" in result.err
    assert log_of(table) == before


def test_export_jsonl_replays_to_the_same_state(table: Run) -> None:
    table("pouyss", "roll", "--player", "A", "--bonus", "1", "--dice", "2,4")
    table("pouyss", "reward", "--amount", "2")
    table("table", "undo")
    events = parse_jsonl(log_of(table))
    state = fold(events)
    shown = table("table", "show", "--json").json()
    assert state.game.cagnotte == shown["cagnotte"] == 3
    assert [e.seq for e in events] == list(range(1, len(events) + 1))


def test_export_markdown_is_in_the_tables_language(run: Run) -> None:
    run("table", "new", "pouyss", "--name", "fr", "--players", "A,B", "--lang", "fr")
    run("pouyss", "session", "start")
    run("pouyss", "roll", "--player", "A", "--dice", "5")
    md = run("table", "export", "--format", "md", "--lang", "en").out
    assert md.startswith("# fr")
    assert "Victoire" in md
    assert "Joueurs" in md or "joueurs" in md


BAD_INPUTS = [
    # (argv, exit code, words the message must contain)
    (["pouyss", "roll", "--player", "A", "--bonus", "-1"], 2, ["-1", "P-M1"]),
    (["pouyss", "roll", "--player", "A", "--malus", "x"], 2, ["'x'"]),
    (["pouyss", "roll", "--player", "A", "--malus", "150"], 2, ["151", "maximum"]),
    (["pouyss", "roll", "--player", "A", "--dice", "7"], 2, ["7", "d6"]),
    (["pouyss", "roll", "--player", "A", "--dice", "1,7"], 2, ["d6: 1 face needed, 2 typed in"]),
    (["pouyss", "roll", "--player", "A", "--dice", "1,2"], 2, ["d6: 1 face needed, 2 typed in"]),
    (["pouyss", "roll", "--player", "A", "--dice", "one"], 2, ["face one (the 1st)"]),
    (["pouyss", "roll", "--player", "Zed"], 2, ["Zed"]),
    (["pouyss", "roll", "--player", "A", "--table", "nope"], 2, ["nope"]),
    (["pouyss", "roll", "--player", "A", "--bonus", "5"], 3, ["5", "4", "P-M5"]),
    (["pouyss", "opposed", "--active", "A", "--passive", "Q"], 2, ["Q"]),
    (["pouyss", "reward", "--amount", "3"], 2, ["3"]),
    (["pouyss", "session", "start"], 3, ["already"]),
    (["table", "undo", "--seq", "99"], 2, ["99"]),
    (["table", "new", "pouyss", "--name", "club", "--players", "A"], 3, ["club"]),
    (["table", "options", "--set", "bonus_cap=lots"], 2, ["bonus_cap", "lots"]),
]


@pytest.mark.parametrize(
    ("argv", "code", "words"), BAD_INPUTS, ids=[" ".join(a[:4]) for a, _, _ in BAD_INPUTS]
)
def test_bad_input_is_refused_and_changes_nothing(
    table: Run, argv: list[str], code: int, words: list[str]
) -> None:
    before = log_of(table)
    result = table(*argv)
    assert result.code == code, result.err
    for word in words:
        assert word in result.err, (word, result.err)
    assert log_of(table) == before


def test_bonus_with_an_empty_cagnotte_is_refused(run: Run) -> None:
    run("table", "new", "pouyss", "--name", "empty", "--players", "A")
    run("pouyss", "session", "start", "--cagnotte", "0")
    before = log_of(run)
    result = run("pouyss", "roll", "--player", "A", "--bonus", "1", "--json")
    assert result.code == 3
    assert json.loads(result.err)["error"] == "RuleError"
    assert log_of(run) == before


def test_undo_of_nothing_is_refused(run: Run) -> None:
    run("table", "new", "pouyss", "--name", "quiet", "--players", "A")
    before = log_of(run)
    result = run("table", "undo")
    assert result.code == 3
    assert "nothing to undo" in result.err
    assert log_of(run) == before


def test_no_table_yet(run: Run) -> None:
    result = run("table", "show")
    assert result.code == 2
    assert "table new" in result.err


def test_table_last_used_is_the_default(run: Run) -> None:
    run("table", "new", "pouyss", "--name", "one", "--players", "A")
    run("table", "new", "pouyss", "--name", "two", "--players", "B")
    assert run("table", "show", "--json").json()["name"] == "two"
    run("table", "show", "--table", "one")  # reading does not change the default
    assert run("table", "show", "--json").json()["name"] == "two"
    assert run("pouyss", "roll", "--player", "Zed", "--table", "one").code == 2  # refused
    assert run("table", "show", "--json").json()["name"] == "two"
    assert run("pouyss", "session", "start", "--table", "one").code == 0
    assert run("table", "show", "--json").json()["name"] == "one"
    names = [t["name"] for t in run("table", "list", "--json").json()]
    assert names == ["one", "two"]


def test_house_rule_bonus_cap(run: Run) -> None:
    run(
        "table",
        "new",
        "pouyss",
        "--name",
        "capped",
        "--players",
        "A,B,C",
        "--option",
        "bonus_cap=1",
    )
    run("pouyss", "session", "start")
    result = run("pouyss", "roll", "--player", "A", "--bonus", "2")
    assert result.code == 3
    assert "P-A6" in result.err
    options = run("table", "options", "--json").json()["options"]
    assert options["bonus_cap"] == 1


def test_session_carry_over(table: Run) -> None:
    table("pouyss", "roll", "--player", "A", "--malus", "3", "--dice", "1,2,3,4")  # 4 -> 7
    table("pouyss", "session", "end")
    doc = table("pouyss", "session", "start", "--carry-over", "--json").json()
    assert doc["cagnotte"] == 7
    assert doc["carried_over"] is True
    table("pouyss", "session", "end")
    assert table("pouyss", "session", "start", "--json").json()["cagnotte"] == 4


def test_character_sheet(table: Run) -> None:
    result = table(
        "pouyss",
        "character",
        "set",
        "--player",
        "A",
        "--advantage",
        "knows Chelsea",
        "--disadvantage",
        "tired",
        "--json",
    )
    assert result.code == 0, result.err
    assert result.json()["characters"]["A"] == {
        "advantages": ["knows Chelsea"],
        "disadvantages": ["tired"],
    }


def test_penalty_clamps_and_warns(run: Run) -> None:
    run("table", "new", "pouyss", "--name", "p", "--players", "A")
    run("pouyss", "session", "start")
    doc = run("pouyss", "penalty", "--amount", "2", "--json").json()
    assert doc["cagnotte"]["after"] == 0
    assert any("it stops at 0" in w for w in doc["warnings"])


def test_demo_runs_and_prints_the_log(run: Run) -> None:
    result = run("demo", "--name", "demo-test")
    assert result.code == 0, result.err
    assert "$ tablee table log" in result.out
    assert "(undone)" in result.out


def test_python_dash_m_entry_point() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "tablee", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert done.stdout.startswith("tablee ")


def test_import_replays_an_export_as_a_new_table(table: Run, tmp_path: Path) -> None:
    table("pouyss", "roll", "--player", "A", "--bonus", "1", "--dice", "2,4")
    table("pouyss", "roll", "--player", "B", "--malus", "1", "--dice", "2,4")
    table("table", "undo")
    path = tmp_path / "club.jsonl"
    path.write_text(log_of(table), encoding="utf-8")
    result = table("table", "import", str(path), "--name", "copy", "--json")
    assert result.code == 0, result.err
    original = table("table", "show", "--table", "club", "--json").json()
    copy = table("table", "show", "--table", "copy", "--json").json()
    assert copy["cagnotte"] == original["cagnotte"] == 3
    assert copy["last_seq"] == original["last_seq"]
    exported = [json.loads(line) for line in unchained(log_of(table))]
    assert [e["payload"] for e in exported][1:] == [
        json.loads(line)["payload"] for line in unchained(path.read_text())
    ][1:]


TAMPERING = [
    # (field, new value, words the refusal must contain)
    ("bonus", 50, ["51", "P-M1"]),  # faces no longer match the counts
    ("value", 6, ["value", "rules give"]),  # a result its faces do not give
    ("player", "Mallory", ["Mallory"]),  # not a player at this table
    ("malus", -10, ["-10", "P-M1"]),  # a negative count
]


@pytest.mark.parametrize(("field", "value", "words"), TAMPERING, ids=[t[0] for t in TAMPERING])
def test_import_of_a_tampered_log_is_refused_and_stores_nothing(
    table: Run, tmp_path: Path, field: str, value: object, words: list[str]
) -> None:
    table("pouyss", "roll", "--player", "A", "--bonus", "1", "--dice", "2,4")
    lines = unchained(log_of(table))
    roll = json.loads(lines[-1])
    roll["payload"][field] = value
    lines[-1] = json.dumps(roll)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tables_before = table("table", "list", "--json").out
    result = table("table", "import", str(path), "--name", "bad")
    assert result.code == 2
    for word in words:
        assert word in result.err
    assert table("table", "list", "--json").out == tables_before


def test_import_of_a_malformed_file_names_the_line(table: Run, tmp_path: Path) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_text(log_of(table).splitlines()[0] + "\nnot json\n", encoding="utf-8")
    result = table("table", "import", str(path))
    assert result.code == 2
    assert "line 2" in result.err
