"""A YBS table through the service: old logs applied, undos revised, hidden rolls kept hidden.

* The 0.1.0 fixture's log without its undo imports through the fold that applies recorded
  outcomes (no legacy fold), every event verified, and shows what 0.1.0 showed.
* An undo decides the later events again and records what changes (a rest that healed a
  blow the undo removes heals nothing).
* A follow-up of a blind test is stored blind whatever was asked; a gang fight's next
  throw may be shown again.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tablee.dice import TypedFaces
from tablee.systems.ybs import brawl_commands as B
from tablee.systems.ybs import commands as C
from tablee.table.events import StoredEvent
from tablee.table.projection import fold, verify_log
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore

FIXTURES = Path(__file__).parents[2] / "fixtures" / "v0_1_0"


@pytest.fixture
def service(tmp_path: Path):
    store = SqliteStore(tmp_path / "y.sqlite3")
    yield TableService(store)
    store.close()


def _rows(slug: str) -> list[dict]:
    text = (FIXTURES / f"{slug}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_a_0_1_0_log_without_undo_is_applied_and_verified(service: TableService) -> None:
    from tablee.table.transcript import parse_jsonl

    rows = _rows("yuigahama")
    undone = {r["payload"]["seq"] for r in rows if r["kind"] == "table.voided"}
    kept = [r for r in rows if r["kind"] != "table.voided" and r["seq"] not in undone]
    for seq, row in enumerate(kept, start=1):
        row["seq"] = seq
    events = parse_jsonl("\n".join(json.dumps(r) for r in kept))
    state = service.import_log(events, name="copy")
    assert not state.legacy
    assert verify_log(state) == len(kept) - 1
    shown = json.loads((FIXTURES / "yuigahama.show.json").read_text(encoding="utf-8"))
    summary = json.loads(json.dumps(state.system.summary(state.game)))
    for key in ("session", "tokens", "gang_fight"):
        assert summary[key] == shown[key], key
    # a key added since 0.1.0 shows empty: the traits under a trauma (none in that log)
    assert summary["characters"] == {
        name: {**sheet, "traumas": {}} for name, sheet in shown["characters"].items()
    }
    # a house rule added since 0.1.0 shows at its default, which 0.1.0 tables did not have
    assert summary["options"] == {
        **shown["options"],
        "player_transfers": False,
        "gm_criticals": False,
    }


def _table(service: TableService) -> None:
    service.create(system="ybs", name="t", players=["A", "B"], lang="en")
    service.run_command("t", C.CreateCharacter(character="Aki", player="A"))
    service.run_command("t", C.CreateCharacter(character="Thug"))
    service.run_command("t", C.StartSession())


def test_an_undo_records_how_it_changes_later_events(service: TableService) -> None:
    _table(service)
    hit = service.run_command("t", C.Damage(character="Aki", uchimi=1)).events[-1].seq
    service.run_command("t", C.Rest(character="Aki", minutes=30))
    service.undo("t", seq=hit)
    state = service.state("t")
    assert not state.legacy and state.game.characters["Aki"].uchimi == 0
    rest = state.events[-2]
    assert rest.kind == "ybs.rest" and state.payload_of(rest)["healed"] == 0
    assert verify_log(state) == 4  # two characters, the session, the rest
    assert fold(service.store.load(state.table_id)).game == state.game


def test_a_blind_test_keeps_its_follow_ups_blind(service: TableService) -> None:
    _table(service)
    service.run_command(
        "t", C.Test(character="Aki", trait="chisei"), TypedFaces([2]), visibility="gm"
    )
    reroll = service.run_command("t", C.Stubborn(), TypedFaces([6]), visibility="all")
    critical = service.run_command("t", C.Critical())
    assert [e.visibility for e in (*reroll.events, *critical.events)] == ["gm", "gm"]
    service.run_command("t", C.Test(character="Aki", trait="chisei"), TypedFaces([1]))
    assert service.run_command("t", C.CriticalFailure()).events[-1].visibility == "all"


def test_a_gang_fights_next_throw_may_be_shown_again(service: TableService) -> None:
    _table(service)
    service.run_command("t", B.StartGang(fighters=("Aki",), opponents=("Thug",)))
    first = service.run_command(
        "t", B.ThrowGang(), TypedFaces([1, 1, 2, 5, 6, 1, 1, 1, 1, 2]), visibility="gm"
    )
    assert first.events[-1].visibility == "gm"
    second = service.run_command("t", B.ThrowGang(keep="none", gm_keep="none"), visibility="all")
    assert second.events[-1].visibility == "all"


def test_a_stored_event_of_another_shape_is_refused_by_the_fold(service: TableService) -> None:
    _table(service)
    state = service.state("t")
    last = state.events[-1]
    broken: StoredEvent = replace(last, payload={"session": 1})
    with pytest.raises(Exception, match="moves"):
        fold([*state.events[:-1], broken])
