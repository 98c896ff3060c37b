"""Bugs found by attacking the store and the rules; each test holds the right behaviour."""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from pathlib import Path

import pytest

from tablee.dice import SourceChance, TypedFaces
from tablee.errors import InputError
from tablee.systems.pouyss import initial_state
from tablee.systems.pouyss.commands import Reward, Roll, StartSession
from tablee.systems.pouyss.plugin import POUYSS
from tablee.table.projection import verify_log
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore

from .conftest import Run


def export(run: Run) -> list[dict[str, object]]:
    return [
        json.loads(line) for line in run("table", "export", "--format", "jsonl").out.splitlines()
    ]


def write(path: Path, events: list[dict[str, object]]) -> str:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return str(path)


def test_import_is_all_or_nothing(table: Run, tmp_path: Path) -> None:
    table("pouyss", "roll", "--player", "A", "--dice", "3")
    events = export(table)
    events[-1]["created_at"] = "2026-01-01T10:00:00"  # no time zone, on the last line
    before = table("table", "list", "--json").out
    result = table("table", "import", write(tmp_path / "x.jsonl", events), "--name", "x")
    assert result.code == 2
    assert "time zone" in result.err
    assert table("table", "list", "--json").out == before


@pytest.mark.parametrize(
    ("kind", "field", "value", "word"),
    [
        ("pouyss.session_started", "cagnotte", -7, "-7"),
        ("table.voided", "seq", None, "undoes"),
    ],
)
def test_import_refuses_rule_breaking_or_malformed_events(
    table: Run, tmp_path: Path, kind: str, field: str, value: object, word: str
) -> None:
    table("pouyss", "roll", "--player", "A", "--dice", "3")
    table("table", "undo")
    events = export(table)
    target = next(e for e in events if e["kind"] == kind)
    payload = target["payload"]
    assert isinstance(payload, dict)
    payload[field] = value
    result = table("table", "import", write(tmp_path / "x.jsonl", events), "--name", "x")
    assert result.code == 2, result.err
    assert word in result.err
    assert "Traceback" not in result.err


def test_non_utf8_arguments_are_a_usage_error(table: Run) -> None:
    bad = b"caf\xe9".decode("utf-8", "surrogateescape")
    result = table("pouyss", "roll", "--player", "A", "--reason", bad)
    assert result.code == 2
    assert "UTF-8" in result.err


def test_names_are_normalised_and_bounded(run: Run) -> None:
    composed = unicodedata.normalize("NFC", "Émile")
    decomposed = unicodedata.normalize("NFD", "Émile")
    result = run("table", "new", "pouyss", "--name", "n", "--players", f"{composed},{decomposed}")
    assert result.code == 2
    assert "differ" in result.err
    result = run("table", "new", "pouyss", "--name", "n", "--players", "A," + "x" * 101)
    assert result.code == 2
    assert "100" in result.err
    assert run("table", "new", "pouyss", "--name", "bad\x01name", "--players", "A").code == 2
    run("table", "new", "pouyss", "--name", "n", "--players", f"{decomposed},B")
    run("pouyss", "session", "start")
    assert run("pouyss", "roll", "--player", composed, "--dice", "4").code == 0


def test_a_non_player_character_cannot_take_a_players_name(table: Run) -> None:
    result = table("pouyss", "opposed", "--active", "A", "--passive-npc", "b", "--dice", "4")
    assert result.code == 2
    assert "--passive" in result.err


def test_options_take_plain_digits_only(table: Run) -> None:
    for text in ("1_000", "\u0663"):
        result = table("table", "options", "--set", f"bonus_cap={text}")
        assert result.code == 2, text


def test_undo_that_would_let_a_capped_roll_stand_is_refused(run: Run) -> None:
    run("table", "new", "pouyss", "--name", "cap", "--players", "A,B,C", "--option", "bonus_cap=1")
    run("pouyss", "session", "start")
    lift = run("table", "options", "--set", "bonus_cap=none", "--json")
    assert lift.code == 0
    seq = run("table", "show", "--json").json()["last_seq"]
    assert run("pouyss", "roll", "--player", "A", "--bonus", "3", "--dice", "1,2,3,4").code == 0
    result = run("table", "undo", "--seq", str(seq))
    assert result.code == 3
    assert "P-A6" in result.err


def test_undo_of_a_session_end_after_the_next_start_is_refused(table: Run) -> None:
    end = table("pouyss", "session", "end", "--json").json()["seq"]
    table("pouyss", "session", "start")
    result = table("table", "undo", "--seq", str(end))
    assert result.code == 3
    assert "already being played" in result.err


