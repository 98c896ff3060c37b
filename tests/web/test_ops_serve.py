"""``tablee serve --metrics`` and ``--access-log`` as a process (ports 8870-8879).

Deadlines only guard against a hang; no test asserts on time.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tablee.cli.serve import metrics_address
from tablee.table.connect import open_store
from tests.web.conftest import make_table

DEADLINE = 60.0


def _start(*args: str) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL")}
    return subprocess.Popen(
        [sys.executable, "-m", "tablee", "serve", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**env, "LANG": "en_US.UTF-8"},
        start_new_session=True,
    )


def _get(url: str, process: subprocess.Popen[bytes]) -> httpx.Response:
    deadline = time.monotonic() + DEADLINE
    while True:
        try:
            return httpx.get(url, timeout=2)
        except httpx.TransportError:
            assert process.poll() is None, "the server stopped"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)


def test_metrics_addresses_are_read_as_port_or_host_and_port() -> None:
    parse = metrics_address(lambda text: text)
    assert parse("9100") == ("127.0.0.1", 9100)
    assert parse("0.0.0.0:9100") == ("0.0.0.0", 9100)
    assert parse("[::1]:9100") == ("::1", 9100)
    for bad in ("", "x", "9100x", "host:", "0", "70000", ":9100"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse(bad)


def test_serve_exposes_metrics_apart_and_logs_requests_as_json(tmp_path: Path) -> None:
    db = str(tmp_path / "served.sqlite3")
    store = open_store(db)
    links = make_table(store)  # type: ignore[arg-type]
    store.close()
    server = _start("--db", db, "--port", "8870", "--metrics", "8871", "--access-log", "json")
    try:
        page = _get("http://127.0.0.1:8870" + links.gm, server)
        assert page.status_code == 200
        assert httpx.get("http://127.0.0.1:8870/metrics", timeout=5).status_code == 404
        text = _get("http://127.0.0.1:8871/metrics", server).text
        assert "tablee_open_streams 0.0" in text
        assert 'tablee_store_seconds_count{op="load"}' in text
    finally:
        os.killpg(server.pid, signal.SIGINT)
        _, err = server.communicate(timeout=DEADLINE)
    lines = err.decode().splitlines()
    assert any('"path": "/t/~' in line and '"status": 200' in line for line in lines), lines
    assert links.gm.removeprefix("/t/") not in err.decode()


def test_a_bad_metrics_address_is_a_usage_error(tmp_path: Path) -> None:
    db = str(tmp_path / "x.sqlite3")
    done = subprocess.run(
        [sys.executable, "-m", "tablee", "serve", "--db", db, "--metrics", "nine"],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        check=False,
    )
    assert done.returncode == 2 and "'nine' is not an address for the metrics" in done.stderr
