"""A game master's audit of ``tablee agents play`` and its commands, at the command line.

Split groups whose first win ends the quest (G-X1), a resumed game (the draw it owed, the
answers typed for an agent not yet created, ``--seed``), conceding after a typing slip, the
first scene's environment (G-X2), a new agent's organisation and object (G-X3), the odds'
modifiers (G-N2), the messages, and stopping with Ctrl+C or an empty answer.

Source: seed 002; docs/rules/agents.md.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from tablee.cli.agents.play import run_seed
from tablee.cli.main import main
from tablee.dice import D6, SeededSource
from tablee.systems.agents.starters import starter_tables
from tests.cli.conftest import Result, Run

ID = ("--organisation", "Bureau 9", "--signature", "a silver lighter")


def _log(run: Run) -> list[dict]:
    doc = run("table", "log", "--json").json()
    return doc["events"] if isinstance(doc, dict) else doc


def _kinds(run: Run) -> list[str]:
    return [e["kind"] for e in _log(run)]


def _script(tmp_path: Path, answers: list[str], name: str = "answers.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(answers), encoding="utf-8")
    return str(path)


@pytest.fixture
def team(run: Run) -> Run:
    """Table 'ops' for Ana and Bo with Vega (7/5/3) and Orso (3/7/5)."""
    assert run("table", "new", "agents", "--name", "ops", "--players", "Ana,Bo").code == 0
    for name, m, s, i in (("Vega", "7", "5", "3"), ("Orso", "3", "7", "5")):
        args = ("--name", name, "--muscles", m, "--sexe", s, "--intelligence", i, *ID)
        result = run("agents", "agent", *args)
        assert result.code == 0, result.err
    return run


def _scene(run: Run, agents: str, dice: str, successes: int) -> int:
    """A scene whose challenge (a named opposition) ``agents`` win with 6s; its number."""
    assert run("agents", "scene").code == 0
    drawn = ("agents", "generate", "--agents", agents, "--opposition", "the guards")
    assert run(*drawn, "--dice", dice).code == 0
    number = max(e["payload"]["number"] for e in _log(run) if "number" in e["payload"])
    for _ in range(successes):
        assert run("agents", "act", "--challenge", str(number), "--dice", "6").code == 0
    return number


def _at_index_3(run: Run) -> None:
    """Index 0, 1 and 2 won (at once, then Vega, then Orso), every consequence applied."""
    assert run("agents", "quest", "--starter", "en", "--dice", "1").code == 0
    assert run("agents", "draw", "environments", "--dice", "1").code == 0
    for agent, successes in (("Vega", 0), ("Vega", 1), ("Orso", 2)):
        number = _scene(run, agent, "3,1,1,1", successes)  # hostile: score 0, 1, 2
        if successes:
            assert run("agents", "winner", "--challenge", str(number)).code == 0
        assert run("agents", "consequence", "--challenge", str(number)).code == 0
        assert run("agents", "draw", "boons", "--dice", "1").code == 0
    assert run("agents", "show", "--json").json()["quest"]["progress"] == 3


def test_play_names_the_second_groups_winner_before_the_first_win_ends_the_quest(
    team: Run, tmp_path: Path
) -> None:
    """G-X1: both groups' winners are named, and both wins count towards the favori."""
    _at_index_3(team)
    assert team("agents", "scene").code == 0
    for agent in ("Vega", "Orso"):  # a split scene at index 3: hostile, score 3 each
        drawn = ("agents", "generate", "--agents", agent, "--opposition", "the guards")
        assert team(*drawn, "--dice", "3,1,1").code == 0
    for number in (4, 5):
        for _ in range(3):
            assert team("agents", "act", "--challenge", str(number), "--dice", "6").code == 0
    # winner 4, winner 5, the boon, the favori among the tied, nobody challenges
    answers = ["", "", "", "Orso", ""]
    result = team("agents", "play", "--script", _script(tmp_path, answers))
    assert result.code == 0, result.err
    log = _log(team)
    order = [(e["kind"], e["payload"].get("challenge")) for e in log[-7:]]
    assert order[:4] == [
        ("agents.winner_named", 4),
        ("agents.winner_named", 5),
        ("agents.consequence_applied", 4),
        ("agents.table_drawn", None),
    ]
    late = next(
        e["payload"] for e in log if e["payload"].get("challenge") == 5 and "late" in e["payload"]
    )
    assert late["late"] is True
    assert team("agents", "show", "--json").json()["quest"]["wins"] == {"Vega": 2, "Orso": 2}
    assert "Who is the favori among Vega, Orso?" in result.out
    assert "Orso takes the artefact home" in result.out


def test_a_resumed_play_draws_where_the_agents_arrive_first(team: Run, tmp_path: Path) -> None:
    first = team("agents", "play", "--script", _script(tmp_path, ["", "", "1"], "a.json"))
    assert first.code == 0, first.err
    assert _kinds(team)[-1] == "agents.quest_drawn"  # paused before the arrival's draw
    again = team("agents", "play", "--script", _script(tmp_path, ["4"], "b.json"))
    assert again.code == 0, again.err
    assert again.out.startswith("Where the agents arrive, d12")
    drawn = _log(team)[-1]["payload"]
    assert (drawn["table"], drawn["face"]) == ("environments", 4)


