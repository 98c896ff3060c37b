"""``tablee serve``: the live web table with Uvicorn, on the same store as the command line.

FastAPI, Uvicorn and Jinja2 are imported only when this command runs, so a roll at the
command line never pays for them. Uvicorn runs on uvloop and parses HTTP with httptools when
they are installed (they are dependencies on Linux; elsewhere it falls back to asyncio and
h11 by itself).

``--metrics [HOST:]PORT`` serves Prometheus metrics on a separate address (loopback unless a
host is given; `tablee.web.metrics`), ``--access-log json|text|off`` writes one line per
request (`tablee.web.accesslog`).

``--workers N`` runs N server processes on one port (Uvicorn's process manager); it needs
PostgreSQL, whose LISTEN/NOTIFY carries a roll made in one process to the streams of every
other process at once (`tablee.web.listen`). On SQLite it is refused: another process's
events would reach a stream only at the next poll (up to a second later), and each process
would wait on the others' write locks with its event loop blocked. Each worker stops by
itself when the master process is gone, even killed at once (`exit_with_parent`): no worker
is left serving the port.

Source: docs/web.md, "Security model" (set a graceful-shutdown timeout: open
event streams would otherwise hold a restart), "Fan-out".
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import gc
import json
import os
import signal
import socket
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.errors import N_, InputError

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = [
    "GRACEFUL_SHUTDOWN_SECONDS",
    "WORKER_ENV",
    "add_parser",
    "base_url",
    "cmd_serve",
    "exit_with_parent",
    "listening_socket",
    "metrics_address",
    "port_number",
    "worker_app",
]

Tr = Callable[[str], str]

GRACEFUL_SHUTDOWN_SECONDS = 3
"""How long a stopping server waits for open requests and streams before closing them."""

WORKER_ENV = "TABLEE_SERVE_WORKER"
"""How ``tablee serve --workers`` hands its settings to its processes (JSON; set by it)."""


def cmd_serve(ctx: Context) -> int:
    """``tablee serve [--host H] [--port P] [--base-url URL] [--db PATH|URL] [--workers N]``.

    Runs the live web table. ``--base-url`` (else a local network address listed for
    ``--host 0.0.0.0``) is the address put in the links and QR codes players join with
    (`tablee.web.joining`).

    The listening socket is made here, before anything is announced: a port in use (or an
    address this machine cannot listen on) is an error, and "serves on" names the port
    actually listened on (the free one picked for ``--port 0``). Uvicorn then serves on that
    socket (its worker processes share it with ``--workers``).

    Ctrl+C (SIGINT) or SIGTERM stops the server gracefully: the event streams end at once,
    other requests get `GRACEFUL_SHUTDOWN_SECONDS`; the command then returns 0, without a
    traceback.

    Returns:
        0 once stopped.

    Raises:
        InputError: ``--workers`` above 1 on a SQLite store; an address the server cannot
            listen on (the port in use, an address of another machine, a port below 1024
            without the rights).
    """
    import uvicorn

    from tablee.web import Settings, create_app, server_secret

    a = ctx.args
    store = ctx.service.store
    options: dict[str, Any] = {
        "loop": "auto",  # uvloop when installed
        "http": "auto",  # httptools when installed
        "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_SECONDS,
        "proxy_headers": a.proxy_headers,
        "forwarded_allow_ips": "127.0.0.1" if a.proxy_headers else None,
        "log_level": "warning",
        "server_header": False,
    }
    url = _shared_url(store, a.workers) if a.workers > 1 else None
    with listening_socket(a.host, a.port) as sock, _metrics_served(a.metrics, a.workers):
        port = int(sock.getsockname()[1])
        others = _reachable_at(a.host, port)
        settings = Settings(
            trusted_origins=tuple(a.trusted_origin or ()),
            allow_create=not a.no_create,
            base_url=a.base_url,
            lan_urls=tuple(others),
            access_log=a.access_log,
            lab=not a.no_lab,
            store_calls=a.store_calls,
        )
        if url is not None:
            server_secret(store)  # made once here, not by each process at the same time
            os.environ[WORKER_ENV] = json.dumps(
                {
                    "db": url,
                    "trusted": list(settings.trusted_origins),
                    "create": settings.allow_create,
                    "base_url": settings.base_url,
                    "lan": list(settings.lan_urls),
                    "access_log": settings.access_log,
                    "lab": settings.lab,
                    "store_calls": settings.store_calls,
                    "parent": os.getpid(),
                }
            )
            config = uvicorn.Config(
                f"{__name__}:worker_app", factory=True, workers=a.workers, **options
            )
        else:
            config = uvicorn.Config(create_app(store, settings), workers=1, **options)
        serving = ctx.tr("Tablée serves on {url} (Ctrl+C stops it).").format(url=_url(a.host, port))
        if others:
            serving += "\n" + ctx.tr("Other devices reach it at {urls}").format(
                urls=", ".join(others)
            )
        ctx.emit(serving, markup=False)
        ctx.out.flush()
        tune_collector()
        with _stopped_by_signals():
            if a.workers > 1:
                from uvicorn.supervisors import Multiprocess

                Multiprocess(config, sockets=[sock]).run()
            else:
                uvicorn.Server(config).run(sockets=[sock])
    return 0


BASE_URL = N_(
    "{value!r} is not an address players can reach: give http:// or https://, a host other "
    "than this machine's loopback, and no query"
)
"""The error of a ``--base-url`` that cannot go in links and QR codes."""


def base_url(tr: Tr) -> Callable[[str], str]:
    """An argparse ``type`` for ``--base-url``: an http(s) origin, maybe with a path.

    Returns (from the returned function) the address without its trailing slash.

    Raises (from the returned function):
        argparse.ArgumentTypeError: another scheme, no host, a loopback host (127.0.0.1,
            ``localhost``: no phone reaches it), a query or a fragment, a bad port, or a
            space or control character (it would be printed in every link).
    """
    from urllib.parse import urlsplit

    def parse(text: str) -> str:
        from tablee.systems.declare import unsafe_char
        from tablee.web import is_loopback_url  # only when given: it loads the web table

        value = text.strip().rstrip("/")
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 - raises ValueError for a bad port
        except ValueError:
            parts = None
        if (
            parts is None
            or parts.scheme not in ("http", "https")
            or not parts.hostname
            or parts.query
            or parts.fragment
            or is_loopback_url(value)
            or any(unsafe_char(ch) or ch.isspace() for ch in value)
        ):
            raise argparse.ArgumentTypeError(tr(BASE_URL).format(value=text))
        return value

    return parse


PORT_RANGE = N_(
    "{value!r} is not a port: give a whole number from 1 to 65535, or 0 for any free port"
)
"""The error of ``--port`` outside 0..65535 (or not a number)."""


def port_number(tr: Tr) -> Callable[[str], int]:
    """An argparse ``type`` for ``--port``: 1 to 65535, or 0 for a free port the system picks.

    Raises (from the returned function):
        argparse.ArgumentTypeError: anything else (a usage error, exit code 2), translated.
    """

    def parse(text: str) -> int:
        digits = text.strip()
        if digits.isascii() and digits.isdigit() and int(digits) <= 65535:
            return int(digits)
        raise argparse.ArgumentTypeError(tr(PORT_RANGE).format(value=text))

    return parse


@contextlib.contextmanager
def listening_socket(host: str, port: int) -> Iterator[socket.socket]:
    """A TCP socket listening on ``host:port``, closed when the block ends.

    Made as Uvicorn makes its own (IPv6 when the host has a colon, ``SO_REUSEADDR`` so a
    restart does not wait for the old connections' ``TIME_WAIT``), and inheritable so that
    the worker processes of ``--workers`` serve on it too. Port 0: the system picks a free
    port (read it with ``getsockname()``).

    Raises:
        InputError: the address cannot be listened on, named as ``host:port``: the port is
            in use, the host is not an address of this machine (or not found), a port below
            1024 needs administrator rights.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    address = _hostport(host, port)
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(LISTEN_BACKLOG)
        sock.set_inheritable(True)
    except OSError as exc:
        sock.close()
        raise _not_listening(address, exc) from None
    with sock:
        yield sock


LISTEN_BACKLOG = 2048
"""Connections waiting to be accepted (Uvicorn's default ``backlog``)."""


def _not_listening(address: str, exc: OSError) -> InputError:
    """The error for an address the server cannot listen on, the reason in words."""
    tip = N_("stop the program that listens there, or choose another --port")
    if exc.errno == errno.EADDRINUSE:
        return InputError(
            N_("cannot listen on {address}: the port is already in use"),
            cli_tip=tip,
            address=address,
        )
    if exc.errno == errno.EACCES:
        return InputError(
            N_("cannot listen on {address}: permission denied (ports below 1024 need it)"),
            cli_tip=N_("choose a --port from 1024 to 65535"),
            address=address,
        )
    if isinstance(exc, socket.gaierror):
        return InputError(
            N_("cannot listen on {address}: no host has that name"),
            cli_tip=N_("give --host as an address of this machine, or 0.0.0.0 for every address"),
            address=address,
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return InputError(
            N_("cannot listen on {address}: the host is not an address of this machine"),
            cli_tip=N_("leave out --host (127.0.0.1), or pass --host 0.0.0.0 for every address"),
            address=address,
        )
    return InputError(
        N_("cannot listen on {address}: {reason}"), address=address, reason=exc.strerror or exc
    )


@contextlib.contextmanager
def _stopped_by_signals() -> Iterator[None]:
    """Let Ctrl+C (SIGINT) and SIGTERM end the block quietly once the server has stopped.

    Uvicorn catches both signals while it serves, shuts down gracefully, then raises the
    signal again so that the program's own handling applies: Python's is a
    ``KeyboardInterrupt`` and its traceback for SIGINT, death by the signal for SIGTERM.
    Here both end the block, and the command returns 0: stopping the server is what the
    signals ask. A signal this process ignores (a background job's SIGINT) stays ignored.
    """
    previous = signal.getsignal(signal.SIGTERM)
    if previous == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        yield
    except KeyboardInterrupt:
        pass
    finally:
        if previous == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def _metrics_served(address: tuple[str, int] | None, workers: int) -> Iterator[None]:
    """Serve the metrics on ``address`` while the block runs (nothing when None).

    With several workers, their values meet in a fresh folder (`tablee.web.metrics`), made
    before any worker starts and removed when the block ends.

    Raises:
        InputError: the address cannot be listened on.
    """
    if address is None:
        yield
        return
    import shutil
    import tempfile

    from tablee.web import MULTIPROC_ENV, serve_metrics

    folder = None
    if workers > 1:
        folder = tempfile.mkdtemp(prefix="tablee-metrics-")
        os.environ[MULTIPROC_ENV] = folder
    try:
        try:
            serve_metrics(*address)
        except OSError as exc:
            raise _not_listening(_hostport(*address), exc) from None
        yield
    finally:
        if folder is not None:
            os.environ.pop(MULTIPROC_ENV, None)
            shutil.rmtree(folder, ignore_errors=True)


def exit_with_parent(parent: int) -> None:
    """Stop this process (SIGTERM: a graceful stop) when the process ``parent`` is gone.

    A worker of ``--workers`` calls it: when the master is killed outright (SIGKILL, the
    out-of-memory killer), nothing tells its workers, which would go on serving the port. On
    Linux the kernel sends the signal (``prctl(PR_SET_PDEATHSIG)``); elsewhere a thread
    checks the parent's id every second. A parent already gone stops the process at once.

    Args:
        parent: the process id of the master, as it knew itself.
    """
    import sys

    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    else:
        import threading
        import time

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(1.0)
            os.kill(os.getpid(), signal.SIGTERM)

        threading.Thread(target=watch, name="tablee-parent-watch", daemon=True).start()
    if os.getppid() != parent:  # the master died before the signal was asked for
        os.kill(os.getpid(), signal.SIGTERM)


METRICS_ADDRESS = N_(
    "{value!r} is not an address for the metrics: give PORT or HOST:PORT, a port from 1 to 65535"
)
"""The error of a ``--metrics`` value that is not ``[HOST:]PORT``."""


def metrics_address(tr: Tr) -> Callable[[str], tuple[str, int]]:
    """An argparse ``type`` for ``--metrics``: ``PORT`` (on 127.0.0.1) or ``HOST:PORT``.

    Returns (from the returned function) ``(host, port)``; an IPv6 host is written in
    brackets (``[::1]:9100``).

    Raises (from the returned function):
        argparse.ArgumentTypeError: anything else, translated.
    """

    def parse(text: str) -> tuple[str, int]:
        host, colon, port = text.strip().rpartition(":")
        host = host.removeprefix("[").removesuffix("]") if colon else "127.0.0.1"
        if host and port.isascii() and port.isdigit() and 1 <= int(port) <= 65535:
            return host, int(port)
        raise argparse.ArgumentTypeError(tr(METRICS_ADDRESS).format(value=text))

    return parse


def _shared_url(store: Any, workers: int) -> str:
    """The database URL the worker processes open: PostgreSQL only (see the module docstring).

    Raises:
        InputError: the store is not PostgreSQL.
    """
    url = getattr(store, "url", None)
    if not isinstance(url, str) or not url.startswith("postgresql"):
        raise InputError(
            N_("--workers {workers} needs PostgreSQL: on SQLite a table is served by one process"),
            cli_tip=N_("leave out --workers, or pass --db postgresql://..."),
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
    if "parent" in given:
        exit_with_parent(int(given["parent"]))
    settings = Settings(
        trusted_origins=tuple(given["trusted"]),
        allow_create=given["create"],
        base_url=given.get("base_url"),
        lan_urls=tuple(given.get("lan", ())),
        access_log=given.get("access_log", "off"),
        lab=given.get("lab", True),
        store_calls=given.get("store_calls", "auto"),
    )
    app = create_app(open_store(given["db"]), settings)
    tune_collector()
    return app


YOUNG_THRESHOLD = 10_000
"""Tracked objects made (net of those freed) between two passes of the garbage collector
over the youngest objects, in a server process (Python's default: 700)."""


def tune_collector() -> None:
    """Set the garbage collector for serving; call once the application is built.

    What is collectable goes, and every object left (modules, classes, the framework's
    routes and validators, compiled templates: about 70,000 in a server process) moves to
    the collector's permanent generation (`gc.freeze`), which its passes no longer walk:
    those objects live as long as the process. The youngest generation is collected every
    `YOUNG_THRESHOLD` objects instead of 700: a request makes and drops thousands, and at
    500 rolls/s the default ran about 40 passes a second. Objects made later are collected
    as before, only less often. Measured over 2 server processes on PostgreSQL at 500
    rolls/s: the collector's CPU fell from about 460 to 170 ms per process in 15 s, its
    longest pause from 110 - 170 ms to about 50 ms (benchmarks/README.md, "Rolls spread over
    two processes").
    """
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)


def add_parser(sub: Any, tr: Tr) -> None:
    """Add ``tablee serve`` to the top-level subparsers."""
    p = sub.add_parser("serve", help=tr("run the live web table"))
    p.add_argument("--host", default="127.0.0.1", help=tr("address to listen on"))
    p.add_argument(
        "--port",
        type=port_number(tr),
        default=8000,
        help=tr("port to listen on, 1 to 65535 (default 8000; 0: any free port)"),
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
        "--base-url",
        type=base_url(tr),
        metavar="URL",
        help=tr(
            "the address players reach the server at, e.g. https://table.example or "
            "http://192.168.1.20:8000: put in the links and QR codes"
        ),
    )
    p.add_argument(
        "--no-create",
        action="store_true",
        help=tr("do not let visitors create tables (make them with 'tablee table new')"),
    )
    p.add_argument(
        "--no-lab",
        action="store_true",
        help=tr("do not serve the designer's lab pages (/lab): for a hosted server"),
    )
    p.add_argument(
        "--store-calls",
        choices=("auto", "inline", "threads"),
        default="auto",
        help=tr(
            "where the database calls of a request run: auto (default: on the event loop for "
            "SQLite and for PostgreSQL on this machine, in threads for a database on another "
            "host), inline or threads"
        ),
    )
    p.add_argument(
        "--metrics",
        type=metrics_address(tr),
        metavar="[HOST:]PORT",
        help=tr(
            "serve Prometheus metrics on this separate address (HOST 127.0.0.1 unless given; "
            "default: not served)"
        ),
    )
    p.add_argument(
        "--access-log",
        choices=("json", "text", "off"),
        default="off",
        help=tr(
            "one line per request on standard error: json, text or off (default off); "
            "link tokens are never written"
        ),
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
    return [_url(ip, port) for ip in sorted(set(names)) if not ip.startswith("127.")]


def _hostport(host: str, port: int) -> str:
    """``host:port``, an IPv6 host in brackets (``[::1]:8000``)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _url(host: str, port: int) -> str:
    """The address of the server as a URL."""
    return f"http://{_hostport(host, port)}/"
