"""Reading a table's log a page at a time: the latest entries first, earlier ones on request.

A table's page shows only its latest `LOG_PAGE` log entries; an "Earlier entries" control at
the top of the log loads the page before them (htmx), and so on back to the table's creation.
The same pages are JSON (``GET /t/{token}/api/log?before=SEQ&limit=N``). A stream that
starts more than `LOG_PAGE` events behind the log's end sends the latest page in one message,
after such a control for the events it skipped (`catch_up`): a table of 30,000 events never
renders its whole log for one request.

Rendering a log entry costs about a millisecond (its card, its trace), so entries rendered
for a page are kept (`Entries`), once per audience as the streams' messages are
(`tablee.web.render.Fragments`), and what is not kept yet is rendered in a worker thread
(`WebTable.off_loop`), never on the event loop when there is more than a few.

Routes:

* ``GET /t/{token}/log?before=SEQ&after=SEQ``: the entries numbered after ``after`` (default
  0) and before ``before`` (default: past the end), the latest `LOG_PAGE` of them, with an
  "Earlier entries" control in front when some remain. With htmx (``HX-Request``) the
  fragment that replaces the control; without, a page.
* ``GET /t/{token}/api/log?before=SEQ&limit=N``: the same as data, ``limit`` 1 to
  `MAX_LIMIT` (default `LOG_PAGE`).

Source: docs/web.md, "Reading earlier entries"; docs/architecture.md, "Large tables".
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from tablee.dice import WHOLE_DIGITS, is_whole_in_reach, read_whole
from tablee.errors import N_, InputError
from tablee.table.events import TABLE_VOIDED, StoredEvent
from tablee.table.projection import TableState
from tablee.web.access import Viewer, can_see
from tablee.web.common import WebTable, base_path, error_page, viewer_of
from tablee.web.render import (
    choices_html,
    entry_context,
    entry_html,
    render,
    resources_html,
    sse_message,
    translator,
)

__all__ = [
    "INLINE_RENDERS",
    "LOG_PAGE",
    "MAX_LIMIT",
    "Entries",
    "Window",
    "add_history_routes",
    "catch_up",
    "log_window",
]

LOG_PAGE = 100
"""Log entries a table's page shows, and each "Earlier entries" request loads."""
MAX_LIMIT = 200
"""The most entries one JSON request for the log may ask for."""
INLINE_RENDERS = 8
"""Entries not kept yet that a request renders on the event loop; more go to a worker
thread (about a millisecond each: a handful costs less than the hop)."""
KEPT_ENTRIES = 4000
"""Rendered entries kept by `Entries`, across tables and audiences (about 2 KB each)."""


@dataclass(frozen=True)
class Window:
    """A page of the log: its events and what lies before them.

    Attributes:
        events: the events shown, in order (at most the limit asked for).
        after: the page reaches back to the event after this number (0: the creation).
        earlier: whether events remain between ``after`` and the first shown.
    """

    events: tuple[StoredEvent, ...]
    after: int
    earlier: bool

    @property
    def first(self) -> int:
        """The number of the first event shown (``after + 1`` for an empty page)."""
        return self.events[0].seq if self.events else self.after + 1


def log_window(
    state: TableState[Any], *, before: int | None = None, after: int = 0, limit: int = LOG_PAGE
) -> Window:
    """The latest ``limit`` events numbered after ``after`` and before ``before``.

    Args:
        state: a whole fold of the table (its log from seq 1, `TableState.partial` false).
        before: the page ends before this number; None: at the log's end.
        after: the page starts after this number (0 or more).
        limit: the most events the page holds (1 or more).

    Returns:
        The page; ``earlier`` says whether events numbered after ``after`` remain before it.
    """
    events = state.events
    end = len(events) if before is None else max(0, min(before - 1, len(events)))
    start = max(0, min(after, end))
    if events and (events[0].seq != 1 or events[-1].seq != len(events)):  # never stored so
        chosen = [e for e in events if after < e.seq and (before is None or e.seq < before)]
        shown = tuple(chosen[-limit:])
        return Window(shown, after, len(chosen) > len(shown))
    first = max(start, end - limit)
    return Window(tuple(events[first:end]), start, first > start)


