"""A game master's audit of ``tablee ybs``: what a GM at a real table could not do or see.

Each test holds a value the earlier version got wrong: a trauma that could never be lifted,
one set of 3 Kega bringing several traumas, damage whose text never said that a character
is prostrate or in danger, a fight test that could not use a trait the GM approved,
prostrate fighters in a gang fight, GM characters unable to make (or cancel) a critical,
and characters kept in the Foundry VTT fan system that could not be imported.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import Run, create_ybs_club, log_length

FOUNDRY = Path(__file__).parents[1] / "fixtures" / "foundry"


@pytest.fixture
def ybs(run: Run) -> Run:
    """The 'club' table (Aki for A, Bo for B, the GM's Thug), a session started."""
    create_ybs_club(run)
    assert run("ybs", "session", "start").code == 0
    return run


def sheet(run: Run, name: str) -> dict[str, Any]:
    sheets: dict[str, Any] = run("ybs", "character", "show", name, "--json").json()["characters"]
    return sheets[name]


def checked(run: Run) -> None:
    result = run("table", "check", "--json")
    assert result.code == 0, result.err
    assert result.json()["rules"] == "ok"


# -- trauma: lifted, and one per set of 3 Kega -------------------------------------------------


def test_a_trauma_is_lifted_by_the_gm_and_logged(ybs: Run) -> None:
    assert ybs("ybs", "damage", "Aki", "--kega", "3").code == 0
    assert ybs("ybs", "trauma", "Aki", "--trait", "kiyousa").code == 0
    assert sheet(ybs, "Aki")["traits"]["kiyousa"] == -1  # +1 replaced by -1 (Y-T10)
    assert sheet(ybs, "Aki")["traumas"] == {"kiyousa": 2}
    assert "Under a trauma: Kiyousa" in ybs("ybs", "character", "show", "Aki").out
    result = ybs("ybs", "lift-trauma", "Aki", "--trait", "kiyousa", "--note", "rééducation")
    assert result.code == 0, result.err
    assert "Kiyousa" in result.out
    assert sheet(ybs, "Aki")["traits"]["kiyousa"] == 1  # the levels the trauma took are back
    assert sheet(ybs, "Aki")["traumas"] == {}
    assert "trauma" not in ybs("ybs", "character", "show", "Aki").out
    last = ybs("table", "log", "--json").json()[-1]
    assert last["kind"] == "ybs.trauma_lifted"
    assert (last["payload"]["from"], last["payload"]["value"]) == (-1, 1)
    checked(ybs)


def test_lifting_a_trauma_that_is_not_there_is_refused(ybs: Run) -> None:
    before = log_length(ybs)
    result = ybs("ybs", "lift-trauma", "Aki", "--trait", "chisei")
    assert result.code == 3 and "Chisei" in result.err and "trauma" in result.err
    assert log_length(ybs) == before


def test_lifting_a_trauma_on_choushi_gives_the_boxes_back(ybs: Run) -> None:
    assert ybs("ybs", "damage", "Aki", "--kega", "3").code == 0
    assert ybs("ybs", "trauma", "Aki", "--trait", "choushi").code == 0
    assert sheet(ybs, "Aki")["hit_points"] == 3
    assert ybs("ybs", "lift-trauma", "Aki", "--trait", "choushi").code == 0
    aki = sheet(ybs, "Aki")
    assert (aki["hit_points"], aki["kega"], aki["prostrate"]) == (5, 3, False)


def test_one_set_of_three_kega_limits_one_trait(ybs: Run) -> None:
    assert ybs("ybs", "damage", "Aki", "--kega", "3").code == 0
    assert ybs("ybs", "trauma", "Aki", "--trait", "kiyousa").code == 0
    before = log_length(ybs)
    result = ybs("ybs", "trauma", "Aki", "--trait", "chisei")
    assert result.code == 3 and "Kiyousa" in result.err
    assert log_length(ybs) == before
    # lifting does not free the same wounds for another trauma
    assert ybs("ybs", "lift-trauma", "Aki", "--trait", "kiyousa").code == 0
    assert ybs("ybs", "trauma", "Aki", "--trait", "chisei").code == 3
    # healed Kega, then three new ones: a new set, a new trauma
    assert ybs("ybs", "heal", "Aki", "--count", "3").code == 0
    assert ybs("ybs", "damage", "Aki", "--kega", "3").code == 0
    assert ybs("ybs", "trauma", "Aki", "--trait", "chisei").code == 0
    checked(ybs)


# -- damage says prostrate and life in danger ------------------------------------------------


def test_damage_text_says_prostrate_then_life_in_danger(ybs: Run) -> None:
    out = ybs("ybs", "damage", "Bo", "--uchimi", "4").out
    assert "Bo: prostrate" in out
    out = ybs("ybs", "damage", "Bo", "--kega", "5").out
    assert "Bo: life in danger" in out and "Bo: prostrate" not in out
    assert "Aki: prostrate" not in ybs("ybs", "damage", "Aki", "--uchimi", "1").out


def test_damage_text_says_it_in_french(ybs: Run) -> None:
    out = ybs("ybs", "damage", "Bo", "--uchimi", "4", "--lang", "fr").out
    assert "Bo : prostré" in out
    out = ybs("ybs", "damage", "Bo", "--kega", "5", "--lang", "fr").out
    assert "Bo : pronostic vital engagé" in out


def test_a_fight_round_says_who_lies_prostrate(ybs: Run) -> None:
    assert ybs("ybs", "damage", "Thug", "--uchimi", "4").code == 0
    args = ("--purpose", "attack", "--target", "Thug", "--dice", "5")
    assert ybs("ybs", "test", "Aki", "--trait", "choushi", *args).code == 0
    assert "Thug: prostrate" in ybs("ybs", "fight", "resolve").out


# -- the GM approves another trait for a fight test ------------------------------------------


def test_the_gm_approves_another_trait_for_an_attack(ybs: Run) -> None:
    attack = ("--purpose", "attack", "--target", "Thug", "--dice", "3")
    refused = ybs("ybs", "test", "Aki", "--trait", "kiyousa", *attack)
    assert refused.code == 3 and "--trait-approved" in refused.err
    doc = ybs("ybs", "test", "Aki", "--trait", "kiyousa", *attack, "--trait-approved", "--json")
    assert doc.code == 0, doc.err
    data = doc.json()
    assert (data["trait"], data["value"], data["modified"], data["success"]) == (
        "kiyousa",
        1,
        4,
        True,
    )
    assert "Aki → Thug: 1 Uchimi" in ybs("ybs", "fight", "resolve").out
    checked(ybs)


def test_an_approved_pair_of_traits_serves_a_defence(ybs: Run) -> None:
    args = ("--purpose", "defend", "--against", "Thug", "--dice", "4")
    both = ("--second-trait", "kiyousa", "--combine", "average")
    assert ybs("ybs", "test", "Bo", "--trait", "nintai", *both, *args).code == 3
    data = ybs("ybs", "test", "Bo", "--trait", "nintai", *both, *args, "--trait-approved", "--json")
    assert data.json()["value"] == 0  # (+1 + 0) // 2
    checked(ybs)


# -- gang fights and prostration; stars and a third +2 -----------------------------------------


def test_a_gang_fight_refuses_a_prostrate_fighter(ybs: Run) -> None:
    assert ybs("ybs", "damage", "Bo", "--uchimi", "4").code == 0
    before = log_length(ybs)
    result = ybs("ybs", "gang", "start", "--fighter", "Aki", "--fighter", "Bo")
    assert result.code == 3 and "Bo" in result.err and "prostrate" in result.err
    result = ybs("ybs", "gang", "start", "--fighter", "Aki", "--opponent", "Bo")
    assert result.code == 3 and "Bo" in result.err
    assert log_length(ybs) == before


def test_an_encounter_leaves_a_prostrate_character_out(ybs: Run) -> None:
    assert ybs("ybs", "damage", "Bo", "--uchimi", "4").code == 0
    result = ybs("ybs", "ichika", "--choice", "A=gang-fight", "--choice", "B=gang-fight")
    assert result.code == 0, result.err
    shown = result.out + result.err
    assert "Bo" in shown and "prostrate" in shown
    last = ybs("table", "log", "--json").json()[-1]
    assert last["payload"]["fighters"] == ["Aki"]


def test_a_star_towards_a_third_plus_two_warns_then_the_fifth_is_refused(run: Run) -> None:
    assert run("table", "new", "ybs", "--name", "evo", "--players", "A").code == 0
    create = ("--choushi", "2", "--kiyousa", "2", "--chisei", "1", "--player", "A")
    assert run("ybs", "character", "create", "Mika", *create).code == 0
    for _ in range(4):
        result = run("ybs", "star", "Mika", "--trait", "chisei")
        assert result.code == 0 and "Choushi, Kiyousa" in result.out + result.err
    before = log_length(run)
    result = run("ybs", "star", "Mika", "--trait", "chisei")
    assert result.code == 3 and "not recorded" in result.err
    assert log_length(run) == before
    assert sheet(run, "Mika")["stars"]["chisei"] == 4


# -- GM characters' criticals (option gm_criticals) --------------------------------------------


def test_a_gm_character_cannot_buy_a_critical_by_default(ybs: Run) -> None:
    assert ybs("ybs", "test", "Thug", "--trait", "choushi", "--dice", "6").code == 0
    result = ybs("ybs", "critical")
    assert result.code == 3 and "gm_criticals" in result.err


def test_with_gm_criticals_the_gm_bag_pays_and_a_critical_defence_cancels(ybs: Run) -> None:
    assert ybs("table", "options", "--set", "gm_criticals=true").code == 0
    attack = ("--purpose", "attack", "--target", "Thug", "--dice", "6")
    assert ybs("ybs", "test", "Aki", "--trait", "choushi", *attack).code == 0
    assert ybs("ybs", "critical").code == 0
    defence = ("--purpose", "defend", "--against", "Aki", "--dice", "6")
    assert ybs("ybs", "test", "Thug", "--trait", "choushi", *defence).code == 0
    doc = ybs("ybs", "critical", "--json").json()
    assert doc["critical_success"] is True
    assert doc["moves"] == [{"from": "gm", "to": "gm", "count": 1, "reason": "critical"}]
    assert doc["tokens"]["gm"] + doc["tokens"]["A"] + doc["tokens"]["B"] == 100
    assert "cancelled by the defence" in ybs("ybs", "fight", "resolve").out
    checked(ybs)


def test_odds_count_a_gm_critical_only_with_the_option(ybs: Run) -> None:
    off = ybs("ybs", "test", "Thug", "--trait", "choushi", "--dice", "3", "--odds", "--json")
    assert off.json()["odds"]["critical"] == "0/1"
    assert ybs("table", "options", "--set", "gm_criticals=true").code == 0
    on = ybs("ybs", "test", "Thug", "--trait", "choushi", "--dice", "3", "--odds", "--json")
    assert on.json()["odds"]["critical"] == "1/6"


# -- Foundry VTT actors (remedywu/yuigahama) --------------------------------------------------


def actor(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FOUNDRY / f"fvtt-Actor-{name}.json").read_text("utf-8"))
    return data


