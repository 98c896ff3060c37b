"""Fixtures of the web table tests: a store, the app, tables with their links, a real server."""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from tablee.table.links import issue_table_links
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web import Settings, create_app

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@dataclass
class Links:
    """A table's name and its link paths (``/t/TOKEN``)."""

    name: str
    gm: str
    players: dict[str, str]
    spectator: str


def make_table(
    store: SqliteStore,
    system: str = "pouyss",
    name: str = "Zinc",
    players: tuple[str, ...] = ("Zoé", "Ana"),
) -> Links:
    service = TableService(store)
    state = service.create(system=system, name=name, players=list(players), lang="en")
    issued = issue_table_links(store, state, service.clock())
    paths = {i.info.player or i.info.role: "/t/" + i.token for i in issued}
    return Links(
        state.name,
        paths["gm"],
        {p: paths[p] for p in state.players},
        paths["spectator"],
    )


def csrf_of(client: TestClient, path: str) -> str:
    page = client.get(path)
    assert page.status_code == 200, page.text
    found = CSRF.search(page.text)
    assert found is not None
    return found.group(1)


def csrf_for(client: TestClient, store: SqliteStore, path: str) -> str:
    """The form token of a link whose page shows no form (a spectator's), as the server makes it."""
    from tablee.table.links import hash_token
    from tablee.web.access import csrf_token

    link = store.find_link(hash_token(path.removeprefix("/t/")))
    assert link is not None
    return csrf_token(client.app.state.table.secret, link)  # type: ignore[attr-defined]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


@pytest.fixture
def store(db: Path) -> Iterator[SqliteStore]:
    opened = SqliteStore(db)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    app = create_app(store, Settings(rate_limit="1000/second"))
    # the pages post with htmx, which sends HX-Request (without it a form answers with a page)
    with TestClient(
        app, raise_server_exceptions=False, headers={"HX-Request": "true"}
    ) as test_client:
        yield test_client


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Running:
    """A real Uvicorn server in a thread."""

    url: str
    store: SqliteStore


@contextlib.contextmanager
def serving(store: SqliteStore) -> Iterator[Running]:
    """A real Uvicorn server on ``store``, on a free loopback port, in a thread."""
    app = create_app(store, Settings(rate_limit="1000/second", poll_interval=0.1))
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
    )
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not uv.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield Running(f"http://127.0.0.1:{port}", store)
    finally:
        uv.should_exit = True
        thread.join(10)


@pytest.fixture
def server(store: SqliteStore) -> Iterator[Running]:
    with serving(store) as running:
        yield running


def race(url: str, path: str, action: str, data: dict[str, str]) -> list[httpx.Response]:
    """Post one form from two browser tabs of the link ``path`` at the same instant.

    Each tab loads the page first for its own form token; both posts then wait on a barrier.
    Returns the two answers (in no particular order).
    """
    clients = [
        httpx.Client(base_url=url, timeout=30, headers={"HX-Request": "true"}) for _ in range(2)
    ]
    tokens = []
    for c in clients:
        found = CSRF.search(c.get(path).text)
        assert found is not None
        tokens.append(found.group(1))
    barrier = threading.Barrier(2)
    results: list[httpx.Response | None] = [None, None]

    def go(i: int) -> None:
        barrier.wait()
        results[i] = clients[i].post(f"{path}/act/{action}", data={"csrf": tokens[i], **data})

    threads = [threading.Thread(target=go, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for c in clients:
        c.close()
    return [r for r in results if r is not None]
