"""Bring a database to the newest schema with Alembic, from Python, printing nothing.

No ``alembic.ini`` is needed: the configuration is built here, pointing at the
``migrations`` folder next to this module. Alembic's logging is not configured (no
``fileConfig``) and its standard output goes to a buffer.

Source: docs/architecture.md, "The event log" (Alembic migrations).
"""

from __future__ import annotations

import io
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from tablee.errors import N_, StorageError

__all__ = ["MIGRATIONS_PATH", "alembic_config", "head_revision", "upgrade"]

MIGRATIONS_PATH = Path(__file__).resolve().parent / "migrations"
"""The Alembic script folder shipped inside the package."""


def alembic_config(url: str | None = None) -> Config:
    """An Alembic configuration for the package's migrations, with no ini file.

    Args:
        url: SQLAlchemy URL of the database (``sqlite:///PATH``,
            ``postgresql+psycopg://...``), or None when no database is needed.

    Returns:
        A `Config` whose output goes to a buffer, the URL in ``attributes["url"]`` (not in
        the ini options, so a ``%`` in a password needs no escaping).

    Source: docs/architecture.md, "The event log".
    """
    config = Config(stdout=io.StringIO())
    config.set_main_option("script_location", str(MIGRATIONS_PATH))
    if url is not None:
        config.attributes["url"] = url
    return config


def head_revision() -> str:
    """The newest revision id of the package's migrations (``0001_initial``...).

    Source: docs/architecture.md, "The event log".
    """
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise StorageError(N_("the migrations folder {path} is empty"), path=MIGRATIONS_PATH)
    return head


def upgrade(url: str) -> None:
    """Run ``alembic upgrade head`` on a database, creating the schema if absent.

    Safe when several processes call it at once: the upgrade runs in one locked
    transaction (see ``migrations/env.py``).

    Args:
        url: SQLAlchemy URL of the database.

    Raises:
        StorageError: the database cannot be reached or migrated, or its revision is
            unknown here (written by a newer Tablée); nothing is changed then.

    Source: docs/architecture.md, "The event log".
    """
    try:
        command.upgrade(alembic_config(url), "head")
    except (CommandError, SQLAlchemyError) as exc:
        raise StorageError(
            N_("cannot bring database {url} to schema {head}: {error}"),
            tip=N_("if a newer Tablée wrote this database, upgrade Tablée"),
            url=_safe(url),
            head=head_revision(),
            error=str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
        ) from exc


def _safe(url: str) -> str:
    """The URL with its password hidden, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url
