"""A rule changed after a table was played: the table still opens as played; the check tells."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tablee.cli.main import main
from tablee.errors import InputError
from tablee.systems.pouyss import actions
from tablee.systems.pouyss.levels import Level
from tablee.table.projection import fold, verify_log
from tablee.table.sqlite_store import SqliteStore


def cli(db: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([*argv, "--db", str(db), "--lang", "en"], out, err)
    return code, out.getvalue(), err.getvalue()


def test_a_table_written_before_a_rule_change_opens_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "t.sqlite3"
    assert cli(db, "table", "new", "pouyss", "--name", "t", "--players", "A")[0] == 0
    assert cli(db, "pouyss", "session", "start")[0] == 0
    assert cli(db, "pouyss", "roll", "--player", "A", "--bonus", "1", "--dice", "6,2")[0] == 0
    code, before, _ = cli(db, "table", "show", "--json")
    assert code == 0

    # A later release reads the rule differently: a 6 is now only a Victoire.
    monkeypatch.setattr(actions, "level_of", lambda value: Level(min(value, 5)))

    code, after, err = cli(db, "table", "show", "--json")
    assert code == 0, err
    assert json.loads(after) == json.loads(before)
    code, log, err = cli(db, "table", "log")
    assert code == 0, err
    assert "Triomphe" in log  # the roll stays as it was decided

    store = SqliteStore(db)
    try:
        state = fold(store.load(store.find_table("t").id))
        with pytest.raises(InputError, match=r"event 3 \(pouyss\.roll\).*level"):
            verify_log(state)  # deciding again under the changed rule differs, and says where
    finally:
        store.close()

    # New rolls follow the new rule; the old one keeps its recorded level.
    assert cli(db, "pouyss", "roll", "--player", "A", "--dice", "6")[0] == 0
    code, log_json, _ = cli(db, "table", "log", "--json")
    levels = [e["payload"].get("level") for e in json.loads(log_json) if e["kind"] == "pouyss.roll"]
    assert levels == ["triomphe", "victoire"]
