"""A folded table is typed by its game: narrowing it checks the game it plays."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablee.systems.pouyss.plugin import POUYSS
from tablee.systems.pouyss.state import PouyssState
from tablee.systems.shs.plugin import SHS
from tablee.table.projection import fold
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore


def test_a_table_narrows_to_the_game_it_plays_and_no_other(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "typed.sqlite3")
    TableService(store).create(system="pouyss", name="t", players=["A"], lang="en")
    state = fold(store.load(store.find_table("t").id))

    narrowed = state.of(POUYSS)
    assert narrowed is state
    assert isinstance(narrowed.game, PouyssState)
    with pytest.raises(TypeError, match="plays pouyss, not shs"):
        state.of(SHS)


def test_a_game_without_old_logs_folds_them_with_its_own_apply() -> None:
    from tests.games.target import TARGET

    state = TARGET.initial_state({"name": "t", "players": ["A"], "options": {}})
    payload = {"amount": 2, "pool_after": state.pool + 2}
    assert TARGET.legacy_evolve(state, "target.refill", payload).pool == state.pool + 2
