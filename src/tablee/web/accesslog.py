"""Access logs: one line per request, never a link token nor anything a request carried.

``tablee serve --access-log json`` writes one JSON object per line to standard error, when
the response ends (an event stream when it closes)::

    {"time": "2026-12-02T01:02:03.456Z", "client": "203.0.113.9", "method": "GET",
     "path": "/t/~3fa2c1d0/stream", "status": 200, "ms": 1234.5, "bytes": 5120}

``text`` writes the same fields as one plain line; ``off`` (the default) writes nothing.

* ``path``: the route's path without its query string; a link token is replaced by ``~``
  and the first 8 hex digits of a SHA-256 of it (`redact_path`): the same for every request
  of one link, so an operator can follow a link's requests, but no link can be rebuilt from
  it. Bodies, forms, cookies, headers and queries (where a hidden value may travel) are
  never written.
* ``client``: the client's address as Uvicorn has it (the real one behind a proxy with
  ``--proxy-headers``).
* ``ms``: from the request's start to the response's end; ``bytes``: the body sent.

Source: docs/hosting.md, "Logs".
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from datetime import UTC, datetime
from typing import Any

__all__ = ["FORMATS", "AccessLog", "access_logger", "redact_path"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

FORMATS = ("json", "text", "off")
"""The values of ``tablee serve --access-log``."""

LOGGER = "tablee.access"
"""The name of the logger the lines go to."""


def redact_path(path: str) -> str:
    """The path as logged: a link token replaced by ``~`` and 8 hex digits of its SHA-256.

    Args:
        path: the request's path, without its query (``/t/TOKEN/act/roll``).

    Returns:
        ``/t/~3fa2c1d0/act/roll``; any path outside ``/t/`` unchanged.
    """
    if not path.startswith("/t/"):
        return path
    token, slash, rest = path[3:].partition("/")
    digest = hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()[:8]
    return f"/t/~{digest}{slash}{rest}"


def access_logger() -> logging.Logger:
    """The access log's logger, writing bare lines to standard error (set up once)."""
    logger = logging.getLogger(LOGGER)
    logger.setLevel(logging.INFO)
    if not any(getattr(h, "tablee_access", False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        handler.tablee_access = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logger.propagate = False
    return logger


class AccessLog:
    """The middleware writing one line per request (see the module docstring).

    Args:
        app: the wrapped ASGI application.
        form: ``json`` or ``text``.
        logger: where the lines go (default: `access_logger`).
    """

    def __init__(self, app: ASGIApp, form: str, logger: logging.Logger | None = None) -> None:
        self.app = app
        self.form = form
        self.logger = logger or access_logger()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, counting the body sent; write the line when it ends."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        status = 0
        sent = 0

        async def counting(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = int(message.get("status", 0))
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, counting)
        finally:
            self._write(scope, status or 500, sent, time.perf_counter() - began)

    def _write(self, scope: Scope, status: int, sent: int, seconds: float) -> None:
        client = scope.get("client") or ("-", 0)
        fields = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "client": str(client[0]),
            "method": str(scope.get("method", "")),
            "path": redact_path(str(scope.get("path", ""))),
            "status": status,
            "ms": round(seconds * 1000, 1),
            "bytes": sent,
        }
        if self.form == "json":
            self.logger.info(json.dumps(fields, ensure_ascii=False))
        else:  # a control character typed in a path must not start a line of its own
            fields["path"] = str(fields["path"]).encode("unicode_escape").decode("ascii")
            self.logger.info(
                "%(time)s %(client)s %(method)s %(path)s %(status)s %(ms)sms %(bytes)sB", fields
            )
