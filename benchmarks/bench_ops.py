"""The per-roll cost of the operators' additions: metrics and the store's retry wrapper.

What one web roll adds, measured in one process with `time.perf_counter` (medians of
repeats, microseconds):

* metrics: one command counted, five stream deliveries recorded (5 viewers), four store
  calls timed, the open-streams gauge moved once up and once down;
* the store wrapper (`ResilientStore`): a `load` of a short table through it against the
  same call on the SQLite store directly.

Usage: ``.venv/bin/python benchmarks/bench_ops.py [-n 20000] [--repeats 7]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from tablee.systems.base import Fact
from tablee.table.resilient import ResilientStore
from tablee.table.sqlite_store import SqliteStore
from tablee.web import metrics


def per_roll(n: int) -> float:
    now = datetime.now(UTC)
    store = SqliteStore(Path(tempfile.mkdtemp()) / "b.sqlite3")
    table_id = str(uuid.uuid4())
    event = store.create_table(table_id, "b", "pouyss", Fact("table.created", {}), now)
    began = time.perf_counter()
    for _ in range(n):
        metrics.command("pouyss")
        for _ in range(5):
            metrics.delivered([event], 0.0)
        for op in ("read", "load", "append", "load"):
            metrics.store_time(op, 0.0002)
        metrics.OPEN_STREAMS.inc()
        metrics.OPEN_STREAMS.dec()
    took = time.perf_counter() - began
    store.close()
    return took / n * 1e6


def wrapper(n: int) -> tuple[float, float]:
    now = datetime.now(UTC)
    store = SqliteStore(Path(tempfile.mkdtemp()) / "w.sqlite3")
    table_id = str(uuid.uuid4())
    store.create_table(table_id, "w", "pouyss", Fact("table.created", {}), now)
    wrapped = ResilientStore(store, metrics.store_time)
    times = []
    for target in (store, wrapped):
        began = time.perf_counter()
        for _ in range(n):
            target.load(table_id, after_seq=1)
        times.append((time.perf_counter() - began) / n * 1e6)
    store.close()
    return times[0], times[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    rolls = [per_roll(args.n) for _ in range(args.repeats)]
    pairs = [wrapper(args.n) for _ in range(args.repeats)]
    print(f"metrics per roll: {statistics.median(rolls):.1f} µs (median of {args.repeats})")
    direct = statistics.median(p[0] for p in pairs)
    through = statistics.median(p[1] for p in pairs)
    print(
        f"store load: {direct:.1f} µs direct, {through:.1f} µs through ResilientStore "
        f"(+{through - direct:.1f} µs, timed for the metrics)"
    )


if __name__ == "__main__":
    main()
