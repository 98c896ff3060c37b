"""Tables written by Tablée 0.2.0 keep opening, checking, showing and importing the same.

``tests/fixtures/v0_2_0`` holds what Tablée 0.2.0 wrote for the SHS and YBS golden
playthroughs (see its ``make_fixtures.py``, run once with that version): the SQLite database,
a JSON Lines export per table, and the ``table show --json`` and ``table log --json``
outputs of the time. Their rolled events are of the versions before the odds shown were
recorded; they are upgraded with no odds (None: not recorded), which the verifier does not
compare.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.table.test_fixtures_v0_1_0 import assert_contains, cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "v0_2_0"
TABLES = {"nostromo": "Nostromo", "yuigahama": "Yuigahama"}
ROLLED = {"shs.test", "shs.opposed", "shs.cooperation", "shs.simultaneous", "ybs.test"}
ROLLED |= {"ybs.gang_throw", "ybs.encounter"}


def expected(slug: str, what: str) -> Any:
    return json.loads((FIXTURES / f"{slug}.{what}.json").read_text(encoding="utf-8"))


@pytest.fixture
def old_db(tmp_path: Path) -> str:
    """A copy of the 0.2.0 database (never the original)."""
    copy = tmp_path / "tables.sqlite3"
    shutil.copyfile(FIXTURES / "tables.sqlite3", copy)
    return str(copy)


def test_the_fixtures_hold_rolled_events_without_odds() -> None:
    for slug in TABLES:
        rows = [json.loads(line) for line in (FIXTURES / f"{slug}.jsonl").read_text().splitlines()]
        rolled = [r for r in rows if r.get("kind") in ROLLED]
        assert rolled and all("odds" not in r["payload"] for r in rolled), slug
        assert {r["schema_version"] for r in rolled} == {1}, slug


@pytest.mark.parametrize("slug", sorted(TABLES))
def test_the_0_2_0_database_checks_out(old_db: str, slug: str) -> None:
    checked = cli(old_db, "--table", TABLES[slug], "table", "check")
    assert checked == {
        "table": TABLES[slug],
        "events": expected(slug, "show")["last_seq"],
        "chain": "verified",
        "rules": "ok",
    }


@pytest.mark.parametrize("slug", sorted(TABLES))
def test_the_0_2_0_database_shows_and_logs_the_same(old_db: str, slug: str) -> None:
    assert_contains(cli(old_db, "--table", TABLES[slug], "table", "show"), expected(slug, "show"))
    log = cli(old_db, "--table", TABLES[slug], "table", "log")
    assert_contains(log, expected(slug, "log"))


@pytest.mark.parametrize("slug", sorted(TABLES))
def test_each_0_2_0_export_imports_and_checks(tmp_path: Path, slug: str) -> None:
    db = str(tmp_path / "fresh.sqlite3")
    imported = cli(db, "table", "import", str(FIXTURES / f"{slug}.jsonl"), "--name", "copie")
    assert imported["name"] == "copie" and imported["verified"] is False  # another secret
    assert cli(db, "--table", "copie", "table", "check")["rules"] == "ok"
    shown = cli(db, "--table", "copie", "table", "show")
    want = {k: v for k, v in expected(slug, "show").items() if k not in ("name", "id")}
    assert_contains({k: v for k, v in shown.items() if k not in ("name", "id")}, want)


ROLLS = {
    "nostromo": ["shs", "test", "--protagoniste", "Jake", "--characteristic", "science"],
    "yuigahama": ["ybs", "test", "Hiro", "--trait", "chisei"],
}
"""A rolled command for each table, once its 0.2.0 events are read."""


@pytest.mark.parametrize("slug", sorted(TABLES))
def test_a_roll_after_the_0_2_0_events_records_its_odds(old_db: str, slug: str) -> None:
    extra = ["--difficulty", "1"] if slug == "nostromo" else []
    cli(old_db, "--table", TABLES[slug], *ROLLS[slug], *extra, "--seed", "3")
    log = cli(old_db, "--table", TABLES[slug], "table", "log")
    assert log[-1]["schema_version"] == 2 and log[-1]["payload"]["odds"]["success"]
    assert cli(old_db, "--table", TABLES[slug], "table", "check")["rules"] == "ok"
