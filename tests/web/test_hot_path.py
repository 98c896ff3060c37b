"""The web table's hot path: shared stream messages, store calls, the cross-site guard.

The stream renders a message once per audience and shares it (`tablee.web.render.Fragments`):
every viewer must still receive exactly what rendering for that viewer alone gives, hidden
rolls included. Store calls run inline on SQLite and in worker threads elsewhere
(`WebTable.run`). The guard's ``Origin: null`` rule (our pages send no referrer, so browsers
send ``Origin: null`` on their own posts) leans on ``Sec-Fetch-Site``.

Source: docs/architecture.md, "Web hot path"; docs/web.md, "Security model".
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tablee.table.links import hash_token
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web import Settings, create_app
from tablee.web.access import Viewer
from tablee.web.common import WebTable, runs_inline
from tablee.web.render import TAIL, Fragments, sse_message, stream_fragment
from tests.web.conftest import csrf_of, make_table
from tests.web.test_systems import act


def viewers_of(store: SqliteStore, paths: list[str], name: str) -> list[Viewer]:
    """Every link as a viewer, in both languages."""
    found = []
    for path in paths:
        link = store.find_link(hash_token(path.removeprefix("/t/")))
        assert link is not None
        found += [Viewer(link, name, lang) for lang in ("en", "fr")]
    return found


def test_shared_messages_equal_each_viewers_own_rendering(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store)
    gm, zoe, ana = links.gm, links.players["Zoé"], links.players["Ana"]
    assert act(client, gm, "session-start")[0] == 200
    assert act(client, gm, "roll", player="Zoé", faces="6", visibility="gm")[0] == 200
    assert act(client, zoe, "roll", faces="3", visibility="roller_and_gm")[0] == 200
    assert act(client, ana, "roll", faces="5", reasons="<b>x</b>")[0] == 200
    assert act(client, ana, "roll", faces="2", visibility="roller_and_gm")[0] == 200
    undo = client.post(gm + "/undo", data={"csrf": csrf_of(client, gm), "seq": "3"})
    assert undo.status_code == 200, undo.text
    state = TableService(store).state(links.name)
    assert state.last_seq == 7 and state.events[-1].kind == "table.voided"
    by_seq = {e.seq: e for e in state.events}
    everyone = viewers_of(store, [gm, zoe, ana, links.spectator], links.name)
    shared = Fragments()
    for _ in range(2):  # the second pass is served from what the first one kept
        for viewer in everyone:
            for event in state.events:
                alone = stream_fragment([event], state, viewer, by_seq)
                expected = sse_message(alone, event="log", event_id=event.seq)
                assert shared.message(event, state, viewer) == expected, (viewer, event.seq)
    # the blind roll's result reaches the game master only
    gm_view = shared.message(state.events[2], state, everyone[0]).decode()
    assert "Triomphe" in gm_view
    for viewer in everyone[2:]:
        assert "Triomphe" not in shared.message(state.events[2], state, viewer).decode()


def test_an_older_state_is_rendered_without_being_kept(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store)
    assert act(client, links.gm, "session-start")[0] == 200
    service = TableService(store)
    before = service.state(links.name)
    assert act(client, links.gm, "reward", amount="2")[0] == 200  # the cagnotte changes
    after = service.state(links.name)
    viewer = viewers_of(store, [links.spectator], links.name)[0]
    shared = Fragments()
    first = shared.message(after.events[1], after, viewer)
    old = shared.message(before.events[1], before, viewer)  # resources as they were then
    expected = stream_fragment([before.events[1]], before, viewer, {})
    assert old == sse_message(expected, event="log", event_id=2) and old != first
    assert TAIL >= 1


def test_store_calls_run_inline_on_sqlite_and_in_threads_elsewhere(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "t.sqlite3")

    class Wrapped:
        """Another store (as PostgreSQL's): same calls, not a SqliteStore."""

        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

    try:
        inline = WebTable(store, Settings())
        threaded = WebTable(Wrapped(), Settings())  # type: ignore[arg-type]
        assert inline.inline and not threaded.inline
        here = threading.get_ident()

        async def where(table: WebTable) -> int:
            return await table.run(threading.get_ident)

        assert asyncio.run(where(inline)) == here
        assert asyncio.run(where(threaded)) != here
    finally:
        store.close()


@pytest.mark.parametrize(
    ("conninfo", "store_calls", "inline"),
    [
        ("host=127.0.0.1 port=5432 dbname=t", "auto", True),
        ("host=localhost dbname=t", "auto", True),
        ("host=/var/run/postgresql dbname=t", "auto", True),
        ("dbname=t", "auto", True),  # no host: the Unix socket
        ("host=::1 dbname=t", "auto", True),
        ("host=db.example dbname=t", "auto", False),  # another host: threads
        ("host=127.0.0.1,db.example dbname=t", "auto", False),
        ("hostaddr=10.0.0.5 dbname=t", "auto", False),
        ("host=db.example dbname=t", "inline", True),
        ("host=127.0.0.1 dbname=t", "threads", False),
    ],
)
def test_store_calls_run_on_the_loop_for_a_database_on_this_machine(
    conninfo: str, store_calls: str, inline: bool
) -> None:
    class Pg:
        """A store reached by a PostgreSQL connection string (as `PgStore`)."""

        def __init__(self) -> None:
            self.conninfo = conninfo

    assert runs_inline(Pg(), store_calls) is inline  # type: ignore[arg-type]


def test_an_unknown_place_for_store_calls_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="store_calls"):
        runs_inline(SqliteStore(tmp_path / "t.sqlite3"), "sometimes")


