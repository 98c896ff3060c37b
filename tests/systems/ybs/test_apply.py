"""YBS events: their stored shape kept, and a recorded outcome applied as the rules decided it.

For any sequence of commands the rules accept, each decided payload reads back into its
typed event and writes out unchanged (keys and order: what Tablée 0.1.0 stored), and
applying the event (`tablee.systems.ybs.apply.apply`) gives exactly the state the rules
gave when deciding it. The 0.1.0 fixture log folds the same both ways too.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from tablee.errors import InputError, RuleError
from tablee.systems import ybs as Y
from tablee.systems.event import read_event
from tablee.systems.ybs.apply import apply
from tablee.systems.ybs.events import EVENTS, StarAwarded
from tablee.systems.ybs.legacy import legacy_evolve
from tests.systems.ybs.test_properties import PLAYERS, TRAITS, commands, decider

KINDS = {cls.kind: cls for cls in EVENTS}
FIXTURE = Path(__file__).parents[2] / "fixtures" / "v0_1_0" / "yuigahama.jsonl"


def upgraded(kind: str, payload: dict[str, Any], version: int = 1) -> dict[str, Any]:
    return KINDS[kind].upgrade(payload, version)


def table() -> Y.YbsState:
    state = Y.initial_state({"players": PLAYERS, "options": {"token_supply": "12"}})
    for hero, owner, nintai in (("Aki", "A", 1), ("Bo", "B", 0), ("Thug", None, -1)):
        traits = {**dict.fromkeys(TRAITS, 0), "nintai": nintai}
        state = Y.decide_create(
            state, name=hero, traits=traits, attributes=["bold"], owner=owner
        ).after
    return state


def test_every_kind_has_a_class_and_each_class_one_kind() -> None:
    from tablee.systems.ybs.legacy import REDECIDE

    assert set(KINDS) == set(REDECIDE)
    assert len(KINDS) == len(EVENTS)


@settings(max_examples=150, deadline=None)
@given(commands)
def test_payloads_keep_their_shape_and_apply_as_decided(sequence: list[Any]) -> None:
    state = table()
    for command in sequence:
        if command[0] == "undo":
            continue
        try:
            decision = decider(command)(state)
        except (RuleError, InputError):
            continue
        (fact,) = decision.facts
        payload = upgraded(fact.kind, dict(fact.payload))
        event = read_event(KINDS, fact.kind, payload)
        written = event.payload()
        assert json.dumps(written) == json.dumps(payload), fact.kind
        assert apply(state, event) == decision.after, fact.kind
        if isinstance(event, StarAwarded):
            hero = decision.after.characters[event.character]
            recorded = replace(event, boxes=Y.box_json(hero))
            assert apply(state, recorded) == decision.after
        state = decision.after


def test_a_version_one_star_reads_with_its_boxes_unrecorded() -> None:
    payload = {
        "character": "Aki",
        "trait": "choushi",
        "raised": True,
        "wasted": False,
        "value": 1,
        "stars": 0,
    }
    event = read_event(KINDS, "ybs.star_awarded", upgraded("ybs.star_awarded", payload))
    assert isinstance(event, StarAwarded) and event.boxes is None
    state = table()
    hero = state.characters["Aki"]
    state = replace(
        state,
        characters={**state.characters, "Aki": replace(hero, stars=(4, 0, 0, 0, 0, 0), uchimi=2)},
    )
    after = apply(state, event).characters["Aki"]
    assert (after.trait("choushi"), after.hit_points, after.uchimi) == (1, 5, 2)
    assert after.star_count("choushi") == 0


def _fixture_events() -> list[dict[str, Any]]:
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def test_the_0_1_0_log_folds_the_same_applied_or_decided_again() -> None:
    rows = _fixture_events()
    voided = {r["payload"]["seq"] for r in rows if r["kind"] == "table.voided"}
    state = decided = Y.initial_state(rows[0]["payload"])
    for row in rows[1:]:
        if row["kind"] == "table.voided" or row["seq"] in voided:
            continue
        payload = upgraded(row["kind"], row["payload"], row["schema_version"])
        event = read_event(KINDS, row["kind"], payload)
        assert json.dumps(event.payload()) == json.dumps(payload)
        stored = {k: v for k, v in payload.items() if k in row["payload"]}
        assert json.dumps(stored) == json.dumps(row["payload"])  # the upgrade only adds keys
        assert set(payload) - set(row["payload"]) <= {"odds", "moves"}
        state = apply(state, event)
        decided = legacy_evolve(decided, row["kind"], payload)
        assert state == decided, row["seq"]


def test_a_missing_field_is_named_by_its_stored_key() -> None:
    payload = {"character": "Aki", "trait": "chisei", "value": -1, "note": "", "boxes": {}}
    with pytest.raises(InputError, match=r"ybs\.trauma: the field from is missing"):
        read_event(KINDS, "ybs.trauma", payload)
    event = read_event(KINDS, "ybs.trauma", {**payload, "from": 1})
    assert list(event.payload()) == ["character", "trait", "from", "value", "note", "boxes"]
