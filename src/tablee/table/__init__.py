"""The table: an append-only event log per table, folded into state, on SQLite or PostgreSQL.

Source: docs/architecture.md, "The event log".
"""

from tablee.table.connect import default_database_path, open_store
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState, decide_undo, fold
from tablee.table.service import Applied, Checked, Imported, TableService
from tablee.table.store import AppendConflict, DuplicateCommand, EventStore, TableInfo

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
