"""A long log a page at a time: the table's page, the "Earlier entries" pages, the JSON API,
and a stream that starts far behind the log's end."""

from __future__ import annotations

import re
from typing import Any

import httpx
from fastapi.testclient import TestClient
from httpx_sse import connect_sse

from tablee.dice import TypedFaces
from tablee.systems.pouyss.commands import Reward, Roll, StartSession
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web.history import LOG_PAGE, MAX_LIMIT
from tests.web.conftest import Links, Running, make_table

ENTRY = re.compile(r'<li id="e-(\d+)" class="entry')
EARLIER = re.compile(r'<li class="earlier"><a href="(/t/[^"]+/log\?before=(\d+)&amp;after=(\d+))"')


def grow(store: SqliteStore, name: str, last: int) -> None:
    """Add events to a new Pouyss table until its log ends at ``last``: a session, rewards."""
    service = TableService(store)
    service.run_command(name, StartSession(cagnotte=3))
    while service.state(name).last_seq < last:
        service.run_command(name, Reward(amount=1, player="Ana"))


def shown(html: str) -> list[int]:
    return [int(seq) for seq in ENTRY.findall(html)]


def big(store: SqliteStore, last: int = LOG_PAGE + 30) -> Links:
    links = make_table(store)
    grow(store, links.name, last)
    return links


def test_a_long_log_shows_its_latest_page_and_a_control_for_the_rest(
    client: TestClient, store: SqliteStore
) -> None:
    links = big(store)  # 130 events
    page = client.get(links.players["Zoé"]).text
    assert shown(page) == list(range(31, 131))
    controls = EARLIER.findall(page)
    assert [(before, after) for _, before, after in controls] == [("31", "0")]
    assert "Earlier entries" in page and "events 1 to 30" in page
    assert page.index('class="earlier"') < page.index('id="e-31"')
    french = client.get(links.players["Zoé"] + "?lang=fr").text
    assert "Entrées précédentes" in french and "événements 1 à 30" in french


def test_following_the_control_shows_the_page_before(
    client: TestClient, store: SqliteStore
) -> None:
    links = big(store, last=2 * LOG_PAGE + 50)  # 250 events: two pages before the latest
    page = client.get(links.gm).text
    assert shown(page) == list(range(151, 251))
    url = EARLIER.findall(page)[0][0].replace("&amp;", "&")
    previous = client.get(url).text  # htmx's request: the fragment replacing the control
    assert shown(previous) == list(range(51, 151))
    assert "<html" not in previous
    assert [(b, a) for _, b, a in EARLIER.findall(previous)] == [("51", "0")]
    first = client.get(EARLIER.findall(previous)[0][0].replace("&amp;", "&")).text
    assert shown(first) == list(range(1, 51))
    assert not EARLIER.findall(first)  # the table's creation: nothing before


def test_without_script_the_control_opens_a_page(client: TestClient, store: SqliteStore) -> None:
    links = big(store)
    # the test client sends HX-Request, as htmx does: a client without it is a plain browser
    request = client.build_request("GET", links.gm + "/log?before=31")
    del request.headers["HX-Request"]
    page = client.send(request).text
    assert "<html" in page and "Back to the table" in page
    assert shown(page) == list(range(1, 31))


def test_a_short_log_has_no_control(client: TestClient, store: SqliteStore) -> None:
    links = big(store, last=LOG_PAGE)
    page = client.get(links.gm).text
    assert shown(page) == list(range(1, LOG_PAGE + 1))
    assert 'class="earlier"' not in page


def test_a_page_shows_an_undo_made_after_it_was_kept(
    client: TestClient, store: SqliteStore
) -> None:
    links = big(store)
    before = client.get(links.gm).text
    assert 'id="e-125" class="entry"' in before
    TableService(store).undo(links.name, seq=125, actor="gm", reason="")
    after = client.get(links.gm).text
    assert re.search(r'id="e-125" class="entry[^"]* voided', after)
    assert shown(after) == list(range(32, 132))


