"""The event store schema as SQLAlchemy Core tables, and the Alembic revision it matches.

The Alembic migrations in ``tablee/table/migrations`` create these tables with explicit
``op.create_table`` calls (they never import this module, so an old migration keeps its
meaning when the tables here change); a test checks that `SCHEMA_HEAD` is Alembic's head.

Times are ISO-8601 UTC text with a ``+00:00`` offset and payloads are JSON text, so every
backend stores the same text.

Source: docs/architecture.md, "The event log".
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)

from tablee.table._rows import SCHEMA_HEAD

__all__ = ["SCHEMA_HEAD", "events", "links", "metadata", "preferences", "tables"]

metadata = MetaData()
"""The four tables of the store (the ``alembic_version`` table is Alembic's own)."""

tables = Table(
    "tables",
    metadata,
    Column("id", String(36), nullable=False),
    Column("name", String(200), nullable=False),
    Column("system", String(32), nullable=False),
    Column("created_at", String(40), nullable=False),
    PrimaryKeyConstraint("id", name="pk_tables"),
    UniqueConstraint("name", name="uq_tables_name"),
)
"""The table registry: one row per table, its name unique."""

events = Table(
    "events",
    metadata,
    Column("table_id", String(36), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(64), nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("actor", String(200), nullable=True),
    Column("visibility", String(16), nullable=False),
    Column("payload", Text, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("rules_version", Text, nullable=True),
    Column("command_key", Text, nullable=True),
    Column("chain", Text, nullable=True),
    ForeignKeyConstraint(["table_id"], ["tables.id"], name="fk_events_table_id"),
    PrimaryKeyConstraint("table_id", "seq", name="pk_events"),
    Index(
        "uq_events_command_key",
        "table_id",
        "command_key",
        unique=True,
        sqlite_where=text("command_key IS NOT NULL"),
        postgresql_where=text("command_key IS NOT NULL"),
    ),
)
"""The append-only log; the primary key ``(table_id, seq)`` stops two writers taking a seq,
and the partial unique index ``(table_id, command_key)`` two writers storing one command."""

preferences = Table(
    "preferences",
    metadata,
    Column("key", String(64), nullable=False),
    Column("value", Text, nullable=False),
    PrimaryKeyConstraint("key", name="pk_preferences"),
)
"""A small key-value store (the table last used...)."""

links = Table(
    "links",
    metadata,
    Column("token_hash", String(64), nullable=False),
    Column("table_id", String(36), nullable=False),
    Column("prefix", String(16), nullable=False),
    Column("role", String(16), nullable=False),
    Column("player", String(200), nullable=True),
    Column("created_at", String(40), nullable=False),
    Column("revoked_at", String(40), nullable=True),
    ForeignKeyConstraint(["table_id"], ["tables.id"], name="fk_links_table_id"),
    PrimaryKeyConstraint("token_hash", name="pk_links"),
    Index("ix_links_table_id", "table_id"),
)
"""The web table's access links: the SHA-256 of each token (never the token), its role."""