@pytest.mark.parametrize(
    ("fetch_site", "status"),
    [("same-origin", 303), ("cross-site", 403), ("same-site", 403), (None, 403)],
)
def test_null_origin_needs_a_same_origin_fetch(
    store: SqliteStore, fetch_site: str | None, status: int
) -> None:
    links = make_table(store)
    app = create_app(store, Settings(rate_limit="1000/second"))
    with TestClient(app, raise_server_exceptions=False) as c:
        headers = {"Origin": "null"}
        if fetch_site is not None:
            headers["Sec-Fetch-Site"] = fetch_site
        form = {"csrf": csrf_of(c, links.gm), "step": "start"}
        response = c.post(
            links.gm + "/act/session-start", data=form, headers=headers, follow_redirects=False
        )
        assert response.status_code == status, response.text
        stored = TableService(store).state(links.name).last_seq
        assert stored == (2 if status == 303 else 1)  # a refused post stored nothing


def test_several_server_processes_are_refused_on_sqlite(tmp_path: Path) -> None:
    import io

    from tablee.cli.main import main

    err = io.StringIO()
    code = main(["serve", "--workers", "2", "--db", str(tmp_path / "w.sqlite3")], err=err)
    assert code != 0
    assert "--workers 2 needs PostgreSQL" in err.getvalue()


def test_a_worker_process_builds_its_app_from_the_settings_handed_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from tablee.cli.serve import WORKER_ENV, worker_app

    db = tmp_path / "w.sqlite3"
    store = SqliteStore(db)
    links = make_table(store)
    store.close()
    given = {"db": str(db), "trusted": ["https://table.example"], "create": False}
    monkeypatch.setenv(WORKER_ENV, json.dumps(given))
    app = worker_app()
    table = app.state.table
    assert table.settings.trusted_origins == ("https://table.example",)
    assert not table.settings.allow_create
    with TestClient(app) as c:
        assert c.get(links.gm).status_code == 200
        assert c.get("/").status_code == 404  # creating tables is off
    table.store.close()


def test_rate_counters_start_no_thread_per_request(monkeypatch: pytest.MonkeyPatch) -> None:
    # limits' own MemoryStorage starts a timer thread on a count whenever its last one has
    # run: under load, a thread every 10 ms started from the event loop.
    import limits.storage.memory
    from limits import parse
    from limits.strategies import FixedWindowRateLimiter

    from tablee.web.guard import SweptMemory

    started: list[float] = []

    class CountedTimer:
        def __init__(self, interval: float, function: Any) -> None:
            self.alive = False

        def start(self) -> None:
            started.append(1)

        def is_alive(self) -> bool:
            return self.alive  # as if each timer had run already

    monkeypatch.setattr(limits.storage.memory.threading, "Timer", CountedTimer)
    plain = FixedWindowRateLimiter(limits.storage.memory.MemoryStorage())
    item = parse("30/second")
    for n in range(5):
        plain.hit(item, f"link:{n}")
    assert len(started) == 6  # what the change avoids: one at creation, then one per count
    started.clear()
    counters = SweptMemory()
    swept = FixedWindowRateLimiter(counters)
    for n in range(5):
        assert swept.hit(item, f"link:{n}")
    assert len(started) == 1  # MemoryStorage's own, at creation
    assert counters.get(item.key_for("link:0")) == 1


def test_sweep_drops_ended_windows_only() -> None:
    from tablee.web.guard import SweptMemory

    counters = SweptMemory()
    counters.incr("ended", expiry=0)  # its window ends at once
    counters.incr("open", expiry=3600)
    counters.incr("open", expiry=3600)
    counters.sweep()
    assert "ended" not in counters.storage and "ended" not in counters.expirations
    assert counters.storage["open"] == 2


def test_guard_still_refuses_past_the_rate_limit(store: SqliteStore) -> None:
    links = make_table(store)
    app = create_app(store, Settings(rate_limit="3/minute"))
    with TestClient(app) as client:
        codes = [client.get(links.gm).status_code for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]


