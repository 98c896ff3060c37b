"""The agents game's worked examples (tests/oracle/agents/examples.toml), through the rules.

Challenge examples are played through the table decisions (`decide_*`), folded again by
`evolve`, and compared with the expected reserves, scores and outcomes.
"""

import tomllib
from pathlib import Path

import pytest

from tablee.dice import TypedFaces, roll
from tablee.errors import InputError
from tablee.systems.agents import (
    ACTION,
    ActionRoll,
    Reserve,
    Standing,
    create_agent,
    decide_action,
    decide_agent,
    decide_challenge,
    declared_modifier,
    evolve,
    initial_state,
    opposition_score,
    resolve_action,
)

ORACLE = Path(__file__).parents[2] / "oracle" / "agents" / "examples.toml"
EXAMPLES = tomllib.loads(ORACLE.read_text(encoding="utf-8"))["example"]


def _by_kind(kind):
    return [pytest.param(e, id=e["id"]) for e in EXAMPLES if e["kind"] == kind]


def _team(agents):
    state = initial_state({"players": []})
    facts = []
    for name, (m, s, i) in agents.items():
        decision = decide_agent(state, name=name, muscles=m, sexe=s, intelligence=i)
        state = decision.after
        facts += decision.facts
    return state, facts


def _refold(facts):
    state = initial_state({"players": []})
    for fact in facts:
        state = evolve(state, fact.kind, fact.payload)
    return state


def test_every_ruling_example_is_in_the_oracle():
    ids = {e["id"] for e in EXAMPLES}
    assert {"G-T1", "G-T2", "G-T3", "G-T4"} <= ids


@pytest.mark.parametrize("example", _by_kind("challenge"))
def test_challenge_examples(example):
    inputs, expected = example["inputs"], example["expected"]
    state, facts = _team(inputs["agents"])
    for spec in inputs["challenges"]:
        decision = decide_challenge(
            state,
            kind=spec["kind"],
            agents=spec["agents"],
            oppositions=[(n, s) for n, s in spec["oppositions"]],
        )
        state, facts = decision.after, facts + list(decision.facts)
    counts = [len(state.challenges[n + 1].oppositions) for n in range(len(inputs["challenges"]))]
    assert counts == expected["oppositions"]
    for action in inputs["actions"]:
        decision = decide_action(
            state,
            challenge=action["challenge"],
            agent=action["agent"],
            modifiers=action["modifiers"],
            face=action["face"],
            target=action.get("target"),
        )
        state, facts = decision.after, facts + list(decision.facts)
    for folded in (state, _refold(facts)):
        for name, values in expected.get("reserves", {}).items():
            assert list(folded.agents[name].current) == values, name
        for number, scores in enumerate(expected.get("scores", []), start=1):
            assert [o.score for o in folded.challenges[number].oppositions] == scores
        outcomes = [folded.challenges[n].outcome or "" for n in sorted(folded.challenges)]
        assert outcomes == expected["outcomes"]
        for name, numbers in expected.get("out", {}).items():
            for number in numbers:
                assert folded.challenges[number].standing[name] is Standing.OUT


@pytest.mark.parametrize("example", _by_kind("split"))
def test_split_examples(example):
    inputs, expected = example["inputs"], example["expected"]
    state, _ = _team(inputs["agents"])
    for group, face, score in zip(inputs["groups"], inputs["d6"], expected["scores"], strict=True):
        assert opposition_score(inputs["progress"], face, len(group["agents"])) == score
        state = decide_challenge(
            state, kind=group["kind"], agents=group["agents"], oppositions=[("them", score)]
        ).after
    assert [len(c.agents) for c in state.challenges.values()] == expected["involved"]
    assert [c.oppositions[0].score for c in state.challenges.values()] == expected["scores"]
    everyone = [a for c in state.challenges.values() for a in c.agents]
    assert len(everyone) == len(set(everyone)) == len(inputs["agents"])


@pytest.mark.parametrize("example", _by_kind("action"))
def test_action_examples(example):
    inputs, expected = example["inputs"], example["expected"]
    direct = resolve_action(ActionRoll(inputs["modifier"]), [inputs["face"]])
    source = TypedFaces([inputs["face"]])
    driven = roll(ACTION, ActionRoll(inputs["modifier"]), source)
    source.finish()
    for result in (direct, driven):
        assert result.total == expected["total"]
        assert result.result.value == expected["outcome"]
        assert result.trace


@pytest.mark.parametrize("example", _by_kind("creation"))
def test_creation_examples(example):
    inputs = example["inputs"]
    if example["expected"]["valid"]:
        agent = create_agent("X", **inputs)
        assert agent.sang == 3
        assert agent.current == agent.starting
    else:
        with pytest.raises(InputError, match="G-M1"):
            create_agent("X", **inputs)


@pytest.mark.parametrize("example", _by_kind("checklist"))
def test_checklist_examples(example):
    inputs, expected = example["inputs"], example["expected"]
    kind = Reserve(inputs["kind"])
    if "error" in expected:
        with pytest.raises(InputError):
            declared_modifier(kind, inputs["modifiers"])
    else:
        assert declared_modifier(kind, inputs["modifiers"])[1] == expected["total"]
