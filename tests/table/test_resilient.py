"""The store's one retry after a lost connection: reads again, and an append never twice.

A lost connection is simulated around a real SQLite store: the wrapped call raises the
`StorageError` a dropped PostgreSQL connection gives (caused by psycopg's
``OperationalError``), before or after the real call did its work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tablee.errors import N_, StorageError
from tablee.table.resilient import ResilientStore, is_disconnect
from tablee.table.sqlite_store import SqliteStore
from tablee.table.store import AppendConflict
from tests.table.test_store_contract import NOW, new_table, roll


def dropped() -> StorageError:
    try:
        raise psycopg.OperationalError("terminating connection due to administrator command")
    except psycopg.OperationalError as cause:
        try:
            raise StorageError(
                N_("database {url} failed: {error}"), url="x", error="gone"
            ) from cause
        except StorageError as exc:
            return exc


class Drop:
    """Wraps one store method: the next ``times`` calls lose their connection ``when``."""

    def __init__(self, real: Callable[..., Any], when: str, times: int = 1) -> None:
        self.real, self.when, self.left, self.calls = real, when, times, 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.left:
            self.left -= 1
            if self.when == "after":
                self.real(*args, **kwargs)  # committed; only the answer is lost
            raise dropped()
        return self.real(*args, **kwargs)


@pytest.fixture
def inner(tmp_path: Path) -> Iterator[SqliteStore]:
    store = SqliteStore(tmp_path / "r.sqlite3")
    yield store
    store.close()


def test_a_lost_connection_is_recognised_through_the_causes() -> None:
    assert is_disconnect(dropped())
    assert not is_disconnect(StorageError(N_("database {url} failed: {error}"), url="x", error="x"))


def test_a_read_is_tried_again_once(inner: SqliteStore, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = new_table(inner)
    drop = Drop(inner.load, "before")
    monkeypatch.setattr(inner, "load", drop)
    assert [e.seq for e in ResilientStore(inner).load(table_id)] == [1]
    assert drop.calls == 2


def test_a_second_failure_is_raised(inner: SqliteStore, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = new_table(inner)
    monkeypatch.setattr(inner, "load", Drop(inner.load, "before", times=2))
    with pytest.raises(StorageError):
        ResilientStore(inner).load(table_id)


@pytest.mark.parametrize("when", ["before", "after"])
def test_an_append_whose_connection_dropped_is_stored_once(
    inner: SqliteStore, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    table_id = new_table(inner)
    monkeypatch.setattr(inner, "append", Drop(inner.append, when))
    stored = ResilientStore(inner).append(table_id, 1, [roll(1), roll(2)], NOW, command_key="k")
    assert [(e.seq, e.payload) for e in stored] == [(2, {"n": 1}), (3, {"n": 2})]
    assert [e.seq for e in inner.load(table_id)] == [1, 2, 3]  # never twice


def test_an_append_lost_to_another_writer_is_a_conflict(
    inner: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = new_table(inner)
    real = inner.append

    def other_first(*args: Any, **kwargs: Any) -> Any:
        real(table_id, 1, [roll(9)], NOW)  # another process wrote, then our connection died
        raise dropped()

    monkeypatch.setattr(inner, "append", other_first)
    with pytest.raises(AppendConflict):
        ResilientStore(inner).append(table_id, 1, [roll(1)], NOW)
    assert [e.payload for e in inner.load(table_id)][1:] == [{"n": 9}]


def test_the_same_dice_at_another_time_are_not_mistaken_for_ours(
    inner: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import timedelta

    table_id = new_table(inner)
    real = inner.append

    def twin_first(*args: Any, **kwargs: Any) -> Any:
        real(table_id, 1, [roll(1)], NOW + timedelta(microseconds=1))
        raise dropped()

    monkeypatch.setattr(inner, "append", twin_first)
    with pytest.raises(AppendConflict):
        ResilientStore(inner).append(table_id, 1, [roll(1)], NOW)


def test_other_errors_are_not_retried(inner: SqliteStore, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = new_table(inner)
    with pytest.raises(AppendConflict):
        ResilientStore(inner).append(table_id, 5, [roll(1)], NOW)
    timed: list[tuple[str, float]] = []
    store = ResilientStore(inner, lambda op, s: timed.append((op, s)))
    store.load(table_id)
    store.append(table_id, 1, [roll(1)], NOW)
    assert [op for op, _ in timed] == ["load", "append"] and all(s >= 0 for _, s in timed)
