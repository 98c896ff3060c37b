"""The tamper-evident log: chained events, signed exports, and what an import refuses.

Every tampering below is one a hand-edited export could hide from the rules (the fold
accepts it once the chains are stripped, as in a 0.1.0 export): the chain and the trailer
are what catch it in an export of this installation.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tablee.dice import SourceChance, TypedFaces
from tablee.errors import InputError
from tablee.systems.pouyss.commands import Penalty, Reward, Roll, StartSession
from tablee.systems.pouyss.plugin import POUYSS
from tablee.table.chain import (
    SECRET_PREFERENCE,
    export_mac,
    first_broken_link,
    installation_id,
)
from tablee.table.projection import fold
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.table.store import EventStore
from tablee.table.transcript import parse_jsonl, read_jsonl

START = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
Lines = list[dict[str, Any]]


def ticking() -> Callable[[], datetime]:
    moments = (START + timedelta(minutes=n) for n in range(10_000))
    return lambda: next(moments)


def play(service: TableService, name: str = "club") -> None:
    """Events: 1 created, 2 session (cagnotte 2), 3 A's secret roll with a bonus die,
    4 reward 2, 5 B's roll, 6 penalty 1."""
    service.create(system="pouyss", name=name, players=["A", "B"], lang="en")

    service.run_command(name, StartSession())
    service.run_command(
        name, Roll(player="A", bonus=1), TypedFaces([2, 5]), visibility="roller_and_gm"
    )
    service.run_command(name, Reward(amount=2))
    service.run_command(name, Roll(player="B"), TypedFaces([4]))
    service.run_command(name, Penalty(amount=1))


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    store = SqliteStore(tmp_path / "here.sqlite3")
    try:
        yield TableService(store, clock=ticking())
    finally:
        store.close()


@pytest.fixture
def exported(service: TableService) -> str:
    play(service)
    return service.export_jsonl("club")


def lines_of(text: str) -> Lines:
    return [json.loads(line) for line in text.splitlines()]


def text_of(lines: Lines) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def unchained(lines: Lines) -> Lines:
    """The lines as Tablée 0.1.0 wrote them: no envelope fields, no trailer."""
    envelope = ("rules_version", "command_key", "chain")
    return [{k: v for k, v in line.items() if k not in envelope} for line in lines[:-1]]


def table_names(service: TableService) -> list[str]:
    return [t.name for t in service.store.tables()]


# -- the chain as stored ------------------------------------------------------------------


