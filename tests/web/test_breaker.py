"""Attacks on the web table by a hostile player or outsider: each test is one hole, closed.

Every test here failed before its fix (see docs/web.md, "Security model").
"""

from __future__ import annotations

import re

import httpx
from fastapi.testclient import TestClient

from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web import Settings, create_app
from tests.web.conftest import Running, csrf_of, make_table
from tests.web.test_systems import act
from tests.web.test_web_ybs import ybs_table


def plain_page(response: httpx.Response, status: int) -> None:
    """A plain HTML refusal: the status, no JSON, no Python internals."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("text/html")
    for internal in ("detail", "Traceback", "int_parsing", "loc", "ValueError"):
        assert internal not in response.text, internal


# -- malformed requests get a plain page ---------------------------------------------------------


def test_non_numeric_after_gets_a_plain_page(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    plain_page(client.get(links.gm + "/stream", params={"after": "abc"}), 400)


def test_too_many_fields_gets_a_plain_page(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    data = {"csrf": csrf_of(client, links.gm), **{f"f{i}": "x" for i in range(1200)}}
    plain_page(client.post(links.gm + "/act/roll", data=data), 400)


def test_unicode_digits_in_last_event_id_are_ignored(server: Running) -> None:
    links = make_table(server.store)
    with httpx.Client(base_url=server.url, timeout=5) as c:
        headers = [(b"Last-Event-ID", "\u00b2".encode("latin-1"))]  # '²'.isdigit() is True
        with c.stream("GET", links.gm + "/stream", headers=headers) as response:
            assert response.status_code == 200
            assert next(response.iter_bytes()).startswith(b": tablee")


def test_undo_number_that_is_no_number_is_a_plain_refusal(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store)
    token = csrf_of(client, links.gm)
    for seq in ("\u00b2", "\u0661", "9" * 5000):  # superscript 2, Arabic-Indic 1, > 4300 digits
        response = client.post(links.gm + "/undo", data={"csrf": token, "seq": seq})
        assert response.status_code == 422, (seq[:5], response.text)
        assert "event number" in response.text


# -- hidden rolls stay hidden --------------------------------------------------------------------


def test_own_action_answer_hides_a_hidden_follow_up(client: TestClient, store: SqliteStore) -> None:
    """A player's form answer never describes an event the player may not see."""
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    code, _ = act(client, gm, "test", character="Aki", trait="chisei", faces="2", visibility="gm")
    assert code == 200
    code, text = act(client, a, "stubborn", faces="3")
    assert "die 3" not in text and "die 2" not in text
    code, text = act(client, a, "critical")
    assert "not a 2" not in text and "not a 3" not in text  # the refusal named the blind face
    events = TableService(store).state("club").events
    assert events[-1].kind == "ybs.test" and events[-1].visibility == "gm"  # nothing appended


