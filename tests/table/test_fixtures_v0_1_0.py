"""Tables written by Tablée 0.1.0 keep opening, showing and importing the same.

``tests/fixtures/v0_1_0`` holds what Tablée 0.1.0 wrote for one session of each game (see
its ``make_fixtures.sh``, run once with that version): the SQLite database, a JSON Lines
export per table, and the ``table show --json`` and ``table log --json`` outputs of the time.
A later Tablée may add keys to those outputs; every key of the fixture must still be there
with the same value.
"""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tablee.cli.main import main
from tablee.table.service import TableService
from tablee.table.sql_store import SqlAlchemyStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "v0_1_0"
TABLES = {
    "londres": "Londres 1888",
    "nostromo": "Nostromo",
    "yuigahama": "Yuigahama",
    "valadyn": "Valadyn",
}
SYSTEMS = {"londres": "pouyss", "nostromo": "shs", "yuigahama": "ybs", "valadyn": "agents"}


def cli(db: str, *argv: str) -> Any:
    """Run ``tablee --db DB --json ARGV...`` in-process; its parsed JSON output."""
    out, err = io.StringIO(), io.StringIO()
    code = main(["--db", db, "--json", "--lang", "en", *argv], out, err)
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


def expected(slug: str, what: str) -> Any:
    return json.loads((FIXTURES / f"{slug}.{what}.json").read_text(encoding="utf-8"))


def assert_contains(actual: Any, fixture: Any, where: str = "") -> None:
    """``actual`` has every key of ``fixture`` (recursively) with the same value.

    Lists must have the same length, item by item; other values must be equal.
    """
    if isinstance(fixture, dict):
        assert isinstance(actual, dict), f"{where}: {actual!r} is not an object"
        for key, value in fixture.items():
            assert key in actual, f"{where}: key {key!r} is gone"
            assert_contains(actual[key], value, f"{where}.{key}")
    elif isinstance(fixture, list):
        assert isinstance(actual, list), f"{where}: {actual!r} is not a list"
        assert len(actual) == len(fixture), f"{where}: {len(actual)} items, not {len(fixture)}"
        for index, (got, want) in enumerate(zip(actual, fixture, strict=True)):
            assert_contains(got, want, f"{where}[{index}]")
    else:
        assert actual == fixture, f"{where}: {actual!r} != {fixture!r}"
        assert type(actual) is type(fixture), f"{where}: {actual!r} changed type"


@pytest.fixture
def old_db(tmp_path: Path) -> str:
    """A copy of the 0.1.0 database (opening it migrates it: never the original)."""
    copy = tmp_path / "tables.sqlite3"
    shutil.copyfile(FIXTURES / "tables.sqlite3", copy)
    return str(copy)


def test_the_fixture_database_is_as_0_1_0_wrote_it() -> None:
    conn = sqlite3.connect(f"file:{FIXTURES / 'tables.sqlite3'}?mode=ro", uri=True)
    try:
        version = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        names = [row[0] for row in conn.execute("SELECT name FROM tables ORDER BY name")]
        columns = [row[1] for row in conn.execute("PRAGMA table_info(events)")]
    finally:
        conn.close()
    assert version == ("0002_links",)
    assert sorted(names) == sorted(TABLES.values())
    assert "chain" not in columns and "rules_version" not in columns


def test_the_helper_sees_a_difference() -> None:
    assert_contains({"a": 1, "b": [1, {"c": 2}], "new": 0}, {"a": 1, "b": [1, {"c": 2}]})
    for actual in ({"a": 2}, {"b": 1}, {"a": [1]}, {"a": True}):
        with pytest.raises(AssertionError):
            assert_contains(actual, {"a": 1})


@pytest.mark.parametrize("slug", sorted(TABLES))
def test_the_old_database_shows_and_logs_the_same(old_db: str, slug: str) -> None:
    name = TABLES[slug]
    assert_contains(cli(old_db, "--table", name, "table", "show"), expected(slug, "show"))
    assert_contains(cli(old_db, "--table", name, "table", "log"), expected(slug, "log"))
    again = cli(old_db, "--table", name, "table", "show")  # once migrated, as well
    assert_contains(again, expected(slug, "show"))


