"""Fan-out of new events to the open streams: an in-process hub plus a periodic store check.

The store is the truth. The hub carries only "table X has new events" and each stream then
reads the events after the last sequence number it sent, so a lost or doubled wake-up
never loses or repeats an event. Three sources wake a table's streams:

* `Hub.notify`, called by this process right after it appended events;
* `Hub.heard`, called on PostgreSQL by the listener of `tablee.web.listen` when another
  process (a server, the command line) commits events: ``NOTIFY tablee_events,
  '<table_id>:<seq>'``;
* a poller that, every `poll_interval` seconds, reads the events stored after the last one
  it knows for each watched table: the safety net, since NOTIFY is lossy by design (a
  notification sent while the listener is reconnecting is never delivered), and the only
  way events written by another process reach a server on SQLite.

`Hub.links_changed` says that a table's links changed (one was revoked): its streams check
their link at once and a revoked link's stream ends. This process calls it right after a
revocation; on PostgreSQL the listener calls it when another process (a server, the command
line) revoked a link (``NOTIFY tablee_links, '<table_id>'``).

Source: docs/web.md, "Fan-out".
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator

from tablee.web import metrics

__all__ = ["TICK_SECONDS", "Hub"]

TICK_SECONDS = 0.25
"""How often a started hub ends the waits whose time is up (`Hub.wait`), in seconds."""


class _Signal(asyncio.Event):
    """A table's wake-up, knowing its table (for the deadlines of `Hub.wait`)."""

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id = table_id


class Hub:
    """Wake-ups per table for the event streams of one server process.

    Args:
        last_seq: reads a table's last stored seq (awaitable: a store call, `WebTable.run`).
        poll_interval: seconds between two checks of the store for watched tables.
    """

    def __init__(
        self, last_seq: Callable[[str, int], Awaitable[int]], poll_interval: float = 1.0
    ) -> None:
        self._last_seq = last_seq
        self.poll_interval = poll_interval
        self._signals: dict[str, asyncio.Event] = {}
        self._deadlines: dict[str, float] = {}
        self._ticker: asyncio.Task[None] | None = None
        self._watchers: dict[str, int] = {}
        self._known: dict[str, int] = {}
        self._links: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._checks: set[asyncio.Task[None]] = set()
        self.closed = False
        self.revocations = 0  # revocations heard, of any table (the kept links depend on it)

    def signal(self, table_id: str) -> asyncio.Event:
        """The event set at the table's next wake-up (take it *before* reading the store)."""
        found = self._signals.get(table_id)
        if found is None:
            found = self._signals[table_id] = _Signal(table_id)
        return found

    def known(self, table_id: str) -> int:
        """The last seq this process knows the table's log reached (0 when unknown)."""
        return self._known.get(table_id, 0)

    def watched(self, table_id: str) -> bool:
        """Whether a stream of the table is open in this process."""
        return table_id in self._watchers

    def heard(self, table_id: str, last_seq: int) -> None:
        """Another process stored the table's events up to ``last_seq``: wake its streams.

        Ignored when no stream of the table is open here (nothing is kept for it), or when
        this process already knows of ``last_seq``.

        Args:
            table_id: the table's id, as in the notification.
            last_seq: the last seq the notification names (1 or more).
        """
        if self.watched(table_id) and last_seq > self.known(table_id):
            self.notify(table_id, last_seq)

    def links_changed(self, table_id: str) -> None:
        """A link of the table was revoked: its streams check their link now (see `links`).

        Counted in `revocations` whether or not the table is watched here.
        """
        self.revocations += 1
        if self.watched(table_id):
            self._links[table_id] = self._links.get(table_id, 0) + 1
            self.notify(table_id)

    def links(self, table_id: str) -> int:
        """How many times the table's links changed while watched (a stream compares it)."""
        return self._links.get(table_id, 0)

    def check_soon(self) -> None:
        """Check the store for every watched table now, once (after a missed notification)."""
        if not self.closed:
            self._checks.add(asyncio.get_running_loop().create_task(self._check()))
            for task in [t for t in self._checks if t.done()]:
                self._checks.discard(task)

    def notify(self, table_id: str, last_seq: int | None = None) -> None:
        """Wake every stream of a table (call from the event loop's thread)."""
        if last_seq is not None:
            self._known[table_id] = max(self._known.get(table_id, 0), last_seq)
        self._deadlines.pop(table_id, None)  # every wait on the signal ends now
        found = self._signals.pop(table_id, None)
        if found is not None:
            found.set()

    @contextlib.contextmanager
    def watching(self, table_id: str, seq: int) -> Iterator[None]:
        """Count a stream of a table as open while the block runs (the poller checks it)."""
        self._watchers[table_id] = self._watchers.get(table_id, 0) + 1
        self._known[table_id] = max(self._known.get(table_id, 0), seq)
        metrics.OPEN_STREAMS.inc()
        try:
            yield
        finally:
            metrics.OPEN_STREAMS.dec()
            self._watchers[table_id] -= 1
            if not self._watchers[table_id]:
                del self._watchers[table_id]
                self._known.pop(table_id, None)
                self._links.pop(table_id, None)

    async def wait(self, signal: asyncio.Event, timeout: float) -> None:
        """Wait for a wake-up, at most about ``timeout`` seconds (returns either way).

        A started hub keeps no timer per wait: it notes, per table, the earliest time a wait
        on the table's signal must end, and every `TICK_SECONDS` wakes the tables whose
        time is up (`notify`: each stream of the table looks at the store, finds nothing
        new, and waits again), so a wait may last up to `TICK_SECONDS` longer. A hub not
        started (no ticker) times each wait itself.
        """
        table_id = getattr(signal, "table_id", None)
        if self._ticker is None or table_id is None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):  # no task per wait, unlike wait_for
                    await signal.wait()
            return
        deadline = asyncio.get_running_loop().time() + timeout
        if deadline < self._deadlines.get(table_id, deadline + 1):
            self._deadlines[table_id] = deadline
        await signal.wait()

    def start(self) -> None:
        """Start the poller (in the running event loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._poll())
        if self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(self._tick())

    def end_streams(self) -> None:
        """Mark the hub closed and wake every stream, which then ends (call from the loop).

        New streams end at once too. Called when the server starts to stop, so that no open
        stream holds the shutdown until Uvicorn cancels it (`stop` calls it as well).
        """
        self.closed = True
        for table_id in list(self._signals):
            self.notify(table_id)

    async def stop(self) -> None:
        """Stop the poller and wake every stream so that it can end."""
        self.end_streams()
        tasks = [t for t in (self._task, self._ticker, *self._checks) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._task = self._ticker = None
        self._checks.clear()

    async def _tick(self) -> None:
        """Every `TICK_SECONDS`, wake the tables whose waits' time is up (see `wait`)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(TICK_SECONDS)
            now = loop.time()
            for table_id in [t for t, when in self._deadlines.items() if when <= now]:
                self.notify(table_id)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll_interval)
            await self._check()

    async def _check(self) -> None:
        """Read the last seq of every watched table; wake the streams of those that moved."""
        for table_id in list(self._watchers):
            known = self._known.get(table_id, 0)
            try:
                last = await self._last_seq(table_id, known)
            except Exception:  # a failing store must not stop the poller
                continue
            if last > known:
                self.notify(table_id, last)
