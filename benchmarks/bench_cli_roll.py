"""The CLI Pouyss roll on a new table and on an old one, against an empty Python start-up.

What it measures, for each ``--events N`` given (default: 0 and 20000):

1. Builds a temporary SQLite database holding one Pouyss table, ``bench``, for the players
   Simon, Ada, Louis and Mina, whose log holds N events (at least 2: the table's creation and
   an open session). Small logs come from ``tablee table new`` and ``tablee pouyss session
   start``. Larger ones are made without any internal API: a short template game is played
   through the command line (a session start, a few rolls, rewards, penalties and an opposed
   roll, a session end, a new session), exported with ``tablee table export --format jsonl``,
   its events after the first session start repeated (renumbered ``seq``, later
   ``created_at``) until the log holds N events, and the file loaded with ``tablee table
   import``. The import folds the whole log with the rules first, so a log that does not replay
   is refused; the script then checks the exported length of the imported table. If the cut
   falls right after a session end, the next session start is kept too (N + 1 events), so the
   timed roll always finds an open session.
2. Runs one untimed roll with ``--table bench`` (which checks that the roll succeeds and
   prints JSON, and makes ``bench`` the table last used), then ``--warmup`` untimed runs of
   each command, then ``--runs`` timed runs of each, interleaved (roll, pass, roll, pass, ...)
   so that a noisy moment hits both alike:

       tablee --db DB pouyss roll --player Simon --bonus 1 --malus 2 --dice 1,4,5,6 --json
       python -c pass

   Each run is a child process: wall time is ``time.perf_counter`` around it, CPU time (user
   + system) comes from ``os.wait4`` on that child. Output is discarded.
3. Runs each command ``--rss-runs`` more times under GNU ``/usr/bin/time -f %M`` for its peak
   resident memory. (``ru_maxrss`` from ``os.wait4`` would not do: a child forked from this
   script starts with this script's pages counted, so it reports at least this script's size.
   Without ``/usr/bin/time`` the script falls back to it and says the figure is an upper bound.)

Every roll appends an event, so the log grows by ``1 + warmup + runs + rss-runs`` events while
it is measured (negligible against 20000; a new table ends with about 40).

It prints, per N: the median, p90, min and max wall time, the median CPU time, the median and
max peak RSS of each command, and the ratios roll / pass of the median wall and CPU times.
CPU time is the steadier figure when other jobs share the cores (wall time then mostly
measures waiting for a core); the header gives the load average.

Bytecode: by default the children use a private bytecode folder (``PYTHONPYCACHEPREFIX`` in
the temporary directory, ``PYTHONDONTWRITEBYTECODE`` removed), filled by the untimed runs, so
the figures are those of an installed Tablée with its ``.pyc`` files even in a shell that
forbids writing bytecode. ``--inherit-env`` runs the children in the inherited environment
instead (with ``PYTHONDONTWRITEBYTECODE=1`` every module is then compiled on every run).

It only drives the ``tablee`` command and reads its JSON Lines export (it needs each line to be
a JSON object with an integer ``seq``), so it can be rerun unchanged after internal changes.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_cli_roll.py [--events N [N ...]] [--runs 30]
        [--warmup 3] [--rss-runs 5] [--tablee PATH] [--python PATH] [--inherit-env] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

PLAYERS = "Simon,Ada,Louis,Mina"
GNU_TIME = "/usr/bin/time"
TABLE = "bench"
ROLL = ["pouyss", "roll", "--player", "Simon", "--bonus", "1", "--malus", "2"]
ROLL += ["--dice", "1,4,5,6", "--json"]

# The template game: played once through the command line, then repeated in the export.
# Each action keeps the cagnotte about level; the session ends and a new one starts.
TEMPLATE_ACTIONS = [
    ["pouyss", "roll", "--player", "Simon", "--bonus", "1", "--malus", "1", "--dice", "2,5,6"],
    ["pouyss", "roll", "--player", "Ada", "--dice", "4"],
    ["pouyss", "reward", "--amount", "1", "--player", "Louis"],
    ["pouyss", "roll", "--player", "Mina", "--bonus", "1", "--dice", "3,6"],
    ["pouyss", "penalty", "--amount", "1", "--player", "Simon"],
    ["pouyss", "roll", "--player", "Louis", "--malus", "1", "--dice", "2,5"],
    ["pouyss", "reward", "--amount", "1", "--player", "Ada"],
    [
        "pouyss",
        "opposed",
        "--active",
        "Ada",
        "--passive",
        "Mina",
        "--active-bonus",
        "1",
        "--dice",
        "3,5",
    ],
    ["pouyss", "roll", "--player", "Ada", "--bonus", "1", "--malus", "1", "--dice", "1,1,4"],
    ["pouyss", "penalty", "--amount", "1", "--player", "Mina"],
    ["pouyss", "roll", "--player", "Mina", "--dice", "6"],
]
SESSION_END = ["pouyss", "session", "end"]
SESSION_START = ["pouyss", "session", "start"]


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, or ``?`` where the system does not say."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


class BenchError(Exception):
    """A command of the set-up failed or gave something unexpected."""


def default_tablee() -> str:
    """The ``tablee`` next to this interpreter, else the one on PATH."""
    beside = Path(sys.executable).parent / "tablee"
    if beside.exists():
        return str(beside)
    found = shutil.which("tablee")
    if found is None:
        raise BenchError("no tablee command next to this Python nor on PATH (use --tablee)")
    return found


def child_env(tmp: Path, inherit: bool) -> dict[str, str]:
    """The children's environment: inherited, or with a private bytecode folder in ``tmp``."""
    env = dict(os.environ)
    if not inherit:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    return env


