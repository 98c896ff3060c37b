"""The JSON API generated from the declarations, and the same errors as the command line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tablee.cli.main import main
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import make_table

JSON = {"content-type": "application/json"}


def api(client: TestClient, link: str, name: str, body: object) -> tuple[int, dict]:
    response = client.post(f"{link}/api/{name}", json=body, headers=JSON)
    return response.status_code, response.json()


def started(client: TestClient, store: SqliteStore):  # type: ignore[no-untyped-def]
    links = make_table(store)
    assert api(client, links.gm, "session-start", {})[0] == 200
    return links


def test_the_schema_lists_each_command_with_its_fields(
    client: TestClient, store: SqliteStore
) -> None:
    links = make_table(store)
    gm = client.get(links.gm + "/api").json()
    names = [c["name"] for c in gm["commands"]]
    assert {"roll", "opposed", "reward", "session-start", "character-set"} <= set(names)
    roll = next(c for c in gm["commands"] if c["name"] == "roll")
    fields = {f["name"]: f for f in roll["fields"]}
    assert fields["player"]["choices"] == ["Zoé", "Ana"]
    assert fields["bonus"]["kind"] == "int" and fields["bonus"]["low"] == 0
    assert "imposed_bonus" in fields
    player = client.get(links.players["Ana"] + "/api").json()
    player_names = [c["name"] for c in player["commands"]]
    assert "reward" not in player_names and "roll" in player_names
    roll = next(c for c in player["commands"] if c["name"] == "roll")
    assert "imposed_bonus" not in {f["name"] for f in roll["fields"]}


def test_a_roll_through_the_api_is_stored_and_reported(
    client: TestClient, store: SqliteStore
) -> None:
    links = started(client, store)
    status, doc = api(
        client, links.players["Ana"], "roll", {"player": "Ana", "bonus": 1, "faces": [2, 5]}
    )
    assert status == 200, doc
    assert doc["report"]["value"] == 5 and doc["report"]["level"] == "victoire"
    assert doc["report"]["cagnotte"] == {"before": 2, "drawn": 1, "deposited": 0, "after": 1}
    assert "Ana" in doc["lines"][0]


def test_a_player_may_not_act_for_another_nor_use_the_gm_commands(
    client: TestClient, store: SqliteStore
) -> None:
    links = started(client, store)
    ana = links.players["Ana"]
    assert api(client, ana, "roll", {"player": "Zoé", "faces": "3"})[0] == 403
    assert api(client, ana, "reward", {"amount": 1})[0] == 403
    assert api(client, ana, "roll", {"player": "Ana", "imposed_bonus": 1})[0] == 403
    assert api(client, links.spectator, "roll", {"player": "Ana"})[0] == 403


def test_the_api_needs_json(client: TestClient, store: SqliteStore) -> None:
    links = started(client, store)
    response = client.post(links.gm + "/api/reward", data={"amount": "1"})
    assert response.status_code == 403


BAD = [
    ["--player", "Ana", "--bonus", "-1"],
    ["--player", "Ana", "--malus", "x"],
    ["--player", "Ana", "--malus", "150"],
    ["--player", "Nobody"],
    ["--player", "Ana", "--bonus", "9"],
    ["--player", "Ana", "--dice", "7"],
    ["--player", "Ana", "--dice", "1,2,3"],
    ["--player", "Ana", "--double-bonus"],
]


def _body(argv: list[str]) -> dict[str, object]:
    body: dict[str, object] = {}
    i = 0
    while i < len(argv):
        key = argv[i].removeprefix("--").replace("-", "_")
        if key == "double_bonus":
            body[key] = True
            i += 1
            continue
        body["faces" if key == "dice" else key] = argv[i + 1]
        i += 2
    return body


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) for a in BAD])
def test_the_same_bad_input_gives_the_same_error_on_the_cli_and_over_http(
    client: TestClient, store: SqliteStore, db: Path, argv: list[str]
) -> None:
    links = started(client, store)
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["pouyss", "roll", *argv, "--table", links.name, "--db", str(db), "--json"], out, err
    )
    import json

    cli = json.loads(err.getvalue())
    status, doc = api(client, links.gm, "roll", _body(argv))
    assert status in (409, 422)
    assert (doc["error"], doc["message"], doc["exit_code"]) == (
        cli["error"],
        cli["message"],
        code,
    )


def test_a_retried_post_with_the_same_idempotency_key_records_one_event(
    client: TestClient, store: SqliteStore
) -> None:
    links = started(client, store)
    ana = links.players["Ana"]
    body = {"player": "Ana", "faces": "4"}
    headers = {**JSON, "Idempotency-Key": "tap-1"}
    first = client.post(f"{ana}/api/roll", json=body, headers=headers).json()
    again = client.post(f"{ana}/api/roll", json=body, headers=headers).json()
    assert first["replayed"] is False and again["replayed"] is True
    assert again["events"] == first["events"] and again["lines"] == first["lines"]
    table = store.find_table("Zinc")
    assert [e.kind for e in store.load(table.id)].count("pouyss.roll") == 1
    other = client.post(f"{links.gm}/api/reward", json={"amount": 1}, headers=headers).json()
    assert other["replayed"] is False, "a key sent by another link is another command"
    response = client.post(
        f"{ana}/api/roll", json=body, headers={**JSON, "Idempotency-Key": "x" * 200}
    )
    status, doc = response.status_code, response.json()
    assert status == 422 and "is not a command key: 1 to 79" in doc["message"], doc
    assert [e.kind for e in store.load(table.id)].count("pouyss.roll") == 1
