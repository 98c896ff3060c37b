"""Open the event store the user asked for: the edge where storage settings are read.

Which database, in this order:

1. the ``db`` argument (the CLI's ``--db`` option), when given;
2. else the environment variable ``TABLEE_DATABASE_URL``, when set and not empty;
3. else the file ``tablee.sqlite3`` in the user's data folder (`default_database_path`).

A value containing ``://`` is a URL: ``sqlite:///PATH`` opens `SqliteStore` on ``PATH`` (the
fast path, no SQLAlchemy import), ``postgresql://...`` or ``postgresql+psycopg://...`` opens
`tablee.table.pg_store.PgStore` (psycopg 3 directly). Any other value is a SQLite file
path. Nothing below this module reads the environment.

Source: docs/architecture.md, "The event log" (SQLite by default, a file in the user's
data folder; PostgreSQL when hosted; no storage settings read deep inside the code).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

from tablee.errors import N_, InputError
from tablee.table.sqlite_store import SqliteStore
from tablee.table.store import EventStore

__all__ = ["DATABASE_URL_ENV", "default_database_path", "hide_password", "open_store"]

DATABASE_URL_ENV = "TABLEE_DATABASE_URL"
"""The environment variable naming the database when ``--db`` is not given."""

_POSTGRESQL_PREFIXES = ("postgresql://", "postgresql+psycopg://")


def default_database_path() -> Path:
    """The default SQLite file: ``tablee.sqlite3`` in the user's data folder.

    Returns:
        For instance ``~/.local/share/tablee/tablee.sqlite3`` on Linux (the folder may not
        exist yet; opening the store creates it).

    Source: docs/architecture.md, "The event log".
    """
    import platformdirs  # lazy: only the default path needs it

    return platformdirs.user_data_path("tablee") / "tablee.sqlite3"


def open_store(db: str | None = None) -> EventStore:
    """Open the event store: ``db``, else ``$TABLEE_DATABASE_URL``, else the default file.

    Args:
        db: a URL (``sqlite:///PATH``, ``postgresql://USER@HOST:PORT/NAME``,
            ``postgresql+psycopg://...``) or a SQLite file path; None or empty to fall back
            to the environment variable, then to `default_database_path`.

    Returns:
        An open store, migrated to the current schema; close it when done.

    Raises:
        InputError: a URL of an unsupported kind; a SQLite file given (by ``db`` or the
            environment) whose folder does not exist: a mistyped path makes no folders and
            no empty database. Only the default file's folder is made when missing.
        StorageError: the database cannot be opened or migrated.

    Source: docs/architecture.md, "The event log".
    """
    given = db or os.environ.get(DATABASE_URL_ENV)
    if not given:
        return SqliteStore(default_database_path())  # its folder is made when missing
    value = given
    if "://" not in value:
        return SqliteStore(_existing_folder(value))
    if value.startswith("sqlite:///") and value != "sqlite:///:memory:":
        return SqliteStore(_existing_folder(value.removeprefix("sqlite:///")))
    if value.startswith(_POSTGRESQL_PREFIXES):
        from tablee.table.pg_store import PgStore  # lazy: only a hosted table needs psycopg

        return PgStore(value)
    raise InputError(
        N_("unsupported database {value!r}"),
        tip=N_("use a file path, sqlite:///PATH or postgresql://USER@HOST:PORT/NAME"),
        value=hide_password(value),
    )


def _existing_folder(path: str) -> str:
    """``path``, once the folder that would hold the SQLite file is known to exist.

    Raises:
        InputError: the folder does not exist (the message names the path as given).
    """
    if path == ":memory:":
        return path
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(
            N_("database {path!r}: the folder {folder!r} does not exist"),
            tip=N_("check the path, or create the folder first"),
            path=path,
            folder=folder,
        )
    return path


def hide_password(url: str) -> str:
    """The URL with any ``user:password@`` password replaced by ``***``."""
    scheme, _, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not at or ":" not in credentials:
        return url
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}"
