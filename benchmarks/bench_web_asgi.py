"""The server's own CPU per roll, in process: the whole web application driven without sockets.

``bench_web.py`` measures the server over loopback HTTP, with the client on the same cores;
on a shared machine its figures move with the load. This script runs the same application
(`tablee.web.create_app` on a fresh SQLite file, the guard, the routes, the stream
generators) in its own event loop and talks ASGI to it directly: no sockets, no HTTP
parsing (Uvicorn's and httptools' share), no other process. For each roll it posts the
Pouyss roll form through the application, as the browser does (``HX-Request``), then waits
until each of the ``--viewers`` open streams of that table has received the new event. Its
CPU time (``time.process_time``) per roll is then the application's Python work for one
roll with its streams, and the driver's (small: a few dictionaries per message).

``--tables`` tables with ``--viewers`` streams each (spectator, game master, players in
turn, as bench_web.py); rolls go round the tables, from the game master's and the players'
links. The rate limit is raised (the rolls come as fast as the process makes them); every
other setting is the default. ``--profile FILE`` writes cProfile statistics of the timed
rolls; under ``py-spy record`` the samples show the same work without cProfile's cost.

Usage: ``.venv/bin/python benchmarks/bench_web_asgi.py [--tables 10] [--viewers 5]
[--rolls 2000] [--warmup 200] [--repeats 3] [--profile FILE]``
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import re
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from tablee.table.links import issue_table_links
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web import Settings, create_app, server_secret
from tablee.web.access import csrf_token

SSE_ID = re.compile(rb"^id: (\d+)$", re.MULTILINE)
Message = dict[str, Any]


class Stream:
    """One open stream: the last event id it received, and a wake-up for the driver."""

    def __init__(self) -> None:
        self.last = 0
        self.moved = asyncio.Event()

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.body":
            for found in SSE_ID.finditer(message.get("body", b"")):
                self.last = max(self.last, int(found.group(1)))
            self.moved.set()


def scope_of(method: str, path: str, query: bytes = b"", body: bytes = b"") -> Message:
    headers = [(b"host", b"127.0.0.1:8840"), (b"hx-request", b"true")]
    if body:
        headers += [
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"content-length", str(len(body)).encode()),
        ]
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query,
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8840),
        "state": {},
    }


async def post(app: Any, path: str, form: dict[str, str]) -> int:
    """POST a form through the application; returns the status (the answer is read whole)."""
    body = urlencode(form).encode()
    sent = False
    status = 0

    async def receive() -> Message:
        nonlocal sent
        if sent:
            await asyncio.Event().wait()  # never: the request has no more body
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(scope_of("POST", path, body=body), receive, send)
    return status


async def lifespan(app: Any) -> tuple[asyncio.Queue[Message], asyncio.Task[None]]:
    """Start the application's lifespan (its hub and presence tasks)."""
    inbox: asyncio.Queue[Message] = asyncio.Queue()
    started = asyncio.Event()

    async def send(message: Message) -> None:
        if message["type"] == "lifespan.startup.complete":
            started.set()

    await inbox.put({"type": "lifespan.startup"})
    task = asyncio.create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0"}}, inbox.get, send)
    )
    await started.wait()
    return inbox, task


async def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    store = SqliteStore(folder / "asgi.sqlite")
    service = TableService(store, remember_last=False)
    app = create_app(store, Settings(rate_limit="1000000/second"))
    secret = server_secret(store)
    inbox, life = await lifespan(app)
    disconnect = asyncio.Event()

    async def never() -> Message:
        await disconnect.wait()
        return {"type": "http.disconnect"}

    tables: list[tuple[list[tuple[str, dict[str, str]]], list[Stream]]] = []
    tasks = []
    for number in range(args.tables):
        state = service.create(
            system="pouyss", name=f"asgi {number}", players=["A", "B"], lang="en"
        )
        issued = issue_table_links(store, state, service.clock())
        by_role = {i.info.player or i.info.role: i for i in issued}
        gm, spectator = by_role["gm"], by_role["spectator"]
        players = [by_role["A"], by_role["B"]]
        assert (
            await post(
                app, f"/t/{gm.token}/act/session-start", {"csrf": csrf_token(secret, gm.info)}
            )
            == 200
        )
        posters = [
            (f"/t/{gm.token}/act/roll", {"csrf": csrf_token(secret, gm.info), "player": "A"})
        ]
        posters += [
            (f"/t/{p.token}/act/roll", {"csrf": csrf_token(secret, p.info)}) for p in players
        ]
        order = [spectator, gm, *players]
        streams = []
        for n in range(args.viewers):
            stream = Stream()
            link = order[n % len(order)]
            scope = scope_of("GET", f"/t/{link.token}/stream", b"after=2")
            tasks.append(asyncio.create_task(app(scope, never, stream.send)))
            streams.append(stream)
        tables.append((posters, streams))
    await asyncio.sleep(0.2)  # every stream open

    async def roll(n: int) -> None:
        posters, streams = tables[n % len(tables)]
        path, form = posters[(n // len(tables)) % len(posters)]
        status = await post(app, path, {**form, "reasons": f"k{n}"})
        assert status == 200, status
        target = max(s.last for s in streams) + 1 if streams else 0
        for stream in streams:
            while stream.last < target:
                stream.moved.clear()
                await stream.moved.wait()

    for n in range(args.warmup):
        await roll(n)
    runs = []
    profile = cProfile.Profile() if args.profile else None
    done = args.warmup
    for _ in range(args.repeats):
        start = time.process_time()
        if profile is not None:
            profile.enable()
        for n in range(done, done + args.rolls):
            await roll(n)
        if profile is not None:
            profile.disable()
        runs.append((time.process_time() - start) / args.rolls * 1000)
        done += args.rolls
    if profile is not None:
        profile.dump_stats(args.profile)
    disconnect.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    await inbox.put({"type": "lifespan.shutdown"})
    await life
    store.close()
    return {"cpu_ms_per_roll": runs, "median": statistics.median(runs)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--viewers", type=int, default=5)
    parser.add_argument("--rolls", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", metavar="FILE")
    args = parser.parse_args()
    try:
        import uvloop
    except ImportError:
        runner: Callable[[Awaitable[Any]], Any] = asyncio.run
    else:
        runner = uvloop.run
    with tempfile.TemporaryDirectory() as folder:
        result = runner(run(args, Path(folder)))
    runs = ", ".join(f"{r:.3f}" for r in result["cpu_ms_per_roll"])
    print(
        f"{args.tables} tables x {args.viewers} streams: CPU per roll {result['median']:.3f} ms"
        f" (median of {runs})"
    )


if __name__ == "__main__":
    main()
