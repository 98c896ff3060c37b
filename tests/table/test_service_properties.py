"""Hypothesis: any sequence of commands through the service keeps the table sound.

After every command (refused or not): the cagnotte is never negative, a refused command
stored nothing, the state equals a fresh fold of the stored log (replay equals state), the
state the service extends after an append equals that full fold, and every event that counts,
decided again by the rules (undo revisions included), gives what the log recorded.
"""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablee.dice import TypedFaces
from tablee.errors import InputError, RuleError
from tablee.systems.pouyss.commands import (
    EndSession,
    Opposed,
    Penalty,
    Reward,
    Roll,
    StartSession,
)
from tablee.table.projection import fold, verify_log
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore

PLAYERS = ["A", "B", "C"]

faces = st.lists(st.integers(1, 6), min_size=12, max_size=12)
counts = st.integers(0, 4)

roll = st.tuples(st.just("roll"), st.sampled_from(PLAYERS), counts, counts, faces)
opposed = st.tuples(st.just("opposed"), counts, counts, counts, counts, faces)
reward = st.tuples(st.just("reward"), st.integers(1, 2))
penalty = st.tuples(st.just("penalty"), st.integers(1, 2))
session = st.tuples(st.sampled_from(["start", "end", "start-carry"]))
undo = st.tuples(st.just("undo"), st.integers(0, 12))
commands = st.lists(st.one_of(roll, opposed, reward, penalty, session, undo), max_size=25)


def declared(command: tuple[Any, ...]) -> tuple[Any, TypedFaces]:
    """The declared command and its typed-in faces (exactly as many as it throws)."""
    kind = command[0]
    if kind == "roll":
        _, player, b, m, f = command
        return Roll(player=player, bonus=b, malus=m), TypedFaces(f[: 1 + b + m])
    if kind == "opposed":
        _, ab, am, pb, pm, f = command
        opposed = Opposed(
            active="A",
            passive="B",
            active_bonus=ab,
            active_malus=am,
            passive_bonus=pb,
            passive_malus=pm,
        )
        return opposed, TypedFaces(f[: 1 + ab + am + pb + pm])
    if kind == "reward":
        return Reward(amount=command[1]), TypedFaces(())
    if kind == "penalty":
        return Penalty(amount=command[1]), TypedFaces(())
    if kind == "end":
        return EndSession(), TypedFaces(())
    return StartSession(carry_over=kind == "start-carry"), TypedFaces(())


def run(service: TableService, name: str, command: tuple[Any, ...]) -> Any:
    """Run one generated command against the table through the service."""
    declared_command, dice = declared(command)
    return service.run_command(name, declared_command, dice)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(commands)
def test_any_command_sequence_keeps_the_table_sound(sequence: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "p.sqlite3")
        try:
            service = TableService(store)
            name = f"t-{uuid.uuid4().hex[:8]}"
            service.create(system="pouyss", name=name, players=PLAYERS, lang="en")
            for command in sequence:
                before = store.load(service.info(name).id)
                try:
                    if command[0] == "undo":
                        applied = service.undo(name, seq=command[1] or None)
                    else:
                        applied = run(service, name, command)
                    # the state extended after the append equals a full fold of the log
                    assert applied.state == fold(store.load(applied.state.table_id))
                    assert applied.state.after == fold(store.load(applied.state.table_id)).after
                except (RuleError, InputError):
                    assert store.load(service.info(name).id) == before
                state = service.state(name)
                assert state.game.cagnotte is None or state.game.cagnotte >= 0
                assert fold(store.load(state.table_id)) == state
                verify_log(state)
        finally:
            store.close()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(st.booleans(), st.one_of(roll, reward, penalty, session, undo))))
def test_snapshot_plus_tail_equals_the_full_fold(
    routed: list[tuple[bool, tuple[Any, ...]]],
) -> None:
    """Two services on one store (two processes of one table): each one's cached snapshot,
    extended by the events the other wrote (undos included), equals a fresh full fold."""
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "p.sqlite3")
        try:
            first, second = TableService(store), TableService(store)
            name = f"t-{uuid.uuid4().hex[:8]}"
            first.create(system="pouyss", name=name, players=PLAYERS, lang="en")
            for on_first, command in routed:
                service = first if on_first else second
                try:
                    if command[0] == "undo":
                        service.undo(name, seq=command[1] or None)
                    else:
                        run(service, name, command)
                except (RuleError, InputError):
                    pass
                full = fold(store.load(first.info(name).id))
                for each in (first, second):
                    cached = each.state(name)
                    assert cached == full
                    assert cached.after == full.after
        finally:
            store.close()


def test_a_service_that_does_not_remember_leaves_the_last_table_alone(tmp_path: Path) -> None:
    """The web table's service (remember_last=False) never moves the command line's default
    table, whatever it creates or rolls on."""
    store = SqliteStore(tmp_path / "p.sqlite3")
    try:
        cli, web = TableService(store), TableService(store, remember_last=False)
        cli.create(system="pouyss", name="cli table", players=PLAYERS, lang="en")
        web.create(system="pouyss", name="web table", players=PLAYERS, lang="en")
        run(web, "web table", ("start",))
        assert cli.resolve_name(None) == "cli table"
        run(cli, "web table", ("end",))
        assert cli.resolve_name(None) == "web table"  # the command line still remembers
    finally:
        store.close()
