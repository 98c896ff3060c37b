"""What the web table's routes share: the store, viewers, errors, form answers.

`WebTable` holds the store, the service, the hub, the server's secret and the log entries
rendered for the streams (`tablee.web.render.Fragments`); every store call goes through
`WebTable.run`. On SQLite it runs the call inline on the event loop: its calls take well
under a millisecond (a roll's transaction about 0.5 ms), and a hop to a worker thread costs
more than that under load (the thread waits for the interpreter lock while the loop works).
The event loop thus uses the one sqlite3 connection one call at a time, with no lock.
PostgreSQL on the same machine (a Unix socket or a loopback address) is run inline too: a
round trip there takes tens of microseconds, and the hop cost a third of a roll's CPU. A
database on another host, whose calls wait for the network, has each call run in a worker
thread, up to `STORE_THREADS` at once and with no global lock: the store's connection pool
serves concurrent calls, and the service's append retries when two writers race
(`runs_inline`, ``tablee serve --store-calls``). (A SQLite call
waits on the event loop only when another process holds the file's write lock: the
command line's writes last milliseconds.) The helpers read the link of a request, check the
anti-forgery token of a form and turn a refusal into its translated message, never a trace.

Source: docs/web.md, "Pages and routes" and "Security model"; docs/architecture.md, "Web hot
path".
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import FormData

from tablee.errors import N_, ConcurrencyError, InputError, StorageError, TableeError
from tablee.systems import game_ids
from tablee.table.events import COMMAND_KEY_MAX, StoredEvent, check_command_key
from tablee.table.links import hash_token
from tablee.table.projection import TableState, fold
from tablee.table.resilient import ResilientStore
from tablee.table.service import Applied, TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.table.store import EventStore, LinkInfo
from tablee.web import metrics
from tablee.web.access import Viewer, can_see, csrf_valid
from tablee.web.forms import posted_form
from tablee.web.guard import Settings
from tablee.web.hub import Hub
from tablee.web.joining import link_items
from tablee.web.presence import Presence
from tablee.web.render import (
    HIDDEN,
    Fragments,
    described,
    render,
    translator,
)
from tablee.web.systems import Action, Forbidden, web_system

if TYPE_CHECKING:
    from tablee.web.listen import Listener

__all__ = [
    "FORM_KEY",
    "HISTORY_THREADS",
    "KEEPALIVE_SECONDS",
    "KEY_SCOPE_CHARS",
    "ROLE_LABELS",
    "STORE_CALLS",
    "STORE_THREADS",
    "NotFound",
    "WebTable",
    "accept_language",
    "action_of",
    "applied_lines",
    "base_path",
    "checked_form",
    "error_page",
    "form_fields",
    "form_result",
    "holder_label",
    "lang_of",
    "new_form_key",
    "refusal",
    "runs_inline",
    "scoped_command_key",
    "server_secret",
    "shared_links",
    "system_choices",
    "system_title",
    "viewer_of",
]

T = TypeVar("T")
SECRET_KEY = "web_secret"
STORE_THREADS = 4
"""Worker threads running store calls at once on a store used from threads (PostgreSQL).

