"""Cross-process fan-out on PostgreSQL: NOTIFY on commit, LISTEN in each server, poller net.

Two servers (two apps, each with its own store and connections, as two processes) run on
one fresh PostgreSQL database. Their pollers wait 30 s, so a roll posted to one server can
reach a stream of the other within `NOTIFY_BOUND` (10 s) only through LISTEN/NOTIFY. Skipped when
PostgreSQL is not reachable at 127.0.0.1:5432, unless ``TABLEE_REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx
import psycopg
import pytest
import uvicorn
from httpx_sse import connect_sse
from sqlalchemy import event

from tablee.dice import SourceChance, TypedFaces
from tablee.systems.pouyss.commands import StartSession
from tablee.systems.pouyss.plugin import POUYSS
from tablee.table.connect import open_store
from tablee.table.service import TableService
from tablee.table.sql_store import NOTIFY_CHANNEL, SqlAlchemyStore
from tablee.table.sqlite_store import SqliteStore
from tablee.table.store import AppendConflict, EventStore
from tablee.web import Settings, create_app
from tablee.web.listen import Listener, listener_for, parse_payload
from tests.table import conftest as table_fixtures
from tests.web.conftest import free_port, make_table

postgres_user = table_fixtures.postgres_user
postgres_url = table_fixtures.postgres_url

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
SLOW_POLL = 30.0  # seconds: only NOTIFY can deliver within the test's bounds
NOTIFY_BOUND = 10.0
"""Seconds within which an event must arrive: well under `SLOW_POLL`, so an arrival proves
NOTIFY delivered it, and loose enough that a loaded machine does not fail the test (the
latency itself is measured by benchmarks/bench_web.py, never asserted)."""
ROLLS = 50


@dataclass
class PgServer:
    """A real Uvicorn server in a thread, on its own store of the shared database."""

    url: str
    store: EventStore
    listener: Listener
    stopped_in: list[float] = field(default_factory=list)


STORES = ("psycopg", "sqlalchemy")
"""The stores a server can run on PostgreSQL: `open_store`'s (`PgStore`, what ``tablee serve``
uses) and `SqlAlchemyStore`; the tests of what crosses processes run on both."""


def store_of(kind: str, db_url: str) -> EventStore:
    """A store of the kind named in `STORES` on the database."""
    return open_store(db_url) if kind == "psycopg" else SqlAlchemyStore(db_url)


@contextlib.contextmanager
def serving(
    db_url: str, poll_interval: float, listen_to: str | None = None, kind: str = "psycopg"
) -> Iterator[PgServer]:
    """Serve the database on a store of ``kind`` (`STORES`); ``listen_to`` replaces the
    listener's address (a dead one)."""
    store = store_of(kind, db_url)
    app = create_app(store, Settings(rate_limit="1000/second", poll_interval=poll_interval))
    listener = app.state.listener
    assert isinstance(listener, Listener)
    if listen_to is not None:
        listener.conninfo = listen_to
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="error", timeout_graceful_shutdown=1
    )
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    running = PgServer(f"http://127.0.0.1:{port}", store, listener)
    try:
        wait_for(lambda: uv.started, 10, "the test server did not start")
        if listen_to is None:
            wait_for(listener.listening.is_set, 10, "the listener did not start")
        yield running
    finally:
        began = time.monotonic()
        uv.should_exit = True
        thread.join(10)
        running.stopped_in.append(time.monotonic() - began)
        store.close()


def count_calls(store: EventStore, method: str) -> list[tuple[object, ...]]:
    """The arguments of every call of the store's ``method`` from now on."""
    calls: list[tuple[object, ...]] = []
    called = getattr(store, method)

    def counted(*args: object) -> object:
        calls.append(args)
        return called(*args)

    setattr(store, method, counted)
    return calls


def wait_for(check: object, seconds: float, message: str) -> None:
    assert callable(check)
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(message)
        time.sleep(0.01)


