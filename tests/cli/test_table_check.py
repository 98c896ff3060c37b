"""``tablee table check``, and what ``tablee table import`` says about an export."""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import datetime
from pathlib import Path

from tablee.table.chain import SECRET_PREFERENCE, canonical_bytes, chain_link, chain_text
from tests.cli.conftest import Run


def _db() -> Path:
    return Path(os.environ["TABLEE_DATABASE_URL"])


def _rows(conn: sqlite3.Connection) -> list[tuple[object, ...]]:
    return conn.execute(
        "SELECT seq, kind, schema_version, rules_version, actor, visibility, payload,"
        " created_at, command_key FROM events ORDER BY seq"
    ).fetchall()


def _edit_payload(seq: int, change: dict[str, object], *, relink: bool = False) -> None:
    """Edit one event's payload in the database, as someone with the file could.

    With ``relink``, every chain is computed again with the installation secret (someone who
    also holds the secret): the chain then matches and only the rules can object.
    """
    conn = sqlite3.connect(_db())
    try:
        with conn:
            (text,) = conn.execute("SELECT payload FROM events WHERE seq = ?", (seq,)).fetchone()
            payload = {**json.loads(text), **change}
            conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(payload), seq))
            if relink:
                (secret,) = conn.execute(
                    "SELECT value FROM preferences WHERE key = ?", (SECRET_PREFERENCE,)
                ).fetchone()
                previous = None
                for row in _rows(conn):
                    seq_, kind, version, rules, actor, visibility, body, when, key = row
                    canonical = canonical_bytes(
                        int(str(seq_)),
                        str(kind),
                        int(str(version)),
                        None if rules is None else str(rules),
                        None if actor is None else str(actor),
                        str(visibility),
                        json.loads(str(body)),
                        chain_text(datetime.fromisoformat(str(when))),
                        None if key is None else str(key),
                    )
                    previous = chain_link(str(secret), previous, canonical)
                    conn.execute("UPDATE events SET chain = ? WHERE seq = ?", (previous, seq_))
    finally:
        conn.close()


def test_check_reports_the_events_and_the_chain(table: Run) -> None:
    assert table("pouyss", "roll", "--player", "A", "--bonus", "1", "--dice", "2,5").code == 0
    result = table("table", "check")
    assert result.code == 0, result.err
    assert "3 events checked, hash chain verified" in result.out
    doc = table("table", "check", "--json").json()
    assert doc == {"table": "club", "events": 3, "chain": "verified", "rules": "ok"}
    french = table("table", "check", "--lang", "fr")
    assert "3 événements vérifiés" in french.out


def test_check_names_the_first_event_whose_chain_does_not_match(table: Run) -> None:
    table("pouyss", "roll", "--player", "A", "--bonus", "1", "--dice", "2,5")
    table("pouyss", "reward", "--amount", "1")
    _edit_payload(3, {"reasons": ["forged"]})
    result = table("table", "check")
    assert result.code == 5
    assert "event 3 of table club does not match its hash chain" in result.err
    doc = json.loads(table("table", "check", "--json").err)
    assert doc["exit_code"] == 5 and "event 3" in doc["message"]
    french = table("table", "check", "--lang", "fr")
    assert french.code == 5 and "l'événement 3 de la table club" in french.err


def test_check_decides_every_event_again_with_the_rules(table: Run) -> None:
    table("pouyss", "roll", "--player", "A", "--bonus", "1", "--dice", "2,5")
    _edit_payload(3, {"faces": [2, 6]}, relink=True)  # the stored kept dice no longer match
    assert table("table", "show").code == 0  # the table opens as recorded
    result = table("table", "check")
    assert result.code == 5
    assert "does not hold what its rules give" in result.err and "club" in result.err
    assert "event 3 (pouyss.roll)" in result.err


def test_an_export_of_another_database_imports_unverified(table: Run, tmp_path: Path) -> None:
    export = tmp_path / "club.jsonl"
    assert table("table", "export", "--output", str(export)).code == 0
    assert json.loads(export.read_text(encoding="utf-8").splitlines()[-1])["trailer"]["events"]
    here = table("table", "import", str(export), "--name", "same")
    assert here.code == 0 and here.err == ""  # verified: nothing to say
    elsewhere = table(
        "--db", str(tmp_path / "other.sqlite3"), "table", "import", str(export), "--json"
    )
    assert elsewhere.code == 0, elsewhere.err
    doc = elsewhere.json()
    assert doc["verified"] is False and "another installation" in doc["why"]
    text = table(
        "--db", str(tmp_path / "other.sqlite3"), "table", "import", str(export), "--name", "b"
    )
    assert "Not verified: the export comes from another installation" in text.err


def test_a_cut_export_is_refused_naming_the_last_event(table: Run, tmp_path: Path) -> None:
    export = tmp_path / "club.jsonl"
    table("table", "export", "--output", str(export))
    lines = export.read_text(encoding="utf-8").splitlines()
    export.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    result = table("table", "import", str(export), "--name", "cut")
    assert result.code == 2
    assert "cut short: it stops after event 2" in result.err
