"""Who is there: seats with an open stream, counted here and heard from other processes."""

from __future__ import annotations

import asyncio
import json

from fastapi.testclient import TestClient

from tablee.web.presence import (
    EXPIRY_SECONDS,
    Presence,
    presence_message,
    seat_of,
    seats_view,
)
from tests.web.conftest import Running, make_table
from tests.web.presence_reader import PresenceReader, seats


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def announcement(process: str, table: str, seats: dict[str, int]) -> str:
    return json.dumps({"p": process, "t": table, "s": seats})


def test_a_seat_is_connected_while_one_of_its_streams_is_open() -> None:
    woken: list[str] = []
    here = Presence(woken.append)
    ana = seat_of("player", "Ana")
    assert here.counts("t1") == {}
    with here.present("t1", ana):
        with here.present("t1", ana):  # two tabs of one link
            assert here.counts("t1") == {ana: 2}
        assert here.counts("t1") == {ana: 1}
        with here.present("t1", "spectator"):
            assert here.counts("t1") == {ana: 1, "spectator": 1}
    assert here.counts("t1") == {}
    assert woken == ["t1"] * 6  # every change wakes the table's streams
    assert here.version("t1") == 6
    assert here.counts("t2") == {} and here.version("t2") == 0


def test_seats_are_keyed_as_names_are_compared() -> None:
    assert seat_of("player", "Émile") == seat_of("player", "ÉMILE")
    assert seat_of("gm", None) == "gm"
    assert seat_of("spectator", None) == "spectator"


def test_another_process_announcement_counts_until_it_expires() -> None:
    clock = Clock()
    woken: list[str] = []
    here = Presence(woken.append, clock, process="here")
    zoe = seat_of("player", "Zoé")
    here.heard(announcement("there", "t1", {zoe: 1, "gm": 2}))
    assert here.counts("t1") == {zoe: 1, "gm": 2}
    assert woken == ["t1"]
    here.heard(announcement("there", "t1", {zoe: 1, "gm": 2}))  # a heartbeat: no change
    assert woken == ["t1"]
    clock.now += EXPIRY_SECONDS - 1
    here.sweep()
    assert here.counts("t1") == {zoe: 1, "gm": 2}
    clock.now += 2  # the process died: it announced nothing for EXPIRY_SECONDS
    assert here.counts("t1") == {}  # already left out when read
    here.sweep()
    assert woken == ["t1", "t1"]  # and the streams are woken to show it


def test_a_clean_stop_announces_empty_seats() -> None:
    here = Presence(lambda t: None, Clock(), process="here")
    here.heard(announcement("there", "t1", {"gm": 1}))
    here.heard(announcement("there", "t1", {}))
    assert here.counts("t1") == {}


def test_own_malformed_and_foreign_announcements_are_ignored() -> None:
    woken: list[str] = []
    here = Presence(woken.append, Clock(), process="here")
    for payload in (
        announcement("here", "t1", {"gm": 1}),  # our own, heard back from PostgreSQL
        "not json",
        "[]",
        json.dumps({"p": 3, "t": "t1", "s": {"gm": 1}}),
        json.dumps({"p": "x", "t": ["t1"], "s": {"gm": 1}}),
        json.dumps({"p": "x", "t": "t1", "s": {"gm": "1"}}),
        json.dumps({"p": "x", "t": "t1"}),
    ):
        here.heard(payload)
    assert here.counts("t1") == {}
    assert woken == []


def test_announcements_are_sent_on_change_and_when_asked() -> None:
    async def run() -> list[dict[str, object]]:
        sent: list[str] = []

        async def publish(payload: str) -> None:
            sent.append(payload)

        here = Presence(lambda t: None, process="here")
        here.publish = publish
        with here.present("t1", "gm"):
            await asyncio.sleep(0)
            here.heard(json.dumps({"p": "new", "ask": 1}))  # a process that just started
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        return [json.loads(p) for p in sent]

    assert asyncio.run(run()) == [
        {"p": "here", "t": "t1", "s": {"gm": 1}},
        {"p": "here", "t": "t1", "s": {"gm": 1}},
        {"p": "here", "t": "t1", "s": {}},
    ]


def test_stop_says_goodbye_for_the_tables_still_open() -> None:
    async def run() -> list[str]:
        sent: list[str] = []

        async def publish(payload: str) -> None:
            sent.append(payload)

        here = Presence(lambda t: None, process="here")
        here.publish = publish
        here.start()
        with here.present("t1", "spectator"):
            await asyncio.sleep(0)
            sent.clear()
            await here.stop()
        return sent

    assert [json.loads(p) for p in asyncio.run(run())] == [{"p": "here", "t": "t1", "s": {}}]


def test_the_seats_in_words() -> None:
    counts = {seat_of("player", "Zoé"): 1, "spectator": 2}
    assert seats_view(["Zoé", "Ana"], counts, "fr") == {
        "seats": [
            {"label": "meneur de jeu", "on": False},
            {"label": "Zoé", "on": True},
            {"label": "Ana", "on": False},
        ],
        "spectators": "2 spectateurs",
    }
    assert seats_view([], {"spectator": 1}, "en")["spectators"] == "1 spectator"
    assert seats_view([], {}, "en")["spectators"] == ""


def test_the_presence_message_has_no_id_and_replaces_the_header() -> None:
    message = presence_message(["<b>"], {"gm": 1}, "en").decode()
    assert message.startswith("event: presence\n") and message.endswith("\n\n")
    assert "\nid:" not in message
    data = "\n".join(line[6:] for line in message.splitlines() if line.startswith("data: "))
    assert data.startswith('<ul id="presence"') and 'hx-swap-oob="true"' in data.splitlines()[0]
    assert "&lt;b&gt;" in data  # names are escaped
    assert seats(data) == {"game master": True, "<b>": False}


def test_the_page_shows_the_seats_with_its_own_connected(client: TestClient) -> None:
    links = make_table(client.app.state.table.store)  # type: ignore[attr-defined]
    page = client.get(links.players["Ana"]).text
    header = page.split("</header>")[0]
    assert seats(header) == {"game master": False, "Zoé": False, "Ana": True}
    assert 'sse-swap="presence"' in page


def test_seats_appear_and_disappear_as_streams_open_and_close(server: Running) -> None:
    links = make_table(server.store)
    gm = PresenceReader(server.url + links.gm + "/stream")
    try:
        gm.wait_for(lambda s: s == {"game master": True, "Zoé": False, "Ana": False})
        ana = PresenceReader(server.url + links.players["Ana"] + "/stream")
        gm.wait_for(lambda s: s["Ana"])
        ana.wait_for(lambda s: s["Ana"] and s["game master"])
        watchers = [PresenceReader(server.url + links.spectator + "/stream") for _ in range(2)]
        gm.wait_for(lambda s: "2 spectators" in s)
        for watcher in watchers:
            watcher.close()
        ana.close()
        gm.wait_for(lambda s: s == {"game master": True, "Zoé": False, "Ana": False})
    finally:
        gm.close()
