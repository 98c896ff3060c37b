"""Odds through the chance protocol: each accelerator against the rule code it stands for.

(a) In one process, for each odds query: CPU time (``time.process_time``) of one call of the
    default (accelerated) function and of the same function with ``accelerated=False``,
    which drives the rule code through `tablee.dice.exact` or `tablee.dice.absorbing`. The
    first call is "cold" (the module caches cleared); the accelerated call is also timed warm
    (median of 5). Both results must be equal, else the script stops.
(b) ``tablee odds ...`` commands as whole processes, CPU time of the child (user + system,
    ``getrusage``), median of ``-n`` runs, interleaved with the same commands run on another
    checkout given by ``--before SRC`` (for instance ``../main/src``: the code before the
    chance protocol), so both are measured in the same run.

Usage: ``.venv/bin/python benchmarks/bench_chance.py [-n 5] [--before PATH/src] [--json]``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from tablee.systems import agents, shs
from tablee.systems.ybs import gang_odds, odds

COMMANDS = [
    "odds shs --threshold 6 --bonus 3 --malus 1 --difficulty 2 --json",
    "odds shs --threshold 5 --expertise --bonus 12 --option surpasser --json",
    "odds agents challenge --reserves 7,5,3 --modifiers 0,1,0 --score 10 --json",
    "odds agents challenge --reserves 10,10,10 --modifiers 1,0,-1 --score 20 --json",
    "odds ybs test --trait -2 --tokens 100 --json",
    "odds ybs gang-fight --dice 5 --against 5 --json",
    "odds ybs gang-fight --dice 6 --against 6 --json",
    "odds ybs ichika --json",
]


def _clear() -> None:
    from tablee.dice import enumeration
    from tablee.systems.agents.odds import result_weights
    from tablee.systems.ybs import advisor

    enumeration._outcomes.cache_clear()
    result_weights.cache_clear()
    advisor._solve.cache_clear()
    advisor._outcomes.cache_clear()
    gang_odds._side_step.cache_clear()


def _cases() -> list[tuple[str, Callable[..., Any]]]:
    test = shs.Test(6, 2, bonus=3, malus=1)
    big = shs.Test(5, 1, expertise=True, bonus=12, surpass=True)
    coop = shs.Cooperation((shs.Test(6, 2), shs.Test(7, 2)))
    opposed = shs.OpposedAction(shs.ActionRoll(6, bonus=1), shs.ActionRoll(7, malus=1))
    return [
        ("shs success, 3 D8 + 2 D+/-", lambda **k: shs.success_distribution(test, **k)),
        ("shs PS, 3 D10 + 14 D+/-", lambda **k: shs.ps_distribution(big, **k)),
        ("shs opposed, 2 x (3 D8 + 1 D+/-)", lambda **k: shs.opposed_odds(opposed, **k)),
        ("shs cooperation, 2 members", lambda **k: shs.cooperation_odds(coop, **k)),
        (
            "agents challenge 7,5,3 v 10",
            lambda **k: agents.challenge_win_probability([7, 5, 3], [0, 1, 0], 10, **k),
        ),
        ("ybs gang fight 4 v 4", lambda **k: gang_odds.gang_fight_odds(4, 4, **k)),
        ("ybs ichika 5 v 5", lambda **k: gang_odds.ichika_odds(**k)),
    ]


def _cpu(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    value = call()
    return (time.process_time() - start) * 1000, value


def in_process() -> list[dict[str, Any]]:
    """(a): accelerated and rule-code CPU per call, in milliseconds."""
    rows = []
    for name, call in _cases():
        _clear()
        fast_cold, fast = _cpu(lambda c=call: c())
        warm = statistics.median(_cpu(lambda c=call: c())[0] for _ in range(5))
        _clear()
        slow_ms, slow = _cpu(lambda c=call: c(accelerated=False))
        if fast != slow:
            sys.exit(f"{name}: the accelerator and the rule code disagree")
        rows.append({"case": name, "fast_cold": fast_cold, "fast_warm": warm, "rules": slow_ms})
    ybs_test_ms, _ = _cpu(lambda: odds.odds_of_test(-2, tokens=100))
    rows.append(
        {"case": "ybs test, 100 tokens (rule code only)", "fast_cold": ybs_test_ms, "rules": None}
    )
    return rows


def _child_cpu(args: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000


def commands(n: int, before: str | None) -> list[dict[str, Any]]:
    """(b): whole ``tablee odds`` processes, this checkout and (optionally) another one."""
    env = dict(os.environ)
    other = {**env, "PYTHONPATH": before} if before else None
    rows = []
    for command in COMMANDS:
        args = [sys.executable, "-m", "tablee", *command.split()]
        now, then = [], []
        for _ in range(n):
            now.append(_child_cpu(args, env))
            if other is not None:
                then.append(_child_cpu(args, other))
        rows.append(
            {
                "command": "tablee " + command,
                "after": statistics.median(now),
                "before": statistics.median(then) if then else None,
            }
        )
    return rows


def main() -> None:
    """Run (a) and (b) and print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=5, help="runs per command (median)")
    parser.add_argument("--before", metavar="SRC", help="another checkout's src folder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = {"in_process": in_process(), "commands": commands(args.n, args.before)}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print("| odds | accelerated, cold ms | warm ms | rule code ms |")
    print("|---|---|---|---|")
    for r in result["in_process"]:
        rules = "-" if r["rules"] is None else f"{r['rules']:.1f}"
        warm = f"{r['fast_warm']:.2f}" if "fast_warm" in r else "-"
        print(f"| {r['case']} | {r['fast_cold']:.1f} | {warm} | {rules} |")
    print()
    print("| command | CPU ms before | CPU ms after |")
    print("|---|---|---|")
    for r in result["commands"]:
        before = "-" if r["before"] is None else f"{r['before']:.0f}"
        print(f"| `{r['command']}` | {before} | {r['after']:.0f} |")


if __name__ == "__main__":
    main()
