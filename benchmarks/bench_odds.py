"""Exact odds of the Pouyss roll: Tablée's closed form against icepool 2.1.3 and dyce 0.7.0.

What is timed (all with ``time.perf_counter``, medians over repeats):

(a) The whole grid, bonus and malus 0..20 (441 cases, pools of 1 to 41 d6):
    * cold, in a fresh subprocess per repeat: the library's import, then one pass over the
      grid; the child reports both times, the grid pass alone being the headline figure
      (interpreter start-up is the same for every library and is left out); children read
      and write bytecode in a private ``PYTHONPYCACHEPREFIX`` folder, warmed by one untimed
      run, so no library recompiles its sources (a shell with ``PYTHONDONTWRITEBYTECODE=1``
      would otherwise recompile Tablée, not installed as ``.pyc``, on every run);
    * Tablée in-process cold (``_cumulative.cache_clear()`` before each pass) and warm (after
      one pass); icepool and dyce warm in-process (after one pass, their own caches full).
(b) One query, bonus 3 and malus 2, warm: microseconds per call, median of many batches.

Before any timing, the three libraries must give exactly equal probabilities
(``fractions.Fraction``) on every case of the grid; the script stops otherwise.

The roll: throw ``1 + B + M`` d6, drop the ``M`` highest, read the highest die left.
    Tablée:  ``action_distribution(ActionRoll(b, m))``
    icepool: ``icepool.d6.pool(1 + b + m).highest(keep=1, drop=m).sum()``
    dyce:    ``(n @ P(6)).at(n - 1 - m)`` with ``n = 1 + b + m`` (ascending positions)

Usage: ``.venv/bin/python benchmarks/bench_odds.py [--repeats 7] [--json]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

GRID = [(b, m) for b in range(21) for m in range(21)]
QUERY = (3, 2)

# One pass over the grid per library; each builds the exact distribution and keeps it.
_BUILD = {
    "tablee": (
        "from tablee.systems.pouyss import ActionRoll\n"
        "from tablee.systems.pouyss.odds import action_distribution\n",
        "action_distribution(ActionRoll(b, m))",
    ),
    "icepool": (
        "import icepool\n",
        "icepool.d6.pool(1 + b + m).highest(keep=1, drop=m).sum()",
    ),
    "dyce": (
        "from dyce import P\n",
        "(n @ P(6)).at(n - 1 - m)",
    ),
}

_CHILD = """\
import time
t0 = time.perf_counter()
{imports}
t1 = time.perf_counter()
out = []
for b in range(21):
    for m in range(21):
        n = 1 + b + m
        out.append({expr})
t2 = time.perf_counter()
print((t1 - t0) * 1e3, (t2 - t1) * 1e3)
"""

LIBS = tuple(_BUILD)


def _child_source(lib: str) -> str:
    imports, expr = _BUILD[lib]
    return _CHILD.format(imports=imports, expr=expr)


def bytecode_env(prefix: str) -> dict[str, str]:
    """The inherited environment with bytecode written to and read from ``prefix``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = prefix
    return env