class Entries:
    """Log entries rendered once per audience and kept, for the pages and the log's pages.

    An entry's HTML depends on the table's fold only through its undos (whether the event
    is voided, the payload an undo revised it to, the state after it): for one table it is
    the same while no undo is added, so it is kept under the number of events voided
    (`TableState.voided` grows by one with each undo). It depends on the viewer only through
    whether the viewer may see the event (`can_see`), whether the viewer is told who sees it
    (the game master, for a roll not shown to everyone) and the language, as
    `tablee.web.render.Fragments` keys a stream's entries: a viewer only receives what was
    rendered from its own key. The last `KEPT_ENTRIES` rendered are kept, across tables.
    Safe to use from worker threads.
    """

    def __init__(self, size: int = KEPT_ENTRIES) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(event: StoredEvent, state: TableState[Any], viewer: Viewer) -> tuple[Any, ...]:
        """What an entry's HTML depends on (see the class docstring)."""
        seen_by = viewer.is_gm and event.visibility != "all"  # as `entry_context`
        history = (len(state.voided), state.legacy)
        return (state.table_id, history, event.seq, can_see(viewer, event), seen_by, viewer.lang)

    def get(self, key: tuple[Any, ...]) -> str | None:
        """The HTML kept under ``key``, or None."""
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def put(self, key: tuple[Any, ...], html: str) -> None:
        """Keep ``html`` under ``key``, dropping the least recently used past `size`."""
        with self._lock:
            self._kept[key] = html
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def render(
        self, events: Sequence[StoredEvent], state: TableState[Any], viewer: Viewer
    ) -> list[str]:
        """The entries of ``events`` for the viewer (kept ones reused, the others kept)."""
        out = []
        for event in events:
            key = self.key(event, state, viewer)
            html = self.get(key)
            if html is None:
                html = entry_html(event, state, viewer)
                self.put(key, html)
            out.append(html)
        return out

    def missing(self, events: Sequence[StoredEvent], state: TableState[Any], viewer: Viewer) -> int:
        """How many of ``events`` are not kept yet for the viewer."""
        with self._lock:
            return sum(self.key(e, state, viewer) not in self._kept for e in events)

    async def html(
        self, table: WebTable, events: Sequence[StoredEvent], state: TableState[Any], viewer: Viewer
    ) -> list[str]:
        """`render`, in a worker thread when more than `INLINE_RENDERS` are not kept yet."""
        if self.missing(events, state, viewer) <= INLINE_RENDERS:
            return self.render(events, state, viewer)
        return await table.off_loop(lambda: self.render(events, state, viewer))


def earlier_html(base: str, window: Window, lang: str) -> str:
    """The "Earlier entries" control for what lies before a page ("" when nothing does)."""
    if not window.earlier:
        return ""
    return render(
        "_earlier.html",
        lang,
        base=base,
        after=window.after,
        before=window.first,
        low=window.after + 1,
        high=window.first - 1,
    )


async def catch_up(
    table: WebTable, state: TableState[Any], viewer: Viewer, start: int, base: str
) -> bytes:
    """A stream's first message when it starts more than `LOG_PAGE` events behind the end.

    One ``log`` message (its id the log's last number): an "Earlier entries" control for the
    events skipped (after ``start``, before the page), the latest `LOG_PAGE` entries, the
    entries shown before ``start`` that an undo since then voided (re-drawn struck through,
    out of band), the resources and the forms' choice lists. The page's script then goes on
    from the last number as for any message, and the control loads what was skipped.

    Args:
        table: the web table.
        state: a whole fold of the table.
        viewer: who receives the stream.
        start: the last number the stream's reader has (0 for none).
        base: the link's table page (``/t/TOKEN``), which the control's address starts with.
    """
    window = log_window(state, after=start)
    parts = [earlier_html(base, window, viewer.lang)]
    parts += await table.entries.html(table, window.events, state, viewer)
    for event in state.events[start:]:
        if event.kind == TABLE_VOIDED:
            target = int(event.payload.get("seq", 0))
            if 0 < target <= start:
                parts.append(entry_html(state.events[target - 1], state, viewer, oob=True))
    parts.append(resources_html(state, viewer, oob=True))
    parts.append(choices_html(state, viewer))
    return sse_message("".join(parts), event="log", event_id=state.last_seq)


