"""The event store seam: what every backend offers, and the conflict it signals.

Backends: `tablee.table.sqlite_store.SqliteStore` (standard-library sqlite3, the embedded
default) and `tablee.table.sql_store.SqlAlchemyStore` (SQLAlchemy Core: PostgreSQL, or any
SQLite file). Both use the schema of the Alembic migrations in ``tablee/table/migrations`` and
pass the same contract test suite (``tests/table/test_store_contract.py``).

Source: docs/architecture.md, "The event log".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from tablee.errors import ConcurrencyError
from tablee.systems.base import Fact
from tablee.table.events import StoredEvent

if TYPE_CHECKING:
    from tablee.table.links import LinkInfo

__all__ = [
    "LINKS_CHANNEL",
    "NOTIFY_CHANNEL",
    "AppendConflict",
    "DuplicateCommand",
    "EventStore",
    "LinkInfo",
    "TableInfo",
]

NOTIFY_CHANNEL = "tablee_events"
"""The PostgreSQL channel a store tells, on commit, that it stored a table's events
(``'<table_id>:<last seq>'``, see `tablee.table.pg_store`)."""

LINKS_CHANNEL = "tablee_links"
"""The PostgreSQL channel a store tells, on commit, that it revoked a link of a table
(``'<table_id>'``)."""


class AppendConflict(ConcurrencyError):
    """Another writer appended to the table since its state was read; reload and retry."""


class DuplicateCommand(AppendConflict):
    """The table already holds a command with this key: it was applied, store nothing.

    Raised by `EventStore.append` when the key is found (or when the database's unique index
    on ``(table_id, command_key)`` refused it, another writer having stored it meanwhile);
    `EventStore.command_events` then gives that command's events.
    """


@dataclass(frozen=True)
class TableInfo:
    """A table's registry row.

    Attributes:
        id: UUID string.
        name: unique, human-chosen name.
        system: system id (``pouyss``...).
        created_at: UTC creation time.
    """

    id: str
    name: str
    system: str
    created_at: datetime


class EventStore(Protocol):
    """An append-only log of events per table, plus a small key-value of preferences."""

    def create_table(
        self,
        table_id: str,
        name: str,
        system: str,
        created: Fact,
        now: datetime,
        later: Sequence[tuple[Fact, datetime] | tuple[Fact, datetime, str | None]] = (),
    ) -> StoredEvent:
        """Register a table and store its ``table.created`` fact as seq 1, atomically.

        ``later`` facts (an imported log, each with its own time and optionally the
        ``command_key`` value it had) are stored as seq 2, 3... in the same transaction: all
        or nothing.

        Raises:
            RuleError: a table with that name already exists.
        """
        ...

    def tables(self) -> list[TableInfo]:
        """Every table, oldest first."""
        ...

    def find_table(self, name: str) -> TableInfo:
        """The table with that name.

        Raises:
            NotFoundError: no such table.
        """
        ...

    def load(self, table_id: str, after_seq: int = 0) -> list[StoredEvent]:
        """The table's events with ``seq > after_seq``, in order (as stored, not upcast)."""
        ...

    def append(
        self,
        table_id: str,
        expected_last_seq: int,
        facts: Sequence[Fact],
        now: datetime,
        *,
        command_key: str | None = None,
    ) -> list[StoredEvent]:
        """Append facts as ``expected_last_seq + 1, + 2, ...`` in one transaction.

        With a ``command_key``, every stored event names the command (see
        `StoredEvent.command_key`) and the table can hold that key once only. Each event's
        chain link is computed in the same transaction, after the last stored event's.

        Raises:
            DuplicateCommand: the table already holds ``command_key``; nothing is stored.
            AppendConflict: the log's last seq is no longer ``expected_last_seq``.
            InputError: a malformed key (see `tablee.table.events.check_command_key`).
            StorageError: the database failed.
        """
        ...

    def command_events(self, table_id: str, key: str) -> list[StoredEvent]:
        """The events the command with that key appended, in order; empty if none did.

        Raises:
            InputError: a malformed key.
        """
        ...

    def get_preference(self, key: str) -> str | None:
        """A stored preference (for instance the table last used), or None."""
        ...

    def set_preference(self, key: str, value: str) -> None:
        """Store a preference.

        Raises:
            InputError: the key is the installation secret's
                (`tablee.table.chain.SECRET_PREFERENCE`), which only the store writes.
        """
        ...

    def installation_secret(self) -> str:
        """The installation secret keying the hash chains (64 hex digits); never show it.

        Kept in the database's preferences, so every process sharing the database uses the
        same one; made on first need (insert if absent, then read: two processes agree).
        """
        ...

    def add_link(self, link: LinkInfo) -> None:
        """Store a new access link.

        Raises:
            NotFoundError: no table has ``link.table_id``.
            StorageError: the database failed (or the hash exists: a broken token source).
        """
        ...

    def find_link(self, token_hash: str) -> LinkInfo | None:
        """The link with that token hash (revoked or not), or None."""
        ...

    def links(self, table_id: str) -> list[LinkInfo]:
        """The table's links, oldest first (revoked ones included)."""
        ...

    def revoke_link(self, token_hash: str, now: datetime) -> None:
        """Mark a link revoked at ``now`` (a link already revoked keeps its first time)."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...


def __getattr__(name: str) -> Any:
    """`LinkInfo`, which lives in `tablee.table.links`, imported on first use.

    A command that does not touch the web table's links does not load it.

    Raises:
        AttributeError: no such name.
    """
    if name == "LinkInfo":
        from tablee.table.links import LinkInfo

        globals()[name] = LinkInfo  # found directly from now on
        return LinkInfo
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