def test_blind_gang_throw_hides_the_hands(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    assert act(client, gm, "gang-start", fighters="Aki\nBo", opponents="Thug")[0] == 200
    code, text = act(
        client, gm, "gang-throw", faces="1,1,2,5,6", faces_gm="3,3,3,4,4", visibility="gm"
    )
    assert code == 200, text
    for path in (a, links.spectator, links.players["B"]):
        page = client.get(path).text
        assert "1 1 2 5 6" not in page and "3 3 3 4 4" not in page
        odds = client.get(path + "/odds/gang-throw").text
        assert "keep" not in odds and "1 1 2 5 6" not in odds
    assert "1 1 2 5 6" in client.get(gm).text  # the game master still sees them
    assert "keep" in client.get(gm + "/odds/gang-throw").text
    code, text = act(client, a, "gang-throw", faces="1,1,1,1,1")
    assert code == 403, text  # a player cannot keep dice they cannot see
    # the next throw shown to everyone shows the hands again
    code, text = act(
        client, gm, "gang-throw", side="both", keep="none", gm_keep="none", faces="1,1,1,1,1",
        faces_gm="2,2,3,3,4",
    )  # fmt: skip
    assert code == 200, text
    assert "1 1 1 1 1" in client.get(a).text


# -- resource abuse ------------------------------------------------------------------------------


def test_guessing_tokens_is_rate_limited_per_address(store: SqliteStore) -> None:
    """A new made-up token per request must not escape the rate limit."""
    links = make_table(store)
    app = create_app(store, Settings(rate_limit="5/minute"))
    with TestClient(app, raise_server_exceptions=False) as c:
        codes = [c.get(f"/t/{'g' * 30}{i:04d}").status_code for i in range(8)]
        assert codes[:5] == [404] * 5 and codes[5:] == [429] * 3
        assert c.get(links.gm).status_code == 429  # the address is slowed down for a while


def test_opening_streams_is_rate_limited(store: SqliteStore) -> None:
    links = make_table(store)
    app = create_app(store, Settings(rate_limit="3/minute"))
    with TestClient(app, raise_server_exceptions=False) as c:
        # a revoked or wrong link's stream answers at once; the count is what matters
        codes = [c.get(links.gm[:-1] + "x/stream").status_code for _ in range(5)]
        assert codes[-1] == 429


def test_concurrent_streams_per_link_are_capped(server: Running) -> None:
    links = make_table(server.store)
    cap = Settings().max_streams
    with httpx.Client(base_url=server.url, timeout=5) as c:
        opened = []
        try:
            for _ in range(cap):
                response = c.send(c.build_request("GET", links.gm + "/stream"), stream=True)
                opened.append(response)
                assert response.status_code == 200
            extra = c.get(links.gm + "/stream")
            assert extra.status_code == 429
            other = c.send(c.build_request("GET", links.players["Ana"] + "/stream"), stream=True)
            opened.append(other)
            assert other.status_code == 200  # another link is not affected
        finally:
            for response in opened:
                response.close()


def test_streams_count_again_once_closed(server: Running) -> None:
    links = make_table(server.store)
    cap = Settings().max_streams
    with httpx.Client(base_url=server.url, timeout=5) as c:
        for _ in range(cap + 3):
            with c.stream("GET", links.gm + "/stream") as response:
                assert response.status_code == 200
                next(response.iter_bytes())


# -- races ---------------------------------------------------------------------------------------


def test_undo_of_the_last_event_does_not_void_a_roll_made_meanwhile(
    client: TestClient, store: SqliteStore
) -> None:
    """The GM's page saw event N; a player's roll lands; "undo the last" must not void it."""
    links = make_table(store)
    gm, zoe = links.gm, links.players["Zoé"]
    assert act(client, gm, "session-start", cagnotte="3")[0] == 200
    page = client.get(gm).text
    seen = re.search(r'name="last" value="(\d+)"', page)
    assert seen is not None  # the undo form carries the last event its page showed
    assert act(client, zoe, "roll", player="Zoé", faces="5")[0] == 200
    token = csrf_of(client, gm)
    response = client.post(gm + "/undo", data={"csrf": token, "last": seen.group(1)})
    assert response.status_code == 409, response.text
    state = TableService(store).state("Zinc")
    assert not state.voided and state.events[-1].kind == "pouyss.roll"
    # with the number of the event it means, or once the page caught up, it works
    last = str(state.last_seq)
    assert client.post(gm + "/undo", data={"csrf": token, "last": last}).status_code == 200
    assert TableService(store).state("Zinc").voided == {int(last)}


# -- unicode tricks ------------------------------------------------------------------------------


def test_free_text_refuses_control_and_direction_characters(
    client: TestClient, store: SqliteStore
) -> None:
    """A note with U+202E would draw the rest of its log line backwards for every viewer."""
    links = make_table(store)
    gm, zoe = links.gm, links.players["Zoé"]
    assert act(client, gm, "session-start", cagnotte="3")[0] == 200
    before = TableService(store).state("Zinc").last_seq
    for bad in ("\u202eeiv", "a\x00b", "x\u2066y", "\x1b[31m", "\ufeffz"):
        code, text = act(client, zoe, "roll", player="Zoé", reasons=bad, faces="4")
        assert code == 422, (repr(bad), text)
        assert "U+" in text
    assert TableService(store).state("Zinc").last_seq == before
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467 d\u00e9j\u00e0\tvu"  # ZWJ and a tab stay
    code, text = act(client, zoe, "roll", player="Zoé", reasons=family, faces="4")
    assert code == 200, text


# -- forged requests that already failed (kept as regressions) -----------------------------------


def test_forged_forms_stay_refused(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    other = make_table(store, name="Other")
    gm, zoe = links.gm, links.players["Zoé"]
    mine, theirs, zoes = csrf_of(client, gm), csrf_of(client, other.gm), csrf_of(client, zoe)
    start = {"step": "start", "cagnotte": "3"}
    assert client.post(gm + "/act/session-start", data={"csrf": theirs, **start}).status_code == 403
    form = {"content-type": "application/x-www-form-urlencoded"}
    body = f"csrf={mine}&csrf=forged&step=start".encode()  # the last value counts, for all fields
    assert client.post(gm + "/act/session-start", content=body, headers=form).status_code == 403
    for route, data in (("/undo", {}), ("/options", {"set": "x=1"}), ("/links/new", {})):
        response = client.post(zoe + route, data={"csrf": zoes, **data})
        assert response.status_code == 403, route
    for route in ("/links", "/export.jsonl", "/export.md"):
        assert client.get(zoe + route).status_code == 403
        assert client.get(links.spectator + route).status_code == 403
    json_post = client.post(gm + "/act/session-start", json={"csrf": mine, **start})
    assert json_post.status_code == 403  # only forms are read
    assert client.get(gm + "/act/session-start").status_code == 405
    assert TableService(store).state("Zinc").last_seq == 1


def test_guessing_from_an_address_does_not_lock_out_its_working_links(store: SqliteStore) -> None:
    """A NAT or a café's Wi-Fi: one person guesses, the others keep their table."""
    links = make_table(store)
    app = create_app(store, Settings(rate_limit="30/minute"))
    with TestClient(app, raise_server_exceptions=False) as c:
        assert c.get(links.players["Ana"]).status_code == 200
        codes = [c.get(f"/t/{'g' * 30}{i:04d}").status_code for i in range(30)]
        assert codes == [404] * 30
        assert c.get(f"/t/{'g' * 30}9999").status_code == 429  # guesses are still slowed
        assert c.get(links.players["Ana"]).status_code == 200
        assert c.get(links.players["Ana"] + "/odds/roll").status_code != 429
        # only failed guesses count: the working link's requests did not add to them
        assert c.get(f"/t/{'h' * 34}").status_code == 429