def cli(tablee: str, db: str, args: list[str], env: dict[str, str]) -> str:
    """Run ``tablee --db DB ARGS`` and return its standard output.

    Raises:
        BenchError: the command exited with a non-zero status.
    """
    argv = [tablee, "--db", db, *args]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise BenchError(
            f"command failed ({done.returncode}): {' '.join(argv)}\n{done.stderr.strip()}"
        )
    return done.stdout


def export_events(tablee: str, db: str, env: dict[str, str]) -> list[dict[str, Any]]:
    """The table's log as exported, one JSON object per line."""
    text = cli(tablee, db, ["--table", TABLE, "table", "export", "--format", "jsonl"], env)
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    events = [line for line in lines if "trailer" not in line]  # a signed export's last line
    if not events or not all(isinstance(e, dict) and isinstance(e.get("seq"), int) for e in events):
        raise BenchError("the JSONL export is not one JSON object with an integer seq per line")
    return events


BUILD = """
import sys
from tablee.dice import TypedFaces
from tablee.systems.pouyss.commands import Penalty, Reward, Roll, StartSession
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
service = TableService(SqliteStore(sys.argv[1]))
service.create(system="pouyss", name=sys.argv[2], players=sys.argv[3].split(","), lang="en")
service.run_command(sys.argv[2], StartSession(cagnotte=50))
for i in range(int(sys.argv[4]) - 2):
    if i % 3 == 0:
        service.run_command(sys.argv[2], Reward(amount=1))
    elif i % 3 == 1:
        roll = Roll(player="Simon", bonus=1, malus=1)
        service.run_command(sys.argv[2], roll, TypedFaces([1, 4, 6]))
    else:
        service.run_command(sys.argv[2], Penalty(amount=1))
"""
"""Builds an N-event Pouyss table through the package's own service (0.2.0 and later)."""


def build_through_api(tablee: str, db: str, events: int, env: dict[str, str]) -> None:
    """Play ``events`` events into table ``bench`` with the installed package's service."""
    python = str(Path(tablee).with_name("python"))
    if Path(db).exists():
        Path(db).unlink()
    args = [python, "-c", BUILD, db, TABLE, PLAYERS, str(events)]
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise BenchError(f"building through the API failed:\n{done.stderr.strip()}")


def _later(stamp: Any, by: timedelta) -> Any:
    """An ISO-8601 time ``by`` later; anything else as it is."""
    if not isinstance(stamp, str):
        return stamp
    try:
        return (datetime.fromisoformat(stamp) + by).isoformat()
    except ValueError:
        return stamp


