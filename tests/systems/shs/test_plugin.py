"""The SHS plugin: a whole film decided through its declared commands, then folded by
applying the recorded outcomes, by Tablée 0.1.0's fold (deciding again) and by the verifier,
which must all agree; every payload keeps its stored shape; the 0.1.0 fixture folds the same.

Source: seed 003; rulings S-M1 to S-M9, S-A2 to S-A15, S-T6.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tablee.dice import FacesByKind, SeededSource, SourceChance, TypedFaces
from tablee.errors import InputError, RuleError
from tablee.systems.declare import build_command
from tablee.systems.shs.events import EVENTS, ModifierAdded, ModifierEnded
from tablee.systems.shs.legacy import evolve
from tablee.systems.shs.plugin import SHS

FIXTURE = Path(__file__).parents[2] / "fixtures" / "v0_1_0" / "nostromo.jsonl"

CREATED = {"players": ["Ana", "Bob"], "options": {}}


def dice(action: str = "", dpm: str = "") -> tuple[str, str]:
    return action, dpm


def source(faces: tuple[str, str] | int) -> Any:
    if isinstance(faces, int):
        return SeededSource(faces)
    action, dpm = faces
    typed = {}
    if action:
        typed["d8"] = TypedFaces(int(f) for f in action.split(","))
    if dpm:
        typed["dpm"] = TypedFaces({"+": 1, "-": -1, "0": 0}[f] for f in dpm.split(","))
    return FacesByKind(typed, "d8", frozenset({"dpm"}))


FILM: list[tuple[str, dict[str, Any], Any]] = [
    ("protagoniste create", {"protagonist": "Jake", "player": "Ana", "carrure": "6",
     "motricite": "6", "science": "7", "relationnel": "7", "sang_froid": "8",
     "expertises": ["Sauter"]}, dice()),
    ("protagoniste import", {"file": '[{"name": "Nella", "player": "Bob", "carrure": 7, '
     '"motricite": 7, "science": 7, "relationnel": 7, "sang_froid": 6}, {"name": "Ash", '
     '"carrure": "7+", "motricite": 7, "science": 7, "relationnel": 6, "sang_froid": 7}]'},
     dice()),
    ("scene start", {"kind": "rythmee"}, dice()),
    ("tour next", {}, dice()),
    ("test", {"protagoniste": "Jake", "characteristic": "motricite", "difficulty": "2",
     "bonus": "1"}, dice("1,6,8", "+")),
    ("test", {"protagoniste": "jake", "test": "Test (Motricité, Extrême)",
     "expertise": "sauter"}, dice("10,3,6")),
    ("test", {"protagoniste": "Jake", "characteristic": "science", "difficulty": "3",
     "option": ["surpasser"]}, dice("7,7,1", "+,0")),
    ("modifier add", {"protagoniste": "Jake", "malus": "1", "tours": "1", "label": "fumée"},
     dice()),
    ("modifier add", {"protagoniste": "Ash", "bonus": "2", "time": "30 min"}, dice()),
    ("test", {"protagoniste": "Jake", "characteristic": "motricite", "difficulty": "1"},
     dice("6,1,1", "-")),
    ("opposed", {"first": "Jake:motricite:bonus=1", "second": "Nella:carrure:surpasser"},
     28),
    ("cooperation", {"members": ["Nella:science", "Jake:science:expertise=sauter"],
     "difficulty": "2"}, 26),
    ("simultaneous", {"protagoniste": "Nella", "actions": ["science:1", "carrure:1"],
     "trivial": "1"}, 30),
    ("protagoniste edit", {"protagonist": "Jake", "sante": "-3", "set_air": "4"}, dice()),
    ("long-action start", {"protagoniste": "Nella", "label": "pirater", "tours": "2"}, dice()),
    ("tour next", {}, dice()),
    ("test", {"protagoniste": "Nella", "characteristic": "science", "difficulty": "1",
     "long_action": "pirater"}, 13),
    ("time advance", {"duration": "1 h"}, dice()),
    ("modifier add", {"protagoniste": "Nella", "bonus": "1", "tours": "3"}, dice()),
    ("modifier end", {"number": "22"}, dice()),
    ("test", {"protagoniste": "Ash", "characteristic": "carrure", "difficulty": "1",
     "option": ["sacrifier"]}, 20),
    ("protagoniste revive", {"protagonist": "Ash"}, dice()),
    ("simultaneous", {"protagoniste": "Jake", "actions": ["carrure:1"], "opposed": "motricite",
     "against": "Nella:carrure:bonus=1", "opposed_changer": "none"}, 31),
    ("protagoniste kill", {"protagonist": "Nella", "reason": "l'alien"}, dice()),
    ("scene start", {"kind": "lente"}, dice()),
]  # fmt: skip
"""A film: each command with its faces; the modifier ended is the one added at seq 22."""


def play() -> list[tuple[str, dict[str, Any], Any]]:
    """Decide the film; ``[(kind, payload, state right after)]`` with seqs from 2."""
    state = SHS.initial_state(CREATED)
    stored: list[tuple[str, dict[str, Any], Any]] = []
    for name, given, faces in FILM:
        command = build_command(SHS.command_named(name), given)
        dice_source = source(faces)
        decision = SHS.decide_at(state, command, SourceChance(dice_source), len(stored) + 2)
        if isinstance(dice_source, FacesByKind):
            dice_source.finish()
        for event in decision.events:
            stored.append((event.kind, event.payload(), None))
        stored[-1] = (*stored[-1][:2], decision.after)
        state = decision.after
    return stored


def test_the_film_folds_by_applying_outcomes_as_by_deciding_again() -> None:
    stored = play()
    applied = decided = SHS.initial_state(CREATED)
    for kind, payload, after in stored:
        applied = SHS.evolve(applied, kind, payload)
        decided = evolve(decided, kind, payload)
        assert applied == decided, kind
        if after is not None:
            assert applied == after, kind
    assert applied.protagonists["Jake"].nt == 1 and not applied.protagonists["Nella"].alive
    assert [m.number for m in applied.clock.modifiers] == [10]  # Jake: Malus (1 Tour)


def test_the_verifier_decides_every_event_again_to_the_same_payload() -> None:
    state = SHS.initial_state(CREATED)
    for kind, payload, _ in play():
        state, changed = SHS.verify(state, kind, payload)
        assert changed is None, kind


def test_every_payload_keeps_its_stored_shape() -> None:
    kinds = {cls.kind: cls for cls in EVENTS}
    seen = set()
    for kind, payload, _ in play():
        assert kinds[kind].from_payload(payload).payload() == payload
        assert json.loads(json.dumps(payload)) == payload
        seen.add(kind)
    assert seen == set(kinds) - {"shs.options_set"}


def test_an_edited_result_is_found_by_the_verifier() -> None:
    state = SHS.initial_state(CREATED)
    stored = play()
    for kind, payload, _ in stored[:6]:
        state, _ = SHS.verify(state, kind, payload)
    kind, payload, _ = stored[6]  # the first Test
    assert kind == "shs.test"
    _, changed = SHS.verify(state, kind, {**payload, "ps": payload["ps"] + 1})
    assert changed is not None and changed["ps"] == payload["ps"]


def test_a_changed_context_is_refused_by_the_verifier() -> None:
    state = SHS.initial_state(CREATED)
    stored = play()
    for kind, payload, _ in stored[:6]:
        state, _ = SHS.verify(state, kind, payload)
    kind, payload, _ = stored[6]
    with pytest.raises(RuleError, match="temporary_malus"):
        SHS.verify(state, kind, {**payload, "temporary_malus": 2})


def test_version_1_modifier_events_fold_by_their_place() -> None:
    state = SHS.initial_state(CREATED)
    for kind, payload, _ in play()[:4]:
        state = SHS.evolve(state, kind, payload)
    added_v1 = {"protagonist": "Jake", "kind": "malus", "amount": 1, "tours": 2, "seconds": 0,
                "label": "", "added_tour": 1, "added_seconds": 0}  # fmt: skip
    state = SHS.evolve(state, ModifierAdded.kind, ModifierAdded.upgrade(added_v1, 1))
    assert [m.number for m in state.clock.modifiers] == [1]
    ended_v1 = {"number": 1, "modifier": dict(added_v1)}
    upgraded = ModifierEnded.upgrade(ended_v1, 1)
    assert upgraded["number"] is None and upgraded["position"] == 1
    assert SHS.evolve(state, ModifierEnded.kind, upgraded).clock.modifiers == ()


def test_the_0_1_0_fixture_folds_the_same_both_ways() -> None:
    rows = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    applied = decided = SHS.initial_state(rows[0]["payload"])
    voided = {r["payload"]["seq"] for r in rows if r["kind"] == "table.voided"}
    assert voided  # a log with an undo of 0.1.0
    for row in rows[1:]:
        kind = row["kind"]
        if kind == "table.voided" or row["seq"] in voided:
            continue
        payload = SHS.kinds()[kind].upgrade(row["payload"], row["schema_version"])
        applied = SHS.evolve(applied, kind, payload)
        decided = evolve(decided, kind, payload)
        assert applied == decided, row["seq"]
    assert applied.protagonists


def test_bad_input_names_the_value_and_the_rule() -> None:
    state = SHS.initial_state(CREATED)
    with pytest.raises(InputError, match="S-M2"):
        command = build_command(SHS.command_named("test"), {"protagoniste": "X"})
        SHS.decide(state, command, SourceChance(source(dice())))
    with pytest.raises(InputError, match="bonus: 51 is out of range"):
        build_command(SHS.command_named("test"), {"protagoniste": "X", "bonus": "51"})
