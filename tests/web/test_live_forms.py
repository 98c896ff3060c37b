"""Live forms: choice lists that follow the table over the stream, one event per form sent.

A form's choice lists read from the table (characters, Protagonistes, agents...) travel with
every stream message, filtered for its viewer; each rendered form holds an idempotency key,
so the same form sent twice stores one event; a success hands the form a new key.
"""

from __future__ import annotations

import re
import threading
import time
from html import unescape
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tablee.table.links import hash_token
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web import live
from tablee.web.access import Viewer
from tablee.web.common import scoped_command_key
from tablee.web.render import Fragments, stream_fragment
from tablee.web.systems import web_system
from tests.web.conftest import Links, Running, csrf_of, make_table
from tests.web.test_stream import collect, post
from tests.web.test_systems import act

TEMPLATE = re.compile(r'<template data-for="([^"]*)">(.*?)</template>', re.S)
OPTION = re.compile(r'<option value="([^"]*)"')
SELECT = re.compile(r'<select id="([^"]+)" name="[^"]+" data-live>(.*?)</select>', re.S)
KEY = re.compile(r'name="form_key" value="([^"]+)"')


def viewer_of(store: SqliteStore, path: str, table: str) -> Viewer:
    link = store.find_link(hash_token(path.removeprefix("/t/")))
    assert link is not None
    return Viewer(link, table, "en")


def lists_in(html: str) -> dict[str, list[str]]:
    """The choice lists a stream message carries, by the id of the select they fill."""
    found: dict[str, list[str]] = {}
    for ids, options in TEMPLATE.findall(html):
        values = [unescape(v) for v in OPTION.findall(options)]
        for select in ids.split():
            assert select not in found, f"{select} is filled twice"
            found[select] = values
    return found


def live_selects(html: str) -> dict[str, list[str]]:
    """The choice lists read from the table on a page, by select id."""
    return {i: [unescape(v) for v in OPTION.findall(o)] for i, o in SELECT.findall(html)}


def pushed(store: SqliteStore, links: Links, path: str) -> dict[str, list[str]]:
    """The lists of the message the stream pushes to ``path`` for the table's last event."""
    state = TableService(store).state(links.name)
    viewer = viewer_of(store, path, links.name)
    message = Fragments().message(state.events[-1], state, viewer).decode()
    by_seq = {e.seq: e for e in state.events}
    alone = stream_fragment([state.events[-1]], state, viewer, by_seq)
    assert lists_in(alone) == lists_in(message)
    assert 'id="live-choices" hidden hx-swap-oob="true"' in message
    return lists_in(message)


