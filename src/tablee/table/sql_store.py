"""The hosted event store: SQLAlchemy Core 2.x on PostgreSQL (psycopg 3), or any SQLite file.

The schema is the Alembic one (`tablee.table.schema` mirrors it); it is created or upgraded
on open. An append reads the table's last seq and inserts the next ones in one transaction;
the primary key ``(table_id, seq)`` turns a lost race into an `IntegrityError`, reported as
`AppendConflict`.

On PostgreSQL every append (and every table creation) also sends ``NOTIFY tablee_events,
'<table_id>:<last seq>'`` (`NOTIFY_CHANNEL`) inside its transaction, so the notification is
delivered only if the events are committed; web servers listening on the channel wake their
streams at once (`tablee.web.listen`). It carries no event: readers still load the events
by sequence number, and a lost notification is caught up by their periodic check. A link
revoked sends ``NOTIFY tablee_links, '<table_id>'`` (`LINKS_CHANNEL`) the same way: the
servers end that link's open streams at once.

On SQLite the driver's own transaction handling is switched off and every transaction
begins with an explicit ``BEGIN``: ``BEGIN IMMEDIATE`` for writes, ``BEGIN DEFERRED`` for
reads (the "begin" event recipe of SQLAlchemy's SQLite dialect documentation), with WAL, a
busy timeout and foreign keys set on every new connection.

Source: docs/architecture.md, "The event log" (store: SQLite by default, PostgreSQL when hosted) and
"Fan-out".
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    create_engine,
    event,
    func,
    inspect,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError
from sqlalchemy.sql.dml import Insert

from tablee.errors import N_, InputError, StorageError
from tablee.systems.base import Fact
from tablee.table import migrate
from tablee.table._rows import (
    EVENT_COLUMNS,
    LINK_COLUMNS,
    EventRow,
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
from tablee.table.schema import SCHEMA_HEAD, events, links, preferences, tables
from tablee.table.sqlite_store import BUSY_TIMEOUT_MS, configure_connection
from tablee.table.store import LINKS_CHANNEL, NOTIFY_CHANNEL, LinkInfo, TableInfo

__all__ = ["LINKS_CHANNEL", "NOTIFY_CHANNEL", "SUPPORTED_DIALECTS", "SqlAlchemyStore", "engine_url"]

SUPPORTED_DIALECTS = ("postgresql", "sqlite")
"""The database kinds this store is tested on."""

_WRITE = "tablee_write"  # execution option: begin SQLite transactions with BEGIN IMMEDIATE


def engine_url(url: str) -> str:
    """The URL SQLAlchemy should use: ``postgresql://`` becomes ``postgresql+psycopg://``.

    Args:
        url: a database URL (``postgresql://user@host:5432/db``, ``sqlite:///PATH``...).

    Returns:
        The URL with the psycopg 3 driver named for PostgreSQL, otherwise unchanged.

    Source: docs/architecture.md, "The event log".
    """
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """Give SQLAlchemy the transactions, and set the pragmas, on a new SQLite connection."""
    dbapi_connection.isolation_level = None
    configure_connection(dbapi_connection)


def _sqlite_begin(connection: Connection) -> None:
    """Begin a SQLite transaction: IMMEDIATE (take the write lock now) for writers."""
    write = connection.get_execution_options().get(_WRITE, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN DEFERRED")


def _parse(url: str) -> URL:
    """The parsed URL of a supported database.

    Raises:
        InputError: not a URL, or a dialect other than PostgreSQL or SQLite.
    """
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise InputError(N_("{url!r} is not a database URL"), url=url) from exc
    if parsed.get_backend_name() not in SUPPORTED_DIALECTS:
        raise InputError(
            N_("unsupported database {url}"),
            tip=N_("use sqlite:///PATH or postgresql://USER@HOST:PORT/NAME"),
            url=parsed.render_as_string(hide_password=True),
        )
    return parsed


def _make_engine(url: str) -> Engine:
    """An engine for ``url``, with the SQLite hooks when it is a SQLite file.

    Raises:
        InputError: an unsupported database, or an in-memory SQLite.
    """
    parsed = _parse(url)
    dialect = parsed.get_backend_name()
    if dialect == "postgresql":
        return create_engine(url)
    if parsed.database in (None, "", ":memory:"):
        raise InputError(
            N_("an in-memory SQLite database cannot hold a table: {url}"),
            tip=N_("give a file path: sqlite:///PATH"),
            url=url,
        )
    Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


class SqlAlchemyStore:
    """An `EventStore` on SQLAlchemy Core: PostgreSQL (psycopg 3) or a SQLite file.

    Args:
        url: ``postgresql://...``, ``postgresql+psycopg://...`` or ``sqlite:///PATH``.

    Raises:
        InputError: the URL names another kind of database.
        StorageError: the database cannot be reached, or holds a schema this Tablée does not
            know (written by a newer version).

    Source: docs/architecture.md, "The event log".
    """

    def __init__(self, url: str) -> None:
        self.url = engine_url(url)
        self._shown_url = _parse(self.url).render_as_string(hide_password=True)
        with self._guard():
            self._engine = _make_engine(self.url)
        self._writer = self._engine.execution_options(**{_WRITE: True})
        self._secret: str | None = None
        try:
            self._ensure_schema()
        except BaseException:
            self._engine.dispose()
            raise

    # -- opening ---------------------------------------------------------------------

    def _schema_version(self) -> str | None:
        """The revision in ``alembic_version``, or None when the table is absent or empty."""
        with self._guard(), self._engine.connect() as conn:
            if not inspect(conn).has_table("alembic_version"):
                return None
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        return None if version is None else str(version)

    def _ensure_schema(self) -> None:
        """Migrate to `SCHEMA_HEAD` when needed, then check the database is at it."""
        if self._schema_version() == SCHEMA_HEAD:
            return
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

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn SQLAlchemy and driver errors into `StorageError` naming the database."""
        try:
            yield
        except (SQLAlchemyError, OSError) as exc:
            raise StorageError(
                N_("database {url} failed: {error}"),
                tip=N_("check the database is reachable and is a Tablée database"),
                url=self._shown_url,
                error=str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
            ) from exc

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
        registry = {"id": table_id, "name": name, "system": system}
        with self._guard():
            try:
                with self._writer.begin() as conn:
                    if conn.execute(select(tables.c.id).where(tables.c.name == name)).first():
                        raise duplicate_name(name)
                    rows = chained(rows, None, self._secret_in(conn))
                    conn.execute(tables.insert(), {**registry, "created_at": format_time(now)})
                    conn.execute(events.insert(), _as_dicts(rows))
                    _notify(conn, table_id, rows[-1][1])
            except IntegrityError as exc:  # the same name created at the same moment
                raise duplicate_name(name) from exc
        return event_from_row(rows[0])

    def tables(self) -> list[TableInfo]:
        """Every table, oldest first (ties by name)."""
        query = select(tables.c.id, tables.c.name, tables.c.system, tables.c.created_at)
        with self._guard(), self._engine.connect() as conn:
            rows = conn.execute(query.order_by(tables.c.created_at, tables.c.name)).all()
        return [table_from_row(row) for row in rows]

    def find_table(self, name: str) -> TableInfo:
        """The table named ``name``.

        Raises:
            NotFoundError: no table has that name.
        """
        query = select(tables.c.id, tables.c.name, tables.c.system, tables.c.created_at)
        with self._guard(), self._engine.connect() as conn:
            row = conn.execute(query.where(tables.c.name == name)).first()
        if row is None:
            raise unknown_table(name)
        return table_from_row(row)

    def load(self, table_id: str, after_seq: int = 0) -> list[StoredEvent]:
        """The table's events with ``seq > after_seq`` in order; empty for an unknown id."""
        query = (
            select(*(events.c[name] for name in EVENT_COLUMNS))
            .where(events.c.table_id == table_id, events.c.seq > after_seq)
            .order_by(events.c.seq)
        )
        with self._guard(), self._engine.connect() as conn:
            rows = conn.execute(query).all()
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
                Two writers racing with the same key: the unique index lets one in, the
                other gets `DuplicateCommand`.

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
        stored: list[StoredEvent] = []
        with self._guard():
            try:
                with self._writer.begin() as conn:
                    last, last_chain = _last_event(conn, table_id)
                    if command_key is not None and _has_key(conn, table_id, command_key):
                        raise duplicate_command(table_id, command_key)
                    if last != expected_last_seq:
                        raise conflict(table_id, expected_last_seq)
                    if rows:
                        rows, stored = chained_events(rows, last_chain, self._secret_in(conn))
                        conn.execute(events.insert(), _as_dicts(rows))
                        _notify(conn, table_id, rows[-1][1])
            except IntegrityError as exc:  # another writer stored the same seq or key first
                if command_key is not None:
                    with self._engine.connect() as conn:
                        if _has_key(conn, table_id, command_key):
                            raise duplicate_command(table_id, command_key) from exc
                raise conflict(table_id, expected_last_seq) from exc
        return stored

    def command_events(self, table_id: str, key: str) -> list[StoredEvent]:
        """The events the command with that key appended, in order; empty if none did.

        Raises:
            InputError: a malformed key.

        Source: docs/architecture.md, "The event log" and "A tamper-evident log".
        """
        check_command_key(key)
        query = select(*(events.c[name] for name in EVENT_COLUMNS)).where(
            events.c.table_id == table_id, events.c.command_key == key
        )
        with self._guard(), self._engine.connect() as conn:
            row = conn.execute(query).first()
        first = None if row is None else event_from_row(row)
        return collect_command(first, key, lambda seq, limit: self._some(table_id, seq, limit))

    def _some(self, table_id: str, after_seq: int, limit: int) -> list[StoredEvent]:
        """Up to ``limit`` events with ``seq > after_seq``, in order."""
        query = (
            select(*(events.c[name] for name in EVENT_COLUMNS))
            .where(events.c.table_id == table_id, events.c.seq > after_seq)
            .order_by(events.c.seq)
            .limit(limit)
        )
        with self._guard(), self._engine.connect() as conn:
            rows = conn.execute(query).all()
        return [event_from_row(row) for row in rows]

    def get_preference(self, key: str) -> str | None:
        """The preference stored under ``key`` (up to 64 characters), or None."""
        query = select(preferences.c.value).where(preferences.c.key == key)
        with self._guard(), self._engine.connect() as conn:
            value = conn.execute(query).scalar()
        return None if value is None else str(value)

    def set_preference(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``, replacing any previous value.

        Raises:
            InputError: the key is the installation secret's (`SECRET_PREFERENCE`).
        """
        if key == SECRET_PREFERENCE:
            raise reserved_preference(key)
        statement = _upsert_preference(self._engine.dialect.name, key, value)
        with self._guard(), self._writer.begin() as conn:
            conn.execute(statement)

    def installation_secret(self) -> str:
        """The installation secret (64 hex digits), made on first need; never show it.

        Source: docs/architecture.md, "The event log" and "A tamper-evident log".
        """
        if self._secret is not None:
            return self._secret
        with self._guard(), self._writer.begin() as conn:
            return self._secret_in(conn)

    def _secret_in(self, conn: Connection) -> str:
        """The secret, read (or made if absent, then read again) inside a transaction.

        Two processes making it at once agree: the second insert does nothing, and both
        read the value that was stored first.
        """
        if self._secret is None:
            query = select(preferences.c.value).where(preferences.c.key == SECRET_PREFERENCE)
            value = conn.execute(query).scalar()
            if value is None:
                conn.execute(_add_if_absent(conn.dialect.name, SECRET_PREFERENCE, new_secret()))
                value = conn.execute(query).scalar()
            self._secret = str(value)
        return self._secret

    def add_link(self, link: LinkInfo) -> None:
        """Store a new access link.

        Raises:
            NotFoundError: no table has ``link.table_id``.
            StorageError: the database failed, or the hash is already stored.

        Source: docs/architecture.md.
        """
        row = dict(zip(LINK_COLUMNS, link_row(link), strict=True))
        with self._guard(), self._writer.begin() as conn:
            found = conn.execute(select(tables.c.id).where(tables.c.id == link.table_id)).first()
            if found is None:
                raise unknown_table_id(link.table_id)
            conn.execute(links.insert(), row)

    def find_link(self, token_hash: str) -> LinkInfo | None:
        """The link with that token hash (revoked or not), or None."""
        query = select(*(links.c[name] for name in LINK_COLUMNS)).where(
            links.c.token_hash == token_hash
        )
        with self._guard(), self._engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else link_from_row(row)

    def links(self, table_id: str) -> list[LinkInfo]:
        """The table's links, oldest first (revoked ones included)."""
        query = (
            select(*(links.c[name] for name in LINK_COLUMNS))
            .where(links.c.table_id == table_id)
            .order_by(links.c.created_at, links.c.token_hash)
        )
        with self._guard(), self._engine.connect() as conn:
            rows = conn.execute(query).all()
        return [link_from_row(row) for row in rows]

    def revoke_link(self, token_hash: str, now: datetime) -> None:
        """Mark a link revoked at ``now`` (a link already revoked keeps its first time)."""
        statement = (
            links.update()
            .where(links.c.token_hash == token_hash, links.c.revoked_at.is_(None))
            .values(revoked_at=format_time(now))
            .returning(links.c.table_id)
        )
        with self._guard(), self._writer.begin() as conn:
            table_id = conn.execute(statement).scalar()
            if table_id is not None and conn.dialect.name == "postgresql":
                conn.execute(select(func.pg_notify(LINKS_CHANNEL, table_id)))

    def close(self) -> None:
        """Close every pooled connection (idempotent)."""
        self._engine.dispose()


def _as_dicts(rows: Sequence[EventRow]) -> list[dict[str, object]]:
    """Event rows as parameter dictionaries for an executemany insert."""
    return [dict(zip(EVENT_COLUMNS, row, strict=True)) for row in rows]


def _notify(conn: Connection, table_id: str, last_seq: int) -> None:
    """On PostgreSQL, tell `NOTIFY_CHANNEL` listeners ``'<table_id>:<last_seq>'`` on commit.

    ``pg_notify`` inside the transaction: a rolled-back transaction sends nothing. Nothing is
    sent on SQLite.

    Source: docs/architecture.md, "Fan-out".
    """
    if conn.dialect.name == "postgresql":
        payload = f"{table_id}:{last_seq}"
        conn.execute(select(func.pg_notify(NOTIFY_CHANNEL, payload)))


def _last_event(conn: Connection, table_id: str) -> tuple[int, str | None]:
    """The table's last seq (0 for a table with no events) and its chain, in a transaction.

    Raises:
        NotFoundError: no table has that id.
    """
    others = events.alias("m")
    last = select(func.max(others.c.seq)).where(others.c.table_id == tables.c.id).correlate(tables)
    query = (
        select(tables.c.id, events.c.seq, events.c.chain)
        .select_from(
            tables.outerjoin(
                events,
                (events.c.table_id == tables.c.id) & (events.c.seq == last.scalar_subquery()),
            )
        )
        .where(tables.c.id == table_id)
    )
    row = conn.execute(query).first()
    if row is None:
        raise unknown_table_id(table_id)
    return int(row[1] or 0), None if row[2] is None else str(row[2])


def _add_if_absent(dialect: str, key: str, value: str) -> Insert:
    """An insert of a preference that does nothing when the key is already stored."""
    if dialect == "postgresql":
        return pg_insert(preferences).values(key=key, value=value).on_conflict_do_nothing()
    return sqlite_insert(preferences).values(key=key, value=value).on_conflict_do_nothing()


def _has_key(conn: Connection, table_id: str, key: str) -> bool:
    """Whether the table holds an event with that ``command_key``."""
    query = select(events.c.seq).where(events.c.table_id == table_id, events.c.command_key == key)
    return conn.execute(query).first() is not None


def _upsert_preference(dialect: str, key: str, value: str) -> Insert:
    """An insert that replaces the value of an existing key (PostgreSQL or SQLite)."""
    if dialect == "postgresql":
        pg = pg_insert(preferences).values(key=key, value=value)
        return pg.on_conflict_do_update(
            index_elements=[preferences.c.key], set_={"value": pg.excluded.value}
        )
    lite = sqlite_insert(preferences).values(key=key, value=value)
    return lite.on_conflict_do_update(
        index_elements=[preferences.c.key], set_={"value": lite.excluded.value}
    )
