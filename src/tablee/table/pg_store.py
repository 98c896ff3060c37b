"""The hosted event store on PostgreSQL: psycopg 3 directly, prepared statements, few trips.

`SqlAlchemyStore` spent about 0.3 ms of the server's CPU per statement in SQLAlchemy and
made up to eight round trips per roll; a web roll cost about 7 ms of CPU on PostgreSQL
against 1.5 ms on SQLite. This store speaks psycopg 3 directly (SQLAlchemy and Alembic
still create and upgrade the schema, on open, when needed):

* every statement is a fixed SQL text, prepared by the server on its first use on each
  connection, then run by name through libpq's own prepared execution (psycopg's
  ``pgconn.exec_prepared``, which lets other threads run while it waits), parameters and
  results as text: about 12 microseconds of CPU per statement, against about 43 through
  psycopg's cursors and their type adaptation, and 300 through SQLAlchemy;
* connections are autocommit and kept in a list of idle ones (a thread takes one, uses it
  for one call, gives it back), so a statement alone is its own transaction;
* an append is one statement, so one round trip: ``INSERT ... SELECT ... FROM unnest(...)``
  of every event, chained by a data-modifying ``WITH`` to ``pg_notify`` (sent on commit
  only, as before). Whether the events follow ``expected_last_seq`` is left to the primary
  key ``(table_id, seq)``: seqs have no gaps, so ``expected_last_seq + 1`` is free exactly
  when no one appended since, given that event ``expected_last_seq`` exists. The chain link
  of that event (which the new ones continue, and which proves it exists) is remembered
  from the events this store last loaded or appended, and read only when not known;
* writers of one table wait for each other in the database: the append takes a
  transaction-level advisory lock on the table (``pg_advisory_xact_lock``) in the same
  statement, before it inserts, so two writers racing on one table queue there (for the
  few microseconds of an insert) instead of both passing their checks and one failing on
  the key;
* the notification of an append carries the rows it stored when they fit in
  `NOTICE_BYTES` (``'<table_id>:<last seq>'``, a line break, the rows as a JSON list): a
  server process holding the table's state extends it by those events (`PgStore.told`)
  instead of reading them back, one round trip less per roll made through another process;
  rows that do not fit are read as before. The database stays the truth: a notification is
  sent on commit only, and whatever does not follow what a process holds is ignored;
* table registry rows never change once made (no rename, no delete), so a table looked up
  by name is remembered by the process.

A refused insert tells why through the constraint it broke: the primary key (another
writer appended first: `AppendConflict`), the unique command key (`DuplicateCommand`), the
table's foreign key (no such table). A call on a pooled connection that the server closed
(a restart, a cut connection) is tried once more on a new connection when it only reads.

Source: docs/architecture.md, "The event log" (store: SQLite by default, PostgreSQL when
hosted), "Fan-out" and "PostgreSQL path".
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar, cast

import psycopg
from psycopg import errors as pg_errors
from psycopg.pq import ConnStatus, ExecStatus, TransactionStatus

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
from tablee.table.connect import hide_password
from tablee.table.events import StoredEvent, check_command_key
from tablee.table.store import LINKS_CHANNEL, NOTIFY_CHANNEL, TableInfo

if TYPE_CHECKING:
    from tablee.table.links import LinkInfo

__all__ = ["LINKS_CHANNEL", "NOTICE_BYTES", "NOTIFY_CHANNEL", "PgStore", "conninfo_of", "notice"]

T = TypeVar("T")

_COLUMNS = ", ".join(EVENT_COLUMNS)
_TYPES = ("text", "int", "text", "int", "text", "text", "text", "text", "text", "text", "text")


def _append_sql(count: int) -> str:
    """The one statement appending ``count`` events: lock the table, insert, notify."""
    row = "(" + ", ".join(f"%s::{kind}" for kind in _TYPES) + ")"
    values = ", ".join([row] * count)
    return (
        "WITH locked AS (SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))),"
        f" stored AS (INSERT INTO events ({_COLUMNS}) SELECT * FROM (VALUES {values}) AS v"
        " WHERE EXISTS (SELECT 1 FROM locked) RETURNING seq)"
        " SELECT count(*), pg_notify(%s, %s) FROM stored"
    )


_APPENDS = {count: _append_sql(count) for count in range(1, 9)}
"""The append statements of 1 to 8 events (more are made when needed)."""
_SELECT_EVENTS = f"SELECT {_COLUMNS} FROM events WHERE table_id = %s AND seq > %s ORDER BY seq"
_SELECT_SOME = _SELECT_EVENTS + " LIMIT %s"
_SELECT_KEYED = f"SELECT {_COLUMNS} FROM events WHERE table_id = %s AND command_key = %s"
_SELECT_KEYED_OR_AFTER = (
    f"SELECT {_COLUMNS} FROM events WHERE table_id = %s AND (command_key = %s OR seq > %s)"
    " ORDER BY seq"
)
_HAS_KEY = "SELECT 1 FROM events WHERE table_id = %s AND command_key = %s"
_CHAIN_AT = "SELECT chain FROM events WHERE table_id = %s AND seq = %s"
_LAST_EVENT = (
    "SELECT t.id, e.seq, e.chain FROM tables AS t LEFT JOIN events AS e ON e.table_id = t.id"
    " AND e.seq = (SELECT max(m.seq) FROM events AS m WHERE m.table_id = t.id) WHERE t.id = %s"
)
_TABLE_COLUMNS = "id, name, system, created_at"
_INSERT_EVENT = f"INSERT INTO events ({_COLUMNS}) VALUES ({', '.join(['%s'] * len(EVENT_COLUMNS))})"
_LOCK_TABLE = "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))"
_NOTIFY = "SELECT pg_notify(%s, %s)"
_GET_PREFERENCE = "SELECT value FROM preferences WHERE key = %s"
_ADD_SECRET = "INSERT INTO preferences (key, value) VALUES (%s, %s) ON CONFLICT (key) DO NOTHING"
_UPSERT_PREFERENCE = (
    "INSERT INTO preferences (key, value) VALUES (%s, %s)"
    " ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)
_LINK_COLUMNS = ", ".join(LINK_COLUMNS)
_INSERT_LINK = f"INSERT INTO links ({_LINK_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)"
NOTICE_BYTES = 7900
"""The longest notification payload sent with its rows (PostgreSQL refuses 8000 bytes and
more); a longer one is sent as ``'<table_id>:<last seq>'`` alone."""


def notice(table_id: str, rows: Sequence[Sequence[object]]) -> str:
    """The payload telling that ``rows`` (ordered as `EVENT_COLUMNS`) were stored.

    ``'<table_id>:<last seq>'``, followed, when the whole fits in `NOTICE_BYTES`, by a line
    break and the rows as a JSON list of lists (ASCII only, so that its length in bytes is
    the same in any server encoding; the values as the database stores their text).
    """
    head = f"{table_id}:{rows[-1][1]}"
    body = json.dumps(
        [[None if v is None else v if isinstance(v, int) else str(v) for v in r] for r in rows],
        ensure_ascii=True,
        separators=(",", ":"),
    )
    return head if len(head) + 1 + len(body) > NOTICE_BYTES else f"{head}\n{body}"


_REVOKE_LINK = (
    "WITH revoked AS (UPDATE links SET revoked_at = %s WHERE token_hash = %s"
    " AND revoked_at IS NULL RETURNING table_id)"
    " SELECT pg_notify(%s, table_id) FROM revoked"
)
_PRIMARY_KEY = "pk_events"
_COMMAND_KEY = "uq_events_command_key"
_TABLE_KEY = "fk_events_table_id"


def conninfo_of(url: str) -> str:
    """The libpq URL of a ``postgresql://`` or ``postgresql+psycopg://`` database URL."""
    return "postgresql://" + url.split("://", 1)[1]