def test_the_old_database_opens_through_sqlalchemy_too(old_db: str) -> None:
    store = SqlAlchemyStore("sqlite:///" + old_db)
    try:
        service = TableService(store)
        for slug, name in TABLES.items():
            state = service.state(name)
            assert state.system.id == SYSTEMS[slug]
            assert state.last_seq == expected(slug, "show")["last_seq"]
            summary = json.loads(json.dumps(state.system.summary(state.game)))
            shown = expected(slug, "show")
            assert_contains(
                {"name": state.name, "id": state.table_id, **summary},
                {
                    k: v
                    for k, v in shown.items()
                    if k not in ("lang", "players", "system", "last_seq")
                },
            )
    finally:
        store.close()


def _without_identity(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in ("name", "id")}


@pytest.mark.parametrize("slug", sorted(TABLES))
def test_the_old_database_checks_out_once_migrated(old_db: str, slug: str) -> None:
    checked = cli(old_db, "--table", TABLES[slug], "table", "check")
    assert checked == {
        "table": TABLES[slug],
        "events": expected(slug, "show")["last_seq"],
        "chain": "verified",
        "rules": "ok",
    }


@pytest.mark.parametrize("slug", sorted(TABLES))
def test_each_export_imports_into_a_fresh_database(tmp_path: Path, slug: str) -> None:
    db = str(tmp_path / "fresh.sqlite3")
    imported = cli(db, "table", "import", str(FIXTURES / f"{slug}.jsonl"), "--name", "copie")
    assert imported["name"] == "copie"
    assert imported["verified"] is False and "no hash chain" in imported["why"]
    shown = cli(db, "--table", "copie", "table", "show")
    assert shown["name"] == "copie" and shown["id"] != expected(slug, "show")["id"]
    assert_contains(_without_identity(shown), _without_identity(expected(slug, "show")))
    log = cli(db, "--table", "copie", "table", "log")
    fixture_log = expected(slug, "log")
    assert len(log) == len(fixture_log)
    for got, want in zip(log, fixture_log, strict=True):
        kept = {k: v for k, v in want.items() if k != "table_id"}
        if want["kind"] == "table.created":
            kept["payload"] = {**want["payload"], "name": "copie"}
        assert_contains(got, kept, f"event {want['seq']}")


@pytest.mark.postgres
def test_the_exports_import_into_postgresql(postgres_url: str) -> None:
    for slug in sorted(TABLES):
        cli(postgres_url, "table", "import", str(FIXTURES / f"{slug}.jsonl"), "--name", slug)
        shown = cli(postgres_url, "--table", slug, "table", "show")
        assert_contains(_without_identity(shown), _without_identity(expected(slug, "show")))


def test_an_old_export_says_plainly_it_is_not_verified(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["--db", str(tmp_path / "x.sqlite3"), "--lang", "fr", "table", "import"]
    assert main([*argv, str(FIXTURES / "londres.jsonl")], out, err) == 0
    assert "Londres 1888" in out.getvalue()
    assert err.getvalue().startswith("Non vérifié")


@pytest.mark.parametrize("slug", sorted(TABLES))
def test_each_export_cut_before_its_undo_imports_and_checks(tmp_path: Path, slug: str) -> None:
    """A 0.1.0 log without undo is not folded as 0.1.0 did: the verifier decides each of its
    events again on import and by ``table check``, with what 0.1.0 did not record (the odds
    shown before a roll) left out of the comparison."""
    lines = (FIXTURES / f"{slug}.jsonl").read_text(encoding="utf-8").splitlines()
    kept = []
    for line in lines:
        if json.loads(line).get("kind") == "table.voided":
            break
        kept.append(line)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(kept) + "\n", encoding="utf-8")
    db = str(tmp_path / "fresh.sqlite3")
    imported = cli(db, "table", "import", str(cut), "--name", "cut")
    assert imported["verified"] is False
    checked = cli(db, "--table", "cut", "table", "check")
    assert checked["rules"] == "ok" and checked["events"] == len(kept)