def build_table(tablee: str, tmp: Path, events: int, env: dict[str, str]) -> tuple[str, int]:
    """A database whose table ``bench`` holds ``events`` events (see the module docstring).

    Returns:
        The database path and the number of events its table holds.
    """
    db = str(tmp / f"bench-{events}.db")
    if events <= 2:
        cli(tablee, db, ["table", "new", "pouyss", "--name", TABLE, "--players", PLAYERS], env)
        cli(tablee, db, ["--table", TABLE, *SESSION_START], env)
        return db, len(export_events(tablee, db, env))
    template_db = str(tmp / f"template-{events}.db")
    cli(tablee, template_db, ["table", "new", "pouyss", "--name", TABLE, "--players", PLAYERS], env)
    cli(tablee, template_db, ["--table", TABLE, *SESSION_START], env)
    head_len = len(export_events(tablee, template_db, env))
    for args in [*TEMPLATE_ACTIONS, SESSION_END]:
        cli(tablee, template_db, ["--table", TABLE, *args], env)
    end_len = len(export_events(tablee, template_db, env))
    cli(tablee, template_db, ["--table", TABLE, *SESSION_START], env)
    template = export_events(tablee, template_db, env)
    head, cycle = template[:head_len], template[head_len:]
    end_index = end_len - head_len - 1  # the session end's place in the cycle
    start = head[0].get("created_at")

    def renumbered(event: dict[str, Any], seq: int) -> dict[str, Any]:
        copy = {**event, "seq": seq}
        if "created_at" in copy:
            copy["created_at"] = _later(start, timedelta(seconds=seq))
        return copy

    log = list(head)
    i = 0
    while len(log) < events:
        log.append(renumbered(cycle[i % len(cycle)], len(log) + 1))
        i += 1
    if (i - 1) % len(cycle) == end_index:  # cut after a session end: start the next one
        log.append(renumbered(cycle[i % len(cycle)], len(log) + 1))
    path = tmp / f"bench-{events}.jsonl"
    unchained = [{k: v for k, v in e.items() if k not in ("chain", "command_key")} for e in log]
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in unchained))
    try:
        cli(tablee, db, ["table", "import", str(path), "--name", TABLE], env)
    except BenchError:
        # Since 0.2.0 an import checks every recorded outcome (the cagnotte a roll found),
        # which a repeated template breaks: play the events through the installed package.
        build_through_api(tablee, db, len(log), env)
    held = len(export_events(tablee, db, env))
    if held != len(log):
        raise BenchError(f"imported {len(log)} events but the table holds {held}")
    return db, held


