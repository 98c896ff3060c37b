"""Several ``tablee serve`` processes on one PostgreSQL database, as behind a load balancer.

Each server is a real process (``python -m tablee serve --db postgresql://...``) on its own
port, on a fresh database dropped after the test. The tests check what one process alone
cannot show: two processes racing for the last cagnotte die (exactly one wins, the other is
refused by the rules, never by the race), a roll posted to one process reaching a stream
opened on the other, and a server process killed and started again. Skipped when
PostgreSQL is not reachable at 127.0.0.1:5432, unless ``TABLEE_REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tablee.table.connect import open_store
from tablee.table.links import issue_table_links
from tablee.table.service import TableService
from tests.table import conftest as table_fixtures
from tests.web.conftest import free_port

postgres_user = table_fixtures.postgres_user
postgres_url = table_fixtures.postgres_url

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

JSON = {"Content-Type": "application/json"}
ARRIVAL_BOUND = 20.0
"""Seconds within which a roll must reach a stream of the other process (loose: a loaded
machine must not fail the test; the delay is measured by benchmarks/bench_web.py)."""
START_BOUND = 180.0
"""Seconds a server process may take to answer its first request (a machine shared with
other jobs can be very slow to start Python processes)."""


@dataclass
class Server:
    """One ``tablee serve`` process."""

    url: str
    port: int
    process: subprocess.Popen[bytes]


@dataclass
class Table:
    """A table made in the database, and its links' paths."""

    name: str
    gm: str
    players: dict[str, str]
    spectator: str


def start(db: str, folder: Path, port: int | None = None) -> Server:
    """Start ``tablee serve`` on ``db`` and wait until it answers."""
    port = port or free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(folder)}
    env.pop("TABLEE_DATABASE_URL", None)
    with (folder / f"serve-{port}.log").open("ab") as log:  # the process keeps its own copy
        process = subprocess.Popen(
            [sys.executable, "-m", "tablee", "serve", "--port", str(port), "--db", db],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_BOUND
    while time.monotonic() < deadline:
        assert process.poll() is None, (folder / f"serve-{port}.log").read_text()
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/", timeout=2).status_code == 200:
                return Server(url, port, process)
        time.sleep(0.2)
    process.kill()
    process.wait(30)
    raise AssertionError("tablee serve did not start")


def stop(server: Server) -> None:
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGINT)
        try:
            server.process.wait(15)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(10)


@contextlib.contextmanager
def servers(db: str, folder: Path, count: int) -> Iterator[list[Server]]:
    started: list[Server] = []
    try:
        for _ in range(count):
            started.append(start(db, folder))
        yield started
    finally:
        for server in started:
            stop(server)


def make_table(db: str, name: str = "Zinc", cagnotte: int | None = None) -> Table:
    """Create a Pouyss table (players A and B) directly in the database; a session started."""
    from tablee.systems.pouyss.commands import StartSession

    store = open_store(db)
    try:
        service = TableService(store)
        state = service.create(system="pouyss", name=name, players=["A", "B"], lang="en")
        issued = issue_table_links(store, state, service.clock())
        if cagnotte is not None:
            service.run_command(name, StartSession(cagnotte=cagnotte))
    finally:
        store.close()
    paths = {i.info.player or i.info.role: "/t/" + i.token for i in issued}
    return Table(name, paths["gm"], {"A": paths["A"], "B": paths["B"]}, paths["spectator"])


@dataclass
class Stream:
    """The event ids read from one Server-Sent Event stream, in a thread."""

    url: str
    seqs: list[int] = field(default_factory=list)
    opened: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        # the server sends a comment every 15 s at least: a minute of silence is a failure
        with (
            httpx.Client(timeout=httpx.Timeout(10, read=60)) as client,
            contextlib.suppress(httpx.HTTPError),
            client.stream("GET", self.url) as response,
        ):
            assert response.status_code == 200
            self.opened.set()
            for line in response.iter_lines():
                if line.startswith("id: "):
                    self.seqs.append(int(line[4:]))
                if self.stop.is_set():
                    return


