"""The event store contract: the same tests on every backend (see conftest.py).

The race tests run real processes (multiprocessing, "spawn"), each with its own store on the
same database, released together by a barrier.
"""

from __future__ import annotations

import multiprocessing
import os
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from tablee.errors import InputError, NotFoundError, RuleError
from tablee.systems.base import Fact
from tablee.table.chain import SECRET_PREFERENCE, first_broken_link
from tablee.table.pg_store import PgStore
from tablee.table.sql_store import SqlAlchemyStore
from tablee.table.sqlite_store import SqliteStore
from tablee.table.store import AppendConflict, DuplicateCommand, EventStore, TableInfo

NOW = datetime(2025, 11, 29, 12, 30, 45, 123456, tzinfo=UTC)
PROCESS_TIMEOUT = 60.0

Target = tuple[str, str]


def open_target(target: Target) -> EventStore:
    """Open a store on a target, in a worker process (same mapping as conftest.py)."""
    backend, where = target
    if backend == "sqlite3":
        return SqliteStore(Path(where))
    if backend == "psycopg":
        return PgStore(where)
    return SqlAlchemyStore(where)


def created(name: str) -> Fact:
    payload = {"system": "pouyss", "name": name, "players": ["Zoé"], "lang": "fr", "options": {}}
    return Fact("table.created", payload, actor="gm")


def new_table(store: EventStore, name: str = "zinc", at: datetime = NOW) -> str:
    table_id = str(uuid.uuid4())
    store.create_table(table_id, name, "pouyss", created(name), at)
    return table_id


def roll(n: int) -> Fact:
    return Fact("test.roll", {"n": n})


# -- the registry -----------------------------------------------------------------------


def test_create_then_find(store: EventStore) -> None:
    table_id = str(uuid.uuid4())
    first = store.create_table(table_id, "Le Zinc", "pouyss", created("Le Zinc"), NOW)
    assert (first.seq, first.kind, first.actor, first.created_at) == (1, "table.created", "gm", NOW)
    assert first.payload == created("Le Zinc").payload
    info = store.find_table("Le Zinc")
    assert info == TableInfo(table_id, "Le Zinc", "pouyss", NOW)
    assert store.load(table_id) == [first]
    assert store.tables() == [info]


def test_duplicate_name_is_refused_and_changes_nothing(store: EventStore) -> None:
    table_id = new_table(store, "zinc")
    other_id = str(uuid.uuid4())
    with pytest.raises(RuleError, match="zinc"):
        store.create_table(other_id, "zinc", "agents", created("zinc"), NOW + timedelta(1))
    assert [t.id for t in store.tables()] == [table_id]
    assert store.load(other_id) == []
    assert store.find_table("zinc").system == "pouyss"


def test_unknown_table(store: EventStore) -> None:
    with pytest.raises(NotFoundError, match="nowhere"):
        store.find_table("nowhere")
    unknown = str(uuid.uuid4())
    with pytest.raises(NotFoundError, match=unknown):
        store.append(unknown, 1, [roll(1)], NOW)
    assert store.load(unknown) == []


def test_tables_are_listed_oldest_first(store: EventStore) -> None:
    for minutes, name in [(0, "b"), (1, "a"), (2, "c")]:
        new_table(store, name, NOW + timedelta(minutes=minutes))
    assert [t.name for t in store.tables()] == ["b", "a", "c"]


# -- the log ----------------------------------------------------------------------------


def test_append_and_load_round_trip(store: EventStore) -> None:
    table_id = new_table(store)
    paris = datetime(2025, 11, 29, 14, 0, 0, 1, tzinfo=timezone(timedelta(hours=2)))
    facts = [
        Fact("test.roll", {"faces": [[1, 6], [], [3]], "note": "Éloïse lance 🎲"}, actor="Zoé"),
        Fact("test.blind", {"nested": {"a": [None, True, {"b": "ß"}]}}, visibility="gm"),
        Fact("test.v2", {}, actor=None, visibility="roller_and_gm", version=2),
    ]
    stored = store.append(table_id, 1, facts, paris)
    loaded = store.load(table_id, after_seq=1)
    assert loaded == stored
    assert [e.seq for e in loaded] == [2, 3, 4]
    for event, fact in zip(loaded, facts, strict=True):
        assert (event.kind, event.actor, event.visibility) == (
            fact.kind,
            fact.actor,
            fact.visibility,
        )
        assert (event.payload, event.schema_version) == (fact.payload, fact.version)
        assert event.created_at == paris
        assert event.created_at.utcoffset() == timedelta(0)
        assert event.table_id == table_id


