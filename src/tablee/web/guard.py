"""The web table's outer guard: security headers, request size, rate, cross-site posts.

One pure ASGI middleware (it wraps streaming responses without buffering them):

* every response gets a Content-Security-Policy without inline scripts or styles,
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` (link tokens sit in
  URLs and must not leak to other sites), ``X-Frame-Options: DENY``; pages under ``/t/``
  are never cached;
* a request body larger than `Settings.max_body` bytes is refused with 413, whether it
  announces its length or not;
* requests other than static files (event streams included) are counted per link (or per
  client address outside a table) with the maintained ``limits`` package, in fixed windows
  (the cheapest of its strategies: a counter per key and window; a client may get up to
  twice a limit across the boundary of two windows); past `Settings.rate_limit` they get
  429 (the counters live in the process: `SweptMemory`, with no timer thread). Only failed
  guesses are counted per client address: requests for a table that answer 404 (a made-up
  token). Past the same limit, that address gets 429 for the
  limit's window on every token this process has not seen working, so guessing tokens
  with a new one each time is slowed down like everything else; a token that answered
  without error here (kept among the last `KNOWN_TOKENS`) still goes through, so the
  players of a group sharing one address (a NAT, a café's Wi-Fi) keep their table while
  someone there guesses;
* at most `Settings.max_streams` event streams are open at once per link (429 past it);
* a POST whose ``Origin`` is another site, or whose ``Sec-Fetch-Site`` says cross-site, is
  refused with 403 before it reaches a route (the forms' anti-forgery token is checked by
  the routes).

Source: docs/web.md, "Security model".
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from tablee.web import metrics

__all__ = ["CSP", "KNOWN_TOKENS", "SWEEP_SECONDS", "Guard", "Settings", "SweptMemory"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "object-src 'none'"
)
"""The Content-Security-Policy of every response: no inline script or style anywhere."""

KNOWN_TOKENS = 10_000
"""Tokens remembered as working (answered below 400), let through an address's guessing
lockout; the oldest is forgotten past this many."""


@dataclass(frozen=True)
class Settings:
    """The web table's limits.

    Attributes:
        max_body: largest request body accepted, in bytes.
        rate_limit: requests allowed per link (or client address), in the ``limits``
            notation (``"20/second;300/minute"``). The default lets a person reload a
            table's page several times within a second: each load makes about 8 requests
            (the page, its stream, the odds of each form), and 30 a second refused the
            odds of the fourth quick reload (the language switched back and forth).
        poll_interval: seconds between two checks of the store for events written by
            another process.
        trusted_origins: origins (``https://table.example``) also accepted on POSTs, for a
            server behind a reverse proxy that changes the ``Host`` header.
        allow_create: whether the home page may create tables.
        max_streams: event streams open at once per link (browser tabs of one person).
        base_url: the address the group reaches the server at (``tablee serve --base-url``),
            put in the links and QR codes given to players; None: see `tablee.web.joining`.
        lan_urls: the local network addresses of a server listening on every interface
            (``tablee serve --host 0.0.0.0``), for the QR codes when no other fits.
        access_log: ``json``, ``text`` or ``off`` (`tablee.web.accesslog`).
        lab: serve the designer's lab pages (``/lab``, `tablee.web.lab`); False
            (``tablee serve --no-lab``): they answer 404.
        store_calls: where a request's store calls run (``tablee serve --store-calls``):
            ``inline`` on the event loop, ``threads`` in a few worker threads, or ``auto``
            (`tablee.web.common.runs_inline`): inline for SQLite and for PostgreSQL on
            this machine, in threads for a database on another host.
    """

    max_body: int = 64 * 1024
    rate_limit: str = "60/second;600/minute"
    poll_interval: float = 1.0
    trusted_origins: tuple[str, ...] = ()
    allow_create: bool = True
    max_streams: int = 20
    base_url: str | None = None
    lan_urls: tuple[str, ...] = ()
    access_log: str = "off"
    lab: bool = True
    store_calls: str = "auto"


_KINDS = {413: "too_large", 403: "cross_site", 429: "rate"}
"""The refusals' metric kind of each status the guard answers with."""


SWEEP_SECONDS = 10.0
"""How often the guard drops the rate counters whose window has ended, in seconds."""


class SweptMemory(MemoryStorage):
    """The ``limits`` package's in-memory counters, with expired ones dropped by `sweep`.

    ``limits``' `MemoryStorage` drops expired counters from a `threading.Timer` that it
    starts again on the next count once the last one has run (10 ms later): under load, a
    new thread every 10 ms, each start blocking the event loop until the thread runs, and
    the thread then competing with the loop for the interpreter. Here no timer is started
    after the first (made by `MemoryStorage` itself); a counter read after its window has
    ended is dropped as before (`MemoryStorage.get`), and `sweep`, called by the guard every
    `SWEEP_SECONDS`, drops the counters nobody read again, so memory stays bounded.
    """

    def _MemoryStorage__schedule_expiry(self) -> None:
        """Start no timer thread (see the class docstring)."""

    def sweep(self) -> None:
        """Drop every counter whose window has ended."""
        for key in list(self.expirations):
            self.get(key)  # drops the counter when its window has ended


_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class Guard:
    """The middleware (see the module docstring).

    Args:
        app: the wrapped ASGI application.
        settings: the limits.
    """

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self._limits = [parse(item) for item in settings.rate_limit.split(";") if item.strip()]
        self._counters = SweptMemory()
        self._limiter = FixedWindowRateLimiter(self._counters)
        self._next_sweep = time.monotonic() + SWEEP_SECONDS
        self._streams: dict[str, int] = {}
        self._known: dict[str, None] = {}  # working link keys, oldest first

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, then pass it on with the headers added to the response."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self._refusal(scope, path, headers)
        if refusal is not None:
            metrics.refused(_KINDS[refusal[0]])
            await _plain(send, *refusal)
            return
        if path.startswith("/t/") and path.endswith("/stream"):
            key = _rate_key(scope, path)
            if self._streams.get(key, 0) >= self.settings.max_streams:
                metrics.refused("streams")
                await _plain(send, 429, "Too many requests")
                return
            self._streams[key] = self._streams.get(key, 0) + 1
            try:
                await self._pass(scope, receive, send, path)
            finally:
                self._streams[key] -= 1
                if not self._streams[key]:
                    del self._streams[key]
            return
        await self._pass(scope, receive, send, path)

    async def _pass(self, scope: Scope, receive: Receive, send: Send, path: str) -> None:
        await self.app(scope, self._limited(receive, send), self._with_headers(send, scope, path))

    def _refusal(self, scope: Scope, path: str, headers: dict[str, str]) -> tuple[int, str] | None:
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.settings.max_body:
            return 413, "Request too large"
        if scope["method"] == "POST" and not self._same_origin(headers):
            return 403, "Forbidden"
        if not path.startswith("/static/"):
            key = _rate_key(scope, path)
            if time.monotonic() >= self._next_sweep:
                self._counters.sweep()
                self._next_sweep = time.monotonic() + SWEEP_SECONDS
            if (
                path.startswith("/t/")
                and key not in self._known
                and not all(self._limiter.test(item, _miss_key(scope)) for item in self._limits)
            ):
                return 429, "Too many requests"  # this address made up too many tokens
            if not all(self._limiter.hit(item, key) for item in self._limits):
                return 429, "Too many requests"
        return None

    def _same_origin(self, headers: dict[str, str]) -> bool:
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return False
        origin = headers.get("origin")
        if origin is None or origin in self.settings.trusted_origins:
            return True
        if origin == "null":
            # Our pages send `Referrer-Policy: no-referrer`, so browsers send `Origin: null`
            # on their own POSTs; the browser-set Sec-Fetch-Site then tells where it came from.
            return headers.get("sec-fetch-site") == "same-origin"
        return urlsplit(origin).netloc.lower() == headers.get("host", "").lower()

    def _limited(self, receive: Receive, send: Send) -> Receive:
        """Count the body as it arrives; past the limit, answer 413 and end the request."""
        seen = 0
        limit = self.settings.max_body

        async def wrapped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge()
            return message

        return wrapped

    def _with_headers(self, send: Send, scope: Scope, path: str) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                if path.startswith("/t/"):
                    self._learn(scope, path, message.get("status", 500))
                extra = list(_HEADERS)
                if path.startswith("/t/"):
                    extra.append((b"cache-control", b"no-store"))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        return wrapped

    def _learn(self, scope: Scope, path: str, status: int) -> None:
        """Count a made-up token against its address; remember a working one."""
        key = _rate_key(scope, path)
        if status == 404:
            miss = _miss_key(scope)
            for item in self._limits:
                self._limiter.hit(item, miss)
        elif status < 400 and key not in self._known:
            # a revoked link stays known: the routes refuse it, which is no guess
            self._known[key] = None
            if len(self._known) > KNOWN_TOKENS:
                del self._known[next(iter(self._known))]


class BodyTooLarge(Exception):
    """A request body grew past the limit while it was read (answered with 413)."""


def _rate_key(scope: Scope, path: str) -> str:
    parts = path.split("/")
    if len(parts) > 2 and parts[1] == "t" and parts[2]:
        return "link:" + parts[2]
    client = scope.get("client") or ("?", 0)
    return "addr:" + str(client[0])


def _miss_key(scope: Scope) -> str:
    client = scope.get("client") or ("?", 0)
    return "miss:" + str(client[0])


async def _plain(send: Send, status: int, text: str) -> None:
    body = text.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), *_HEADERS]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
