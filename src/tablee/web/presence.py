"""Who is there: the seats of a table with an open event stream, across server processes.

A seat is the game master (``gm``), one player (``player:<name key>``) or the spectators
(``spectator``, counted). A seat is *connected* while at least one event stream of a link
of that seat is open, in any server process sharing the table's database.

Each process counts its own open streams per table and seat (`Presence.present`). On
SQLite one process serves a table, and that count is the whole answer. On PostgreSQL
(``tablee serve --workers N``) each process also *announces* its counts to the others over
``NOTIFY tablee_presence`` (`tablee.web.listen`): a JSON payload ``{"p": process id, "t":
table id, "s": {seat: streams}}``, sent when a seat of the table changes here and again
every `HEARTBEAT_SECONDS` while a stream of the table is open here. What a process hears
from another is kept `EXPIRY_SECONDS` only: a process that dies (killed, its machine gone)
stops announcing, and its seats go dark by themselves at the next sweep, at most
``EXPIRY_SECONDS + HEARTBEAT_SECONDS`` later. A process that stops cleanly announces empty
counts for its tables. A process that starts listening (or listens again after its
connection dropped) asks the others to announce at once (``{"p": id, "ask": 1}``), so that
it need not wait a heartbeat; NOTIFY being lossy, the heartbeat is also what repairs a
lost announcement.

Every change of what a table's viewers should see (a seat of this process, an
announcement heard, an expiry) bumps the table's presence version and wakes its streams
(`tablee.web.hub.Hub.notify`), which then send an SSE ``presence`` message: the seats as
HTML, swapped into the page's header.

Source: docs/web.md, "Who is there".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping

from tablee.errors import N_
from tablee.locale import translation
from tablee.systems.base import name_key
from tablee.web.render import render

__all__ = [
    "EXPIRY_SECONDS",
    "HEARTBEAT_SECONDS",
    "PRESENCE_CHANNEL",
    "Presence",
    "presence_html",
    "presence_message",
    "seat_of",
    "seats_view",
]

PRESENCE_CHANNEL = "tablee_presence"
"""The PostgreSQL channel the processes announce their seats on."""

HEARTBEAT_SECONDS = 10.0
"""Seconds between two announcements of a table's seats by a process with its streams open."""

EXPIRY_SECONDS = 3 * HEARTBEAT_SECONDS
"""Seconds an announcement heard from another process counts (three heartbeats)."""

MAX_PAYLOAD = 7900
"""Longest announcement sent, in bytes (PostgreSQL refuses NOTIFY payloads of 8000 or more)."""


def seat_of(role: str, player: str | None) -> str:
    """The seat of a link: ``gm``, ``spectator`` or ``player:<name key>``.

    Args:
        role: the link's role (``gm``, ``player`` or ``spectator``).
        player: the player's name for a player link.
    """
    if role == "player" and player is not None:
        return "player:" + name_key(player)
    return "gm" if role == "gm" else "spectator"