def test_load_after_seq(store: EventStore) -> None:
    table_id = new_table(store)
    store.append(table_id, 1, [roll(n) for n in range(2, 7)], NOW)
    assert [e.seq for e in store.load(table_id)] == [1, 2, 3, 4, 5, 6]
    assert [e.payload["n"] for e in store.load(table_id, after_seq=4)] == [5, 6]
    assert store.load(table_id, after_seq=6) == []


def test_stale_append_conflicts_and_stores_nothing(store: EventStore) -> None:
    table_id = new_table(store)
    store.append(table_id, 1, [roll(2)], NOW)
    before = store.load(table_id)
    for stale in (0, 1, 3):
        with pytest.raises(AppendConflict):
            store.append(table_id, stale, [roll(99), roll(100)], NOW)
    assert store.load(table_id) == before


def test_naive_time_is_refused(store: EventStore) -> None:
    table_id = new_table(store)
    with pytest.raises(InputError, match="timezone"):
        store.append(table_id, 1, [roll(2)], datetime(2025, 1, 1, 12, 0))
    with pytest.raises(InputError):
        store.create_table(str(uuid.uuid4()), "naive", "pouyss", created("x"), datetime(2025, 1, 1))
    assert len(store.load(table_id)) == 1
    assert [t.name for t in store.tables()] == ["zinc"]


def test_preferences(store: EventStore) -> None:
    assert store.get_preference("last_table") is None
    store.set_preference("last_table", "zinc")
    assert store.get_preference("last_table") == "zinc"
    store.set_preference("last_table", "Le Bar à Thym")
    assert store.get_preference("last_table") == "Le Bar à Thym"
    assert store.get_preference("other") is None


def test_a_second_store_sees_the_first_ones_writes(store: EventStore, store_target: Target) -> None:
    table_id = new_table(store)
    other = open_target(store_target)
    try:
        other.append(table_id, 1, [roll(2)], NOW)
        with pytest.raises(AppendConflict):
            store.append(table_id, 1, [roll(2)], NOW)
        assert store.load(table_id) == other.load(table_id)
    finally:
        other.close()


# -- the envelope: rules version, command keys ------------------------------------------


def test_rules_version_is_stored_and_read(store: EventStore) -> None:
    table_id = new_table(store)
    facts = [Fact("test.roll", {"n": 1}, rules_version="pouyss-2"), roll(2)]
    stored = store.append(table_id, 1, facts, NOW)
    assert [e.rules_version for e in stored] == ["pouyss-2", None]
    assert store.load(table_id, after_seq=1) == stored
    assert [e.to_json()["rules_version"] for e in stored] == ["pouyss-2", None]
    assert store.load(table_id)[0].rules_version is None


def test_command_events_are_the_events_of_that_command(store: EventStore) -> None:
    table_id = new_table(store)
    other_id = new_table(store, "other")
    first = store.append(table_id, 1, [roll(2), roll(3), roll(4)], NOW, command_key="req-1")
    store.append(table_id, 4, [roll(5)], NOW)  # no key, same time
    second = store.append(table_id, 5, [roll(6), roll(7)], NOW, command_key="req-2")
    store.append(table_id, 7, [roll(8)], NOW, command_key="req-3")
    store.append(other_id, 1, [roll(9)], NOW, command_key="req-1")  # keys are per table
    assert store.command_events(table_id, "req-1") == first
    assert [e.seq for e in first] == [2, 3, 4]
    assert [e.command_key for e in first] == ["req-1", "req-1\x1f2", "req-1\x1f3"]
    assert store.command_events(table_id, "req-2") == second
    assert [e.seq for e in store.command_events(table_id, "req-3")] == [8]
    assert [e.payload["n"] for e in store.command_events(other_id, "req-1")] == [9]
    assert store.command_events(table_id, "req-4") == []
    assert store.command_events(str(uuid.uuid4()), "req-1") == []


