"""Write src/tablee/systems/ybs/race_table.py: the race-advice policies, solved once.

Usage: .venv/bin/python scripts/race_table.py   (a few minutes: every game of 4 to 6 dice a
side, both options of Y-A13, both opponent policies). The table only stores which dice each
side keeps; `tablee.systems.ybs.race` evaluates them exactly when loading, and a test checks
the stored policies against a fresh solve.
"""

from __future__ import annotations

import base64
import json
import textwrap
import zlib
from pathlib import Path

from tablee.systems.ybs.race import OPPONENTS, encode_policy, solve, table_key

TARGET = Path(__file__).resolve().parents[1] / "src/tablee/systems/ybs/race_table.py"


def main() -> None:
    """Solve every game and write the table."""
    table: dict[str, list[object]] = {}
    for higher in (True, False):
        for ours in (4, 5, 6):
            for theirs in (4, 5, 6):
                for opponent in OPPONENTS:
                    solved = solve(ours, theirs, higher, opponent)
                    mine, other = encode_policy(solved, ours, theirs, higher)
                    key = table_key(ours, theirs, higher, opponent)
                    table[key] = [mine, other, solved.equilibrium, solved.rounds]
                    print(key, solved.equilibrium, flush=True)
    blob = base64.b64encode(zlib.compress(json.dumps(table, sort_keys=True).encode(), 9))
    lines = textwrap.wrap(blob.decode("ascii"), 90)
    body = "\n".join(f'    "{line}"' for line in lines)
    TARGET.write_text(
        '"""The race-advice policies of every gang fight of 4 to 6 dice a side, solved once.\n\n'
        "Written by ``scripts/race_table.py`` (do not edit): a zlib-compressed JSON object, in\n"
        "base64, from `tablee.systems.ybs.race.table_key` to ``[our keeps, their keeps,\n"
        "equilibrium, rounds]``, a keep per state as one character (``chr(48 + mask)``).\n\n"
        "Source: seed 004; rulings Y-M7, Y-A13, Y-A14, Y-X9.\n"
        '"""\n\n'
        '__all__ = ["SOLUTIONS"]\n\n'
        "SOLUTIONS: str = (\n" + body + "\n)\n"
        '"""The stored solutions, compressed (read by `tablee.systems.ybs.race`)."""\n',
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