def _number(text: str | None, field: str, *, low: int = 0) -> int | None:
    """A query parameter read as an event number (None when absent).

    Raises:
        InputError: not a whole number from ``low`` to the largest event number.
    """
    if text is None or text == "":
        return None
    value = read_whole(text, negative=False)
    if value is None or value < low or not is_whole_in_reach(value):
        raise InputError(
            N_("{field}: {value!r} is not a number from {low} to {high}"),
            field=field,
            value=text[:30],
            low=low,
            high=10**WHOLE_DIGITS - 1,
        )
    return value


def entry_data(event: StoredEvent, state: TableState[Any], viewer: Viewer) -> dict[str, Any]:
    """One log entry as the JSON API gives it, for the viewer (what the page shows as text).

    Keys: ``seq``, ``time`` (UTC, ISO 8601), ``actor`` (None when hidden or the table's
    own), ``text`` and ``details`` (in the viewer's language), ``voided``, ``undo``,
    ``visibility``, ``hidden`` (the viewer may not see it: ``text`` then only says so).
    """
    context = entry_context(event, state, viewer)
    keys = ("seq", "actor", "text", "details", "voided", "undo", "visibility", "hidden")
    data = {key: context[key] for key in keys}
    data["time"] = context["iso"]
    return data


def add_history_routes(app: FastAPI, table: WebTable) -> None:
    """Add the log's pages: ``GET /t/{token}/log`` and ``GET /t/{token}/api/log``."""

    @app.get("/t/{token}/log", response_class=HTMLResponse)
    async def log_page(request: Request, token: str) -> Response:
        viewer = await viewer_of(table, request, token)
        query = request.query_params
        try:
            before = _number(query.get("before"), "before", low=1)
            after = _number(query.get("after"), "after") or 0
        except InputError as exc:
            message = exc.render(translator(viewer.lang))
            return error_page(400, viewer.lang, N_("Refused"), message)
        state = await table.whole_state(viewer.link.table_id, viewer.table)
        window = log_window(state, before=before, after=after)
        entries = await table.entries.html(table, window.events, state, viewer)
        base = base_path(token)
        earlier = earlier_html(base, window, viewer.lang)
        if "hx-request" in request.headers:
            return HTMLResponse(earlier + "".join(entries))
        html = render(
            "log.html",
            viewer.lang,
            table=state.name,
            base=base,
            earlier=earlier,
            entries=entries,
        )
        return HTMLResponse(html)

    @app.get("/t/{token}/api/log")
    async def log_data(request: Request, token: str) -> Response:
        viewer = await viewer_of(table, request, token)
        query = request.query_params
        try:
            before = _number(query.get("before"), "before", low=1)
            limit = _number(query.get("limit"), "limit", low=1) or LOG_PAGE
        except InputError as exc:
            text = exc.render(translator(viewer.lang))
            body = {"error": type(exc).__name__, "message": text, "exit_code": exc.exit_code}
            return JSONResponse(body, status_code=422)
        state = await table.whole_state(viewer.link.table_id, viewer.table)
        window = log_window(state, before=before, limit=min(limit, MAX_LIMIT))

        def entries() -> list[dict[str, Any]]:
            return [entry_data(e, state, viewer) for e in window.events]

        if len(window.events) <= INLINE_RENDERS:
            data = entries()
        else:
            data = await table.off_loop(entries)
        return JSONResponse(
            {
                "entries": data,
                "last": state.last_seq,
                "before": window.first if window.earlier else None,
            }
        )
