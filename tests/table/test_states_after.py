"""The states after each event, shared by a table's successive states (`StatesAfter`).

`extend` adds a roll's entries to the dictionary its state shares with the earlier ones,
instead of copying it: each state must still see exactly the entries of its own log (those
of the whole fold), including a state extended twice (a writer's retry after a lost race).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tablee.dice import TypedFaces
from tablee.systems.pouyss.commands import Reward, Roll, StartSession
from tablee.table.projection import StatesAfter, TableState, extend, fold
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore


def same_as_fold(state: TableState[Any]) -> None:
    full = fold(state.events)
    assert state == full
    assert dict(state.after) == dict(full.after)
    assert list(state.after) == list(full.after)
    assert len(state.after) == len(full.after)


def test_each_state_sees_its_own_entries_when_extended_twice(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "after.sqlite3")
    service = TableService(store)
    service.create(system="pouyss", name="t", players=["A", "B"], lang="en")
    service.run_command("t", StartSession(cagnotte=4))
    for n in range(6):
        service.run_command(
            "t", Roll(player="AB"[n % 2], bonus=n % 2), TypedFaces([n % 6 + 1] * (1 + n % 2))
        )
        service.run_command("t", Reward(amount=1))
    events = store.load(store.find_table("t").id)
    start = fold(events[:5])
    first = extend(start, events[5:7])
    second = extend(first, events[7:9])
    again = extend(first, events[7:8])  # first extended a second time: a fork
    later = extend(second, events[9:])
    for state in (start, first, second, again, later):
        same_as_fold(state)
    assert events[7].seq in again.after and events[8].seq not in again.after
    assert events[8].seq not in first.after
    with pytest.raises(KeyError):
        first.after[events[8].seq]


def test_a_mapping_up_to_its_last_event() -> None:
    base: StatesAfter[str] = StatesAfter.of({3: "c", 2: "b"})
    assert list(base) == [2, 3] and base.get(3) == "c" and 4 not in base
    grown = base.extended([(4, "d"), (6, "f")], 7)
    assert dict(grown) == {2: "b", 3: "c", 4: "d", 6: "f"} and len(grown) == 4
    assert dict(base) == {2: "b", 3: "c"} and len(base) == 2 and base.get(4) is None
    other = base.extended([(4, "x")], 4)  # base again: its own copy
    assert dict(other) == {2: "b", 3: "c", 4: "x"} and grown[4] == "d"


def test_threads_extending_one_chain_keep_every_view_whole() -> None:
    views: list[StatesAfter[int]] = [StatesAfter.of({1: 1})]
    lock = threading.Lock()

    def grow() -> None:
        for _ in range(300):
            with lock:
                view = views[-1] if len(views) % 3 else views[len(views) // 2]
            last = max(view, default=0)
            grown = view.extended([(last + 1, last + 1)], last + 1)
            assert list(view) == list(range(1, last + 1))  # reading while others add
            with lock:
                views.append(grown)

    threads = [threading.Thread(target=grow) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for view in views:
        last = max(view)
        assert dict(view) == {seq: seq for seq in range(1, last + 1)}
