"""An undo folds the log again only from the first event it changes, equal to the full fold."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tablee.dice import TypedFaces
from tablee.errors import RuleError
from tablee.systems.pouyss.commands import Penalty, Reward, Roll, StartSession
from tablee.table import projection
from tablee.table.projection import TableState
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore


def same(kept: TableState[Any], full: TableState[Any]) -> None:
    assert kept.events == full.events
    assert kept.voided == full.voided
    assert kept.game == full.game
    assert dict(kept.after) == dict(full.after)
    assert dict(kept.revised) == dict(full.revised)
    assert dict(kept.upgraded) == dict(full.upgraded)
    assert not kept.partial and not kept.legacy


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_a_kept_fold_after_undos_equals_the_full_fold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    store = SqliteStore(tmp_path / "refold.sqlite3")
    rng = random.Random(seed)
    service = TableService(store)
    service.create(system="pouyss", name="r", players=["A", "B"], lang="en")
    service.run_command("r", StartSession(cagnotte=4))
    full_fold = projection.fold
    table_id = store.find_table("r").id
    service.state("r")  # the whole fold, kept by the service from now on

    def refused(events: Any) -> TableState[Any]:
        raise AssertionError("the whole log was folded again")

    monkeypatch.setattr(projection, "fold", refused)
    undos = 0
    for _ in range(80):
        choice = rng.random()
        try:
            if choice < 0.45:
                bonus, malus = rng.randint(0, 2), rng.randint(0, 2)
                faces = [rng.randint(1, 6) for _ in range(1 + bonus + malus)]
                roll = Roll(player=rng.choice("AB"), bonus=bonus, malus=malus)
                service.run_command("r", roll, TypedFaces(faces))
            elif choice < 0.65:
                service.run_command("r", Reward(amount=rng.randint(1, 2)))
            elif choice < 0.75:
                service.run_command("r", Penalty(amount=1))
            else:
                last = service.state("r").last_seq
                service.undo("r", seq=rng.randint(3, last) if last >= 3 else None)
                undos += 1
        except RuleError:
            continue
        same(service.state("r"), full_fold(store.load(table_id)))
    assert undos > 5
    store.close()
