"""Whole agents adventures simulated in the lab: replay, policies, variants, Ctrl+C."""

from __future__ import annotations

import pytest

from tablee.dice import SeededSource, SourceChance
from tablee.errors import InputError
from tablee.lab import question_named
from tablee.lab.questions import LabContext
from tablee.lab.results import Estimate
from tablee.lab.sim_agents import VARIANTS, Adventure, AdventurePolicies, play_adventure
from tablee.systems.agents.options import AgentsOptions
from tablee.systems.agents.quest import QuestStatus


def _value(cell: object) -> float:
    assert isinstance(cell, Estimate)
    return cell.value


def test_registered_and_simulated() -> None:
    assert question_named("agents", "adventure") is Adventure and Adventure.simulated


def test_an_adventure_plays_to_its_end_with_the_rules() -> None:
    question = Adventure()
    start = question.table(3, AgentsOptions())
    assert [a.current for a in start.agents.values()] == [(7, 5, 3), (5, 3, 7), (3, 7, 5)]
    played = play_adventure(start, AdventurePolicies(), SourceChance(SeededSource(4)))
    quest = played.state.quest
    assert quest is not None and quest.status is not QuestStatus.ONGOING
    assert played.scenes >= 1
    assert (played.favori is not None) == (quest.status is QuestStatus.WON)


def test_a_quest_given_up_after_one_scene() -> None:
    start = Adventure().table(2, AgentsOptions())
    for seed in range(5):
        played = play_adventure(
            start, AdventurePolicies(max_scenes=1), SourceChance(SeededSource(seed))
        )
        assert played.scenes <= 1
        assert played.state.quest is not None
        assert played.state.quest.status in (QuestStatus.ABANDONED, QuestStatus.FAILED)


def test_the_same_seed_replays_with_one_or_two_workers() -> None:
    question = Adventure(min_agents=2, max_agents=2, trials=8, seed=3)
    assert (
        question.answer(LabContext(workers=1)).rows == question.answer(LabContext(workers=2)).rows
    )


@pytest.mark.slow
def test_every_row_adds_up() -> None:
    result = Adventure(
        min_agents=2, max_agents=3, contest="everyone", concession="when_low", trials=24
    ).answer(LabContext())
    assert {r["variant"] for r in result.rows} == {v.name for v in VARIANTS}
    for row in result.rows:
        ends = _value(row["p_won"]) + _value(row["p_failed"]) + _value(row["p_abandoned"])
        assert ends == pytest.approx(1)
        if _value(row["p_won"]) > 0:
            seats = [row[f"favori_{s}"] for s in range(1, 4)]
            assert sum(_value(c) for c in seats if c is not None) == pytest.approx(1)
        if row["agents"] == 2:
            assert row["favori_3"] is None


def test_policies_and_variants_are_listed() -> None:
    result = Adventure(min_agents=1, max_agents=1, trials=2).answer(LabContext())
    names = [p.name for p in result.policies]
    assert names[0] == "creation:rotate" and "contest:nobody" in names and "winner:rule" in names
    assert result.variants == VARIANTS and len(result.rows) == len(VARIANTS)
    assert result.inputs["seed"] == 1 and result.seed == 1


def test_agents_out_of_order_are_refused() -> None:
    with pytest.raises(InputError):
        Adventure(min_agents=4, max_agents=2).answer(LabContext())


def test_a_stopped_run_keeps_its_first_chunk() -> None:
    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    result = Adventure(min_agents=2, max_agents=2, trials=64).answer(LabContext(progress=stop))
    assert result.stopped and result.trials == 2


def test_an_action_played_by_the_lab_leaves_the_state_play_leaves() -> None:
    from tablee.lab.sim_agents import _decided
    from tablee.systems.agents.commands import Act, Draw, Generate, NextScene, Quest
    from tablee.systems.agents.decide import decide
    from tablee.systems.agents.flow import StepKind, next_step

    state = Adventure().table(3, AgentsOptions())
    chance = SourceChance(SeededSource(2))
    state = decide(state, Quest(starter="en"), chance).after
    compared = 0
    for seed in range(40):
        step = next_step(state)
        if step.kind is StepKind.ACT:
            act = Act(challenge=step.challenge, agent=step.agent)
            lab = _decided(state, act, SourceChance(SeededSource(seed)))
            assert lab == decide(state, act, SourceChance(SeededSource(seed))).after
            state, compared = lab, compared + 1
        elif step.kind is StepKind.DRAW:
            state = _decided(state, Draw(kind="environments"), chance)
        elif step.kind is StepKind.START_SCENE:
            state = decide(state, NextScene(), chance).after
        elif step.kind is StepKind.GENERATE:
            state = decide(state, Generate(), chance).after
        else:
            break
    assert compared >= 3
