"""Stored event versions: old payloads are upgraded step by step on load."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import pytest

from tablee.errors import StorageError
from tablee.systems.base import JSON, Upcaster
from tablee.table.events import StoredEvent, upcast


class _Demo:
    id = "demo"
    event_versions: Mapping[str, int] = {"demo.move": 3}
    upcasters: Mapping[tuple[str, int], Upcaster] = {
        # v1 -> v2: "n" renamed "amount"; v2 -> v3: a "reason" field added
        ("demo.move", 1): lambda p: {"amount": p["n"]},
        ("demo.move", 2): lambda p: {**p, "reason": ""},
    }

    def initial_state(self, created: Mapping[str, JSON]) -> Any:
        return 0

    def evolve(self, state: Any, kind: str, payload: Mapping[str, JSON]) -> Any:
        return state + payload["amount"]


def event(kind: str, version: int, payload: dict[str, JSON]) -> StoredEvent:
    return StoredEvent(
        "t", 2, kind, version, None, "all", payload, datetime(2026, 1, 1, tzinfo=UTC)
    )


def test_an_old_payload_is_upgraded_through_every_step() -> None:
    upgraded = upcast(event("demo.move", 1, {"n": 2}), _Demo())
    assert upgraded.schema_version == 3
    assert upgraded.payload == {"amount": 2, "reason": ""}


def test_a_current_payload_is_returned_unchanged() -> None:
    current = event("demo.move", 3, {"amount": 1, "reason": "x"})
    assert upcast(current, _Demo()) is current


def test_a_newer_version_than_known_is_a_storage_error() -> None:
    with pytest.raises(StorageError, match="newer"):
        upcast(event("demo.move", 4, {}), _Demo())


def test_an_unknown_kind_is_a_storage_error() -> None:
    with pytest.raises(StorageError, match=r"demo\.jump"):
        upcast(event("demo.jump", 1, {}), _Demo())


def test_a_missing_step_is_a_storage_error() -> None:
    class Gap(_Demo):
        upcasters: Mapping[tuple[str, int], Upcaster] = {("demo.move", 1): lambda p: p}

    with pytest.raises(StorageError, match="no upgrade from version 2"):
        upcast(event("demo.move", 1, {"n": 1}), Gap())


def test_a_table_kind_is_upgraded_through_the_table_s_own_steps() -> None:
    """An undo stored at version 1 takes the table's own step, beside a game's kinds."""
    from tablee.systems import system_named

    old = event("table.voided", 1, {"target_seq": 1, "reason": "typo"})
    upgraded = upcast(old, system_named("pouyss"))
    assert upgraded.schema_version == 2
    assert upgraded.payload == {"target_seq": 1, "reason": "typo", "revised": {}}


@pytest.mark.parametrize("game_id", ["pouyss", "agents", "shs", "ybs"])
def test_a_game_s_event_tables_are_made_once_and_read_only(game_id: str) -> None:
    """A fold reads them for every event: one shared, read-only table per game."""
    from tablee.systems import system_named

    game: Any = system_named(game_id)
    assert game.kinds() is game.kinds() and game.upcasters is game.upcasters
    assert game.event_versions is game.event_versions
    assert {kind: cls.version for kind, cls in game.kinds().items()} == dict(game.event_versions)
    with pytest.raises(TypeError):
        game.kinds()["x"] = None
    for (kind, version), step in game.upcasters.items():
        assert game.kinds()[kind].upgrades[version] is step