def test_one_fragments_across_states_gives_each_viewer_its_own_rendering(
    client: TestClient, store: SqliteStore
) -> None:
    # Resources panels and choice lists are kept across states, keyed by their data: each
    # new state's message must still equal what rendering for that viewer alone gives, as
    # the cagnotte moves, secret and blind rolls come and go, and an undo voids a roll.
    links = make_table(store)
    gm, zoe, ana = links.gm, links.players["Zoé"], links.players["Ana"]
    everyone = viewers_of(store, [gm, zoe, ana, links.spectator], links.name)
    service = TableService(store)
    shared = Fragments()
    steps = [
        (gm, "session-start", {}),
        (gm, "roll", {"player": "Zoé", "faces": "6", "visibility": "gm"}),
        (zoe, "roll", {"faces": "3", "visibility": "roller_and_gm"}),
        (gm, "reward", {"amount": "2"}),
        (ana, "roll", {"faces": "5"}),
        (ana, "roll", {"faces": "2", "visibility": "roller_and_gm"}),
        (gm, "reward", {"amount": "1"}),
    ]
    seen: set[bytes] = set()
    for link, action, fields in steps:
        assert act(client, link, action, **fields)[0] == 200, action
        state = service.state(links.name)
        by_seq = {e.seq: e for e in state.events}
        event = state.events[-1]
        for viewer in everyone:
            alone = stream_fragment([event], state, viewer, by_seq)
            expected = sse_message(alone, event="log", event_id=event.seq)
            assert shared.message(event, state, viewer) == expected, (viewer, event.seq)
            seen.add(expected)
    undo = client.post(gm + "/undo", data={"csrf": csrf_of(client, gm), "seq": "5"})
    assert undo.status_code == 200, undo.text
    state = service.state(links.name)
    by_seq = {e.seq: e for e in state.events}
    for viewer in everyone:
        alone = stream_fragment([state.events[-1]], state, viewer, by_seq)
        expected = sse_message(alone, event="log", event_id=state.last_seq)
        assert shared.message(state.events[-1], state, viewer) == expected, viewer
    assert len(seen) > len(everyone)  # the messages did differ between viewers and states


def test_lasting_renderings_stay_bounded_per_table(store: SqliteStore) -> None:
    from tablee.web.render import LASTING

    shared = Fragments()
    for n in range(3 * LASTING):
        html = shared._drawn("t", ("k", n), lambda n=n: f"<p>{n}</p>")  # type: ignore[misc]
        assert html == f"<p>{n}</p>"
    assert len(shared._lasting["t"]) <= LASTING
    shared.forget("t")
    assert "t" not in shared._lasting


def test_a_payload_read_again_is_not_decoded_again(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    assert act(client, links.gm, "session-start")[0] == 200
    assert act(client, links.gm, "reward", amount="2")[0] == 200
    state = TableService(store).state(links.name)
    stored = state.events[-1]
    game = state.system
    first = game.event_of(stored.kind, stored.payload)
    assert game.event_of(stored.kind, stored.payload) is first  # read once, kept
    equal = dict(stored.payload)
    again = game.event_of(stored.kind, equal)
    assert again == first and again is not first  # another payload object: read anew


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("", b"event: log\ndata: \nid: 7\n\n"),
        ("<li>a</li>", b"event: log\ndata: <li>a</li>\nid: 7\n\n"),
        ("a\nb", b"event: log\ndata: a\ndata: b\nid: 7\n\n"),
        ("a\r\nb\rc\n", b"event: log\ndata: a\ndata: b\ndata: c\ndata: \nid: 7\n\n"),
        ("é", "event: log\ndata: é\nid: 7\n\n".encode()),
    ],
)
def test_sse_message_has_one_data_line_per_line(data: str, expected: bytes) -> None:
    assert sse_message(data, event="log", event_id=7) == expected


def test_a_started_hub_ends_timed_out_waits_without_a_timer_each() -> None:
    from tablee.web.hub import Hub

    async def scenario() -> None:
        async def last_seq(table_id: str, known: int) -> int:
            return known

        hub = Hub(last_seq, poll_interval=3600)
        hub.start()
        try:
            signal = hub.signal("t1")
            waits = [asyncio.create_task(hub.wait(signal, 0.05)) for _ in range(3)]
            await asyncio.sleep(0)
            assert hub._deadlines and "t1" in hub._deadlines  # one deadline for the table
            # the ticker ends them (the guard only stops a hang)
            await asyncio.wait_for(asyncio.gather(*waits), 10)
            assert "t1" not in hub._deadlines and hub.signal("t1") is not signal
            # a wake-up ends the waits at once and clears the table's deadline
            other = hub.signal("t2")
            waiting = asyncio.create_task(hub.wait(other, 3600))
            await asyncio.sleep(0)
            hub.notify("t2", 4)
            await asyncio.wait_for(waiting, 10)
            assert "t2" not in hub._deadlines and hub.known("t2") == 4
        finally:
            await hub.stop()
        # a stopped hub times its waits itself
        await asyncio.wait_for(hub.wait(hub.signal("t3"), 0.01), 10)

    asyncio.run(scenario())
