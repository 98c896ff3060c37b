"""Load on the live web table: many tables, several live-log viewers each, rolls over HTTP.

Starts ``python -m tablee serve`` as a subprocess on a free loopback port (a fresh SQLite
file by default; ``--db URL`` for PostgreSQL), then:

1. creates ``--tables`` Pouyss tables through the home page (2 players each), reads their
   links, starts a session at each;
2. opens ``--viewers`` Server-Sent Event streams per table (the spectator's, the game
   master's and the players' links in turn);
3. for ``--duration`` seconds, posts rolls at ``--rate`` rolls per second in total (open loop:
   a roll is sent on schedule whether or not earlier ones have answered, at most
   ``--inflight`` at once), spread over every table and over its game-master and player links
   (each link stays far below the server's per-link rate limit);
4. stops posting, waits until every stream has received every stored event, and checks.

Each roll carries a unique tag in its justification, which the rendered log entry shows, so
each delivery is matched to its POST. Reported:

* rolls per second sustained (rolls answered 200 over the posting time) and refusals;
* delay from the start of the POST to the message arriving on each stream: 50th, 90th,
  99th percentile and maximum, over every (roll, stream) pair;
* lost events (stored but never received by a stream of that table) and duplicated ones
  (received twice by one stream), from the sequence numbers: both must be zero;
* the server's peak resident memory (``VmHWM`` of ``/proc/<pid>/status``), and the CPU time
  per roll of the server (``/proc/<pid>/stat``, every server process added) and of this
  client, over the posting time; also "net" of what the servers spend idle (measured for
  ``--idle`` seconds with every stream open before posting: pollers, keep-alives), and on
  PostgreSQL the CPU per roll of the database's own server processes (those serving
  connections to the database, from ``pg_stat_activity`` and ``/proc``).

``--servers N`` starts N ``tablee serve`` processes on their own ports and one database (as
behind a load balancer): the POST connections and the streams are spread over them in turn.
``--affinity`` sends all the streams and rolls of a table to one server, chosen by the table's
routing key from its page (``data-route``, also sent with its forms), as a proxy hashing
that key does (docs/hosting.md, "A table's requests in one process").
``--hot-table`` posts 100 rolls/s on one table with 10 players over 2 servers.

The client runs on the same cores as the server (two here), so it is kept cheap: the set-up
(creating tables, reading links) uses httpx, but the rolls and the streams, the measured
part, use raw asyncio connections (keep-alive HTTP/1.1 for the POSTs, a minimal reader of
chunked Server-Sent Events) on uvloop when it is installed. ``--profile FILE`` runs the
server under cProfile (slower) and writes its statistics to FILE when it stops.

Usage::

    .venv/bin/python benchmarks/bench_web.py [--tables 50] [--viewers 5] [--rate 500]
        [--duration 20] [--db URL] [--workers N] [--profile FILE] [--py-spy FILE] [--json]

Source: benchmarks/README.md, "The live web table under load"; docs/architecture.md, "Web
hot path".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx

# The links page: each new link's holder in a heading, then its address in a read-only field.
LINK = re.compile(r"<h2>([^<]+)</h2>.*?class=\"link-text\" value=\"([^\"]+)\"", re.DOTALL)
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
ROUTE = re.compile(r'data-route="([0-9a-f]+)"')
TAG = re.compile(rb"because: (k\d+)\)")
SSE_ID = re.compile(rb"^id: (\d+)$", re.MULTILINE)
RUN = os.urandom(3).hex()
HTMX = {"HX-Request": "true"}  # as htmx sends it: the answer is the result, not a redirect
TARGETS = {"rolls_per_s": 500, "p99_ms": 100, "peak_mb": 300}


@dataclass
class Table:
    """One table of the run and what the client knows of it."""

    number: int
    gm: str
    players: list[str]
    spectator: str
    csrf: dict[str, str] = field(default_factory=dict)
    start_seq: int = 0
    route: str = ""


@dataclass
class Viewer:
    """One open stream: what it received, by sequence number and by roll tag."""

    table: Table
    link: str
    seqs: list[int] = field(default_factory=list)
    port: int = 0
    arrivals: dict[bytes, float] = field(default_factory=dict)
    opened: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Run:
    """What the driver recorded."""

    sent: dict[bytes, float] = field(default_factory=dict)
    table_of: dict[bytes, int] = field(default_factory=dict)
    port_of: dict[bytes, int] = field(default_factory=dict)
    ok: set[bytes] = field(default_factory=set)
    answered: list[float] = field(default_factory=list)
    refused: dict[int, int] = field(default_factory=dict)
    failed: int = 0


# --- the server -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(
    args: argparse.Namespace, folder: Path, number: int = 0
) -> tuple[subprocess.Popen[bytes], str]:
    """Start one ``tablee serve`` (the ``number``-th of ``--servers``) on a free port."""
    port = free_port()
    db = args.db or str(folder / "bench.sqlite")
    env = {**os.environ, "XDG_DATA_HOME": str(folder), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("TABLEE_DATABASE_URL", None)
    command = [sys.executable]
    if args.profile:
        command += ["-m", "cProfile", "-o", args.profile + (f".{number}" if number else "")]
    command += [args.server_script] if args.server_script else ["-m", "tablee"]
    command += ["serve", "--port", str(port), "--db", db, "--workers", str(args.workers)]
    log_path = folder / f"serve{number}.log"
    log = log_path.open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"tablee serve stopped: {log_path.read_text()}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return process, f"http://127.0.0.1:{port}"
        time.sleep(0.1)
    process.kill()
    sys.exit("tablee serve did not start")


def start_py_spy(args: argparse.Namespace, pid: int) -> subprocess.Popen[bytes] | None:
    """With ``--py-spy FILE``: sample the server's processes while the rolls are posted.

    py-spy (``pip install py-spy``, not a dependency of Tablée) reads the server's stacks
    from outside, without pausing it (``--nonblocking``), so its cost is not counted in the
    server's CPU time; FILE gets the samples in collapsed-stack form (one line per stack),
    which ``benchmarks/spy_top.py`` sums by function.
    """
    if not args.py_spy:
        return None
    spy = str(Path(sys.executable).with_name("py-spy"))
    command = [spy, "record", "--pid", str(pid), "--rate", "250"]
    command += ["--subprocesses", "--format", "raw", "--output", args.py_spy]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    # SIGINT lets Uvicorn (and cProfile, with --profile) finish cleanly.
    process.send_signal(2)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def tree(pid: int) -> list[int]:
    """The process and its descendants (``tablee serve --workers N`` has N children)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            for child in task.read_text().split():
                found += tree(int(child))
    return found