def test_the_api_reads_the_log_a_page_at_a_time(client: TestClient, store: SqliteStore) -> None:
    links = big(store)
    latest = client.get(links.players["Ana"] + "/api/log").json()
    assert [e["seq"] for e in latest["entries"]] == list(range(31, 131))
    assert latest["before"] == 31 and latest["last"] == 130
    entry = latest["entries"][-1]
    assert set(entry) == {
        "seq",
        "time",
        "actor",
        "text",
        "details",
        "voided",
        "undo",
        "visibility",
        "hidden",
    }
    assert entry["actor"] == "gm" and "Ana" in entry["text"] and entry["hidden"] is False
    some = client.get(links.players["Ana"] + "/api/log?before=31&limit=10").json()
    assert [e["seq"] for e in some["entries"]] == list(range(21, 31))
    assert some["before"] == 21
    start = client.get(links.players["Ana"] + "/api/log?before=3&limit=10").json()
    assert [e["seq"] for e in start["entries"]] == [1, 2] and start["before"] is None
    capped = client.get(links.gm + f"/api/log?limit={MAX_LIMIT + 50}").json()
    assert len(capped["entries"]) == 130  # all of them: fewer than the cap
    for bad in ("limit=0", "limit=abc", "before=0", "before=-3", "limit=１０"):
        answer = client.get(links.gm + "/api/log?" + bad)
        assert answer.status_code == 422, bad
        assert answer.json()["exit_code"] == 2
    assert client.get(links.gm + "/log?before=abc").status_code == 400


def test_the_api_hides_what_the_link_may_not_see(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    service = TableService(store)
    service.run_command(links.name, StartSession(cagnotte=3))
    service.run_command(links.name, Roll(player="Zoé"), TypedFaces("6"), visibility="gm")
    ana = client.get(links.players["Ana"] + "/api/log").json()["entries"][-1]
    gm = client.get(links.gm + "/api/log").json()["entries"][-1]
    assert ana["hidden"] is True and ana["actor"] is None and ana["details"] == []
    assert "6" not in ana["text"] and "blind" in ana["text"]
    assert gm["hidden"] is False and "Triomphe" in gm["text"]


def read_first(url: str, headers: dict[str, str] | None = None) -> tuple[list[Any], bytes]:
    """The stream's log messages up to the first (then a short wait for more), its bytes."""
    got = []
    raw = b""
    with (
        httpx.Client(timeout=httpx.Timeout(10.0, read=1.0)) as c,
        connect_sse(c, "GET", url, headers=headers or {}) as source,
    ):
        try:
            for event in source.iter_sse():
                if event.event == "log":
                    got.append(event)
                    raw += event.data.encode()
        except httpx.ReadTimeout:  # nothing more within a second: the stream is idle
            pass
    return got, raw


def test_a_stream_from_zero_sends_the_latest_page_only(server: Running) -> None:
    links = big(server.store, last=3 * LOG_PAGE)
    messages, raw = read_first(server.url + links.players["Zoé"] + "/stream?after=0")
    assert [m.id for m in messages] == [str(3 * LOG_PAGE)]  # one message, the log's end
    data = messages[0].data
    assert shown(data) == list(range(2 * LOG_PAGE + 1, 3 * LOG_PAGE + 1))
    assert [(b, a) for _, b, a in EARLIER.findall(data)] == [(str(2 * LOG_PAGE + 1), "0")]
    assert 'id="resources"' in data  # and the resources, as every message
    assert len(raw) < 400_000


def test_a_reconnect_far_behind_gets_a_control_for_the_gap(server: Running) -> None:
    links = big(server.store, last=2 * LOG_PAGE)
    TableService(server.store).undo(links.name, seq=4, actor="gm", reason="")  # event 201
    messages, _ = read_first(server.url + links.gm + "/stream", headers={"Last-Event-ID": "10"})
    assert [m.id for m in messages] == ["201"]
    data = messages[0].data
    assert shown(data)[-1] == 4  # the undone entry the reader has, re-drawn out of band
    assert re.search(r'id="e-4" class="entry[^"]* voided[^"]*" hx-swap-oob="outerHTML"', data)
    assert shown(data)[:-1] == list(range(102, 202))
    assert [(b, a) for _, b, a in EARLIER.findall(data)] == [("102", "10")]
    gap = httpx.get(server.url + EARLIER.findall(data)[0][0].replace("&amp;", "&"))
    assert shown(gap.text) == list(range(11, 102))  # what the stream skipped, no more


def test_a_stream_close_to_the_end_sends_every_event(server: Running) -> None:
    links = big(server.store, last=LOG_PAGE + 20)
    messages, _ = read_first(server.url + links.gm + "/stream?after=20")
    assert [int(m.id) for m in messages] == list(range(21, LOG_PAGE + 21))
    assert not any('class="earlier"' in m.data for m in messages)
