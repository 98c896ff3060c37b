"""The cagnotte's economy simulated in the lab: replay, exact figures, policies, Ctrl+C."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tablee.errors import InputError
from tablee.lab import question_named
from tablee.lab.questions import LabContext
from tablee.lab.results import Estimate, LabResult
from tablee.lab.sim_pouyss import CagnotteEconomy, bonus_asked


def _row(result: LabResult, policy: str, players: int) -> dict[str, object]:
    return dict(next(r for r in result.rows if r["policy"] == policy and r["players"] == players))


def test_registered_and_simulated() -> None:
    assert question_named("pouyss", "economy") is CagnotteEconomy
    assert CagnotteEconomy.simulated


def test_bonus_policies_never_ask_more_than_the_cagnotte() -> None:
    assert [bonus_asked("greedy", c, 1, 3) for c in range(5)] == [0, 1, 2, 3, 3]
    assert [bonus_asked("cautious", c, 3, 3) for c in range(5)] == [0, 0, 0, 1, 1]
    assert bonus_asked("never", 9, 1, 3) == 0
    with pytest.raises(InputError):
        bonus_asked("lavish", 3, 1, 3)


def test_the_same_seed_replays_with_one_or_two_workers() -> None:
    question = CagnotteEconomy(min_players=2, max_players=3, rolls=4, trials=64, seed=5)
    assert (
        question.answer(LabContext(workers=1)).rows == question.answer(LabContext(workers=2)).rows
    )


def test_without_malus_the_cagnotte_follows_the_rules_exactly() -> None:
    # no malus die ever: the cagnotte starts at one die per player (P-M5) and only bonus dice
    # move it; a greedy player who asks for more than it holds takes it all on the first roll
    result = CagnotteEconomy(
        min_players=3, max_players=3, rolls=2, gm_malus="none", greedy_most=5, trials=40
    ).answer(LabContext())
    never, greedy = _row(result, "never", 3), _row(result, "greedy", 3)
    assert never["start"] == 3
    end, empty = never["end_mean"], never["p_empty_roll"]
    assert isinstance(end, Estimate) and (end.value, end.low, end.high) == (3, 3, 3)
    assert isinstance(empty, Estimate) and empty.value == 0
    share = greedy["p_empty_roll"]
    assert isinstance(share, Estimate) and share.value == pytest.approx(5 / 6)  # 5 rolls of 6
    dry = greedy["p_session_empty"]
    assert isinstance(dry, Estimate) and dry.value == 1


def test_the_success_of_rolls_without_bonus_covers_the_exact_chance() -> None:
    question = CagnotteEconomy(min_players=4, max_players=4, rolls=5, gm_malus="half", trials=400)
    # no bonus: 1/2 of the rolls throw 1 die (1/2 succeed), 1/2 throw 2 and keep the lower
    # (1/4 succeed): 3/8
    assert question.never_success() == Fraction(3, 8)
    success = _row(question.answer(LabContext()), "never", 4)["p_success"]
    assert isinstance(success, Estimate)
    assert success.exact == Fraction(3, 8) and success.covers(Fraction(3, 8))


def test_policies_and_inputs_are_recorded() -> None:
    result = CagnotteEconomy(min_players=2, max_players=2, rolls=2, trials=10).answer(LabContext())
    assert [p.name for p in result.policies] == ["never", "cautious", "greedy", "gm:third"]
    assert result.policies[1].settings == {"cautious_from": 3}
    assert result.seed == 1 and result.inputs["gm_malus"] == "third" and not result.exact


def test_players_out_of_order_are_refused() -> None:
    with pytest.raises(InputError):
        CagnotteEconomy(min_players=5, max_players=3).answer(LabContext())


def test_a_stopped_run_keeps_its_first_chunk() -> None:
    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    result = CagnotteEconomy(max_players=3, rolls=3, trials=320).answer(LabContext(progress=stop))
    assert result.stopped and result.trials == 10
