"""The embedded event store: one SQLite file, through the standard-library ``sqlite3``.

This is the CLI's fast path: a roll must take under 150 ms as a whole process and importing
SQLAlchemy alone costs about 0.4 s, so this module imports neither SQLAlchemy nor Alembic.
Alembic runs (lazily imported) only when the file is new or its schema is older than
`SCHEMA_HEAD`.

The connection is in manual-transaction mode (``isolation_level=None``) with WAL, a busy
timeout of 10 s and foreign keys on. It may be used from any thread, one at a time (the web
table runs its requests in worker threads and serialises its use of the store). Every
read-then-write runs in ``BEGIN IMMEDIATE``: a deferred transaction that later wants to write
fails at once with "database is locked".

Source: docs/architecture.md, "The event log" (SQLite: WAL, busy timeout, BEGIN
IMMEDIATE).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from tablee.errors import N_, StorageError
from tablee.systems.base import Fact
from tablee.table._rows import (
    EVENT_COLUMNS,
    LINK_COLUMNS,
    SCHEMA_HEAD,
    LaterFact,
    chained,
    chained_events,
    collect_command,
    conflict,
    duplicate_command,
    duplicate_name,
    event_from_row,
    fact_rows,
    format_time,
    link_from_row,
    link_row,
    log_rows,
    reserved_preference,
    table_from_row,
    unknown_table,
    unknown_table_id,
)
from tablee.table.chain import SECRET_PREFERENCE, new_secret
from tablee.table.events import StoredEvent, check_command_key
from tablee.table.store import TableInfo

if TYPE_CHECKING:
    from tablee.table.links import LinkInfo

__all__ = ["BUSY_TIMEOUT_MS", "SqliteStore", "configure_connection"]

BUSY_TIMEOUT_MS = 10_000
"""How long a writer waits for another one to finish, in milliseconds."""

_COLUMNS = ", ".join(EVENT_COLUMNS)
_INSERT_EVENT = f"INSERT INTO events ({_COLUMNS}) VALUES ({', '.join('?' * len(EVENT_COLUMNS))})"
_SELECT_EVENTS = f"SELECT {_COLUMNS} FROM events WHERE table_id = ? AND seq > ? ORDER BY seq"
_SELECT_SOME = _SELECT_EVENTS + " LIMIT ?"
_SELECT_KEYED = f"SELECT {_COLUMNS} FROM events WHERE table_id = ? AND command_key = ?"
_HAS_KEY = "SELECT 1 FROM events WHERE table_id = ? AND command_key = ?"
_LAST_EVENT = (
    "SELECT t.id, e.seq, e.chain FROM tables AS t LEFT JOIN events AS e ON e.table_id = t.id"
    " AND e.seq = (SELECT max(m.seq) FROM events AS m WHERE m.table_id = t.id) WHERE t.id = ?"
)
_GET_PREFERENCE = "SELECT value FROM preferences WHERE key = ?"
_ADD_SECRET = "INSERT INTO preferences (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING"
_LINK_COLUMNS = ", ".join(LINK_COLUMNS)
_INSERT_LINK = f"INSERT INTO links ({_LINK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
_UPSERT_PREFERENCE = (
    "INSERT INTO preferences (key, value) VALUES (?, ?)"
    " ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


def configure_connection(conn: sqlite3.Connection) -> None:
    """Set the busy timeout, foreign keys, WAL and ``synchronous=NORMAL`` on a new connection.

    Switching a new file to WAL fails at once with "database is locked" while another
    process does the same (SQLite calls no busy handler there), so that step is retried
    every 10 ms for up to `BUSY_TIMEOUT_MS`.

    ``synchronous=NORMAL`` in WAL mode syncs the log at checkpoints rather than at every
    commit: the database cannot be corrupted, and a program that crashes loses nothing;
    only a power cut or an operating-system crash can take back the last commits. It halves
    a web roll's time on the disk (docs/architecture.md gives the measurement).

    Args:
        conn: a fresh sqlite3 connection (not in a transaction).

    Raises:
        sqlite3.Error: the file is not a database, or stayed locked past the timeout.

    Source: docs/architecture.md, "The event log" (SQLite: WAL, a busy timeout).
    """
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys=ON")
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL").fetchone()
            conn.execute("PRAGMA synchronous=NORMAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(0.01)


def _refuse_foreign(conn: sqlite3.Connection, path: str) -> None:
    """Refuse another program's database before anything is written to it.

    A file holding tables but no ``alembic_version`` table was chosen by mistake: it is left
    exactly as it was (no WAL switch, no schema), and the error names it. Only reads are
    made here, so a file in DELETE or any other journal mode keeps its bytes and its mode.

    Raises:
        StorageError: the file holds other tables and no Tablée schema.
        sqlite3.Error: the file is not a database (turned into `StorageError` by the caller).
    """
    names = sorted(
        str(row[0])
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    )
    if names and "alembic_version" not in names:
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        raise StorageError(
            N_(
                "database {path} holds other tables ({tables}) and no Tablée schema: it is "
                "not a Tablée database, and it was left as it was"
            ),
            tip=N_("open a Tablée database, or a new file"),
            path=path,
            tables=shown,
        )


class SqliteStore:
    """An `EventStore` in one SQLite file, created and migrated on first open.

    Args:
        path: the database file; its folder is created when missing.

    Raises:
        StorageError: the file cannot be opened, is not a SQLite database, or holds a
            schema this Tablée does not know (written by a newer version).

    Source: docs/architecture.md, "The event log".
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)  # a string: pathlib costs ~10 ms to import here
        self._secret: str | None = None
        self._tables: dict[str, TableInfo] = {}  # by name: a table's row never changes
        self._conn = self._connect()
        try:
            self._ensure_schema()
        except BaseException:
            self._conn.close()
            raise

    # -- opening ---------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        """Open the file in manual-transaction mode and set the pragmas."""
        with self._guard():
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            conn = sqlite3.connect(
                self.path,
                isolation_level=None,
                timeout=BUSY_TIMEOUT_MS / 1000,
                check_same_thread=False,
            )
            try:
                _refuse_foreign(conn, self.path)
                configure_connection(conn)
            except BaseException:
                conn.close()
                raise
            return conn

    def _schema_version(self) -> str | None:
        """The revision in ``alembic_version``, or None when the table is absent or empty."""
        with self._guard():
            found = self._conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
            ).fetchone()
            if found is None:
                return None
            row = self._conn.execute("SELECT version_num FROM alembic_version").fetchone()
        return None if row is None else str(row[0])

    def _ensure_schema(self) -> None:
        """Migrate to `SCHEMA_HEAD` when needed, then check the file is at that revision."""
        if self._schema_version() == SCHEMA_HEAD:
            return
        from tablee.table import migrate  # lazy: imports SQLAlchemy and Alembic

        migrate.upgrade("sqlite:///" + self.path)
        version = self._schema_version()
        if version != SCHEMA_HEAD:
            raise StorageError(
                N_("database {path} has schema {version}, expected {head}"),
                tip=N_("if a newer Tablée wrote this database, upgrade Tablée"),
                path=self.path,
                version=version,
                head=SCHEMA_HEAD,
            )

    # -- transactions ----------------------------------------------------------------

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn sqlite3 and file errors into `StorageError` naming the file."""
        try:
            yield
        except (sqlite3.Error, OSError) as exc:
            raise StorageError(
                N_("database {path} failed: {error}"),
                tip=N_("check the file exists, is writable and is a Tablée database"),
                path=self.path,
                error=str(exc),
            ) from exc

    @contextmanager
    def _immediate(self) -> Iterator[sqlite3.Connection]:
        """A ``BEGIN IMMEDIATE`` transaction: committed on success, else rolled back."""
        with self._guard():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise

    # -- the EventStore protocol -------------------------------------------------------

    def create_table(
        self,
        table_id: str,
        name: str,
        system: str,
        created: Fact,
        now: datetime,
        later: Sequence[LaterFact] = (),
    ) -> StoredEvent:
        """Register a table and store ``created`` as its seq 1, in one transaction.

        Args:
            table_id: a new UUID string.
            name: unique name, up to 200 characters.
            system: system id (``pouyss``...).
            created: the ``table.created`` fact.
            now: aware time of the command.
            later: further facts with their own times (and optionally the ``command_key``
                value each had), stored as seq 2, 3... in the same transaction (an imported
                log); empty for a new table.

        Returns:
            The stored ``table.created`` event.

        Raises:
            RuleError: a table with that name exists; nothing is stored.
            InputError: ``now`` is naive.
            StorageError: the database failed.

        Source: docs/architecture.md, "The event log".
        """
        rows = log_rows(table_id, created, now, later)
        with self._immediate() as conn:
            if conn.execute("SELECT 1 FROM tables WHERE name = ?", (name,)).fetchone():
                raise duplicate_name(name)
            rows = chained(rows, None, self._secret_in(conn))
            conn.execute(
                "INSERT INTO tables (id, name, system, created_at) VALUES (?, ?, ?, ?)",
                (table_id, name, system, format_time(now)),
            )
            conn.executemany(_INSERT_EVENT, rows)
        return event_from_row(rows[0])

    def tables(self) -> list[TableInfo]:
        """Every table, oldest first (ties by name)."""
        with self._guard():
            rows = self._conn.execute(
                "SELECT id, name, system, created_at FROM tables ORDER BY created_at, name"
            ).fetchall()
        return [table_from_row(row) for row in rows]

    def find_table(self, name: str) -> TableInfo:
        """The table named ``name`` (remembered once found: a table's row never changes).

        Tables are never renamed or deleted, so a row once read stays true (as in
        `tablee.table.pg_store.PgStore.find_table`); a web roll then reads no registry row.

        Raises:
            NotFoundError: no table has that name.
        """
        found = self._tables.get(name)
        if found is not None:
            return found
        with self._guard():
            row = self._conn.execute(
                "SELECT id, name, system, created_at FROM tables WHERE name = ?", (name,)
            ).fetchone()
        if row is None:
            raise unknown_table(name)
        found = self._tables[name] = table_from_row(row)
        return found

    def load(self, table_id: str, after_seq: int = 0) -> list[StoredEvent]:
        """The table's events with ``seq > after_seq`` in order; empty for an unknown id."""
        with self._guard():
            rows = self._conn.execute(_SELECT_EVENTS, (table_id, after_seq)).fetchall()
        return [event_from_row(row) for row in rows]

    def append(
        self,
        table_id: str,
        expected_last_seq: int,
        facts: Sequence[Fact],
        now: datetime,
        *,
        command_key: str | None = None,
    ) -> list[StoredEvent]:
        """Append ``facts`` as ``expected_last_seq + 1, + 2, ...`` in one transaction.

        Args:
            table_id: an existing table's id.
            expected_last_seq: the last seq the caller's state was folded from (1 or more).
            facts: in order; an empty list only checks the expected seq.
            now: aware time of the command, stored on every event.
            command_key: the command's idempotency key (1 to 100 printable ASCII
                characters), or None; stored on every event (see `StoredEvent.command_key`).

        Returns:
            The stored events, each with its chain link (computed in the transaction, after
            the last event's).

        Raises:
            DuplicateCommand: the table already holds ``command_key``; nothing is stored.
            AppendConflict: another writer appended first; nothing is stored.
            NotFoundError: no table has that id.
            InputError: ``now`` is naive, or a malformed key.
            StorageError: the database failed.

        Source: docs/architecture.md, "The event log".
        """
        rows = fact_rows(table_id, expected_last_seq + 1, facts, now, command_key)
        with self._immediate() as conn:
            found = conn.execute(_LAST_EVENT, (table_id,)).fetchone()
            if found is None:
                raise unknown_table_id(table_id)
            if (
                command_key is not None
                and conn.execute(_HAS_KEY, (table_id, command_key)).fetchone()
            ):
                raise duplicate_command(table_id, command_key)
            if (found[1] or 0) != expected_last_seq:
                raise conflict(table_id, expected_last_seq)
            rows, stored = chained_events(rows, found[2], self._secret_in(conn))
            try:
                conn.executemany(_INSERT_EVENT, rows)
            except sqlite3.IntegrityError as exc:
                raise conflict(table_id, expected_last_seq) from exc
        return stored

    def command_events(self, table_id: str, key: str) -> list[StoredEvent]:
        """The events the command with that key appended, in order; empty if none did.

        Raises:
            InputError: a malformed key.

        Source: docs/architecture.md, "The event log" and "A tamper-evident log".
        """
        check_command_key(key)
        with self._guard():
            row = self._conn.execute(_SELECT_KEYED, (table_id, key)).fetchone()
        first = None if row is None else event_from_row(row)
        return collect_command(first, key, lambda seq, limit: self._some(table_id, seq, limit))

    def _some(self, table_id: str, after_seq: int, limit: int) -> list[StoredEvent]:
        """Up to ``limit`` events with ``seq > after_seq``, in order."""
        with self._guard():
            rows = self._conn.execute(_SELECT_SOME, (table_id, after_seq, limit)).fetchall()
        return [event_from_row(row) for row in rows]

    def get_preference(self, key: str) -> str | None:
        """The preference stored under ``key`` (up to 64 characters), or None."""
        with self._guard():
            row = self._conn.execute(_GET_PREFERENCE, (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_preference(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``, replacing any previous value.

        Raises:
            InputError: the key is the installation secret's (`SECRET_PREFERENCE`).
        """
        if key == SECRET_PREFERENCE:
            raise reserved_preference(key)
        with self._immediate() as conn:
            conn.execute(_UPSERT_PREFERENCE, (key, value))

    def installation_secret(self) -> str:
        """The installation secret (64 hex digits), made on first need; never show it.

        Source: docs/architecture.md, "The event log" and "A tamper-evident log".
        """
        if self._secret is not None:
            return self._secret
        with self._guard():
            row = self._conn.execute(_GET_PREFERENCE, (SECRET_PREFERENCE,)).fetchone()
        if row is not None:
            self._secret = str(row[0])
            return self._secret
        with self._immediate() as conn:
            return self._secret_in(conn)

    def _secret_in(self, conn: sqlite3.Connection) -> str:
        """The secret, read (or made if absent, then read again) inside a write transaction.

        Two processes making it at once agree: the second insert does nothing, and both
        read the value that was stored first.
        """
        if self._secret is None:
            row = conn.execute(_GET_PREFERENCE, (SECRET_PREFERENCE,)).fetchone()
            if row is None:
                conn.execute(_ADD_SECRET, (SECRET_PREFERENCE, new_secret()))
                row = conn.execute(_GET_PREFERENCE, (SECRET_PREFERENCE,)).fetchone()
            self._secret = str(row[0])
        return self._secret

    def add_link(self, link: LinkInfo) -> None:
        """Store a new access link.

        Raises:
            NotFoundError: no table has ``link.table_id``.
            StorageError: the database failed, or the hash is already stored.

        Source: docs/architecture.md.
        """
        row = link_row(link)
        with self._immediate() as conn:
            if (
                conn.execute("SELECT 1 FROM tables WHERE id = ?", (link.table_id,)).fetchone()
                is None
            ):
                raise unknown_table_id(link.table_id)
            conn.execute(_INSERT_LINK, row)

    def find_link(self, token_hash: str) -> LinkInfo | None:
        """The link with that token hash (revoked or not), or None."""
        with self._guard():
            row = self._conn.execute(
                f"SELECT {_LINK_COLUMNS} FROM links WHERE token_hash = ?", (token_hash,)
            ).fetchone()
        return None if row is None else link_from_row(row)

    def links(self, table_id: str) -> list[LinkInfo]:
        """The table's links, oldest first (revoked ones included)."""
        with self._guard():
            rows = self._conn.execute(
                f"SELECT {_LINK_COLUMNS} FROM links WHERE table_id = ?"
                " ORDER BY created_at, token_hash",
                (table_id,),
            ).fetchall()
        return [link_from_row(row) for row in rows]

    def revoke_link(self, token_hash: str, now: datetime) -> None:
        """Mark a link revoked at ``now`` (a link already revoked keeps its first time)."""
        stamp = format_time(now)
        with self._immediate() as conn:
            conn.execute(
                "UPDATE links SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                (stamp, token_hash),
            )

    def close(self) -> None:
        """Close the connection (idempotent)."""
        self._conn.close()
