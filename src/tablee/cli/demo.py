"""``tablee demo``: a short scripted Pouyss session on the real commands.

It creates a table for four players, starts a session, makes a few rolls with seeded dice
(among them the text's two worked examples with their own faces), rewards role-play, makes
an opposed roll, undoes a mistaken roll, ends the session and prints the log. With
``--json`` it prints one JSON array: each command with its exit code and JSON output.

Source: README.md, "Quick start" (``tablee demo``); seed 000 examples (P-T7, P-T8).
"""

from __future__ import annotations

import io
import json
import shlex
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import IO, Any

from tablee.cli.app import Context
from tablee.errors import N_

__all__ = ["run_demo", "script"]

Main = Callable[[Sequence[str] | None, IO[str] | None, IO[str] | None], int]


def script(name: str, seed: int, tr: Callable[[str], str]) -> list[str]:
    """The demo's commands, one shell line each (without the common options).

    Args:
        name: the demo table's name.
        seed: the first seed; each seeded roll uses the next one.
        tr: translation of the free texts (a non-player character's name, a reason).
    """
    stranger = shlex.quote(tr(N_("the stranger")))
    reason = shlex.quote(tr(N_("wrong player")))
    return [
        f"table new pouyss --name {shlex.quote(name)} --players Simon,Ada,Louis,Mina",
        "pouyss session start",
        "pouyss roll --player Simon --bonus 2 --dice 1,2,3",
        "pouyss roll --player Simon --bonus 1 --malus 2 --dice 1,4,5,6",
        f"pouyss roll --player Ada --bonus 1 --odds --seed {seed}",
        "pouyss reward --amount 1 --player Louis",
        f"pouyss opposed --active Mina --passive-npc {stranger} --passive-bonus 1 "
        f"--seed {seed + 1}",
        f"pouyss roll --player Louis --malus 1 --seed {seed + 2}",
        f"table undo --reason {reason}",
        "pouyss session end",
        "table log",
    ]


def _free_name(ctx: Context, base: str) -> str:
    """``base``, or ``base-2``, ``base-3``... when a table already has that name."""
    taken = {t.name for t in ctx.service.store.tables()}
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    return name


def run_demo(ctx: Context, main: Main) -> int:
    """Run the scripted session through ``main``, echoing each command.

    Returns:
        0, or the exit code of the first command that failed.
    """
    a = ctx.args
    name = a.name or _free_name(ctx, datetime.now(UTC).strftime("demo-%Y%m%d-%H%M%S"))
    common = ["--lang", ctx.lang] + (["--db", a.db] if getattr(a, "db", None) else [])
    report: list[dict[str, Any]] = []
    for line in script(name, a.seed, ctx.tr):
        argv = shlex.split(line) + common + (["--table", name] if "table new" not in line else [])
        if ctx.json:
            out = io.StringIO()
            code = main([*argv, "--json"], out, None)
            report.append(
                {
                    "command": "tablee " + line,
                    "exit_code": code,
                    "output": json.loads(out.getvalue()) if code == 0 else None,
                }
            )
        else:
            ctx.out.write(f"\n$ tablee {line}\n")
            code = main(argv, ctx.out, None)
        if code:
            break
    if ctx.json:
        ctx.emit_json(report)
    return code
