"""The text's worked examples (tests/oracle/pouyss/examples.toml), replayed through the rules.

Each example is resolved three ways: the pure resolver, the dice driver with typed-in faces,
and a table decision by the plugin (`POUYSS.decide`) whose event is folded with `evolve` and
decided again by `verify` (which also checks the cagnotte move).
"""

import tomllib
from pathlib import Path

import pytest

from tablee.dice import SourceChance, TypedFaces, roll
from tablee.systems.pouyss import (
    ACTION,
    OPPOSED,
    ActionRoll,
    OpposedRoll,
    initial_state,
    resolve_action_roll,
    resolve_opposed_roll,
)
from tablee.systems.pouyss.commands import Opposed, Roll, StartSession
from tablee.systems.pouyss.plugin import POUYSS

ORACLE = Path(__file__).parents[2] / "oracle" / "pouyss" / "examples.toml"
EXAMPLES = tomllib.loads(ORACLE.read_text(encoding="utf-8"))["example"]
START = 10  # enough dice in the cagnotte for every example's bonus


def _decide(state, command, faces=()):
    source = TypedFaces(faces)
    decision = POUYSS.decide(state, command, SourceChance(source))
    source.finish()
    return decision


def _fold(state, decision):
    for fact in POUYSS.facts(decision):
        state = POUYSS.evolve(state, fact.kind, fact.payload)
    return state


def _table():
    state = initial_state({"players": ["Simon", "Alice"]})
    return _fold(state, _decide(state, StartSession(cagnotte=START)))


def _check_roll(result, expected):
    assert result.value == expected["value"]
    assert result.level.id == expected["level"]
    assert list(result.removed) == expected["removed"]
    assert list(result.kept) == expected["kept"]


def _replay_action(example):
    inputs = ActionRoll(**example["inputs"])
    faces = example["faces"]
    _check_roll(resolve_action_roll(inputs, faces), example["expected"])
    source = TypedFaces(faces)
    _check_roll(roll(ACTION, inputs, source), example["expected"])
    source.finish()
    state = _table()
    decision = _decide(state, Roll(player="Simon", **example["inputs"]), faces)
    _check_roll(decision.outcome, example["expected"])
    return state, decision


def _replay_opposed(example):
    inputs = OpposedRoll(**example["inputs"])
    expected = example["expected"]
    faces = example["faces"]
    converted = inputs.as_action()
    assert (converted.bonus, converted.malus) == (expected["bonus"], expected["malus"])
    for result in (resolve_opposed_roll(inputs, faces), roll(OPPOSED, inputs, TypedFaces(faces))):
        _check_roll(result.roll, expected)
        assert result.passive_value == expected["passive_value"]
        assert result.passive_level.id == expected["passive_level"]
    state = _table()
    decision = _decide(state, Opposed(active="Simon", passive="Alice", **example["inputs"]), faces)
    _check_roll(decision.outcome.roll, expected)
    assert decision.events[0].payload()["passive_level"] == expected["passive_level"]
    return state, decision


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_worked_example(example):
    replay = {"action": _replay_action, "opposed": _replay_opposed}[example["kind"]]
    state, decision = replay(example)
    expected = example["expected"]
    drawn, deposited = expected["cagnotte_drawn"], expected["cagnotte_deposited"]
    after = START - drawn + deposited
    (event,) = decision.events
    assert event.cagnotte.to_json() == {
        "before": START,
        "drawn": drawn,
        "deposited": deposited,
        "after": after,
    }
    (fact,) = POUYSS.facts(decision)
    assert fact.payload["cagnotte"]["after"] == after
    assert _fold(state, decision).cagnotte == after
    assert POUYSS.verify(state, fact.kind, fact.payload) == (decision.after, None)
    assert decision.after.cagnotte == after
