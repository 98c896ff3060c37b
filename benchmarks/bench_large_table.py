"""A 30,000-event table must not slow the other tables of its server.

What it does:

1. Builds a temporary SQLite database (directly through `TableService`, not over HTTP):
   ``Big``, a Pouyss table whose log holds ``--events`` events (a session, then rolls and
   rewards, decided by the rules with seeded dice, a thousand per append), and ``Small``,
   a Pouyss table of a few events. Links are made for both (`issue_table_links`).
2. **Opening** (``--open-runs`` times each, a fresh server each time, so nothing is
   cached): starts ``python -m tablee serve --db DB --port PORT``, then measures

   * ``page``: the wall time of the first ``GET`` of Big's page (status, size), then the
     median of ``--again`` (5) more;
   * ``stream``: on another fresh server, the time from opening ``GET .../stream?after=0``
     on Big to its first log message, and everything the stream sends within
     ``--stream-wait`` seconds after that (messages, bytes: what a client starting from 0
     gets), giving up after ``--stream-limit`` seconds without a first message;

   and for each, the server's peak resident memory (``VmHWM`` of ``/proc/PID/status``)
   before and after, and its CPU time (user + system, ``/proc/PID/stat``) for the request.
3. **Isolation** (one server, Big's page opened once first, untimed): for ``--duration``
   seconds, a client reads Small's page ``--small-rate`` times a second (rotating over its
   links, under the per-link rate limit) and records each page's wall time; run twice,
   ``quiet`` (nothing else), then ``reloads`` (Big's page reloaded ``--reload-rate`` times
   a second meanwhile, each reload started on time on a connection of its own, reading
   the whole page, by ``curl`` processes started from another process: the reloads'
   client work does not slow the probe's). Prints Small's page time p50/p90/p99/max in
   each run, their ratio, Big's page times under reloads, and the server's CPU time per
   second of each run.

The targets (docs/architecture.md, "Large tables"): Small's p99 under 50 ms with the
reloads, and within 2x of the quiet run. The 2 cores may be shared with other jobs: the
header and each run print the load average.

``--server-src DIR`` runs the server from another checkout's ``src`` (``PYTHONPATH``), with
the same interpreter and database: the figures of an older version (``git archive REV src |
tar -x -C DIR``). ``--skip-isolation`` only measures the opening, ``--skip-open`` skips
it. ``--db PATH`` keeps the database (and its links beside it, ``PATH.links.json``) and
reuses it on the next run.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_large_table.py [--events 30000] [--port 8850]
        [--duration 20] [--reload-rate 8] [--small-rate 10] [--open-runs 3]
        [--server-src DIR] [--skip-isolation] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from tablee.dice import SeededSource, SourceChance
from tablee.systems import system_named
from tablee.systems.pouyss.commands import Reward, Roll, StartSession
from tablee.table.links import issue_table_links
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore

PLAYERS = ["Zoé", "Ana", "Léo", "Mia"]
BATCH = 1000


def load_average() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def build(db: Path, events: int) -> dict[str, list[str]]:
    """Make Big (``events`` events) and Small; return each table's link paths, GM first."""
    store = SqliteStore(db)
    try:
        service = TableService(store, remember_last=False)
        game = system_named("pouyss")
        chance = SourceChance(SeededSource(13))
        paths: dict[str, list[str]] = {}
        for name in ("Big", "Small"):
            state = service.create(system="pouyss", name=name, players=PLAYERS, lang="en")
            issued = issue_table_links(store, state, service.clock())
            issued.sort(key=lambda i: i.info.role != "gm")
            paths[name] = ["/t/" + i.token for i in issued]
            service.run_command(name, StartSession(cagnotte=20))
        for player in PLAYERS:
            service.run_command("Small", Roll(player=player, bonus=1), SeededSource(7))
        last = service.state("Big").last_seq
        while last < events:
            count = min(BATCH, events - last)

            def decide(state: Any, count: int = count) -> list[Any]:
                game_state, out = state.game, []
                for k in range(count):
                    player = PLAYERS[k % 4]
                    command: Any = (
                        Roll(player=player, bonus=k % 2, malus=k % 2)
                        if k % 5
                        else Reward(amount=1 + k % 2, player=player)
                    )
                    seq = state.last_seq + 1 + len(out)
                    decision = game.decide_at(game_state, command, chance, seq)
                    out.append(decision)
                    game_state = decision.after
                return out

            applied = service.execute(
                "Big", decide, lambda ds: [f for d in ds for f in game.facts(d)]
            )
            last = applied.state.last_seq
        return paths
    finally:
        store.close()


