"""Every Yuigahama Bad Seeds form of the web table, its odds against brute force, the roles.

The brute forces here use their own few lines of the rules (seed 004, Y-M3 and Y-M7), not
the rules core: a test is one d6 + trait (+ forced tokens on the first throw), a natural 6
always succeeds and a natural 1 always fails; a straight is four consecutive faces.
"""

from __future__ import annotations

import html
import itertools
import re
from fractions import Fraction

from fastapi.testclient import TestClient

from tablee.systems.ybs.race import race_advice, race_keep
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import Links, Running, csrf_of, make_table, race
from tests.web.test_stream import collect
from tests.web.test_systems import act, fractions_in

TRAITS = dict.fromkeys(("choushi", "kiyousa", "chisei", "yuuben", "chikaku", "nintai"), 0)
HOSTILE = '<script>alert("x")</script><b>Ren</b> 🎴' + "z" * 40


def ybs_table(client: TestClient, store: SqliteStore) -> Links:
    """Table 'club' for A and B: Aki (A), Bo (B), the GM's Thug; a session started."""
    links = make_table(store, system="ybs", name="club", players=("A", "B"))
    gm, a = links.gm, links.players["A"]
    code, text = act(
        client, a, "character-create", character="Aki", player="A", choushi="1", kiyousa="1",
        chikaku="-1", attributes="surfer",
    )  # fmt: skip
    assert code == 200, text
    code, text = act(
        client, gm, "character-create", character="Bo", player="B", nintai="1", chisei="1",
        yuuben="-1",
    )  # fmt: skip
    assert code == 200, text
    assert act(client, gm, "character-create", character="Thug", choushi="1")[0] == 200
    assert act(client, gm, "session-start")[0] == 200
    return links


def state_of(store: SqliteStore) -> object:
    return TableService(store).state("club")


def tokens(store: SqliteStore) -> dict[str, int]:
    game = TableService(store).state("club").game
    return {"gm": game.ledger.gm, **game.ledger.players}


# -- brute forces ---------------------------------------------------------------------------------


def brute_test(trait: int, force: int, tokens_left: int) -> tuple[Fraction, Fraction, Fraction]:
    """Success, critical and final-1 chances, rerolling every failure while tokens last."""
    length = 1 + tokens_left
    success = critical = one = 0
    for seq in itertools.product(range(1, 7), repeat=length):

        def ok(n: int, first: bool) -> bool:
            return n == 6 or (n != 1 and n + trait + (force if first else 0) >= 4)

        i = 0
        while i < tokens_left and not ok(seq[i], i == 0):
            i += 1
        n = seq[i]
        success += ok(n, i == 0)
        critical += n == 6 and tokens_left - i >= 1
        one += n == 1
    total = 6**length
    return Fraction(success, total), Fraction(critical, total), Fraction(one, total)


def has_straight(faces: tuple[int, ...]) -> bool:
    return any(set(range(low, low + 4)) <= set(faces) for low in (1, 2, 3))


ROW = re.compile(r'<th scope="row">([^<]*)</th>.*?class="fraction">(\d+)/(?:<wbr>)?(\d+)<', re.S)


def odds_rows(text: str) -> list[tuple[str, Fraction]]:
    return [(html.unescape(label), Fraction(int(n), int(d))) for label, n, d in ROW.findall(text)]


# -- tests ----------------------------------------------------------------------------------------


