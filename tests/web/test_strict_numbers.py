"""Whole numbers typed as text are read alike everywhere: a ``-`` and ASCII digits, nothing else.

Each bad form (``1.0``, ``1_000``, ``+5``, a full-width ``５``, a 5,000-digit number, an empty
face in a list) goes through the command line, a web form, the JSON API and the stream's
``after=``, and each is refused with a message naming the field and the value; nothing is
stored.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tablee.cli.main import main
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import csrf_for, make_table

JSON = {"content-type": "application/json"}
LONG = "9" * 5000
BAD_NUMBERS = ["1.0", "1_000", "+5", "\uff15", LONG]
BAD_FACES = ["4,", "1,,4"]


def _events(store: SqliteStore) -> int:
    return len(TableService(store).state("Zinc").events)


def _started(client: TestClient, store: SqliteStore) -> str:
    links = make_table(store)
    response = client.post(f"{links.gm}/api/session-start", json={}, headers=JSON)
    assert response.status_code == 200
    return links.gm


def _cli(db: Path, *argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["pouyss", "roll", "--player", "Ana", *argv, "--table", "Zinc", "--db", str(db)], out, err
    )
    return code, err.getvalue()


def _shown(value: str) -> str:
    """What a message may quote of ``value``: its start, for a very long one."""
    return value[:9]


@pytest.mark.parametrize("value", BAD_NUMBERS, ids=["point", "underscore", "plus", "wide", "long"])
def test_a_bad_number_is_refused_by_every_interface(
    client: TestClient, store: SqliteStore, db: Path, value: str
) -> None:
    gm = _started(client, store)
    before = _events(store)
    code, err = _cli(db, "--malus", value)
    assert code == 2 and "malus" in err and _shown(value) in err, err
    if value == LONG:
        assert "out of range (0 to" in err and "Exceeds the limit" not in err
    else:
        assert "is not a whole number" in err

    body = {"player": "Ana", "malus": value}
    response = client.post(f"{gm}/api/roll", json=body, headers=JSON)
    assert response.status_code == 422
    message = response.json()["message"]
    assert "malus" in message and _shown(value) in message
    raw = '{"player": "Ana", "malus": ' + (value if value == LONG else json.dumps(value)) + "}"
    response = client.post(f"{gm}/api/roll", content=raw.encode(), headers=JSON)
    assert response.status_code == 422 and "malus" in response.json()["message"]

    form = {"csrf": csrf_for(client, store, gm), "player": "Ana", "malus": value}
    response = client.post(f"{gm}/act/roll", data=form)
    assert response.status_code == 422 and "malus" in response.text

    response = client.get(f"{gm}/stream", params={"after": value})
    assert response.status_code == 400 and "Traceback" not in response.text
    assert "after" in response.text and _shown(value) in response.text
    assert _events(store) == before


@pytest.mark.parametrize("faces", BAD_FACES)
def test_an_empty_face_in_a_list_is_refused_by_every_interface(
    client: TestClient, store: SqliteStore, db: Path, faces: str
) -> None:
    gm = _started(client, store)
    before = _events(store)
    code, err = _cli(db, "--dice", faces)
    assert code == 2 and "the 2nd face is empty" in err, err
    response = client.post(f"{gm}/api/roll", json={"player": "Ana", "faces": faces}, headers=JSON)
    assert response.status_code == 422
    assert "the 2nd face is empty" in response.json()["message"]
    form = {"csrf": csrf_for(client, store, gm), "player": "Ana", "faces": faces}
    response = client.post(f"{gm}/act/roll", data=form)
    assert response.status_code == 422 and "face is empty" in response.text
    assert _events(store) == before


def test_the_refusals_are_in_french(store: SqliteStore, db: Path, client: TestClient) -> None:
    _started(client, store)
    out, err = io.StringIO(), io.StringIO()
    argv = ["--lang", "fr", "pouyss", "roll", "--player", "Ana", "--dice", "4,"]
    code = main([*argv, "--table", "Zinc", "--db", str(db)], out, err)
    assert code == 2 and "la 2e face est vide" in err.getvalue(), err.getvalue()
    code = main(
        [
            "--lang",
            "fr",
            "pouyss",
            "roll",
            "--player",
            "Ana",
            "--malus",
            "+5",
            "--table",
            "Zinc",
            "--db",
            str(db),
        ],
        out,
        err,
    )
    assert code == 2 and "n’est pas un nombre entier" in err.getvalue(), err.getvalue()
