"""``tablee serve``: the live web table with Uvicorn, on the same store as the command line.

FastAPI, Uvicorn and Jinja2 are imported only when this command runs, so a roll at the
command line never pays for them. Uvicorn runs on uvloop and parses HTTP with httptools when
they are installed (they are dependencies on Linux; elsewhere it falls back to asyncio and
h11 by itself).

``--workers N`` runs N server processes on one port (Uvicorn's process manager); it needs
PostgreSQL, whose LISTEN/NOTIFY carries a roll made in one process to the streams of every
other process at once (`tablee.web.listen`). On SQLite it is refused: another process's
events would reach a stream only at the next poll (up to a second later), and each process
would wait on the others' write locks with its event loop blocked.

Source: docs/web.md, "Security model" (set a graceful-shutdown timeout: open
event streams would otherwise hold a restart), "Fan-out".
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.errors import N_, InputError

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["GRACEFUL_SHUTDOWN_SECONDS", "WORKER_ENV", "add_parser", "cmd_serve", "worker_app"]

Tr = Callable[[str], str]

GRACEFUL_SHUTDOWN_SECONDS = 3
"""How long a stopping server waits for open requests and streams before closing them."""

WORKER_ENV = "TABLEE_SERVE_WORKER"
"""How ``tablee serve --workers`` hands its settings to its processes (JSON; set by it)."""


def cmd_serve(ctx: Context) -> int:
    """``tablee serve [--host H] [--port P] [--db PATH|URL] [--workers N]``: run the web table.

    Raises:
        InputError: ``--workers`` above 1 on a SQLite store.
    """
    import uvicorn

    from tablee.web import Settings, create_app, server_secret

    a = ctx.args
    store = ctx.service.store
    settings = Settings(trusted_origins=tuple(a.trusted_origin or ()), allow_create=not a.no_create)
    options: dict[str, Any] = {
        "host": a.host,
        "port": a.port,
        "loop": "auto",  # uvloop when installed
        "http": "auto",  # httptools when installed
        "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_SECONDS,
        "proxy_headers": a.proxy_headers,
        "forwarded_allow_ips": "127.0.0.1" if a.proxy_headers else None,
        "log_level": "warning",
        "server_header": False,
    }
    where = f"http://{a.host}:{a.port}/"
    serving = ctx.tr("Tablée serves on {url} (Ctrl+C stops it).").format(url=where)
    others = _reachable_at(a.host, a.port)
    if others:
        serving += "\n" + ctx.tr("Other devices reach it at {urls}").format(urls=", ".join(others))
    if a.workers > 1:
        url = _shared_url(store, a.workers)
        server_secret(store)  # made once here, not by each process at the same time
        os.environ[WORKER_ENV] = json.dumps(
            {"db": url, "trusted": list(settings.trusted_origins), "create": settings.allow_create}
        )
        ctx.emit(serving, markup=False)
        uvicorn.run(f"{__name__}:worker_app", factory=True, workers=a.workers, **options)
        return 0
    app = create_app(store, settings)
    ctx.emit(serving, markup=False)
    uvicorn.Server(uvicorn.Config(app, workers=1, **options)).run()
    return 0


def _shared_url(store: Any, workers: int) -> str:
    """The database URL the worker processes open: PostgreSQL only (see the module docstring).

    Raises:
        InputError: the store is not PostgreSQL.
    """
    url = getattr(store, "url", None)
    if not isinstance(url, str) or not url.startswith("postgresql"):
        raise InputError(
            N_("--workers {workers} needs PostgreSQL: on SQLite a table is served by one process"),
            tip=N_("leave out --workers, or pass --db postgresql://..."),
            workers=workers,
        )
    return url


def worker_app() -> FastAPI:
    """The application of one ``tablee serve --workers`` process (Uvicorn calls it in each).

    Opens its own store from the settings `cmd_serve` put in `WORKER_ENV`.
    """
    from tablee.table.connect import open_store
    from tablee.web import Settings, create_app

    given = json.loads(os.environ[WORKER_ENV])
    settings = Settings(trusted_origins=tuple(given["trusted"]), allow_create=given["create"])
    return create_app(open_store(given["db"]), settings)


def add_parser(sub: Any, tr: Tr) -> None:
    """Add ``tablee serve`` to the top-level subparsers."""
    p = sub.add_parser("serve", help=tr("run the live web table"))
    p.add_argument("--host", default="127.0.0.1", help=tr("address to listen on"))
    p.add_argument(
        "--port", type=whole_number(tr), default=8000, help=tr("port to listen on (default 8000)")
    )
    p.add_argument(
        "--workers",
        type=whole_number(tr),
        default=1,
        help=tr("server processes (default 1; more than 1 needs PostgreSQL)"),
    )
    p.add_argument(
        "--proxy-headers",
        action="store_true",
        help=tr("behind a reverse proxy on this machine: trust its X-Forwarded-* headers"),
    )
    p.add_argument(
        "--trusted-origin",
        action="append",
        metavar="URL",
        help=tr("an origin the proxy serves the table from, e.g. https://table.example"),
    )
    p.add_argument(
        "--no-create",
        action="store_true",
        help=tr("do not let visitors create tables (make them with 'tablee table new')"),
    )
    add_common(p, tr, table=False)
    p.set_defaults(handler=cmd_serve)


def _reachable_at(host: str, port: int) -> list[str]:
    """The addresses other devices may use when listening on every interface (0.0.0.0, ::).

    Read from this machine's host name, without any network traffic; empty when listening on
    one address (then that address is the one to use) or when none is found.
    """
    if host not in ("0.0.0.0", "::", ""):
        return []
    import socket

    try:
        names = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return []
    return [f"http://{ip}:{port}/" for ip in sorted(set(names)) if not ip.startswith("127.")]
