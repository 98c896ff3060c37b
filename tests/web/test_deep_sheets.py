"""A pasted sheet nested thousands of levels deep is refused (422 with a message), not a 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import csrf_for, make_table

DEPTH = 5000
DEEP = {
    "json": '[{"name": ' + "[" * DEPTH + "]" * DEPTH + "}]",
    "toml": "name = " + "[" * DEPTH + "]" * DEPTH + "\n",
}


@pytest.mark.parametrize("kind", ["json", "toml"])
@pytest.mark.parametrize(
    ("game", "action", "field", "players"),
    [
        ("shs", "protagoniste-import", "file", ("Ripley", "Ash")),
        ("ybs", "character-import", "sheets", ("A", "B")),
    ],
)
def test_a_deeply_nested_pasted_sheet_is_refused(
    client: TestClient,
    store: SqliteStore,
    kind: str,
    game: str,
    action: str,
    field: str,
    players: tuple[str, ...],
) -> None:
    links = make_table(store, system=game, name="deep", players=players)
    before = len(TableService(store).state("deep").events)
    form = {"csrf": csrf_for(client, store, links.gm), field: DEEP[kind]}
    if game == "shs":
        form["format"] = kind
    response = client.post(f"{links.gm}/act/{action}", data=form)
    assert response.status_code == 422, response.text[:300]
    assert "nested too deeply" in response.text
    assert len(TableService(store).state("deep").events) == before
