"""Faults the web table must ride out: a revoked link's open stream, a store that failed.

Deadlines only guard against a hang; no test asserts on time. A stream's periodic link check
is pushed out to an hour, so a stream that ends proves the revocation itself ended it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import httpx
import pytest

from tablee.table.sqlite_store import SqliteStore
from tablee.web import pages
from tests.web.conftest import Links, Running, make_table, serving

DEADLINE = 30.0  # seconds: a guard against a hang, never a measure
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


class OpenStream:
    """A link's event stream read in a thread until the server ends it."""

    def __init__(self, url: str) -> None:
        self.opened = threading.Event()
        self.ended = threading.Event()
        self.status = 0
        threading.Thread(target=self._read, args=(url,), daemon=True).start()
        assert self.opened.wait(DEADLINE), "the stream did not open"

    def _read(self, url: str) -> None:
        try:
            with httpx.stream("GET", url, timeout=httpx.Timeout(5, read=3600)) as answer:
                self.status = answer.status_code
                self.opened.set()
                for _ in answer.iter_raw():
                    pass
        except httpx.HTTPError:
            pass
        finally:
            self.opened.set()
            self.ended.set()


def revoke(base: str, gm: str, path: str) -> None:
    """Revoke the link ``path`` through the game master's links page."""
    with httpx.Client(base_url=base, timeout=10) as client:
        found = CSRF.search(client.get(gm).text)
        assert found is not None
        prefix = path.removeprefix("/t/")[:8]
        answer = client.post(gm + "/links/revoke", data={"csrf": found.group(1), "prefix": prefix})
        assert answer.status_code == 303, answer.text


@pytest.fixture
def slow_recheck(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages, "RECHECK_SECONDS", 3600.0)


@pytest.fixture
def running(store: SqliteStore, slow_recheck: None) -> Iterator[tuple[Running, Links]]:
    links = make_table(store)
    with serving(store) as server:
        yield server, links


def test_a_revoked_links_open_stream_closes_at_once(running: tuple[Running, Links]) -> None:
    server, links = running
    ana = OpenStream(server.url + links.players["Ana"] + "/stream")
    zoe = OpenStream(server.url + links.players["Zoé"] + "/stream")
    assert ana.status == 200 and zoe.status == 200
    revoke(server.url, links.gm, links.players["Ana"])
    assert ana.ended.wait(DEADLINE), "the revoked link's stream stayed open"
    assert not zoe.ended.is_set()  # the other links of the table keep their streams
    assert httpx.get(server.url + links.players["Ana"] + "/stream").status_code == 403
