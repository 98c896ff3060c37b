"""``tablee ybs gang ...``, ``tablee ybs ichika`` and the gang-fight odds at the command line."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.cli.conftest import Run, log_length


@pytest.fixture
def gang(run: Run) -> Run:
    """A YBS table with Aki (A, 3 hit points), Bo (B) and a GM character."""
    assert run("table", "new", "ybs", "--name", "club", "--players", "A,B").code == 0
    for args in (("Aki", "--choushi", "-1", "--player", "A"), ("Bo", "--player", "B"), ("Thug",)):
        assert run("ybs", "character", "create", *args).code == 0
    return run


def test_a_gang_fight_throw_by_throw_with_advice(gang: Run) -> None:
    doc = gang(
        "ybs",
        "gang",
        "start",
        "--fighter",
        "Aki",
        "--fighter",
        "Bo",
        "--opponent",
        "Thug",
        "--outnumbered",
        "gm",
        "--json",
    ).json()
    assert (doc["players_dice"], doc["gm_dice"]) == (5, 4)
    doc = gang(
        "ybs", "gang", "throw", "--faces", "1,1,2,6,6", "--gm-faces", "1,2,2,6", "--json"
    ).json()
    assert doc["winner"] is None and doc["hand"] == [1, 1, 2, 6, 6]
    best = doc["advice"]["players"][0]
    assert set(best) == {
        "keep",
        "reroll",
        "win",
        "tie",
        "loss",
        "score",
        "straight_next_throw",
        "expected_throws",
    }
    assert "/" in best["straight_next_throw"] and "/" in best["win"]
    chances = [Fraction(c["score"]) for c in doc["advice"]["players"]]
    assert chances == sorted(chances, reverse=True)  # the best chance to win the race first
    before = log_length(gang)
    bad = gang("ybs", "gang", "throw", "--keep", "5", "--seed", "1")
    assert bad.code == 2 and "its dice show" in bad.err and log_length(gang) == before
    text = gang("ybs", "gang", "advise").out
    assert "Keep choices for the players" in text and "win" in text and "tie" in text
    advised = gang("ybs", "gang", "advise", "--json").json()
    assert advised["opponent"] == "race" and set(advised["equilibrium"]) == {"players", "gm"}
    assert advised["advice"]["players"] == doc["advice"]["players"]
    for side in ("players", "gm"):
        for choice in advised["advice"][side]:
            assert sum(Fraction(choice[k]) for k in ("win", "tie", "loss")) == 1
    # 5 dice against 4 with the higher straight winning finds no pure equilibrium (Y-X9)
    assert advised["equilibrium"] == {"players": False, "gm": False}
    doc = gang(
        "ybs",
        "gang",
        "throw",
        "--keep",
        "1,2",
        "--gm-keep",
        "none",
        "--faces",
        "3,4,5",
        "--gm-faces",
        "1,1,1,1",
        "--json",
    ).json()
    assert doc["winner"] == "players" and doc["minutes"] == 1
    damage = {d["character"]: (d["uchimi"], d["kega"]) for d in doc["damage"]}
    assert damage == {"Aki": (1, 0), "Bo": (1, 0), "Thug": (3, 0)}


def test_advised_throws_with_a_seed_run_to_the_end(gang: Run) -> None:
    assert gang("ybs", "gang", "start", "--fighter", "Bo").code == 0
    for _ in range(60):
        doc = gang("ybs", "gang", "throw", "--seed", "5", "--json").json()
        if doc["winner"] is not None or doc["draw"]:
            break
    else:
        raise AssertionError("the fight never ended")
    assert gang("ybs", "gang", "advise", "--json").json()["gang_fight"] is None


def test_ichika_bachika_from_the_command_line(gang: Run) -> None:
    doc = gang(
        "ybs",
        "ichika",
        "--choice",
        "A=ichika_bachika",
        "--choice",
        "B=flee",
        "--faces",
        "1,1,2,3,4",
        "--gm-faces",
        "5,5,5,1,2",
        "--json",
    ).json()
    assert doc["kind"] == "ichika_bachika" and doc["winner"] == "gm"
    damage = {d["character"]: (d["uchimi"], d["kega"]) for d in doc["damage"]}
    assert damage == {"Aki": (3, 1), "Bo": (4, 0)}
    assert gang("ybs", "rest", "Aki", "--minutes", "30").code == 0  # no longer prostrate
    doc = gang("ybs", "ichika", "--choice", "A=gang-fight", "--choice", "B=flee", "--json").json()
    assert doc["kind"] == "gang_fight" and doc["gang"]["fighters"] == ["Aki"]
    before = log_length(gang)
    bad = gang("ybs", "ichika", "--choice", "A=dance")
    assert bad.code == 2 and "dance" in bad.err and log_length(gang) == before


def test_gang_and_ichika_odds_in_exact_fractions(run: Run) -> None:
    assert run("odds", "ybs", "straight", "--dice", "5", "--json").json()["probability"] == "25/162"
    doc = run("odds", "ybs", "gang-fight", "--dice", "5", "--against", "5", "--json").json()
    assert doc["win"] == doc["loss"] and set(doc) >= {"win", "tie", "loss"}
    doc = run("odds", "ybs", "ichika", "--json").json()
    assert (doc["win"], doc["tie"]) == ("4777085/10077696", "261763/5038848")
    assert run("odds", "ybs", "gang-fight", "--dice", "3", "--against", "5").code == 2


@pytest.mark.slow
def test_gang_fight_odds_for_two_hands(run: Run) -> None:
    argv = ("odds", "ybs", "gang-fight", "--ours", "1,2,3,5,6", "--theirs", "1,1,3,4,5")
    doc = run(*argv, "--opponent", "advisor", "--json").json()
    assert doc["opponent"] == "advisor" and doc["equilibrium"] is True
    assert doc["their_keep"] == [3, 4, 5]  # the advisor keeps its three in a row
    assert doc["best"] == {k: doc["choices"][0][k] for k in doc["best"]}
    for choice in doc["choices"]:
        parts = [Fraction(choice[k]) for k in ("win", "tie", "loss")]
        assert sum(parts) == 1
        assert choice["percent"]["win"] == round(float(parts[0]) * 100, 2)
    assert len(doc["choices"]) == 32  # five different faces: every subset
    text = run(*argv).out
    assert "race-optimal" in text and "Best chance to win: keep" in text
    assert run(*argv[:-2]).code == 2  # --ours without --theirs
    assert run(*argv, "--dice", "5").code == 2
    assert run("odds", "ybs", "gang-fight", "--ours", "1,2,3,4", "--theirs", "1,2,2,5").code != 0