@contextlib.contextmanager
def streaming(url: str) -> Iterator[Stream]:
    stream = Stream(url)
    thread = threading.Thread(target=stream.run, daemon=True)
    thread.start()
    try:
        assert stream.opened.wait(30), "the stream did not open"
        yield stream
    finally:
        stream.stop.set()  # the thread (a daemon) ends at the stream's next line


def wait_for_seq(stream: Stream, seq: int) -> None:
    deadline = time.monotonic() + ARRIVAL_BOUND
    while seq not in stream.seqs:
        assert time.monotonic() < deadline, f"event {seq} never arrived: {stream.seqs}"
        time.sleep(0.05)


def roll(server: Server, link: str, body: dict[str, object]) -> httpx.Response:
    return httpx.post(f"{server.url}{link}/api/roll", content=json.dumps(body), headers=JSON)


def test_two_processes_spend_the_last_die_and_exactly_one_wins(
    postgres_url: str, tmp_path: Path
) -> None:
    table = make_table(postgres_url, cagnotte=1)
    with servers(postgres_url, tmp_path, 2) as (a, b):
        body = {"player": "A", "bonus": 1, "faces": "3,5"}
        answers: list[httpx.Response] = []
        barrier = threading.Barrier(2)

        def post(server: Server, link: str) -> None:
            barrier.wait(30)
            answers.append(roll(server, link, body))

        threads = [
            threading.Thread(target=post, args=(a, table.gm)),
            threading.Thread(target=post, args=(b, table.players["A"])),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        statuses = sorted(r.status_code for r in answers)
        assert statuses == [200, 409], [r.text for r in answers]
        refused = next(r.json() for r in answers if r.status_code == 409)
        assert "cagnotte" in refused["message"].lower(), refused
    store = open_store(postgres_url)
    try:
        state = TableService(store).state(table.name)
    finally:
        store.close()
    assert state.game.cagnotte == 0
    assert [e.seq for e in state.events] == [1, 2, 3]


def test_a_roll_posted_to_one_process_reaches_a_stream_of_the_other(
    postgres_url: str, tmp_path: Path
) -> None:
    table = make_table(postgres_url, cagnotte=3)
    with servers(postgres_url, tmp_path, 2) as (a, b):
        with streaming(f"{b.url}{table.spectator}/stream?after=2") as seen:
            answer = roll(a, table.gm, {"player": "A", "faces": "4"})
            assert answer.status_code == 200, answer.text
            wait_for_seq(seen, 3)
            answer = roll(b, table.players["B"], {"player": "B", "faces": "6"})
            assert answer.status_code == 200, answer.text
            wait_for_seq(seen, 4)
        assert seen.seqs == [3, 4]


def test_a_killed_server_process_restarts_and_serves_again(
    postgres_url: str, tmp_path: Path
) -> None:
    table = make_table(postgres_url, cagnotte=3)
    with servers(postgres_url, tmp_path, 1) as (b,):
        a = start(postgres_url, tmp_path)
        try:
            assert roll(a, table.gm, {"player": "A", "faces": "4"}).status_code == 200
            a.process.send_signal(signal.SIGKILL)  # no shutdown: connections cut as they are
            a.process.wait(10)
            with streaming(f"{b.url}{table.spectator}/stream?after=2") as seen:
                wait_for_seq(seen, 3)
                a = start(postgres_url, tmp_path, port=a.port)  # the same address again
                answer = roll(a, table.players["B"], {"player": "B", "faces": "6"})
                assert answer.status_code == 200, answer.text
                wait_for_seq(seen, 4)
            with streaming(f"{a.url}{table.spectator}/stream?after=0") as replayed:
                wait_for_seq(replayed, 4)
            assert replayed.seqs == [1, 2, 3, 4]
        finally:
            stop(a)
