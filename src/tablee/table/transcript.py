"""Exports of a table's log: JSON Lines (replayable) and a Markdown transcript.

JSON Lines has one stored event per line, every field kept (faces, times, versions, the
envelope with each event's chain link), so that `tablee.table.projection.fold` over the
parsed lines gives the same state, then a last line ``{"trailer": {...}}``
(`tablee.table.trailer.Trailer`) that lets this installation check the file was neither cut
nor edited. Exports of Tablée 0.1.0 have neither chains nor trailer; they are still read.
The Markdown transcript is for people, in the table's language.

Source: docs/architecture.md, "The event log" (every event stores its faces and timestamp).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, BinaryIO

from tablee.errors import N_, InputError, Message, TableeError
from tablee.systems.base import JSON, VISIBILITIES
from tablee.systems.declare import check_text, unsafe_char
from tablee.table.events import TABLE_CREATED, TABLE_VOIDED, StoredEvent, upcast
from tablee.table.projection import TableState
from tablee.table.trailer import Trailer

__all__ = [
    "MAX_EXPORT_BYTES",
    "MAX_LINE_BYTES",
    "Export",
    "check_texts",
    "describe",
    "export_lines",
    "parse_jsonl",
    "read_jsonl",
    "to_jsonl",
    "to_markdown",
]

Translate = Callable[[str], str]

MAX_LINE_BYTES = 16 * 1024 * 1024
"""Longest line of a JSON Lines export read, in bytes (16 MiB), its line end included.

One line is one event. The longest a command makes is a quest drawn from a group's own
tables: four tables of at most 256 Ki characters, about 1 MiB of plain text and at most 4 MiB
in UTF-8; an undo that revises many later events (each payload the rules now give
differently) is the other long line. 16 MiB leaves room for both."""

MAX_EXPORT_BYTES = 64 * 1024 * 1024
"""Largest JSON Lines export read, in bytes (64 MiB).

