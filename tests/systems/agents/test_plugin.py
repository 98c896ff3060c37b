"""The agents plugin: typed events read the stored payloads, `apply` folds to what the rules
decide, every stored event is decided again the same, and 0.1.0's fold is kept for old undos.

The logs are the golden adventure (a whole quest and contest, written by the rules) and the
0.1.0 fixture of the agents game (with an undo written by 0.1.0).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tablee.dice import SourceChance, TypedFaces
from tablee.errors import InputError, RuleError
from tablee.systems.agents import commands as cmd
from tablee.systems.agents import evolve as legacy_evolve
from tablee.systems.agents import initial_state
from tablee.systems.agents.events import EVENTS
from tablee.systems.agents.plugin import AGENTS_GAME
from tablee.systems.event import read_event

ROOT = Path(__file__).resolve().parents[2]
LOGS = {
    "golden": ROOT / "golden" / "agents_adventure.jsonl",
    "valadyn": ROOT / "fixtures" / "v0_1_0" / "valadyn.jsonl",
}
KINDS = {cls.kind: cls for cls in EVENTS}


def _log(name: str) -> list[dict[str, Any]]:
    """The events of an export (its trailer line left out), each payload upgraded to its
    kind's current version as the fold reads it."""
    lines = [json.loads(line) for line in LOGS[name].read_text("utf-8").splitlines()]
    events = [line for line in lines if "trailer" not in line]
    for event in events:
        cls = KINDS.get(event["kind"])
        while cls is not None and event["schema_version"] < cls.version:
            event["payload"] = cls.upgrades[event["schema_version"]](event["payload"])
            event["schema_version"] += 1
    return events


