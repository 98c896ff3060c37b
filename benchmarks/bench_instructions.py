"""Instructions per roll of the web application, counted by Valgrind: steady where CPU time is not.

On a shared 2-core machine the CPU time of the same roll moves by a third from one minute
to the next (other tenants, the cores' clock), so a change of a tenth cannot be seen in
one run of `bench_web_asgi.py`. The number of machine instructions the interpreter runs
for a roll barely moves: this script runs ``bench_web_asgi.py`` under Valgrind's
cachegrind (``--cache-sim=no``: instruction counts only, about 40 times slower than
without) twice, with ``--rolls`` and three times as many, both after the same warm-up,
and prints the difference divided by the extra rolls: the instructions of one roll with
its streams (the start-up, the imports and the warm-up cancel out). ``PYTHONHASHSEED`` is
fixed so that both runs hash alike.

An instruction is not a unit of time (a cache miss costs more than an addition), but for
the interpreter's work the two move together; compare sources in the same way, with
``PYTHONPATH=<other checkout>/src``.

Needs the ``valgrind`` command (Debian's ``valgrind`` package). Takes 2 to 5 minutes.

Usage: ``.venv/bin/python benchmarks/bench_instructions.py [--rolls 100] [--warmup 40]``
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
COUNTED = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(rolls: int, warmup: int) -> int:
    """The instructions of one run of bench_web_asgi.py with ``rolls`` rolls, start-up included."""
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        str(HERE / "bench_web_asgi.py"),
        f"--rolls={rolls}",
        f"--warmup={warmup}",
        "--repeats=1",
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    found = COUNTED.search(done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100, help="rolls of the shorter run")
    parser.add_argument("--warmup", type=int, default=40)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    short = instructions(args.rolls, args.warmup)
    long = instructions(3 * args.rolls, args.warmup)
    per_roll = (long - short) / (2 * args.rolls)
    print(f"instructions per roll: {per_roll:,.0f} ({short:,} and {long:,} in all)")


if __name__ == "__main__":
    main()
