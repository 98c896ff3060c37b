"""What the psycopg store does beyond the contract suite: the table's write lock, the events
read along with a command key, a pooled connection the server closed.

Each test runs on a fresh PostgreSQL database (skipped when the server is not reachable at
127.0.0.1:5432, unless ``TABLEE_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import threading
import time
import uuid
from datetime import UTC, datetime

import psycopg
import pytest

from tablee.systems.base import Fact
from tablee.table.pg_store import NOTICE_BYTES, PgStore, notice
from tablee.table.store import NOTIFY_CHANNEL, AppendConflict

pytestmark = pytest.mark.postgres

NOW = datetime(2026, 12, 2, 1, 0, tzinfo=UTC)
WAIT = 60.0


def created(name: str) -> Fact:
    payload = {"system": "pouyss", "name": name, "players": ["A"], "lang": "en", "options": {}}
    return Fact("table.created", payload, actor="gm")


def new_table(store: PgStore, name: str = "zinc") -> str:
    table_id = str(uuid.uuid4())
    store.create_table(table_id, name, "pouyss", created(name), NOW)
    return table_id


def roll(n: int) -> Fact:
    return Fact("test.roll", {"n": n})


def test_a_writer_holding_the_table_cannot_lose_its_append(postgres_url: str) -> None:
    holder, other = PgStore(postgres_url), PgStore(postgres_url)
    try:
        table_id = new_table(holder)
        outcome: list[str] = []

        def rival() -> None:
            try:
                other.append(table_id, 1, [roll(2)], NOW)
                outcome.append("stored")
            except AppendConflict:
                outcome.append("conflict")

        with holder.exclusive(table_id):
            assert [e.seq for e in holder.load(table_id)] == [1]
            thread = threading.Thread(target=rival)
            thread.start()
            _wait_for_a_lock_wait(postgres_url)  # the rival waits for the table's lock
            stored = holder.append(table_id, 1, [roll(1)], NOW)
            assert [e.seq for e in stored] == [2]
            assert not outcome  # still waiting: the block has not committed
        thread.join(WAIT)
        assert outcome == ["conflict"]
        events = other.load(table_id)
        assert [(e.seq, e.payload) for e in events] == [(1, events[0].payload), (2, {"n": 1})]
    finally:
        holder.close()
        other.close()


def test_an_exclusive_block_that_raises_stores_nothing(postgres_url: str) -> None:
    store = PgStore(postgres_url)
    try:
        table_id = new_table(store)
        with pytest.raises(RuntimeError), store.exclusive(table_id):
            store.append(table_id, 1, [roll(1)], NOW)
            raise RuntimeError("the command failed after its append")
        with pytest.raises(AppendConflict):  # event 2 was never stored: nothing follows it
            store.append(table_id, 2, [roll(2)], NOW)
        assert [e.seq for e in store.load(table_id)] == [1]
        assert [e.seq for e in store.append(table_id, 1, [roll(2)], NOW)] == [2]
    finally:
        store.close()


def test_the_events_read_with_a_command_key_are_those_stored_since(postgres_url: str) -> None:
    mine, theirs = PgStore(postgres_url), PgStore(postgres_url)
    try:
        table_id = new_table(mine)
        assert [e.seq for e in mine.load(table_id)] == [1]
        theirs.append(table_id, 1, [roll(1)], NOW, command_key="k1")
        theirs.append(table_id, 2, [roll(2)], NOW)
        assert [e.seq for e in mine.command_events(table_id, "k1")] == [2]
        assert [e.seq for e in mine.load(table_id, after_seq=1)] == [2, 3]
        assert mine.command_events(table_id, "absent") == []
        assert [e.seq for e in mine.load(table_id, after_seq=1)] == [2, 3]
        assert [e.seq for e in mine.load(table_id, after_seq=2)] == [3]
        stored = mine.append(table_id, 3, [roll(3)], NOW, command_key="k2")
        assert [e.seq for e in stored] == [4]
        assert mine.command_events(table_id, "k2") == stored
    finally:
        mine.close()
        theirs.close()


def test_a_read_on_a_connection_the_server_closed_is_tried_again(postgres_url: str) -> None:
    store = PgStore(postgres_url)
    try:
        table_id = new_table(store)
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()
        assert killed is not None and killed[0] >= 1
        assert [e.seq for e in store.load(table_id)] == [1]
    finally:
        store.close()


def _wait_for_a_lock_wait(url: str) -> None:
    """Return once a session of the database waits for a lock (fails after `WAIT` s)."""
    deadline = time.monotonic() + WAIT
    with psycopg.connect(url, autocommit=True) as admin:
        while True:
            row = admin.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            ).fetchone()
            if row is not None and row[0] >= 1:
                return
            assert time.monotonic() < deadline, "no session waits for the table's lock"
            time.sleep(0.02)


def _heard(listening: psycopg.Connection[tuple[object, ...]]) -> list[str]:
    return [n.payload for n in listening.notifies(timeout=5, stop_after=1)]


def test_an_appends_notification_carries_its_events_as_stored(postgres_url: str) -> None:
    writer, reader = PgStore(postgres_url), PgStore(postgres_url)
    try:
        table_id = new_table(writer)
        with psycopg.connect(postgres_url, autocommit=True) as listening:
            listening.execute(f"LISTEN {NOTIFY_CHANNEL}")
            writer.append(table_id, 1, [roll(2), Fact("test.note", {"text": "Zoé « ok »"})], NOW)
            [payload] = _heard(listening)
        head, newline, rows = payload.partition("\n")
        assert head == f"{table_id}:3" and newline
        assert payload.isascii()
        told = reader.told(table_id, 1, rows)
        assert told == reader.load(table_id, after_seq=1)  # the same events, chain links too
        # the reader knows the last chain link: its append needs no read of it
        assert reader._chains[table_id] == (3, told[-1].chain)
        # what does not follow directly, or names another table, is left to a read
        assert reader.told(table_id, 0, rows) is None
        assert reader.told(table_id, 2, rows) is None
        assert reader.told(str(uuid.uuid4()), 1, rows) is None
        for bad in ("", "[]", "{}", "[[1]]", "not json", '[["a"]]'):
            assert reader.told(table_id, 1, bad) is None, bad
    finally:
        writer.close()
        reader.close()


def test_a_notification_too_long_for_its_events_names_only_the_last_seq(
    postgres_url: str,
) -> None:
    store = PgStore(postgres_url)
    try:
        table_id = new_table(store)
        with psycopg.connect(postgres_url, autocommit=True) as listening:
            listening.execute(f"LISTEN {NOTIFY_CHANNEL}")
            long = Fact("test.note", {"text": "é" * NOTICE_BYTES})  # 6 escaped bytes each
            store.append(table_id, 1, [long], NOW)
            assert _heard(listening) == [f"{table_id}:2"]
            store.append(table_id, 2, [roll(3)], NOW)
            [payload] = _heard(listening)
            assert payload.startswith(f"{table_id}:3\n")
    finally:
        store.close()


def test_a_notice_holds_its_rows_only_within_the_limit() -> None:
    table_id = "0b8f8a5e-1b7e-4a43-9a51-6c1f8e2f9d10"

    def rows(text: str) -> list[list[object]]:
        return [[table_id, 7, "test.note", 1, None, "all", text, "t", None, None, "c"]]

    head = f"{table_id}:7"
    fixed = len(notice(table_id, rows(""))) - len(head) - 1  # the body without the text
    fits = notice(table_id, rows("x" * (NOTICE_BYTES - len(head) - 1 - fixed)))
    assert len(fits) == NOTICE_BYTES and fits.startswith(head + "\n")
    assert notice(table_id, rows("x" * (NOTICE_BYTES - len(head) - fixed))) == head
