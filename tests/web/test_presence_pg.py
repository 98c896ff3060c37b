"""Who is there across server processes sharing PostgreSQL (announcements over NOTIFY).

Two servers (two apps, each with its own store and connections, as two processes) run on
one fresh PostgreSQL database. Skipped when PostgreSQL is not reachable at 127.0.0.1:5432,
unless ``TABLEE_REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import json

import psycopg
import pytest

from tablee.web import presence as presence_module
from tablee.web.presence import EXPIRY_SECONDS, PRESENCE_CHANNEL, Presence, seat_of
from tests.table import conftest as table_fixtures
from tests.web.conftest import make_table
from tests.web.presence_reader import PresenceReader
from tests.web.test_pg_fanout import SLOW_POLL, serving

postgres_user = table_fixtures.postgres_user
postgres_url = table_fixtures.postgres_url

ALONE = {"game master": True, "Zoé": False, "Ana": False}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.postgres
def test_a_seat_open_on_one_server_shows_on_the_other(postgres_url: str) -> None:
    with serving(postgres_url, SLOW_POLL) as a, serving(postgres_url, SLOW_POLL) as b:
        links = make_table(a.store)  # type: ignore[arg-type]
        gm = PresenceReader(a.url + links.gm + "/stream")
        try:
            gm.wait_for(lambda s: s == ALONE)
            ana = PresenceReader(b.url + links.players["Ana"] + "/stream")
            gm.wait_for(lambda s: s["Ana"] and not s["Zoé"])
            ana.wait_for(lambda s: s["Ana"] and s["game master"])  # heard from a
            ana.close()
            gm.wait_for(lambda s: s == ALONE)
        finally:
            gm.close()


@pytest.mark.postgres
def test_a_server_that_stops_takes_its_seats_away(postgres_url: str) -> None:
    with serving(postgres_url, SLOW_POLL) as a:
        links = make_table(a.store)  # type: ignore[arg-type]
        gm = PresenceReader(a.url + links.gm + "/stream")
        try:
            with serving(postgres_url, SLOW_POLL) as b:
                zoe = PresenceReader(b.url + links.players["Zoé"] + "/stream")
                gm.wait_for(lambda s: s["Zoé"])
            gm.wait_for(lambda s: s == ALONE)
            zoe.close()
        finally:
            gm.close()


@pytest.mark.postgres
def test_a_dead_process_seats_expire(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(presence_module, "HEARTBEAT_SECONDS", 0.1)  # sweeps often
    with serving(postgres_url, SLOW_POLL) as a:
        presence = a.listener.presence
        assert isinstance(presence, Presence)
        clock = Clock()
        presence.clock = clock
        links = make_table(a.store)  # type: ignore[arg-type]
        table_id = a.store.tables()[0].id
        gm = PresenceReader(a.url + links.gm + "/stream")
        try:
            gm.wait_for(lambda s: s == ALONE)
            ghost = {"p": "ghost", "t": table_id, "s": {seat_of("player", "Ana"): 1}}
            with psycopg.connect(postgres_url, autocommit=True) as other:
                other.execute("SELECT pg_notify(%s, %s)", (PRESENCE_CHANNEL, json.dumps(ghost)))
            gm.wait_for(lambda s: s["Ana"])
            # the ghost process dies: it announces nothing more
            clock.now += EXPIRY_SECONDS + 1
            gm.wait_for(lambda s: s == ALONE)
        finally:
            gm.close()


@pytest.mark.postgres
def test_a_process_that_starts_asks_the_others(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence_module, "HEARTBEAT_SECONDS", 3600.0)  # no heartbeat helps
    with serving(postgres_url, SLOW_POLL) as a:
        links = make_table(a.store)  # type: ignore[arg-type]
        ana = PresenceReader(a.url + links.players["Ana"] + "/stream")
        try:
            ana.wait_for(lambda s: s["Ana"])
            with serving(postgres_url, SLOW_POLL) as b:
                gm = PresenceReader(b.url + links.gm + "/stream")
                gm.wait_for(lambda s: s == {"game master": True, "Zoé": False, "Ana": True})
                gm.close()
        finally:
            ana.close()