An import holds the whole log in memory to check and fold it before anything is stored, so
this bounds its memory. Measured (benchmarks/README.md, "Imports"): a 20,000-event Pouyss
export is 7 MB and its import peaks at 143 MB (61 MB for 1,000 events), some 12 times the
file. 64 MiB is about 190,000 such events, nine times the largest table the benchmarks
play, for under a gigabyte."""


def _table_line(event: StoredEvent) -> Message:
    p = event.payload
    if event.kind == TABLE_CREATED:
        return Message(
            N_("table {name} created for {players}"),
            name=p["name"],
            players=", ".join(map(str, p["players"])),
        )
    if p.get("reason"):
        return Message(N_("event {seq} undone: {reason}"), seq=p["seq"], reason=p["reason"])
    return Message(N_("event {seq} undone"), seq=p["seq"])


def describe(event: StoredEvent, tr: Translate, state: TableState[Any] | None = None) -> str:
    """One readable line for an event, translated with ``tr`` (game terms untranslated).

    Args:
        event: the event (current version).
        tr: translation function.
        state: the table, to show values as they stand in the current fold (for instance
            the cagnotte after an older event was undone); None shows the stored values.
    """
    if event.kind in (TABLE_CREATED, TABLE_VOIDED):
        return _table_line(event).render(tr)
    if state is None:
        from tablee.systems import system_named

        system = system_named(event.kind.split(".", 1)[0])
        return system.describe(event.kind, upcast(event, system).payload, None).render(tr)
    payload = state.payload_of(event)
    return state.system.describe(event.kind, payload, state.after.get(event.seq)).render(tr)


def to_jsonl(events: Sequence[StoredEvent], trailer: Trailer | None = None) -> str:
    """Events one JSON object per line, in order, then the trailer line if given.

    Args:
        events: a whole log as stored (`tablee.table.service.TableService.export_jsonl`
            gives the stored events and their trailer).
        trailer: the export's trailer, or None for the events alone.

    Returns:
        The text, ending with a newline.
    """
    lines = [json.dumps(e.to_json(), ensure_ascii=False) for e in events]
    if trailer is not None:
        lines.append(json.dumps(trailer.to_json(), ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


@dataclass(frozen=True)
class Export:
    """A JSON Lines export as read.

    Attributes:
        events: its events, in file order.
        trailer: its trailer line, or None when it has none (a 0.1.0 export, or a file cut
            short).
    """

    events: list[StoredEvent]
    trailer: Trailer | None


def export_lines(
    stream: BinaryIO, *, max_line: int = MAX_LINE_BYTES, max_total: int = MAX_EXPORT_BYTES
) -> Iterator[tuple[int, str]]:
    """The lines of an export read one at a time, each with its number (from 1).

    Never more than ``max_line + 1`` bytes are read at once, so a file without line ends
    (``/dev/zero``) or without end is refused after reading that much instead of growing
    until the process is killed.

    Args:
        stream: the export, opened in binary mode.
        max_line: longest line, in bytes, its line end included (`MAX_LINE_BYTES`).
        max_total: largest file, in bytes (`MAX_EXPORT_BYTES`).

    Yields:
        ``(number, text)``: the line's number and its text, line end removed.

    Raises:
        InputError: a line longer than ``max_line`` or a file longer than ``max_total``
            (naming the limit and the line), or a line that is not UTF-8 text.
    """
    total = 0
    number = 0
    while raw := stream.readline(max_line + 1):
        number += 1
        total += len(raw)
        if len(raw) > max_line:
            raise InputError(
                N_("line {line} of the export is longer than {limit} MiB"),
                tip=N_("each line of a Tablée export is one event"),
                line=number,
                limit=max_line // (1024 * 1024),
            )
        if total > max_total:
            raise InputError(
                N_("the export is larger than {limit} MiB (at line {line})"),
                line=number,
                limit=max_total // (1024 * 1024),
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(
                N_("line {line} of the export is not UTF-8 text"), line=number
            ) from None
        yield number, text.rstrip("\r\n")


def read_jsonl(source: str | BinaryIO) -> Export:
    """Read a JSON Lines export: its events, and its trailer when the last line is one.

    Every field of an event is checked for its type: whole-number ``seq`` and
    ``schema_version``, a text ``kind``, a text or null ``actor``, a known ``visibility``, an
    object ``payload``, an ISO-8601 ``created_at`` with its time zone, and text or null
    ``rules_version``, ``command_key`` and ``chain`` (absent from 0.1.0 exports).

    Args:
        source: the export's text, or a binary stream read line by line (`export_lines`:
            at most `MAX_LINE_BYTES` a line, `MAX_EXPORT_BYTES` in all).

    Raises:
        InputError: a line that is neither such an event nor the trailer, a trailer that
            is not the last line, a line or a file past its limit, naming the line number.
    """
    stream = io.BytesIO(source.encode("utf-8")) if isinstance(source, str) else source
    events: list[StoredEvent] = []
    trailer: Trailer | None = None
    for number, line in export_lines(stream):
        if not line.strip():
            continue
        if trailer is not None:
            raise InputError(
                N_("line {line} of the export follows its trailer"),
                tip=N_("the trailer must be the last line"),
                line=number,
            )
        try:
            row = json.loads(line)
            if isinstance(row, dict) and "trailer" in row:
                trailer = Trailer.from_json(row["trailer"])
            else:
                events.append(_event_of(row))
        except RecursionError:
            raise InputError(
                N_("line {line} of the export is nested too deeply to be read"),
                line=number,
            ) from None
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(
                N_("line {line} of the export is not an event: {error}"),
                line=number,
                error=str(exc),
            ) from exc
    return Export(events, trailer)


def parse_jsonl(text: str) -> list[StoredEvent]:
    """The events of a JSON Lines export (its trailer is read and left out); see `read_jsonl`.

    Raises:
        InputError: a line that is not such an event, naming the line number.
    """
    return read_jsonl(text).events


def _event_of(row: Any) -> StoredEvent:
    if not isinstance(row, dict):
        raise TypeError("not a JSON object")
    for key in ("seq", "schema_version"):
        if isinstance(row[key], bool) or not isinstance(row[key], int):
            raise TypeError(f"{key} is not a whole number: {row[key]!r}")
    if not isinstance(row["kind"], str) or not isinstance(row["payload"], dict):
        raise TypeError("kind must be text and payload an object")
    if row["actor"] is not None and not isinstance(row["actor"], str):
        raise TypeError(f"actor is not text: {row['actor']!r}")
    if row["visibility"] not in VISIBILITIES:
        raise ValueError(f"unknown visibility {row['visibility']!r}")
    created_at = datetime.fromisoformat(str(row["created_at"]))
    if created_at.tzinfo is None:
        raise ValueError(f"created_at {row['created_at']!r} has no time zone")
    envelope = {key: row.get(key) for key in ("rules_version", "command_key", "chain")}
    for key, value in envelope.items():  # absent from 0.1.0 exports
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{key} is not text: {value!r}")
    return StoredEvent(
        str(row["table_id"]),
        row["seq"],
        row["kind"],
        row["schema_version"],
        row["actor"],
        row["visibility"],
        row["payload"],
        created_at,
        envelope["rules_version"],
        envelope["command_key"],
        envelope["chain"],
    )


def _strings(value: JSON, path: str) -> Iterator[tuple[str, str]]:
    """Every text in a JSON value (object keys too), with where it sits (``cagnotte.before``)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            where = f"{path}.{key}" if str(key).isprintable() else f"{path}.{key!a}"
            yield where, str(key)
            yield from _strings(item, where)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _strings(item, f"{path}[{index}]")


