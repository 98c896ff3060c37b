"""What the golden playthroughs share: a steady clock and the comparison with the files."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

from tablee.table.chain import SECRET_PREFERENCE
from tablee.table.sqlite_store import SqliteStore

GOLDEN_SECRET = "60" * 32
"""The installation secret of the golden databases, so that their chains are the same."""


def ticking(start: datetime, step: timedelta) -> Iterator[datetime]:
    """``start``, then every ``step`` after it, for ever (the service's clock)."""
    moment = start
    while True:
        yield moment
        moment += step


def check_golden(path: Path, text: str) -> None:
    """``text`` equals the golden file ``path`` (written instead with TABLEE_UPDATE_GOLDEN=1)."""
    if os.environ.get("TABLEE_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with TABLEE_UPDATE_GOLDEN=1 once"
    assert text == path.read_text(encoding="utf-8")


def golden_store(path: Path) -> SqliteStore:
    """A new store whose installation secret is `GOLDEN_SECRET` (its chains are reproducible)."""
    store = SqliteStore(path)
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.execute(
                "INSERT INTO preferences (key, value) VALUES (?, ?)",
                (SECRET_PREFERENCE, GOLDEN_SECRET),
            )
    finally:
        conn.close()
    return store


def stable_export(text: str, table_id: str) -> str:
    """A JSON Lines export with its table id as ``TABLE-ID`` and its trailer's MAC as ``MAC``.

    The MAC covers the table id, a new random UUID on every run; the chains do not.
    """
    lines = text.replace(table_id, "TABLE-ID").splitlines()
    trailer = json.loads(lines[-1])
    trailer["trailer"]["mac"] = "MAC"
    return "\n".join([*lines[:-1], json.dumps(trailer, ensure_ascii=False)]) + "\n"