def test_a_resumed_play_draws_the_boon_a_consequence_owes(team: Run, tmp_path: Path) -> None:
    assert team("agents", "quest", "--starter", "en", "--dice", "1").code == 0
    assert team("agents", "draw", "environments", "--dice", "1").code == 0
    _scene(team, "Vega", "3,1,1,1", 0)  # hostile, won at once: something helps
    assert team("agents", "consequence", "--challenge", "1").code == 0
    result = team("agents", "play", "--script", _script(tmp_path, ["3"]))
    assert result.code == 0, result.err
    assert result.out.startswith("What helps the quest, d")
    drawn = _log(team)[-1]["payload"]
    assert (drawn["table"], drawn["face"]) == ("boons", 3)


def test_play_keeps_the_answers_typed_for_an_agent_across_a_pause(run: Run, tmp_path: Path) -> None:
    assert run("table", "new", "agents", "--name", "solo", "--players", "Ana").code == 0
    first = run("agents", "play", "--script", _script(tmp_path, ["Vega", "Bureau 9"], "a.json"))
    assert first.code == 0 and "Paused" in first.out
    second = _script(tmp_path, ["", "a silver lighter", "7,5,3", ""], "b.json")
    result = run("agents", "play", "--script", second)
    assert result.code == 0, result.err
    assert "Kept from before the pause: Vega, Bureau 9" in result.out
    assert "a new agent needs a signature object" in result.out  # empty: asked again
    assert result.out.count("Agent's name") == 1  # asked once Vega exists, not before
    vega = run("agents", "show", "--json").json()["agents"]["Vega"]
    assert (vega["organisation"], vega["signature"]) == ("Bureau 9", "a silver lighter")
    third = run("agents", "play", "--script", _script(tmp_path, ["Vega"], "c.json"))
    assert "already exists" in third.out and "Kept from" not in third.out


def test_a_resumed_seeded_play_rolls_from_the_seed_and_the_logs_length(
    team: Run, tmp_path: Path
) -> None:
    """The same seed on the same log rolls the same dice; later in the log, other dice."""
    tables = starter_tables("en")
    start = len(_log(team))  # the table and two agents
    answers = ["", "", "", ""]  # team complete, starter tables, objective, arrival rolled
    assert team("agents", "play", "--seed", "7", "--script", _script(tmp_path, answers)).code == 0
    quest, arrival = (e["payload"] for e in _log(team)[-2:])
    dice = SeededSource(run_seed(7, start))
    assert quest["face"] == dice.roll(tables.objectives.die, 1)[0]
    assert arrival["face"] == dice.roll(tables.environments.die, 1)[0]
    resumed_at = len(_log(team))
    # the next scene, everyone together, its dice rolled, the opposition's too if asked
    resumed = _script(tmp_path, ["next", "", "", ""], "b.json")
    assert team("agents", "play", "--seed", "7", "--script", resumed).code == 0
    generated = next(e["payload"] for e in _log(team) if e["kind"] == "agents.challenge_generated")
    assert list(generated["faces"][:4]) == list(SeededSource(run_seed(7, resumed_at)).roll(D6, 4))
    assert run_seed(7, start) != run_seed(7, resumed_at) != 7
    assert SeededSource(run_seed(7, resumed_at)).roll(D6, 4) != SeededSource(
        run_seed(7, start)
    ).roll(D6, 4)


def test_a_mistyped_name_at_who_concedes_is_asked_again(team: Run, tmp_path: Path) -> None:
    answers = [
        "",  # the team is complete
        "",  # starter tables
        "1",  # objective
        "1",  # arrival
        "next",  # the scene begins
        "",  # everyone together
        "3,1,1,6",  # creatures, hostile, Muscles, score 6
        "1",  # the creature
        "Orso, Vgea",  # a slip: nobody concedes yet, asked again
        "Orso, Vega",  # both concede
    ]
    result = team("agents", "play", "--script", _script(tmp_path, answers))
    assert result.code == 0, result.err
    assert "'Vgea' cannot concede here: name one of Vega, Orso, or nobody" in result.out
    assert result.out.count("who concedes") == 2
    conceded = [e["payload"]["agent"] for e in _log(team) if e["kind"] == "agents.conceded"]
    assert conceded == ["Orso", "Vega"]


def test_the_first_scenes_environment_is_where_the_agents_arrived(
    team: Run, tmp_path: Path
) -> None:
    """G-X2: no new environment is drawn for an environment source in the first scene."""
    answers = ["", "", "1", "4", "next", "", "1,1,1,1"]  # source 1: the environment, score 0
    result = team("agents", "play", "--script", _script(tmp_path, answers))
    assert result.code == 0, result.err
    log = _log(team)
    arrival = next(e["payload"]["text"] for e in log if e["kind"] == "agents.table_drawn")
    generated = next(e["payload"] for e in log if e["kind"] == "agents.challenge_generated")
    assert generated["opposition"] == arrival
    assert [e["kind"] for e in log].count("agents.table_drawn") == 1
    assert f"The environment where the agents arrived opposes them: {arrival}" in result.out
    assert "Who or what opposes them" not in result.out