def check_texts(state: TableState[Any]) -> None:
    """Refuse an imported log holding text that Tablée would not let anyone type.

    A file can say anything; what it holds is shown in every later ``table log``, page and
    export, so it is held to the same checks as typed text
    (`tablee.systems.declare.check_text`):

    * the fold has already checked the players' names (`tablee.systems.base.clean_name`);
    * no text anywhere in an event (its actor, every text and key of its payload, an undo's
      revisions included) holds a control or text-direction character (tabs and line ends
      aside);
    * an undo's reason is at most `tablee.systems.declare.MAX_TEXT` characters;
    * an undone event's command is built from its recorded inputs, so its declared fields
      (a note, a declaration) are checked against their limits even though the rules do not
      decide it again; the events that count are checked so when `verify_log` decides them.

    Args:
        state: the imported log, folded.

    Raises:
        InputError: the first such text, naming the event, the field and the limit or the
            character's code point.
    """
    for event in state.events:
        try:
            _check_event(state, event)
        except TableeError as exc:
            raise InputError(N_("event {seq}: {error}"), seq=event.seq, error=exc) from exc


def _check_event(state: TableState[Any], event: StoredEvent) -> None:
    texts = [("actor", event.actor or ""), *_strings(event.payload, "payload")]
    for field, text in texts:
        bad = next((ch for ch in text if unsafe_char(ch)), None)
        if bad is not None:
            raise InputError(
                N_("{field}: the character {code} is not allowed (a control character)"),
                field=field,
                code=f"U+{ord(bad):04X}",
            )
    payload = state.payload_of(event)
    if event.kind == TABLE_VOIDED:
        check_text(str(payload.get("reason") or ""), "reason")
    elif event.kind != TABLE_CREATED and event.seq in state.voided:
        inputs = getattr(state.system.event_of(event.kind, payload), "inputs", None)
        if inputs is not None:
            inputs()  # the command checks its declared fields as it is built


def to_markdown(state: TableState[Any], tr: Translate) -> str:
    """A readable transcript: title, players, then one bullet per event (undone ones struck).

    Args:
        state: the table.
        tr: translation function for the table's language.
    """
    lines = [
        f"# {state.name}",
        "",
        tr("System: {system}. Players: {players}.").format(
            system=state.system.id, players=", ".join(state.players)
        ),
        "",
    ]
    for event in state.events:
        when = event.created_at.strftime("%Y-%m-%d %H:%M")
        text = describe(event, tr, state)
        if event.seq in state.voided:
            text = f"~~{text}~~ " + tr("(undone)")
        lines.append(f"- **{event.seq}** ({when}) {text}")
    return "\n".join(lines) + "\n"