class Presence:
    """The open streams per table and seat: this process's own, and those others announce.

    Args:
        wake: called with a table's id when what its viewers should see changed (the hub's
            ``notify``, which wakes the table's streams).
        clock: monotonic seconds (tests pass a fake one to expire announcements).
        process: this process's id in announcements (random when not given).

    Attributes:
        clock: the clock given.
        publish: an awaitable sender of one announcement's text to the other processes, set
            by the PostgreSQL listener; None on SQLite (one process: nothing to announce).
    """

    def __init__(
        self,
        wake: Callable[[str], None],
        clock: Callable[[], float] = time.monotonic,
        process: str | None = None,
    ) -> None:
        self.process = process or secrets.token_hex(8)
        self.publish: Callable[[str], Awaitable[None]] | None = None
        self._wake = wake
        self.clock = clock
        self._local: dict[str, Counter[str]] = {}
        self._remote: dict[str, dict[str, tuple[dict[str, int], float]]] = {}
        self._versions: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._sends: set[asyncio.Task[None]] = set()

    def version(self, table_id: str) -> int:
        """A number that grows each time the table's seats may have changed (0 at first)."""
        return self._versions.get(table_id, 0)

    def counts(self, table_id: str) -> Counter[str]:
        """The open streams of the table per seat, in every process (expired ones left out)."""
        now = self.clock()
        total: Counter[str] = Counter(self._local.get(table_id, ()))
        for seats, until in self._remote.get(table_id, {}).values():
            if until > now:
                total.update(seats)
        return +total

    @contextlib.contextmanager
    def present(self, table_id: str, seat: str) -> Iterator[None]:
        """Count one open stream of the seat while the block runs (and announce the change)."""
        self._local.setdefault(table_id, Counter())[seat] += 1
        self._changed(table_id)
        try:
            yield
        finally:
            local = self._local[table_id]
            local[seat] -= 1
            if local[seat] <= 0:
                del local[seat]
            self._changed(table_id)
            if not local:
                del self._local[table_id]

    def heard(self, payload: str) -> None:
        """An announcement of another process (`PRESENCE_CHANNEL`); malformed ones are ignored.

        Args:
            payload: ``{"p": process, "t": table, "s": {seat: count}}``, or ``{"p": process,
                "ask": 1}`` (announce every table now). This process's own are ignored.
        """
        try:
            given = json.loads(payload)
            process = given["p"]
            if not isinstance(process, str) or process == self.process:
                return
            if given.get("ask"):
                self.announce_all()
                return
            table_id = given["t"]
            seats = {
                str(k): int(v) for k, v in dict(given["s"]).items() if isinstance(v, int) and v > 0
            }
        except (ValueError, TypeError, KeyError, AttributeError):
            return
        if not isinstance(table_id, str):
            return
        known = self._remote.setdefault(table_id, {})
        before = known.get(process, ({}, 0.0))[0]
        if seats:
            known[process] = (seats, self.clock() + EXPIRY_SECONDS)
        else:
            known.pop(process, None)
            if not known:
                del self._remote[table_id]
        if seats != before:
            self._bump(table_id)

    def sweep(self) -> None:
        """Forget the announcements that expired; wake the streams of the tables they change."""
        now = self.clock()
        for table_id in list(self._remote):
            known = self._remote[table_id]
            gone = [p for p, (_, until) in known.items() if until <= now]
            for process in gone:
                del known[process]
            if not known:
                del self._remote[table_id]
            if gone:
                self._bump(table_id)

    def payload(self, table_id: str) -> str:
        """This process's announcement of the table's seats (empty counts when none is open)."""
        seats = dict(self._local.get(table_id, {}))
        return json.dumps({"p": self.process, "t": table_id, "s": seats}, ensure_ascii=False)

    def ask_payload(self) -> str:
        """The request that every other process announce its seats now."""
        return json.dumps({"p": self.process, "ask": 1})

    def announce_all(self) -> None:
        """Announce every table with a stream open here (no-op without a publisher)."""
        for table_id in list(self._local):
            self._send(self.payload(table_id))

    def listening(self) -> None:
        """The publisher's connection listens (again): ask the others, announce ours."""
        self._send(self.ask_payload())
        self.announce_all()

    def start(self) -> None:
        """Start the heartbeat (in the running event loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._beat())

    async def stop(self) -> None:
        """Stop the heartbeat; announce that this process has no stream open any more.

        Nothing is announced after this (the streams still open end as the server stops).
        """
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.publish is not None:
            for table_id in list(self._local):
                body = json.dumps({"p": self.process, "t": table_id, "s": {}})
                with contextlib.suppress(Exception):
                    await self.publish(body)
        if self._sends:  # the last changes' announcements, given a moment to leave
            await asyncio.wait(list(self._sends), timeout=1.0)
        for send in list(self._sends):
            send.cancel()
        self._sends.clear()
        self.publish = None  # the listener stops next: nothing more to announce

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            self.sweep()
            self.announce_all()

    def _changed(self, table_id: str) -> None:
        self._bump(table_id)
        self._send(self.payload(table_id))

    def _bump(self, table_id: str) -> None:
        self._versions[table_id] = self._versions.get(table_id, 0) + 1
        self._wake(table_id)

    def _send(self, payload: str) -> None:
        """Send an announcement in the background (dropped when too long or no publisher)."""
        publish = self.publish
        if publish is None or len(payload.encode()) > MAX_PAYLOAD:
            return
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to announce to
            task = asyncio.get_running_loop().create_task(_quietly(publish(payload)))
            self._sends.add(task)
            task.add_done_callback(self._sends.discard)


async def _quietly(sending: Awaitable[None]) -> None:
    """Await a send; a failure is dropped (the next heartbeat announces again)."""
    with contextlib.suppress(Exception):
        await sending


def seats_view(players: Iterable[str], counts: Mapping[str, int], lang: str) -> dict[str, object]:
    """What the header shows: each seat with whether it is connected, and the spectators.

    Args:
        players: the table's players, in the table's order (their names as typed).
        counts: open streams per seat (`Presence.counts`).
        lang: ``fr`` or ``en``.

    Returns:
        ``{"seats": [{"label", "on"}...], "spectators": text or ""}``: the game master
        first, then each player; the spectators' count in words when any is connected.
    """
    catalog = translation(lang if lang in ("fr", "en") else "en")
    seats: list[dict[str, object]] = [
        {"label": catalog.gettext(N_("game master")), "on": counts.get("gm", 0) > 0}
    ]
    for name in players:
        seats.append({"label": name, "on": counts.get(seat_of("player", name), 0) > 0})
    watching = counts.get("spectator", 0)
    ntr = catalog.ngettext
    spectators = ntr("{n} spectator", "{n} spectators", watching).format(n=watching)
    return {"seats": seats, "spectators": spectators if watching else ""}


def presence_html(
    players: Iterable[str], counts: Mapping[str, int], lang: str, *, oob: bool = False
) -> str:
    """The header's seats as HTML (`seats_view` through ``_presence.html``).

    ``oob``: marked for htmx to replace the header's seats wherever the message lands.
    """
    return render("_presence.html", lang, oob=oob, **seats_view(players, counts, lang))


def presence_message(players: Iterable[str], counts: Mapping[str, int], lang: str) -> bytes:
    """The SSE ``presence`` message: the seats, marked to replace the header's (no id).

    It carries no ``id`` field, so that a reconnecting stream resumes after the last log
    event, never after a presence message.
    """
    html = presence_html(players, counts, lang, oob=True)
    body = "".join(f"data: {line}\n" for line in html.splitlines())
    return f"event: presence\n{body}\n".encode()
