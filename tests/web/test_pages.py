"""The web table's pages and actions through the ASGI app: links, roles, security, escaping."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from tablee.table.links import hash_token
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web import Settings, create_app
from tests.web.conftest import csrf_for, csrf_of, make_table

HOSTILE = (
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "Zoé 🎲🐉 &amp; co",
    "x" * 100,
)


def act(client: TestClient, path: str, action: str, **data: str) -> tuple[int, str]:
    response = client.post(f"{path}/act/{action}", data={"csrf": csrf_of(client, path), **data})
    return response.status_code, response.text


# -- links and roles ----------------------------------------------------------------------------


def test_home_creates_a_table_and_shows_each_link_once(
    client: TestClient, store: SqliteStore
) -> None:
    home = client.get("/")
    csrf = re.search(r'name="csrf" value="([^"]+)"', home.text)
    assert csrf is not None
    made = client.post(
        "/tables",
        data={
            "csrf": csrf.group(1),
            "system": "shs",
            "name": "Nostromo",
            "players": "Ripley\nAsh",
            "lang": "fr",
        },
    )
    assert made.status_code == 200
    urls = re.findall(r'href="http://testserver(/t/[^"]+)"', made.text)
    assert len(urls) == 4  # game master, two players, spectator
    tokens = [u.removeprefix("/t/") for u in urls]
    assert all(len(t) >= 43 for t in tokens)
    stored = {link.token_hash for link in store.links(store.find_table("Nostromo").id)}
    assert stored == {hash_token(t) for t in tokens}
    for url in urls:
        assert client.get(url).status_code == 200


def test_create_needs_the_form_token(client: TestClient) -> None:
    home = client.get("/")
    csrf = re.search(r'name="csrf" value="([^"]+)"', home.text)
    assert csrf is not None
    unknown = client.post(
        "/tables", data={"csrf": csrf.group(1), "system": "nosuch", "name": "X", "players": "A"}
    )
    assert unknown.status_code == 404
    bad_name = client.post(
        "/tables",
        data={"csrf": csrf.group(1), "system": "pouyss", "name": "x" * 101, "players": "A"},
    )
    assert bad_name.status_code == 422 and "100" in bad_name.text
    refused = client.post(
        "/tables", data={"csrf": "forged", "system": "pouyss", "name": "X", "players": "A"}
    )
    assert refused.status_code == 403


def test_wrong_and_revoked_tokens_get_a_plain_refusal(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store)
    for path in ("/t/" + "A" * 43, "/t/short", "/t/" + "A" * 43 + "/stream"):
        response = client.get(path)
        assert response.status_code == 404
        assert "Zinc" not in response.text and "Traceback" not in response.text
    token = links.players["Ana"].removeprefix("/t/")
    csrf = csrf_of(client, links.players["Ana"])
    store.revoke_link(hash_token(token), datetime.now(UTC))
    assert client.get(links.players["Ana"]).status_code == 403
    refused = client.post(links.players["Ana"] + "/act/roll", data={"csrf": csrf})
    assert refused.status_code == 403 and "Zinc" not in refused.text


def test_spectator_only_reads(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    page = client.get(links.spectator)
    assert "<form" not in page.text
    csrf = csrf_for(client, store, links.spectator)
    for route in ("/act/roll", "/act/session-start", "/undo", "/options"):
        response = client.post(links.spectator + route, data={"csrf": csrf, "step": "start"})
        assert response.status_code == 403, route
    assert client.get(links.spectator + "/export.jsonl").status_code == 403
    assert client.get(links.spectator + "/links").status_code == 403


def test_a_player_acts_only_for_their_own_character(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    assert act(client, links.gm, "session-start")[0] == 200
    zoe = links.players["Zoé"]
    assert act(client, zoe, "roll", player="Ana")[0] == 403
    assert act(client, zoe, "roll", player="Zoé", imposed_bonus="1")[0] == 403  # narrator's field
    assert act(client, zoe, "roll", player="Zoé", visibility="gm")[0] == 403  # blind: the GM's call
    assert act(client, zoe, "opposed", active="Ana", passive_npc="Orc")[0] == 403
    assert act(client, zoe, "character-set", player="Ana", advantages="Fort")[0] == 403
    assert act(client, zoe, "reward", amount="1")[0] == 403
    assert act(client, zoe, "session-end")[0] == 403
    code, text = act(client, zoe, "roll", player="Zoé", faces="5")
    assert code == 200 and "Zoé rolls" in text
    page = client.get(zoe).text
    assert (
        'name="imposed_bonus"' not in page
        and '<option value="Ana">' not in page.split("act/opposed")[1].split("passive")[0]
    )


def test_player_undo_refused_gm_undo_voids(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    act(client, links.gm, "session-start")
    act(client, links.gm, "reward", amount="2")
    undo_csrf = csrf_of(client, links.players["Ana"])
    assert client.post(links.players["Ana"] + "/undo", data={"csrf": undo_csrf}).status_code == 403
    gm_csrf = csrf_of(client, links.gm)
    done = client.post(links.gm + "/undo", data={"csrf": gm_csrf, "reason": "oops"})
    assert done.status_code == 200
    state = TableService(store).state("Zinc")
    assert state.voided == frozenset({3}) and state.game.cagnotte == 2
    again = client.get(links.players["Ana"]).text
    assert 'id="e-3" class="entry voided"' in again


# -- security -----------------------------------------------------------------------------------


def test_forms_need_their_token_and_the_same_origin(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    csrf = csrf_of(client, links.gm)
    assert client.post(links.gm + "/act/session-start", data={"step": "start"}).status_code == 403
    assert (
        client.post(
            links.gm + "/act/session-start", data={"csrf": "0" * 32, "step": "start"}
        ).status_code
        == 403
    )
    other = csrf_of(client, links.players["Zoé"])
    assert (
        client.post(
            links.gm + "/act/session-start", data={"csrf": other, "step": "start"}
        ).status_code
        == 403
    )
    evil = client.post(
        links.gm + "/act/session-start",
        data={"csrf": csrf, "step": "start"},
        headers={"Origin": "https://evil.example"},
    )
    assert evil.status_code == 403
    cross = client.post(
        links.gm + "/act/session-start",
        data={"csrf": csrf, "step": "start"},
        headers={"Sec-Fetch-Site": "cross-site"},
    )
    assert cross.status_code == 403
    assert TableService(store).state("Zinc").last_seq == 1  # nothing was stored
    same = client.post(
        links.gm + "/act/session-start",
        data={"csrf": csrf, "step": "start"},
        headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
    )
    assert same.status_code == 200


def test_security_headers(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    response = client.get(links.gm)
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["cache-control"] == "no-store"
    assert (
        "<script>" not in response.text
        and " on" not in re.sub(r"<script src=[^>]+>", "", response.text).split("<body>")[0]
    )


def test_request_size_limit(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    csrf = csrf_of(client, links.gm)
    big = client.post(
        links.gm + "/act/character",
        data={"csrf": csrf, "player": "Zoé", "advantages": "x" * 100_000},
    )
    assert big.status_code == 413

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(100):
            yield b"a" * 1024

    streamed = client.post(
        links.gm + "/act/character",
        content=chunks(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert streamed.status_code == 413


def test_rate_limit(store: SqliteStore) -> None:
    links = make_table(store)
    app = create_app(store, Settings(rate_limit="5/minute"))
    with TestClient(app) as limited:
        codes = [limited.get(links.gm + "/odds/roll").status_code for _ in range(7)]
        assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]
        assert limited.get(links.players["Zoé"]).status_code == 200  # counted per link


def test_quick_reloads_of_a_table_page_stay_within_the_default_limit(store: SqliteStore) -> None:
    links = make_table(store, system="agents", players=("Zoé", "Ana"))
    app = create_app(store)  # the default limits
    with TestClient(app) as c:
        codes = []
        for lang in ("en", "fr", "en", "fr", "en", "fr"):  # 6 loads within a second
            page = c.get(links.gm + f"?lang={lang}")
            codes.append(page.status_code)
            odds = re.findall(r'hx-get="([^"]*/odds/[^"]*)"', page.text)
            assert len(odds) >= 5  # what a load asks for beside the page
            codes += [c.get(path).status_code for path in odds]
        assert len(codes) > 30 and set(codes) == {200}


def test_no_stack_trace_reaches_a_browser(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = make_table(store)
    app = create_app(store)

    def broken(name: str) -> None:
        raise RuntimeError("secret /var/lib/tablee detail")

    with TestClient(app, raise_server_exceptions=False) as c:
        monkeypatch.setattr(app.state.table.service, "state", broken)
        response = c.get(links.gm)
        assert response.status_code == 500
        assert "secret" not in response.text and "Traceback" not in response.text
        assert "Something went wrong" in response.text


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_names_are_escaped(client: TestClient, store: SqliteStore, hostile: str) -> None:
    links = make_table(store, name=hostile[:100], players=(hostile[:100], "Ana"))
    player = hostile[:100]
    act(client, links.gm, "session-start")
    act(
        client,
        links.gm,
        "character-set",
        player=player,
        advantages=hostile,
        disadvantages="<b>bold</b>",
    )
    act(client, links.gm, "opposed", active="Ana", passive_npc=hostile[:100], faces="2")
    for path in (links.gm, links.players["Ana"], links.spectator, links.gm + "/links"):
        page = client.get(path).text
        assert "<script>alert" not in page and "<img src=x" not in page and "<b>bold" not in page
        if "<" in hostile or "&" in hostile:
            assert str(escape(hostile[:100])) in page


def test_game_master_makes_and_revokes_links_in_the_browser(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store)
    page = client.get(links.gm + "/links")
    assert page.status_code == 200 and page.text.count("<code>") == 4
    csrf = csrf_of(client, links.gm)
    made = client.post(links.gm + "/links/new", data={"csrf": csrf, "holder": "player:Ana"})
    assert made.status_code == 200
    found = re.search(r'href="http://testserver(/t/[^"]+)"', made.text)
    assert found is not None
    new_path = found.group(1)
    assert "Ana" in client.get(new_path).text
    prefix = new_path.removeprefix("/t/")[:8]
    revoked = client.post(links.gm + "/links/revoke", data={"csrf": csrf, "prefix": prefix})
    assert revoked.status_code == 200  # redirected back to the list
    assert client.get(new_path).status_code == 403
    assert client.get(links.players["Ana"]).status_code == 200  # the first link still works
    refused = client.post(links.gm + "/links/new", data={"csrf": csrf, "holder": "player:Nobody"})
    assert refused.status_code == 422
    player_csrf = csrf_of(client, links.players["Zoé"])
    stolen = client.post(
        links.players["Zoé"] + "/links/new", data={"csrf": player_csrf, "holder": "gm"}
    )
    assert stolen.status_code == 403


def test_forms_work_without_script(store: SqliteStore) -> None:
    links = make_table(store)
    with TestClient(create_app(store)) as plain:  # no HX-Request: a browser without htmx
        csrf = csrf_of(plain, links.gm)
        done = plain.post(
            links.gm + "/act/session-start",
            data={"csrf": csrf, "step": "start"},
            follow_redirects=False,
        )
        assert done.status_code == 303 and done.headers["location"] == links.gm
        again = plain.post(links.gm + "/act/session-start", data={"csrf": csrf, "step": "start"})
        assert (
            again.status_code == 409 and "<!doctype html>" in again.text and "already" in again.text
        )
        undone = plain.post(links.gm + "/undo", data={"csrf": csrf}, follow_redirects=False)
        assert undone.status_code == 303


def test_a_server_that_does_not_create_tables_says_how_to_join(store: SqliteStore) -> None:
    """--no-create: the home page says to use the game master's link, in the reader's
    language; creating a table is refused."""
    app = create_app(store, Settings(rate_limit="1000/second", allow_create=False))
    with TestClient(app) as closed:
        english = closed.get("/", headers={"Accept-Language": "en"})
        assert english.status_code == 404
        assert "open the link the game master sent you" in english.text
        french = closed.get("/?lang=fr")
        assert "ouvrez le lien que le MJ vous a envoyé" in french.text
        assert closed.post("/tables", data={"csrf": "x"}).status_code in (403, 404)


def test_a_tables_streams_carry_one_routing_key(client: TestClient, store: SqliteStore) -> None:
    """Every link's page opens its stream and sends its forms with the table's key.

    A proxy hashing that key sends all of a table's streams and rolls to one process
    (docs/hosting.md): the key is the same for every link of a table, differs between
    tables, and does not hold the table's id or name.
    """
    zinc = make_table(store)
    cobalt = make_table(store, name="Cobalt")

    opened = re.compile(r'sse-connect="[^"]*/stream\?after=\d+&amp;table=([0-9a-f]{16})"')

    def route(path: str) -> str:
        page = client.get(path).text
        found = opened.search(page)
        assert found is not None
        assert f'data-route="{found.group(1)}"' in page  # what the page reconnects with
        # and what its forms send, for the proxy to hash their posts the same way
        assert f'hx-headers=\'{{"X-Tablee-Table": "{found.group(1)}"}}\'' in page
        return found.group(1)

    keys = {route(path) for path in (zinc.gm, zinc.spectator, *zinc.players.values())}
    assert len(keys) == 1
    other = route(cobalt.gm)
    assert other not in keys
    table_id = TableService(store).state("Zinc").table_id
    assert all(table_id not in key and key not in table_id for key in keys)
    # the stream takes the key and ignores it: the link decides what it shows
    with client.stream("GET", f"{zinc.spectator}/stream?after=0&table={other}") as answer:
        assert answer.status_code == 200
