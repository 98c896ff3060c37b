"""``tablee serve`` as a process: it listens where it says, refuses bad ports, stops cleanly.

Each server is a subprocess in its own session, so the stop is sent as a terminal sends
Ctrl+C: SIGINT to the whole process group (the worker processes of ``--workers`` get it
too). Deadlines only guard against a hang; no test asserts on time.
"""

from __future__ import annotations

import asyncio
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tablee.table.connect import open_store
from tests.table import conftest as table_fixtures
from tests.web.conftest import Links, free_port, make_table

postgres_user = table_fixtures.postgres_user
postgres_url = table_fixtures.postgres_url

DEADLINE = 60.0  # seconds: a guard against a hang, never a measure


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return {**env, "LANG": "en_US.UTF-8"}


def _start(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tablee", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
        start_new_session=True,
    )


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``tablee serve`` expecting it to exit by itself (the timeout guards a hang)."""
    return subprocess.run(
        [sys.executable, "-m", "tablee", "serve", *args],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=DEADLINE,
        check=False,
    )


def _wait_ready(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + DEADLINE
    while True:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert process.poll() is None, "the server stopped before serving"
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)


def _first_line(process: subprocess.Popen[bytes]) -> str:
    """The first line the server writes on standard output."""
    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        assert selector.select(DEADLINE), "the server wrote nothing"
    return process.stdout.readline().decode()


@pytest.fixture
def sqlite_table(tmp_path: Path) -> Iterator[tuple[str, Links]]:
    db = str(tmp_path / "served.sqlite3")
    store = open_store(db)
    links = make_table(store)  # type: ignore[arg-type]
    store.close()
    yield db, links


def _stop(process: subprocess.Popen[bytes], sig: int) -> tuple[int, str, str]:
    """Send ``sig`` to the server's process group, as a terminal's Ctrl+C does."""
    os.killpg(process.pid, sig)
    out, err = process.communicate(timeout=DEADLINE)
    return process.returncode, out.decode(), err.decode()


def _serve_and_stop(args: list[str], links: Links, sig: int) -> tuple[int, str, str]:
    """Serve, open two event streams, stop with ``sig``: (exit code, stdout, stderr)."""
    port = free_port()
    process = _start("--port", str(port), *args)
    base = f"http://127.0.0.1:{port}"
    ended: list[threading.Event] = []
    try:
        _wait_ready(base + links.gm, process)
        assert httpx.get(base + "/t/" + "z" * 43, timeout=5).status_code == 404

        def listen(opened: threading.Event, done: threading.Event) -> None:
            try:
                with httpx.stream("GET", base + links.spectator + "/stream", timeout=120) as r:
                    opened.set()
                    for _ in r.iter_raw():
                        pass
            except httpx.HTTPError:
                pass
            done.set()

        for _ in range(2):
            opened, done = threading.Event(), threading.Event()
            threading.Thread(target=listen, args=(opened, done), daemon=True).start()
            assert opened.wait(DEADLINE)
            ended.append(done)
        result = _stop(process, sig)
        assert all(done.wait(DEADLINE) for done in ended)
        return result
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stop_with_open_streams_exits_0_without_traceback(
    sqlite_table: tuple[str, Links], sig: int
) -> None:
    db, links = sqlite_table
    code, out, err = _serve_and_stop(["--db", db], links, sig)
    assert code == 0, err
    assert "Traceback" not in err
    # the streams ended by themselves: Uvicorn did not have to cancel them
    assert "timeout graceful shutdown exceeded" not in err
    assert out.startswith("Tablée serves on http://127.0.0.1:")


@pytest.mark.postgres
def test_ctrl_c_stops_two_worker_processes_without_traceback(postgres_url: str) -> None:
    store = open_store(postgres_url)
    links = make_table(store)  # type: ignore[arg-type]
    store.close()
    code, out, err = _serve_and_stop(["--db", postgres_url, "--workers", "2"], links, signal.SIGINT)
    assert code == 0, err
    assert "Traceback" not in err
    assert "timeout graceful shutdown exceeded" not in err
    assert out.startswith("Tablée serves on http://127.0.0.1:")


@pytest.mark.parametrize("port", ["99999", "65536", "-1", "abc", "8000.5", ""])
def test_an_invalid_port_is_refused_before_listening(
    sqlite_table: tuple[str, Links], port: str
) -> None:
    db, _ = sqlite_table
    done = _run(f"--port={port}", "--db", db)
    assert done.returncode == 2
    assert "serves on" not in done.stdout
    assert f"argument --port: {port!r} is not a port" in done.stderr
    assert "from 1 to 65535, or 0 for any free port" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_invalid_port_is_refused_in_french(sqlite_table: tuple[str, Links]) -> None:
    db, _ = sqlite_table
    done = _run("--port", "99999", "--db", db, "--lang", "fr")
    assert done.returncode == 2
    assert "'99999' n'est pas un port : donnez un nombre entier de 1 à 65535" in done.stderr


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A loopback port another program listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield int(other.getsockname()[1])


def test_a_busy_port_is_an_error_naming_the_address(
    sqlite_table: tuple[str, Links], busy_port: int
) -> None:
    db, _ = sqlite_table
    done = _run("--port", str(busy_port), "--db", db)
    assert done.returncode == 2
    assert "serves on" not in done.stdout
    assert done.stderr == (
        f"error: cannot listen on 127.0.0.1:{busy_port}: the port is already in use\n"
        "  Tip: stop the program that listens there, or choose another --port\n"
    )


def test_a_busy_port_is_an_error_in_french(sqlite_table: tuple[str, Links], busy_port: int) -> None:
    db, _ = sqlite_table
    done = _run("--port", str(busy_port), "--db", db, "--lang", "fr")
    assert done.returncode == 2
    assert "sert sur" not in done.stdout
    assert f"impossible d'écouter sur 127.0.0.1:{busy_port} : le port est déjà pris" in (
        done.stderr
    )


@pytest.mark.postgres
def test_a_busy_port_is_an_error_with_workers(postgres_url: str, busy_port: int) -> None:
    done = _run("--port", str(busy_port), "--db", postgres_url, "--workers", "2")
    assert done.returncode == 2
    assert "serves on" not in done.stdout
    assert f"cannot listen on 127.0.0.1:{busy_port}: the port is already in use" in done.stderr


def test_port_0_serves_on_the_free_port_it_announces(sqlite_table: tuple[str, Links]) -> None:
    db, links = sqlite_table
    process = _start("--port", "0", "--db", db)
    try:
        line = _first_line(process)
        prefix = "Tablée serves on http://127.0.0.1:"
        assert line.startswith(prefix), line
        port = int(line.removeprefix(prefix).split("/", 1)[0])
        assert port > 0
        _wait_ready(f"http://127.0.0.1:{port}{links.gm}", process)
        code, _, err = _stop(process, signal.SIGINT)
        assert code == 0, err
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


def test_a_stop_signal_ends_the_streams_and_still_reaches_the_server_handler() -> None:
    """The lifespan chains the server's stop handlers (as Uvicorn's), and puts them back."""
    from tablee.web.app import _streams_end_on_stop
    from tablee.web.hub import Hub

    received: list[int] = []

    def server_handler(signum: int, frame: object) -> None:
        received.append(signum)

    async def last_seq(table_id: str, known: int) -> int:
        return known

    async def scenario() -> tuple[bool, bool, bool]:
        hub = Hub(last_seq)
        woken = hub.signal("t1")
        with _streams_end_on_stop(hub):
            assert not hub.closed
            signal.raise_signal(signal.SIGTERM)
            await asyncio.wait_for(woken.wait(), DEADLINE)
            inside = signal.getsignal(signal.SIGTERM) is not server_handler
        return hub.closed, inside, signal.getsignal(signal.SIGTERM) is server_handler

    before = signal.signal(signal.SIGTERM, server_handler)
    try:
        closed, chained, restored = asyncio.run(scenario())
    finally:
        signal.signal(signal.SIGTERM, before)
    assert (closed, chained, restored) == (True, True, True)
    assert received == [signal.SIGTERM]
