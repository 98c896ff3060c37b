"""The lost-update race: two processes spend the last cagnotte die at once, on every backend.

Each process runs the real command path (`TableService.run_command` with a roll): load,
fold, decide, append, and on a lost race reload and decide again. Exactly one roll gets the
die; the other is refused by the rules (the cagnotte is now empty), and the log has no gap
and no duplicate.
"""

from __future__ import annotations

from typing import Any

from tablee.dice import TypedFaces
from tablee.errors import RuleError
from tablee.systems.pouyss.commands import Roll, StartSession
from tablee.table.service import TableService
from tablee.table.store import EventStore

from .conftest import Target, open_target
from .test_store_contract import PROCESS_TIMEOUT, run_processes


def _spend_last_die(target: Target, name: str, player: str, barrier: Any, results: Any) -> None:
    try:
        store = open_target(target)
        try:
            service = TableService(store)
            barrier.wait(PROCESS_TIMEOUT)
            try:
                service.run_command(name, Roll(player=player, bonus=1), TypedFaces([3, 5]))
                results.put("rolled")
            except RuleError as exc:
                results.put("refused: " + str(exc))
        finally:
            store.close()
    except BaseException as exc:  # report, never hang the parent
        results.put(f"error: {exc!r}")


def test_two_processes_spend_the_last_die(store: EventStore, store_target: Target) -> None:
    service = TableService(store)
    service.create(system="pouyss", name="race", players=["A", "B"], lang="en")
    service.run_command("race", StartSession(cagnotte=1))
    outcomes = sorted(run_processes(_spend_last_die, 2, store_target, "race", "A"))
    assert outcomes[0].startswith("refused: "), outcomes
    assert outcomes[1] == "rolled", outcomes
    assert "P-M5" in outcomes[0]
    state = service.state("race")
    assert state.game.cagnotte == 0
    assert [e.seq for e in state.events] == [1, 2, 3]
    assert [e.kind for e in state.events][-1] == "pouyss.roll"
