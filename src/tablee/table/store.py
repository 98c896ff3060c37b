"""The event store seam: what every backend offers, and the conflict it signals.

Backends: `tablee.table.sqlite_store.SqliteStore` (standard-library sqlite3, the embedded
default) and `tablee.table.sql_store.SqlAlchemyStore` (SQLAlchemy Core: PostgreSQL, or any
SQLite file). Both use the schema of the Alembic migrations in ``tablee/table/migrations`` and
pass the same contract test suite (``tests/table/test_store_contract.py``).

Source: DESIGN.md "The event log"; issue 2 point 3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from tablee.errors import ConcurrencyError
from tablee.systems.base import Fact
from tablee.table.events import StoredEvent

__all__ = ["AppendConflict", "EventStore", "TableInfo"]


class AppendConflict(ConcurrencyError):
    """Another writer appended to the table since its state was read; reload and retry."""


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
        later: Sequence[tuple[Fact, datetime]] = (),
    ) -> StoredEvent:
        """Register a table and store its ``table.created`` fact as seq 1, atomically.

        ``later`` facts (an imported log, each with its own time) are stored as seq 2, 3...
        in the same transaction: all or nothing.

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
        self, table_id: str, expected_last_seq: int, facts: Sequence[Fact], now: datetime
    ) -> list[StoredEvent]:
        """Append facts as ``expected_last_seq + 1, + 2, ...`` in one transaction.

        Raises:
            AppendConflict: the log's last seq is no longer ``expected_last_seq``.
            StorageError: the database failed.
        """
        ...

    def get_preference(self, key: str) -> str | None:
        """A stored preference (for instance the table last used), or None."""
        ...

    def set_preference(self, key: str, value: str) -> None:
        """Store a preference."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...
