"""Write src/tablee/systems/ybs/gang_odds_table.py: the gang fights' exact odds, solved once.

Usage: .venv/bin/python scripts/gang_odds_table.py   (about half a minute: every fight of 4 to
6 dice a side, both options of Y-A13, solved by `tablee.systems.ybs.gang_odds.gang_fight_odds`
with ``stored=False``). A test checks the stored odds against a fresh solve.
"""

from __future__ import annotations

import base64
import json
import textwrap
import zlib
from pathlib import Path

from tablee.systems.ybs.gang_odds import gang_fight_odds, odds_key

TARGET = Path(__file__).resolve().parents[1] / "src/tablee/systems/ybs/gang_odds_table.py"


def main() -> None:
    """Solve every fight and write the table."""
    table: dict[str, list[str]] = {}
    for higher in (True, False):
        for ours in (4, 5, 6):
            for theirs in (4, 5, 6):
                odds = gang_fight_odds(ours, theirs, higher_straight_wins=higher, stored=False)
                key = odds_key(ours, theirs, higher)
                table[key] = [str(odds.win), str(odds.draw), str(odds.loss)]
                table[key].append(str(odds.expected_throws))
                print(key, float(odds.win), flush=True)
    blob = base64.b64encode(zlib.compress(json.dumps(table, sort_keys=True).encode(), 9))
    lines = textwrap.wrap(blob.decode("ascii"), 90)
    body = "\n".join(f'    "{line}"' for line in lines)
    TARGET.write_text(
        '"""The exact odds of every gang fight of 4 to 6 dice a side, solved once.\n\n'
        "Written by ``scripts/gang_odds_table.py`` (do not edit): a zlib-compressed JSON object,\n"
        "in base64, from `tablee.systems.ybs.gang_odds.odds_key` to ``[win, draw, loss,\n"
        "expected throws]``, each an exact fraction written ``numerator/denominator``.\n\n"
        "Source: seed 004; rulings Y-M7, Y-A13, Y-A14.\n"
        '"""\n\n'
        '__all__ = ["ODDS"]\n\n'
        "ODDS: str = (\n" + body + "\n)\n"
        '"""The stored odds, compressed (read by `tablee.systems.ybs.gang_odds`)."""\n',
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
