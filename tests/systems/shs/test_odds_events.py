"""Every rolled SHS event records the exact odds shown before its roll.

A Test, an opposed Action, a cooperation and a simultaneous set store, in their version-2
events, the odds `Shs.odds` gives before the roll (exact fractions as ``"p/q"``, without the
decimal percentages); a version-1 event is upgraded with odds None (not recorded), which the
verifier and Tablée 0.1.0's fold do not compare, while recorded odds are compared.

Source: seed 003; rulings S-M2 to S-M7, S-A5.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tablee.dice import SeededSource, SourceChance
from tablee.errors import InputError
from tablee.systems.declare import build_command
from tablee.systems.shs import events
from tablee.systems.shs.legacy import evolve
from tablee.systems.shs.plugin import SHS

CREATED = {"players": ["Ana", "Bob"], "options": {}}
SETUP: list[tuple[str, dict[str, Any]]] = [
    ("protagoniste create", {"protagonist": "Jake", "player": "Ana", "carrure": "6",
     "motricite": "6", "science": "7", "relationnel": "7", "sang_froid": "8",
     "expertises": ["Sauter"]}),
    ("protagoniste create", {"protagonist": "Nella", "player": "Bob", "carrure": "7",
     "motricite": "7", "science": "7", "relationnel": "7", "sang_froid": "6"}),
    ("scene start", {"kind": "rythmee"}),
    ("tour next", {}),
    ("modifier add", {"protagoniste": "Jake", "malus": "1", "tours": "2"}),
]  # fmt: skip
ROLLS: list[tuple[str, dict[str, Any], type]] = [
    ("test", {"protagoniste": "Jake", "characteristic": "motricite", "difficulty": "2",
     "bonus": "2", "expertise": "sauter"}, events.TestRolled),
    ("opposed", {"first": "Jake:motricite:bonus=1", "second": "Nella:carrure:surpasser",
     "changer": "second"}, events.OpposedRolled),
    ("cooperation", {"members": ["Nella:science", "Jake:science"], "difficulty": "2"},
     events.CooperationRolled),
    ("simultaneous", {"protagoniste": "Nella", "actions": ["science:1", "carrure:2"],
     "trivial": "1"}, events.SimultaneousRolled),
]  # fmt: skip
IDS = [name for name, _, _ in ROLLS]


def table() -> Any:
    state = SHS.initial_state(CREATED)
    for seq, (name, given) in enumerate(SETUP, start=2):
        command = build_command(SHS.command_named(name), given)
        state = SHS.decide_at(state, command, SourceChance(SeededSource(1)), seq).after
    return state


def exact(data: Any) -> Any:
    """The odds' data without its decimal percentages."""
    if isinstance(data, dict):
        return {k: exact(v) for k, v in data.items() if k != "percent"}
    if isinstance(data, list):
        return [exact(v) for v in data]
    return data


def leaves(data: Any) -> list[Any]:
    if isinstance(data, dict):
        return [leaf for v in data.values() for leaf in leaves(v)]
    if isinstance(data, list):
        return [leaf for v in data for leaf in leaves(v)]
    return [data]


def decided(index: int, seed: int = 5) -> tuple[Any, Any, Any]:
    """The state before the roll, the odds shown then, and the event decided."""
    name, given, _ = ROLLS[index]
    state = table()
    command = build_command(SHS.command_named(name), given)
    shown = SHS.odds(state, command)
    decision = SHS.decide(state, command, SourceChance(SeededSource(seed)))
    return state, shown, decision.events[0]


@pytest.mark.parametrize("index", range(len(ROLLS)), ids=IDS)
def test_a_rolled_event_holds_the_odds_shown_before_it(index: int) -> None:
    _, shown, event = decided(index)
    assert isinstance(event, ROLLS[index][2]) and type(event).version >= 2
    assert shown is not None and event.odds == exact(shown.data)
    assert event.payload()["odds"] == exact(shown.data)
    for leaf in leaves(event.odds):
        assert isinstance(leaf, str | int) and not isinstance(leaf, bool | float), leaf
    if shown.success is not None:
        assert Fraction(event.odds["success"]) == shown.success


def test_a_simultaneous_set_shows_each_test_s_odds() -> None:
    state, shown, event = decided(IDS.index("simultaneous"))
    assert shown is not None and shown.success is None and len(shown.rows) == 2
    single = SHS.odds(
        state,
        build_command(
            SHS.command_named("test"),
            {"protagoniste": "Nella", "characteristic": "science", "difficulty": "1",
             "malus": "2"},  # the set's Malus: 2 Actions and 1 trivial, minus 1
        ),
    )  # fmt: skip
    assert single is not None and event.odds["actions"][0] == exact(single.data)
    assert shown.rows[0][1] == single.success


@pytest.mark.parametrize("index", range(len(ROLLS)), ids=IDS)
def test_a_version_1_event_upgrades_with_no_odds_and_still_verifies(index: int) -> None:
    state, _, event = decided(index)
    cls = type(event)
    old = {k: v for k, v in event.payload().items() if k != "odds"}
    upgraded = cls.upgrade(old, 1)
    assert upgraded["odds"] is None and cls.from_payload(upgraded).odds is None
    after, changed = SHS.verify(state, cls.kind, upgraded, "1")
    assert changed is None
    assert evolve(state, cls.kind, upgraded) == after == SHS.evolve(state, cls.kind, upgraded)


@pytest.mark.parametrize("index", range(len(ROLLS)), ids=IDS)
def test_recorded_odds_are_compared(index: int) -> None:
    state, _, event = decided(index)
    payload = event.payload()
    assert SHS.verify(state, event.kind, payload, "1")[1] is None
    evolve(state, event.kind, payload)
    edited = {**payload, "odds": {**payload["odds"], "success": "1/1"}}
    _, changed = SHS.verify(state, event.kind, edited, "1")
    assert changed is not None and changed["odds"] == payload["odds"]
    with pytest.raises(InputError, match="odds"):
        evolve(state, event.kind, edited)