class Server:
    """``python -m tablee serve`` on the database, as a child process."""

    def __init__(self, db: Path, port: int, src: str | None) -> None:
        env = dict(os.environ)
        if src:
            env["PYTHONPATH"] = str(Path(src) / "src")
        command = [sys.executable, "-m", "tablee", "serve", "--db", str(db), "--port", str(port)]
        self.proc = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(self.url + "/static/tablee.css", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)

    def status(self, field: str) -> int:
        """A ``/proc/PID/status`` figure in kB (``VmHWM``: peak resident memory)."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        return 0

    def cpu(self) -> float:
        """The server's CPU time so far (user + system), in seconds."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        """Stop the server (SIGTERM, as a service manager would)."""
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def open_page(server: Server, path: str, again: int) -> dict[str, Any]:
    """Big's page opened on a fresh server, then ``again`` more times."""
    before = (server.status("VmHWM"), server.cpu())
    start = time.perf_counter()
    answer = httpx.get(server.url + path, timeout=600)
    first = time.perf_counter() - start
    after = (server.status("VmHWM"), server.cpu())
    times = []
    for _ in range(again):
        start = time.perf_counter()
        httpx.get(server.url + path, timeout=600)
        times.append(time.perf_counter() - start)
    return {
        "status": answer.status_code,
        "bytes": len(answer.content),
        "entries": answer.text.count('class="entry'),
        "seconds": first,
        "again_median_s": statistics.median(times) if times else None,
        "cpu_s": after[1] - before[1],
        "peak_rss_mb_before": before[0] / 1024,
        "peak_rss_mb_after": after[0] / 1024,
    }


def open_stream(server: Server, path: str, wait: float, limit: float) -> dict[str, Any]:
    """A stream from 0 on Big: time to its first log message, and all it sends meanwhile.

    Reads in a thread; gives up ``limit`` seconds after opening when no log message came,
    else ``wait`` seconds after the first one.
    """
    before = (server.status("VmHWM"), server.cpu())
    lines: list[tuple[float, str]] = []
    start = time.perf_counter()
    client = httpx.Client(timeout=httpx.Timeout(limit + wait + 10))

    def read() -> None:
        try:
            with client.stream("GET", server.url + path + "/stream?after=0") as answer:
                for line in answer.iter_lines():
                    lines.append((time.perf_counter() - start, line))
        except (httpx.HTTPError, RuntimeError):  # closed by the main thread
            pass

    reader = threading.Thread(target=read, daemon=True)
    reader.start()

    def first() -> float | None:
        return next((t for t, line in list(lines) if line.startswith("event: log")), None)

    while first() is None and time.perf_counter() - start < limit:
        time.sleep(0.05)
    found = first()
    if found is not None:
        time.sleep(max(0.0, found + wait - (time.perf_counter() - start)))
    after = (server.status("VmHWM"), server.cpu())
    client.close()
    got = list(lines)
    return {
        "first_message_s": found,
        "messages": sum(line.startswith("event: log") for _, line in got),
        "bytes": sum(len(line) + 1 for _, line in got),
        "cpu_s": after[1] - before[1],
        "peak_rss_mb_before": before[0] / 1024,
        "peak_rss_mb_after": after[0] / 1024,
    }


