"""The log entry of one Pouyss roll, drawn as a stream draws it: CPU microseconds per entry.

A table's process draws each new event's log entry once for its streams (its line, its
trace, its roll card, the template). This script stores one Pouyss roll (2 bonus dice and 1
malus die, typed faces, so every run draws the same card) on a fresh SQLite table and times
`tablee.web.render.entry_html` for a spectator, the state's memos emptied before each
drawing (as in a process that did not store the roll itself), median of ``--repeats``
batches, with `time.process_time`.

Usage: ``.venv/bin/python benchmarks/bench_entry.py [--batch 2000] [--repeats 5]``; run it
with ``PYTHONPATH=<other checkout>/src`` to time other sources with the same script.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from tablee.dice import TypedFaces
from tablee.systems.pouyss.commands import Roll, StartSession
from tablee.table.links import issue_table_links
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web import declared, render
from tablee.web.access import Viewer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "entry.sqlite")
        service = TableService(store, remember_last=False)
        state = service.create(system="pouyss", name="entry", players=["A", "B"], lang="en")
        issued = issue_table_links(store, state, service.clock())
        spectator = next(i for i in issued if i.info.role == "spectator")
        service.run_command("entry", StartSession(cagnotte=4), None)
        roll = Roll(player="A", bonus=2, malus=1)
        service.run_command("entry", roll, TypedFaces([1, 4, 5, 6]))
        now = service.state("entry")
        event = now.events[-1]
        viewer = Viewer(spectator.info, now.name, "en")

        def drawn() -> str:
            render._MEMO._kept.clear()
            declared._MEMO._kept.clear()
            return render.entry_html(event, now, viewer, fresh=True)

        drawn()
        runs = []
        for _ in range(args.repeats):
            start = time.process_time()
            for _ in range(args.batch):
                drawn()
            runs.append((time.process_time() - start) / args.batch * 1e6)
        store.close()
    shown = ", ".join(f"{r:.0f}" for r in runs)
    print(f"entry of a roll: {statistics.median(runs):.0f} us CPU (median of {shown})")


if __name__ == "__main__":
    main()
