"""Faults on PostgreSQL: a cut connection, a killed server, a killed master, a revocation.

Only this test's own database is touched (``pg_terminate_backend`` on its backends); the
shared PostgreSQL server is never restarted. Servers run as subprocesses on ports 8860-8879
(or in threads); deadlines only guard against a hang, no test asserts on time. Skipped when
PostgreSQL is not reachable at 127.0.0.1:5432, unless ``TABLEE_REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import psycopg
import pytest

from tablee.table.links import revoke_by_prefix
from tablee.table.sql_store import SqlAlchemyStore
from tablee.web import common, pages
from tablee.web.listen import Listener
from tests.table import conftest as table_fixtures
from tests.web.conftest import free_port, make_table
from tests.web.test_faults import OpenStream, revoke
from tests.web.test_pg_fanout import STORES, count_calls, serving, store_of, wait_for

postgres_user = table_fixtures.postgres_user
postgres_url = table_fixtures.postgres_url

pytestmark = pytest.mark.postgres

DEADLINE = 60.0  # seconds: a guard against a hang, never a measure
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
PORTS = (8866, 8867, 8868, 8869)  # this module's share of the helper's port range


def cut(url: str) -> int:
    """End every connection to the database of ``url`` but our own: how many were ended."""
    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(url.replace("/" + name, "/postgres"), autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        ).fetchall()
    return len(rows)


def rolls(url: str, name: str) -> int:
    store = SqlAlchemyStore(url)
    try:
        events = store.load(store.find_table(name).id)
        return sum(1 for e in events if e.kind == "pouyss.roll")
    finally:
        store.close()


def test_a_cut_connection_answers_no_500(postgres_url: str) -> None:
    with serving(postgres_url, 0.2) as server:
        links = make_table(server.store)  # type: ignore[arg-type]
        client = httpx.Client(base_url=server.url, timeout=10, headers={"HX-Request": "true"})
        with client:
            found = CSRF.search(client.get(links.gm).text)
            assert found is not None
            csrf = found.group(1)
            assert client.post(links.gm + "/act/session-start", data={"csrf": csrf}).is_success
            listening = server.listener.connections
            assert cut(postgres_url) >= 1
            answers = [
                client.get(links.gm),
                client.post(links.gm + "/act/roll", data={"csrf": csrf, "player": "Zoé"}),
                client.get(links.players["Ana"]),
                client.get("/readyz"),
                client.post(links.gm + "/act/roll", data={"csrf": csrf, "player": "Ana"}),
            ]
            assert [a.status_code for a in answers] == [200] * 5, [a.text for a in answers]
            assert cut(postgres_url) >= 1  # and once more, with the pool just renewed
            again = client.post(links.gm + "/act/roll", data={"csrf": csrf, "player": "Zoé"})
            assert again.status_code == 200, again.text
        listener: Listener = server.listener
        wait_for(lambda: listener.connections > listening, DEADLINE, "LISTEN did not come back")
    assert rolls(postgres_url, links.name) == 3  # each roll stored once


@pytest.mark.parametrize("kind", STORES)
def test_a_revocation_through_one_server_closes_the_stream_on_another(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    monkeypatch.setattr(pages, "RECHECK_SECONDS", 3600.0)
    with serving(postgres_url, 30.0, kind=kind) as a, serving(postgres_url, 30.0) as b:
        links = make_table(a.store)  # type: ignore[arg-type]
        ana = OpenStream(b.url + links.players["Ana"] + "/stream")
        zoe = OpenStream(b.url + links.players["Zoé"] + "/stream")
        assert ana.status == 200 and zoe.status == 200
        revoke(a.url, links.gm, links.players["Ana"])
        assert ana.ended.wait(DEADLINE), "the other server kept the revoked link's stream"
        assert not zoe.ended.is_set()
        command_line = store_of(kind, postgres_url)  # `tablee table links --revoke` opens "psycopg"
        try:
            token = links.players["Zoé"].removeprefix("/t/")
            table_id = command_line.find_table(links.name).id
            revoke_by_prefix(command_line, table_id, token[:8], datetime.now(UTC))
        finally:
            command_line.close()
        assert zoe.ended.wait(DEADLINE), "a revocation by another process kept the stream"


# -- server processes ----------------------------------------------------------------------------


def _start(port: int, db: str, *args: str) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL")}
    return subprocess.Popen(
        [sys.executable, "-m", "tablee", "serve", "--port", str(port), "--db", db, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**env, "LANG": "en_US.UTF-8"},
        start_new_session=True,
    )


def _wait_ready(base: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + DEADLINE
    while True:
        try:
            if httpx.get(base + "/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert process.poll() is None, "the server stopped before serving"
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)


def _free(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _end(process: subprocess.Popen[bytes]) -> None:
    """Kill the server's whole process group (its workers too, even once the master is gone)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=DEADLINE)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_killing_the_master_of_workers_leaves_no_process_on_the_port(postgres_url: str) -> None:
    port = PORTS[0]
    assert _free(port), f"port {port} is taken"
    master = _start(port, postgres_url, "--workers", "2")
    try:
        _wait_ready(f"http://127.0.0.1:{port}", master)
        workers = [pid for pid in _children(master.pid) if pid != master.pid]
        assert len(workers) >= 2
        os.kill(master.pid, signal.SIGKILL)  # no chance to stop its workers
        master.wait(DEADLINE)
        deadline = time.monotonic() + DEADLINE
        while any(_alive(pid) for pid in workers) or not _free(port):
            assert time.monotonic() < deadline, "a worker still serves the port"
            time.sleep(0.1)
    finally:
        _end(master)