def test_a_retried_undo_voids_the_event_it_was_decided_on(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "u.sqlite3")
    other = SqliteStore(tmp_path / "u.sqlite3")
    try:
        service, rival = TableService(store), TableService(other)
        service.create(system="pouyss", name="u", players=["A", "B"], lang="en")
        service.run_command("u", StartSession())
        alice = service.run_command("u", Roll(player="A"), TypedFaces([3])).events[0].seq
        real_append = store.append
        calls = []

        def append_after_a_rival(*args: object, **kwargs: object) -> object:
            if not calls:  # Bob rolls between the undo's read and its append
                rival.run_command("u", Roll(player="B"), TypedFaces([5]))
            calls.append(1)
            return real_append(*args, **kwargs)  # type: ignore[arg-type]

        store.append = append_after_a_rival  # type: ignore[method-assign]
        applied = service.undo("u")
        assert len(calls) == 2  # lost the race once, then retried
        assert applied.events[0].payload["seq"] == alice
    finally:
        store.close()
        other.close()


@pytest.mark.parametrize(
    "corruption",
    [
        "UPDATE events SET payload = '{\"reason\": \"\"}' WHERE kind = 'table.voided'",
        "UPDATE events SET payload = json_remove(payload, '$.system') WHERE seq = 1",
        "UPDATE events SET payload = json_set(payload, '$.faces', json('[\"x\"]'))"
        " WHERE kind = 'pouyss.roll' AND seq = 3",
    ],
)
def test_a_hand_edited_store_is_a_storage_error(
    table: Run, tmp_path: Path, corruption: str
) -> None:
    table("pouyss", "roll", "--player", "A", "--dice", "3")
    table("pouyss", "roll", "--player", "A", "--dice", "4")
    table("table", "undo")
    db = Path(str(tmp_path / "cli.sqlite3"))
    with sqlite3.connect(db) as conn:
        conn.execute(corruption)
    conn.close()
    for argv in (["table", "show"], ["table", "log"], ["pouyss", "roll", "--player", "A"]):
        result = table(*argv)
        assert result.code == 5, (argv, result.err)
        assert "Traceback" not in result.err


def test_a_store_edited_into_another_outcome_opens_as_recorded_and_the_check_tells(
    table: Run, tmp_path: Path
) -> None:
    # Folding applies the recorded outcome and never decides again, so a table whose record
    # was edited (well-formed, but not what the rules give) still opens, as recorded; deciding
    # the log again (the check run on import) names the event and the field.
    assert table("pouyss", "roll", "--player", "A", "--bonus", "1", "--dice", "2,4").code == 0
    db = Path(str(tmp_path / "cli.sqlite3"))
    edited_cagnotte = '{"before": 4, "drawn": 1, "deposited": 3, "after": 6}'
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE events SET payload = json_set(payload, '$.value', 6, '$.level', 'triomphe',"
            " '$.success', json('true'), '$.cagnotte', json(?)) WHERE seq = 3",
            (edited_cagnotte,),
        )
    conn.close()
    shown = table("table", "show", "--json")
    assert shown.code == 0, shown.err
    assert shown.json()["cagnotte"] == 6
    log = table("table", "log")
    assert log.code == 0, log.err
    assert "Triomphe" in log.out
    store = SqliteStore(db)
    try:
        state = TableService(store).state("club")
        with pytest.raises(InputError, match=r"event 3 \(pouyss\.roll\).*value"):
            verify_log(state)
    finally:
        store.close()
    result = table("table", "import", write(tmp_path / "x.jsonl", export(table)), "--name", "x")
    assert result.code == 2
    assert "rules give" in result.err


def test_python_api_refuses_wrong_types() -> None:
    fresh = initial_state({"players": ["A"]})
    state = POUYSS.evolve(
        fresh, "pouyss.session_started", {"session": 1, "cagnotte": 1, "carried_over": False}
    )
    with pytest.raises(InputError):
        POUYSS.decide(state, Roll(player="A", double_bonus="no"), SourceChance(TypedFaces([3])))  # type: ignore[arg-type]
    with pytest.raises(InputError):
        POUYSS.decide(state, Reward(amount=2.0), SourceChance(TypedFaces(())))  # type: ignore[arg-type]
    with pytest.raises(InputError):
        POUYSS.decide(fresh, StartSession(cagnotte=2.5), SourceChance(TypedFaces(())))  # type: ignore[arg-type]
