"""The gang fight simulated in the lab: replay, exact figures covered, policies, faces."""

from __future__ import annotations

import pytest

from tablee.errors import InputError
from tablee.lab import question_named
from tablee.lab.questions import LabContext
from tablee.lab.results import Estimate
from tablee.lab.sim_ybs import GangFightSim, keep_best, kept_by
from tablee.systems.ybs.gang_odds import gang_fight_odds
from tablee.systems.ybs.race import race_start_odds


def _near(estimate: Estimate, exact: object) -> bool:
    """Whether ``exact`` is within 3.29 standard errors of a proportion's estimate.

    The 95% interval misses the exact figure one time in twenty, and a test checks several
    figures: a 99.9% band keeps a fixed seed from failing by chance when the rules or the
    order of the draws change, and still catches a wrong rule.
    """
    p = float(exact)  # type: ignore[arg-type]
    return abs(estimate.value - p) <= 3.29 * (p * (1 - p) / estimate.trials) ** 0.5


def _stop(done: int, total: int) -> None:
    raise KeyboardInterrupt


def test_registered_and_simulated() -> None:
    question = question_named("ybs", "gang")
    assert question is GangFightSim and question.simulated


def test_keep_best_keeps_the_longest_run_highest_on_ties() -> None:
    assert keep_best((1, 2, 2, 5, 6)) == (5, 6)
    assert keep_best((2, 3, 3, 4, 6)) == (2, 3, 4)
    assert keep_best((1, 1, 3, 5, 5)) == (5,)
    assert kept_by("keep_none", (1, 2, 2, 5, 6)) == ()
    with pytest.raises(InputError):
        kept_by("lucky", (1, 2, 2, 5, 6))


def test_the_same_seed_replays_with_one_or_two_workers() -> None:
    question = GangFightSim(trials=300, seed=11)
    one = question.answer(LabContext(workers=1))
    two = question.answer(LabContext(workers=2))
    assert one.rows == two.rows
    assert one.seed == 11 and one.inputs["seed"] == 11 and one.trials == 300
    assert GangFightSim(trials=300, seed=12).answer(LabContext()).rows != one.rows


@pytest.mark.slow
def test_the_intervals_cover_the_exact_race_of_the_advisor() -> None:
    result = GangFightSim(players_dice=5, gm_side_dice=4, gm_keep="advised", trials=4000).answer(
        LabContext()
    )
    odds = gang_fight_odds(5, 4)
    advised = next(r for r in result.rows if r["players_keep"] == "advised")
    for key, exact in (("p_win", odds.win), ("p_draw", odds.draw), ("p_loss", odds.loss)):
        estimate = advised[key]
        assert isinstance(estimate, Estimate)
        assert estimate.exact == exact
        assert _near(estimate, exact), key
    throws = advised["throws"]
    assert isinstance(throws, Estimate) and throws.exact == odds.expected_throws
    half = (throws.high - throws.low) / 2  # 1.96 standard errors
    assert abs(throws.value - float(odds.expected_throws)) <= half * 3.29 / 1.96
    other = next(r for r in result.rows if r["players_keep"] == "keep_none")
    assert isinstance(other["p_win"], Estimate) and other["p_win"].exact is None
    # rerolling everything wastes the dice kept: it wins less often than the advisor
    assert other["p_win"].high < advised["p_win"].low  # type: ignore[union-attr]


def test_every_policy_is_listed() -> None:
    result = GangFightSim(trials=50, gm_keep="keep_best").answer(LabContext())
    names = [p.name for p in result.policies]
    assert names == [
        "players:race",
        "players:advised",
        "players:keep_best",
        "players:keep_none",
        "gm:keep_best",
    ]
    assert not result.exact and all(p.label for p in result.policies)


def test_no_exact_figure_from_faces_or_another_gm_policy() -> None:
    for question in (
        GangFightSim(trials=20, gm_keep="keep_none"),
        GangFightSim(trials=20, players_faces="1,1,2,5,6", gm_faces="1,3,3,4,6"),
        GangFightSim(players_dice=7, gm_keep="advised", trials=20),
    ):
        row = question.answer(LabContext()).rows[0]
        assert isinstance(row["p_win"], Estimate) and row["p_win"].exact is None


def test_faces_in_front_of_both_sides_or_neither() -> None:
    with pytest.raises(InputError):
        GangFightSim(players_faces="1,1,2,5,6").answer(LabContext())
    with pytest.raises(InputError, match="straight"):
        GangFightSim(players_faces="1,2,3,4,6", gm_faces="1,1,2,5,6").answer(LabContext())
    with pytest.raises(InputError):
        GangFightSim(players_faces="1,2,6", gm_faces="1,1,2,5,6").answer(LabContext())


def test_a_stopped_run_keeps_its_first_chunk() -> None:
    result = GangFightSim(trials=640).answer(LabContext(progress=_stop))
    assert result.stopped and result.trials == 20
    row = result.rows[0]
    assert isinstance(row["p_win"], Estimate) and row["p_win"].trials == 20


def test_every_simulation_is_built_from_text_and_refuses_a_bad_policy() -> None:
    from tablee.systems.declare import build_command

    for game, name, policy in (
        ("ybs", "gang", "gm_keep"),
        ("pouyss", "economy", "gm_malus"),
        ("shs", "film", "failure"),
        ("agents", "adventure", "contest"),
    ):
        question = build_command(question_named(game, name), {"trials": "7", "seed": "3"})
        assert (question.trials, question.seed) == (7, 3)  # type: ignore[attr-defined]
        with pytest.raises(InputError):
            build_command(question_named(game, name), {policy: "whimsical"})
        with pytest.raises(InputError):
            build_command(question_named(game, name), {"trials": "0"})


@pytest.mark.slow
@pytest.mark.parametrize(("players", "gm", "higher"), [(5, 5, True), (4, 5, False)])
def test_the_intervals_cover_the_exact_race_when_both_sides_follow_the_race_advice(
    players: int, gm: int, higher: bool
) -> None:
    question = GangFightSim(
        players_dice=players, gm_side_dice=gm, higher_straight_wins=higher, trials=4000
    )
    odds = race_start_odds(players, gm, higher_straight_wins=higher)
    assert odds.equilibrium
    race = next(r for r in question.answer(LabContext()).rows if r["players_keep"] == "race")
    for key, exact in (("p_win", odds.win), ("p_draw", odds.draw), ("p_loss", odds.loss)):
        estimate = race[key]
        assert isinstance(estimate, Estimate) and estimate.exact == exact
        assert _near(estimate, exact), key


def test_the_race_policy_needs_four_to_six_dice_a_side() -> None:
    with pytest.raises(InputError, match="4 to 6 dice"):
        GangFightSim(players_dice=7, trials=20).answer(LabContext())
    rows = GangFightSim(players_dice=7, gm_keep="advised", trials=20).answer(LabContext()).rows
    assert [r["players_keep"] for r in rows] == ["advised", "keep_best", "keep_none"]
    # the race policy reads both hands: a hand keeps differently against other faces
    assert kept_by("race", (1, 2, 3, 5, 6), (1, 1, 3, 4, 5)) == (3, 5, 6)