def memory(pids: list[int]) -> dict[str, float]:
    """Peak and current resident memory of the server's processes, in MB (from /proc).

    With several processes their figures are added: an upper bound (shared pages count
    once per process).
    """
    found = {"VmHWM": 0.0, "VmRSS": 0.0}
    for each in (p for pid in pids for p in tree(pid)):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                key, _, value = line.partition(":")
                if key in found:
                    found[key] += int(value.split()[0]) / 1024
    return found


def cpu_seconds(pids: list[int]) -> float:
    """CPU time (user + system) used so far by the server processes, in seconds.

    Each of ``pids`` counts with its descendants (the workers of ``--workers``).
    """
    return sum(process_cpu(each) for pid in pids for each in tree(pid))


def process_cpu(pid: int) -> float:
    """CPU time (user + system) used so far by one process, in seconds (0 when gone)."""
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def database_backends(db: str | None) -> list[int]:
    """The PostgreSQL server processes serving connections to ``db`` (empty for SQLite).

    Read from ``pg_stat_activity`` (the server runs on this machine, so their CPU time is
    in ``/proc``); this query's own connection is left out.
    """
    if not db or not db.startswith("postgresql"):
        return []
    import psycopg

    conninfo = db.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(conninfo, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return [int(row[0]) for row in rows]


def backend_cpu(pids: list[int]) -> dict[int, float]:
    """The CPU time of each database backend so far."""
    return {pid: process_cpu(pid) for pid in pids}


# --- setting up -----------------------------------------------------------------------------


async def polite(client: httpx.AsyncClient, method: str, url: str, **kw: Any) -> httpx.Response:
    """A request retried while the server's rate limit answers 429."""
    for _ in range(100):
        response = await client.request(method, url, **kw)
        if response.status_code != 429:
            return response
        await asyncio.sleep(0.2)
    raise RuntimeError(f"still rate-limited: {url}")


PLAYER_NAMES = [chr(ord("A") + i) for i in range(26)]


async def create_table(
    client: httpx.AsyncClient, base: str, number: int, players: int = 2
) -> Table:
    home = await polite(client, "GET", base + "/")
    token = CSRF.search(home.text).group(1)  # type: ignore[union-attr]
    name = f"bench {RUN} {number}"  # unique: a reused database keeps earlier runs' tables
    form = {"csrf": token, "system": "pouyss", "name": name, "lang": "en"}
    names = PLAYER_NAMES[:players]
    form["players"] = "\n".join(names)
    made = await polite(client, "POST", base + "/tables", data=form)
    made.raise_for_status()
    links = {label.strip(): url for label, url in LINK.findall(made.text)}
    table = Table(
        number,
        links["game master"],
        [links[f"player {name}"] for name in names],
        links["spectator"],
    )
    for link in (table.gm, *table.players):
        page = await polite(client, "GET", link)
        table.csrf[link] = CSRF.search(page.text).group(1)  # type: ignore[union-attr]
        table.route = ROUTE.search(page.text).group(1)  # type: ignore[union-attr]
    started = await polite(
        client,
        "POST",
        table.gm + "/act/session-start",
        data={"csrf": table.csrf[table.gm]},
        headers=HTMX,
    )
    assert started.status_code == 200, (started.status_code, started.text)
    table.start_seq = await last_seq(client, table)
    return table


def server_by_key(table: Table, servers: int) -> int:
    """The server a table's requests go to with ``--affinity``: its routing key's hash."""
    return int(table.route, 16) % servers


def _stream_server(args: argparse.Namespace, number: int, viewer: Viewer, servers: int) -> int:
    """The server a stream goes to: in turn, or by its table's routing key (``--affinity``)."""
    return server_by_key(viewer.table, servers) if args.affinity else number % servers


async def last_seq(client: httpx.AsyncClient, table: Table) -> int:
    export = await polite(client, "GET", table.gm + "/export.jsonl")
    lines = [json.loads(line) for line in export.text.splitlines() if line.strip()]
    events = [line for line in lines if "seq" in line]  # the last line is the trailer
    return int(events[-1]["seq"]) if events else 0


# --- streams and rolls ----------------------------------------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection to the server (raw asyncio streams).

    Just what the benchmark needs: a request with a form body, and a response read whole
    (``Content-Length`` or chunked) or, for a stream, its chunks as they arrive.
    """

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def send(self, method: str, path: str, body: bytes = b"", headers: str = "") -> None:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{headers}"
        if body:
            head += "Content-Type: application/x-www-form-urlencoded\r\n"
        head += f"Content-Length: {len(body)}\r\n\r\n"
        self.writer.write(head.encode() + body)

    async def head(self) -> tuple[int, bool, int]:
        """The status, whether the body is chunked, and its length when it is not."""
        assert self.reader is not None
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.split(b"\r\n")
        status = int(lines[0].split()[1])
        chunked, length = False, 0
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding" and b"chunked" in value.lower():
                chunked = True
        return status, chunked, length

    async def chunk(self) -> bytes:
        """The next chunk of a chunked body (empty at its end)."""
        assert self.reader is not None
        size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
        data = await self.reader.readexactly(size + 2)
        return data[:-2]

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: str = ""
    ) -> tuple[int, bytes]:
        await self.send(method, path, body, headers)
        status, chunked, length = await self.head()
        assert self.reader is not None
        if not chunked:
            return status, await self.reader.readexactly(length)
        parts = []
        while part := await self.chunk():
            parts.append(part)
        await self.reader.readuntil(b"\r\n")  # the empty trailer
        return status, b"".join(parts)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def path_of(url: str) -> str:
    return "/" + url.split("/", 3)[3]


async def watch(base: tuple[str, int], viewer: Viewer, stop: asyncio.Event) -> None:
    """Read one stream until told to stop, recording each event's seq and roll tag."""
    conn = Connection(*base)
    viewer.port = conn.port
    await conn.send("GET", f"{path_of(viewer.link)}/stream?after={viewer.table.start_seq}")
    status, chunked, _ = await conn.head()
    assert status == 200 and chunked, status
    viewer.opened.set()
    buffer = b""
    try:
        while part := await conn.chunk():
            now = time.perf_counter()
            buffer += part
            *messages, buffer = buffer.split(b"\n\n")
            for message in messages:
                found = SSE_ID.search(message)
                if found is None:
                    continue  # a comment (": ping"), the retry line
                viewer.seqs.append(int(found.group(1)))
                for tag in TAG.findall(message):
                    viewer.arrivals.setdefault(tag, now)
            if stop.is_set():
                break
    finally:
        conn.close()


async def roll(
    pool: asyncio.Queue[Connection], conn: Connection, run: Run, table: Table, link: str, n: int
) -> None:
    tag = f"k{n}"
    form = {"csrf": table.csrf[link], "reasons": tag}
    if link == table.gm:
        form["player"] = "A"
    body = urlencode(form).encode()
    key = tag.encode()
    run.sent[key] = time.perf_counter()
    run.table_of[key] = table.number
    run.port_of[key] = conn.port
    try:
        status, text = await conn.request(
            "POST",
            path_of(link) + "/act/roll",
            body,
            f"HX-Request: true\r\nX-Tablee-Table: {table.route}\r\n",
        )
    except (OSError, asyncio.IncompleteReadError, ValueError):
        conn.close()
        run.failed += 1
    else:
        if status == 200 and b'class="done"' in text:
            run.ok.add(key)
            run.answered.append((time.perf_counter() - run.sent[key]) * 1000)
        else:
            run.refused[status] = run.refused.get(status, 0) + 1
    finally:
        pool.put_nowait(conn)


async def drive(
    bases: list[tuple[str, int]],
    run: Run,
    tables: list[Table],
    rate: float,
    seconds: float,
    inflight: int,
    affinity: bool = False,
) -> float:
    """Post rolls on a fixed schedule; returns the posting time (until the last answer).

    At most ``inflight`` POSTs wait at once, each on its own keep-alive connection; a roll
    due while they all wait is sent as soon as one answers. With several servers, the
    connections are spread over them in turn (as a load balancer would), so successive
    rolls of a table go through different processes; with ``affinity``, each server has
    its share of the connections and a table's rolls go to the server its routing key
    picks (as its streams do).
    """
    links: list[tuple[Table, str]] = []
    for i in range(1 + len(tables[0].players)):  # the game master's link, then each player's
        links += [(t, (t.gm, *t.players)[i]) for t in tables]
    pools: list[asyncio.Queue[Connection]] = [asyncio.Queue() for _ in bases]
    for i in range(inflight):
        pools[i % len(bases) if affinity else 0].put_nowait(Connection(*bases[i % len(bases)]))
    tasks = []
    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds:
        due = start + n / rate
        if due > time.perf_counter():
            await asyncio.sleep(due - time.perf_counter())
        table, link = links[n % len(links)]
        pool = pools[server_by_key(table, len(bases)) if affinity else 0]
        conn = await pool.get()
        tasks.append(asyncio.create_task(roll(pool, conn, run, table, link, n)))
        n += 1
    await asyncio.gather(*tasks)
    posting = time.perf_counter() - start
    for pool in pools:
        while not pool.empty():
            pool.get_nowait().close()
    return posting


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


async def bench(args: argparse.Namespace, urls: list[str], pids: list[int]) -> dict[str, Any]:
    # httpx for the set-up and the final checks only; rolls and streams use `Connection`.
    base = urls[0]
    async with httpx.AsyncClient(timeout=30) as client:
        t0 = time.perf_counter()
        await polite(client, "GET", base + "/")  # the home page's anti-forgery cookie, once
        tables = []
        for chunk in range(0, args.tables, 10):
            tables += await asyncio.gather(
                *(
                    create_table(client, base, i, args.players)
                    for i in range(chunk, min(args.tables, chunk + 10))
                )
            )
        setup = time.perf_counter() - t0
        stop = asyncio.Event()
        viewers = []
        for table in tables:
            links = [table.spectator, table.gm, *table.players]
            viewers += [Viewer(table, links[i % len(links)]) for i in range(args.viewers)]
        wheres = []
        for url in urls:
            address = urlsplit(url)
            wheres.append((address.hostname or "127.0.0.1", address.port or 80))
        # a table's streams are spread over the servers in turn (viewer i on server i % N),
        # or with --affinity sent by the table's routing key, as nginx's `hash $arg_table`
        # would (docs/hosting.md): all of a table's streams on one server
        watchers = [
            asyncio.create_task(watch(wheres[_stream_server(args, i, v, len(wheres))], v, stop))
            for i, v in enumerate(viewers)
        ]
        await asyncio.wait_for(asyncio.gather(*(v.opened.wait() for v in viewers)), 60)
        await asyncio.sleep(1)
        # What the servers spend with every stream open and no roll (pollers, keep-alives,
        # presence): taken off the posting time's CPU for the "net" figure per roll.
        idle0, idle_t0 = cpu_seconds(pids), time.perf_counter()
        await asyncio.sleep(args.idle)
        idle_rate = (cpu_seconds(pids) - idle0) / (time.perf_counter() - idle_t0)
        backends = backend_cpu(database_backends(args.db))
        cpu0, client0, load0 = cpu_seconds(pids), time.process_time(), os.getloadavg()[0]
        spy = start_py_spy(args, pids[0])
        run = Run()
        posting = await drive(
            wheres, run, tables, args.rate, args.duration, args.inflight, args.affinity
        )
        if spy is not None:
            spy.send_signal(2)  # py-spy writes its samples when interrupted
            await asyncio.to_thread(spy.wait, 30)
        cpu, client_cpu = cpu_seconds(pids) - cpu0, time.process_time() - client0
        load1 = os.getloadavg()[0]
        after = backend_cpu(database_backends(args.db))
        db_cpu = sum(used - backends.get(pid, 0.0) for pid, used in after.items())
        # Every stream must reach its table's last stored event.
        finals = dict(
            zip(
                (t.number for t in tables),
                await asyncio.gather(*(last_seq(client, t) for t in tables)),
                strict=True,
            )
        )
        deadline = time.perf_counter() + args.drain
        while time.perf_counter() < deadline:
            if all(v.seqs and v.seqs[-1] >= finals[v.table.number] for v in viewers):
                break
            await asyncio.sleep(0.1)
        stop.set()
        for task in watchers:
            task.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)

    delays = []
    across = []  # the deliveries by a process other than the one that took the POST
    lost = duplicated = unmatched = 0
    for v in viewers:
        expected = set(range(v.table.start_seq + 1, finals[v.table.number] + 1))
        lost += len(expected - set(v.seqs))
        duplicated += len(v.seqs) - len(set(v.seqs))
        for tag in run.ok:
            if run.table_of[tag] != v.table.number:
                continue
            arrived = v.arrivals.get(tag)
            if arrived is None:
                unmatched += 1
            else:
                delays.append((arrived - run.sent[tag]) * 1000)
                if v.port != run.port_of[tag]:
                    across.append(delays[-1])
    mem = memory(pids)
    rolls = max(1, len(run.ok))
    return {
        "servers": len(urls),
        "stream_affinity": bool(args.affinity),
        "workers_each": args.workers,
        "load_avg_start_end": f"{load0:.1f} - {load1:.1f}",
        "tables": args.tables,
        "viewers_per_table": args.viewers,
        "streams": len(viewers),
        "target_rate": args.rate,
        "setup_s": round(setup, 1),
        "posting_s": round(posting, 2),
        "rolls_ok": len(run.ok),
        "rolls_per_s": round(len(run.ok) / posting, 1),
        "refused": run.refused,
        "failed": run.failed,
        "post_p50_ms": round(percentile(run.answered, 50), 1),
        "post_p99_ms": round(percentile(run.answered, 99), 1),
        "deliveries": len(delays),
        "p50_ms": round(percentile(delays, 50), 1),
        "p90_ms": round(percentile(delays, 90), 1),
        "p99_ms": round(percentile(delays, 99), 1),
        "max_ms": round(max(delays, default=float("nan")), 1),
        "across_processes": len(across),
        "across_p50_p99_ms": (
            f"{percentile(across, 50):.1f} / {percentile(across, 99):.1f}" if across else "-"
        ),
        "lost": lost,
        "duplicated": duplicated,
        "roll_not_seen_on_a_stream": unmatched,
        "server_cpu_s": round(cpu, 1),
        "client_cpu_s": round(client_cpu, 1),
        "server_cpu_per_roll_ms": round(cpu / max(1, len(run.ok)) * 1000, 2),
        "client_cpu_per_roll_ms": round(client_cpu / max(1, len(run.ok)) * 1000, 2),
        "server_cpu_per_roll_ms_net": round((cpu - idle_rate * posting) / rolls * 1000, 2),
        "server_idle_cpu_per_s": round(idle_rate, 3),
        "postgres_cpu_per_roll_ms": round(db_cpu / rolls * 1000, 2) if args.db else None,
        "peak_mb": round(mem.get("VmHWM", float("nan")), 1),
        "rss_mb_end": round(mem.get("VmRSS", float("nan")), 1),
    }


