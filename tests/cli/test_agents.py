"""``tablee agents ...`` and ``tablee odds agents ...`` at the command line.

Source: issue 5 points 5, 7, 8 and 9; seed 002; RULINGS.md section 2.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from tests.cli.conftest import Run


def _log(run: Run) -> list[dict]:
    result = run("table", "log", "--json")
    assert result.code == 0, result.err
    doc = result.json()
    return doc["events"] if isinstance(doc, dict) else doc


@pytest.fixture
def team(run: Run) -> Run:
    assert run("table", "new", "agents", "--name", "ops", "--players", "Ana,Bo").code == 0
    for name, m, s, i in (("Vega", 7, 5, 3), ("Orso", 3, 7, 5)):
        result = run(
            "agents",
            "agent",
            "--name",
            name,
            "--muscles",
            str(m),
            "--sexe",
            str(s),
            "--intelligence",
            str(i),
        )
        assert result.code == 0, result.err
    return run


def test_an_action_reports_die_modifier_result_outcome_score_and_reserves(team: Run) -> None:
    assert (
        team(
            "agents",
            "challenge",
            "--type",
            "sexe",
            "--agents",
            "Vega,Orso",
            "--opposition",
            "the duke:3",
        ).code
        == 0
    )
    result = team("agents", "act", "--modifier", "laugh", "--dice", "6", "--json", "--odds")
    assert result.code == 0, result.err
    doc = result.json()
    assert doc["agent"] == "Vega"  # the agent due (G-A20)
    assert (doc["die"], doc["face"], doc["modifier"], doc["result"]) == ("d6", 6, 1, 7)
    assert doc["outcome"] == "critical"
    assert doc["score"] == 1
    assert doc["reserves"] == {"muscles": 7, "sexe": 5, "intelligence": 3}
    assert doc["odds"] == {"critical": "1/6", "success": "1/2", "failure": "1/3"}
    failed = team("agents", "act", "--dice", "3", "--json").json()
    assert (failed["agent"], failed["outcome"], failed["reserve"]) == ("Orso", "failure", 6)
    won = team("agents", "act", "--dice", "4", "--json").json()
    assert won["ended"] == "won"
    text = team("agents", "winner", "--challenge", "1")
    assert text.code == 0 and "Orso" in text.out  # spent most (G-M6)


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (
            (
                "agents",
                "agent",
                "--name",
                "X",
                "--muscles",
                "7",
                "--sexe",
                "7",
                "--intelligence",
                "3",
            ),
            2,
        ),
        (("agents", "act", "--modifier", "escalate", "--modifier", "deescalate", "--dice", "4"), 2),
        (("agents", "act", "--modifier", "laugh", "--dice", "4"), 2),
        (("agents", "act", "--dice", "9"), 2),
        (("agents", "act", "--agent", "Orso", "--dice", "4"), 3),
        (("agents", "concede", "--agent", "Nobody"), 2),
        (("agents", "challenge", "--type", "luck", "--agents", "Vega", "--opposition", "x:1"), 2),
        (("agents", "challenge", "--type", "muscles", "--agents", "Vega", "--opposition", "x"), 2),
    ],
)
def test_bad_input_is_refused_and_stores_nothing(
    team: Run, argv: tuple[str, ...], code: int
) -> None:
    assert (
        team(
            "agents",
            "challenge",
            "--type",
            "muscles",
            "--agents",
            "Vega,Orso",
            "--opposition",
            "raiders:4",
        ).code
        == 0
    )
    before = _log(team)
    result = team(*argv)
    assert result.code == code, (result.out, result.err)
    assert result.err.strip()
    assert _log(team) == before


def test_acting_at_reserve_zero_is_a_rule_refusal(team: Run) -> None:
    assert (
        team(
            "agents",
            "challenge",
            "--type",
            "intelligence",
            "--agents",
            "Vega",
            "--opposition",
            "maze:9",
        ).code
        == 0
    )
    for _ in range(3):
        assert team("agents", "act", "--dice", "1").code == 0
    before = _log(team)
    result = team("agents", "act", "--challenge", "1", "--agent", "Vega", "--dice", "6")
    assert result.code == 3
    assert _log(team) == before


def test_odds_action_and_challenge_as_exact_fractions(run: Run) -> None:
    doc = run("odds", "agents", "action", "--modifier", "0", "--json").json()
    assert doc["distribution"] == {"critical": "0/1", "success": "1/2", "failure": "1/2"}
    doc = run("odds", "agents", "action", "--modifier", "-1", "--json").json()
    assert doc["distribution"]["failure"] == "2/3"
    doc = run(
        "odds",
        "agents",
        "challenge",
        "--reserves",
        "1",
        "--modifiers",
        "0",
        "--score",
        "1",
        "--json",
    ).json()
    assert doc["win"] == "1/2"
    doc = run(
        "odds",
        "agents",
        "challenge",
        "--reserves",
        "7,5,3",
        "--modifiers",
        "0,1,0",
        "--score",
        "6",
        "--json",
    ).json()
    win = Fraction(doc["win"])
    assert 0 < win < 1 and Fraction(doc["lose"]) == 1 - win
    text = run(
        "odds", "agents", "challenge", "--reserves", "7,5,3", "--modifiers=0,1,0", "--score", "6"
    )
    assert text.code == 0 and doc["win"] in text.out
    assert run("odds", "agents", "challenge", "--reserves", "7,x", "--score", "1").code == 2


def test_tables_command_checks_files(run: Run, tmp_path: Path) -> None:
    assert run("agents", "tables", "--starter", "fr", "--list").code == 0
    bad = tmp_path / "objectives.txt"
    bad.write_text("@die d6\n1-3 | one\n5-6 | two\n", encoding="utf-8")
    result = run("agents", "tables", str(bad))
    assert result.code == 2
    assert "line" in result.err


def _blank_script(tmp_path: Path, count: int, name: str = "answers.txt") -> Path:
    path = tmp_path / name
    path.write_text("\n" * count, encoding="utf-8")
    return path


def test_play_walks_a_whole_adventure_and_resumes(team: Run, tmp_path: Path) -> None:
    short = _blank_script(tmp_path, 12, "short.txt")
    first = team("agents", "play", "--script", str(short), "--seed", "7")
    assert first.code == 0, first.err
    assert "Paused" in first.out
    events = len(_log(team))
    assert events > 3
    rest = _blank_script(tmp_path, 5000)
    second = team("agents", "play", "--script", str(rest), "--seed", "8")
    assert second.code == 0, second.err
    assert "The adventure is over" in second.out
    assert len(_log(team)) > events
    summary = team("agents", "show", "--json").json()
    assert summary["quest"]["status"] in ("won", "failed")
    again = team("agents", "play", "--script", str(short), "--json")
    assert again.json()["finished"] is True
    assert team("table", "show").code == 0


def test_play_reads_a_json_script_and_creates_agents(run: Run, tmp_path: Path) -> None:
    assert run("table", "new", "agents", "--name", "solo", "--players", "Ana").code == 0
    script = tmp_path / "answers.json"
    answers = ["Vega", "Bureau 9", "a lighter", "7,7,3", "7,5,3", "", "", "3", "", ""]
    script.write_text(json.dumps(answers), encoding="utf-8")
    result = run("agents", "play", "--script", str(script), "--seed", "1")
    assert result.code == 0, result.err
    assert "G-M1" in result.out  # the bad permutation was refused, then asked again
    shown = run("agents", "show", "--json").json()
    assert list(shown["agents"]) == ["Vega"]
    assert shown["quest"]["progress"] == 0
    kinds = [e["kind"] for e in _log(run)]
    assert "agents.quest_drawn" in kinds
    assert "agents.scene_started" in kinds


def test_agents_help_lists_its_commands(run: Run) -> None:
    result = run("agents", "--help")
    assert result.code == 0
    for command in ("agent", "challenge", "act", "concede", "abandon", "fail", "winner", "play"):
        assert command in result.out


def test_play_refuses_a_malformed_table_folder_and_stores_nothing(
    team: Run, tmp_path: Path
) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    for kind in ("objectives", "environments", "creatures", "boons"):
        (folder / f"{kind}.txt").write_text("@die d6\n1-6 | fine\n", encoding="utf-8")
    (folder / "creatures.txt").write_text("@die d6\n1-2 | a\n2-6 | b\n", encoding="utf-8")
    before = _log(team)
    script = tmp_path / "answers.txt"
    script.write_text(f"{folder}\n", encoding="utf-8")
    result = team("agents", "play", "--script", str(script))
    assert result.code == 0
    assert "creatures.txt" in result.out and "line 3" in result.out
    assert _log(team) == before
    (folder / "creatures.txt").write_text("@die d6\n1-2 | a\n3-6 | b\n", encoding="utf-8")
    script.write_text(f"{folder}\n\n\n", encoding="utf-8")
    result = team("agents", "play", "--script", str(script), "--dice", "4,1")
    assert result.code == 0, result.err
    kinds = [e["kind"] for e in _log(team)]
    assert kinds[-2:] == ["agents.quest_drawn", "agents.table_drawn"]


def test_the_generator_step_by_step(team: Run) -> None:
    assert team("agents", "scene").code == 3  # no quest yet
    assert team("agents", "quest", "--starter", "en", "--dice", "3").code == 0
    assert team("agents", "draw", "environments", "--seed", "1").code == 0
    assert team("agents", "generate", "--dice", "1,1,1,1").code == 3  # no scene yet
    assert team("agents", "scene").code == 0
    before = _log(team)
    assert team("agents", "generate", "--dice", "1,1,1").code == 2  # 4 d6 at index 0
    assert _log(team) == before
    doc = team("agents", "generate", "--agents", "Vega", "--dice", "1,1,1,1", "--json").json()
    assert doc["events"][0]["score"] == 0  # floor(1/2) * 1 at index 0: won at once (G-A2)
    doc = team("agents", "consequence", "--challenge", "1", "--json").json()
    assert doc["events"][0]["records"]["progress"] == 1
    assert team("agents", "consequence", "--challenge", "1").code == 3  # already applied
    assert team("agents", "contest", "start").code == 3  # the quest is not won
    shown = team("agents", "show", "--json").json()
    assert shown["quest"]["objective"]  # revealed at index 1
    assert team("agents", "give-up").code == 0
    assert team("agents", "show", "--json").json()["quest"]["status"] == "abandoned"
