"""The live web table: `create_app` builds the FastAPI application on an event store.

Routes (``{token}`` is a link token; see docs/web.md):

* ``GET /``, ``POST /tables``: create a table, then show its links (once);
* ``GET /t/{token}``: the table as the link's holder sees it;
* ``GET /t/{token}/stream?after=SEQ``: the live log and who is there (Server-Sent Events);
* ``GET /t/{token}/manifest.webmanifest``: the link's web app manifest (home screen);
* ``GET /t/{token}/odds/{action}``: the exact odds of a form as filled in;
* ``POST /t/{token}/act/{action}``: one action of the table's system;
* ``POST /t/{token}/undo``, ``POST /t/{token}/options``: the game master's undo, house rules;
* ``GET /t/{token}/export.jsonl``, ``/export.md``: the log (game master);
* ``GET /t/{token}/links``, ``POST .../links/new``, ``.../links/revoke``: links (game master);
* ``GET /healthz``, ``GET /readyz``: the process lives; the store answers (`tablee.web.health`);
* ``GET /lab``, ``/lab/{game}/{name}``: the designer's lab (`tablee.web.lab`; off with
  ``Settings.lab`` False).

Every store call goes through `WebTable.run` (inline on the event loop on SQLite, in a few
worker threads on PostgreSQL), through the same `tablee.table.TableService` as the command
line. After an append this process wakes the
table's streams; on PostgreSQL a listener wakes them when another process commits events
(`tablee.web.listen`); a poller also notices events written by other processes (`Hub`).

Source: docs/web.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import datetime
from types import FrameType

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from tablee.errors import N_, StorageError
from tablee.table.store import EventStore
from tablee.web import metrics
from tablee.web.accesslog import AccessLog
from tablee.web.api import add_api_routes
from tablee.web.common import (
    NotFound,
    WebTable,
    error_page,
)
from tablee.web.gm import add_gm_routes
from tablee.web.guard import BodyTooLarge, Guard, Settings
from tablee.web.health import add_health_routes
from tablee.web.history import add_history_routes
from tablee.web.hub import Hub
from tablee.web.listen import listener_for
from tablee.web.pages import add_home_routes, add_table_routes

__all__ = ["Settings", "WebTable", "create_app"]


def create_app(
    store: EventStore,
    settings: Settings | None = None,
    clock: Callable[[], datetime] | None = None,
) -> FastAPI:
    """The web table on an open event store.

    Args:
        store: the store (the same one the command line uses; see `tablee.table.open_store`).
        settings: limits and options (defaults: `Settings()`).
        clock: the clock stored in events (tests pass a fixed one).

    Returns:
        A FastAPI application; the caller keeps the store open while it runs.

    Source: docs/web.md, "Pages and routes".
    """
    table = WebTable(store, settings or Settings(), clock)

    # None unless the store is PostgreSQL
    listener = listener_for(store, table.hub, table.presence, table.told)
    table.listener = listener

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        table.hub.start()
        table.presence.start()
        if listener is not None:
            listener.start()
        with _streams_end_on_stop(table.hub):
            yield
        await table.presence.stop()  # announces, through the listener, that we are gone
        if listener is not None:
            await listener.stop()
        await table.hub.stop()
        metrics.process_stopped()
        if lab_pool is not None:
            lab_pool.close()
        table.close()

    app = FastAPI(
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=lifespan,
    )
    app.state.table = table
    app.state.listener = listener
    _errors(app)
    add_home_routes(app, table)
    add_table_routes(app, table)
    add_gm_routes(app, table)
    add_api_routes(app, table)
    add_health_routes(app, table)
    add_history_routes(app, table)
    lab_pool = None
    if table.settings.lab:
        from tablee.web.lab import LabPool, add_lab_routes

        lab_pool = LabPool()
        add_lab_routes(app, lab_pool)
    app.state.lab = lab_pool
    from importlib.resources import files

    app.mount("/static", StaticFiles(directory=str(files("tablee.web") / "static")), "static")
    app.add_middleware(Guard, settings=table.settings)
    if table.settings.access_log != "off":  # outermost: it sees what the guard answers
        app.add_middleware(AccessLog, form=table.settings.access_log)
    return app


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a server (Ctrl+C, and a service manager's stop)."""


@contextlib.contextmanager
def _streams_end_on_stop(hub: Hub) -> Iterator[None]:
    """End the event streams as soon as the server is asked to stop, while the block runs.

    Uvicorn stops by closing its listening socket, then waits for the open responses (at
    most its graceful-shutdown timeout) and only then runs the lifespan's shutdown. An event
    stream never ends by itself: without this, every open stream would hold the stop for the
    whole timeout, then be cancelled and logged as an exception with its traceback. So the
    stop signals' handlers that the server installed in the main thread (Uvicorn's, while it
    serves) are chained: each signal still reaches the server's handler, and the event loop
    is asked to end the streams (`Hub.end_streams`), which finish their responses normally;
    browsers reconnect by themselves. The handlers are put back when the block ends.

    Nothing changes outside the main thread (a server run in a thread, a test client) or
    for a signal whose handler is not a Python function (ignored, or the system's default).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    loop = asyncio.get_running_loop()
    chained: dict[signal.Signals, Callable[[int, FrameType | None], object]] = {}
    for sig in STOP_SIGNALS:
        before = signal.getsignal(sig)
        if callable(before):
            chained[sig] = before

    def stopping(signum: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(hub.end_streams)
        chained[signal.Signals(signum)](signum, frame)

    for sig in chained:
        signal.signal(sig, stopping)
    try:
        yield
    finally:
        for sig, before in chained.items():
            if signal.getsignal(sig) is stopping:
                signal.signal(sig, before)


def _errors(app: FastAPI) -> None:
    @app.exception_handler(NotFound)
    async def not_found(request: Request, exc: NotFound) -> Response:
        metrics.refused("revoked" if exc.status == 403 else "not_found")
        if exc.status == 403:
            return error_page(403, "en", N_("Refused"), N_("This link no longer works."))
        return error_page(404, "en", N_("Not found"), N_("There is nothing here."))

    @app.exception_handler(BodyTooLarge)
    async def too_large(request: Request, exc: BodyTooLarge) -> Response:
        metrics.refused("too_large")
        return PlainTextResponse("Request too large", status_code=413)

    @app.exception_handler(404)
    async def missing(request: Request, exc: Exception) -> Response:
        return error_page(404, "en", N_("Not found"), N_("There is nothing here."))

    @app.exception_handler(405)
    async def method(request: Request, exc: Exception) -> Response:
        return error_page(405, "en", N_("Not allowed"), N_("This page cannot be used that way."))

    @app.exception_handler(RequestValidationError)
    @app.exception_handler(HTTPException)
    async def invalid(request: Request, exc: Exception) -> Response:
        # a malformed parameter or form (``after=abc``, too many fields): no JSON detail
        status = exc.status_code if isinstance(exc, HTTPException) else 400
        return error_page(
            status if 400 <= status < 500 else 400,
            "en",
            N_("Refused"),
            N_("This request is not valid."),
        )

    @app.exception_handler(StorageError)
    async def storage(request: Request, exc: Exception) -> Response:
        # the database does not answer, even after the store's retry: try again later
        metrics.refused("storage")
        page = error_page(
            503, "en", N_("Something went wrong"), N_("the table's storage failed; try again")
        )
        page.headers["Retry-After"] = "1"
        return page

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> Response:
        return error_page(
            500, "en", N_("Something went wrong"), N_("The server could not do that.")
        )
