"""Physical dice for every die of every game on the web table and its JSON API.

* SHS: the D8 (D10 with an Expertise) and +/- dice faces typed in every kind of Test (a
  single Test, with options, cooperation, simultaneous Actions, opposed Actions); the hints,
  labels and errors name the dice as players do ("+/- dice", "dés +/-", "D8", "D10"),
  never ``dpm``.
* YBS: a reroll (s'entêter) takes its typed face; a critical throws no die (Y-A4).
* A YBS gang fight: a player throws the players' side and the game master the GM's, in
  either order, each with typed faces or the server's when that side asks; a side's throw
  never rolls the other side's dice (seed 004, "Les combats de bande"; Y-M7 steps 3-4).
"""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from tablee.systems import SYSTEM_IDS
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import make_table
from tests.web.test_systems import act, shs_table
from tests.web.test_web_ybs import ybs_table

JSON = {"content-type": "application/json"}


def text_of(page: str) -> str:
    """What a reader sees: the page without its tags and attributes."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def last(store: SqliteStore, table: str) -> dict:
    return dict(TableService(store).state(table).events[-1].payload)


def api(client: TestClient, link: str, name: str, body: dict) -> tuple[int, dict]:
    answer = client.post(f"{link}/api/{name}", json=body, headers=JSON)
    return answer.status_code, answer.json()


# -- SHS: D8, D10 and +/- dice ------------------------------------------------------------------


def test_shs_typed_faces_in_every_kind_of_test(client: TestClient, store: SqliteStore) -> None:
    gm, ripley, _ = shs_table(client, store)
    code, text = act(client, ripley, "test", protagoniste="Ellen", characteristic="carrure",
                     difficulty="2", bonus="1", faces="6,7,1", faces_dpm="+")  # fmt: skip
    assert code == 200, text
    done = last(store, "Nostromo")
    assert done["action_faces"] == [6, 7, 1] and done["dpm_faces"] == [1] and done["ps"] == 3
    # Se Surpasser: two +/- dice of its own (S-M5)
    surpass = {"option": "surpasser", "faces": "1,2,3", "faces_dpm": "+,0"}
    code, text = act(client, ripley, "test", protagoniste="Ellen", characteristic="science",
                     difficulty="1", **surpass)  # fmt: skip
    assert code == 200, text
    assert last(store, "Nostromo")["dpm_faces"] == [1, 0]
    # a matching Expertise throws D10: a 10 is a face
    code, text = act(client, ripley, "test", protagoniste="Ellen", characteristic="motricite",
                     difficulty="1", expertise="Pilote", faces="10,9,1")  # fmt: skip
    assert code == 200, text
    assert last(store, "Nostromo")["die"] == "d10"
    code, text = act(client, gm, "cooperation", members="Ellen:science\nAsh:science",
                     difficulty="1", faces="7,7,1,1,1,1", faces_dpm="+,-")  # fmt: skip
    assert code == 200, text
    members = last(store, "Nostromo")["members"]
    assert [m["dpm_faces"] for m in members] == [[1], [-1]]
    both = {"actions": "carrure:1\nscience:1", "faces": "6,1,1,7,1,1", "faces_dpm": "-,0"}
    code, text = act(client, ripley, "simultaneous", protagoniste="Ellen", **both)
    assert code == 200, text
    actions = last(store, "Nostromo")["actions"]
    assert [a["dpm_faces"] for a in actions] == [[-1], [0]]
    code, text = act(client, ripley, "opposed", first="Ellen:carrure:surpasser",
                     second="Ash:carrure", faces="6,6,1,6,1,1", faces_dpm="+,+")  # fmt: skip
    assert code == 200, text
    opposed = last(store, "Nostromo")
    assert opposed["first"]["dpm_faces"] == [1, 1] and opposed["second"]["dpm_faces"] == []


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", ("+/- dice", "D8", "D10")), ("fr", ("dés +/-", "D8", "D10"))],
)
def test_shs_hints_and_errors_name_the_dice_as_players_do(
    client: TestClient, store: SqliteStore, lang: str, words: tuple[str, ...]
) -> None:
    _, ripley, _ = shs_table(client, store)
    page = text_of(client.get(f"{ripley}?lang={lang}").text)
    for word in words:
        assert word in page, word
    assert "dpm" not in page.lower()
    test = {"protagoniste": "Ellen", "characteristic": "carrure", "difficulty": "2"}
    before = len(TableService(store).state("Nostromo").events)
    for extra, shown in (
        ({"bonus": "1", "faces": "6,7,1"}, words[0]),  # the +/- die left out
        ({"faces": "6,7,1", "faces_dpm": "+"}, words[0]),  # one too many
        ({"bonus": "1", "faces": "6,7,1", "faces_dpm": "x"}, "x"),
    ):
        code, text = act(client, ripley, "test", **test, **extra)
        said = text_of(text)
        assert code == 422 and "+/-" in said and shown in said, said
        assert "dpm" not in said.lower() and "--" not in said, said
    code, text = act(client, ripley, "test", **test, faces="6,9,1")
    assert code == 422 and "D8" in text_of(text), text
    assert len(TableService(store).state("Nostromo").events) == before


def test_shs_json_api_takes_both_kinds_of_faces(client: TestClient, store: SqliteStore) -> None:
    _, ripley, _ = shs_table(client, store)
    test = {"protagoniste": "Ellen", "characteristic": "carrure", "difficulty": 2, "malus": 1}
    status, doc = api(client, ripley, "test", {**test, "faces": [6, 7, 8]})
    assert status == 422 and "+/- dice" in doc["message"] and "dpm" not in doc["message"]
    status, doc = api(client, ripley, "test", {**test, "faces": [6, 7, 8], "faces_dpm": ["-"]})
    assert status == 200, doc
    assert last(store, "Nostromo")["dpm_faces"] == [-1]
    schema = {c["name"]: c for c in client.get(ripley + "/api").json()["commands"]}
    dice = {d["name"]: d["help"] for d in schema["test"]["dice"]}
    assert "D8" in dice["faces"] and "+/- dice" in dice["faces_dpm"]
    assert "dpm" not in " ".join(dice.values())


@pytest.mark.parametrize("system_id", sorted(SYSTEM_IDS))
def test_no_page_names_a_die_by_its_internal_name(
    client: TestClient, store: SqliteStore, system_id: str
) -> None:
    links = make_table(store, system=system_id, name="Dice", players=("Zoé", "Ana"))
    for link in (links.gm, links.players["Zoé"]):
        for lang in ("en", "fr"):
            forms = re.findall(
                r"<form [^>]*/act/.*?</form>", client.get(f"{link}?lang={lang}").text, re.S
            )
            page = text_of(" ".join(forms))
            assert "dpm" not in page.lower()
            assert not re.search(r"\bgm (faces|dice)\b", page), system_id


# -- YBS: rerolls and criticals -----------------------------------------------------------------


def test_ybs_reroll_takes_its_typed_face(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    a = links.players["A"]
    assert act(client, a, "test", character="Aki", trait="chisei", faces="1")[0] == 200
    code, text = act(client, a, "stubborn", faces="7")
    assert code == 422 and "not a face of a d6 (1 to 6)" in text_of(text), text
    code, text = act(client, a, "stubborn", faces="6")
    assert code == 200, text
    assert last(store, "club")["face"] == 6
    code, text = act(client, a, "critical")  # a critical throws no die (Y-A4)
    assert code == 200, text
    b = links.players["B"]  # over the JSON API
    assert act(client, b, "test", character="Bo", trait="chisei", faces="2")[0] == 200
    status, doc = api(client, b, "stubborn", {"faces": [9]})
    assert status == 422 and "not a face of a d6" in doc["message"], doc
    status, doc = api(client, b, "stubborn", {"faces": [5]})
    assert status == 200, doc
    assert last(store, "club")["face"] == 5


# -- YBS: both sides of a gang fight ------------------------------------------------------------


def pending(store: SqliteStore) -> object:
    gang = TableService(store).state("club").game.gang
    return None if gang is None else gang.pending


def test_a_player_throws_their_side_then_the_gm_theirs(
    client: TestClient, store: SqliteStore
) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    assert act(client, gm, "gang-start", fighters="Aki\nBo", opponents="Thug")[0] == 200
    code, text = act(client, a, "gang-throw", faces="1,1,2,5,6")
    assert code == 200, text
    waiting = last(store, "club")
    assert waiting["side"] == "players" and waiting["faces"] == [1, 1, 2, 5, 6]
    assert "gm_faces" not in waiting  # nothing rolled for the game master
    assert "waiting for the GM's side" in text_of(client.get(gm).text)
    assert "1 1 2 5 6" not in text_of(client.get(links.players["B"]).text)  # not shown yet
    code, text = act(client, a, "gang-throw", faces="1,1,2,5,6")
    assert code == 409 and "already thrown" in text_of(text), text
    code, text = act(client, gm, "gang-throw", side="gm", faces_gm="2,2,3,5,5")
    assert code == 200, text
    throw = last(store, "club")
    assert throw["faces"] == [1, 1, 2, 5, 6] and throw["gm_faces"] == [2, 2, 3, 5, 5]
    assert pending(store) is None
    assert TableService(store).state("club").game.gang.fight.throws == 1
    assert "1 1 2 5 6" in text_of(client.get(links.players["B"]).text)


def test_the_gm_throws_first_then_a_player(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    assert act(client, gm, "gang-start", fighters="Aki", opponents="Thug")[0] == 200
    form = client.get(gm).text
    found = re.search(r'<select id="gang-throw-side".*?</select>', form, re.S)
    assert found is not None and '<option value="gm" selected>' in found.group(0)
    code, text = act(client, gm, "gang-throw", side="gm")  # the server rolls, asked by the GM
    assert code == 200, text
    waiting = last(store, "club")
    assert waiting["side"] == "gm" and len(waiting["faces"]) == 5
    assert "1 1 2 5 6" not in text_of(client.get(a).text)
    code, text = act(client, a, "gang-throw", faces="1,1,2,5,6")
    assert code == 200, text
    throw = last(store, "club")
    assert throw["faces"] == [1, 1, 2, 5, 6] and throw["gm_faces"] == waiting["faces"]
    actor = TableService(store).state("club").events[-1].actor
    assert actor == "A" and pending(store) is None


def test_typed_faces_of_one_side_never_roll_the_other(
    client: TestClient, store: SqliteStore
) -> None:
    links = ybs_table(client, store)
    gm = links.gm
    assert act(client, gm, "gang-start", fighters="Aki", opponents="Thug")[0] == 200
    before = len(TableService(store).state("club").events)
    code, text = act(client, gm, "gang-throw", side="both", faces="1,1,2,5,6")
    said = text_of(text)
    assert code == 422 and "the game master's d6: 5 faces needed" in said, said
    code, text = act(client, gm, "gang-throw", side="both", faces="1,1", faces_gm="1,2,3,y,5")
    assert code == 422 and "the game master's d6: face y (the 4th)" in text_of(text), text
    assert len(TableService(store).state("club").events) == before
    code, text = act(client, gm, "gang-throw", side="both", faces="1,1,2,5,6",
                     faces_gm="2,2,3,5,5")  # fmt: skip
    assert code == 200, text


def test_the_json_api_throws_each_side_apart(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    assert api(client, gm, "gang-start", {"fighters": ["Aki"], "opponents": ["Thug"]})[0] == 200
    status, doc = api(client, gm, "gang-throw", {"side": "gm", "faces_gm": [2, 2, 3, 5, 5]})
    assert status == 200 and doc["report"]["event"] == "ybs.gang_side", doc
    status, doc = api(client, a, "gang-throw", {"fighter": "Aki", "side": "players", "faces": [1]})
    assert status == 403, doc  # the side is the game master's field; a player's is theirs
    status, doc = api(client, a, "gang-throw", {"fighter": "Aki", "faces": [1, 1, 2, 5, 6]})
    assert status == 200, doc
    report = doc["report"]
    assert report["event"] == "ybs.gang_throw" and report["gm_faces"] == [2, 2, 3, 5, 5]