def run_loop(work: Any) -> Any:
    """Run a coroutine on uvloop when it is installed (cheaper), else on asyncio's loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(work)
    return uvloop.run(work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=5, help="streams per table")
    parser.add_argument("--rate", type=float, default=500, help="rolls per second asked")
    parser.add_argument("--duration", type=float, default=20, help="seconds of posting")
    parser.add_argument("--inflight", type=int, default=32, help="most POSTs waiting at once")
    parser.add_argument("--drain", type=float, default=30, help="seconds to wait for streams")
    parser.add_argument("--db", help="database URL or SQLite path (default: a fresh SQLite file)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (PostgreSQL)")
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="separate server processes on their own ports (PostgreSQL): POSTs and streams "
        "spread over them in turn",
    )
    parser.add_argument("--players", type=int, default=2, help="players per table (links)")
    parser.add_argument(
        "--idle",
        type=float,
        default=3,
        help="seconds of the servers' CPU measured with the streams open and no roll",
    )
    parser.add_argument(
        "--hot-table",
        action="store_true",
        help="one table, 100 rolls/s, 10 players, over 2 servers (unless given otherwise)",
    )
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile")
    parser.add_argument(
        "--py-spy", metavar="FILE", help="sample the server with py-spy while rolls are posted"
    )
    parser.add_argument(
        "--server-script", help="a Python file run instead of `-m tablee` (for timing probes)"
    )
    parser.add_argument(
        "--affinity",
        action="store_true",
        help="all the streams and rolls of a table on one server, by the table's routing key",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.hot_table:
        given = set(sys.argv)
        args.tables = 1
        args.rate = args.rate if "--rate" in given else 100
        args.players = args.players if "--players" in given else 10
        args.servers = args.servers if "--servers" in given else 2
    with tempfile.TemporaryDirectory() as folder:
        servers = []
        try:
            for number in range(args.servers):
                servers.append(start_server(args, Path(folder), number))
            result = run_loop(bench(args, [url for _, url in servers], [p.pid for p, _ in servers]))
        finally:
            for process, _ in servers:
                stop_server(process)
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key:28} {value}")
    met = (
        result["rolls_per_s"] >= TARGETS["rolls_per_s"]
        and result["p99_ms"] < TARGETS["p99_ms"]
        and result["peak_mb"] < TARGETS["peak_mb"]
        and result["lost"] == result["duplicated"] == 0
    )
    print(
        "targets (>= 500 rolls/s, p99 < 100 ms, < 300 MB, 0 lost/dup):", "met" if met else "MISSED"
    )


if __name__ == "__main__":
    main()
