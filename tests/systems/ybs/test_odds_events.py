"""Every rolled YBS event records the exact odds shown before its roll.

A test's first die, a gang-fight throw (the race before the first throw, each keep choice
after it) and an unexpected encounter (Ichika Bachika, the gang fight it starts, or everyone
fleeing) store, in their version-2 events, the odds `Ybs.odds` gives before the roll (exact
fractions as ``"p/q"``); a version-1 event is upgraded with odds None (not recorded), which
the verifier and Tablée 0.1.0's fold do not compare, while recorded odds are compared. A
reroll (s'entêter) shows no odds of its own and records none.

Source: seed 004; rulings Y-M3, Y-M7, Y-M8, Y-A3, Y-A13.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tablee.errors import InputError
from tablee.systems.declare import build_command
from tablee.systems.ybs import brawl_commands as B
from tablee.systems.ybs import commands as C
from tablee.systems.ybs.legacy import legacy_evolve
from tablee.systems.ybs.plugin import YBS
from tests.systems.ybs.test_plugin import SESSION, play, table

SHOWING_ODDS = (C.Test, B.ThrowGang, B.Encounter)
ROLLED = [i for i, (command, _, _) in enumerate(SESSION) if command in SHOWING_ODDS]
KINDS = {"ybs.test", "ybs.gang_throw", "ybs.gang_side", "ybs.encounter"}
FIRST_VERSION_WITH_ODDS = {"ybs.gang_side": 1}
"""Kinds that recorded the odds from their first version (the others from version 2)."""


def before(index: int) -> Any:
    """The state right before the command at ``index`` of the session."""
    state = table()
    for command, given, faces in SESSION[:index]:
        state = play(state, command, given, faces).after
    return state


def decided(index: int) -> tuple[Any, Any, Any]:
    """The state before the roll, the odds shown then, and the event decided."""
    command, given, faces = SESSION[index]
    state = before(index)
    shown = YBS.odds(state, build_command(command, given))
    return state, shown, play(state, command, given, faces).events[0]


def leaves(data: Any) -> list[Any]:
    if isinstance(data, dict):
        return [leaf for v in data.values() for leaf in leaves(v)]
    if isinstance(data, list):
        return [leaf for v in data for leaf in leaves(v)]
    return [data]


def test_every_rolled_kind_is_in_the_session() -> None:
    kinds = {decided(index)[2].kind for index in ROLLED}
    assert kinds == KINDS


@pytest.mark.parametrize("index", ROLLED)
def test_a_rolled_event_holds_the_odds_shown_before_it(index: int) -> None:
    _, shown, event = decided(index)
    assert event.kind in KINDS
    assert type(event).version == FIRST_VERSION_WITH_ODDS.get(event.kind, 2)
    assert shown is not None and isinstance(shown.data, dict)
    assert event.odds == shown.data and event.payload()["odds"] == shown.data
    for leaf in leaves(event.odds):
        assert isinstance(leaf, str | int) and not isinstance(leaf, bool | float), leaf
    if shown.success is not None:
        key = "success" if event.kind == "ybs.test" else "win"
        assert Fraction(event.odds[key]) == shown.success
    texts = set(leaves(event.odds))
    for _, p in shown.rows:  # every chance shown is in the record as an exact fraction
        assert f"{p.numerator}/{p.denominator}" in texts


def test_a_reroll_records_no_odds() -> None:
    index = next(i for i, (command, _, _) in enumerate(SESSION) if command is C.Stubborn)
    state = before(index)
    assert YBS.odds(state, build_command(C.Stubborn, {})) is None
    event = play(state, C.Stubborn, {}, SESSION[index][2]).events[0]
    assert "odds" not in event.payload()


@pytest.mark.parametrize(
    "index", [i for i in ROLLED if decided(i)[2].kind not in FIRST_VERSION_WITH_ODDS]
)
def test_a_version_1_event_upgrades_with_no_odds_and_still_verifies(index: int) -> None:
    state, _, event = decided(index)
    cls = type(event)
    old = {k: v for k, v in event.payload().items() if k != "odds"}
    upgraded = cls.upgrade(old, 1)
    assert upgraded["odds"] is None and cls.from_payload(upgraded).odds is None
    after, changed = YBS.verify(state, cls.kind, upgraded, "1")
    assert changed is None
    assert after == YBS.evolve(state, cls.kind, upgraded)
    assert legacy_evolve(state, cls.kind, upgraded) == after


@pytest.mark.parametrize("index", ROLLED)
def test_recorded_odds_are_compared(index: int) -> None:
    state, _, event = decided(index)
    payload = event.payload()
    assert YBS.verify(state, event.kind, payload, "1")[1] is None
    assert legacy_evolve(state, event.kind, payload) == YBS.evolve(state, event.kind, payload)
    edited = {**payload, "odds": {**payload["odds"], "edited": "1/1"}}
    _, changed = YBS.verify(state, event.kind, edited, "1")
    assert changed is not None and changed["odds"] == payload["odds"]
    with pytest.raises(InputError, match="odds"):
        legacy_evolve(state, event.kind, edited)
