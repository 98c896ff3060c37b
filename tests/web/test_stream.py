"""The live log over a real server: visibility filtering, catch-up, other processes' events."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import httpx
import pytest
from httpx_sse import connect_sse

from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import Running, make_table

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def collect(
    url: str, until_seq: int, timeout: float = 10.0, headers: dict[str, str] | None = None
) -> list[Any]:
    """Read a stream until an event with id >= until_seq arrives; return the events."""
    got = []
    with (
        httpx.Client(timeout=httpx.Timeout(timeout)) as c,
        connect_sse(c, "GET", url, headers=dict(headers or {})) as source,
    ):
        assert source.response.status_code == 200
        for event in source.iter_sse():
            if event.event != "log":
                continue
            got.append(event)
            if int(event.id) >= until_seq:
                break
    return got


def post(base: str, path: str, data: dict[str, str]) -> httpx.Response:
    with httpx.Client(base_url=base, timeout=10, headers={"HX-Request": "true"}) as c:
        page = c.get(path)
        token = CSRF.search(page.text)
        assert token is not None
        action = (
            path + "/act/" + data.pop("action") if "action" in data else path + data.pop("route")
        )
        return c.post(action, data={"csrf": token.group(1), **data})


def seqs(events: list[Any]) -> list[int]:
    return [int(e.id) for e in events]


def test_blind_roll_never_reaches_a_player(server: Running) -> None:
    links = make_table(server.store)
    assert post(server.url, links.gm, {"action": "session-start"}).status_code == 200
    blind = post(
        server.url, links.gm, {"action": "roll", "player": "Zoé", "faces": "6", "visibility": "gm"}
    )
    assert blind.status_code == 200, blind.text
    secret = post(
        server.url,
        links.players["Zoé"],
        {"action": "roll", "faces": "3", "visibility": "roller_and_gm"},
    )
    assert secret.status_code == 200, secret.text
    ana = collect(server.url + links.players["Ana"] + "/stream", 4)
    zoe = collect(server.url + links.players["Zoé"] + "/stream", 4)
    gm = collect(server.url + links.gm + "/stream", 4)
    spectator = collect(server.url + links.spectator + "/stream", 4)
    assert seqs(ana) == seqs(zoe) == seqs(gm) == seqs(spectator) == [1, 2, 3, 4]
    assert "Triomphe" in gm[2].data and "Revers" in gm[3].data
    for hidden in (ana[2], zoe[2], spectator[2], ana[3], spectator[3]):
        assert "Triomphe" not in hidden.data and "Revers" not in hidden.data
        # The log entry names no dice; the resources after it (the cagnotte, public) may.
        entry = hidden.data.split('<section id="resources"')[0]
        assert entry.strip() and "dice" not in entry and 'class="die' not in entry
    assert "Revers" in zoe[3].data  # her own secret roll


def test_live_push_and_catch_up_without_duplicates(server: Running) -> None:
    links = make_table(server.store)
    url = server.url + links.players["Ana"] + "/stream"
    received: list[Any] = []
    done = threading.Event()

    def listen() -> None:
        received.extend(collect(url, 3))
        done.set()

    thread = threading.Thread(target=listen)
    thread.start()
    time.sleep(0.3)
    post(server.url, links.gm, {"action": "session-start"})
    post(server.url, links.gm, {"action": "reward", "amount": "1"})
    assert done.wait(10)
    thread.join()
    assert seqs(received) == [1, 2, 3]
    # the viewer comes back after seq 2: it gets 3 and what followed, nothing twice
    post(server.url, links.gm, {"action": "reward", "amount": "2"})
    again = collect(server.url + links.players["Ana"] + "/stream?after=2", 4)
    assert seqs(again) == [3, 4]
    by_header = collect(url, 4, headers={"Last-Event-ID": "3"})
    assert seqs(by_header) == [4]


def test_events_written_by_another_process_arrive(server: Running, db: Any) -> None:
    links = make_table(server.store)
    received: list[Any] = []
    thread = threading.Thread(
        target=lambda: received.extend(collect(server.url + links.spectator + "/stream", 2))
    )
    thread.start()
    time.sleep(0.3)
    other = SqliteStore(db)  # another connection, as the command line would open
    try:
        from tablee.systems.pouyss.commands import StartSession

        TableService(other).run_command(links.name, StartSession())
    finally:
        other.close()
    thread.join(10)
    assert seqs(received) == [1, 2]
    assert "session 1 starts" in received[1].data


def test_revoked_link_stream_is_refused(server: Running) -> None:
    links = make_table(server.store)
    from datetime import UTC, datetime

    from tablee.table.links import hash_token

    server.store.revoke_link(hash_token(links.spectator.removeprefix("/t/")), datetime.now(UTC))
    with httpx.Client(timeout=5) as c:
        assert c.get(server.url + links.spectator + "/stream").status_code == 403
        assert c.get(server.url + "/t/" + "x" * 43 + "/stream").status_code == 404


def test_stream_in_the_viewers_language_with_undo_and_resources(server: Running) -> None:
    from tablee.locale import translation

    links = make_table(server.store)
    post(server.url, links.gm, {"action": "session-start"})
    post(server.url, links.gm, {"action": "reward", "amount": "2"})
    assert post(server.url, links.gm, {"route": "/undo"}).status_code == 200
    with httpx.Client(timeout=10) as c:
        assert c.get(server.url + links.players["Zoé"] + "?lang=fr").status_code == 200
        got = []
        with connect_sse(c, "GET", server.url + links.players["Zoé"] + "/stream") as source:
            for event in source.iter_sse():
                if event.event == "log":
                    got.append(event)
                    if int(event.id) >= 4:
                        break
    french = translation("fr").gettext("session {session} starts").format(session=1)
    assert french != "session 1 starts" and french in got[1].data
    undo = got[3].data
    assert 'id="e-3"' in undo and 'hx-swap-oob="outerHTML"' in undo and "voided" in undo
    assert 'id="resources"' in undo and 'hx-swap-oob="true"' in undo


def test_an_open_stream_ends_when_its_link_is_revoked(
    server: Running, db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC, datetime

    from tablee.table.links import hash_token
    from tablee.web import pages

    monkeypatch.setattr(pages, "RECHECK_SECONDS", 0.2)
    links = make_table(server.store)
    ended = threading.Event()

    def listen() -> None:
        with (
            httpx.Client(timeout=20) as c,
            connect_sse(c, "GET", server.url + links.spectator + "/stream") as source,
        ):
            for _ in source.iter_sse():
                pass
        ended.set()

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    time.sleep(0.5)
    assert not ended.is_set()
    other = SqliteStore(db)  # another connection, as the command line would open
    try:
        other.revoke_link(hash_token(links.spectator.removeprefix("/t/")), datetime.now(UTC))
    finally:
        other.close()
    assert ended.wait(10)


def test_a_number_past_the_end_does_not_stall_the_stream(server: Running) -> None:
    links = make_table(server.store)
    received: list[Any] = []
    thread = threading.Thread(
        target=lambda: received.extend(collect(server.url + links.gm + "/stream?after=999999", 2))
    )
    thread.start()
    time.sleep(0.3)
    post(server.url, links.gm, {"action": "session-start"})
    thread.join(10)
    assert seqs(received) == [2]


def test_sse_message_splits_every_kind_of_line_end() -> None:
    from tablee.web.render import sse_message

    assert sse_message("a\r\nb\rc\n<li>", event="log", event_id=3) == (
        b"event: log\ndata: a\ndata: b\ndata: c\ndata: <li>\nid: 3\n\n"
    )