class Stream:
    """A stream of one link read in a thread: every ``log`` event with its arrival time."""

    def __init__(self, url: str, until_seq: int) -> None:
        self.got: list[tuple[int, float]] = []
        self.changed = threading.Condition()
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._read, args=(url, until_seq), daemon=True)
        self._thread.start()

    def _read(self, url: str, until_seq: int) -> None:
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(60)) as client,
                connect_sse(client, "GET", url) as source,
            ):
                for sse in source.iter_sse():
                    if sse.event != "log":
                        continue
                    with self.changed:
                        self.got.append((int(sse.id), time.monotonic()))
                        self.changed.notify_all()
                    if int(sse.id) >= until_seq:
                        return
        except BaseException as exc:  # shown by the test waiting on it
            self.error = exc
            with self.changed:
                self.changed.notify_all()

    def arrival(self, seq: int, timeout: float) -> float | None:
        """When the event ``seq`` arrived (monotonic), waiting at most ``timeout`` seconds."""
        with self.changed:
            self.changed.wait_for(
                lambda: self.error is not None or any(s == seq for s, _ in self.got), timeout
            )
            assert self.error is None, self.error
            return next((t for s, t in self.got if s == seq), None)

    def seqs(self) -> list[int]:
        with self.changed:
            return [s for s, _ in self.got]

    def join(self) -> None:
        self._thread.join(10)


class Poster:
    """Posts Pouyss actions to one server with the game master's link."""

    def __init__(self, base: str, gm: str) -> None:
        self.client = httpx.Client(base_url=base, timeout=10, headers={"HX-Request": "true"})
        self.gm = gm
        found = CSRF.search(self.client.get(gm).text)
        assert found is not None
        self.csrf = found.group(1)

    def act(self, action: str, **data: str) -> None:
        answer = self.client.post(f"{self.gm}/act/{action}", data={"csrf": self.csrf, **data})
        assert answer.status_code == 200, answer.text

    def roll(self) -> None:
        self.act("roll", player="Zoé", faces="4")

    def close(self) -> None:
        self.client.close()


@pytest.mark.postgres
@pytest.mark.parametrize("kind", STORES)
def test_a_roll_through_one_server_reaches_the_others_streams_through_notify(
    postgres_url: str, kind: str
) -> None:
    with serving(postgres_url, SLOW_POLL, kind=kind) as a, serving(postgres_url, SLOW_POLL) as b:
        links = make_table(a.store)  # type: ignore[arg-type]
        poster = Poster(a.url, links.gm)
        last = 2 + ROLLS
        stream = Stream(b.url + links.spectator + "/stream", last)
        assert stream.arrival(1, 5) is not None
        reads = count_calls(b.store, "load")
        try:
            poster.act("session-start")
            assert stream.arrival(2, NOTIFY_BOUND) is not None
            latencies = []
            for seq in range(3, last + 1):
                began = time.monotonic()
                poster.roll()
                arrived = stream.arrival(seq, NOTIFY_BOUND)
                assert arrived is not None, f"roll {seq} did not reach the other server"
                latencies.append(arrived - began)
        finally:
            poster.close()
        stream.join()
        assert stream.seqs() == list(range(1, last + 1))  # nothing lost, nothing twice
        # the psycopg store's notifications carry the events: the other server read none
        # of them (the SQLAlchemy store's name the last seq only: each is read)
        assert (reads == []) == (kind == "psycopg"), reads
        print(
            f"\ncross-process latency over {ROLLS} rolls (POST sent -> other server's stream):"
            f" median {sorted(latencies)[ROLLS // 2] * 1000:.1f} ms,"
            f" max {max(latencies) * 1000:.1f} ms"
        )
    assert a.stopped_in[0] < NOTIFY_BOUND and b.stopped_in[0] < NOTIFY_BOUND  # no stop hangs


@pytest.mark.postgres
@pytest.mark.parametrize("kind", STORES)
def test_the_command_line_wakes_a_server_through_notify(postgres_url: str, kind: str) -> None:
    with serving(postgres_url, SLOW_POLL) as b:
        links = make_table(b.store)  # type: ignore[arg-type]
        stream = Stream(b.url + links.gm + "/stream", 2)
        assert stream.arrival(1, 5) is not None
        other = store_of(kind, postgres_url)  # another process (`tablee` opens "psycopg")
        try:
            began = time.monotonic()
            TableService(other).run_command(links.name, StartSession())
        finally:
            other.close()
        arrived = stream.arrival(2, NOTIFY_BOUND)
        assert arrived is not None and arrived - began < NOTIFY_BOUND
        stream.join()
        assert stream.seqs() == [1, 2]


@pytest.mark.postgres
def test_the_poller_delivers_while_the_listener_cannot_connect(postgres_url: str) -> None:
    dead = f"postgresql://nobody@127.0.0.1:{free_port()}/nothing"  # nothing listens there
    with (
        serving(postgres_url, SLOW_POLL) as a,
        serving(postgres_url, 0.2, listen_to=dead) as b,
    ):
        links = make_table(a.store)  # type: ignore[arg-type]
        poster = Poster(a.url, links.gm)
        stream = Stream(b.url + links.players["Ana"] + "/stream", 7)
        assert stream.arrival(1, 5) is not None
        try:
            poster.act("session-start")
            for _ in range(5):
                poster.roll()
        finally:
            poster.close()
        assert stream.arrival(7, 5) is not None
        stream.join()
        assert stream.seqs() == list(range(1, 8))
        assert b.listener.connections == 0 and not b.listener.listening.is_set()
    assert b.stopped_in[0] < NOTIFY_BOUND  # a listener retrying to connect does not hold the stop