def check_live(
    client: TestClient, store: SqliteStore, links: Links, player: str, create: dict[str, str]
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The game master creates what ``create`` says; the player's open page gets it pushed.

    Returns the lists pushed to the player and to the game master (by select id).
    """
    page = live_selects(client.get(links.players[player]).text)
    action = create.pop("action")
    code, text = act(client, links.gm, action, **create)
    assert code == 200, text
    mine = pushed(store, links, links.players[player])
    # every list pushed fills a select of the page already open, and every select is filled
    assert set(mine) == set(page)
    reloaded = live_selects(client.get(links.players[player]).text)
    assert mine == reloaded  # what a reload would show, with no reload
    gm = pushed(store, links, links.gm)
    assert gm == live_selects(client.get(links.gm).text)
    return mine, gm


def test_pouyss_lists_are_pushed_filtered_for_each_viewer(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store)
    assert act(client, links.gm, "session-start")[0] == 200
    zoe, gm = check_live(
        client, store, links, "Zoé", {"action": "reward", "amount": "1", "player": "Ana"}
    )
    assert zoe["roll-player"] == ["Zoé"]  # who rolls: only herself
    assert zoe["opposed-passive"] == ["", "Zoé", "Ana"]
    assert gm["roll-player"] == ["Zoé", "Ana"]
    assert "reward-player" not in zoe  # a game master's form


def test_shs_protagoniste_created_by_the_gm_reaches_its_player(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store, system="shs", name="Nostromo", players=("Ripley", "Ash"))
    before = live_selects(client.get(links.players["Ash"]).text)
    assert "Bishop" not in before["test-protagoniste"]
    hero = {"carrure": "6+", "motricite": "6+", "science": "7+", "relationnel": "5+"}
    create = {"action": "protagoniste-create", "protagonist": "Bishop", "player": "Ash"}
    ash, gm = check_live(client, store, links, "Ash", {**create, **hero, "sang_froid": "8+"})
    assert ash["test-protagoniste"] == ["Bishop"]
    assert "Bishop" in gm["protagoniste-kill-protagonist"]
    ripley = pushed(store, links, links.players["Ripley"])
    assert "Bishop" not in ripley["test-protagoniste"]  # not hers to play


def test_ybs_character_created_by_the_gm_reaches_its_player(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store, system="ybs", name="Bancho", players=("A", "B"))
    create = {"action": "character-create", "character": "Bo", "player": "B", "choushi": "1"}
    b, gm = check_live(client, store, links, "B", create)
    assert b["test-character"] == ["Bo"]
    assert "Bo" in b["test-target"]
    a = pushed(store, links, links.players["A"])
    assert "Bo" not in a["test-character"] and "Bo" in a["test-target"]
    assert "Bo" in gm["damage-character"]


def test_agents_agent_created_by_the_gm_reaches_its_player(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store, system="agents", name="ops", players=("Ana", "Bo"))
    create = {"action": "agent", "name": "Orso", "owner": "Bo", "muscles": "3", "sexe": "7"}
    create |= {"organisation": "Ordre du Lotus", "signature": "a compass"}
    bo, gm = check_live(client, store, links, "Bo", {**create, "intelligence": "5"})
    assert bo["act-agent"] == ["Orso"]
    assert "Orso" in gm["act-agent"]
    assert "Orso" not in pushed(store, links, links.players["Ana"])["act-agent"]


def test_kept_lists_are_those_made_for_the_viewer_alone(
    client: TestClient, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lists kept by the game's basis equal lists made again, as a YBS table grows."""
    links = make_table(store, system="ybs", name="Bancho", players=("A", "B"))
    paths = [links.gm, links.players["A"], links.players["B"], links.spectator]
    viewers = [viewer_of(store, path, links.name) for path in paths]
    made = []
    steps = [
        {"action": "character-create", "character": "Bo", "player": "B", "choushi": "1"},
        {"action": "character-create", "character": "Al", "player": "A", "choushi": "2"},
        {"action": "damage", "character": "Bo", "uchimi": "1"},
    ]
    for step in steps:
        code, text = act(client, links.gm, step.pop("action"), **step)
        assert code == 200, text
        state = TableService(store).state(links.name)
        web = web_system("ybs")
        assert web is not None
        for viewer in viewers:
            alone = live._lists(web, state, viewer) if viewer.role != "spectator" else ()
            assert live.live_choices(state, viewer) == alone
            made.append(alone)
    assert made[0] != made[4]  # the second character changed the lists
    calls: list[object] = []
    real = live._lists

    def counted(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(live, "_lists", counted)
    code, text = act(client, links.gm, "damage", character="Al", uchimi="1")
    assert code == 200, text
    state = TableService(store).state(links.name)
    assert [live.live_choices(state, v) for v in viewers] == made[-4:]
    assert calls == []  # a change that leaves every list as it was makes none again


def test_a_spectator_is_pushed_no_list(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    assert act(client, links.gm, "session-start")[0] == 200
    assert pushed(store, links, links.spectator) == {}


def test_the_live_stream_carries_a_new_protagoniste(server: Running) -> None:
    """Over a real server: Ash's open stream receives the Protagoniste the GM creates."""
    links = make_table(server.store, system="shs", name="Nostromo", players=("Ripley", "Ash"))
    received: list[Any] = []
    url = server.url + links.players["Ash"] + "/stream?after=1"
    thread = threading.Thread(target=lambda: received.extend(collect(url, 2)))
    thread.start()
    time.sleep(0.3)
    hero = {"carrure": "6+", "motricite": "6+", "science": "7+", "relationnel": "5+"}
    hero["sang_froid"] = "8+"
    answer = post(
        server.url,
        links.gm,
        {"action": "protagoniste-create", "protagonist": "Bishop", "player": "Ash", **hero},
    )
    assert answer.status_code == 200, answer.text
    thread.join(15)
    assert [int(e.id) for e in received] == [2]
    assert lists_in(received[0].data)["test-protagoniste"] == ["Bishop"]


# -- one event per form sent ---------------------------------------------------------------------


def form_key(client: TestClient, path: str, action: str) -> str:
    page = client.get(path).text
    found = re.search(rf'id="key-{action}" name="form_key" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def test_each_form_has_its_own_fresh_key(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    page = client.get(links.players["Zoé"]).text
    keys = KEY.findall(page)
    assert len(keys) == len(set(keys)) == page.count("<form ")
    assert form_key(client, links.players["Zoé"], "roll") not in keys  # a reload: new keys


def test_the_same_form_sent_twice_stores_one_event(
    client: TestClient, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = make_table(store)
    gm, zoe = links.gm, links.players["Zoé"]
    assert act(client, gm, "session-start")[0] == 200
    told: list[int | None] = []
    hub = client.app.state.table.hub  # type: ignore[attr-defined]
    notify = hub.notify
    monkeypatch.setattr(
        hub, "notify", lambda table_id, seq=None: (told.append(seq), notify(table_id, seq))
    )
    key = form_key(client, zoe, "roll")
    form = {"csrf": csrf_of(client, zoe), "form_key": key, "bonus": "1", "faces": "2,5"}
    first = client.post(zoe + "/act/roll", data=form)
    second = client.post(zoe + "/act/roll", data=form)
    assert first.status_code == second.status_code == 200
    events = TableService(store).state(links.name).events
    assert [e.kind for e in events].count("pouyss.roll") == 1
    assert told == [events[-1].seq]  # the replay told nobody again
    lines = re.compile(r'<div class="done".*?</div>', re.S)
    assert lines.search(first.text).group(0) == lines.search(second.text).group(0)  # type: ignore[union-attr]
    # each success hands the form a new key, never the one sent
    new = [KEY.search(r.text).group(1) for r in (first, second)]  # type: ignore[union-attr]
    assert key not in new and new[0] != new[1]
    assert 'id="key-roll"' in first.text and 'hx-swap-oob="true"' in first.text
    # the new key records the next roll
    again = client.post(zoe + "/act/roll", data={**form, "form_key": new[0]})
    assert again.status_code == 200
    after = TableService(store).state(links.name).events
    assert [e.kind for e in after].count("pouyss.roll") == 2


def test_keys_are_scoped_to_the_link(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    gm, zoe, ana = links.gm, links.players["Zoé"], links.players["Ana"]
    assert act(client, gm, "session-start")[0] == 200
    for path in (zoe, ana):
        data = {"csrf": csrf_of(client, path), "form_key": "same-key", "faces": "3"}
        assert client.post(path + "/act/roll", data=data).status_code == 200
    events = TableService(store).state(links.name).events
    assert [e.actor for e in events if e.kind == "pouyss.roll"] == ["Zoé", "Ana"]
    # a form's key and the JSON API's are told apart too
    viewer = viewer_of(store, zoe, links.name)
    form, api = (scoped_command_key(o, viewer, "k") for o in ("form", "api"))
    assert form.startswith("form:") and api.startswith("api:") and form[4:] == api[3:]


def test_a_refused_form_keeps_its_key_and_stores_nothing(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store)
    gm, zoe = links.gm, links.players["Zoé"]
    assert act(client, gm, "session-start")[0] == 200
    key = form_key(client, zoe, "roll")
    data = {"csrf": csrf_of(client, zoe), "form_key": key, "bonus": "1", "faces": "2"}
    refused = client.post(zoe + "/act/roll", data=data)
    assert refused.status_code == 422
    assert "form_key" not in refused.text  # the form keeps its key (and its values)
    fixed = client.post(zoe + "/act/roll", data={**data, "faces": "2,5"})
    assert fixed.status_code == 200, fixed.text  # the same key, once the form is right
    events = TableService(store).state(links.name).events
    assert [e.kind for e in events].count("pouyss.roll") == 1


def test_a_bad_key_is_refused(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    gm = links.gm
    data = {"csrf": csrf_of(client, gm), "form_key": "é" * 3}
    answer = client.post(gm + "/act/session-start", data=data)
    assert answer.status_code == 422
    long = client.post(gm + "/act/session-start", data={**data, "form_key": "k" * 90})
    assert long.status_code == 422
    assert len(TableService(store).state(links.name).events) == 1
