"""The lab's adventures skip the events only: the same states as the typed, recorded path.

`decide(..., typed=False)` keeps the rules' own state after, and `play_course` plays a
challenge's actions on one `Course`; played again through the typed events folded back,
each action a typed `Act` command decided and folded on its own, the same seeded
adventures end in equal states, scene for scene.
"""

from __future__ import annotations

from typing import Any

import pytest

import tablee.lab.sim_agents as sim
from tablee.dice import SeededSource, SourceChance
from tablee.systems.agents.commands import Act
from tablee.systems.agents.decide import decide
from tablee.systems.agents.options import AgentsOptions


def _typed(state: Any, command: Any, chance: Any, **_: Any) -> Any:
    made = decide(state, command, chance)
    assert made.events  # the typed path gives the events the lab skips
    return made


def _one_by_one(state: Any, *, challenge: int, chance: Any) -> Any:
    """The challenge's actions as typed `Act` commands, each decided and folded alone."""
    while state.challenges[challenge].is_open:
        made = decide(state, Act(challenge=challenge), chance)
        assert [e.kind for e in made.events] == ["agents.action"]
        state = made.after
    return state


@pytest.mark.parametrize(
    ("size", "settings"),
    [
        (2, {}),
        (3, {"contest": "everyone", "concession": "when_low", "recovery": "recover"}),
    ],
)
def test_lean_and_typed_adventures_end_alike(
    monkeypatch: pytest.MonkeyPatch, size: int, settings: dict[str, str]
) -> None:
    question = sim.Adventure(**settings)  # type: ignore[arg-type]
    start = question.table(size, AgentsOptions())
    policies = question.adventure_policies()
    lean = [sim.play_adventure(start, policies, SourceChance(SeededSource(s))) for s in range(6)]
    monkeypatch.setattr(sim, "decide", _typed)
    monkeypatch.setattr(sim, "play_course", _one_by_one)
    typed = [sim.play_adventure(start, policies, SourceChance(SeededSource(s))) for s in range(6)]
    assert lean == typed
    assert {p.state.quest.status for p in lean if p.state.quest is not None} != set()


@pytest.mark.parametrize("variant", sim.VARIANTS, ids=lambda v: v.name)
def test_the_lean_record_and_the_stored_states_end_alike(variant: Any) -> None:
    """`play_lean` ends as `play_adventure` does, having thrown the very same dice."""
    question = sim.Adventure(max_scenes=12)
    policies = question.adventure_policies()
    assert sim.lean(policies)
    ends: dict[str, int] = {}
    for size in range(1, 7):
        start = question.table(size, AgentsOptions(**variant.options))
        for seed in range(40):
            quick, slow = SeededSource(seed), SeededSource(seed)
            lean = sim.play_lean(start, policies, SourceChance(quick))
            stored = sim.ending_of(start, sim.play_adventure(start, policies, SourceChance(slow)))
            assert lean == stored, (size, seed)
            assert quick.below(1 << 30) == slow.below(1 << 30), (size, seed)  # same dice
            ends[lean.status.value] = ends.get(lean.status.value, 0) + 1
    assert len(ends) >= 2, ends  # the seeds reach more than one end


def test_other_policies_are_played_on_the_stored_states() -> None:
    question = sim.Adventure(contest="everyone")
    assert not sim.lean(question.adventure_policies())
    assert not sim.lean(sim.Adventure(concession="when_low").adventure_policies())
    assert not sim.lean(sim.Adventure(recovery="recover").adventure_policies())