def paced(url: str, paths: list[str], rate: float, stop: threading.Event) -> list[float]:
    """GET ``paths`` in turn ``rate`` times a second until ``stop``; each one's wall time."""
    times: list[float] = []
    period = 1 / rate
    due = time.perf_counter()
    n = 0
    with httpx.Client(base_url=url, timeout=30) as client:
        while not stop.is_set():
            due += period
            start = time.perf_counter()
            answer = client.get(paths[n % len(paths)])
            times.append(time.perf_counter() - start)
            if answer.status_code != 200:
                raise RuntimeError(f"{paths[n % len(paths)]}: {answer.status_code}")
            n += 1
            time.sleep(max(0.0, due - time.perf_counter()))
    return times


def reloads(url: str, path: str, rate: float, stop: threading.Event, out: list[float]) -> None:
    """Reload Big's page ``rate`` times a second until ``stop``, each reload started on time.

    A reload starts whether or not the one before has ended (a browser reloading on a
    timer), on a new connection reading the whole page; at most 32 at once. Each reload is
    a ``curl`` process when there is one (a Python client reading 250 KB pages from many
    threads spends more time waiting for its own interpreter lock than the server does),
    else a thread with httpx.
    """
    curl = shutil.which("curl")
    period = 1 / rate
    due = time.perf_counter()
    running: list[Any] = []

    def one() -> None:
        start = time.perf_counter()
        httpx.get(url + path, timeout=60)
        out.append(time.perf_counter() - start)

    while not stop.is_set():
        running = [r for r in running if not done(r, out)]
        if len(running) < 32:
            if curl:
                command = [curl, "-s", "-o", "/dev/null", "-w", "%{time_total}", url + path]
                running.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True))
            else:
                thread = threading.Thread(target=one)
                thread.start()
                running.append(thread)
        due += period
        time.sleep(max(0.0, due - time.perf_counter()))
    for reload in running:
        if isinstance(reload, threading.Thread):
            reload.join()
        else:
            reload.wait()
            done(reload, out)


def done(reload: Any, out: list[float]) -> bool:
    """Whether a reload has ended (a ``curl`` process's time is then added to ``out``)."""
    if isinstance(reload, threading.Thread):
        return not reload.is_alive()
    if reload.poll() is None:
        return False
    text = reload.stdout.read() if reload.stdout else ""
    if reload.returncode == 0 and text:
        out.append(float(text))
    return True


def summary(times: list[float]) -> dict[str, float]:
    """p50, p90, p99 and max, in milliseconds."""
    ms = sorted(t * 1000 for t in times)
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return {"n": len(ms), "p50": q[49], "p90": q[89], "p99": q[98], "max": ms[-1]}


def reload_process(url: str, path: str, rate: float, seconds: float, out: Any) -> None:
    """In a process of its own: reload Big's page for ``seconds``; put the times in ``out``."""
    stop = threading.Event()
    times: list[float] = []
    threading.Timer(seconds, stop.set).start()
    reloads(url, path, rate, stop, times)
    out.put(times)


def isolation(
    server: Server, paths: dict[str, list[str]], args: argparse.Namespace
) -> dict[str, Any]:
    """Small's page times, quiet and while Big's page is reloaded (from another process)."""
    httpx.get(server.url + paths["Big"][0], timeout=600)  # Big opened once, untimed
    results: dict[str, Any] = {}
    for run in ("quiet", "reloads"):
        stop = threading.Event()
        big: list[float] = []
        queue: Any = multiprocessing.Queue()
        loader = multiprocessing.Process(
            target=reload_process,
            args=(server.url, paths["Big"][0], args.reload_rate, args.duration, queue),
        )
        if run == "reloads":
            loader.start()
        cpu = server.cpu()
        timer = threading.Timer(args.duration, stop.set)
        timer.start()
        small = paced(server.url, paths["Small"], args.small_rate, stop)
        used = server.cpu() - cpu
        if run == "reloads":
            big = queue.get(timeout=120)
            loader.join()
        results[run] = {
            "small_ms": summary(small),
            "big_ms": summary(big) if len(big) > 2 else None,
            "server_cpu_per_s": used / args.duration,
            "load": load_average(),
        }
    quiet, loaded = results["quiet"]["small_ms"]["p99"], results["reloads"]["small_ms"]["p99"]
    results["p99_ratio"] = loaded / quiet
    return results


