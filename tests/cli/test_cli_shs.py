"""The Space Horror Stories command line, in-process: a whole short film, the JSON contract,
bad input that leaves the log unchanged, French output, undo and the Markdown export.

Source: docs/rules/shs.md (S-M1 to S-M9, S-A1 to S-A15).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from .conftest import Run


def log_of(run: Run) -> str:
    result = run("table", "export", "--format", "jsonl")
    assert result.code == 0, result.err
    return result.out


def ok(run: Run, *argv: str) -> Any:
    result = run(*argv, "--json")
    assert result.code == 0, result.err
    return result.json()


HEROES = {
    # name: player, carrure, motricite, science, relationnel, sang-froid, expertises
    "Jake": ("Ana", "6", "6", "7", "7", "8", ["Sauter"]),
    "Nella": ("Bob", "7", "7", "7", "7", "6", []),
    "Jaleel": (None, "7+", "7", "7", "6", "7", []),
}


@pytest.fixture
def film(run: Run) -> Run:
    """An SHS table 'film' with Jake, Nella and Jaleel, a scène rythmée in its first Tour."""
    assert run("table", "new", "shs", "--name", "film", "--players", "Ana,Bob").code == 0
    for name, (player, c, m, s, r, f, expertises) in HEROES.items():
        argv = ["shs", "protagoniste", "create", "--name", name, "--carrure", c]
        argv += ["--motricite", m, "--science", s, "--relationnel", r, "--sang-froid", f]
        argv += ["--player", player] if player else []
        for expertise in expertises:
            argv += ["--expertise", expertise]
        result = run(*argv)
        assert result.code == 0, result.err
    assert run("shs", "scene", "start", "rythmee").code == 0
    assert run("shs", "tour", "next").code == 0
    return run


def hero(run: Run, name: str) -> Any:
    return ok(run, "shs", "protagoniste", "show", name)["protagonistes"][name]


# --- Protagonistes ------------------------------------------------------------------------


def test_create_derives_sante_from_carrure_and_shows_it(film: Run) -> None:
    jake = hero(film, "Jake")
    assert jake["sante"] == jake["sante_max"] == 11  # S-N1: 17 - Carrure 6
    assert jake["owner"] == "Ana" and jake["expertises"] == ["Sauter"]
    shown = ok(film, "shs", "protagoniste", "show", "jaleel")["protagonistes"]
    assert shown["Jaleel"]["carrure"] == 7 and shown["Jaleel"]["owner"] is None
    text = film("shs", "protagoniste", "show").out
    assert "Santé 11/11" in text and "Nella (Bob)" in text and "Sang-froid 8+" in text


def test_edit_counters_by_change_and_by_value(film: Run) -> None:
    doc = ok(film, "shs", "protagoniste", "edit", "Jake", "--sante", "-3", "--air", "+4")
    assert [(c["counter"], c["before"], c["after"]) for c in doc["changes"]] == [
        ("sante", 11, 8),
        ("air", 0, 4),
    ]
    doc = ok(film, "shs", "protagoniste", "edit", "Jake", "--set-nt", "2", "--protection", "1")
    assert doc["protagoniste"]["nt"] == 2 and doc["protagoniste"]["protection"] == 1
    text = film("shs", "protagoniste", "edit", "Jake", "--sante", "-50").out
    assert "Santé 8 → 0" in text and "the Réalisateur decides" in text


def test_kill_and_revive(film: Run) -> None:
    assert ok(film, "shs", "protagoniste", "kill", "Nella")["protagoniste"]["alive"] is False
    assert ok(film, "shs", "protagoniste", "revive", "Nella")["protagoniste"]["alive"] is True


def test_import_json_and_toml(film: Run, tmp_path: Path) -> None:
    sheets = [
        {"name": "Sergueï", "carrure": 5, "motricite": "6+", "science": 7, "relationnel": 7,
         "sang_froid": 8, "expertises": ["Piloter"], "air": 3},
        {"name": "Natalia", "player": "Bob", "carrure": 6, "motricite": 5, "science": 7,
         "relationnel": 7, "sang-froid": 8},
    ]  # fmt: skip
    path = tmp_path / "crew.json"
    path.write_text(json.dumps(sheets), encoding="utf-8")
    doc = ok(film, "shs", "protagoniste", "import", str(path))
    assert [p["name"] for p in doc["protagonistes"]] == ["Sergueï", "Natalia"]
    assert doc["protagonistes"][0]["sante"] == 12 and doc["protagonistes"][0]["air"] == 3
    toml = tmp_path / "one.toml"
    toml.write_text(
        'name = "Ivan"\ncarrure = 8\nmotricite = 8\nscience = 5\nrelationnel = 6\n'
        'sang_froid = 7\nexpertises = ["Médecine"]\n',
        encoding="utf-8",
    )
    assert ok(film, "shs", "protagoniste", "import", str(toml))["protagonistes"][0]["sante"] == 9


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ('[{"name": "X", "carrure": 9, "motricite": 6, "science": 6, "relationnel": 6, '
         '"sang_froid": 6}]', ["carrure", "crew.json", "from 5 to 8 (rule S-M9)"]),
        ('{"name": "X", "motricite": 6, "science": 6, "relationnel": 6, "sang_froid": 6}',
         ["carrure", "crew.json", "missing"]),
        ('{"name": "X", "carrure": 6, "motricite": 6, "science": 6, "relationnel": 6, '
         '"sang_froid": 6, "colour": "red"}', ["colour", "crew.json"]),
        ('[{"name": "X", "carrure": 6, "motricite": 6, "science": 6, "relationnel": 6, '
         '"sang_froid": 6}, {"name": "Jake", "carrure": 6, "motricite": 6, "science": 6, '
         '"relationnel": 6, "sang_froid": 6}]', ["Jake", "Protagoniste 2"]),
        ("{not json", ["crew.json"]),
    ],
)  # fmt: skip
def test_import_errors_name_the_field_and_file_and_store_nothing(
    film: Run, tmp_path: Path, content: str, words: list[str]
) -> None:
    path = tmp_path / "crew.json"
    path.write_text(content, encoding="utf-8")
    before = log_of(film)
    result = film("shs", "protagoniste", "import", str(path))
    assert result.code in (2, 3), result.err
    for word in words:
        assert word in result.err
    assert log_of(film) == before


# --- a whole short film --------------------------------------------------------------------


def test_a_whole_short_film(film: Run) -> None:
    # A Test with typed faces: 3 D8 against 6+ (1, 6, 8: 2 PS), Bonus 1 (+: 1 PS) = 3 PS.
    doc = ok(
        film, "shs", "test", "--protagoniste", "Jake", "--characteristic", "motricité",
        "--difficulty", "2", "--bonus", "1", "--dice", "1,6,8", "--dpm-dice", "+",
    )  # fmt: skip
    assert doc["action_faces"] == [1, 6, 8] and doc["dpm_faces"] == [1]
    assert (doc["dice_ps"], doc["dpm_ps"], doc["ps"]) == (2, 1, 3)
    assert doc["difficulty"] == 2 and doc["difficulty_name"] == "Difficile"
    assert doc["success"] is True and doc["notation"] == "Test (Motricité, 2)"
    assert doc["die"] == "d8" and doc["threshold"] == 6

    # The text's notation and an Expertise: D10 (S-A2); 10, 3, 6 against 6+ = 2 PS.
    doc = ok(
        film, "shs", "test", "--protagoniste", "Jake", "--test", "Test (Motricité, Extrême)",
        "--expertise", "sauter", "--dice", "10,3,6",
    )  # fmt: skip
    assert doc["die"] == "d10" and doc["ps"] == 2 and doc["difficulty"] == 4
    assert doc["success"] is False and doc["dpm_faces"] == []

    # Se Surpasser: a Bonus 2 (2 D+/-: +, 0 = 1 PS) and NT +1 once the Action is over.
    doc = ok(
        film, "shs", "test", "--protagoniste", "Jake", "--characteristic", "science",
        "--difficulty", "3", "--option", "surpasser", "--dice", "7,7,1", "--dpm-dice", "+,0",
    )  # fmt: skip
    assert (doc["ps"], doc["success"], doc["nt_gain"], doc["nt"]) == (3, True, 1, 1)
    assert doc["option"] == "se_surpasser"

    # A Malus lasting 1 Tour, added in Tour 1: in force in Tours 1 and 2, over in Tour 3.
    doc = ok(film, "shs", "modifier", "add", "--protagoniste", "Jake", "--malus", "1",
             "--tours", "1", "--label", "fumée")  # fmt: skip
    assert doc["number"] == doc["seq"] and doc["kind"] == "malus" and doc["tours"] == 1
    doc = ok(
        film, "shs", "test", "--protagoniste", "Jake", "--characteristic", "motricite",
        "--difficulty", "1", "--dice", "6,1,1", "--dpm-dice=-",
    )  # fmt: skip
    assert doc["temporary_malus"] == 1 and doc["ps"] == 0 and doc["success"] is False
    assert ok(film, "shs", "tour", "next")["expired"] == []
    doc = ok(film, "shs", "tour", "next")
    assert doc["tour"] == 3 and [m["label"] for m in doc["expired"]] == ["fumée"]
    assert doc["clock"]["modifiers"] == []
    doc = ok(
        film, "shs", "test", "--protagoniste", "Jake", "--characteristic", "motricite",
        "--difficulty", "1", "--dice", "6,1,1",
    )  # fmt: skip
    assert doc["temporary_malus"] == 0 and doc["ps"] == 1 and doc["success"] is True

    # A long Action over 2 Tours, started in Tour 3: rolled in Tour 4 only (S-T6).
    doc = ok(film, "shs", "long-action", "start", "--protagoniste", "Nella",
             "--label", "pirater la porte", "--tours", "2")  # fmt: skip
    assert doc["last_tour"] == 4
    early = film(
        "shs", "test", "--protagoniste", "Nella", "--characteristic", "science",
        "--difficulty", "1", "--long-action", "pirater la porte", "--dice", "7,1,1",
    )  # fmt: skip
    assert early.code == 3 and "last Tour" in early.err
    doc = ok(film, "shs", "tour", "next")
    assert [a["label"] for a in doc["due"]] == ["pirater la porte"]
    doc = ok(
        film, "shs", "test", "--protagoniste", "Nella", "--characteristic", "science",
        "--difficulty", "1", "--long-action", "pirater la porte", "--dice", "7,1,1",
    )  # fmt: skip
    assert doc["long_action"] == "pirater la porte" and doc["success"] is True
    assert ok(film, "shs", "clock")["clock"]["long_actions"] == []

    # Cooperation (S-M6): each with Bonus 1 (one D+/-); Jake 7, 1, 1 and + = 2 PS succeeds.
    doc = ok(
        film, "shs", "cooperation", "--member", "Jake:science", "--member", "Nella:science",
        "--difficulty", "2", "--dice", "7,1,1,1,1,1", "--dpm-dice", "+,0",
    )  # fmt: skip
    assert doc["success"] is True
    assert [(m["protagonist"], m["ps"], m["success"]) for m in doc["members"]] == [
        ("Jake", 2, True),
        ("Nella", 0, False),
    ]

    # Simultaneous (S-M7): 2 rolled + 1 trivial = Malus 2 on each rolled Action.
    doc = ok(
        film, "shs", "simultaneous", "--protagoniste", "Jaleel", "--action", "relationnel:1",
        "--action", "motricite:1", "--trivial", "1", "--dice", "6,6,6,7,7,1",
        "--dpm-dice=-,0,-,-",
    )  # fmt: skip
    assert doc["set_malus"] == 2
    assert [(a["ps"], a["success"]) for a in doc["actions"]] == [(2, True), (0, False)]

    # Opposed (S-M4): 2 PS each; the first side seeks change and fails on a tie (S-A5).
    doc = ok(
        film, "shs", "opposed", "--first", "Jake:motricite", "--second", "Nella:carrure",
        "--dice", "6,6,1,7,7,1",
    )  # fmt: skip
    assert (doc["first"]["ps"], doc["second"]["ps"]) == (2, 2)
    assert doc["tie"] is True and doc["winner"] == "second" and doc["status_quo"] is True

    # Game time and a modifier lasting 30 min; the Réalisateur ends another by hand.
    ok(film, "shs", "modifier", "add", "--protagoniste", "Nella", "--bonus", "2", "--time",
       "30 min")  # fmt: skip
    jake = ok(film, "shs", "modifier", "add", "--protagoniste", "Jake", "--bonus", "1",
              "--tours", "5")["number"]  # fmt: skip
    doc = ok(film, "shs", "time", "advance", "1", "h")
    assert doc["total"] == 3600 and [m["protagonist"] for m in doc["expired"]] == ["Nella"]
    doc = ok(film, "shs", "modifier", "end", str(jake))
    assert doc["modifier"]["protagonist"] == "Jake" and doc["clock"]["modifiers"] == []

    # Se Sacrifier: Bonus 2 (0, 0), +2 PS, and death whatever the outcome (S-A8).
    doc = ok(
        film, "shs", "test", "--protagoniste", "Jaleel", "--characteristic", "carrure",
        "--difficulty", "4", "--option", "sacrifier", "--dice", "7,7,1", "--dpm-dice", "0,0",
    )  # fmt: skip
    assert (doc["dice_ps"], doc["sacrifice_ps"], doc["ps"]) == (2, 2, 4)
    assert doc["success"] is True and doc["dies"] is True and doc["alive"] is False
    assert hero(film, "Jaleel")["alive"] is False

    shown = film("table", "show")
    assert shown.code == 0 and "Scène 1 (scène rythmée), Tour 4, game time 1 h" in shown.out
    assert "Jaleel (Réalisateur) (dead)" in shown.out


def test_human_output_shows_dice_ps_and_price(film: Run) -> None:
    result = film(
        "shs", "test", "--protagoniste", "Jake", "--characteristic", "science",
        "--difficulty", "3", "--option", "surpasser", "--dice", "7,7,1", "--dpm-dice", "+,0",
        "--odds",
    )  # fmt: skip
    assert result.code == 0, result.err
    text = result.out
    assert "Odds before rolling" in text and "Success:" in text
    assert "Jake: Test (Science, 3) · Se Surpasser" in text
    assert "Action dice (d8, 7+): 7 7 1" in text and "D+/- dice: + 0" in text
    assert "3 PS against Difficulty 3: success" in text and "NT +1" in text


def test_seeded_roll_is_reproducible_and_odds_are_exact(film: Run) -> None:
    argv = ("shs", "test", "--protagoniste", "Nella", "--characteristic", "sang-froid",
            "--difficulty", "1", "--bonus", "2", "--seed", "7", "--odds")  # fmt: skip
    first, second = ok(film, *argv), ok(film, *argv)
    assert first["action_faces"] == second["action_faces"]
    assert first["dpm_faces"] == second["dpm_faces"] and len(first["dpm_faces"]) == 2
    rows = first["odds"]["distribution"]
    assert sum(int(r["probability"].split("/")[0]) / int(r["probability"].split("/")[1])
               for r in rows) == pytest.approx(1)  # fmt: skip
    assert "/" in first["odds"]["success"]


def _f(text: str) -> Fraction:
    return Fraction(text)


def test_cooperation_odds_give_each_count_of_successes_exactly(film: Run) -> None:
    # Science 7+ on 3D8 (1/4 a die) with the cooperation's Bonus 1 (a '+' one time in 3),
    # Difficulty 2: 2+ dice (10/64), or 1 die (27/64) and a '+' (1/3): 19/64 each, by hand.
    doc = ok(film, "shs", "cooperation", "--member", "Jake:science", "--member",
             "Nella:science", "--difficulty", "2", "--seed", "3", "--odds")  # fmt: skip
    odds = doc["odds"]
    assert [(m["protagonist"], _f(m["success"])) for m in odds["members"]] == [
        ("Jake", Fraction(19, 64)),
        ("Nella", Fraction(19, 64)),
    ]
    fail = Fraction(45, 64)
    assert {r["count"]: _f(r["probability"]) for r in odds["successes"]} == {
        0: fail**2,
        1: 2 * fail * Fraction(19, 64),
        2: Fraction(19, 64) ** 2,
    }
    assert _f(odds["success"]) == 1 - fail**2
    text = film("shs", "cooperation", "--member", "Jake:science", "--member",
                "Nella:science", "--difficulty", "2", "--seed", "3", "--odds").out  # fmt: skip
    assert "1 of 2 succeeds: " in text and "(855/2048)" in text
    assert "the group succeeds (at least one): " in text and "(2071/4096)" in text


def test_opposed_odds_give_each_ending_and_the_margin_exactly(film: Run) -> None:
    # Jake's Carrure 6+ against Jaleel's Relationnel 6+: 3/8 a die on both sides, so k PS
    # on 3D8 come with C(3, k) 3^k 5^(3-k) / 512, computed by hand below.
    per = [Fraction(125, 512), Fraction(225, 512), Fraction(135, 512), Fraction(27, 512)]
    tie = sum(p * p for p in per)
    doc = ok(film, "shs", "opposed", "--first", "Jake:carrure", "--second",
             "Jaleel:relationnel", "--dice", "6,1,1,6,6,1", "--odds")  # fmt: skip
    odds = doc["odds"]
    outcomes = {r["outcome"]: _f(r["probability"]) for r in odds["outcomes"]}
    assert outcomes == {
        "first": (1 - tie) / 2,
        "second": (1 - tie) / 2,
        "tie_second_holds": tie,  # Jake seeks the change: Jaleel keeps the situation (S-A5)
    }
    assert (_f(odds["first"]), _f(odds["second"])) == ((1 - tie) / 2, (1 + tie) / 2)
    margin = {r["margin"]: _f(r["probability"]) for r in odds["margin"]}
    expected = {}
    for a, pa in enumerate(per):
        for b, pb in enumerate(per):
            expected[a - b] = expected.get(a - b, 0) + pa * pb
    assert margin == expected and list(margin) == sorted(margin, reverse=True)
    text = film("shs", "opposed", "--first", "Jake:carrure", "--second", "Jaleel:relationnel",
                "--dice", "6,1,1,6,6,1", "--odds").out  # fmt: skip
    assert "a tie: Jaleel keeps the situation as it was: " in text
    assert "Jaleel prevails in all: " in text and "PS margin (Jake minus Jaleel):" in text
    assert "Jaleel has more PS and wins" in text


def test_a_default_tie_says_who_keeps_what(film: Run) -> None:
    result = film("shs", "opposed", "--first", "Jake:carrure", "--second", "Jaleel:relationnel",
                  "--dice", "6,6,1,6,6,1")  # fmt: skip
    assert result.code == 0, result.err
    assert (
        "A tie at 2 PS: Jake sought the change and does not get it; Jaleel keeps the "
        "situation as it was." in result.out
    )
    log = film("table", "log").out
    assert "a tie at 2 PS: Jake sought the change and does not get it; Jaleel keeps" in log


@pytest.mark.parametrize(
    "argv",
    [
        ["test", "--protagoniste", "Jake", "--characteristic", "science", "--difficulty", "0"],
        ["test", "--protagoniste", "Jake", "--test", "Test (Science, 0)"],
        ["cooperation", "--member", "Jake:science", "--member", "Nella:science",
         "--difficulty", "0"],
        ["simultaneous", "--protagoniste", "Jake", "--action", "science:0"],
    ],
)  # fmt: skip
def test_difficulty_0_says_the_action_is_trivial(film: Run, argv: list[str]) -> None:
    before = log_of(film)
    result = film("shs", *argv, "--seed", "1")
    assert result.code == 2
    assert "trivial: it succeeds without a roll (rule S-M1)" in result.err and "S-A4" in result.err
    assert log_of(film) == before


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--bonus", "1", "--dice", "7,1,1"], ["faces of +/- dice typed in: 0", "needs 1", "S-M3"]),
        (
            ["--dice", "7,1,1", "--dpm-dice", "+"],
            ["faces of +/- dice typed in: 1", "needs 0", "S-M3"],
        ),
        (["--dice", "7,1"], ["faces of action dice typed in: 2", "needs 3", "S-A1"]),
    ],
)
def test_typed_faces_that_do_not_fit_name_the_dice_and_the_rule(
    film: Run, extra: list[str], words: list[str]
) -> None:
    result = film("shs", "test", "--protagoniste", "Jake", "--characteristic", "science",
                  "--difficulty", "1", *extra)  # fmt: skip
    assert result.code == 2
    for word in words:
        assert word in result.err
    assert "dpm faces" not in result.err and "dpm " not in result.err.replace("--dpm-dice", "")


def test_a_long_action_falls_due_when_a_scene_lente_begins(film: Run) -> None:
    # S-T6 in a scène rythmée, then the fight ends: the hack's last seconds pass in the calm.
    ok(film, "shs", "long-action", "start", "--protagoniste", "Nella", "--label", "pirater",
       "--tours", "3")  # fmt: skip
    result = film("shs", "scene", "start", "lente")
    assert result.code == 0, result.err
    assert "Nella's pirater counts Tours, which stop in a scène lente" in result.out
    assert [a["label"] for a in ok(film, "shs", "clock")["clock"]["due"]] == ["pirater"]
    doc = ok(film, "shs", "test", "--protagoniste", "Nella", "--characteristic", "science",
             "--difficulty", "1", "--long-action", "pirater", "--dice", "7,1,1")  # fmt: skip
    assert doc["long_action"] == "pirater" and doc["success"] is True
    assert ok(film, "shs", "clock")["clock"]["long_actions"] == []
    refused = film("shs", "long-action", "start", "--protagoniste", "Nella", "--label", "réparer",
                   "--tours", "2")  # fmt: skip
    assert refused.code == 3
    assert "the Réalisateur estimates how long an Action takes (rule S-M8)" in refused.err
    assert "advance game time by the Action's length, then roll an ordinary Test" in refused.err


# --- bad input: a clear error, the documented exit code, nothing stored ---------------------


@pytest.mark.parametrize(
    ("argv", "code", "words"),
    [
        (["shs", "protagoniste", "create", "--name", "X", "--carrure", "9", "--motricite", "6",
          "--science", "6", "--relationnel", "6", "--sang-froid", "6"], 2, ["carrure", "5+ to 8+"]),
        (["shs", "protagoniste", "create", "--name", "X", "--carrure", "4", "--motricite", "6",
          "--science", "6", "--relationnel", "6", "--sang-froid", "6"], 2, ["carrure"]),
        (["shs", "test", "--protagoniste", "Jake", "--characteristic", "science",
          "--difficulty", "0", "--dice", "7,1,1"], 2, ["Difficulty", "S-A4"]),
        (["shs", "test", "--protagoniste", "Jake", "--characteristic", "science",
          "--difficulty", "1", "--option", "surpasser", "--option", "sacrifier",
          "--dice", "7,1,1", "--dpm-dice", "0,0"], 3, ["S-M5"]),
        (["shs", "simultaneous", "--protagoniste", "Jake", "--action", "science:1:surpasser",
          "--action", "motricite:1:sacrifier", "--dice", "1,1,1,1,1,1"], 3, ["S-M5"]),
        (["shs", "simultaneous", "--protagoniste", "Jake", "--action", "science:1:surpasser",
          "--opposed", "motricite:sacrifier", "--against", "Nella:carrure",
          "--dice", "1,1,1,1,1,1,1,1,1"], 3, ["Action 2", "S-M5"]),
        (["shs", "simultaneous", "--protagoniste", "Jake", "--opposed", "motricite"], 2,
         ["--against", "S-X5"]),
        (["shs", "simultaneous", "--protagoniste", "Jake", "--opposed", "motricite",
          "--against", "jake:carrure"], 2, ["themselves"]),
        (["shs", "test", "--protagoniste", "Jake", "--characteristic", "science",
          "--difficulty", "1", "--dice", "7,1"], 2, ["faces"]),
        (["shs", "test", "--protagoniste", "Jake", "--characteristic", "science",
          "--difficulty", "1", "--dice", "7,1,1", "--dpm-dice", "+"], 2, ["+/- dice"]),
        (["shs", "test", "--protagoniste", "Nobody", "--characteristic", "science",
          "--difficulty", "1"], 2, ["Nobody"]),
        (["shs", "cooperation", "--member", "Jake", "--member", "Nella:science",
          "--difficulty", "1"], 2, ["--member"]),
        (["shs", "modifier", "end", "3"], 2, ["modifier"]),
        (["shs", "time", "advance", "2", "Tours"], 2, ["Tours", "S-M8"]),
    ],
)  # fmt: skip
def test_bad_input_is_refused_and_nothing_changes(
    film: Run, argv: list[str], code: int, words: list[str]
) -> None:
    before = log_of(film)
    result = film(*argv)
    assert result.code == code, result.err
    for word in words:
        assert word in result.err
    assert log_of(film) == before
    doc = json.loads(film(*argv, "--json").err)
    assert doc["exit_code"] == code
    assert log_of(film) == before


def test_a_modifier_keeps_its_number_when_another_one_expires(film: Run) -> None:
    smoke = ok(film, "shs", "modifier", "add", "--protagoniste", "Jake", "--malus", "1",
               "--tours", "1", "--label", "fumée")  # fmt: skip
    gash = ok(film, "shs", "modifier", "add", "--protagoniste", "Nella", "--malus", "2",
              "--tours", "4", "--label", "entaille")  # fmt: skip
    assert (smoke["number"], gash["number"]) == (smoke["seq"], gash["seq"]) == (7, 8)
    ok(film, "shs", "tour", "next")
    ok(film, "shs", "tour", "next")  # the smoke is over; the gash keeps number 8
    clock = ok(film, "shs", "clock")["clock"]
    assert [(m["number"], m["label"]) for m in clock["modifiers"]] == [(8, "entaille")]
    text = film("shs", "clock")
    assert "#8 Nella: Malus (4 Tours) of 2" in text.out and "#1" not in text.out
    shown = film("table", "show", "--json").json()["clock"]["modifiers"]
    assert [m["number"] for m in shown] == [8]
    assert "#8 Nella" in film("table", "show").out
    before = log_of(film)
    refused = film("shs", "modifier", "end", "7")
    assert refused.code == 2 and log_of(film) == before
    assert "number 7" in refused.err and "#8 Nella" in refused.err
    doc = ok(film, "shs", "modifier", "end", "8")
    assert doc["number"] == 8 and doc["modifier"]["label"] == "entaille"
    assert doc["clock"]["modifiers"] == []


def test_a_dead_protagoniste_cannot_act(film: Run) -> None:
    assert film("shs", "protagoniste", "kill", "Nella").code == 0
    before = log_of(film)
    for argv in (
        ["shs", "test", "--protagoniste", "Nella", "--characteristic", "science",
         "--difficulty", "1", "--dice", "7,1,1"],
        ["shs", "opposed", "--first", "Jake:motricite", "--second", "Nella:carrure",
         "--dice", "6,6,1,7,7,1"],
        ["shs", "long-action", "start", "--protagoniste", "Nella", "--label", "x", "--tours", "2"],
    ):  # fmt: skip
        result = film(*argv)
        assert result.code == 3, result.err
        assert "dead" in result.err
    assert log_of(film) == before


def test_shs_commands_refuse_a_pouyss_table(run: Run) -> None:
    assert run("table", "new", "pouyss", "--name", "club", "--players", "A,B").code == 0
    result = run("shs", "tour", "next")
    assert result.code == 2 and "pouyss" in result.err


# --- French, undo, export ------------------------------------------------------------------


def test_french_output(film: Run) -> None:
    result = film(
        "shs", "test", "--protagoniste", "Jake", "--characteristic", "science",
        "--difficulty", "3", "--dice", "7,7,7", "--lang", "fr",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert "3 PS contre Difficulté 3 : réussite" in result.out
    assert "Dés d'action (d8, 7+) : 7 7 7" in result.out


def test_undo_of_a_test_restores_nt(film: Run) -> None:
    doc = ok(
        film, "shs", "test", "--protagoniste", "Jake", "--characteristic", "science",
        "--difficulty", "1", "--option", "surpasser", "--dice", "7,1,1", "--dpm-dice", "0,0",
    )  # fmt: skip
    assert doc["nt"] == 1
    assert film("table", "undo").code == 0
    assert hero(film, "Jake")["nt"] == 0


def test_export_md_shows_the_shs_lines(film: Run) -> None:
    ok(film, "shs", "test", "--protagoniste", "Jake", "--characteristic", "science",
       "--difficulty", "1", "--dice", "7,1,1")  # fmt: skip
    result = film("table", "export", "--format", "md")
    assert result.code == 0, result.err
    assert "Jake joins the film" in result.out
    assert "Scène 1 begins" in result.out
    assert "Jake rolls Test (Science, 1): D8 7, 1, 1: 1 PS, success" in result.out


def test_help_documents_member_options(run: Run) -> None:
    result = run("shs", "cooperation", "--help")
    assert result.code == 0
    assert "expertise=TEXT" in result.out and "NAME:CARACTERISTIQUE" in result.out


def test_an_opposed_action_in_a_simultaneous_set(film: Run) -> None:
    # S-X5: Jake runs a diagnostic (Science 7+) while pulling free of Nella (Carrure 7+):
    # Malus 1 on the Test and on Jake's side (Motricité 6+); faces: the Test's, Jake's side's,
    # then Nella's.
    argv = ["shs", "simultaneous", "--protagoniste", "Jake", "--action", "science:1",
            "--opposed", "motricite", "--against", "Nella:carrure", "--dice",
            "7,1,1,6,6,1,7,1,1", "--dpm-dice=0,-"]  # fmt: skip
    doc = ok(film, *argv, "--odds")
    assert doc["set_malus"] == 1 and [a["ps"] for a in doc["actions"]] == [1]
    fight = doc["opposed"]
    assert (fight["first"]["ps"], fight["first"]["dice"], fight["second"]["ps"]) == (1, [3, -1], 1)
    assert (fight["winner"], fight["tie"], fight["status_quo"]) == ("second", True, True)
    assert fight["trace"][1] == "simultaneous Actions: a Malus of 1 on each"
    line = film("table", "log").out.splitlines()[-1]
    assert "Jake attempts 2 simultaneous Actions, Malus 1 each" in line
    assert "against Nella: Jake with Motricité: D8 6, 6, 1, D+/- -: 1 PS" in line
    checked = film("table", "check")
    assert checked.code == 0 and "the rules replay them" in checked.out
    text = film(*argv[:-3], "--dice", "6,6,1,6,6,6,7,7,1", "--dpm-dice=-,0", "--lang", "fr")
    assert text.code == 0, text.err
    shown = text.out.replace("\xa0", " ").replace("\u202f", " ")
    assert "Jake (Motricité): 3 PS" in shown  # the "-" went to the Test, a blank here
    assert "simultanées" in shown and shown.rstrip().endswith("Jake l'emporte.")