@pytest.mark.postgres
def test_the_listener_reconnects_and_catches_up_after_its_connection_drops(
    postgres_url: str,
) -> None:
    with serving(postgres_url, SLOW_POLL) as a, serving(postgres_url, SLOW_POLL) as b:
        links = make_table(a.store)  # type: ignore[arg-type]
        poster = Poster(a.url, links.gm)
        stream = Stream(b.url + links.gm + "/stream", 4)
        assert stream.arrival(1, 5) is not None
        try:
            pid = b.listener.backend_pid
            with psycopg.connect(postgres_url, autocommit=True) as admin:
                killed = admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()
            assert killed == (True,)
            poster.act("session-start")  # while the listener is away, maybe
            # no poll within 30 s: the reconnected listener's store check delivers it
            assert stream.arrival(2, 5) is not None
            wait_for(lambda: b.listener.connections == 2, 5, "the listener did not reconnect")
            assert b.listener.backend_pid != pid
            for seq in (3, 4):
                began = time.monotonic()
                poster.roll()
                arrived = stream.arrival(seq, NOTIFY_BOUND)
                assert arrived is not None and arrived - began < NOTIFY_BOUND
        finally:
            poster.close()
        stream.join()
        assert stream.seqs() == [1, 2, 3, 4]


@pytest.mark.postgres
def test_the_store_notifies_only_what_it_commits(postgres_url: str) -> None:
    store = SqlAlchemyStore(postgres_url)
    service = TableService(store)
    try:
        state = service.create(system="pouyss", name="Zinc", players=["Zoé"], lang="en")
        facts = POUYSS.facts(
            POUYSS.decide(state.game, StartSession(), SourceChance(TypedFaces(())))
        )
        now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
        with psycopg.connect(postgres_url, autocommit=True) as listening:
            listening.execute(f"LISTEN {NOTIFY_CHANNEL}")
            stored = store.append(state.table_id, 1, facts, now)
            heard = [n.payload for n in listening.notifies(timeout=2, stop_after=1)]
            assert heard == [f"{state.table_id}:{stored[-1].seq}"]

            with pytest.raises(AppendConflict):  # refused: a stale expected seq
                store.append(state.table_id, 1, facts, now)

            def refuse_commit(conn: object) -> None:
                raise RuntimeError("commit refused by the test")

            event.listen(store._engine, "commit", refuse_commit)
            try:
                with pytest.raises(RuntimeError, match="commit refused"):
                    store.append(state.table_id, stored[-1].seq, facts, now)
            finally:
                event.remove(store._engine, "commit", refuse_commit)
            assert [n.payload for n in listening.notifies(timeout=1)] == []
            assert [e.seq for e in store.load(state.table_id)] == [1, 2]

            created = service.create(system="pouyss", name="Iode", players=["Ana"], lang="en")
            heard = [n.payload for n in listening.notifies(timeout=2, stop_after=1)]
            assert heard == [f"{created.table_id}:1"]
    finally:
        store.close()


def test_payloads_are_read_strictly() -> None:
    table_id = "0b8f8a5e-1b7e-4a43-9a51-6c1f8e2f9d10"
    assert parse_payload(f"{table_id}:12") == (table_id, 12)
    assert parse_payload(f'{table_id}:12\n[["{table_id}", 12, "a:b"]]') == (table_id, 12)
    for bad in ("", "12", ":12", f"{table_id}:", f"{table_id}:0", f"{table_id}:-3", "a:b"):
        assert parse_payload(bad) is None


def test_no_listener_for_sqlite(tmp_path: Path) -> None:
    from tablee.web.hub import Hub

    async def last_seq(table_id: str, known: int) -> int:
        return known

    hub = Hub(last_seq)
    lite = SqliteStore(tmp_path / "a.sqlite3")
    alchemy = SqlAlchemyStore("sqlite:///" + str(tmp_path / "b.sqlite3"))
    try:
        assert listener_for(lite, hub) is None
        assert listener_for(alchemy, hub) is None
    finally:
        lite.close()
        alchemy.close()
