"""Every command of every game acknowledges the interaction before any work.

Discord waits 3 seconds for an answer. Each declared command (and query) of the four games is
invoked by the game master with the fewest options Discord would require: whatever the
outcome (stored, refused by the rules, malformed), the first request the bot sends is the
deferral, and it reads the table, decides and stores only after it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tablee.systems import system_named
from tablee.systems.declare import Command, FieldSpec, fields_of
from tablee.table.sqlite_store import SqliteStore
from tests.bot.conftest import GM, seated

GAMES = ("pouyss", "shs", "ybs", "agents")


def _least(spec: FieldSpec) -> Any:
    if spec.kind == "int":
        return spec.param.low if spec.param.low is not None else 0
    if spec.kind == "bool":
        return False
    if spec.kind == "word":
        return spec.words[0]
    return "x"


def _required(command: type[Command]) -> dict[str, Any]:
    return {s.name: _least(s) for s in fields_of(command) if s.required and not s.optional}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_command_defers_before_reading_or_writing(store: SqliteStore, game_id: str) -> None:
    game = system_named(game_id)

    async def go() -> None:
        harness, _ = await seated(store, game_id, ("A", "B"))
        for command in game.commands:  # type: ignore[attr-defined]
            harness.clear()
            options = _required(command)
            await harness.slash(game_id + " " + command.name, GM, **options)
            marks = harness.record.marks
            assert marks, command.name
            work = [i for i, m in enumerate(marks) if m in ("state", "run_command")]
            assert marks[0] == "defer" or not work, (command.name, marks)
            assert all(i > marks.index("defer") for i in work), (command.name, marks)
            answers = harness.record.of("followup") + harness.record.of("reply")
            assert answers, (command.name, marks)

    asyncio.run(go())
