"""Exports of a table's log: JSON Lines (replayable) and a Markdown transcript.

JSON Lines has one stored event per line, every field kept (faces, times, versions), so that
`tablee.table.projection.fold` over the parsed lines gives the same state. The Markdown
transcript is for people, in the table's language.

Source: issue 2 point 3 (export); DESIGN.md (every event stores its faces and timestamp).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from tablee.errors import N_, InputError, Message
from tablee.systems.base import VISIBILITIES
from tablee.table.events import TABLE_CREATED, TABLE_VOIDED, StoredEvent, upcast
from tablee.table.projection import TableState

__all__ = ["describe", "parse_jsonl", "to_jsonl", "to_markdown"]

Translate = Callable[[str], str]


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


def describe(event: StoredEvent, tr: Translate, state: TableState | None = None) -> str:
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


def to_jsonl(state: TableState) -> str:
    """Every stored event, one JSON object per line, oldest first (ends with a newline)."""
    return "".join(json.dumps(e.to_json(), ensure_ascii=False) + "\n" for e in state.events)


def parse_jsonl(text: str) -> list[StoredEvent]:
    """Read a JSON Lines export back into events (for replay and checks).

    Every field is checked for its type: whole-number ``seq`` and ``schema_version``, a text
    ``kind``, a text or null ``actor``, a known ``visibility``, an object ``payload`` and an
    ISO-8601 ``created_at`` with its time zone.

    Raises:
        InputError: a line that is not such an event, naming the line number.
    """
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            events.append(_event_of(json.loads(line)))
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(
                N_("line {line} of the export is not an event: {error}"),
                line=number,
                error=str(exc),
            ) from exc
    return events


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
    return StoredEvent(
        str(row["table_id"]),
        row["seq"],
        row["kind"],
        row["schema_version"],
        row["actor"],
        row["visibility"],
        row["payload"],
        created_at,
    )


def to_markdown(state: TableState, tr: Translate) -> str:
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
