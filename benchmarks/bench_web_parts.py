"""Where a roll's server time goes: the web table's hot path timed piece by piece, in process.

No HTTP and no threads: each piece of what the server does for one roll posted and pushed
to its streams is timed alone on a fresh SQLite table (median of ``--repeats`` batches of
``--batch`` calls, in microseconds per call):

* ``find_link``: the link lookup every request makes (`EventStore.find_link`);
* ``state``: the table's state from the service's snapshot (`TableService.state`: the
  table's row, then the events stored since the snapshot);
* ``roll``: one Pouyss roll through the web form's handler (`Action.run`: reads the state,
  decides, appends in one transaction);
* ``fragment``: one pushed message rendered for one viewer alone (`stream_fragment`: the
  log entry and the resources panel);
* ``entry`` / ``resources``: its two parts alone;
* ``shared``: the messages of one new event for ``--viewers`` streams (spectator, game
  master, each player in turn) as the server makes them, rendered once per audience and
  shared (`tablee.web.render.Fragments`), from a `Fragments` that has kept nothing;
* ``next``: the same for each of ``--batch`` rolls in turn, through one `Fragments` kept
  across them as the server keeps it (what an unchanged resources panel or choice list
  costs: nothing drawn again).

``per roll`` adds what the server does for one roll with ``--viewers`` streams: 2 link
lookups and 2 state reads (the POST), the roll, then for the streams one state read and
the shared messages (``next``). Times are CPU times (``time.process_time``), steadier than
wall time on a shared machine. HTTP parsing, routing and the rate limiter come on top (see
bench_web.py and benchmarks/README.md).

Usage: ``.venv/bin/python benchmarks/bench_web_parts.py [--viewers 5] [--repeats 7]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablee.table.connect import open_store
from tablee.table.links import hash_token, issue_table_links
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web.access import Viewer
from tablee.web.render import Fragments, entry_html, resources_html, stream_fragment
from tablee.web.systems import ActionRequest, web_system

CLOCK = time.perf_counter
"""What `timed` reads: wall time, or this process's CPU time with ``--cpu``."""


def timed(work: Callable[[], Any], batch: int, repeats: int) -> float:
    """Median microseconds per call of ``work`` over ``repeats`` batches of ``batch`` calls."""
    runs = []
    for _ in range(repeats):
        start = CLOCK()
        for _ in range(batch):
            work()
        runs.append((CLOCK() - start) / batch * 1e6)
    return statistics.median(runs)


def shared(fragments: Fragments, event: Any, state: Any, streams: list[Viewer]) -> list[bytes]:
    """One event's messages for every stream, through one `Fragments` (as the server does)."""
    return [fragments.message(event, state, viewer) for viewer in streams]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=5)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument(
        "--db", help="a database URL (postgresql://...) instead of a fresh SQLite file"
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time this process's CPU instead of the wall clock (a database server's own "
        "work and the waits for it are then left out)",
    )
    args = parser.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(args.db) if args.db else SqliteStore(Path(folder) / "parts.sqlite")
        service = TableService(store, remember_last=False)
        name = f"parts {os.urandom(4).hex()}"  # a reused database keeps earlier runs' tables
        state = service.create(system="pouyss", name=name, players=["A", "B"], lang="en")
        issued = issue_table_links(store, state, service.clock())
        gm = next(i for i in issued if i.info.role == "gm")
        spectator = next(i for i in issued if i.info.role == "spectator")
        roller = Viewer(gm.info, state.name, "en")
        watcher = Viewer(spectator.info, state.name, "en")
        order = [spectator, gm, *(i for i in issued if i.info.role == "player")]
        streams = [
            Viewer(order[n % len(order)].info, state.name, "en") for n in range(args.viewers)
        ]
        web = web_system("pouyss")
        assert web is not None
        actions = {a.id: a for a in web.actions()}
        start = ActionRequest(actions["session-start"], {}, roller, state, service)
        actions["session-start"].run(start)
        form = {"player": "A", "reasons": "bench"}

        def roll() -> Any:
            now = service.state(state.name)
            action = actions["roll"]
            return action.run(ActionRequest(action, form, roller, now, service))

        roll()
        now = service.state(state.name)
        event = now.events[-1]
        assert event.kind == "pouyss.roll", event.kind  # the roll was stored
        by_seq = {e.seq: e for e in now.events}
        token_hash = hash_token(gm.token)
        b, r = args.batch, args.repeats
        # One state after each of b more rolls: the streams' messages of each new event in
        # turn, through one `Fragments` kept across them (as the server keeps it).
        states = []
        for _ in range(b):
            roll()
            states.append(service.state(state.name))
        kept = Fragments()

        def in_turn() -> None:
            for each in states:
                shared(kept, each.events[-1], each, streams)

        parts = {
            "find_link": timed(lambda: store.find_link(token_hash), b, r),
            "state": timed(lambda: service.state(state.name), b, r),
            "roll": timed(roll, b, r),
            "fragment": timed(lambda: stream_fragment([event], now, watcher, by_seq), b, r),
            "entry": timed(lambda: entry_html(event, now, watcher), b, r),
            "resources": timed(lambda: resources_html(now, watcher), b, r),
            "shared": timed(lambda: shared(Fragments(), event, now, streams), b, r),
            "next": timed(in_turn, 1, r) / b,
        }
        store.close()
    v = args.viewers
    per_roll = (
        2 * parts["find_link"] + 2 * parts["state"] + parts["roll"] + parts["state"] + parts["next"]
    )
    for name, micro in parts.items():
        print(f"{name:12} {micro:8.0f} us")
    print(
        f"{'per roll':12} {per_roll:8.0f} us with {v} viewers"
        f" (so at most {1e6 / per_roll:.0f} rolls/s on one core, before HTTP)"
    )


if __name__ == "__main__":
    main()