def run_once(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """One child: wall ms and CPU ms (user + system).

    Raises:
        BenchError: the child exited with a non-zero status.
    """
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = (time.perf_counter() - start) * 1e3
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise BenchError(f"exit status {child.returncode}: {' '.join(argv)}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1e3


def peak_rss_kib(argv: list[str], env: dict[str, str], out: Path) -> tuple[int, bool]:
    """One child's peak resident memory in KiB, and whether it is exact.

    Exact from GNU ``/usr/bin/time -f %M``; without it, ``ru_maxrss`` from ``os.wait4``, an
    upper bound (see the module docstring).

    Raises:
        BenchError: the child exited with a non-zero status.
    """
    if not os.access(GNU_TIME, os.X_OK):
        child = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            raise BenchError(f"exit status {child.returncode}: {' '.join(argv)}")
        return usage.ru_maxrss, False
    done = subprocess.run(
        [GNU_TIME, "-f", "%M", "-o", str(out), *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise BenchError(f"exit status {done.returncode}: {GNU_TIME} {' '.join(argv)}")
    return int(out.read_text().split()[-1]), True


def summary(runs: list[tuple[float, float]], rss_kib: list[int]) -> dict[str, float]:
    """Median, p90, min and max wall ms, median CPU ms, median and max RSS MiB."""
    walls = [w for w, _ in runs]
    return {
        "wall_median_ms": statistics.median(walls),
        "wall_p90_ms": statistics.quantiles(walls, n=10, method="inclusive")[-1],
        "wall_min_ms": min(walls),
        "wall_max_ms": max(walls),
        "cpu_median_ms": statistics.median(c for _, c in runs),
        "rss_median_mib": statistics.median(rss_kib) / 1024,
        "rss_max_mib": max(rss_kib) / 1024,
    }


def measure(
    tablee: str,
    python: str,
    tmp: Path,
    events: int,
    counts: tuple[int, int, int],
    inherit: bool,
) -> dict[str, Any]:
    """Build the table, check the roll, time it against ``python -c pass``.

    Args:
        tablee: the command to time.
        python: the interpreter of ``python -c pass``.
        tmp: a scratch folder.
        events: the log's length before the timed rolls.
        counts: runs, warm-up runs and memory runs of each command.
        inherit: run the children in the inherited environment.

    Returns:
        The figures (see `report`).
    """
    runs, warmup, rss_runs = counts
    env = child_env(tmp, inherit)
    db, held = build_table(tablee, tmp, events, env)
    probe = cli(tablee, db, ["--table", TABLE, *ROLL], env)
    json.loads(probe)  # the roll answers JSON
    commands = {"roll": [tablee, "--db", db, *ROLL], "pass": [python, "-c", "pass"]}
    for _ in range(warmup):
        for argv in commands.values():
            run_once(argv, env)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(run_once(argv, env))
    rss: dict[str, list[int]] = {name: [] for name in commands}
    exact = True
    for _ in range(rss_runs):
        for name, argv in commands.items():
            kib, precise = peak_rss_kib(argv, env, tmp / "rss.txt")
            rss[name].append(kib)
            exact = exact and precise
    roll, empty = summary(times["roll"], rss["roll"]), summary(times["pass"], rss["pass"])
    return {
        "events": held,
        "runs": runs,
        "warmup": warmup,
        "rss_runs": rss_runs,
        "rss_exact": exact,
        "roll": roll,
        "pass": empty,
        "wall_ratio": roll["wall_median_ms"] / empty["wall_median_ms"],
        "cpu_ratio": roll["cpu_median_ms"] / empty["cpu_median_ms"],
    }


def report(results: list[dict[str, Any]], header: str) -> str:
    """A plain-text table of the results."""
    lines = [
        header,
        f"{'events':>7} {'command':<7}{'wall med':>9}{'p90':>8}{'min':>8}{'max':>8}"
        f"{'CPU med':>9}{'RSS med':>9}{'RSS max':>9}",
    ]
    for r in results:
        for name in ("roll", "pass"):
            s = r[name]
            lines.append(
                f"{r['events']:>7} {name:<7}{s['wall_median_ms']:>9.1f}{s['wall_p90_ms']:>8.1f}"
                f"{s['wall_min_ms']:>8.1f}{s['wall_max_ms']:>8.1f}{s['cpu_median_ms']:>9.1f}"
                f"{s['rss_median_mib']:>9.1f}{s['rss_max_mib']:>9.1f}"
            )
        lines.append(
            f"{r['events']:>7} ratio roll / pass: wall {r['wall_ratio']:.2f}x, "
            f"CPU {r['cpu_ratio']:.2f}x"
        )
    exact = all(r["rss_exact"] for r in results)
    lines.append(
        "(times in ms, medians of the timed runs; RSS = peak resident memory in MiB, "
        + ("from /usr/bin/time -f %M)" if exact else "UPPER BOUND from wait4: no /usr/bin/time)")
    )
    return "\n".join(lines)


def main() -> int:
    """Parse the arguments, measure each table size and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--events",
        type=int,
        nargs="+",
        default=[0, 20000],
        metavar="N",
        help="events in the table's log before the timed rolls (default: 0 20000; at least 2)",
    )
    parser.add_argument("--runs", type=int, default=30, help="timed runs of each command")
    parser.add_argument("--warmup", type=int, default=3, help="untimed runs of each command")
    parser.add_argument(
        "--rss-runs", type=int, default=5, help="runs of each command for peak memory"
    )
    parser.add_argument("--tablee", default=None, help="the tablee command to time")
    parser.add_argument("--python", default=sys.executable, help="the Python of 'python -c pass'")
    parser.add_argument(
        "--inherit-env", action="store_true", help="no private bytecode folder for the children"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.runs < 2 or args.warmup < 0 or args.rss_runs < 1:
        parser.error("--runs must be at least 2, --warmup at least 0, --rss-runs at least 1")
    load_before = load_average()
    try:
        tablee = args.tablee or default_tablee()
        results = []
        for events in args.events:
            with tempfile.TemporaryDirectory(prefix="tablee-bench-roll-") as tmp:
                results.append(
                    measure(
                        tablee,
                        args.python,
                        Path(tmp),
                        events,
                        (args.runs, args.warmup, args.rss_runs),
                        args.inherit_env,
                    )
                )
    except BenchError as exc:
        print(f"bench_cli_roll: {exc}", file=sys.stderr)
        return 1
    header = (
        f"tablee roll vs python -c pass; {args.runs} timed runs each after {args.warmup} warm-up"
        f" runs, interleaved; {os.cpu_count()} CPUs; load average {load_before} at the start,"
        f" {load_average()} at the end; Python"
        f" {sys.version.split()[0]}; bytecode: "
        + ("inherited environment" if args.inherit_env else "private cache")
    )
    if args.json:
        print(json.dumps({"header": header, "results": results}, indent=2))
    else:
        print(report(results, header))
    return 0


if __name__ == "__main__":
    sys.exit(main())