def test_every_event_is_linked_to_the_one_before(service: TableService) -> None:
    play(service)
    store = service.store
    events = store.load(store.find_table("club").id)
    secret = store.get_preference(SECRET_PREFERENCE)
    assert secret is not None and len(bytes.fromhex(secret)) == 32
    previous = b""
    for event in events:  # the link as documented, computed here by hand
        values = [
            event.seq,
            event.kind,
            event.schema_version,
            event.rules_version,
            event.actor,
            event.visibility,
            dict(event.payload),
            event.created_at.astimezone(UTC).isoformat(timespec="microseconds"),
            event.command_key,
        ]
        canonical = json.dumps(values, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        key = bytes.fromhex(secret)
        link = hmac.new(key, previous + canonical.encode(), hashlib.sha256).hexdigest()
        assert event.chain == link, event.seq
        previous = link.encode()
    assert first_broken_link(secret, events) is None


def test_the_secret_is_reserved_and_never_in_an_export(service: TableService) -> None:
    play(service)
    secret = service.store.installation_secret()
    with pytest.raises(InputError, match="reserved"):
        service.store.set_preference(SECRET_PREFERENCE, "00" * 32)
    assert service.store.installation_secret() == secret
    text = service.export_jsonl("club")
    assert secret not in text
    assert installation_id(secret) == hashlib.sha256(bytes.fromhex(secret)).hexdigest()[:16]


def test_the_export_ends_with_its_signed_trailer(service: TableService, exported: str) -> None:
    lines = lines_of(exported)
    table_id = service.store.find_table("club").id
    trailer = lines[-1]["trailer"]
    assert [line["seq"] for line in lines[:-1]] == [1, 2, 3, 4, 5, 6]
    assert all(len(line["chain"]) == 64 for line in lines[:-1])
    assert trailer["table_id"] == table_id
    assert trailer["events"] == 6
    assert trailer["last_chain"] == lines[-2]["chain"]
    secret = service.store.installation_secret()
    assert trailer["installation"] == installation_id(secret)
    assert trailer["mac"] == export_mac(secret, table_id, 6, lines[-2]["chain"])
    export = read_jsonl(exported)
    assert export.trailer is not None and export.trailer.events == 6
    assert parse_jsonl(exported) == export.events


# -- imports that are verified, or not ------------------------------------------------------


def test_an_export_of_this_installation_imports_verified(
    service: TableService, exported: str
) -> None:
    imported = service.import_jsonl(exported, "copy")
    assert imported.verified and imported.why is None
    original = service.state("club")
    assert imported.state.game == original.game
    new_events = service.store.load(service.store.find_table("copy").id)
    assert [e.chain for e in new_events] != [e.chain for e in original.events]  # fresh links
    assert service.check("copy").events == 6


def test_an_export_of_another_installation_imports_unverified(
    tmp_path: Path, service: TableService, exported: str
) -> None:
    other = SqliteStore(tmp_path / "elsewhere.sqlite3")
    try:
        imported = TableService(other, clock=ticking()).import_jsonl(exported)
        assert not imported.verified
        assert imported.why is not None and "another installation" in str(imported.why)
        assert imported.state.game == service.state("club").game
        assert TableService(other).check("club").events == 6  # chained afresh there
    finally:
        other.close()


def test_another_installation_s_export_still_goes_through_the_rules(
    tmp_path: Path, exported: str
) -> None:
    lines = lines_of(exported)
    lines[2]["payload"]["faces"] = [2, 6]  # the stored kept dice and value no longer match
    other = SqliteStore(tmp_path / "elsewhere.sqlite3")
    try:
        with pytest.raises(InputError, match="cannot be imported"):
            TableService(other, clock=ticking()).import_jsonl(text_of(lines))
        assert other.tables() == []
    finally:
        other.close()


def test_a_0_1_0_export_imports_unverified(service: TableService, exported: str) -> None:
    imported = service.import_jsonl(text_of(unchained(lines_of(exported))), "old")
    assert not imported.verified
    assert imported.why is not None and "no hash chain" in str(imported.why)
    assert service.check("old").events == 6


# -- tamperings caught in an export of this installation -----------------------------------


def _forged_faces(lines: Lines) -> None:
    """A's roll with faces 2, 6 instead of 2, 5, every field that follows decided again by the
    rules so that the result matches the faces (a 6: a better roll than the one made)."""
    before = fold(parse_jsonl(text_of(lines[:2]))).game
    forged = POUYSS.decide(before, Roll(player="A", bonus=1), SourceChance(TypedFaces([2, 6])))
    lines[2]["payload"] = json.loads(json.dumps(forged.events[0].payload()))
    assert lines[2]["payload"]["faces"] == [2, 6]


def _cagnotte_record(lines: Lines) -> None:
    lines[3]["payload"]["cagnotte"]["after"] += 1


def _actor(lines: Lines) -> None:
    lines[5]["actor"] = "B"


def _visibility(lines: Lines) -> None:
    lines[2]["visibility"] = "all"


def _year_9999(lines: Lines) -> None:
    lines[3]["created_at"] = "9999-01-01T00:00:00+00:00"


TAMPERINGS = {
    "faces with a matching result": (_forged_faces, 3),
    "a cagnotte record": (_cagnotte_record, 4),
    "an actor": (_actor, 6),
    "a visibility": (_visibility, 3),
    "a time in year 9999": (_year_9999, 4),
}


@pytest.mark.parametrize("what", sorted(TAMPERINGS))
def test_an_edited_event_is_refused_by_its_chain(
    service: TableService, exported: str, what: str
) -> None:
    tamper, seq = TAMPERINGS[what]
    lines = lines_of(exported)
    tamper(lines)
    with pytest.raises(InputError, match=rf"event {seq} of the export does not match its hash"):
        service.import_jsonl(text_of(lines), "forged")
    assert table_names(service) == ["club"]


@pytest.mark.parametrize("what", ["faces with a matching result"])
def test_without_the_chain_the_rules_alone_would_accept_it(
    service: TableService, exported: str, what: str
) -> None:
    """Why the chain is needed: this forgery replays under the rules."""
    lines = lines_of(exported)
    TAMPERINGS[what][0](lines)
    imported = service.import_jsonl(text_of(unchained(lines)), "forged")
    assert not imported.verified


def test_without_the_chain_a_forged_cagnotte_record_is_still_refused_by_the_rules(
    service: TableService, exported: str
) -> None:
    """The fold applies recorded outcomes; the verifier decides each again and compares."""
    lines = lines_of(exported)
    TAMPERINGS["a cagnotte record"][0](lines)
    with pytest.raises(InputError, match="cagnotte"):
        service.import_jsonl(text_of(unchained(lines)), "forged")
    assert table_names(service) == ["club"]


@pytest.mark.parametrize("what", ["an actor", "a visibility"])
def test_without_the_chain_an_envelope_edit_would_pass(
    service: TableService, exported: str, what: str
) -> None:
    lines = lines_of(exported)
    TAMPERINGS[what][0](lines)
    assert not service.import_jsonl(text_of(unchained(lines)), "forged").verified


@pytest.mark.parametrize("kept", [1, 4, 6])
def test_a_file_cut_at_a_line_boundary_is_refused(
    service: TableService, exported: str, kept: int
) -> None:
    lines = lines_of(exported)[:kept]  # the trailer, and maybe events, cut off
    with pytest.raises(InputError, match=rf"cut short: it stops after event {kept}\b"):
        service.import_jsonl(text_of(lines), "cut")
    assert table_names(service) == ["club"]


def test_a_line_deleted_in_the_middle_is_refused(service: TableService, exported: str) -> None:
    lines = lines_of(exported)
    del lines[3]  # event 4
    with pytest.raises(InputError, match=r"event 5 of the export does not match its hash"):
        service.import_jsonl(text_of(lines), "holed")
    assert table_names(service) == ["club"]


def test_the_last_event_deleted_is_caught_by_the_trailer(
    service: TableService, exported: str
) -> None:
    lines = lines_of(exported)
    del lines[-2]
    with pytest.raises(InputError, match=r"5 events up to event 5, its trailer counts 6"):
        service.import_jsonl(text_of(lines), "short")


def test_a_trailer_edited_to_match_a_cut_is_refused(service: TableService, exported: str) -> None:
    lines = lines_of(exported)
    del lines[-2]
    lines[-1]["trailer"].update(events=5, last_chain=lines[-2]["chain"])
    with pytest.raises(InputError, match="trailer does not match its events"):
        service.import_jsonl(text_of(lines), "short")


def test_a_trailer_that_is_not_last_is_refused(service: TableService, exported: str) -> None:
    lines = lines_of(exported)
    lines.insert(2, lines.pop())
    with pytest.raises(InputError, match="line 4 of the export follows its trailer"):
        service.import_jsonl(text_of(lines), "moved")


def test_a_chained_event_missing_its_chain_is_refused(service: TableService, exported: str) -> None:
    lines = lines_of(exported)
    del lines[2]["chain"]
    with pytest.raises(InputError, match="event 3 of the export has no chain"):
        service.import_jsonl(text_of(lines), "gap")


def test_another_installation_s_export_cut_or_holed_is_refused(
    tmp_path: Path, exported: str
) -> None:
    other = SqliteStore(tmp_path / "elsewhere.sqlite3")
    try:
        service = TableService(other, clock=ticking())
        with pytest.raises(InputError, match="cut short"):
            service.import_jsonl(text_of(lines_of(exported)[:5]))
        holed = lines_of(exported)
        del holed[3]
        with pytest.raises(InputError, match="its trailer counts 6"):
            service.import_jsonl(text_of(holed))
        assert other.tables() == []
    finally:
        other.close()


# -- order checks, whatever the source ------------------------------------------------------


def test_an_unverified_export_dated_in_the_future_is_refused(
    service: TableService, exported: str
) -> None:
    lines = unchained(lines_of(exported))
    lines[-1]["created_at"] = "9999-01-01T00:00:00+00:00"
    with pytest.raises(InputError, match=r"event 6 of the export is dated 9999-01-01"):
        service.import_jsonl(text_of(lines), "future")
    lines[-1]["created_at"] = (START + timedelta(days=2)).isoformat()  # past the slack
    with pytest.raises(InputError, match="in the future"):
        service.import_jsonl(text_of(lines), "future")


def test_an_unverified_export_going_back_in_time_is_refused(
    service: TableService, exported: str
) -> None:
    lines = unchained(lines_of(exported))
    lines[4]["created_at"] = "2020-01-01T00:00:00+00:00"
    with pytest.raises(InputError, match=r"event 5 of the export is dated 2020.*before event 4"):
        service.import_jsonl(text_of(lines), "past")


def test_an_unverified_export_with_a_seq_gap_is_refused(
    service: TableService, exported: str
) -> None:
    lines = unchained(lines_of(exported))
    del lines[3]
    with pytest.raises(InputError, match=r"event 5 where event 4 was expected"):
        service.import_jsonl(text_of(lines), "gap")
    assert table_names(service) == ["club"]


def test_an_unverified_export_repeating_a_command_key_is_refused(
    service: TableService, exported: str
) -> None:
    lines = unchained(lines_of(exported))
    lines[3]["command_key"] = lines[4]["command_key"] = "web-1"
    with pytest.raises(
        InputError, match="event 5 of the export repeats the command key of event 4"
    ):
        service.import_jsonl(text_of(lines), "twice")
    lines[4]["command_key"] = "web-2"
    imported = service.import_jsonl(text_of(lines), "kept")
    new_id = service.store.find_table("kept").id
    assert [e.seq for e in service.store.command_events(new_id, "web-1")] == [4]
    assert not imported.verified


def test_the_same_times_are_allowed(service: TableService, exported: str) -> None:
    lines = unchained(lines_of(exported))
    for line in lines:
        line["created_at"] = lines[0]["created_at"]
    assert not service.import_jsonl(text_of(lines), "instant").verified


# -- every backend --------------------------------------------------------------------------


def test_chains_and_exports_on_every_backend(store: EventStore) -> None:
    service = TableService(store, clock=ticking())
    play(service)
    events = store.load(store.find_table("club").id)
    assert first_broken_link(store.installation_secret(), events) is None
    imported = service.import_jsonl(service.export_jsonl("club"), "copy")
    assert imported.verified
    assert service.check("copy").events == service.check("club").events == 6
