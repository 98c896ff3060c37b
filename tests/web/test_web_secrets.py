"""No secret in an error: a refusal never shows a value hidden from the one who asked.

Each hidden value of the games gets its test: the refusal a player reads (web form, odds box,
JSON API) holds none of it, and two different bad choices read the same, while the game
master (who sees everything) still reads the whole message. A player's own secret throw is
theirs: they see it, and their refusals may name it.

* the gang fight's hands, thrown blind by the game master or secretly by another player;
* a blind Nintai gate test (whether it failed);
* a blind YBS test's die (its follow-ups);
* an encounter's secret choices;
* the agents quest's secret objective (G-M9), also in the JSON API's report.
"""

from __future__ import annotations

import html
import json

from fastapi.testclient import TestClient

from tablee.errors import NOT_VALID, InputError, RuleError
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.test_systems import act
from tests.web.test_web_agents import team
from tests.web.test_web_ybs import ybs_table

HEADERS = {"content-type": "application/json"}
HAND = "6,6,6,6,6"
"""A hand no other value on these pages writes as ``[6, 6, 6, 6, 6]``."""


def refusal(text: str) -> str:
    return html.unescape(text)


def api(client: TestClient, link: str, name: str, body: dict[str, object]) -> tuple[int, str]:
    answer = client.post(f"{link}/api/{name}", json=body, headers=HEADERS)
    return answer.status_code, answer.text


def test_masked_errors_keep_their_kind_and_say_only_not_valid() -> None:
    error = InputError("{side} cannot keep {kept}", secret_in=("ybs.gang_throw",), side="x", kept=1)
    masked = error.masked()
    assert type(masked) is InputError and str(masked) == NOT_VALID
    assert type(RuleError("x", secret_in=("k",)).masked()) is RuleError