def write(tmp_path: Path, data: Any, name: str = "actor.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_a_foundry_actor_is_imported_for_a_player(ybs: Run) -> None:
    held = ybs("ybs", "tokens", "--json").json()["tokens"]
    result = ybs(
        "ybs", "character", "import", str(FOUNDRY / "fvtt-Actor-haruka.json"), "--player", "A"
    )
    assert result.code == 0, result.err
    assert "Haruka" in result.out
    assert "1 empty box" in result.out + result.err  # five drawn, four hit points
    assert "Planche de surf" in result.out + result.err  # an object: not imported, said so
    haruka = sheet(ybs, "Haruka")
    assert haruka["owner"] == "A"
    assert haruka["traits"] == {
        "choushi": 0,
        "kiyousa": 1,
        "chisei": -1,
        "yuuben": 1,
        "chikaku": 0,
        "nintai": 0,
    }
    assert haruka["stars"] == {
        "choushi": 2,
        "kiyousa": 0,
        "chisei": 0,
        "yuuben": 4,
        "chikaku": 1,
        "nintai": 0,
    }
    assert (haruka["hit_points"], haruka["uchimi"], haruka["kega"]) == (4, 1, 1)
    assert haruka["attributes"] == ["Naminori", "Furyō"]
    tokens = ybs("ybs", "tokens", "--json").json()["tokens"]
    assert tokens["A"] == held["A"] + 3 and tokens["gm"] == held["gm"] - 3
    checked(ybs)


def test_a_foundry_npc_without_a_player_is_a_gm_character(ybs: Run) -> None:
    result = ybs("ybs", "character", "import", str(FOUNDRY / "fvtt-Actor-okabe.json"))
    assert result.code == 0, result.err
    okabe = sheet(ybs, "Okabe")
    assert okabe["owner"] is None and okabe["hit_points"] == 6 and okabe["uchimi"] == 0
    checked(ybs)


def _edit(path: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(actor("haruka"))
    *parents, last = path.split(".")
    node: Any = data
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("system.life.values", [0, 1, 0, 0, 2], "system.life.values[4]"),
        ("system.life.values.1", 3, "system.life.values[1]"),
        ("system.traits.choushi.value", 3, "system.traits.choushi.value"),
        ("system.traits.yuuben.evo", 100, "system.traits.yuuben.evo"),
        ("system.traits.yuuben.evo", 30, "system.traits.yuuben.evo"),
        ("system.token.value", -1, "system.token.value"),
        ("type", "vehicule", "type"),
        ("system.traits.chance", {"value": 1, "evo": 0}, "system.traits.chance"),
    ],
)
def test_a_foundry_field_that_cannot_map_is_refused_by_name(
    ybs: Run, tmp_path: Path, path: str, value: Any, field: str
) -> None:
    before = log_length(ybs)
    result = ybs("ybs", "character", "import", write(tmp_path, _edit(path, value)), "--player", "A")
    assert result.code == 2, result.out
    assert field in result.err
    assert log_length(ybs) == before


