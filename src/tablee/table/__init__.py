"""The table: an append-only event log per table, folded into state, on SQLite or PostgreSQL.

Source: DESIGN.md "The event log"; issue 2 point 3.
"""

from tablee.table.connect import default_database_path, open_store
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState, decide_undo, fold
from tablee.table.service import Applied, TableService
from tablee.table.store import AppendConflict, EventStore, TableInfo

__all__ = [
    "AppendConflict",
    "Applied",
    "EventStore",
    "StoredEvent",
    "TableInfo",
    "TableService",
    "TableState",
    "decide_undo",
    "default_database_path",
    "fold",
    "open_store",
]