def test_a_long_command_is_read_whole(store: EventStore) -> None:
    table_id = new_table(store)
    facts = [roll(n) for n in range(70)]  # more than one read batch
    stored = store.append(table_id, 1, facts, NOW, command_key="long")
    store.append(table_id, 71, [roll(99)], NOW, command_key="after")
    assert store.command_events(table_id, "long") == stored
    assert len(stored) == 70


def test_a_stored_key_is_refused_and_stores_nothing(store: EventStore) -> None:
    table_id = new_table(store)
    store.append(table_id, 1, [roll(2)], NOW, command_key="once")
    before = store.load(table_id)
    for expected in (2, 1):  # current or stale: the key is what is reported
        with pytest.raises(DuplicateCommand, match="once"):
            store.append(table_id, expected, [roll(3)], NOW, command_key="once")
    assert store.load(table_id) == before
    assert issubclass(DuplicateCommand, AppendConflict)


@pytest.mark.parametrize("key", ["", "x" * 101, "clé", "a\nb", "a\x1f2", "\t"])
def test_a_malformed_key_is_refused(store: EventStore, key: str) -> None:
    table_id = new_table(store)
    with pytest.raises(InputError, match="command key"):
        store.append(table_id, 1, [roll(2)], NOW, command_key=key)
    with pytest.raises(InputError, match="command key"):
        store.command_events(table_id, key)
    assert len(store.load(table_id)) == 1


def test_the_longest_and_widest_keys_are_accepted(store: EventStore) -> None:
    table_id = new_table(store)
    for n, key in enumerate(["x" * 100, " !~{}/=%_'\"", "0"], start=2):
        store.append(table_id, n - 1, [roll(n)], NOW, command_key=key)
        assert [e.seq for e in store.command_events(table_id, key)] == [n]


# -- the hash chain ---------------------------------------------------------------------


def test_appends_extend_the_chain(store: EventStore, store_target: Target) -> None:
    table_id = new_table(store)
    other = open_target(store_target)
    try:
        store.append(table_id, 1, [roll(2), roll(3)], NOW, command_key="a")
        other.append(table_id, 3, [roll(4)], NOW + timedelta(seconds=1))
        assert other.installation_secret() == store.installation_secret()
    finally:
        other.close()
    events = store.load(table_id)
    assert all(e.chain is not None and len(e.chain) == 64 for e in events)
    assert len({e.chain for e in events}) == 4
    assert first_broken_link(store.installation_secret(), events) is None
    assert first_broken_link("00" * 32, events) == events[0]  # another secret: no match


def test_the_secret_is_kept_in_the_preferences(store: EventStore) -> None:
    secret = store.installation_secret()
    assert len(bytes.fromhex(secret)) == 32
    assert store.get_preference(SECRET_PREFERENCE) == secret
    with pytest.raises(InputError, match="reserved"):
        store.set_preference(SECRET_PREFERENCE, "00" * 32)
    assert store.installation_secret() == secret


def _secret_worker(target: Target, barrier: Any, results: Any) -> None:
    try:
        store = open_target(target)
        try:
            barrier.wait(PROCESS_TIMEOUT)
            results.put(store.installation_secret())
        finally:
            store.close()
    except BaseException as exc:
        results.put(f"error: {exc!r}")


def test_processes_making_the_secret_at_once_agree(store: EventStore, store_target: Target) -> None:
    assert store.get_preference(SECRET_PREFERENCE) is None  # a new database has none yet
    secrets = run_processes(_secret_worker, 4, store_target)
    assert len(set(secrets)) == 1, secrets
    assert store.installation_secret() == secrets[0]


# -- races between processes ------------------------------------------------------------