def test_a_foundry_actor_with_tokens_needs_its_player(ybs: Run, tmp_path: Path) -> None:
    result = ybs("ybs", "character", "import", str(FOUNDRY / "fvtt-Actor-haruka.json"))
    assert result.code == 2 and "system.token.value" in result.err and "--player" in result.err


def test_a_foundry_actor_without_its_traits_is_refused(ybs: Run, tmp_path: Path) -> None:
    data = actor("haruka")
    del data["system"]["traits"]["nintai"]
    result = ybs("ybs", "character", "import", write(tmp_path, data), "--player", "A")
    assert result.code == 2 and "system.traits.nintai" in result.err


def test_a_list_of_foundry_actors_is_imported_all_or_none(ybs: Run, tmp_path: Path) -> None:
    bad = _edit("system.traits.choushi.value", 9)
    bad["name"] = "Zed"
    before = log_length(ybs)
    path = write(tmp_path, [actor("okabe"), bad])
    result = ybs("ybs", "character", "import", path, "--player", "A")
    assert result.code == 2 and log_length(ybs) == before
    path = write(tmp_path, [actor("okabe"), actor("haruka")], "both.json")
    assert ybs("ybs", "character", "import", path, "--player", "A").code == 0
    assert sheet(ybs, "Okabe")["owner"] == "A" and sheet(ybs, "Haruka")["owner"] == "A"


def test_a_native_sheet_takes_the_player_and_tokens_too(ybs: Run, tmp_path: Path) -> None:
    path = tmp_path / "rin.toml"
    path.write_text('name = "Rin"\ntokens = 2\n[traits]\nchoushi = 1\n', encoding="utf-8")
    assert ybs("ybs", "character", "import", str(path), "--player", "B").code == 0
    assert sheet(ybs, "Rin")["owner"] == "B"
    assert ybs("ybs", "tokens", "--json").json()["tokens"]["B"] == 4
    checked(ybs)