def test_a_blind_gang_hand_is_in_no_refusal(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    assert act(client, gm, "gang-start", fighters="Aki", opponents="Thug")[0] == 200
    code, text = act(client, gm, "gang-throw", faces=HAND, faces_gm=HAND, visibility="gm")
    assert code == 200, text
    texts = []
    for keep in ("1", "2,2", "6", "6,6,6,6,6,6", "advised"):
        code, text = act(client, a, "gang-throw", keep=keep, faces="1")
        assert code in (403, 422), text
        texts.append(refusal(text))
        code, text = api(client, a, "gang-throw", {"fighter": "Aki", "keep": keep, "faces": "1"})
        assert code in (403, 422), text
        texts.append(refusal(text))
        texts.append(refusal(client.get(f"{a}/odds/gang-throw", params={"keep": keep}).text))
    for text in texts:
        assert "6, 6" not in text and "6 6" not in text, text
    assert len({t.split("\n")[0] for t in texts[::3]}) == 1  # every keep reads the same
    # the game master reads the whole message
    code, text = act(client, gm, "gang-throw", keep="1", faces="1", faces_gm="1")
    assert code == 422 and "[6, 6, 6, 6, 6]" in refusal(text)


def test_an_earlier_hidden_throw_masks_the_hand_in_a_refusal(
    client: TestClient, store: SqliteStore
) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    assert act(client, gm, "gang-start", fighters="Aki", opponents="Thug")[0] == 200
    code, text = act(client, gm, "gang-throw", faces="1,1,2,2,6", faces_gm="1,1,2,2,6",
                     visibility="gm")  # fmt: skip
    assert code == 200, text
    code, text = act(client, gm, "gang-throw", keep="none", faces="1,1,2,2,6",
                     gm_keep="none", faces_gm="1,1,2,2,6", visibility="all")  # fmt: skip
    assert code == 200, text
    # A may throw next (the last throw is shown), but a refusal never shows a hand while a
    # throw of this table is hidden from A
    code, text = act(client, a, "gang-throw", keep="3", faces="1,1,1,1")
    assert code == 422 and refusal(text).startswith(f'<p class="error" role="alert">{NOT_VALID}')
    status, body = api(client, a, "gang-throw", {"fighter": "Aki", "keep": "3", "faces": "1"})
    assert status == 422 and NOT_VALID in body and "[1, 1, 2, 2, 6]" not in body


def test_a_players_own_secret_throw_is_theirs(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a, b = links.gm, links.players["A"], links.players["B"]
    assert act(client, gm, "gang-start", fighters="Aki\nBo", opponents="Thug")[0] == 200
    assert act(client, gm, "gang-throw", side="gm", faces_gm="2,2,3,5,5")[0] == 200
    code, text = act(client, a, "gang-throw", faces="1,1,5,5,6", visibility="roller_and_gm")
    assert code == 200, text  # the players' side completes the throw, in secret
    event = TableService(store).state("club").events[-1]
    assert (event.kind, event.actor, event.visibility) == ("ybs.gang_throw", "A", "roller_and_gm")
    assert "1 1 5 5 6" in client.get(a).text  # the thrower sees it
    assert "1 1 5 5 6" not in client.get(b).text  # the other player does not
    code, text = act(client, a, "gang-throw", keep="2", faces="1")
    assert code == 422 and "[1, 1, 5, 5, 6]" in refusal(text)  # A may see every hand
    code, text = act(client, b, "gang-throw", keep="2", faces="1")
    assert code == 403 and "1, 1" not in refusal(text)
    code, text = act(client, a, "gang-throw", keep="1,5,5,6", faces="2")
    assert code == 200, text  # A carries on from their own secret throw


def test_a_blind_nintai_gate_is_in_no_refusal(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    code, text = act(client, gm, "test", character="Aki", trait="nintai", purpose="gate",
                     faces="1", visibility="gm")  # fmt: skip
    assert code == 200, text
    attack = {"character": "Aki", "trait": "choushi", "purpose": "attack", "target": "Thug",
              "armed": "on", "faces": "5"}  # fmt: skip
    code, text = act(client, a, "test", **attack)
    assert code == 409, text
    assert "failed" not in refusal(text) and NOT_VALID in refusal(text)
    body = {**attack, "armed": True, "faces": [5]}
    status, answer = api(client, a, "test", body)
    assert status == 409 and "failed" not in answer and NOT_VALID in answer
    code, text = act(client, gm, "test", **attack)
    assert code == 409 and "failed the Nintai gate" in refusal(text)


def test_a_blind_tests_die_is_in_no_follow_up_refusal(
    client: TestClient, store: SqliteStore
) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    code, text = act(client, gm, "test", character="Aki", trait="chisei", faces="3",
                     visibility="gm")  # fmt: skip
    assert code == 200, text
    for action, data in (("stubborn", {"faces": "4"}), ("critical", {})):
        code, text = act(client, a, action, **data)
        assert code == 403 and not any(d in refusal(text) for d in "3"), text
        status, answer = api(client, a, action, {"faces": [4]} if data else {})
        assert status == 403 and "3" not in answer.replace("403", ""), answer


def test_an_encounters_secret_choices_are_in_no_refusal(
    client: TestClient, store: SqliteStore
) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    code, text = act(client, gm, "ichika", choices="A=gang_fight\nB=flee", opponents="Thug",
                     visibility="gm")  # fmt: skip
    assert code == 200, text
    code, text = act(client, a, "gang-throw", faces="1,2,3,3,3")
    assert code == 403 and "flee" not in refusal(text) and "gang_fight" not in refusal(text)
    code, text = act(client, a, "ichika", choices="A=flee")
    assert code == 403 and "flee" not in refusal(text).replace("A=flee", "")


def test_the_agents_objective_is_in_no_answer(client: TestClient, store: SqliteStore) -> None:
    links = team(client, store)
    ana = links.players["Ana"]
    status, answer = api(client, ana, "quest", {"starter": "en", "faces": "3"})
    assert status == 200, answer
    objective = TableService(store).state("ops").game.quest.objective.text
    doc = json.loads(answer)
    (event,) = doc["report"]["events"]
    quest = event["payload"]
    assert event["kind"] == "agents.quest_drawn"
    assert quest["objective"] is None and quest["face"] is None  # its tables list every entry
    assert objective not in " ".join(doc["lines"])
    status, answer = api(client, ana, "draw", {"kind": "objectives", "faces": "3"})
    assert status in (409, 422) and objective.split(",")[0] not in answer
    code, text = act(client, ana, "draw", kind="objectives", faces="3")
    assert code in (409, 422) and objective.split(",")[0] not in refusal(text)
    assert objective.split(",")[0] not in client.get(ana).text