def cold_opens(
    server: Server, paths: dict[str, list[str]], args: argparse.Namespace
) -> dict[str, Any]:
    """Small's page times while ``--cold-opens`` clients open Big's page at once, cold."""
    stop = threading.Event()
    opens: list[float] = []

    def open_big() -> None:
        start = time.perf_counter()
        httpx.get(server.url + paths["Big"][0], timeout=600)
        opens.append(time.perf_counter() - start)

    def later() -> None:
        time.sleep(1.0)
        threads = [threading.Thread(target=open_big) for _ in range(args.cold_opens)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(2.0)
        stop.set()

    opener = threading.Thread(target=later)
    cpu = server.cpu()
    opener.start()
    small = paced(server.url, paths["Small"], args.small_rate, stop)
    opener.join()
    return {
        "small_ms": summary(small),
        "big_open_s": sorted(opens),
        "server_cpu_s": server.cpu() - cpu,
        "peak_rss_mb": server.status("VmHWM") / 1024,
        "load": load_average(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=30_000)
    parser.add_argument("--port", type=int, default=8850)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--reload-rate", type=float, default=8.0)
    parser.add_argument("--small-rate", type=float, default=10.0)
    parser.add_argument("--open-runs", type=int, default=3)
    parser.add_argument("--again", type=int, default=5)
    parser.add_argument("--stream-wait", type=float, default=3.0)
    parser.add_argument("--stream-limit", type=float, default=120.0)
    parser.add_argument("--server-src", default=None)
    parser.add_argument("--db", default=None, help="keep the database there (reused if built)")
    parser.add_argument("--cold-opens", type=int, default=4)
    parser.add_argument("--skip-isolation", action="store_true")
    parser.add_argument("--skip-open", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    print(f"load average at start: {load_average()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(args.db) if args.db else Path(tmp) / "bench.sqlite3"
        saved = db.with_name(db.name + ".links.json")
        if args.db and saved.exists():  # built by an earlier run: the same tables
            paths = json.loads(saved.read_text())
            print(f"reusing {db}", flush=True)
        else:
            start = time.perf_counter()
            paths = build(db, args.events)
            saved.write_text(json.dumps(paths))
            print(f"built {args.events} events in {time.perf_counter() - start:.1f} s", flush=True)
        report: dict[str, Any] = {"events": args.events, "page": [], "stream": []}
        for _ in range(0 if args.skip_open else args.open_runs):
            for kind in ("page", "stream"):
                server = Server(db, args.port, args.server_src)
                try:
                    if kind == "page":
                        result = open_page(server, paths["Big"][0], args.again)
                    else:
                        result = open_stream(
                            server, paths["Big"][0], args.stream_wait, args.stream_limit
                        )
                finally:
                    server.stop()
                result["load"] = load_average()
                report[kind].append(result)
                print(kind, json.dumps(result), flush=True)
        if not args.skip_isolation:
            server = Server(db, args.port, args.server_src)
            try:
                report["cold_opens"] = cold_opens(server, paths, args)
            finally:
                server.stop()
            print("cold opens", json.dumps(report["cold_opens"]), flush=True)
            server = Server(db, args.port, args.server_src)
            try:
                report["isolation"] = isolation(server, paths, args)
            finally:
                server.stop()
            for run in ("quiet", "reloads"):
                print(run, json.dumps(report["isolation"][run]), flush=True)
            print(f"p99 ratio reloads/quiet: {report['isolation']['p99_ratio']:.2f}")
        if args.json:
            print(json.dumps(report))


if __name__ == "__main__":
    main()
