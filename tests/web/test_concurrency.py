"""Two players spend the last cagnotte die at the same instant, over HTTP."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import httpx

from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import Running, make_table, serving

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def _prepare(client: httpx.Client, path: str) -> str:
    found = CSRF.search(client.get(path).text)
    assert found is not None
    return found.group(1)


def _race(targets: list[tuple[str, str]]) -> list[httpx.Response]:
    """Post one roll with 1 bonus die per (server, player link) at the same instant."""
    clients = [
        httpx.Client(base_url=base, timeout=30, headers={"HX-Request": "true"})
        for base, _ in targets
    ]
    tokens = [_prepare(c, path) for c, (_, path) in zip(clients, targets, strict=True)]
    barrier = threading.Barrier(len(targets))
    results: list[httpx.Response | None] = [None] * len(targets)

    def go(i: int) -> None:
        _base, path = targets[i]
        barrier.wait()
        results[i] = clients[i].post(path + "/act/roll", data={"csrf": tokens[i], "bonus": "1"})

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(targets))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    for c in clients:
        c.close()
    assert all(r is not None for r in results)
    return [r for r in results if r is not None]


def _start_with_one_die(store: SqliteStore, name: str) -> None:
    from tablee.systems.pouyss.commands import StartSession

    TableService(store).run_command(name, StartSession(cagnotte=1))


def _check(responses: list[httpx.Response], store: SqliteStore, name: str) -> None:
    codes = sorted(r.status_code for r in responses)
    assert codes == [200, 409], [r.text for r in responses]
    refused = next(r for r in responses if r.status_code == 409)
    assert "cagnotte" in refused.text
    state = TableService(store).state(name)
    assert [e.seq for e in state.events] == [1, 2, 3]
    assert [e.kind for e in state.events][-1] == "pouyss.roll"
    assert state.game.cagnotte is not None and state.game.cagnotte >= 0


def test_one_server_exactly_one_player_gets_the_last_die(server: Running) -> None:
    links = make_table(server.store)
    _start_with_one_die(server.store, links.name)
    targets = [(server.url, links.players["Zoé"]), (server.url, links.players["Ana"])]
    _check(_race(targets), server.store, links.name)


def test_two_server_processes_on_one_database(server: Running, db: Path) -> None:
    """Two servers (two connections, as two processes): the append race decides."""
    links = make_table(server.store)
    _start_with_one_die(server.store, links.name)
    other_store = SqliteStore(db)
    try:
        with serving(other_store) as other:
            targets = [(server.url, links.players["Zoé"]), (other.url, links.players["Ana"])]
            _check(_race(targets), server.store, links.name)
    finally:
        other_store.close()
