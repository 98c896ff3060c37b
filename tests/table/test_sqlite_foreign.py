"""Another program's SQLite file is refused before anything is written to it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tablee.errors import StorageError
from tablee.table.sqlite_store import SqliteStore


def _foreign(path: Path, mode: str) -> None:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute(f"PRAGMA journal_mode={mode}").fetchone()[0] == mode.lower()
        conn.execute("CREATE TABLE notes (text TEXT)")
        conn.execute("INSERT INTO notes VALUES ('keep me')")
        conn.commit()
    finally:
        conn.close()


def _journal_mode(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA journal_mode").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.parametrize("mode", ["DELETE"])
def test_a_foreign_file_is_refused_and_left_byte_for_byte(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "notes.db"
    _foreign(path, mode)
    before = path.read_bytes()
    with pytest.raises(StorageError, match="not a Tablée database") as caught:
        SqliteStore(path)
    assert "notes" in str(caught.value) and str(path) in str(caught.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]  # no -wal, no -shm
    assert _journal_mode(path) == mode.lower()


def test_a_new_file_and_an_empty_one_still_become_tablee_databases(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    for path in (tmp_path / "new.db", empty):
        SqliteStore(path).close()
        assert _journal_mode(path) == "wal"


def test_a_tablee_connection_is_wal_with_normal_sync(tmp_path: Path) -> None:
    """WAL, synchronous=NORMAL (1), a busy timeout and foreign keys on every connection."""
    from tablee.table.sqlite_store import BUSY_TIMEOUT_MS, configure_connection

    conn = sqlite3.connect(tmp_path / "t.sqlite3", isolation_level=None)
    try:
        configure_connection(conn)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == BUSY_TIMEOUT_MS
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    finally:
        conn.close()
