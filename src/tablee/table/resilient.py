"""A store that rides out a lost database connection: one retry, never an event twice.

After a PostgreSQL restart, or when an administrator ends a connection
(``pg_terminate_backend``), every connection kept in the pool is dead; the first call on each
fails with a disconnection. SQLAlchemy then discards the whole pool, so one more try gets a
fresh connection. `ResilientStore` wraps any `EventStore` and makes that try:

* reads (`load`, `find_link`, `tables`, ...) and idempotent writes (`set_preference`,
  `revoke_link`) are simply called again once;
* an `append` whose connection dropped may or may not have committed (the commit may have
  reached the database and only its answer been lost). Its table is read again after the
  expected seq: nothing there, it is sent again as it was; exactly the events it meant to
  store (same kinds, actors, payloads with their dice, time and command key), they are
  returned as stored; anything else, another writer went first and `AppendConflict` is
  raised, which the service answers as any lost race (it decides again on the new state).
  A roll is thus never stored twice;
* `create_table` and `add_link` are not retried (a second try of one that committed would be
  refused as a duplicate); a disconnection there stays a `StorageError`.

A second failure, or any other error, propagates unchanged. Every call's duration can also
be reported (``observe``), for the server's metrics. Anything else the wrapped store offers
is reached through the wrapper unchanged.

Source: docs/architecture.md, "Faults".
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from tablee.errors import StorageError
from tablee.systems.base import Fact
from tablee.table._rows import conflict
from tablee.table.events import StoredEvent, command_key_of
from tablee.table.links import LinkInfo
from tablee.table.store import EventStore, TableInfo

__all__ = ["ResilientStore", "is_disconnect"]

T = TypeVar("T")
Observe = Callable[[str, float], None]
"""Told each store call's operation (``load``, ``append``...) and duration in seconds."""


def is_disconnect(error: BaseException) -> bool:
    """Whether an error comes from a lost or refused database connection.

    Args:
        error: what a store call raised (a `StorageError` wraps the driver's error).

    Returns:
        True when the error or one of its causes is a psycopg ``OperationalError`` (a
        connection ended by the server, a restart, a refused connection) or an error
        SQLAlchemy marked as invalidating its connection.
    """
    seen: BaseException | None = error
    while seen is not None:
        if getattr(seen, "connection_invalidated", False):
            return True
        if type(seen).__module__.startswith("psycopg"):
            import psycopg  # only once a driver error is in hand

            if isinstance(seen, psycopg.OperationalError):
                return True
        seen = seen.__cause__ or seen.__context__
    return False


class ResilientStore:
    """An `EventStore` retrying once after a lost connection (see the module docstring).

    Args:
        store: the store to wrap.
        observe: told each call's operation name and duration (seconds); None: not timed.
    """

    def __init__(self, store: EventStore, observe: Observe | None = None) -> None:
        self.store = store
        self._observe = observe

    def __getattr__(self, name: str) -> Any:
        """What the wrapped store offers beyond the protocol (its ``url``...), unchanged."""
        return getattr(self.store, name)

    def _call(self, op: str, work: Callable[[], T], retry: bool = True) -> T:
        began = time.perf_counter()
        try:
            try:
                return work()
            except StorageError as exc:
                if not retry or not is_disconnect(exc):
                    raise
            return work()
        finally:
            if self._observe is not None:
                self._observe(op, time.perf_counter() - began)

    def create_table(
        self,
        table_id: str,
        name: str,
        system: str,
        created: Fact,
        now: datetime,
        later: Sequence[tuple[Fact, datetime] | tuple[Fact, datetime, str | None]] = (),
    ) -> StoredEvent:
        """See `EventStore.create_table` (not retried)."""
        return self._call(
            "create",
            lambda: self.store.create_table(table_id, name, system, created, now, later),
            retry=False,
        )

    def tables(self) -> list[TableInfo]:
        """See `EventStore.tables`."""
        return self._call("read", self.store.tables)

    def find_table(self, name: str) -> TableInfo:
        """See `EventStore.find_table`."""
        return self._call("read", lambda: self.store.find_table(name))

    def load(self, table_id: str, after_seq: int = 0) -> list[StoredEvent]:
        """See `EventStore.load`."""
        return self._call("load", lambda: self.store.load(table_id, after_seq))

    def append(
        self,
        table_id: str,
        expected_last_seq: int,
        facts: Sequence[Fact],
        now: datetime,
        *,
        command_key: str | None = None,
    ) -> list[StoredEvent]:
        """See `EventStore.append`; after a lost connection, see the module docstring.

        Raises:
            AppendConflict: the connection dropped and another writer's events are there.
        """

        def work() -> list[StoredEvent]:
            try:
                return self.store.append(
                    table_id, expected_last_seq, facts, now, command_key=command_key
                )
            except StorageError as exc:
                if not is_disconnect(exc):
                    raise
            landed = self.store.load(table_id, after_seq=expected_last_seq)
            if not landed:
                return self.store.append(
                    table_id, expected_last_seq, facts, now, command_key=command_key
                )
            if _same(landed[: len(facts)], facts, now, command_key):
                return landed[: len(facts)]  # the first try committed; its answer was lost
            raise conflict(table_id, expected_last_seq)

        return self._call("append", work, retry=False)

    def command_events(self, table_id: str, key: str) -> list[StoredEvent]:
        """See `EventStore.command_events`."""
        return self._call("read", lambda: self.store.command_events(table_id, key))

    def get_preference(self, key: str) -> str | None:
        """See `EventStore.get_preference`."""
        return self._call("read", lambda: self.store.get_preference(key))

    def set_preference(self, key: str, value: str) -> None:
        """See `EventStore.set_preference` (the same value written twice is one value)."""
        self._call("write", lambda: self.store.set_preference(key, value))

    def installation_secret(self) -> str:
        """See `EventStore.installation_secret`."""
        return self._call("read", self.store.installation_secret)

    def add_link(self, link: LinkInfo) -> None:
        """See `EventStore.add_link` (not retried)."""
        self._call("write", lambda: self.store.add_link(link), retry=False)

    def find_link(self, token_hash: str) -> LinkInfo | None:
        """See `EventStore.find_link`."""
        return self._call("read", lambda: self.store.find_link(token_hash))

    def links(self, table_id: str) -> list[LinkInfo]:
        """See `EventStore.links`."""
        return self._call("read", lambda: self.store.links(table_id))

    def revoke_link(self, token_hash: str, now: datetime) -> None:
        """See `EventStore.revoke_link` (a link revoked twice keeps its first time)."""
        self._call("write", lambda: self.store.revoke_link(token_hash, now))

    def close(self) -> None:
        """See `EventStore.close`."""
        self.store.close()


def _same(
    stored: Sequence[StoredEvent], facts: Sequence[Fact], now: datetime, key: str | None
) -> bool:
    """Whether ``stored`` are exactly the events an append of ``facts`` at ``now`` makes."""
    return len(stored) == len(facts) and all(
        e.kind == f.kind
        and e.actor == f.actor
        and e.visibility == f.visibility
        and e.created_at == now
        and e.command_key == (None if key is None else command_key_of(key, i))
        and _json(e.payload) == _json(f.payload)
        for i, (e, f) in enumerate(zip(stored, facts, strict=True), start=1)
    )


def _json(payload: Any) -> str:
    return json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