def run_cold(lib: str, env: dict[str, str] | None = None) -> tuple[float, float]:
    """One fresh interpreter: (import ms, grid ms)."""
    done = subprocess.run(
        [sys.executable, "-c", _child_source(lib)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    import_ms, grid_ms = (float(x) for x in done.stdout.split())
    return import_ms, grid_ms


# ---------------------------------------------------------------- in-process builders


def _tablee() -> Callable[[int, int], Any]:
    from tablee.systems.pouyss import ActionRoll
    from tablee.systems.pouyss.odds import action_distribution

    return lambda b, m: action_distribution(ActionRoll(b, m))


def _icepool() -> Callable[[int, int], Any]:
    import icepool

    return lambda b, m: icepool.d6.pool(1 + b + m).highest(keep=1, drop=m).sum()


def _dyce() -> Callable[[int, int], Any]:
    from dyce import P

    def build(b: int, m: int) -> Any:
        n = 1 + b + m
        return (n @ P(6)).at(n - 1 - m)

    return build


def _probabilities(lib: str, dist: Any) -> dict[int, Fraction]:
    if lib == "tablee":
        return dict(dist.items())
    if lib == "icepool":
        return {v: Fraction(q, dist.denominator()) for v, q in dist.items()}
    total = dist.total
    return {v: Fraction(c, total) for v, c in dist.items() if c}


def check_equal(builders: dict[str, Callable[[int, int], Any]]) -> None:
    """Stop unless the three libraries agree exactly on every case of the grid."""
    for b, m in GRID:
        probs = {lib: _probabilities(lib, build(b, m)) for lib, build in builders.items()}
        ref = probs["tablee"]
        bad = [lib for lib, p in probs.items() if p != ref]
        if bad:
            raise SystemExit(f"mismatch at bonus={b} malus={m}: {bad} differ from tablee")


def _grid_ms(build: Callable[[int, int], Any], before: Callable[[], None] | None = None) -> float:
    if before is not None:
        before()
    t = time.perf_counter()
    for b, m in GRID:
        build(b, m)
    return (time.perf_counter() - t) * 1e3


def query_us(build: Callable[[int, int], Any], batches: int = 200, per_batch: int = 50) -> float:
    """Median microseconds of one warm query, over batches of calls."""
    b, m = QUERY
    build(b, m)
    times = []
    for _ in range(batches):
        t = time.perf_counter()
        for _ in range(per_batch):
            build(b, m)
        times.append((time.perf_counter() - t) / per_batch * 1e6)
    return statistics.median(times)


# ---------------------------------------------------------------------------- driver


def measure(repeats: int, env: dict[str, str] | None) -> dict[str, Any]:
    """Run every measurement once (same run, same machine state) and return the figures."""
    builders = {"tablee": _tablee(), "icepool": _icepool(), "dyce": _dyce()}
    check_equal(builders)
    for lib in LIBS:  # bytecode and the OS file cache, not timed
        run_cold(lib, env)
    cold: dict[str, list[tuple[float, float]]] = {lib: [] for lib in LIBS}
    for _ in range(repeats):  # interleaved, so a noisy moment hits every library alike
        for lib in LIBS:
            cold[lib].append(run_cold(lib, env))
    res: dict[str, Any] = {"repeats": repeats, "cases": len(GRID), "cold": {}}
    for lib, runs in cold.items():
        grid = [g for _, g in runs]
        res["cold"][lib] = {
            "import_ms": statistics.median(i for i, _ in runs),
            "grid_ms": statistics.median(grid),
            "grid_ms_min": min(grid),
            "grid_ms_max": max(grid),
            "import_plus_grid_ms": statistics.median(i + g for i, g in runs),
        }
    from tablee.systems.pouyss.odds import _cumulative

    res["tablee_inprocess_cold_ms"] = statistics.median(
        _grid_ms(builders["tablee"], _cumulative.cache_clear) for _ in range(repeats * 3)
    )
    res["warm_grid_ms"] = {}
    for lib, build in builders.items():
        _grid_ms(build)
        res["warm_grid_ms"][lib] = statistics.median(_grid_ms(build) for _ in range(repeats))
    res["query_us"] = {lib: query_us(build) for lib, build in builders.items()}
    return res


def report(res: dict[str, Any]) -> str:
    """The figures as text, with the ratios against Tablée."""
    cold, tab = res["cold"], res["cold"]["tablee"]
    lines = [
        f"Pouyss odds grid: {res['cases']} cases (bonus, malus 0..20), "
        f"medians of {res['repeats']} fresh processes; all three agree exactly.",
        "",
        f"{'cold, fresh process':<22}{'import ms':>11}{'grid ms':>10}{'(min-max)':>16}"
        f"{'grid x tablee':>15}{'import+grid x':>15}",
    ]
    for lib in LIBS:
        c = cold[lib]
        lines.append(
            f"{lib:<22}{c['import_ms']:>11.1f}{c['grid_ms']:>10.2f}"
            f"{c['grid_ms_min']:>8.1f}-{c['grid_ms_max']:<7.1f}"
            f"{c['grid_ms'] / tab['grid_ms']:>15.1f}"
            f"{c['import_plus_grid_ms'] / tab['import_plus_grid_ms']:>15.1f}"
        )
    lines += [
        "",
        f"tablee in-process cold (cache_clear each pass): {res['tablee_inprocess_cold_ms']:.2f} ms",
        "",
        f"{'warm, in-process':<22}{'grid ms':>10}{'x tablee':>10}"
        f"{'query us':>12}{'x tablee':>10}   (query: bonus {QUERY[0]}, malus {QUERY[1]})",
    ]
    wg, q = res["warm_grid_ms"], res["query_us"]
    for lib in LIBS:
        lines.append(
            f"{lib:<22}{wg[lib]:>10.3f}{wg[lib] / wg['tablee']:>10.1f}"
            f"{q[lib]:>12.2f}{q[lib] / q['tablee']:>10.1f}"
        )
    ratio = cold["icepool"]["grid_ms"] / tab["grid_ms"]
    verdict = "met" if ratio >= 20 else "MISSED"
    lines += [
        "",
        f"target: grid cold at least 20x faster than icepool cold -> {ratio:.1f}x, {verdict}",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="fresh processes per library")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    parser.add_argument(
        "--inherit-env",
        action="store_true",
        help="children use the inherited environment, no private bytecode cache",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tablee-bench-") as tmp:
        env = None if args.inherit_env else bytecode_env(os.path.join(tmp, "pycache"))
        res = measure(args.repeats, env)
    print(json.dumps(res, indent=2) if args.json else report(res))


if __name__ == "__main__":
    main()
