"""Cross-process fan-out on PostgreSQL: LISTEN for the store's notifications, wake the hub.

Every transaction of `tablee.table.pg_store.PgStore` (and of
`tablee.table.sql_store.SqlAlchemyStore` on PostgreSQL) that stores events sends ``NOTIFY
tablee_events, '<table_id>:<last seq>'``, delivered on commit. A
`Listener` holds one psycopg 3 asynchronous connection (autocommit) that runs ``LISTEN
tablee_events`` and hands each notification to `tablee.web.hub.Hub.heard`, which wakes the
table's open streams; they then read the events after the last number they sent. A roll
made through one server process, or on the command line, thus reaches the viewers of every
other process at once instead of at the hub's next poll.

NOTIFY is lossy by design: when the connection drops, the listener reconnects with an
exponential backoff (`RETRY_FIRST` seconds, doubled up to `RETRY_MAX`), and asks the hub for
one immediate store check once it listens again; the hub's poller stays the safety net for
whatever falls in between. A malformed payload is ignored. A notification that carries the
stored rows after its first line (`tablee.table.pg_store.notice`) is also handed to
``told``, which keeps the events (`tablee.web.common.WebTable.told`) so that the woken
streams need not read them. The listener runs in the event loop of the server (started
and stopped by the application's lifespan); stopping it cancels its task and closes the
connection without waiting for the database.

The same connection listens to ``tablee_links`` (a link of the table named was revoked:
`tablee.web.hub.Hub.links_changed` ends its open streams) and to ``tablee_presence``, where
the processes announce which seats have a stream open (`tablee.web.presence`); a second
connection, made when first needed and again after a failure, sends this process's
announcements. Once it listens (at start and after each reconnection) the listener asks the
others to announce theirs.

Source: docs/web.md, "Fan-out" (NOTIFY carrying only ``(table, seq)``, the
database stays the truth) and "Who is there".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from tablee.table.store import LINKS_CHANNEL, NOTIFY_CHANNEL, EventStore
from tablee.web.hub import Hub
from tablee.web.presence import PRESENCE_CHANNEL, Presence

__all__ = [
    "APPLICATION_NAME",
    "CHANNEL",
    "LINKS_CHANNEL",
    "PRESENCE_CHANNEL",
    "RETRY_FIRST",
    "RETRY_MAX",
    "Listener",
    "listener_for",
    "parse_payload",
]

CHANNEL = NOTIFY_CHANNEL
"""The channel of stored events listened to (`tablee.table.store.NOTIFY_CHANNEL`)."""

RETRY_FIRST = 0.2
"""Seconds before the first reconnection after the connection dropped or failed."""

RETRY_MAX = 10.0
"""Longest wait between two connection attempts, in seconds."""

APPLICATION_NAME = "tablee-listen"
"""The ``application_name`` of the listening connection (seen in ``pg_stat_activity``)."""

_log = logging.getLogger(__name__)


def parse_payload(payload: str) -> tuple[str, int] | None:
    """The ``(table_id, seq)`` of a notification's payload ``'<table_id>:<seq>'``.

    Args:
        payload: the text sent with the notification; what follows a first line break (the
            rows stored, `tablee.table.pg_store.notice`) is not read here.

    Returns:
        The table's id and the last seq stored (1 or more), or None when the payload does
        not have that shape (it is then ignored: the poller still catches up).
    """
    table_id, colon, seq = payload.partition("\n")[0].rpartition(":")
    if not colon or not table_id or not seq.isdigit() or int(seq) < 1:
        return None
    return table_id, int(seq)


class Listener:
    """One LISTEN connection to PostgreSQL feeding a hub, reconnecting when it drops.

    Args:
        conninfo: a libpq connection string or ``postgresql://`` URL (no driver suffix).
        hub: the hub whose streams are woken (`Hub.heard`); after a reconnection it is asked
            for one store check (`Hub.check_soon`).
        presence: the seats of this process, whose announcements are sent through `send`
            and which hears the others' (None: presence is not shared).
        told: given ``(table_id, rows_json)`` when a notification carries the rows stored
            (called before the hub is told; its errors are logged, never raised here).

    Attributes:
        listening: set while the connection is listening (tests wait for it).
        connections: how many times a connection started listening (1 at start).
        backend_pid: the server process id of the last listening connection (0 before).
    """

    def __init__(
        self,
        conninfo: str,
        hub: Hub,
        presence: Presence | None = None,
        told: Callable[[str, str], None] | None = None,
    ) -> None:
        self.conninfo = conninfo
        self.hub = hub
        self.presence = presence
        self.told = told
        self.listening = asyncio.Event()
        self.connections = 0
        self.backend_pid = 0
        self._task: asyncio.Task[None] | None = None
        self._sender: Any = None  # psycopg.AsyncConnection, made by `send` when first needed
        self._sending = asyncio.Lock()
        if presence is not None:
            presence.publish = self.send

    async def send(self, payload: str) -> None:
        """Announce ``payload`` on `PRESENCE_CHANNEL` (delivered to every listener, ours too).

        Raises:
            psycopg.Error: the database could not be reached; the next send connects again.
        """
        import psycopg  # lazy: only a PostgreSQL server needs it

        async with self._sending:
            try:
                if self._sender is None or self._sender.closed:
                    self._sender = await psycopg.AsyncConnection.connect(
                        self.conninfo,
                        autocommit=True,
                        connect_timeout=5,
                        application_name=APPLICATION_NAME,
                    )
                await self._sender.execute("SELECT pg_notify(%s, %s)", (PRESENCE_CHANNEL, payload))
            except psycopg.Error:
                await self._close_sender()
                raise

    async def _close_sender(self) -> None:
        sender, self._sender = self._sender, None
        if sender is not None:
            with contextlib.suppress(Exception):
                await sender.close()

    def start(self) -> None:
        """Start listening in the running event loop (returns at once)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop listening and close the connection (prompt: the task is cancelled)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.listening.clear()
        async with self._sending:
            await self._close_sender()

    async def _run(self) -> None:
        delay = RETRY_FIRST
        while True:
            before = self.connections
            try:
                await self._listen()
            except Exception as exc:  # a dropped or refused connection: retry later
                if self.connections > before:  # it listened for a while: start over
                    delay = RETRY_FIRST
                _log.warning("LISTEN %s failed (%s); retrying in %.1f s", CHANNEL, exc, delay)
            self.listening.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX)

    async def _listen(self) -> None:
        """One connection: LISTEN, then hand every notification to the hub until it drops."""
        import psycopg  # lazy: only a PostgreSQL server needs it

        conn = await psycopg.AsyncConnection.connect(
            self.conninfo, autocommit=True, connect_timeout=5, application_name=APPLICATION_NAME
        )
        try:
            await conn.execute(f"LISTEN {CHANNEL}")
            await conn.execute(f"LISTEN {LINKS_CHANNEL}")
            if self.presence is not None:
                await conn.execute(f"LISTEN {PRESENCE_CHANNEL}")
            self.backend_pid = conn.info.backend_pid
            self.connections += 1
            self.listening.set()
            if self.connections > 1:
                self.hub.check_soon()  # what was sent while we were away is lost
            if self.presence is not None:
                self.presence.listening()
            async for notify in conn.notifies():
                if notify.channel == PRESENCE_CHANNEL:
                    if self.presence is not None:
                        self.presence.heard(notify.payload)
                    continue
                if notify.channel == LINKS_CHANNEL:
                    self.hub.links_changed(notify.payload)
                    continue
                head, newline, rows = notify.payload.partition("\n")
                parsed = parse_payload(head)
                if parsed is None:
                    continue
                if newline and self.told is not None and parsed[1] > self.hub.known(parsed[0]):
                    try:
                        self.told(parsed[0], rows)
                    except Exception:  # the streams then read the events themselves
                        _log.exception("keeping the events of %s failed", parsed[0])
                self.hub.heard(*parsed)
        finally:
            await conn.close()


def listener_for(
    store: EventStore,
    hub: Hub,
    presence: Presence | None = None,
    told: Callable[[str, str], None] | None = None,
) -> Listener | None:
    """A listener for the store's database when it is PostgreSQL, else None.

    Args:
        store: the web table's store; only a store whose URL is PostgreSQL (`PgStore`, or a
            `SqlAlchemyStore` on PostgreSQL) gets a listener (SQLite has no notifications:
            the poller alone serves it).
        hub: the hub to wake.
        presence: the seats to share with the other processes (None: not shared).
        told: see `Listener`.

    Returns:
        A listener, not started yet, connecting with the store's own URL and credentials.
    """
    url = getattr(store, "url", None)
    if not isinstance(url, str) or not url.startswith("postgresql"):
        return None
    from tablee.table.pg_store import conninfo_of  # lazy: only a PostgreSQL store needs it

    return Listener(conninfo_of(url), hub, presence, told)
