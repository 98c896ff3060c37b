"""The lab's adventures skip the events only: the same states as the typed, recorded path.

`decide(..., typed=False)` and `decide_action(..., record=False)` keep the rules' own
state after; played again through the typed events folded back and the recorded action
facts, the same seeded adventures end in equal states, scene for scene.
"""

from __future__ import annotations

from typing import Any

import pytest

import tablee.lab.sim_agents as sim
from tablee.dice import SeededSource, SourceChance
from tablee.systems.agents.decide import decide
from tablee.systems.agents.game import decide_action
from tablee.systems.agents.options import AgentsOptions


def _typed(state: Any, command: Any, chance: Any, **_: Any) -> Any:
    made = decide(state, command, chance)
    assert made.events  # the typed path gives the events the lab skips
    return made


def _recorded(state: Any, **kw: Any) -> Any:
    kw.pop("record", None)
    made = decide_action(state, **kw)
    assert len(made.facts) == 1
    return made


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
    monkeypatch.setattr(sim, "decide_action", _recorded)
    typed = [sim.play_adventure(start, policies, SourceChance(SeededSource(s))) for s in range(6)]
    assert lean == typed
    assert {p.state.quest.status for p in lean if p.state.quest is not None} != set()
