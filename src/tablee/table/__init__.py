"""The table: an append-only event log per table, folded into state, on SQLite or PostgreSQL.

Source: docs/architecture.md, "The event log".
"""

from typing import TYPE_CHECKING, Any

from tablee.table.connect import default_database_path, open_store
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState, decide_undo, fold
from tablee.table.service import Applied, TableService
from tablee.table.store import AppendConflict, DuplicateCommand, EventStore, TableInfo

if TYPE_CHECKING:
    from tablee.table.trailer import Checked, Imported

__all__ = [
    "AppendConflict",
    "Applied",
    "Checked",
    "DuplicateCommand",
    "EventStore",
    "Imported",
    "StoredEvent",
    "TableInfo",
    "TableService",
    "TableState",
    "decide_undo",
    "default_database_path",
    "fold",
    "open_store",
]


def __getattr__(name: str) -> Any:
    """`Imported` and `Checked` (`tablee.table.trailer`), imported on first use.

    Raises:
        AttributeError: no such name in the package.
    """
    if name in ("Imported", "Checked"):
        from tablee.table import trailer

        value = getattr(trailer, name)
        globals()[name] = value  # found directly from now on
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
