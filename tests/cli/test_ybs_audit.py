"""Audit of ``tablee ybs``: what a GM reads must be words, in the house's option names.

Each test holds a value the first version got wrong: token movements and fight lines showing
stored ids (``gm``, ``force``, ``armed_target``...), options without a help text, option names
unlike the pouyss and shs commands, import sheets needing every trait, misaligned odds.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from tablee.cli.main import build_parser
from tablee.systems.ybs import describe
from tablee.systems.ybs.unmei import reason_text
from tests.cli.conftest import Run, create_ybs_club, log_length

REASON_IDS = (
    "session_start",
    "session_end",
    "invoke",
    "assist",
    "force",
    "stubborn",
    "critical",
    "critical_failure",
    "shichi_fukujin",
)
"""Every reason a token moves for (`tablee.systems.ybs.unmei.TokenMove`)."""
RAW = re.compile(r"\bgm\b|\((?:" + "|".join(REASON_IDS) + r")\)")
"""A stored id shown to people: the holder ``gm`` or a reason id in brackets."""


@pytest.fixture
def ybs(run: Run) -> Run:
    """A YBS table for A and B: Aki (A), Bo (B), a GM character Thug; a session started."""
    create_ybs_club(run)
    return run


def test_every_token_reason_has_words() -> None:
    for reason in REASON_IDS:
        words = reason_text(reason).render()
        assert words and words != reason, reason


def test_token_movements_read_as_words_in_every_command(ybs: Run) -> None:
    lines = [ybs("ybs", "session", "start").out]
    lines.append(ybs("ybs", "invoke", "Aki", "--attribute", "surfer").out)
    lines.append(
        ybs(
            "ybs",
            "test",
            "Aki",
            "--trait",
            "choushi",
            "--assist",
            "Bo",
            "--force",
            "1",
            "--dice",
            "1",
        ).out
    )
    lines.append(ybs("ybs", "stubborn", "--dice", "6").out)
    lines.append(ybs("ybs", "critical").out)
    lines.append(ybs("ybs", "test", "Bo", "--trait", "chisei", "--dice", "1").out)
    lines.append(ybs("ybs", "critical-failure").out)
    lines.append(ybs("ybs", "session", "end").out)
    text = "\n".join(lines)
    for line in text.splitlines():
        assert not RAW.search(line), line
    assert "GM → A 2 (session start)" in text
    assert "B → A 1 (assistance)" in text
    assert "A → GM 1 (forcing destiny)" in text
    assert "A → GM 1 (s'entêter)" in text
    assert "A → GM 1 (critical success)" in text
    assert "GM → B 1 (critical failure)" in text
    assert "; tokens: GM → A 1 (attribute invoked)" in text
    assert "(session end)" in text
    log = ybs("table", "log").out
    assert not RAW.search(log), log
    # The stored payload keeps the ids: JSON is for programs.
    events = ybs("table", "log", "--json").json()
    moves = [m for e in events for m in e["payload"].get("moves", [])]
    assert {m["from"] for m in moves} <= {"gm", "A", "B"}
    assert "force" in {m["reason"] for m in moves}


def test_a_refused_token_names_the_reason_in_words(ybs: Run) -> None:
    ybs("ybs", "session", "start")
    result = ybs("ybs", "test", "Aki", "--trait", "choushi", "--force", "3", "--dice", "3")
    assert result.code == 3
    assert "cannot give 3 (forcing destiny, rule Y-M4)" in result.err


def test_the_gm_is_a_translated_word_in_token_lines(ybs: Run) -> None:
    # "GM" goes through the catalog (French: "MJ", like "le MJ" elsewhere).
    from types import SimpleNamespace

    from tablee.locale import translation
    from tablee.systems.ybs.views import tokens_line

    ybs("ybs", "session", "start")
    out = ybs("ybs", "tokens", "--lang", "fr").out
    assert not RAW.search(out) and "MJ 96" in out
    game = SimpleNamespace(ledger=SimpleNamespace(gm=96, players={"A": 2, "B": 2}))
    line = tokens_line(game).render(translation("fr").gettext)  # type: ignore[arg-type]
    assert line == "Jetons Unmei : MJ 96, A 2, B 2"


def test_two_traits_combined_read_as_words(ybs: Run) -> None:
    out = ybs(
        "ybs",
        "test",
        "Bo",
        "--trait",
        "chisei",
        "--second-trait",
        "yuuben",
        "--combine",
        "limit",
        "--dice",
        "5",
    ).out
    assert "Bo tests Chisei/Yuuben (the lower one) -1" in out
    assert "(limit)" not in out


def test_fight_lines_and_refusals_read_as_words(ybs: Run) -> None:
    assert (
        ybs(
            "ybs",
            "test",
            "Aki",
            "--trait",
            "choushi",
            "--purpose",
            "attack",
            "--target",
            "Thug",
            "--dice",
            "5",
        ).code
        == 0
    )
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
            "Bo",
            "--dice",
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
            "defend",
            "--against",
            "Thug",
            "--dice",
            "6",
        ).code
        == 0
    )
    out = ybs("ybs", "fight", "resolve").out
    assert "Aki → Thug: 1 Uchimi; Thug → Bo: cancelled by the defence" in out
    assert "0 Uchimi" not in out
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
        "--dice",
        "2",
    )
    assert "Thug → Aki: missed" in ybs("ybs", "fight", "resolve").out
    before = log_length(ybs)
    armed = ybs(
        "ybs",
        "test",
        "Aki",
        "--trait",
        "choushi",
        "--purpose",
        "attack",
        "--target",
        "Thug",
        "--armed",
        "--dice",
        "5",
    )
    assert armed.code == 3
    assert "(the target bears a lethal or impressive weapon)" in armed.err
    assert "armed_target" not in armed.err
    wrong = ybs("ybs", "test", "Aki", "--trait", "chisei", "--purpose", "gate", "--dice", "5")
    assert "the Nintai gate uses Nintai alone" in wrong.err
    assert log_length(ybs) == before


def test_gate_reasons_all_have_words(ybs: Run) -> None:
    ybs("ybs", "damage", "Aki", "--uchimi", "2", "--kega", "1")
    result = ybs(
        "ybs",
        "test",
        "Aki",
        "--trait",
        "choushi",
        "--purpose",
        "attack",
        "--target",
        "Thug",
        "--armed",
        "--dice",
        "5",
    )
    assert (
        "(the target bears a lethal or impressive weapon, half the boxes or more are marked, "
        "at least one Kega)"
    ) in result.err


def _subparsers(parser: argparse.ArgumentParser, path: str = ""):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _subparsers(sub, f"{path} {name}".strip())
    yield path, parser


@pytest.mark.parametrize("group", ["ybs", "odds"])
def test_every_ybs_argument_has_a_help_text(group: str) -> None:
    parser = build_parser("en")
    missing = []
    for path, sub in _subparsers(parser):
        if not (path.startswith("ybs") or path.startswith("odds ybs")):
            continue
        if not path.startswith(group):
            continue
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{path}: {action.dest}")
    assert missing == []


def test_the_gang_start_damage_options_each_say_what_they_are() -> None:
    parser = build_parser("en")
    helps = {path: {a.dest: a.help for a in sub._actions} for path, sub in _subparsers(parser)}[
        "ybs gang start"
    ]
    assert len({helps["winner_uchimi"], helps["loser_uchimi"], helps["draw_uchimi"]}) == 3


def test_option_names_follow_pouyss_and_shs(ybs: Run) -> None:
    # --dice for typed-in faces and --reason for a note, as `pouyss roll` and `shs test`;
    # the first names (--faces, --note) stay.
    ybs("ybs", "session", "start")
    doc = ybs("ybs", "test", "Aki", "--trait", "choushi", "--dice", "4", "--json").json()
    assert doc["natural"] == 4
    assert ybs("ybs", "stubborn", "--dice", "5", "--json").json()["natural"] == 5
    ybs("ybs", "test", "Aki", "--trait", "choushi", "--faces", "4")
    doc = ybs("ybs", "damage", "Bo", "--kega", "1", "--reason", "broken arm", "--json").json()
    assert doc["note"] == "broken arm"
    assert ybs("ybs", "gang", "start", "--fighter", "Aki", "--opponent", "Thug").code == 0
    doc = ybs("ybs", "gang", "throw", "--dice", "1,1,2,2,6", "--gm-dice", "1,2,3,4,6", "--json")
    assert doc.json()["gm_hand"] == [1, 2, 3, 4, 6]
    for command in (("ybs", "test", "--help"), ("ybs", "gang", "throw", "--help")):
        assert "--dice" in ybs(*command).out


def test_ichika_takes_the_choices_as_the_help_writes_them(ybs: Run) -> None:
    ybs("ybs", "session", "start")
    out = ybs(
        "ybs",
        "ichika",
        "--choice",
        "A=flee",
        "--choice",
        "B=ichika-bachika",
        "--opponent",
        "Thug",
        "--dice",
        "2,2,2,1,3",
        "--gm-dice",
        "1,1,4,5,6",
        "--json",
    ).json()
    assert out["winner"] == "players" and out["kind"] == "ichika_bachika"
    helps = {path: sub for path, sub in _subparsers(build_parser("en"))}["ybs ichika"]
    choice = next(a for a in helps._actions if a.dest == "choices")
    assert "flee, gang-fight or ichika-bachika" in str(choice.help)


def test_shichi_fukujin_accepts_the_character_of_the_player(ybs: Run) -> None:
    ybs("ybs", "session", "start")
    for _ in range(5):
        ybs("ybs", "invoke", "Aki", "--attribute", "surfer")
    doc = ybs("ybs", "shichi-fukujin", "Aki", "--proposal", "the police arrive", "--json").json()
    assert doc["player"] == "A" and doc["tokens"]["A"] == 0
    before = log_length(ybs)
    bad = ybs("ybs", "shichi-fukujin", "Thug")
    assert bad.code != 0 and "no player named 'Thug'" in bad.err
    assert log_length(ybs) == before


def test_character_sheet_tokens_read_well(ybs: Run) -> None:
    ybs("ybs", "session", "start")
    out = ybs("ybs", "character", "show", "Aki").out
    assert "Aki (A, tokens: 2)" in out


def test_import_leaves_unlisted_traits_at_zero_and_names_who_warns(
    ybs: Run, tmp_path: Path
) -> None:
    sheet = tmp_path / "gang.toml"
    sheet.write_text(
        '[[character]]\nname = "Mio"\nplayer = "A"\n[character.traits]\nchoushi = 1\n'
        'kiyousa = 1\nnintai = -1\n\n[[character]]\nname = "Rin"\n[character.traits]\n'
        "chisei = -2\n",
        encoding="utf-8",
    )
    result = ybs("ybs", "character", "import", str(sheet))
    assert result.code == 0, result.err
    assert (
        "Rin: the traits Choushi +0, Kiyousa +0, Chisei -2, Yuuben +0, Chikaku +0, Nintai +0"
        in result.out
    )
    assert "Mio:" not in result.out
    mio = ybs("ybs", "character", "show", "Mio", "--json").json()["characters"]["Mio"]
    assert mio["traits"] == {
        "choushi": 1,
        "kiyousa": 1,
        "chisei": 0,
        "yuuben": 0,
        "chikaku": 0,
        "nintai": -1,
    }
    assert mio["hit_points"] == 5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"name": "Zed", "traits": {"chisei": 7}}]), encoding="utf-8")
    before = log_length(ybs)
    refused = ybs("ybs", "character", "import", str(bad))
    assert refused.code == 2 and "Chisei 7 must be a whole number" in refused.err
    assert log_length(ybs) == before


def test_test_odds_read_as_words_and_stay_aligned_in_french(run: Run) -> None:
    out = run(
        "odds",
        "ybs",
        "test",
        "--trait",
        "-2",
        "--force",
        "3",
        "--tokens",
        "3",
        "--stubborn",
        "once",
    ).out
    assert "s'entêter: once per test" in out
    assert "Expected rerolls: 0.333 (1/3)" in out
    fr = run("odds", "ybs", "test", "--trait", "0", "--tokens", "1", "--lang", "fr").out
    rows = [line for line in fr.splitlines() if line.startswith("  ")]
    assert len(rows) == 3
    assert len({line.index("%") for line in rows}) == 1, rows
    assert "0,000" in run("odds", "ybs", "test", "--trait", "0", "--lang", "fr").out


def test_french_separators_come_from_the_catalog() -> None:
    french = {"{first}; {then}": "{first} ; {then}", "{first}, {then}": "{first}, {then}"}
    payload = {
        "throw": 1,
        "minutes": 0,
        "hand": [1, 2, 3, 4],
        "gm_hand": [1, 1, 5, 6],
        "winner": "players",
        "draw": False,
        "inglorious": False,
        "damage": [
            {"character": "Aki", "uchimi": 1, "kega": 0},
            {"character": "Thug", "uchimi": 3, "kega": 0},
        ],
    }
    line = describe("ybs.gang_throw", payload).render(lambda s: french.get(s, s))
    assert "Aki +1 Uchimi ; Thug +3 Uchimi" in line


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (("damage", "Aki", "--uchimi", "-1"), "uchimi: -1 is out of range (0 to 100, rule Y-M5)"),
        (("damage", "Aki", "--kega", "-2"), "kega: -2 is out of range (0 to 100, rule Y-M5)"),
        (("rest", "Aki", "--minutes", "-5"), "rule Y-N6)"),
        (("heal", "Aki", "--count", "2"), "2 Kega to heal but only 0 marked (rule Y-A22)"),
        (("heal", "Aki", "--count", "0"), "count: 0 is out of range (1 to 100, rule Y-A22)"),
        (
            ("test", "Aki", "--trait", "chisei", "--combine", "limit", "--dice", "3"),
            "combining with 'limit' needs a second trait (rule Y-A2)",
        ),
    ],
)
def test_refusals_name_the_value_and_the_rule(ybs: Run, args, text) -> None:
    before = log_length(ybs)
    result = ybs("ybs", *args)
    assert result.code != 0
    assert text in result.err
    assert re.search(r"rules? Y-[A-Z]+\d+", result.err), result.err
    assert log_length(ybs) == before


def test_a_reroll_without_tokens_does_not_blame_forcing_destiny(ybs: Run) -> None:
    assert ybs("ybs", "test", "Aki", "--trait", "chisei", "--dice", "2").code == 0
    result = ybs("ybs", "stubborn", "--dice", "5")
    assert result.code == 3
    assert "reroll 1 needs a token but only 0 were held at the roll" in result.err
    assert "forcing" not in result.err


def test_trauma_on_choushi_refits_the_marks_as_the_docs_say(ybs: Run) -> None:
    # docs/rules/ybs.md: 1 Uchimi and 3 Kega on 5 boxes become 3 Kega on 3 boxes.
    assert ybs("ybs", "damage", "Aki", "--uchimi", "1", "--kega", "3").code == 0
    assert ybs("ybs", "trauma", "Aki", "--trait", "choushi").code == 0
    aki = ybs("ybs", "character", "show", "Aki", "--json").json()["characters"]["Aki"]
    assert (aki["hit_points"], aki["uchimi"], aki["kega"]) == (3, 0, 3)
    assert aki["prostrate"] and not aki["emergency"]


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (("--keep", "1,x"), "keep: face x (the 2nd) is not a face of a d6 (1 to 6)"),
        (("--gm-keep", "7", "--dice", "1"), "gm_keep: face 7 (the 1st) is not a face of a d6"),
        (("--gm-keep", "5,5,5", "--dice", "1"), "the GM's side cannot keep [5, 5, 5]"),
        (
            ("--dice", "1,1,1,1,1", "--gm-dice", "1,y"),
            "--gm-dice: face y (the 2nd) is not a face of a d6 (1 to 6)",
        ),
    ],
)
def test_a_bad_keep_or_face_names_its_own_option(ybs: Run, args, text) -> None:
    assert ybs("ybs", "gang", "start", "--fighter", "Aki").code == 0
    first = ("--dice", "1,2,2,6,6", "--gm-dice", "1,1,1,5,5")
    assert ybs("ybs", "gang", "throw", *first).code == 0
    before = log_length(ybs)
    result = ybs("ybs", "gang", "throw", *args)
    assert result.code == 2, result.err
    assert text in result.err
    assert "Y-M7" in result.err or "(1 to 6)" in result.err
    assert log_length(ybs) == before


def test_odds_asked_with_json_are_in_the_json(ybs: Run) -> None:
    # Aki: Choushi +1, 2 tokens, forces 1 and keeps 1 for a reroll (repeat, any natural 1-5):
    # a 1 first (1/6) then a reroll needs 3 or more on n' + 1 (4/6): 5/6 + 1/6 * 4/6 = 17/18;
    # a critical: a first 6 with the token kept (1/6), or a 1 then a 6 with none left: 1/6.
    ybs("ybs", "session", "start")
    doc = ybs(
        "ybs",
        "test",
        "Aki",
        "--trait",
        "choushi",
        "--force",
        "1",
        "--dice",
        "4",
        "--odds",
        "--json",
    ).json()
    assert (doc["odds"]["success"], doc["odds"]["critical"]) == ("17/18", "1/6")
