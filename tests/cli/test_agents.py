"""``tablee agents ...`` and ``tablee odds agents ...`` at the command line.

Source: seed 002; docs/rules/agents.md.
"""

from __future__ import annotations

import io
import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from tablee.cli.main import main
from tests.cli.conftest import Result, Run


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
            "--organisation",
            "Bureau 9",
            "--signature",
            "a silver lighter",
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


class _Answers:
    """Standard input for ``play``: 'next' between scenes, else an empty answer (the
    default), until ``limit`` answers have been given (then the end of input)."""

    def __init__(self, out: io.StringIO, limit: int) -> None:
        self.out, self.limit, self.given = out, limit, 0

    def readline(self, size: int = -1) -> str:
        if self.given >= self.limit:
            return ""
        self.given += 1
        asked = self.out.getvalue().rsplit("\n", 1)[-1]
        return "next\n" if asked.startswith("Between scenes") else "\n"


def _play(monkeypatch: pytest.MonkeyPatch, *args: str, limit: int = 5000) -> Result:
    """``tablee agents play ARGS`` answering at the prompt as `_Answers` does."""
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", _Answers(out, limit))
    code = main(["agents", "play", *args], out, err)
    return Result(code, out.getvalue(), err.getvalue())


def test_play_walks_a_whole_adventure_and_resumes(
    team: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _play(monkeypatch, "--seed", "7", limit=12)
    assert first.code == 0, first.err
    assert "Paused" in first.out
    events = len(_log(team))
    assert events > 3
    second = _play(monkeypatch, "--seed", "8")
    assert second.code == 0, second.err
    assert "The adventure is over" in second.out
    assert len(_log(team)) > events
    summary = team("agents", "show", "--json").json()
    assert summary["quest"]["status"] in ("won", "failed")
    again = _play(monkeypatch, "--json", limit=0)
    assert json.loads(again.out)["finished"] is True
    assert team("table", "show").code == 0


def test_play_reads_a_json_script_and_creates_agents(run: Run, tmp_path: Path) -> None:
    assert run("table", "new", "agents", "--name", "solo", "--players", "Ana").code == 0
    script = tmp_path / "answers.json"
    answers = ["Vega", "Bureau 9", "a lighter", "7,7,3", "7,5,3", "", "", "3", "", "next"]
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
    script.write_text(f"\n{folder}\n", encoding="utf-8")  # the team is complete, then
    result = team("agents", "play", "--script", str(script))
    assert result.code == 0
    assert "creatures.txt" in result.out and "line 3" in result.out
    assert _log(team) == before
    (folder / "creatures.txt").write_text("@die d6\n1-2 | a\n3-6 | b\n", encoding="utf-8")
    script.write_text(f"\n{folder}\n\n\n", encoding="utf-8")
    result = team("agents", "play", "--script", str(script), "--dice", "4,1")
    assert result.code == 0, result.err
    kinds = [e["kind"] for e in _log(team)]
    assert kinds[-2:] == ["agents.quest_drawn", "agents.table_drawn"]


def test_the_generator_step_by_step(team: Run) -> None:
    assert team("agents", "scene").code == 3  # no quest yet
    assert team("agents", "quest", "--starter", "en", "--dice", "3").code == 0
    arrived = team("agents", "draw", "environments", "--seed", "1", "--json").json()
    arrival = arrived["events"][0]["payload"]["text"]
    assert team("agents", "generate", "--dice", "1,1,1,1").code == 3  # no scene yet
    assert team("agents", "scene").code == 0
    before = _log(team)
    assert team("agents", "generate", "--dice", "1,1,1").code == 2  # 4 d6 at index 0
    assert _log(team) == before
    # the first scene's environment is where the agents arrived: no new draw (G-X2)
    doc = team("agents", "generate", "--agents", "Vega", "--dice", "1,1,1,1", "--json").json()
    (event,) = doc["events"]
    generated = event["payload"]
    assert event["kind"] == "agents.challenge_generated"
    assert generated["kind"] in ("muscles", "sexe", "intelligence")  # the challenge's type
    assert (generated["number"], generated["source"]) == (1, "environment")
    assert generated["opposition"] == arrival
    assert generated["score"] == 0  # floor(1/2) * 1 at index 0: won at once (G-A2)
    doc = team("agents", "consequence", "--challenge", "1", "--json").json()
    assert doc["events"][0]["payload"]["records"]["progress"] == 1
    assert team("agents", "consequence", "--challenge", "1").code == 3  # already applied
    assert team("agents", "contest", "start").code == 3  # the quest is not won
    shown = team("agents", "show", "--json").json()
    assert shown["quest"]["objective"]  # revealed at index 1
    # later scenes draw their environment from its table (the environments, d12)
    assert team("agents", "scene").code == 0
    doc = team("agents", "generate", "--agents", "Vega", "--dice", "1,1,1,1,5", "--json").json()
    drawn, generated = doc["events"]
    assert (drawn["kind"], drawn["payload"]["table"], drawn["payload"]["face"]) == (
        "agents.table_drawn",
        "environments",
        5,
    )
    assert generated["payload"]["opposition"] == drawn["payload"]["text"]
    assert team("agents", "give-up").code == 0
    assert team("agents", "show", "--json").json()["quest"]["status"] == "abandoned"


def _script(tmp_path: Path, answers: list[str], name: str = "answers.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(answers), encoding="utf-8")
    return str(path)


def test_play_resumed_before_the_team_is_complete_asks_for_more_agents(
    run: Run, tmp_path: Path
) -> None:
    assert run("table", "new", "agents", "--name", "duo", "--players", "Ana,Bo").code == 0
    first = _script(tmp_path, ["Vega", "Bureau 9", "a lighter", "7,5,3"], "first.json")
    assert run("agents", "play", "--script", first).code == 0
    second = _script(tmp_path, ["Orso", "La Main", "a compass", "3,7,5", ""], "second.json")
    result = run("agents", "play", "--script", second)
    assert result.code == 0, result.err
    assert list(run("agents", "show", "--json").json()["agents"]) == ["Vega", "Orso"]
    assert "Generator tables" in result.out  # asked once the team is said complete


def test_play_offers_recovery_between_scenes_concessions_and_numbered_modifiers(
    team: Run, tmp_path: Path
) -> None:
    answers = [
        "",  # the team is complete
        "",  # the starter tables
        "1",  # the objective
        "1",  # where they arrive
        "Orso Intelligence",  # fail on purpose between scenes (G-M7): stays 5, the start
        "next",  # the scene begins
        "",  # everyone together
        "7,7",  # not 4 faces: refused, asked again
        "3,1,1,6",  # creatures, hostile, Muscles, score (3 + 0) x 2 = 6
        "1",  # the creature
        "Orso",  # Orso concedes before the first turn (G-M8)
        "I swing from the chandelier",
        "1,3",  # escalate + environment: +2
        "5",  # 5 + 2 = 7: a critical
    ]
    result = team("agents", "play", "--script", _script(tmp_path, answers))
    assert result.code == 0, result.err
    assert "'7,7' is not 4 faces of a d6" in result.out
    assert "from the creatures table (d12" in result.out
    events = _log(team)
    kinds = [e["kind"] for e in events]
    assert "agents.failed_on_purpose" in kinds
    assert kinds.index("agents.failed_on_purpose") < kinds.index("agents.scene_started")
    conceded = next(e for e in events if e["kind"] == "agents.conceded")
    assert conceded["payload"]["agent"] == "Orso"
    action = next(e for e in events if e["kind"] == "agents.action")["payload"]
    assert action["modifiers"] == ["escalate", "environment"]
    assert (action["modifier"], action["outcome"], action["score"]) == (2, "critical", 4)


def test_play_at_index_3_asks_three_dice_and_says_the_relation_is_hostile(
    team: Run, tmp_path: Path
) -> None:
    assert team("agents", "quest", "--starter", "en", "--dice", "1").code == 0
    for number, successes in ((1, 0), (2, 1), (3, 2)):  # scores 0, 1, 2 for one agent
        assert team("agents", "scene").code == 0
        drawn = ("agents", "generate", "--agents", "Vega", "--opposition", "the guards")
        assert team(*drawn, "--dice", "3,1,1,1").code == 0
        for _ in range(successes):
            assert team("agents", "act", "--challenge", str(number), "--dice", "6").code == 0
        if successes:
            assert team("agents", "winner", "--challenge", str(number)).code == 0
        assert team("agents", "consequence", "--challenge", str(number)).code == 0
    assert team("agents", "show", "--json").json()["quest"]["progress"] == 3
    # the boon the last consequence owes, the next scene, everyone together
    result = team("agents", "play", "--script", _script(tmp_path, ["", "next", ""]))
    assert result.code == 0, result.err
    assert "3 d6 for source, type and score; the relation is hostile at index 3" in result.out


def test_acting_in_an_unknown_challenge_names_it(team: Run) -> None:
    before = _log(team)
    result = team("agents", "act", "--challenge", "7", "--dice", "3")
    assert result.code == 2
    assert "no challenge 7" in result.err
    assert _log(team) == before


def test_a_drawn_challenge_without_a_name_is_opposed_by_its_tables_entry(team: Run) -> None:
    assert team("agents", "quest", "--starter", "fr", "--dice", "1").code == 0
    assert team("agents", "scene").code == 0
    args = ("agents", "generate", "--agents", "Vega", "--dice", "3,1,1,6,4", "--lang", "fr")
    drawn, generated = (e["payload"] for e in team(*args, "--json").json()["events"])
    assert (drawn["table"], drawn["face"]) == ("creatures", 4)  # 3: from creatures (G-N4)
    assert generated["source"] == "creatures" and generated["opposition"] == drawn["text"]
    acted = team("agents", "act", "--challenge", "1", "--dice", "6", "--json").json()
    assert acted["opposition"] == drawn["text"] != "creatures"  # not the source's id
    lines = [e["kind"] for e in _log(team)][-3:]
    assert lines == ["agents.table_drawn", "agents.challenge_generated", "agents.action"]


def test_play_keeps_the_rolled_objective_secret(team: Run, tmp_path: Path) -> None:
    result = team("agents", "play", "--seed", "5", "--script", _script(tmp_path, ["", "", ""]))
    assert result.code == 0, result.err
    drawn = next(e for e in _log(team) if e["kind"] == "agents.quest_drawn")["payload"]
    out = result.out
    assert "kept secret" in out
    assert f"rolled: {drawn['face']}\n" not in out.split("Where the agents arrive")[0]
    assert drawn["objective"] not in out


def test_play_asks_groups_again_on_a_bad_name_and_stores_a_split_scene_whole(
    team: Run, tmp_path: Path
) -> None:
    start = ["", "", "1", "1", "next"]  # team complete, starter tables, objective, arrival, scene
    split = ["Vega;Orso", "3,1,1,6", "1"]  # Vega's dice and opposition; Orso's never come
    result = team("agents", "play", "--script", _script(tmp_path, [*start, "Zed;Orso", *split]))
    assert result.code == 0, result.err
    assert "no agent named 'Zed'" in result.out
    assert result.out.count("Who takes part?") == 2  # the groups are asked again
    kinds = [e["kind"] for e in _log(team)]
    assert kinds[-1] == "agents.scene_started"  # nothing of the half-asked scene is stored
    again = team("agents", "play", "--script", _script(tmp_path, [*split, "5,1,5,6", "2"], "b"))
    assert again.code == 0, again.err
    drawn = [e["payload"] for e in _log(team) if e["kind"] == "agents.challenge_generated"]
    assert [d["agents"] for d in drawn] == [["Vega"], ["Orso"]]


def test_play_lets_challengers_ally_for_the_artefact_and_name_the_taker(
    team: Run, tmp_path: Path
) -> None:
    args = ("--name", "Lune", "--muscles", "5", "--sexe", "3", "--intelligence", "7")
    args += ("--organisation", "Bureau 9", "--signature", "a fan")
    assert team("agents", "agent", *args).code == 0
    assert team("agents", "quest", "--starter", "en", "--dice", "1").code == 0
    # index 0, 1, 2, 3 for Vega alone: scores 0, 1, 2 and, at index 3 (3 d6), 3
    for number, dice in ((1, "3,1,1,1"), (2, "3,1,1,1"), (3, "3,1,1,1"), (4, "3,1,1")):
        assert team("agents", "scene").code == 0
        drawn = ("agents", "generate", "--agents", "Vega", "--opposition", "the guards")
        assert team(*drawn, "--dice", dice).code == 0
        for _ in range(number - 1):
            assert team("agents", "act", "--challenge", str(number), "--dice", "6").code == 0
        if number > 1:
            assert team("agents", "winner", "--challenge", str(number)).code == 0
        assert team("agents", "consequence", "--challenge", str(number)).code == 0
    assert team("agents", "show", "--json").json()["quest"]["status"] == "won"
    bout = ["Orso", "", "Lune", ""]  # Orso challenges on Sexe (his best), Lune joins him
    turns = ["", "", "6"] * 5  # five successes against Vega's Sexe 5
    # the boon the last consequence owes; no concession; Lune takes it; nobody more
    answers = ["", *bout, "", *turns, "Lune", ""]
    result = team("agents", "play", "--script", _script(tmp_path, answers))
    assert result.code == 0, result.err
    events = _log(team)
    launched = next(e for e in events if e["kind"] == "agents.contest_challenge")["payload"]
    assert (launched["order"], launched["attribute"], launched["score"]) == (
        ["Orso", "Lune"],
        "sexe",
        5,
    )
    settled = next(e for e in events if e["kind"] == "agents.contest_settled")["payload"]
    assert settled["taker"] == settled["holder"] == "Lune"
    assert "Lune takes the artefact home" in result.out


def test_play_asks_again_after_a_refused_abandon_or_recovery_instead_of_looping(
    team: Run, tmp_path: Path
) -> None:
    import signal

    def hang(*_: object) -> None:
        raise TimeoutError("play kept repeating a refused step")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(30)
    try:
        answers = [
            "",  # the team is complete
            "",  # starter tables
            "1",  # objective
            "1",  # arrival
            "Vega Charme",  # not a reserve: refused, the scene question comes again
            "next",  # the scene begins
            "",  # everyone together
            "3,1,1,6",  # a Muscles challenge, score 6
            "1",  # the creature
            "",  # nobody concedes
            "abandon",  # refused before the first turn (G-M8): Vega is asked again
            "I charge",
        ]
        result = team("agents", "play", "--script", _script(tmp_path, answers))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert result.code == 0, result.err
    assert "'Charme' is not a challenge type" in result.out
    assert "may concede instead (rule G-M8)" in result.out
    assert result.out.count("Between scenes:") == 2
    assert result.out.count("Vega, declare your action") == 2


@pytest.mark.parametrize("score", ["+4", "\uff14", "4.0", "4_0", "9" * 20])
def test_an_opposition_score_is_a_minus_free_run_of_ascii_digits(team: Run, score: str) -> None:
    before = _log(team)
    argv = ("agents", "challenge", "--type", "muscles", "--agents", "Vega")
    result = team(*argv, "--opposition", f"ogre:{score}")
    assert result.code == 2 and "expected NAME:SCORE" in result.err, result.err
    assert _log(team) == before


def test_odds_reserves_refuse_a_plus_and_modifiers_take_it(run: Run) -> None:
    query = ("odds", "agents", "challenge", "--score", "6")
    refused = run(*query, "--reserves", "+7,5")
    assert refused.code == 2 and "--reserves" in refused.err
    assert run(*query, "--reserves", "7,,5").code == 2
    assert run(*query, "--reserves", "7,5", "--modifiers=+1,-1").code == 0