def _race_worker(target: Target, table_id: str, rounds: int, barrier: Any, results: Any) -> None:
    """Each round: wait for everyone, then append one event at the round's expected seq."""
    outcomes: list[str] = []
    try:
        store = open_target(target)
        try:
            for expected in range(1, rounds + 1):
                barrier.wait(PROCESS_TIMEOUT)
                try:
                    store.append(table_id, expected, [roll(os.getpid())], datetime.now(UTC))
                    outcomes.append("ok")
                except AppendConflict:
                    outcomes.append("conflict")
        finally:
            store.close()
    except BaseException as exc:  # report, never hang the parent
        outcomes.append(f"error: {exc!r}")
    results.put(outcomes)


def _keyed_worker(target: Target, table_id: str, barrier: Any, results: Any) -> None:
    """Append one event with the shared key at seq 2, once everyone is ready."""
    try:
        store = open_target(target)
        try:
            barrier.wait(PROCESS_TIMEOUT)
            try:
                store.append(table_id, 1, [roll(os.getpid())], datetime.now(UTC), command_key="k")
                results.put("ok")
            except DuplicateCommand:
                results.put("duplicate")
            except AppendConflict:
                results.put("conflict")
        finally:
            store.close()
    except BaseException as exc:
        results.put(f"error: {exc!r}")


def _retry_worker(target: Target, table_id: str, count: int, barrier: Any, results: Any) -> None:
    """Append ``count`` events, each by load, next seq, append, retry on conflict."""
    try:
        store = open_target(target)
        try:
            barrier.wait(PROCESS_TIMEOUT)
            done = conflicts = 0
            while done < count and conflicts < 100 * count:
                last = store.load(table_id)[-1].seq
                try:
                    store.append(table_id, last, [roll(os.getpid())], datetime.now(UTC))
                    done += 1
                except AppendConflict:
                    conflicts += 1
            results.put(("done", done, conflicts))
        finally:
            store.close()
    except BaseException as exc:
        results.put(("error", repr(exc), 0))


def run_processes(worker: Callable[..., None], n: int, *args: object) -> list[Any]:
    """Run ``worker(*args, barrier, results)`` in ``n`` spawned processes; their results."""
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(n)
    results = ctx.Queue()
    processes = [ctx.Process(target=worker, args=(*args, barrier, results)) for _ in range(n)]
    for process in processes:
        process.start()
    try:
        collected = [results.get(timeout=PROCESS_TIMEOUT) for _ in processes]
    finally:
        for process in processes:
            process.join(PROCESS_TIMEOUT)
            if process.is_alive():
                process.kill()
                process.join()
            process.close()
        results.close()
        results.join_thread()
    return collected


def assert_gapless(store: EventStore, table_id: str, last: int) -> None:
    seqs = [e.seq for e in store.load(table_id)]
    assert seqs == list(range(1, last + 1))


def test_race_exactly_one_writer_wins(store: EventStore, store_target: Target) -> None:
    table_id = new_table(store)
    processes, rounds = 4, 5
    outcomes: Sequence[list[str]] = run_processes(
        _race_worker, processes, store_target, table_id, rounds
    )
    assert all(len(o) == rounds for o in outcomes), outcomes
    for r in range(rounds):
        assert sorted(o[r] for o in outcomes) == ["conflict"] * (processes - 1) + ["ok"], outcomes
    assert_gapless(store, table_id, rounds + 1)


def test_retrying_writers_lose_nothing(store: EventStore, store_target: Target) -> None:
    table_id = new_table(store)
    processes, each = 4, 10
    results = run_processes(_retry_worker, processes, store_target, table_id, each)
    assert [r[:2] for r in results] == [("done", each)] * processes, results
    assert_gapless(store, table_id, processes * each + 1)
    writers = [e.payload["n"] for e in store.load(table_id, after_seq=1)]
    assert sorted(writers.count(pid) for pid in set(writers)) == [each] * processes


def test_race_with_one_key_stores_it_once(store: EventStore, store_target: Target) -> None:
    table_id = new_table(store)
    outcomes = sorted(run_processes(_keyed_worker, 4, store_target, table_id))
    assert outcomes == ["duplicate"] * 3 + ["ok"], outcomes
    assert_gapless(store, table_id, 2)
    assert [e.seq for e in store.command_events(table_id, "k")] == [2]
