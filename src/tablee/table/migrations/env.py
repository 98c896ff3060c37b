"""Alembic environment of the Tablée event store, run by `tablee.table.migrate.upgrade`.

The database URL comes from ``config.attributes["url"]`` (or the ``sqlalchemy.url`` main
option). Logging is left alone (no ``fileConfig``): the application owns it.

Concurrent first opens are serialised: the whole upgrade is one transaction that starts with
``BEGIN IMMEDIATE`` on SQLite and takes an advisory lock on PostgreSQL, so a second process
waits, then finds the schema current and does nothing.

Source: docs/architecture.md, "The event log".
"""

from __future__ import annotations

from typing import Any

from alembic import context
from alembic.util.exc import CommandError
from sqlalchemy import Connection, Engine, create_engine, event, inspect, pool, text

MIGRATION_LOCK_KEY = 0x7461626C6565  # "tablee" in ASCII: the advisory lock id


def _url() -> str:
    url = context.config.attributes.get("url") or context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database URL given to the Tablée migrations")
    return str(url)


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # we emit BEGIN ourselves


def _sqlite_begin(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def _engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, poolclass=pool.NullPool)
    engine = create_engine(url, poolclass=pool.NullPool, connect_args={"timeout": 10})
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _refuse_foreign_database(connection: Connection) -> None:
    """Refuse to add Tablée's tables to another program's database.

    Tables without an ``alembic_version`` table mean a file or server chosen by mistake.
    """
    names = sorted(inspect(connection).get_table_names())
    if names and "alembic_version" not in names:
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        raise CommandError(
            f"it holds other tables ({shown}) and no Tablée schema: it is not a Tablée database"
        )


def run_migrations_online() -> None:
    engine = _engine(_url())
    try:
        with engine.connect() as connection, connection.begin():
            if connection.dialect.name == "postgresql":
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY}
                )
            _refuse_foreign_database(connection)
            context.configure(connection=connection)
            context.run_migrations()
    finally:
        engine.dispose()


def run_migrations_offline() -> None:
    context.configure(url=_url(), literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