Measured on PostgreSQL with bench_web.py (150 rolls/s asked): 1 thread (a global lock)
82 rolls/s, 4 threads 100 - 107, 12 threads 89, 40 (anyio's default) 74 to 96: more
threads mostly wait for the interpreter lock and the connection pool."""
KEEPALIVE_SECONDS = 15.0
LINK_KEPT_SECONDS = 5.0
"""How long a working link read from PostgreSQL is kept, at most, while the listener
listens (`WebTable._found_link`); any revocation heard ends every kept link at once."""
LINKS_KEPT = 4096
"""How many links are kept at most (all are forgotten when the count is reached)."""
HISTORY_THREADS = 2
"""Worker threads folding whole logs and rendering log entries at once (`WebTable.off_loop`).

CPU work: more threads would only wait for the interpreter lock."""

ROLE_LABELS = {"gm": N_("game master"), "spectator": N_("spectator")}

KEY_SCOPE_CHARS = 16
"""How many hex digits of the link's token hash scope its keys (``api:<digits>:<key>``)."""
FORM_KEY = "form_key"
"""The hidden field of a table page's form holding its idempotency key."""


def scoped_command_key(origin: str, viewer: Viewer, sent: str) -> str:
    """The stored idempotency key of a command sent through one link.

    A key sent by one link never matches another link's, nor a key of another origin: the
    stored key is ``origin``, ``:``, the first `KEY_SCOPE_CHARS` hex digits of the link's
    token hash, ``:`` and the key sent.

    Args:
        origin: where the key came from: ``api`` (the JSON API's header) or ``form`` (a
            table page's form).
        viewer: the link's holder.
        sent: the key as sent.

    Raises:
        InputError: a key that is empty, longer than its share of `COMMAND_KEY_MAX`, or not
            printable ASCII.
    """
    scope = f"{origin}:{viewer.link.token_hash[:KEY_SCOPE_CHARS]}:"
    maximum = COMMAND_KEY_MAX - len(scope)
    if len(sent) > maximum:
        raise InputError(
            N_("{key!r} is not a command key: 1 to {maximum} printable ASCII characters"),
            key=sent,
            maximum=maximum,
        )
    return check_command_key(scope + check_command_key(sent))


def new_form_key() -> str:
    """A fresh idempotency key for a rendered form: 22 random URL-safe characters."""
    return secrets.token_urlsafe(16)


class NotFound(Exception):
    """A wrong or revoked link, or an unknown action: a plain refusal, no detail."""

    def __init__(self, status: int = 404) -> None:
        super().__init__(status)
        self.status = status


STORE_CALLS = ("auto", "inline", "threads")
"""Where a request's store calls may run (`Settings.store_calls`, `runs_inline`)."""

_LOCAL_HOSTS = frozenset({"", "localhost", "127.0.0.1", "::1"})


def runs_inline(store: EventStore, store_calls: str = "auto") -> bool:
    """Whether a request's store calls run on the event loop rather than in worker threads.

    ``inline`` and ``threads`` say so; ``auto`` (the default) runs them inline for SQLite
    and for PostgreSQL reached through a Unix socket or a loopback address, where a round
    trip takes some tens of microseconds, and in threads for a database on another host,
    where each wait for the network would hold every stream of the process. Inline, a
    roll on PostgreSQL costs the server about a third less CPU than through the threads
    (no hand-over between threads and the loop, no contention for the interpreter's lock;
    benchmarks/README.md, "Store calls on the event loop"). A whole log's first fold and
    the history pages run off the loop either way (`WebTable.off_loop`).

    Raises:
        ValueError: ``store_calls`` is not one of `STORE_CALLS`.
    """
    if store_calls not in STORE_CALLS:
        raise ValueError(f"store_calls must be one of {STORE_CALLS}, not {store_calls!r}")
    if store_calls != "auto":
        return store_calls == "inline"
    if isinstance(store, SqliteStore):
        return True
    conninfo = getattr(store, "conninfo", None)
    if not isinstance(conninfo, str):
        return False
    from psycopg.conninfo import conninfo_to_dict

    given = conninfo_to_dict(conninfo)
    hosts = str(given.get("hostaddr") or given.get("host") or "").split(",")
    return all(h.strip() in _LOCAL_HOSTS or h.strip().startswith("/") for h in hosts)


class WebTable:
    """The application's shared parts: the store, the service, the hub, who is there, the secret.

    Args:
        store: the event store (a `SqliteStore` is used inline on the event loop, any other
            store from worker threads; see the module docstring).
        settings: limits and options.
        clock: the service's clock.

    Attributes:
        inline: whether store calls run on the event loop (`runs_inline`).
        fragments: the stream messages rendered once and shared by a table's streams.
        entries: the log entries rendered for pages, kept (`tablee.web.history.Entries`).
        presence: the seats with an open stream (`tablee.web.presence`).
        listener: the LISTEN connection on PostgreSQL (`tablee.web.listen`), else None.
    """

    def __init__(
        self, store: EventStore, settings: Settings, clock: Callable[[], datetime] | None = None
    ) -> None:
        self.inline = runs_inline(store, settings.store_calls)
        self._sqlite = store if isinstance(store, SqliteStore) else None
        # one retry after a lost database connection; every call timed for the metrics
        store = ResilientStore(store, metrics.store_time)
        self.store: EventStore = store
        self.service = (
            TableService(store, remember_last=False)
            if clock is None
            else TableService(store, clock, remember_last=False)
        )
        self.settings = settings
        self._threads = anyio.CapacityLimiter(STORE_THREADS)
        self.fragments = Fragments()
        self._history_threads = anyio.CapacityLimiter(HISTORY_THREADS)
        self._folds: dict[str, asyncio.Lock] = {}
        self._reader: SqliteStore | None = None
        self._reader_lock = threading.Lock()
        from tablee.web.history import Entries

        self.entries = Entries()
        self.hub = Hub(self._last_seq, settings.poll_interval)
        self.presence = Presence(self.hub.notify)
        self.secret = self._secret()
        self._names: dict[str, str] = {}
        self._langs: dict[str, str] = {}
        self._states: dict[str, TableState[Any]] = {}
        self._state_locks: dict[str, asyncio.Lock] = {}
        self.listener: Listener | None = None  # set by the application on PostgreSQL
        self._kept_links: dict[str, tuple[tuple[int, int], float, LinkInfo]] = {}

    def _secret(self) -> bytes:
        """The server's secret for anti-forgery tokens, made once and kept in the store."""
        return server_secret(self.store)

    async def run(self, work: Callable[[], T]) -> T:
        """Run store work: inline on the event loop or in a worker thread (`runs_inline`).

        Args:
            work: a function calling the store or the service (short: one command or read).

        Returns:
            What ``work`` returns; its exceptions propagate.
        """
        if self.inline:
            return work()
        return await anyio.to_thread.run_sync(work, limiter=self._threads)

    async def off_loop(self, work: Callable[[], T]) -> T:
        """Run CPU work (a whole fold, many log entries) in a worker thread, off the loop.

        At most `HISTORY_THREADS` such calls run at once; the others wait their turn.
        ``work`` must not use the store's connection on SQLite (see `whole_state`).
        """
        return await anyio.to_thread.run_sync(work, limiter=self._history_threads)

    async def whole_state(self, table_id: str, name: str) -> TableState[Any]:
        """The table folded from its whole log, the first fold made off the event loop.

        Once this process keeps a whole fold of the table (`TableService.holds_whole`), it
        is extended by the events stored since, as `TableService.state` does (cheap). The
        first fold of a long log (a 30,000-event table: seconds) is made in a worker thread
        (`off_loop`), reading the log through a connection of its own on SQLite (the
        store's is the event loop's), and requests for the same table wait for that one
        fold instead of each making their own.

        Raises:
            StorageError: as `tablee.table.projection.fold`.
        """
        if not self.service.holds_whole(table_id):
            lock = self._folds.setdefault(table_id, asyncio.Lock())
            async with lock:
                if not self.service.holds_whole(table_id):
                    folded = await self.off_loop(lambda: fold(self._read_log(table_id)))
                    self.service.adopt(folded)
        return await self.run(lambda: self.service.state(name))

    def _read_log(self, table_id: str) -> list[StoredEvent]:
        """A table's whole log, read in a worker thread (`whole_state`)."""
        if self._sqlite is None:
            return self.store.load(table_id)
        with self._reader_lock:  # one reading thread at a time on this connection
            if self._reader is None:
                self._reader = SqliteStore(self._sqlite.path)
            return self._reader.load(table_id)

    def close(self) -> None:
        """Close what the web table opened itself (the reading connection on SQLite)."""
        with self._reader_lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None

    async def fresh_state(self, table_id: str, name: str) -> TableState[Any]:
        """The table's state for the streams, read once per change for all of them.

        The state is read again only when the hub knows of a later event than the one
        cached, so the table's streams share one read of the store per change.
        """
        lock = self._state_locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            cached = self._states.get(table_id)
            if cached is None or cached.last_seq < self.hub.known(table_id):
                known = self.known_state(table_id)
                if known is None:
                    known = await self.whole_state(table_id, name)
                cached = self._states[table_id] = known
            return cached

    def told(self, table_id: str, rows_json: str) -> None:
        """Keep the events a notification of the database carried (call from the loop).

        On PostgreSQL, an append's notification carries the rows it stored
        (`tablee.table.pg_store.notice`); when they directly follow the state this process
        keeps of a watched table, the service's state is extended by them
        (`TableService.heard`), so that the streams the hub then wakes, and the next roll
        posted here, find the table current without reading the store. Anything else
        (a table not watched here, events not following, store calls in worker threads,
        which could be extending the same state) is left to the usual read.

        Args:
            table_id: the table the notification names.
            rows_json: the payload after its first line.
        """
        if not self.inline or not self.hub.watched(table_id):
            return
        held = self.service.cached(table_id)
        take = getattr(self.store, "told", None)
        if held is None or take is None:
            return
        events = take(table_id, held.last_seq, rows_json)
        if events:
            self.service.heard(events)

    def known_state(self, table_id: str) -> TableState[Any] | None:
        """The service's state of a watched table when it holds every event the hub knows of.

        A roll made here leaves the service holding the state after it, and the hub knows of
        every event stored by another process as soon as the database tells (on PostgreSQL)
        or the poller sees it: then no store call is needed. None when the table has no open
        stream here (the hub then knows nothing of it) or the state is behind.
        """
        state = self.service.cached(table_id)
        if state is None or not self.hub.watched(table_id):
            return None
        return state if state.last_seq >= self.hub.known(table_id) else None

    def _found_link(self, token_hash: str) -> LinkInfo | None:
        """The link with that token hash, kept for a few seconds while revocations are heard.

        On PostgreSQL, while the listener listens, every revocation by any process reaches
        this one at once (``tablee_links``, `Hub.links_changed`): a working link found is
        then kept for `LINK_KEPT_SECONDS`, until any link is revoked, or until the listener
        loses its connection, whichever comes first, so that a table's requests do not
        each read their link again (one round trip less per roll). Unknown and revoked
        tokens are always read; without a listener (SQLite, whose reads take microseconds
        and whose other writers tell nothing) every link is read.
        """
        basis = self._links_basis()
        if basis is not None:
            kept = self._kept_links.get(token_hash)
            if kept is not None and kept[0] == basis and kept[1] > time.monotonic():
                return kept[2]
        link = self.store.find_link(token_hash)
        if basis is not None and link is not None and link.revoked_at is None:
            if len(self._kept_links) >= LINKS_KEPT:
                self._kept_links.clear()
            self._kept_links[token_hash] = (basis, time.monotonic() + LINK_KEPT_SECONDS, link)
        return link

    def _links_basis(self) -> tuple[int, int] | None:
        """What a kept link depends on, or None when links must not be kept (see above)."""
        listener = self.listener
        if listener is None or not listener.listening.is_set():
            return None
        return listener.connections, self.hub.revocations

    async def link_works(self, link: LinkInfo) -> bool:
        """Whether a link is still stored and not revoked."""
        found = await self.run(lambda: self.store.find_link(link.token_hash))
        return found is not None and found.revoked_at is None

    async def _last_seq(self, table_id: str, known: int) -> int:
        events = await self.run(lambda: self.store.load(table_id, after_seq=known))
        return events[-1].seq if events else known

    def table_name(self, table_id: str) -> str:
        """The name of the table with that id (cached: names never change)."""
        if table_id not in self._names:
            self._names = {t.id: t.name for t in self.store.tables()}
        return self._names[table_id]

    def viewer(self, token: str, lang: str | None) -> Viewer:
        """The holder of a link token (call through `run`).

        Raises:
            NotFound: unknown token (404) or revoked link (403).
        """
        if not 20 <= len(token) <= 100:
            raise NotFound()
        link = self._found_link(hash_token(token))
        if link is None:
            raise NotFound()
        if link.revoked_at is not None:
            raise NotFound(403)
        name = self.table_name(link.table_id)
        if lang not in ("fr", "en"):
            lang = self._langs.get(link.table_id)
            if lang is None:  # a table's language is set when it is created, never changed
                lang = self._langs[link.table_id] = self.service.latest(name).lang
        return Viewer(link, name, lang)


def server_secret(store: EventStore) -> bytes:
    """The server's secret for anti-forgery tokens: made once, kept in the store's preferences.

    Every server process on one store shares it (``tablee serve --workers`` makes it before
    starting its processes, so that they do not each make their own).

    Returns:
        32 random bytes, the same for every call on the same store.
    """
    value = store.get_preference(SECRET_KEY)
    if value is None:
        value = secrets.token_hex(32)
        store.set_preference(SECRET_KEY, value)
    return bytes.fromhex(value)


def error_page(status: int, lang: str, title: str, message: str) -> HTMLResponse:
    """A plain page for a refusal or a failure: a title and one sentence, both translated."""
    tr = translator(lang)
    html = render("error.html", lang, title=tr(title), message=tr(message))
    return HTMLResponse(html, status_code=status)


def refusal(exc: Exception, lang: str, count: bool = True) -> tuple[int, str]:
    """The status and the translated message of a refusal (never a trace or a path).

    A storage failure (the database does not answer, even after the store's one retry) is
    503: the request may be sent again. ``count``: add it to the refusals' metric (not for
    the odds shown while a form is filled in).
    """
    status, kind = _refusal_kind(exc)
    if count:
        metrics.refused(kind)
    tr = translator(lang)
    if isinstance(exc, StorageError):
        return status, tr(N_("the table's storage failed; try again"))
    assert isinstance(exc, TableeError | Forbidden)
    return status, exc.render(tr)


def _refusal_kind(exc: Exception) -> tuple[int, str]:
    if isinstance(exc, Forbidden):
        return 403, "forbidden"
    if isinstance(exc, StorageError):
        return 503, "storage"
    if isinstance(exc, ConcurrencyError):
        return 409, "concurrency"
    if isinstance(exc, InputError):
        return 422, "input"
    return 409, "rules"


def lang_of(request: Request) -> str | None:
    """The language asked for by ``?lang=`` or kept in the link's cookie, else None."""
    lang = request.query_params.get("lang") or request.cookies.get("tablee_lang")
    return lang if lang in ("fr", "en") else None


async def viewer_of(table: WebTable, request: Request, token: str) -> Viewer:
    """The holder of the request's link (raises `NotFound` for a wrong or revoked one)."""
    lang = lang_of(request)
    return await table.run(lambda: table.viewer(token, lang))


async def checked_form(table: WebTable, request: Request, viewer: Viewer) -> FormData:
    """The posted form (`posted_form`) once its anti-forgery token is the link's.

    Raises:
        Forbidden: a missing or wrong anti-forgery token.
    """
    form = await posted_form(request)
    given = form.get("csrf")
    if not csrf_valid(table.secret, viewer.link, given if isinstance(given, str) else None):
        raise Forbidden(N_("this form has expired: reload the page"))
    return form


def form_fields(form: FormData) -> dict[str, str]:
    """The text fields of a form (uploaded files are ignored)."""
    return {k: v for k, v in form.items() if isinstance(v, str)}


def action_of(state: TableState[Any], action_id: str) -> Action:
    """The action of the table's system with that id (raises `NotFound` if none)."""
    web = web_system(state.system.id)
    if web is not None:
        for action in web.actions():
            if action.id == action_id:
                return action
    raise NotFound()


def applied_lines(applied: Applied[Any], viewer: Viewer) -> tuple[list[str], list[str]]:
    """The log lines and the warnings of a command just stored, in the viewer's language.

    An event the viewer may not see (a follow-up of a blind roll) is told as the log tells
    it to them, and the warnings are then left out: they may name its values.
    """
    tr = translator(viewer.lang)
    lines = [
        described(e, applied.state, viewer.lang)  # made once for the streams' entries too
        if can_see(viewer, e)
        else tr(HIDDEN.get(e.visibility, HIDDEN["gm"]))
        for e in applied.events
    ]
    if not all(can_see(viewer, e) for e in applied.events):
        return lines, []
    warnings = getattr(applied.decision, "warnings", ())
    return lines, [w.render(tr) for w in warnings]


def form_result(request: Request, viewer: Viewer, status: int = 200, **context: Any) -> Response:
    """The answer to a form: a fragment for htmx; without script, the page again or an error.

    After a success, ``form_id`` and ``form_key`` give the form's next idempotency key: the
    fragment replaces the form's hidden key field with it (an out-of-band swap).
    """
    if "hx-request" not in request.headers:
        if context.get("error"):
            return error_page(status, viewer.lang, N_("Refused"), str(context["error"]))
        return RedirectResponse(base_path(request.path_params["token"]), status_code=303)
    context.setdefault("error", None)
    context.setdefault("lines", [])
    context.setdefault("warnings", [])
    context.setdefault("form_id", None)
    context.setdefault("form_key", None)
    return HTMLResponse(render("_result.html", viewer.lang, **context), status_code=status)


def base_path(token: str) -> str:
    """The path of a link's table page, ``/t/TOKEN``."""
    return f"/t/{token}"


def accept_language(request: Request) -> str:
    """French when the browser asks for it first, else English."""
    return "fr" if request.headers.get("accept-language", "").lower().startswith("fr") else "en"


def holder_label(tr: Callable[[str], str], link: LinkInfo) -> str:
    """Who holds a link, in words: the game master, player NAME, a spectator."""
    if link.role == "player":
        return tr("player {name}").format(name=link.player)
    return tr(ROLE_LABELS[link.role])


def system_title(system_id: str) -> str:
    """A system's name as its web module gives it (its id when it has none)."""
    web = web_system(system_id)
    return system_id if web is None else web.title


def system_choices() -> list[tuple[str, str]]:
    """The systems a table can be created for in the browser: ``(id, name)``."""
    return [(s, system_title(s)) for s in game_ids() if web_system(s) is not None]


def shared_links(
    table: WebTable,
    request: Request,
    links: list[tuple[LinkInfo, str]],
    tr: Callable[[str], str],
) -> tuple[list[dict[str, Any]], bool]:
    """New links as the links page shows them, each with its address and QR code.

    Args:
        links: each link made, with its token (shown this once).

    Returns:
        See `tablee.web.joining.link_items`.
    """
    return link_items(
        [(holder_label(tr, info), base_path(token)) for info, token in links],
        str(request.base_url),
        table.settings.base_url,
        table.settings.lan_urls,
        lambda label: tr("QR code of the link for {holder}").format(holder=label),
    )
