"""What operators expect: probes, metrics, access logs, and 503 (never 500) for a dead store."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY

from tablee.errors import N_, StorageError
from tablee.table.sqlite_store import SqliteStore
from tablee.web import Settings, create_app
from tablee.web.accesslog import LOGGER, redact_path
from tests.web.conftest import Links, csrf_of, make_table


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def down(*args: object, **kwargs: object) -> None:
    raise StorageError(N_("database {url} failed: {error}"), url="x", error="down")


@pytest.fixture
def table(store: SqliteStore) -> Links:
    return make_table(store)


def test_healthz_and_readyz_answer_while_the_store_answers(
    client: TestClient, table: Links
) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready"}


def test_readyz_is_503_when_the_store_fails_and_healthz_still_200(
    client: TestClient, table: Links, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client.app.state.table.store.store, "get_preference", down)  # type: ignore[attr-defined]
    answer = client.get("/readyz")
    assert answer.status_code == 503 and answer.json() == {"status": "unavailable"}
    assert "down" not in answer.text
    assert client.get("/healthz").status_code == 200


def test_a_failing_store_answers_503_not_500(
    client: TestClient, table: Links, monkeypatch: pytest.MonkeyPatch
) -> None:
    csrf = csrf_of(client, table.gm)
    monkeypatch.setattr(client.app.state.table.store.store, "find_link", down)  # type: ignore[attr-defined]
    page = client.get(table.gm)
    assert page.status_code == 503 and page.headers["retry-after"] == "1"
    assert "Traceback" not in page.text and "down" not in page.text
    monkeypatch.undo()
    monkeypatch.setattr(client.app.state.table.store.store, "append", down)  # type: ignore[attr-defined]
    rolled = client.post(table.gm + "/act/session-start", data={"csrf": csrf})
    assert rolled.status_code == 503


def test_commands_refusals_streams_and_store_time_are_counted(
    client: TestClient, table: Links
) -> None:
    commands = sample("tablee_commands_total", game="pouyss")
    unknown = sample("tablee_refusals_total", kind="not_found")
    loads = sample("tablee_store_seconds_count", op="load")
    appends = sample("tablee_store_seconds_count", op="append")
    csrf = csrf_of(client, table.gm)
    assert client.post(table.gm + "/act/session-start", data={"csrf": csrf}).status_code == 200
    assert client.get("/t/" + "q" * 43).status_code == 404
    assert sample("tablee_commands_total", game="pouyss") == commands + 1
    assert sample("tablee_refusals_total", kind="not_found") == unknown + 1
    assert sample("tablee_store_seconds_count", op="load") > loads
    assert sample("tablee_store_seconds_count", op="append") == appends + 1
    assert sample("tablee_open_streams") == 0


def test_a_refused_roll_is_counted_by_kind(client: TestClient, table: Links) -> None:
    before = sample("tablee_refusals_total", kind="forbidden")
    csrf = csrf_of(client, table.players["Ana"])
    refused = client.post(table.players["Ana"] + "/act/session-start", data={"csrf": csrf})
    assert refused.status_code == 403
    assert sample("tablee_refusals_total", kind="forbidden") == before + 1


@pytest.fixture
def logged(store: SqliteStore) -> Iterator[tuple[TestClient, list[logging.LogRecord]]]:
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep()
    logger = logging.getLogger(LOGGER)
    logger.addHandler(keep)
    app = create_app(store, Settings(rate_limit="1000/second", access_log="json"))
    try:
        with TestClient(app, raise_server_exceptions=False) as c:
            yield c, records
    finally:
        logger.removeHandler(keep)


def test_the_access_log_is_one_json_line_per_request_without_any_token(
    logged: tuple[TestClient, list[logging.LogRecord]], store: SqliteStore
) -> None:
    client, records = logged
    links = make_table(store)
    token = links.gm.removeprefix("/t/")
    csrf = csrf_of(client, links.gm)
    client.post(
        links.gm + "/act/session-start?x=1",
        data={"csrf": csrf, "note": "secret"},
        headers={"HX-Request": "true"},
    )
    client.get("/healthz")
    lines = [json.loads(r.getMessage()) for r in records]
    assert [(x["method"], x["status"]) for x in lines] == [
        ("GET", 200),
        ("POST", 200),
        ("GET", 200),
    ]
    assert lines[1]["path"] == redact_path(links.gm + "/act/session-start")
    assert lines[1]["path"].startswith("/t/~") and lines[2]["path"] == "/healthz"
    assert set(lines[0]) == {"time", "client", "method", "path", "status", "ms", "bytes"}
    assert lines[0]["bytes"] > 1000 and lines[0]["ms"] >= 0
    text = "\n".join(r.getMessage() for r in records)
    assert token not in text and token[:8] not in text
    assert "secret" not in text and csrf not in text and "x=1" not in text


def test_a_redacted_path_names_one_link_the_same_way_each_time() -> None:
    a = redact_path("/t/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/stream")
    assert a == redact_path("/t/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/act/roll").replace(
        "/act/roll", "/stream"
    )
    assert a != redact_path("/t/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBB/stream")
    assert redact_path("/static/app.js") == "/static/app.js"