def test_a_server_killed_and_restarted_keeps_the_table(postgres_url: str) -> None:
    store = SqlAlchemyStore(postgres_url)
    links = make_table(store)  # type: ignore[arg-type]
    store.close()
    port = PORTS[1]
    base = f"http://127.0.0.1:{port}"
    for turn in range(2):
        server = _start(port, postgres_url)
        try:
            _wait_ready(base, server)
            with httpx.Client(base_url=base, timeout=10, headers={"HX-Request": "true"}) as c:
                found = CSRF.search(c.get(links.gm).text)
                assert found is not None
                if turn == 0:
                    started = c.post(links.gm + "/act/session-start", data={"csrf": found[1]})
                    assert started.status_code == 200
                rolled = c.post(
                    links.gm + "/act/roll", data={"csrf": found[1], "player": "Zoé", "faces": "5"}
                )
                assert rolled.status_code == 200, rolled.text
        finally:
            _end(server)
    assert rolls(postgres_url, links.name) == 2


def test_the_master_of_workers_serves_the_sum_of_their_metrics(postgres_url: str) -> None:
    store = SqlAlchemyStore(postgres_url)
    links = make_table(store)  # type: ignore[arg-type]
    store.close()
    port, metrics = PORTS[2], PORTS[3]
    master = _start(port, postgres_url, "--workers", "2", "--metrics", str(metrics))
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_ready(base, master)
        with httpx.Client(timeout=10, headers={"HX-Request": "true"}) as c:
            for _ in range(4):  # new connections: the workers share them
                found = CSRF.search(c.get(base + links.gm).text)
                assert found is not None
                answer = c.post(base + links.gm + "/act/session-start", data={"csrf": found[1]})
                assert answer.status_code in (200, 409), answer.text
            text = c.get(f"http://127.0.0.1:{metrics}/metrics").text
        assert 'tablee_commands_total{game="pouyss"} 1.0' in text
        assert 'tablee_refusals_total{kind="rules"} 3.0' in text
        os.killpg(master.pid, signal.SIGINT)  # a clean stop removes the metrics' folder
        master.wait(DEADLINE)
    finally:
        _end(master)


def _page_status(base: str, path: str) -> int:
    return httpx.get(base + path, timeout=10).status_code


@pytest.mark.parametrize("kind", STORES)
def test_a_link_kept_by_a_server_ends_with_a_revocation_on_another(
    postgres_url: str, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(common, "LINK_KEPT_SECONDS", 3600.0)  # only the revocation ends it
    with serving(postgres_url, 30.0, kind=kind) as a, serving(postgres_url, 30.0) as b:
        links = make_table(a.store)  # type: ignore[arg-type]
        ana, zoe = links.players["Ana"], links.players["Zoé"]
        reads = count_calls(b.store, "find_link")
        assert [_page_status(b.url, ana) for _ in range(3)] == [200] * 3
        assert len(reads) == 1  # kept while the listener hears revocations
        revoke(a.url, links.gm, ana)
        wait_for(lambda: _page_status(b.url, ana) == 403, DEADLINE, "B kept a revoked link")
        before = len(reads)
        assert _page_status(b.url, zoe) == 200
        assert len(reads) == before + 1  # the revocation ended every kept link


def test_links_are_read_every_time_while_the_listener_is_not_listening(
    postgres_url: str,
) -> None:
    dead = f"postgresql://nobody@127.0.0.1:{free_port()}/nothing"  # nothing listens there
    with serving(postgres_url, 30.0, listen_to=dead) as b:
        links = make_table(b.store)  # type: ignore[arg-type]
        reads = count_calls(b.store, "find_link")
        assert [_page_status(b.url, links.players["Ana"]) for _ in range(3)] == [200] * 3
        assert len(reads) == 3
