"""The web undo's reason: refused with the field named, never cut short or stored."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import csrf_of, make_table
from tests.web.test_systems import act


@pytest.mark.parametrize(
    ("reason", "status", "said"),
    [
        ("slip \x1b[2J", 422, "reason: the character U+001B is not allowed"),
        ("slip \u202egnol", 422, "reason: the character U+202E is not allowed"),
        ("a" * 501, 422, "reason: at most 500 characters"),  # was cut to 500 and stored
        ("a" * 100_000, 413, "too large"),  # past the body limit, before any form is read
    ],
)
def test_undo_reason_is_checked_and_nothing_is_undone(
    client: TestClient, store: SqliteStore, reason: str, status: int, said: str
) -> None:
    links = make_table(store)
    assert act(client, links.gm, "session-start", cagnotte="3")[0] == 200
    before = TableService(store).state("Zinc")
    token = csrf_of(client, links.gm)
    response = client.post(links.gm + "/undo", data={"csrf": token, "reason": reason})
    assert response.status_code == status, response.text
    assert said in response.text
    after = TableService(store).state("Zinc")
    assert after.last_seq == before.last_seq and not after.voided
    fine = client.post(links.gm + "/undo", data={"csrf": token, "reason": "a" * 500})
    assert fine.status_code == 200
    assert TableService(store).state("Zinc").events[-1].payload["reason"] == "a" * 500
