"""Fixtures of the browser tests: a real `tablee serve` and Debian's Chromium via Playwright.

The server runs as a subprocess (``python -m tablee serve``) on a free loopback port and a
throw-away SQLite store; Playwright drives ``/usr/bin/chromium`` (never a downloaded browser).
Without that browser the tests are skipped, unless ``TABLEE_REQUIRE_BROWSER=1`` (CI), where
they fail instead.

Sync Playwright only: these modules never run an asyncio event loop of their own.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.browser.play import Contexts

CHROMIUM = Path(os.environ.get("TABLEE_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(
    os.environ.get("TABLEE_ARTEFACTS")
    or Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
)
"""Where screenshots go: ``$TABLEE_ARTEFACTS``, else ``test-artifacts/screenshots/`` (no git)."""

# Every EventSource the page opens is recorded: its URL and each message it received, so a
# test sees exactly what the server pushed to that browser (not only what htmx drew).
RECORD_STREAMS = """
(() => {
  const Native = window.EventSource;
  window.__sse = [];
  window.__sources = [];
  class Recorded extends Native {
    constructor(url, init) {
      super(url, init);
      const n = window.__sources.push(this) - 1;
      for (const type of ["log", "message"]) {
        this.addEventListener(type, (e) => window.__sse.push(
          {source: n, url: String(url), type: type, id: e.lastEventId, data: e.data}));
      }
    }
  }
  window.EventSource = Recorded;
})();
"""


def _free_port() -> int:
    """A free loopback port: the first free one of ``$TABLEE_TEST_PORTS`` (``LOW-HIGH``, for
    a machine whose servers keep to a range) when it is set, else any the system gives."""
    low, _, high = os.environ.get("TABLEE_TEST_PORTS", "0-0").partition("-")
    for port in range(int(low), int(high or low) + 1):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue  # taken
            found: int = sock.getsockname()[1]
            return found
    raise RuntimeError(f"no free port in TABLEE_TEST_PORTS={low}-{high}")


def _wait_listening(port: int, process: subprocess.Popen[bytes], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"tablee serve exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"tablee serve did not listen on port {port} in {seconds} s")


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT``) of a `tablee serve` on a fresh SQLite store."""
    folder = tmp_path_factory.mktemp("serve")
    port = _free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(folder), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("TABLEE_DATABASE_URL", None)
    command = [sys.executable, "-m", "tablee", "serve", "--port", str(port)]
    command += ["--db", str(folder / "store.sqlite")]
    log = (folder / "serve.log").open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_listening(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        log.close()


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by sync Playwright (skipped when missing)."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: install Debian's chromium package to run these tests"
        if os.environ.get("TABLEE_REQUIRE_BROWSER") == "1":
            pytest.fail(reason + " (TABLEE_REQUIRE_BROWSER=1)")
        pytest.skip(reason)
    with sync_playwright() as playwright:
        found = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        try:
            yield found
        finally:
            found.close()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[Contexts]:
    """A factory of fresh browser contexts (one per person), all closed after the test."""
    made = Contexts(browser, RECORD_STREAMS)
    try:
        yield made
    finally:
        made.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots are saved (`ARTIFACTS`), made if missing."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