Row = tuple[str | None, ...]
"""A result row: every value as text (None for NULL)."""

_NAMES: dict[str, bytes] = {}
"""The prepared statement name of each SQL text (the same on every connection)."""
_TEXTS: dict[str, bytes] = {}
"""Each SQL text with its ``%s`` turned into libpq's ``$1, $2...``."""


def _named(sql: str) -> bytes:
    """The prepared statement name of ``sql``, registered on first use."""
    name = _NAMES.get(sql)
    if name is None:
        parts = sql.split("%s")
        text = parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], start=1))
        _TEXTS[sql] = text.encode()
        name = _NAMES[sql] = f"tablee_{len(_NAMES)}".encode()
    return name


def _text(value: object) -> bytes | None:
    """A parameter as libpq text (None for NULL)."""
    return None if value is None else str(value).encode()


class _Link:
    """One autocommit connection and the statements prepared on it.

    Args:
        conn: an open psycopg connection (autocommit).
    """

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn
        self.pgconn = conn.pgconn
        self.encoding = conn.info.encoding
        self.prepared: set[bytes] = set()

    def rows(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """Run a statement (prepared on this connection on its first use); its rows.

        Raises:
            psycopg.Error: the server refused it (the subclass of its SQLSTATE), or the
                connection failed (`psycopg.OperationalError`).
        """
        name = _named(sql)
        if name not in self.prepared:
            self._check(self.pgconn.prepare(name, _TEXTS[sql]))
            self.prepared.add(name)
        result = self._check(self.pgconn.exec_prepared(name, cast(Any, [_text(p) for p in params])))
        width, encoding = result.nfields, self.encoding
        found = []
        for r in range(result.ntuples):
            values = (result.get_value(r, c) for c in range(width))
            found.append(tuple(None if v is None else v.decode(encoding) for v in values))
        return found

    def first(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        """The first row of a statement, or None."""
        found = self.rows(sql, params)
        return found[0] if found else None

    def command(self, sql: str) -> None:
        """Run a statement without parameters, unprepared (``BEGIN``, ``COMMIT``...)."""
        self._check(self.pgconn.exec_(sql.encode()))

    def _check(self, result: Any) -> Any:
        """The result, or the error it holds raised."""
        status = result.status
        if status in (ExecStatus.COMMAND_OK, ExecStatus.TUPLES_OK):
            return result
        if self.pgconn.status == ConnStatus.BAD:
            raise psycopg.OperationalError(self.pgconn.get_error_message(self.encoding))
        raise pg_errors.error_from_result(result, encoding=self.encoding)

    @property
    def dead(self) -> bool:
        """Whether the connection is closed or broken."""
        return self.conn.closed or self.pgconn.status == ConnStatus.BAD

    @property
    def idle(self) -> bool:
        """Whether the connection is outside any transaction."""
        return self.pgconn.transaction_status == TransactionStatus.IDLE

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """``BEGIN`` ... ``COMMIT``, or ``ROLLBACK`` when the block raises."""
        self.command("BEGIN")
        try:
            yield
        except BaseException:
            if not self.dead:
                self.command("ROLLBACK")
            raise
        self.command("COMMIT")

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """A savepoint inside a transaction, rolled back to when the block raises."""
        self.command("SAVEPOINT tablee_append")
        try:
            yield
        except BaseException:
            if not self.dead:
                self.command("ROLLBACK TO SAVEPOINT tablee_append")
            raise
        self.command("RELEASE SAVEPOINT tablee_append")

    def close(self) -> None:
        self.conn.close()


class PgStore:
    """An `EventStore` on PostgreSQL through psycopg 3 (see the module docstring).

    Safe to call from several threads at once: each call takes an idle connection (or opens
    one) and gives it back; at most as many connections are open as calls ever ran at once.

    Args:
        url: ``postgresql://USER@HOST:PORT/NAME`` or ``postgresql+psycopg://...``.

    Attributes:
        url: the SQLAlchemy form of the URL (``postgresql+psycopg://...``), as
            `tablee.table.sql_store.SqlAlchemyStore` has it (the listener and ``tablee
            serve --workers`` read it).

    Raises:
        StorageError: the database cannot be reached, or holds a schema this Tablée does not
            know (written by a newer version).

    Source: docs/architecture.md, "The event log" and "PostgreSQL path".
    """

    def __init__(self, url: str) -> None:
        self.conninfo = conninfo_of(url)
        self.url = "postgresql+psycopg://" + self.conninfo.removeprefix("postgresql://")
        self._shown_url = hide_password(self.conninfo)
        self._idle: list[_Link] = []
        self._lock = threading.Lock()
        # per thread: the connection of its `exclusive` block, the events `command_events`
        # read ahead for the next `load`
        self._pinned = threading.local()
        self._closed = False
        self._secret: str | None = None
        self._tables: dict[str, TableInfo] = {}
        self._chains: dict[str, tuple[int, str | None]] = {}
        try:
            self._ensure_schema()
        except BaseException:
            self.close()
            raise

    # -- connections -----------------------------------------------------------------

    def _connect(self) -> _Link:
        return _Link(psycopg.Connection.connect(self.conninfo, autocommit=True, connect_timeout=10))

    @contextmanager
    def _connection(self) -> Iterator[_Link]:
        """An idle connection (or a new one), given back afterwards unless it broke.

        Inside an `exclusive` block, the block's connection (in its transaction).
        """
        pinned: _Link | None = getattr(self._pinned, "link", None)
        if pinned is not None:
            yield pinned
            return
        with self._lock:
            link = self._idle.pop() if self._idle else None
        if link is None:
            link = self._connect()
        try:
            yield link
        finally:
            if link.dead or self._closed:
                link.close()
            else:
                if not link.idle:
                    link.command("ROLLBACK")
                with self._lock:
                    self._idle.append(link)

    def _read(self, work: Callable[[_Link], T]) -> T:
        """Run a read; once more on a new connection when the pooled one was dead.

        Raises:
            StorageError: the database failed (twice, for a dead connection).
        """
        with self._guard():
            try:
                with self._connection() as link:
                    return work(link)
            except psycopg.OperationalError:
                if getattr(self._pinned, "link", None) is not None:
                    raise  # a transaction cannot go on elsewhere
                self._drop_idle()
            with self._connection() as link:
                return work(link)

    def _drop_idle(self) -> None:
        """Close every idle connection (after one was found dead).

        A server restart or a cut network kills them all: the next call opens a new one.
        """
        with self._lock:
            dead, self._idle = self._idle, []
        for conn in dead:
            conn.close()

    @contextmanager
    def exclusive(self, table_id: str) -> Iterator[None]:
        """Hold the table's write lock while the block runs, in one transaction.

        Every call this thread makes on the store inside the block uses one connection, in
        a transaction that first takes the table's advisory lock (the one each append takes
        before it inserts): other writers of the table wait until the block ends, so an
        append made in the block after reading the table cannot lose a race. Committed when
        the block ends (the events become visible, and their notification is sent, then);
        rolled back if it raises.

        `tablee.table.service.TableService.execute` uses it after a command lost a race, so
        a hot table's commands are refused only when the rules refuse them.

        Raises:
            StorageError: the database failed.

        Source: docs/architecture.md, "PostgreSQL path".
        """
        if getattr(self._pinned, "link", None) is not None:
            yield  # already held by this thread
            return
        try:
            with self._guard(), self._connection() as link, link.transaction():
                link.rows(_LOCK_TABLE, (table_id,))
                self._pinned.link = link
                try:
                    yield
                finally:
                    self._pinned.link = None
        except BaseException:
            self._chains.pop(table_id, None)  # what the block appended may not be stored
            raise

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn psycopg and network errors into `StorageError` naming the database."""
        try:
            yield
        except (psycopg.Error, OSError) as exc:
            raise StorageError(
                N_("database {url} failed: {error}"),
                tip=N_("check the database is reachable and is a Tablée database"),
                url=self._shown_url,
                error=str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
            ) from exc

    # -- opening ---------------------------------------------------------------------

    def _schema_version(self) -> str | None:
        """The revision in ``alembic_version``, or None when the table is absent or empty."""

        def read(link: _Link) -> str | None:
            found = link.first("SELECT to_regclass('alembic_version')")
            if found is None or found[0] is None:
                return None
            row = link.first("SELECT version_num FROM alembic_version")
            return None if row is None else str(row[0])

        return self._read(read)

    def _ensure_schema(self) -> None:
        """Migrate to `SCHEMA_HEAD` when needed, then check the database is at it."""
        if self._schema_version() == SCHEMA_HEAD:
            return
        from tablee.table import migrate  # lazy: imports SQLAlchemy and Alembic

        migrate.upgrade(self.url)
        version = self._schema_version()
        if version != SCHEMA_HEAD:
            raise StorageError(
                N_("database {url} has schema {version}, expected {head}"),
                tip=N_("if a newer Tablée wrote this database, upgrade Tablée"),
                url=self._shown_url,
                version=version,
                head=SCHEMA_HEAD,
            )

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
                value each had), stored as seq 2, 3... in the same transaction.

        Returns:
            The stored ``table.created`` event.

        Raises:
            RuleError: a table with that name exists; nothing is stored.
            InputError: ``now`` is naive.
            StorageError: the database failed.

        Source: docs/architecture.md, "The event log".
        """
        rows = log_rows(table_id, created, now, later)
        secret = self.installation_secret()
        rows = chained(rows, None, secret)
        with self._guard(), self._connection() as link:
            try:
                with link.transaction():
                    if link.first("SELECT 1 FROM tables WHERE name = %s", (name,)):
                        raise duplicate_name(name)
                    link.rows(
                        "INSERT INTO tables (id, name, system, created_at) VALUES (%s, %s, %s, %s)",
                        (table_id, name, system, format_time(now)),
                    )
                    for row in rows:
                        link.rows(_INSERT_EVENT, row)
                    link.rows(_NOTIFY, (NOTIFY_CHANNEL, f"{table_id}:{rows[-1][1]}"))
            except pg_errors.UniqueViolation as exc:  # the same name made at the same moment
                raise duplicate_name(name) from exc
        self._chains[table_id] = (rows[-1][1], rows[-1][10])
        return event_from_row(rows[0])

    def tables(self) -> list[TableInfo]:
        """Every table, oldest first (ties by name)."""
        rows = self._read(
            lambda link: link.rows(f"SELECT {_TABLE_COLUMNS} FROM tables ORDER BY created_at, name")
        )
        return [table_from_row(row) for row in rows]

    def find_table(self, name: str) -> TableInfo:
        """The table named ``name`` (remembered once found: a table's row never changes).

        Raises:
            NotFoundError: no table has that name.
        """
        found = self._tables.get(name)
        if found is not None:
            return found
        row = self._read(
            lambda link: link.first(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE name = %s", (name,))
        )
        if row is None:
            raise unknown_table(name)
        found = self._tables[name] = table_from_row(row)
        return found

    def load(self, table_id: str, after_seq: int = 0) -> list[StoredEvent]:
        """The table's events with ``seq > after_seq`` in order; empty for an unknown id.

        Right after `command_events` on the same table in the same thread, from the events
        that call read along with the key (see there) when it read them after the same seq.
        """
        ahead: tuple[str, int, list[Row]] | None = getattr(self._pinned, "ahead", None)
        self._pinned.ahead = None
        if ahead is not None and ahead[0] == table_id and ahead[1] == after_seq:
            rows = ahead[2]
        else:
            rows = self._read(lambda link: link.rows(_SELECT_EVENTS, (table_id, after_seq)))
        self._remember(table_id, rows)
        return [event_from_row(row) for row in rows]

    def told(self, table_id: str, after_seq: int, rows_json: str) -> list[StoredEvent] | None:
        """The events a notification carried, when they follow ``after_seq`` directly.

        Args:
            table_id: the table the notification names.
            after_seq: the last seq the caller holds (1 or more).
            rows_json: what follows the first line of the payload (see `notice`).

        Returns:
            The events, in order, whose seqs run from ``after_seq + 1`` without a gap; their
            last chain link is remembered for the next append, as after `load`. None when
            they do not follow ``after_seq`` (the caller holds them already, or missed some),
            or when the text is not rows of that table: the caller reads the store instead.
        """
        try:
            rows = json.loads(rows_json)
            if not isinstance(rows, list) or not rows:
                return None
            if any(not isinstance(r, list) or len(r) != len(EVENT_COLUMNS) for r in rows):
                return None
            events = [event_from_row(r) for r in rows]
        except (ValueError, TypeError, StorageError):
            return None
        expected = range(after_seq + 1, after_seq + 1 + len(events))
        if [e.seq for e in events] != list(expected) or any(e.table_id != table_id for e in events):
            return None
        self._remember(table_id, rows)
        return events

    def _remember(self, table_id: str, rows: Sequence[Sequence[Any]]) -> None:
        """Keep the seq and chain link of the table's last event among ``rows``."""
        if rows:
            last = rows[-1]
            self._chains[table_id] = (int(last[1]), None if last[10] is None else str(last[10]))

    def append(
        self,
        table_id: str,
        expected_last_seq: int,
        facts: Sequence[Fact],
        now: datetime,
        *,
        command_key: str | None = None,
    ) -> list[StoredEvent]:
        """Append ``facts`` as ``expected_last_seq + 1, + 2, ...`` in one statement.

        Args:
            table_id: an existing table's id.
            expected_last_seq: the last seq the caller's state was folded from (1 or more).
            facts: in order; an empty list only checks the expected seq.
            now: aware time of the command, stored on every event.
            command_key: the command's idempotency key (1 to 100 printable ASCII
                characters), or None; stored on every event (see `StoredEvent.command_key`).

        Returns:
            The stored events, each with its chain link.

        Raises:
            DuplicateCommand: the table already holds ``command_key``; nothing is stored.
            AppendConflict: another writer appended first; nothing is stored.
            NotFoundError: no table has that id.
            InputError: ``now`` is naive, or a malformed key.
            StorageError: the database failed.

        Source: docs/architecture.md, "The event log" and "PostgreSQL path".
        """
        self._pinned.ahead = None
        rows = fact_rows(table_id, expected_last_seq + 1, facts, now, command_key)
        if not rows:
            self._check_last(table_id, expected_last_seq, command_key)
            return []
        previous = self._chain_at(table_id, expected_last_seq, command_key)
        rows, stored = chained_events(rows, previous, self.installation_secret())
        statement = _APPENDS.get(len(rows)) or _append_sql(len(rows))
        params = (table_id, *(value for row in rows for value in row), NOTIFY_CHANNEL)
        params += (notice(table_id, rows),)
        with self._guard(), self._connection() as link:
            try:
                if getattr(self._pinned, "link", None) is link:
                    with link.savepoint():  # the block goes on after a refusal
                        link.rows(statement, params)
                else:
                    link.rows(statement, params)
            except pg_errors.IntegrityError as exc:
                raise self._refused(link, exc, table_id, expected_last_seq, command_key) from exc
        self._chains[table_id] = (rows[-1][1], rows[-1][10])
        return stored

    def _chain_at(self, table_id: str, seq: int, command_key: str | None) -> str | None:
        """The chain link of the table's event ``seq`` (remembered, else read).

        Raises:
            DuplicateCommand, AppendConflict, NotFoundError: no such event (as `_check_last`).
        """
        known = self._chains.get(table_id)
        if known is not None and known[0] == seq:
            return known[1]
        row = self._read(lambda link: link.first(_CHAIN_AT, (table_id, seq)))
        if row is None:
            self._check_last(table_id, seq, command_key)
            raise conflict(table_id, seq)  # the event is gone: not a log this store wrote
        return None if row[0] is None else str(row[0])

    def _check_last(self, table_id: str, expected: int, command_key: str | None) -> None:
        """Check the table's last seq is ``expected`` (and the key is not stored).

        Raises:
            NotFoundError: no table has that id.
            DuplicateCommand: the table holds ``command_key``.
            AppendConflict: the last seq is another.
        """

        def read(link: _Link) -> tuple[Any, bool]:
            found = link.first(_LAST_EVENT, (table_id,))
            keyed = command_key is not None and bool(link.first(_HAS_KEY, (table_id, command_key)))
            return found, keyed

        found, keyed = self._read(read)
        if found is None:
            raise unknown_table_id(table_id)
        if keyed:
            raise duplicate_command(table_id, str(command_key))
        if int(found[1] or 0) != expected:
            raise conflict(table_id, expected)

    def _refused(
        self,
        link: _Link,
        exc: pg_errors.IntegrityError,
        table_id: str,
        expected: int,
        command_key: str | None,
    ) -> Exception:
        """The error for an append the database refused, from the constraint it broke."""
        constraint = exc.diag.constraint_name
        if constraint == _TABLE_KEY:
            return unknown_table_id(table_id)
        if command_key is not None and (
            constraint == _COMMAND_KEY or link.first(_HAS_KEY, (table_id, command_key)) is not None
        ):
            return duplicate_command(table_id, command_key)
        if constraint == _PRIMARY_KEY:
            return conflict(table_id, expected)
        return exc

    def command_events(self, table_id: str, key: str) -> list[StoredEvent]:
        """The events the command with that key appended, in order; empty if none did.

        Raises:
            InputError: a malformed key.

        Source: docs/architecture.md, "The event log" and "A tamper-evident log".
        """
        check_command_key(key)
        self._pinned.ahead = None
        known = self._chains.get(table_id)
        if known is None:
            row = self._read(lambda link: link.first(_SELECT_KEYED, (table_id, key)))
        else:
            # A command looks its key up, then reads the events stored since it last read
            # the table: one statement reads both, and the next `load` of this thread takes
            # the events from here (as if it had read them at this moment).
            rows = self._read(
                lambda link: link.rows(_SELECT_KEYED_OR_AFTER, (table_id, key, known[0]))
            )
            row = next((r for r in rows if r[9] == key), None)
            self._pinned.ahead = (
                table_id,
                known[0],
                [r for r in rows if int(str(r[1])) > known[0]],
            )
        first = None if row is None else event_from_row(row)
        return collect_command(first, key, lambda seq, limit: self._some(table_id, seq, limit))

    def _some(self, table_id: str, after_seq: int, limit: int) -> list[StoredEvent]:
        """Up to ``limit`` events with ``seq > after_seq``, in order."""
        rows = self._read(lambda link: link.rows(_SELECT_SOME, (table_id, after_seq, limit)))
        return [event_from_row(row) for row in rows]

    def get_preference(self, key: str) -> str | None:
        """The preference stored under ``key`` (up to 64 characters), or None."""
        row = self._read(lambda link: link.first(_GET_PREFERENCE, (key,)))
        return None if row is None else str(row[0])

    def set_preference(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``, replacing any previous value.

        Raises:
            InputError: the key is the installation secret's (`SECRET_PREFERENCE`).
        """
        if key == SECRET_PREFERENCE:
            raise reserved_preference(key)
        with self._guard(), self._connection() as link:
            link.rows(_UPSERT_PREFERENCE, (key, value))

    def installation_secret(self) -> str:
        """The installation secret (64 hex digits), made on first need; never show it.

        Two processes making it at once agree: the second insert does nothing, and both
        read the value that was stored first.

        Source: docs/architecture.md, "The event log" and "A tamper-evident log".
        """
        if self._secret is None:

            def read(link: _Link) -> str:
                link.rows(_ADD_SECRET, (SECRET_PREFERENCE, new_secret()))
                row = link.first(_GET_PREFERENCE, (SECRET_PREFERENCE,))
                assert row is not None
                return str(row[0])

            self._secret = self._read(read)
        return self._secret

    def add_link(self, link: LinkInfo) -> None:
        """Store a new access link.

        Raises:
            NotFoundError: no table has ``link.table_id``.
            StorageError: the database failed, or the hash is already stored.

        Source: docs/architecture.md.
        """
        row = link_row(link)
        with self._guard(), self._connection() as db:
            try:
                db.rows(_INSERT_LINK, row)
            except pg_errors.ForeignKeyViolation as exc:
                raise unknown_table_id(link.table_id) from exc

    def find_link(self, token_hash: str) -> LinkInfo | None:
        """The link with that token hash (revoked or not), or None."""
        row = self._read(
            lambda link: link.first(
                f"SELECT {_LINK_COLUMNS} FROM links WHERE token_hash = %s", (token_hash,)
            )
        )
        return None if row is None else link_from_row(row)

    def links(self, table_id: str) -> list[LinkInfo]:
        """The table's links, oldest first (revoked ones included)."""
        rows = self._read(
            lambda link: link.rows(
                f"SELECT {_LINK_COLUMNS} FROM links WHERE table_id = %s"
                " ORDER BY created_at, token_hash",
                (table_id,),
            )
        )
        return [link_from_row(row) for row in rows]

    def revoke_link(self, token_hash: str, now: datetime) -> None:
        """Mark a link revoked at ``now`` (a link already revoked keeps its first time).

        The same statement tells `LINKS_CHANNEL` the link's table on commit, so that every
        server process ends the link's open streams at once.
        """
        with self._guard(), self._connection() as link:
            link.rows(_REVOKE_LINK, (format_time(now), token_hash, LINKS_CHANNEL))

    def close(self) -> None:
        """Close every idle connection; those in use close when given back (idempotent)."""
        self._closed = True
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
