"""``tablee ybs ...`` and ``tablee odds ybs test`` end to end, on a fresh SQLite file.

Bad input is refused with a clear message and the log keeps its length.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import Run, create_ybs_club, log_length


@pytest.fixture
def ybs(run: Run) -> Run:
    """A YBS table 'club' for A and B, with Aki (A), Bo (B) and a GM character, in session."""
    create_ybs_club(run)
    assert run("ybs", "session", "start").code == 0
    return run


def test_a_test_in_json_shows_dice_result_and_token_moves(ybs: Run) -> None:
    doc = ybs(
        "ybs",
        "test",
        "Aki",
        "--trait",
        "kiyousa",
        "--assist",
        "Bo",
        "--force",
        "2",
        "--faces",
        "2",
        "--json",
    ).json()
    assert (doc["natural"], doc["modified"], doc["success"], doc["critical"]) == (2, 5, True, False)
    assert doc["faces"] == [2]
    assert [(m["from"], m["to"], m["count"], m["reason"]) for m in doc["moves"]] == [
        ("B", "A", 1, "assist"),
        ("A", "gm", 2, "force"),
    ]
    assert doc["tokens"] == {"gm": 98, "A": 1, "B": 1}


def test_stubborn_then_critical(ybs: Run) -> None:
    assert ybs("ybs", "test", "Aki", "--trait", "chisei", "--faces", "1").code == 0
    doc = ybs("ybs", "stubborn", "--faces", "6", "--json").json()
    assert doc["faces"] == [1, 6] and doc["success"] is True and doc["modified"] == 6
    doc = ybs("ybs", "critical", "--json").json()
    assert doc["critical"] is True and doc["critical_success"] is True
    assert doc["tokens"]["A"] == 0
    result = ybs("ybs", "critical")
    assert result.code == 3 and "over" in result.err


def test_the_gm_grants_a_critical_failure(ybs: Run) -> None:
    ybs("ybs", "test", "Bo", "--trait", "yuuben", "--faces", "1")
    doc = ybs("ybs", "critical-failure", "--json").json()
    assert doc["critical"] is True and doc["moves"][0] == {
        "from": "gm",
        "to": "B",
        "count": 1,
        "reason": "critical_failure",
    }


def test_seeded_and_fair_tests_roll_one_die(ybs: Run) -> None:
    first = ybs("ybs", "test", "Aki", "--trait", "chisei", "--seed", "7", "--json").json()
    again = ybs("ybs", "test", "Aki", "--trait", "chisei", "--seed", "7", "--json").json()
    assert first["faces"] == again["faces"] and 1 <= first["natural"] <= 6
    assert ybs("ybs", "test", "Aki", "--trait", "chisei").code == 0


@pytest.mark.parametrize(
    ("args", "code", "text"),
    [
        (("ybs", "test", "Aki", "--trait", "chisei", "--force", "4", "--faces", "3"), 2, "0 to 3"),
        (
            ("ybs", "test", "Aki", "--trait", "chisei", "--force", "3", "--faces", "3"),
            3,
            "cannot give 3",
        ),
        (
            ("ybs", "test", "Aki", "--trait", "chisei", "--faces", "3,4"),
            2,
            "d6: 1 face needed, 2 typed in",
        ),
        (("ybs", "test", "Aki", "--trait", "force", "--faces", "3"), 2, "unknown trait"),
        (("ybs", "shichi-fukujin", "A"), 3, "needs 7"),
        (
            ("ybs", "character", "create", "Cy", "--chisei", "2", "--nintai", "2", "--yuuben", "2"),
            2,
            "at most two",
        ),
        (("ybs", "character", "create", "Cy", "--chisei", "3"), 2, "chisei: 3 is out of range"),
        (("ybs", "stubborn", "--faces", "3"), 3, "no test in progress"),
        (("ybs", "transfer", "Bo", "--lower", "yuuben", "--raise", "yuuben"), 2, "two different"),
    ],
)
def test_bad_input_is_refused_and_nothing_is_stored(ybs: Run, args, code, text) -> None:
    before = log_length(ybs)
    result = ybs(*args)
    assert result.code == code, result.err
    assert text in result.err
    assert log_length(ybs) == before


def test_bad_input_in_json_is_a_json_error(ybs: Run) -> None:
    result = ybs(
        "ybs", "test", "Aki", "--trait", "chisei", "--force", "9", "--faces", "3", "--json"
    )
    assert result.code == 2 and json.loads(result.err)["error"] == "InputError"


def test_a_fight_round_from_the_command_line(ybs: Run) -> None:
    assert (
        ybs(
            "ybs",
            "test",
            "Thug",
            "--trait",
            "choushi",
            "--purpose",
            "attack",
            "--target",
            "Aki",
            "--faces",
            "5",
        ).code
        == 0
    )
    assert (
        ybs(
            "ybs",
            "test",
            "Aki",
            "--trait",
            "choushi",
            "--purpose",
            "defend",
            "--against",
            "Thug",
            "--faces",
            "4",
        ).code
        == 0
    )
    assert (
        ybs(
            "ybs",
            "test",
            "Bo",
            "--trait",
            "choushi",
            "--purpose",
            "attack",
            "--target",
            "Thug",
            "--damage",
            "kega",
            "--faces",
            "6",
        ).code
        == 0
    )
    doc = ybs("ybs", "fight", "resolve", "--json").json()
    assert [(h["attacker"], h["boxes"]) for h in doc["hits"]] == [("Thug", 0), ("Bo", 1)]
    assert doc["boxes"]["Thug"]["kega"] == 1
    assert ybs("ybs", "fight", "retreat", "Bo").code == 0
    assert ybs("ybs", "fight", "end").code == 0


def test_damage_rest_and_evolution(ybs: Run) -> None:
    doc = ybs("ybs", "damage", "Bo", "--uchimi", "5", "--json").json()
    assert doc["boxes"] == {
        "hit_points": 4,
        "uchimi": 3,
        "kega": 1,
        "prostrate": True,
        "emergency": False,
    }
    doc = ybs("ybs", "rest", "Bo", "--minutes", "90", "--json").json()
    assert doc["healed"] == 3 and doc["boxes"]["uchimi"] == 0
    for _ in range(5):
        assert ybs("ybs", "star", "Bo", "--trait", "chisei").code == 0
    sheet = ybs("ybs", "character", "show", "Bo", "--json").json()["characters"]["Bo"]
    assert sheet["traits"]["chisei"] == 2 and sheet["stars"]["chisei"] == 0
    result = ybs("ybs", "trauma", "Bo", "--trait", "chisei")
    assert result.code == 3


def test_import_characters_from_toml(ybs: Run, tmp_path: Path) -> None:
    sheet = tmp_path / "crew.toml"
    sheet.write_text(
        '[[characters]]\nname = "Rin"\nplayer = "B"\nattributes = ["biker"]\n'
        "[characters.traits]\nchoushi = 1\nkiyousa = 1\nchisei = 0\nyuuben = 0\n"
        "chikaku = -1\nnintai = 0\n",
        encoding="utf-8",
    )
    doc = ybs("ybs", "character", "import", str(sheet), "--json").json()
    assert doc["characters"][0]["name"] == "Rin" and doc["characters"][0]["hit_points"] == 5
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"name": "Zed", "traits": {"choushi": 5, "kiyousa": 0, "chisei": 0, "yuuben": 0,'
        ' "chikaku": 0, "nintai": 0}}',
        encoding="utf-8",
    )
    before = log_length(ybs)
    result = ybs("ybs", "character", "import", str(bad))
    assert result.code == 2 and "Choushi 5 must be a whole number" in result.err
    assert log_length(ybs) == before


def test_odds_of_a_test_in_exact_fractions(run: Run) -> None:
    doc = run("odds", "ybs", "test", "--trait", "0", "--tokens", "2", "--json").json()
    assert (doc["success"], doc["critical"]) == ("7/8", "1/4")
    doc = run(
        "odds", "ybs", "test", "--trait", "1", "--force", "1", "--stubborn", "never", "--json"
    ).json()
    assert doc["success"] == "5/6"
    assert run("odds", "ybs", "test", "--trait", "0", "--force", "5").code == 2
    assert "success" in run("odds", "ybs", "test", "--trait", "-1").out


def test_text_output_and_tokens(ybs: Run) -> None:
    out = ybs("ybs", "invoke", "Aki", "--attribute", "surfer").out
    assert "surfer" in out and "A 3" in out
    assert "A 3, B 2" in ybs("ybs", "tokens").out
    assert "Aki" in ybs("ybs", "character", "show").out
    assert ybs("ybs", "session", "end", "--json").json()["tokens"] == {"gm": 100, "A": 0, "B": 0}


def test_odds_shown_before_a_test_and_more_commands(ybs: Run) -> None:
    out = ybs("ybs", "test", "Aki", "--trait", "kiyousa", "--faces", "4", "--odds").out
    assert "Odds before rolling:" in out and "96.3%" in out  # +1, 2 rerolls: 1 - (1/3)**3
    assert ybs("ybs", "damage", "Aki", "--kega", "1", "--note", "cut brow").code == 0
    sheet = ybs("ybs", "character", "show", "Aki", "--json").json()["characters"]["Aki"]
    assert sheet["kega_notes"] == ["cut brow"]
    doc = ybs("ybs", "heal", "Aki", "--json").json()
    assert doc["boxes"]["kega"] == 0
    doc = ybs("ybs", "attributes", "Aki", "--add", "biker", "--remove", "SURFER", "--json").json()
    sheet = ybs("ybs", "character", "show", "Aki", "--json").json()["characters"]["Aki"]
    assert sheet["attributes"] == ["biker"] and doc["add"] == ["biker"]
    doc = ybs("ybs", "transfer", "Aki", "--lower", "choushi", "--raise", "nintai", "--json").json()
    assert doc["traits"]["choushi"] == 0 and doc["boxes"]["hit_points"] == 4
