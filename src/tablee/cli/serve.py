"""``tablee serve``: the live web table with Uvicorn, on the same store as the command line.

FastAPI, Uvicorn and Jinja2 are imported only when this command runs, so a roll at the
command line never pays for them.

Source: issue 6 point 1; DESIGN.md "Web" (set a graceful-shutdown timeout: open event
streams would otherwise hold a restart).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablee.cli.app import Context, add_common, whole_number

__all__ = ["GRACEFUL_SHUTDOWN_SECONDS", "add_parser", "cmd_serve"]

Tr = Callable[[str], str]

GRACEFUL_SHUTDOWN_SECONDS = 3
"""How long a stopping server waits for open requests and streams before closing them."""


def cmd_serve(ctx: Context) -> int:
    """``tablee serve [--host H] [--port P] [--db PATH|URL]``: run the web table."""
    import uvicorn

    from tablee.web import Settings, create_app

    a = ctx.args
    store = ctx.service.store
    settings = Settings(trusted_origins=tuple(a.trusted_origin or ()), allow_create=not a.no_create)
    app = create_app(store, settings)
    where = f"http://{a.host}:{a.port}/"
    ctx.emit(ctx.tr("Tablée serves on {url} (Ctrl+C stops it).").format(url=where), markup=False)
    config = uvicorn.Config(
        app,
        host=a.host,
        port=a.port,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        proxy_headers=a.proxy_headers,
        forwarded_allow_ips="127.0.0.1" if a.proxy_headers else None,
        log_level="warning",
        server_header=False,
    )
    uvicorn.Server(config).run()
    return 0


def add_parser(sub: Any, tr: Tr) -> None:
    """Add ``tablee serve`` to the top-level subparsers."""
    p = sub.add_parser("serve", help=tr("run the live web table"))
    p.add_argument("--host", default="127.0.0.1", help=tr("address to listen on"))
    p.add_argument(
        "--port", type=whole_number(tr), default=8000, help=tr("port to listen on (default 8000)")
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
