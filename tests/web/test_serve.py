"""``tablee serve`` as a process: it serves the store and stops promptly with streams open."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import free_port, make_table


def test_serve_runs_and_stops_with_an_open_stream(tmp_path: Path) -> None:
    db = tmp_path / "served.sqlite3"
    store = SqliteStore(db)
    links = make_table(store)
    store.close()
    port = free_port()
    env = {**os.environ, "LANG": "en_US.UTF-8"}
    process = subprocess.Popen(
        [sys.executable, "-m", "tablee", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(base + links.gm, timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        assert httpx.get(base + "/t/" + "z" * 43, timeout=2).status_code == 404

        opened = threading.Event()

        def listen() -> None:
            try:
                with httpx.stream(
                    "GET", base + links.spectator + "/stream", timeout=30
                ) as response:
                    opened.set()
                    for _ in response.iter_raw():
                        pass
            except httpx.HTTPError:
                pass

        thread = threading.Thread(target=listen, daemon=True)
        thread.start()
        assert opened.wait(10)
        started = time.monotonic()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=15)
        assert time.monotonic() - started < 10  # the graceful-shutdown timeout ends the stream
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()  # type: ignore[union-attr]
        process.stderr.close()  # type: ignore[union-attr]
