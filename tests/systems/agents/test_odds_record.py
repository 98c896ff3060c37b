"""An action records the exact odds shown before its roll (``agents.action`` version 2).

The record holds what `AGENTS_GAME.odds` shows (the action's results and the agents' chance
to win the challenge) as ``"p/q"`` texts; the verifier compares it; an action stored before
the odds were recorded (version 1) is upgraded with odds None and still checks, imports and
keeps its odds None when an undo revises it.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tablee.dice import SourceChance, TypedFaces
from tablee.errors import InputError
from tablee.systems.agents import commands as cmd
from tablee.systems.agents.events import ActionTaken
from tablee.systems.agents.plugin import AGENTS_GAME
from tablee.systems.agents.shown_odds import RECORDED_WIN_STATES, exact_text
from tablee.systems.event import read_event
from tablee.table.projection import verify_log
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "agents_adventure.jsonl"
KINDS = AGENTS_GAME.kinds()


def _run(state: Any, command: Any, *faces: int) -> Any:
    dice = TypedFaces(faces)
    decision = AGENTS_GAME.decide(state, command, SourceChance(dice))
    dice.finish()
    return decision


def _three_agents(opposition: str) -> Any:
    state = AGENTS_GAME.initial_state({"players": ["Ana"], "lang": "en", "options": {}})
    for name, m, s, i in (("Vega", 7, 5, 3), ("Orso", 3, 7, 5), ("Lune", 5, 3, 7)):
        state = _run(
            state,
            cmd.CreateAgent(
                organisation="Bureau 9",
                signature="a lighter",
                name_=name,
                muscles=m,
                sexe=s,
                intelligence=i,
            ),
        ).after
    opened = cmd.OpenChallenge(kind="muscles", agents=("Vega,Orso,Lune",), oppositions=opposition)
    return _run(state, opened).after


def _shown(state: Any, command: cmd.Act) -> dict[str, Any]:
    """The odds `AGENTS_GAME.odds` shows, in the record's shape."""
    odds = AGENTS_GAME.odds(state, command)
    assert odds is not None
    wins = [p for label, p in odds.rows if "win" in str(getattr(label, "template", label))]
    return {"results": odds.data, "win": exact_text(wins[0]) if wins else None}


def test_each_action_records_the_odds_shown_before_its_roll() -> None:
    state = _three_agents(("a wall:6", "a guard:2"))
    acts = [
        (cmd.Act(modifiers=("environment",), target=1), 1),
        (cmd.Act(target=2), 6),
        (cmd.Act(modifiers=("generic",), target=2), 5),
        (cmd.Act(target=1), 2),
        (cmd.Act(modifiers=("escalate", "setup"), target=1), 4),
    ]
    for command, face in acts:
        shown = _shown(state, command)
        decision = _run(state, command, face)
        (event,) = decision.events
        assert isinstance(event, ActionTaken) and event.version == 2
        assert event.odds is not None
        assert {"results": event.odds["results"], "win": event.odds["win"]} == shown
        for text in [*event.odds["results"].values(), event.odds["win"]]:
            numerator, denominator = text.split("/")  # "p/q", even for 0 and 1
            assert Fraction(text) == Fraction(int(numerator), int(denominator))
        state = decision.after
    assert sum(Fraction(p) for p in event.odds["results"].values()) == 1


def test_the_chance_to_win_a_large_challenge_is_shown_but_not_recorded() -> None:
    state = _three_agents(("the duke:20",))
    states = 21 * 8 * 6 * 4 * 3  # score 0..20, reserves 0..7, 0..5, 0..3, three turns
    assert states > RECORDED_WIN_STATES
    assert _shown(state, cmd.Act())["win"] is not None
    (event,) = _run(state, cmd.Act(), 3).events
    assert event.odds is not None
    assert event.odds["win"] is None and event.odds["score"] == 20
    assert event.odds["results"] == _shown(state, cmd.Act())["results"]


def _golden() -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in GOLDEN.read_text("utf-8").splitlines()]
    return [line for line in lines if "trailer" not in line]


def _as_version_1(line: dict[str, Any]) -> dict[str, Any]:
    """An action as Tablée stored it before the odds were recorded."""
    if line["kind"] != "agents.action":
        return line
    payload = {k: v for k, v in line["payload"].items() if k != "odds"}
    return {**line, "schema_version": 1, "payload": payload}


def test_an_action_of_version_1_is_upgraded_with_its_odds_not_recorded() -> None:
    line = next(_as_version_1(e) for e in _golden() if e["kind"] == "agents.action")
    upgraded = ActionTaken.upgrades[1](line["payload"])
    assert upgraded == {**line["payload"], "odds": None}
    assert read_event(KINDS, "agents.action", upgraded).payload() == upgraded


def test_the_verifier_compares_recorded_odds_and_leaves_out_those_not_recorded() -> None:
    state = AGENTS_GAME.initial_state(_golden()[0]["payload"])
    checked = 0
    for line in _golden()[1:]:
        payload = line["payload"]
        if line["kind"] == "agents.action":
            edited = {**payload, "odds": {**payload["odds"], "win": "2/1"}}
            _, changed = AGENTS_GAME.verify(state, line["kind"], edited)
            assert changed is not None and changed["odds"] == payload["odds"]
            old = {**payload, "odds": None}  # version 1, upgraded
            assert AGENTS_GAME.verify(state, line["kind"], old)[1] is None
            _, changed = AGENTS_GAME.verify(state, line["kind"], {**old, "score": 99})
            assert changed is not None and changed["odds"] is None  # a revision keeps None
            assert changed["score"] == payload["score"]
            with pytest.raises(InputError):
                AGENTS_GAME.verify(state, line["kind"], {**old, "face": 9})
            checked += 1
        state, changed = AGENTS_GAME.verify(state, line["kind"], payload)
        assert changed is None, line["seq"]
    assert checked == 37


def test_a_log_of_version_1_actions_imports_checks_and_undoes(tmp_path: Path) -> None:
    """A log written before the odds were recorded (no hash chain, as 0.1.0's exports):
    every action is verified on import and by ``table check``, and an undo revises the
    later actions without inventing odds for them."""
    lines = [_as_version_1(e) for e in _golden()]
    for line in lines:
        line.pop("chain", None)
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    store = SqliteStore(tmp_path / "old.sqlite3")
    try:
        service = TableService(store)
        imported = service.import_jsonl(text, name="old")
        assert not imported.verified
        recorded = service.import_jsonl(GOLDEN.read_text("utf-8"), name="new")
        assert imported.state.game == recorded.state.game
        assert verify_log(service.state("old")) == len(lines) - 1  # as ``table check`` does
        bout = [e for e in lines if e["kind"] == "agents.action" and e["seq"] > 60]
        first = next(e for e in bout if e["payload"]["outcome"] == "failure")
        service.undo("old", seq=first["seq"])  # a failure of the last contest bout
        state = service.state("old")
        assert state.revised  # the later actions found other reserves and scores
        actions = [state.payload_of(e) for e in state.events if e.kind == "agents.action"]
        assert all(p["odds"] is None for p in actions)
    finally:
        store.close()
