"""Golden playthrough: a seeded, scripted Pouyss session, its transcript diffed with a file.

The session goes through the service with a fixed clock and seeded dice, so the transcript
(both languages) and the JSON Lines export are the same on every run. Regenerate the files
after an intended change with ``TABLEE_UPDATE_GOLDEN=1 python -m pytest tests/golden``, then
read the diff before committing it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tablee.dice import D6, SeededSource, TypedFaces
from tablee.locale import translation
from tablee.systems.pouyss.commands import (
    EndSession,
    Opposed,
    Penalty,
    Reward,
    Roll,
    SetCharacter,
    StartSession,
)
from tablee.systems.pouyss.plugin import POUYSS
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.table.transcript import to_jsonl, to_markdown
from tests.golden.golden import check_golden, ticking

HERE = Path(__file__).parent


def clock() -> Iterator[datetime]:
    return ticking(datetime(2026, 11, 29, 20, 0, tzinfo=UTC), timedelta(minutes=3))


def play(service: TableService) -> None:
    dice = SeededSource(1888)
    name = "Londres 1888"

    def run(command, faces=None):  # type: ignore[no-untyped-def]
        typed = None if faces is None else TypedFaces(faces)
        return service.run_command(name, command, typed)

    def roll(player: str, bonus: int = 0, malus: int = 0, **extra: object) -> None:
        command = Roll(player=player, bonus=bonus, malus=malus, **extra)  # type: ignore[arg-type]
        run(command, dice.roll(D6, command.counts().pool))

    service.create(
        system="pouyss",
        name=name,
        players=["Simon", "Ada", "Louis", "Mina"],
        lang="fr",
        options={"reward_soft_limit": "2"},
    )
    run(
        SetCharacter(
            player="Simon",
            advantages=("knows Chelsea",),
            disadvantages=("easily frightened",),
        )
    )
    run(StartSession())
    run(Roll(player="Simon", bonus=2), [1, 2, 3])
    run(Roll(player="Simon", bonus=1, malus=2, reasons=("fog", "tired")), [1, 4, 5, 6])
    roll("Ada", bonus=1, imposed_malus=1)
    run(Reward(amount=2, player="Louis", reason="the seance"))
    roll("Louis", bonus=2, double_bonus=True)
    opposed = Opposed(active="Mina", passive_npc="the stranger", active_bonus=1, passive_bonus=2)
    run(opposed, dice.roll(D6, opposed.counts().as_action().pool))
    run(Penalty(amount=1, player="Ada"))
    service.undo(name, reason="the narrator changed her mind")
    run(Reward(amount=1))
    run(EndSession())
    service.execute(name, lambda s: POUYSS.change_options(s.game, {"bonus_cap": "2"}), POUYSS.facts)
    run(StartSession(carry_over=True))
    roll("Mina", malus=3)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    store = SqliteStore(tmp_path_factory.mktemp("golden") / "golden.sqlite3")
    try:
        ticks = clock()
        service = TableService(store, clock=lambda: next(ticks))
        play(service)
        state = service.state("Londres 1888")
        return {
            "pouyss_session.fr.md": to_markdown(state, translation("fr").gettext),
            "pouyss_session.en.md": to_markdown(state, translation("en").gettext),
            "pouyss_session.jsonl": to_jsonl(state).replace(state.table_id, "TABLE-ID"),
        }
    finally:
        store.close()


@pytest.mark.parametrize(
    "name", ["pouyss_session.fr.md", "pouyss_session.en.md", "pouyss_session.jsonl"]
)
def test_transcript_matches_the_golden_file(played: dict[str, str], name: str) -> None:
    check_golden(HERE / name, played[name])
