"""``tablee demo``: a short scripted Pouyss session on the real commands.

It creates a table for four players, starts a session, makes a few rolls with seeded dice
(among them the text's two worked examples with their own faces), rewards role-play, makes
an opposed roll, undoes a mistaken roll, ends the session and prints the log.

Source: issue 2 point 1 (the main job until the web table exists); seed 000 examples
(P-T7, P-T8).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import IO

from tablee.cli.app import Context

__all__ = ["run_demo"]

Main = Callable[[Sequence[str] | None, IO[str] | None, IO[str] | None], int]


def run_demo(ctx: Context, main: Main) -> int:
    """Run the scripted session through ``main``, echoing each command.

    Returns:
        0, or the exit code of the first command that failed.
    """
    a = ctx.args
    name = a.name or datetime.now(UTC).strftime("demo-%Y%m%d-%H%M%S")
    common = ["--table", name, "--lang", ctx.lang]
    if getattr(a, "db", None):
        common += ["--db", a.db]
    seeds = iter(str(a.seed + i) for i in range(10))
    script: list[list[str]] = [
        [
            "table",
            "new",
            "pouyss",
            "--name",
            name,
            "--players",
            "Simon,Ada,Louis,Mina",
            "--lang",
            ctx.lang,
            *(["--db", a.db] if getattr(a, "db", None) else []),
        ],
        ["pouyss", "session", "start", *common],
        ["pouyss", "roll", "--player", "Simon", "--bonus", "2", "--dice", "1,2,3", *common],
        [
            "pouyss",
            "roll",
            "--player",
            "Simon",
            "--bonus",
            "1",
            "--malus",
            "2",
            "--dice",
            "1,4,5,6",
            *common,
        ],
        [
            "pouyss",
            "roll",
            "--player",
            "Ada",
            "--bonus",
            "1",
            "--odds",
            "--seed",
            next(seeds),
            *common,
        ],
        ["pouyss", "reward", "--amount", "1", "--player", "Louis", *common],
        [
            "pouyss",
            "opposed",
            "--active",
            "Mina",
            "--passive-npc",
            "the stranger",
            "--passive-bonus",
            "1",
            "--seed",
            next(seeds),
            *common,
        ],
        ["pouyss", "roll", "--player", "Louis", "--malus", "1", "--seed", next(seeds), *common],
        ["table", "undo", "--reason", "wrong player", *common],
        ["pouyss", "session", "end", *common],
        ["table", "log", *common],
    ]
    for argv in script:
        ctx.out.write("\n$ tablee " + " ".join(_quote(x) for x in argv) + "\n")
        code = main(argv, ctx.out, None)
        if code:
            return code
    return 0


def _quote(arg: str) -> str:
    return f"'{arg}'" if " " in arg else arg
