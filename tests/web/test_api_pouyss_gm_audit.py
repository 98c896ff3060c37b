"""The game master's audit of Pouyss through the JSON API: the opposed roll's obligations,
the correction of the cagnotte, who may send them.

Source: seed 000; rulings P-M6, P-M8; Tablée's P-X1, P-X2.
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from tablee.table.sqlite_store import SqliteStore
from tests.web.test_api import api, started


def test_the_game_master_imposes_dice_on_an_opposed_roll_a_player_may_not(
    client: TestClient, store: SqliteStore
) -> None:
    links = started(client, store)
    ana = links.players["Ana"]
    body = {"active": "Ana", "passive_npc": "Le Rôdeur", "imposed_bonus": 1, "faces": [2, 5]}
    assert api(client, ana, "opposed", body)[0] == 403
    status, doc = api(client, links.gm, "opposed", {**body, "reasons": ["fog"]})
    assert status == 200, doc
    report = doc["report"]
    assert (report["imposed_bonus"], report["reasons"], report["value"]) == (1, ["fog"], 5)
    assert report["cagnotte"] == {"before": 2, "drawn": 1, "deposited": 0, "after": 1}
    assert "(imposed: 1 bonus; because: fog)" in doc["lines"][0]


def test_only_the_game_master_corrects_the_cagnotte(client: TestClient, store: SqliteStore) -> None:
    links = started(client, store)
    body = {"value": 5, "reason": "paper tally"}
    assert api(client, links.players["Ana"], "cagnotte-correct", body)[0] == 403
    status, doc = api(client, links.gm, "cagnotte-correct", body)
    assert status == 200, doc
    assert doc["report"]["cagnotte"] == {"before": 2, "drawn": 0, "deposited": 3, "after": 5}
    assert "paper tally" in doc["lines"][0]
    assert api(client, links.gm, "cagnotte-correct", {"value": 4})[0] == 422