def test_test_odds_match_brute_force(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    a = links.players["A"]
    for force in (0, 1, 2):
        text = client.get(
            a + "/odds/test", params={"character": "Aki", "trait": "kiyousa", "force": force}
        ).text
        # A holds 2 tokens after the session start; forcing spends them first
        expected = brute_test(1, force, 2 - force)
        assert fractions_in(text) == list(expected), text
    combined = client.get(
        a + "/odds/test",
        params={
            "character": "Aki",
            "trait": "choushi",
            "second_trait": "chikaku",
            "combine": "limit",
            "force": "2",
        },
    ).text
    assert fractions_in(combined)[0] == brute_test(-1, 2, 0)[0]
    npc = client.get(links.gm + "/odds/test", params={"character": "Thug", "trait": "choushi"})
    assert fractions_in(npc.text)[0] == brute_test(1, 0, 0)[0]
    bad = client.get(a + "/odds/test", params={"character": "Aki", "trait": "luck"})
    assert bad.status_code == 200 and "odds-error" in bad.text


def test_tests_tokens_and_follow_ups(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a, b = links.gm, links.players["A"], links.players["B"]
    assert tokens(store) == {"gm": 96, "A": 2, "B": 2}
    code, text = act(client, a, "test", character="Aki", trait="chisei", faces="1")
    assert code == 200, text
    assert act(client, b, "stubborn", faces="6")[0] == 403  # not B's character
    code, text = act(client, a, "stubborn", faces="6")
    assert code == 200, text
    assert act(client, a, "critical")[0] == 200
    assert tokens(store)["A"] == 0
    code, text = act(client, a, "critical")
    assert code == 409 and "over" in text
    # the trace of the test, resolved again from its stored faces, is on the page
    assert 'class="trace"' in client.get(gm).text
    # a player cannot test with another's character, nor record an assistance
    assert act(client, a, "test", character="Bo", trait="nintai", faces="3")[0] == 403
    assert (
        act(client, a, "test", character="Aki", trait="kiyousa", assistants="Bo", faces="3")[0]
        == 403
    )
    code, text = act(
        client, gm, "test", character="Aki", trait="kiyousa", assistants="Bo", faces="2"
    )
    assert code == 200, text
    assert tokens(store) == {"gm": 98, "A": 1, "B": 1}
    # the GM's critical failure on a natural 1 gives the player a token
    assert act(client, b, "test", character="Bo", trait="yuuben", faces="1")[0] == 200
    assert act(client, b, "critical-failure")[0] == 403
    assert act(client, gm, "critical-failure")[0] == 200
    assert tokens(store)["B"] == 2
    # forcing destiny spends the player's own tokens; more than they hold is refused
    code, text = act(client, b, "test", character="Bo", trait="nintai", force="3", faces="2")
    assert code == 409, text
    assert act(client, b, "test", character="Bo", trait="nintai", force="2", faces="2")[0] == 200
    assert tokens(store)["B"] == 0
    # the GM invokes an attribute: 1 token to the character's player
    assert act(client, a, "invoke", character="Aki", attribute="surfer")[0] == 403
    assert act(client, gm, "invoke", character="Aki", attribute="surfer", note="vague")[0] == 200
    assert tokens(store)["A"] == 2
    code, text = act(client, a, "shichi-fukujin", player="A", proposal="la marée monte")
    assert code == 409 and "7" in text  # not enough tokens, refused by the rules
    assert act(client, a, "shichi-fukujin", player="B")[0] == 403
    code, text = act(client, a, "test", character="Aki", trait="kiyousa", faces="1,2")
    assert code == 422
    assert act(client, gm, "session-end")[0] == 200
    assert tokens(store) == {"gm": 100, "A": 0, "B": 0}


def test_shichi_fukujin_with_seven_tokens(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    for _ in range(5):
        assert act(client, gm, "invoke", character="Aki", attribute="surfer")[0] == 200
    assert tokens(store)["A"] == 7
    code, text = act(client, a, "shichi-fukujin", player="A", proposal="la marée monte")
    assert code == 200, text
    assert tokens(store)["A"] == 0


def test_blind_test_never_reaches_a_player(
    client: TestClient, store: SqliteStore, server: Running
) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    assert act(client, a, "test", character="Aki", trait="chisei", visibility="gm")[0] == 403
    code, _ = act(
        client, gm, "test", character="Thug", trait="chikaku", faces="5", visibility="gm",
        note="SECRETNOTE",
    )  # fmt: skip
    assert code == 200
    event = TableService(store).state("club").events[-1]
    assert event.kind == "ybs.test" and event.visibility == "gm"
    assert act(client, gm, "critical-failure")[0] == 409  # a 5 is no natural 1
    secret = "Thug tests Chikaku +0: die 5"
    assert secret not in client.get(a).text and secret in client.get(gm).text
    player_stream = collect(f"{server.url}{a}/stream?after={event.seq - 1}", event.seq)
    assert [int(e.id) for e in player_stream] == [event.seq]
    assert secret not in player_stream[0].data and "SECRETNOTE" not in player_stream[0].data
    gm_stream = collect(f"{server.url}{gm}/stream?after={event.seq - 1}", event.seq)
    assert secret in gm_stream[0].data


def test_damage_rest_heal_fight_and_evolution(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    assert act(client, a, "damage", character="Aki", uchimi="1")[0] == 403
    assert (
        act(client, gm, "damage", character="Aki", uchimi="2", kega="1", note="couteau")[0] == 200
    )
    page = client.get(a).text
    assert '<span class="unit box marked" aria-hidden="true">/</span>' in page
    assert '<span class="unit box marked" aria-hidden="true">X</span>' in page
    assert "2 Uchimi, 1 Kega, 2 free" in page  # Aki: Choushi +1, 5 boxes
    assert act(client, gm, "rest", character="Aki", minutes="30")[0] == 200
    assert act(client, gm, "heal", character="Aki", count="1")[0] == 200
    hero = TableService(store).state("club").game.characters["Aki"]
    assert (hero.uchimi, hero.kega) == (1, 0)
    # a round: Aki attacks the Thug, who defends and fails
    code, text = act(
        client, a, "test", character="Aki", trait="choushi", purpose="attack", target="Thug",
        faces="5",
    )  # fmt: skip
    assert code == 200, text
    code, text = act(
        client, gm, "test", character="Thug", trait="choushi", purpose="defend", against="Aki",
        faces="2",
    )  # fmt: skip
    assert code == 200, text
    assert act(client, a, "fight-resolve")[0] == 403
    assert act(client, gm, "fight-resolve")[0] == 200
    assert TableService(store).state("club").game.characters["Thug"].uchimi == 1
    assert act(client, a, "fight-retreat", character="Bo")[0] == 403
    assert act(client, a, "fight-retreat", character="Aki")[0] == 200
    assert act(client, gm, "fight-end")[0] == 200
    # evolution: stars and transfers are the GM's (see test_web_roles for the house rule)
    assert act(client, a, "star", character="Aki", trait="chisei")[0] == 403
    for _ in range(5):
        assert act(client, gm, "star", character="Bo", trait="chisei")[0] == 200
    assert TableService(store).state("club").game.characters["Bo"].trait("chisei") == 2
    assert act(client, a, "transfer", character="Aki", lower="chikaku", raise_="chisei")[0] == 403
    code, text = act(client, gm, "transfer", character="Aki", lower="chikaku", raise_="chisei")
    assert code == 200, text
    assert act(client, gm, "trauma", character="Bo", trait="yuuben")[0] == 409
    code, text = act(client, gm, "attributes", character="Aki", add="biker", remove="surfer")
    assert code == 200, text
    assert TableService(store).state("club").game.characters["Aki"].attributes == ("biker",)


def test_gang_fight_with_the_advisor(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    assert client.get(gm + "/odds/gang-throw").text.count("odds-error") == 1  # no fight yet
    assert act(client, a, "gang-start", fighters="Aki")[0] == 403
    code, text = act(client, gm, "gang-start", fighters="Aki\nBo", opponents="Thug")
    assert code == 200, text
    before = client.get(a + "/odds/gang-throw").text
    assert "win" in before and len(fractions_in(before)) == 3
    assert sum(fractions_in(before)) == 1
    code, text = act(client, a, "gang-throw", faces="1,1,2,5,6", faces_gm="1,1,1,1,1")
    assert code == 403  # the GM's dice are the GM's
    code, text = act(client, gm, "gang-throw", faces="1,1,2,5,6", faces_gm="1,1,1,1,1")
    assert code == 200, text
    fight = TableService(store).state("club").game.gang.fight
    assert fight.players_hand == (1, 1, 2, 5, 6) and fight.throws == 1
    rows = odds_rows(client.get(a + "/odds/gang-throw").text)
    ours = [(label, p) for label, p in rows if label.startswith("the players")]
    assert len(ours) > 5
    advised = {c.kept: c for c in race_advice(fight.players_hand, fight.gm_hand).choices}
    for label, p in ours:
        found = re.search(r"keep ([\d ]+|-), reroll (\d)", label)
        assert found is not None, label
        kept = () if found.group(1) == "-" else tuple(int(f) for f in found.group(1).split())
        assert p == advised[kept].win, label  # the chance to win the fight (Y-X9)
    best = " ".join(map(str, race_keep(fight.players_hand, fight.gm_hand))) or "-"
    assert ours[0][0].startswith(f"the players: keep {best}, reroll"), ours[0]
    gm_rows = [label for label, _ in rows if label.startswith("the GM")]
    assert gm_rows
    code, text = act(client, gm, "gang-throw", keep="1,2,5,6", faces="4,5")
    assert code == 422 and "faces" in text  # 1 die to throw again, 2 faces typed
    code, text = act(
        client, gm, "gang-throw", keep="1,2,5,6", faces="3", gm_keep="none",
        faces_gm="2,2,2,2,2",
    )  # fmt: skip
    assert code == 200, text  # 1 2 3 5 6: still no straight
    page = client.get(a).text
    assert "Gang fight" in page and "1 2 3 5 6" in page
    assert act(client, a, "gang-stop")[0] == 403
    assert act(client, gm, "gang-stop", note="police")[0] == 200
    assert TableService(store).state("club").game.gang is None
    # a player throws the players' side (the GM's dice from the server's fair source)
    assert act(client, gm, "gang-start", fighters="Aki", opponents="Thug")[0] == 200
    code, text = act(client, links.players["B"], "gang-throw", faces="1,1,2,5,6")
    assert code == 409 and "does not fight" in text  # B plays no fighter of this fight
    code, text = act(client, a, "gang-throw", faces="1,1,2,5,6")
    assert code == 200, text
    assert TableService(store).state("club").events[-1].payload["faces"] == [1, 1, 2, 5, 6]


def test_gang_fight_to_the_end(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm = links.gm
    assert act(client, gm, "gang-start", fighters="Aki", opponents="Thug")[0] == 200
    code, text = act(client, gm, "gang-throw", faces="1,2,3,4,6", faces_gm="1,1,2,2,6")
    assert code == 200, text
    game = TableService(store).state("club").game
    assert game.gang is None and game.characters["Thug"].uchimi == 3
    assert game.characters["Aki"].uchimi == 1


def test_ichika_bachika(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    odds = client.get(gm + "/odds/ichika", params={"choices": "A=ichika_bachika\nB=flee"}).text
    assert "Ichika Bachika" in odds and sum(fractions_in(odds)[:3]) == 1
    flee = client.get(gm + "/odds/ichika", params={"choices": "A=flee\nB=flee"}).text
    assert "everyone flees" in flee
    assert act(client, a, "ichika", choices="A=flee")[0] == 403
    code, text = act(
        client, gm, "ichika", choices="A=ichika_bachika\nB=flee", opponents="Thug",
        faces="6,6,6,1,2", faces_gm="1,2,3,4,5",
    )  # fmt: skip
    assert code == 200, text
    game = TableService(store).state("club").game
    assert game.characters["Thug"].marked == 4 and game.characters["Aki"].marked == 0
    code, text = act(client, gm, "ichika", choices="A=gang_fight\nB=flee")
    assert code == 200, text
    assert TableService(store).state("club").game.gang is not None
    code, text = act(client, gm, "ichika", choices="A=nonsense")
    assert code == 422


def test_import_and_hostile_names(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    sheets = (
        '[[characters]]\nname = "Rin"\nplayer = "B"\nattributes = ["biker"]\n'
        "[characters.traits]\nchoushi = 1\nkiyousa = 1\nchisei = 0\nyuuben = 0\n"
        "chikaku = -1\nnintai = 0\n"
    )
    assert act(client, a, "character-import", sheets=sheets)[0] == 403
    code, text = act(client, gm, "character-import", sheets=sheets)
    assert code == 200, text
    bad = '{"name": "Zed", "traits": {"choushi": 5}}'
    before = len(TableService(store).state("club").events)
    code, text = act(client, gm, "character-import", sheets=bad)
    assert code == 422 and len(TableService(store).state("club").events) == before
    # a player creates only characters they play
    assert act(client, a, "character-create", character="Mio", player="B")[0] == 403
    code, text = act(
        client, a, "character-create", character=HOSTILE, player="A", attributes=HOSTILE
    )
    assert code == 200, text
    for path in (gm, a, links.spectator):
        page = client.get(path).text
        assert "<script>alert" not in page and "<b>Ren</b>" not in page
        assert "&lt;script&gt;alert" in page and "🎴" in page
    odds = client.get(a + "/odds/test", params={"character": HOSTILE, "trait": "choushi"}).text
    assert "<script>alert" not in odds


def test_one_token_spent_twice_at_once(server: Running) -> None:
    """A forces destiny with both their tokens from two tabs at the same instant.

    A holds 2 tokens: exactly one test is stored, the other is refused by the rules, every
    token is still somewhere and the log has no gap.
    """
    from tablee.systems import ybs

    store = server.store
    links = make_table(store, system="ybs", name="club", players=("A", "B"))
    service = TableService(store)
    service.execute(
        "club",
        lambda s: ybs.decide_create(s.game, name="Aki", traits=TRAITS, owner="A"),
        lambda d: d.facts,
    )
    _race_tokens(server, links)


def _race_tokens(server: Running, links: Links) -> None:
    store = server.store
    from tablee.systems import ybs

    service = TableService(store)
    service.execute("club", lambda s: ybs.decide_start_session(s.game), lambda d: d.facts)
    # A spends 2 tokens forcing at the same instant from two tabs: A holds 2, so one wins
    data = {"character": "Aki", "trait": "chisei", "force": "2"}
    results = race(server.url, links.players["A"], "test", data)
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 409], [r.text for r in results]
    refused = next(r for r in results if r.status_code == 409)
    assert "token" in refused.text
    state = TableService(store).state("club")
    assert [e.seq for e in state.events] == list(range(1, len(state.events) + 1))
    assert [e.kind for e in state.events].count("ybs.test") == 1
    assert state.game.ledger.players["A"] == 0
    assert state.game.ledger.gm + sum(state.game.ledger.players.values()) == 100


def test_csrf_token_is_required(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    csrf_of(client, links.gm)
    response = client.post(links.gm + "/act/session-end", data={})
    assert response.status_code == 403


def test_a_word_left_out_by_default_is_offered_as_none(
    client: TestClient, store: SqliteStore
) -> None:
    """A browser sends the select's first option: for a word field left out by default
    (how two traits combine, the outnumbered side) it must be the empty one."""
    links = ybs_table(client, store)
    page = client.get(links.gm).text
    for name in ("combine", "outnumbered"):
        select = re.search(rf'<select[^>]*name="{name}".*?</select>', page, re.S)
        assert select is not None, name
        assert re.search(r'<option value="" selected>-</option>', select.group(0)), name
    code, text = act(client, links.gm, "test", character="Bo", trait="chisei", combine="")
    assert code == 200, text


def test_the_json_api_keeps_the_gms_dice_and_hidden_tests(
    client: TestClient, store: SqliteStore
) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    headers = {"content-type": "application/json"}

    def api(link: str, name: str, body: dict[str, object]) -> tuple[int, dict]:
        answer = client.post(f"{link}/api/{name}", json=body, headers=headers)
        return answer.status_code, answer.json()

    schema = {c["name"]: c for c in client.get(a + "/api").json()["commands"]}
    assert "gang-start" not in schema and "gang-throw" in schema
    assert "gm_keep" not in {f["name"] for f in schema["gang-throw"]["fields"]}
    assert api(gm, "gang-start", {"fighters": ["Aki"], "opponents": ["Thug"]})[0] == 200
    throw = {"fighter": "Aki", "faces": "1,1,2,5,6"}
    status, doc = api(a, "gang-throw", {**throw, "faces_gm": "1,1,1,1,1"})
    assert status == 403 and "faces_gm" in doc["message"]
    assert api(a, "gang-throw", {"faces": "1,1,2,5,6"})[0] == 403  # who throws is named
    status, doc = api(a, "gang-throw", {**throw, "faces": [1, 1, 2, 5, 6]})
    assert status == 200, doc
    # the players' side alone: nothing is rolled for the game master, who throws next
    assert doc["report"]["event"] == "ybs.gang_side" and doc["report"]["faces"] == [1, 1, 2, 5, 6]
    assert "gm_faces" not in doc["report"]
    status, doc = api(gm, "gang-throw", {"faces_gm": [2, 2, 3, 5, 5]})
    assert status == 200, doc
    report = doc["report"]
    assert report["faces"] == [1, 1, 2, 5, 6] and report["gm_faces"] == [2, 2, 3, 5, 5]
    assert api(gm, "gang-stop", {})[0] == 200
    status, doc = api(gm, "test", {"character": "Aki", "trait": "chisei", "faces": [2],
                                   "visibility": "gm"})  # fmt: skip
    assert status == 200 and doc["report"]["natural"] == 2
    status, doc = api(a, "stubborn", {"faces": [5]})
    assert status == 403, doc  # the test is hidden from A: the game master takes it
    status, doc = api(gm, "stubborn", {"faces": [5], "visibility": "all"})
    assert status == 200, doc
    assert TableService(store).state("club").events[-1].visibility == "gm"