def _counting(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events that count: neither undone nor undos (the fixture's undo is 0.1.0's)."""
    voided = {e["payload"]["seq"] for e in log if e["kind"] == "table.voided"}
    return [e for e in log[1:] if e["kind"] != "table.voided" and e["seq"] not in voided]


@pytest.mark.parametrize("name", sorted(LOGS))
def test_events_read_and_write_the_stored_payloads_unchanged(name: str) -> None:
    for stored in _log(name)[1:]:
        if stored["kind"] == "table.voided":
            continue
        event = read_event(KINDS, stored["kind"], stored["payload"])
        assert event.payload() == stored["payload"]
        assert list(event.payload()) == list(stored["payload"])  # the exported order too


@pytest.mark.parametrize("name", sorted(LOGS))
def test_applying_the_records_reaches_the_state_the_rules_decide(name: str) -> None:
    log = _log(name)
    applied = decided = initial_state(log[0]["payload"])
    for stored in _counting(log):
        event = read_event(KINDS, stored["kind"], stored["payload"])
        applied = AGENTS_GAME.apply(applied, event)
        decided = legacy_evolve(decided, stored["kind"], stored["payload"])
        assert applied == decided, stored["seq"]  # the state keeps no trace either way


def test_every_event_is_decided_again_the_same_and_to_the_same_state() -> None:
    log = _log("golden")
    state = AGENTS_GAME.initial_state(log[0]["payload"])
    for stored in _counting(log):
        after, changed = AGENTS_GAME.verify(state, stored["kind"], stored["payload"])
        assert changed is None, stored["seq"]
        event = read_event(KINDS, stored["kind"], stored["payload"])
        assert after == AGENTS_GAME.apply(state, event), stored["seq"]
        state = after


def test_an_edited_record_is_found_by_the_verifier() -> None:
    log = _log("golden")
    state = AGENTS_GAME.initial_state(log[0]["payload"])
    for stored in _counting(log):
        if stored["kind"] == "agents.action":
            edited = {**stored["payload"], "score": stored["payload"]["score"] + 1}
            _, changed = AGENTS_GAME.verify(state, stored["kind"], edited)
            assert changed is not None and changed["score"] == stored["payload"]["score"]
            with pytest.raises(InputError):
                AGENTS_GAME.verify(state, stored["kind"], {**edited, "face": 9})
            return
        state, _ = AGENTS_GAME.verify(state, stored["kind"], stored["payload"])
    raise AssertionError("the golden log has no action")


def _table(*players: str) -> Any:
    created = {"players": list(players), "lang": "en", "options": {}}
    return AGENTS_GAME.initial_state(created)


def _run(state: Any, command: Any, *faces: int) -> Any:
    dice = TypedFaces(faces)
    decision = AGENTS_GAME.decide(state, command, SourceChance(dice))
    dice.finish()
    return decision


def test_an_action_is_decided_for_the_agent_due_in_the_one_open_challenge() -> None:
    state = _table("Ana", "Bo")
    for name, m, s, i, owner in (("Vega", 7, 5, 3, "Ana"), ("Orso", 3, 7, 5, "Bo")):
        state = _run(
            state,
            cmd.CreateAgent(
                organisation="Bureau 9",
                signature="a lighter",
                name_=name,
                muscles=m,
                sexe=s,
                intelligence=i,
                owner=owner,
            ),
        ).after
    opened = _run(
        state, cmd.OpenChallenge(kind="Sexe", agents=("vega,ORSO",), oppositions=("the duke:3",))
    )
    state = opened.after
    assert AGENTS_GAME.acting(state, cmd.Act()) == ("Vega",)
    assert AGENTS_GAME.owner(state, "vega") == "Ana"
    acted = _run(state, cmd.Act(modifiers=("laugh",)), 6)
    (event,) = acted.events
    payload = event.payload()
    assert (payload["agent"], payload["face"], payload["outcome"], payload["score"]) == (
        "Vega",
        6,
        "critical",
        1,
    )
    assert AGENTS_GAME.acting(acted.after, cmd.Act()) == ("Orso",)
    with pytest.raises(RuleError):  # not Vega's turn (G-A20)
        _run(acted.after, cmd.Act(agent="Vega"), 4)
    with pytest.raises(InputError):  # no Muscles modifier in a Sexe challenge (G-N2)
        _run(acted.after, cmd.Act(modifiers=("escalate",)), 4)


def test_a_drawn_challenge_without_a_name_draws_its_opposition_first() -> None:
    state = _table("Ana")
    state = _run(
        state, cmd.CreateAgent(organisation="Bureau 9", signature="a lighter", name_="Vega")
    ).after
    state = _run(state, cmd.Quest(starter="en"), 1).after
    state = _run(state, cmd.NextScene()).after
    decision = _run(state, cmd.Generate(), 3, 1, 1, 6, 2)  # creatures; the creature's d12
    drawn, generated = decision.events
    assert drawn.kind == "agents.table_drawn" and drawn.payload()["table"] == "creatures"
    assert generated.payload()["opposition"] == drawn.payload()["text"]
    for event in decision.events:  # each is decided again alone, as the verifier does
        assert AGENTS_GAME.redecide(state, event).events[0] == event
        state = AGENTS_GAME.apply(state, event)
    assert state == decision.after


def test_a_tie_for_the_winner_is_rolled_off_and_stored_as_named() -> None:
    state = _table("Ana", "Bo")
    for name in ("Vega", "Orso"):
        state = _run(
            state, cmd.CreateAgent(organisation="Bureau 9", signature="a lighter", name_=name)
        ).after
    state = _run(
        state, cmd.OpenChallenge(kind="muscles", agents=("Vega", "Orso"), oppositions=("x:2",))
    ).after
    state = _run(state, cmd.Act(), 5).after
    state = _run(state, cmd.Act(), 5).after  # won; nobody spent a point: a tie
    with pytest.raises(InputError):  # the roll-off needs its dice
        _run(state, cmd.NameWinner(challenge=1))
    decision = _run(state, cmd.NameWinner(challenge=1), 3, 3, 2, 6)  # tie again, then Orso
    (event,) = decision.events
    assert event.payload() == {"challenge": 1, "agent": "Orso", "winner": "Orso"}
    assert AGENTS_GAME.redecide(state, event).events[0] == event


def test_a_field_stored_under_another_name_is_checked_and_built_by_that_name() -> None:
    from tablee.systems.declare import build_command, command_json

    given = {
        "name": "Vega",
        "muscles": "3",
        "sexe": "7",
        "organisation": "B9",
        "signature": "a pen",
    }
    built = build_command(cmd.CreateAgent, given)
    assert (built.name_, built.muscles, built.sexe, built.intelligence) == ("Vega", 3, 7, 3)
    assert command_json(built)["name"] == "Vega"
    with pytest.raises(InputError, match="name"):
        cmd.CreateAgent(
            organisation="Bureau 9", signature="a lighter", name_="Ve\x00ga"
        )  # checked as itself, not the class's own name


@pytest.mark.parametrize("name", sorted(LOGS))
def test_every_state_of_a_log_reads_back_from_its_snapshot(name: str) -> None:
    """The state after each event (quest, tables, drawn challenges, contest, bouts included)
    is written as JSON and read back equal (`AGENTS_GAME.state_type`, its snapshots)."""
    log = _log(name)
    state = initial_state(log[0]["payload"])
    seen = set()
    for stored in _counting(log):
        state = AGENTS_GAME.apply(state, read_event(KINDS, stored["kind"], stored["payload"]))
        data = json.loads(json.dumps(AGENTS_GAME.encode_state(state)))
        assert AGENTS_GAME.decode_state(data) == state, stored["seq"]
        seen |= {f for f in ("quest", "tables", "contest") if getattr(state, f) is not None}
        seen |= {f for f in ("generated", "bouts") if getattr(state, f)}
    if name == "golden":
        assert seen == {"quest", "tables", "contest", "generated", "bouts"}
