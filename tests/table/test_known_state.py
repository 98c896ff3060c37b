"""A command decided against the caller's known state (the web table's): no second read.

`TableService.run_command(..., known=state)` decides its first attempt against ``state``
instead of reading the events stored since; a state behind the store's is caught by the
append, and the command is decided again against the store's, as after a lost race.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablee.dice import TypedFaces
from tablee.errors import RuleError
from tablee.systems.pouyss.commands import Roll, StartSession
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore


class CountingStore(SqliteStore):
    """A SQLite store counting its `load` calls."""

    loads = 0

    def load(self, table_id: str, after_seq: int = 0) -> list[Any]:
        self.loads += 1
        return super().load(table_id, after_seq)


def _table(tmp_path: Path, cagnotte: int) -> tuple[CountingStore, TableService]:
    store = CountingStore(tmp_path / "known.sqlite")
    service = TableService(store)
    service.create(system="pouyss", name="known", players=["A", "B"], lang="en")
    service.run_command("known", StartSession(cagnotte=cagnotte))
    return store, service


def test_a_current_known_state_is_not_read_again(tmp_path: Path) -> None:
    store, service = _table(tmp_path, cagnotte=2)
    known = service.state("known")
    store.loads = 0
    applied = service.run_command(
        "known", Roll(player="A", bonus=1), TypedFaces([3, 5]), known=known
    )
    assert store.loads == 0
    assert [e.seq for e in applied.events] == [3]
    assert applied.state.game.cagnotte == 1  # two dice, one spent
    assert service.state("known") == applied.state
    store.close()


def test_a_known_state_behind_the_store_is_decided_again(tmp_path: Path) -> None:
    store, service = _table(tmp_path, cagnotte=1)
    stale = service.state("known")
    other = TableService(SqliteStore(tmp_path / "known.sqlite"))  # another writer
    other.run_command("known", Roll(player="B", bonus=1), TypedFaces([2, 6]))
    other.store.close()
    with pytest.raises(RuleError, match="P-M5"):  # the last die is gone: refused by the rules
        service.run_command("known", Roll(player="A", bonus=1), TypedFaces([3, 5]), known=stale)
    state = service.state("known")
    assert [e.seq for e in state.events] == [1, 2, 3]
    assert state.game.cagnotte == 0
    store.close()


def test_a_known_state_of_another_table_is_ignored(tmp_path: Path) -> None:
    store, service = _table(tmp_path, cagnotte=2)
    service.create(system="pouyss", name="other", players=["A"], lang="en")
    elsewhere = service.state("other")
    applied = service.run_command(
        "known", Roll(player="A", bonus=0), TypedFaces([4]), known=elsewhere
    )
    assert [e.seq for e in applied.events] == [3]
    assert applied.state.table_id == service.info("known").id
    store.close()