def test_a_new_agent_needs_an_organisation_and_a_signature_object(run: Run) -> None:
    """G-X3: refused at the command line (exit 2), nothing stored."""
    assert run("table", "new", "agents", "--name", "ops", "--players", "Ana").code == 0
    base = ("agents", "agent", "--name", "Vega")
    missing = run(*base)
    assert missing.code == 2 and "--organisation" in missing.err and "--signature" in missing.err
    blank = run(*base, "--organisation", " ", "--signature", "a pen")
    assert blank.code == 2 and "organisation is required" in blank.err
    assert len(_log(run)) == 1
    assert run(*base, *ID).code == 0


def test_the_odds_of_an_action_refuse_a_modifier_no_checklist_gives(run: Run) -> None:
    assert run("odds", "agents", "action", "--modifier", "3").code == 0
    assert run("odds", "agents", "action", "--modifier=-2").code == 0
    for bad in ("--modifier=4", "--modifier=-3"):
        refused = run("odds", "agents", "action", bad)
        assert refused.code == 2 and "G-N2" in refused.err
    refused = run(
        "odds", "agents", "challenge", "--reserves", "7,5", "--score", "3", "--modifiers=0,4"
    )
    assert refused.code == 2 and "G-N2" in refused.err


def test_contest_settle_without_a_taker_names_the_alliance_not_none(team: Run) -> None:
    assert (
        team(
            "agents",
            "agent",
            "--name",
            "Lune",
            "--muscles",
            "5",
            "--sexe",
            "3",
            "--intelligence",
            "7",
            *ID,
        ).code
        == 0
    )
    assert team("agents", "quest", "--starter", "en", "--dice", "1").code == 0
    assert team("agents", "draw", "environments", "--dice", "1").code == 0
    for successes in (0, 1, 2, 3):
        dice = "3,1,1" if successes == 3 else "3,1,1,1"
        number = _scene(team, "Vega", dice, successes)
        if successes:
            assert team("agents", "winner", "--challenge", str(number)).code == 0
        assert team("agents", "consequence", "--challenge", str(number)).code == 0
    assert team("agents", "contest", "start").code == 0
    bout = ("agents", "contest", "challenge", "--challengers", "Orso,Lune", "--attribute", "sexe")
    assert team(*bout).code == 0
    for _ in range(5):
        assert team("agents", "act", "--challenge", "5", "--dice", "6").code == 0
    refused = team("agents", "contest", "settle", "--challenge", "5")
    assert refused.code == 2
    assert "None" not in refused.err
    assert "which of the winning challengers Orso, Lune takes the artefact" in refused.err
    assert "--taker" in refused.err


def test_failing_on_purpose_is_shown_with_the_agents_in_play(run: Run, tmp_path: Path) -> None:
    assert run("table", "new", "agents", "--name", "duo", "--players", "Ana").code == 0
    for name, m, s, i in (("Kira", "7", "5", "3"), ("Tom", "3", "7", "5")):
        args = ("--name", name, "--muscles", m, "--sexe", s, "--intelligence", i, *ID)
        assert run("agents", "agent", *args).code == 0
    answers = ["", "", "1", "1", "Muscles"]  # a reserve without an agent: refused
    result = run("agents", "play", "--script", _script(tmp_path, answers))
    assert result.code == 0, result.err
    assert "e.g. Kira Muscles" in result.out  # the question
    assert "'Muscles' is not an agent and a reserve, e.g. 'Kira Muscles'" in result.out
    assert "Vega" not in result.out


def test_an_empty_answer_between_scenes_pauses_and_stores_nothing(
    team: Run, tmp_path: Path
) -> None:
    result = team("agents", "play", "--script", _script(tmp_path, ["", "", "1", "1", ""]))
    assert result.code == 0, result.err
    assert result.out.rstrip().endswith(
        "Paused: everything so far is saved; run 'tablee agents play' again to go on."
    )
    assert _kinds(team)[-1] == "agents.table_drawn"  # no scene started


class _Interrupted:
    """Standard input where the player presses Ctrl+C at the ``n``-th question."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers

    def readline(self, size: int = -1) -> str:
        if not self.answers:
            raise KeyboardInterrupt
        return self.answers.pop(0) + "\n"


def test_ctrl_c_pauses_with_a_clean_line_and_no_traceback(
    team: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", _Interrupted(["", "", "1"]))
    out, err = io.StringIO(), io.StringIO()
    code = main(["agents", "play"], out, err)
    result = Result(code, out.getvalue(), err.getvalue())
    assert result.code == 0 and result.err == ""
    assert "Traceback" not in result.out
    lines = result.out.splitlines()
    assert lines[-2].startswith("Where the agents arrive")  # the question's line, ended
    assert (
        lines[-1] == "Paused: everything so far is saved; run 'tablee agents play' again to go on."
    )
    assert _kinds(team)[-1] == "agents.quest_drawn"  # nothing stored is lost
