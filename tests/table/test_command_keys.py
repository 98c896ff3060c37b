"""Idempotent commands: `TableService.execute` with a command key, on every backend."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tablee.dice import SourceChance, TypedFaces
from tablee.errors import InputError
from tablee.systems.base import Fact
from tablee.systems.plugin import Decision
from tablee.systems.pouyss.commands import Reward, StartSession
from tablee.systems.pouyss.plugin import POUYSS
from tablee.table.projection import TableState, fold
from tablee.table.service import Applied, TableService
from tablee.table.store import EventStore

from .conftest import Target, open_target
from .test_store_contract import PROCESS_TIMEOUT, run_processes


def _table(store: EventStore, name: str = "club") -> TableService:
    service = TableService(store)
    service.create(system="pouyss", name=name, players=["A", "B"], lang="en")
    service.run_command(name, StartSession())
    return service


class Counting:
    """A reward decide function that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, state: TableState) -> Decision[Any]:
        self.calls += 1
        return POUYSS.decide(state.game, Reward(amount=2), SourceChance(TypedFaces(())))


def _facts(decision: Decision[Any]) -> tuple[Fact, ...]:
    return POUYSS.facts(decision)


def test_a_command_sent_twice_is_applied_once(store: EventStore) -> None:
    service = _table(store)
    decide = Counting()
    first = service.execute("club", decide, _facts, command_key="req-1")
    assert not first.replayed and first.decision is not None
    again = service.execute("club", decide, _facts, command_key="req-1")
    assert decide.calls == 1
    assert again.replayed and again.decision is None
    assert again.events == first.events
    assert again.state.game.cagnotte == first.state.game.cagnotte == 4
    assert again.state.last_seq == 3
    assert fold(store.load(store.find_table("club").id)).game.cagnotte == 4


def test_a_replay_reads_the_table_as_it_is_now(store: EventStore) -> None:
    service = _table(store)
    first = service.execute("club", Counting(), _facts, command_key="r")
    service.execute("club", Counting(), _facts)  # another reward, no key
    again = TableService(store).execute("club", Counting(), _facts, command_key="r")
    assert again.replayed and again.events == first.events
    assert again.state.last_seq == 4 and again.state.game.cagnotte == 6


def test_different_keys_are_different_commands(store: EventStore) -> None:
    service = _table(store)
    a = service.execute("club", Counting(), _facts, command_key="a")
    b = service.execute("club", Counting(), _facts, command_key="b")
    assert (a.events[0].seq, b.events[0].seq) == (3, 4)
    assert not b.replayed and b.state.game.cagnotte == 6


@pytest.mark.parametrize("key", ["", "é", "x" * 101, "a\tb"])
def test_a_malformed_key_is_refused_before_deciding(store: EventStore, key: str) -> None:
    service = _table(store)
    decide = Counting()
    with pytest.raises(InputError, match="command key"):
        service.execute("club", decide, _facts, command_key=key)
    assert decide.calls == 0
    assert service.state("club").last_seq == 2


def test_an_undo_sent_twice_voids_once(store: EventStore) -> None:
    service = _table(store)
    service.execute("club", Counting(), _facts)
    service.execute("club", Counting(), _facts)
    first = service.undo("club", actor="gm", command_key="undo-1")
    again = service.undo("club", actor="gm", command_key="undo-1")
    assert again.replayed and again.events == first.events
    assert service.state("club").voided == frozenset({4})


def test_another_writer_storing_the_key_meanwhile_is_a_replay(
    store: EventStore, store_target: Target
) -> None:
    service = _table(store)
    other = open_target(store_target)
    try:
        rival = TableService(other)
        decide = Counting()

        def decide_while_the_rival_wins(state: TableState) -> Decision[Any]:
            if decide.calls == 0:  # the rival stores the same command first
                rival.execute("club", Counting(), _facts, command_key="same")
            return decide(state)

        result = service.execute("club", decide_while_the_rival_wins, _facts, command_key="same")
    finally:
        other.close()
    assert result.replayed and result.decision is None and decide.calls == 1
    assert [e.seq for e in result.events] == [3]
    assert [e.seq for e in store.load(store.find_table("club").id)] == [1, 2, 3]


def _keyed_execute(target: Target, barrier: Any, results: Any) -> None:
    try:
        store = open_target(target)
        try:
            service = TableService(store)
            barrier.wait(PROCESS_TIMEOUT)
            applied = service.execute("club", Counting(), _facts, command_key="race")
            results.put((applied.replayed, [e.seq for e in applied.events]))
        finally:
            store.close()
    except BaseException as exc:  # report, never hang the parent
        results.put(("error", repr(exc)))


def test_processes_racing_with_one_key_store_one_event(
    store: EventStore, store_target: Target
) -> None:
    _table(store)
    results = sorted(run_processes(_keyed_execute, 4, store_target))
    assert results == [(False, [3])] + [(True, [3])] * 3, results
    events = store.load(store.find_table("club").id)
    assert [e.seq for e in events] == [1, 2, 3]
    assert fold(events).game.cagnotte == 4


def test_threads_racing_with_one_key_store_one_event(
    store: EventStore, store_target: Target
) -> None:
    _table(store)
    barrier = threading.Barrier(2)
    results: list[Applied[Any]] = []

    def run() -> None:
        own = open_target(store_target)
        try:
            barrier.wait(PROCESS_TIMEOUT)
            results.append(TableService(own).execute("club", Counting(), _facts, command_key="t"))
        finally:
            own.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(PROCESS_TIMEOUT)
    assert sorted(r.replayed for r in results) == [False, True]
    assert results[0].events == results[1].events
    assert [e.seq for e in store.load(store.find_table("club").id)] == [1, 2, 3]
