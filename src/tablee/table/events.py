"""Stored events: the envelope, the table's own event kinds, upgrading old versions.

A stored event is a `Fact` that received a place in its table's log: a sequence number
(1, 2, 3... with no gap), the schema version of its kind, and the UTC time it was decided
(taken once, stored, never read from the clock again).

The table layer owns two kinds of its own:

* ``table.created`` (version 1), always seq 1: ``{"system", "name", "players", "lang",
  "options"}`` — the system reads it in ``initial_state``;
* ``table.voided`` (version 2): ``{"seq": n, "reason": str, "revised": {seq: payload}}`` —
  undo; the voided event stays in the log and is skipped by the fold. ``revised`` holds the
  payloads of later events whose recorded outcome the undo changed (the cagnotte a later
  roll found...), as the rules gave them when the undo was appended; the fold uses the
  latest revision of each event. Version 1 (Tablée 0.1.0) recorded no revision: a log
  holding one is folded by deciding every event again (`tablee.table.projection`).

Source: DESIGN.md "The event log"; issue 2 point 3.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tablee.errors import N_, StorageError
from tablee.systems.base import JSON, System, Upcaster

__all__ = [
    "TABLE_CREATED",
    "TABLE_EVENT_VERSIONS",
    "TABLE_VOIDED",
    "StoredEvent",
    "decode_payload",
    "encode_payload",
    "upcast",
]

TABLE_CREATED = "table.created"
TABLE_VOIDED = "table.voided"
TABLE_EVENT_VERSIONS: Mapping[str, int] = {TABLE_CREATED: 1, TABLE_VOIDED: 2}


def _voided_v2(payload: dict[str, JSON]) -> dict[str, JSON]:
    """``table.voided`` 1 -> 2: the undo recorded no revision of the events after it."""
    return {**payload, "revised": {}}


TABLE_UPCASTERS: Mapping[tuple[str, int], Upcaster] = {(TABLE_VOIDED, 1): _voided_v2}


@dataclass(frozen=True)
class StoredEvent:
    """One event of a table's log, as stored.

    Attributes:
        table_id: the table's id (a UUID string).
        seq: position in the log, 1 for ``table.created``, then consecutive.
        kind: dotted event kind.
        schema_version: version of the payload's shape for that kind (1 or more).
        actor: who acted, or None.
        visibility: ``all``, ``roller_and_gm`` or ``gm``.
        payload: JSON-compatible data.
        created_at: UTC time the command was decided (timezone-aware).
    """

    table_id: str
    seq: int
    kind: str
    schema_version: int
    actor: str | None
    visibility: str
    payload: Mapping[str, JSON]
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        """The event as one JSON object (the JSON Lines export format)."""
        return {
            "table_id": self.table_id,
            "seq": self.seq,
            "kind": self.kind,
            "schema_version": self.schema_version,
            "actor": self.actor,
            "visibility": self.visibility,
            "payload": dict(self.payload),
            "created_at": self.created_at.isoformat(),
        }


def encode_payload(payload: Mapping[str, JSON]) -> str:
    """Serialise a payload to compact JSON text (keys kept in order, no floats expected)."""
    return json.dumps(dict(payload), ensure_ascii=False, separators=(",", ":"))


def decode_payload(text: str, *, table_id: str, seq: int) -> dict[str, JSON]:
    """Parse a stored payload.

    Raises:
        StorageError: the text is not a JSON object.
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StorageError(
            N_("event {seq} of table {table} has an unreadable payload: {error}"),
            seq=seq,
            table=table_id,
            error=str(exc),
        ) from exc
    if not isinstance(value, dict):
        raise StorageError(
            N_("event {seq} of table {table} has a payload that is not an object"),
            seq=seq,
            table=table_id,
        )
    return value


def upcast(event: StoredEvent, system: System) -> StoredEvent:
    """Bring an event's payload to the current version of its kind, step by step.

    Args:
        event: as loaded.
        system: the table's system, which knows its kinds' versions and upcasters.

    Returns:
        The event at the current version (the same object when already current).

    Raises:
        StorageError: unknown kind, a version newer than this Tablée knows, or a missing step.
    """
    versions = {**TABLE_EVENT_VERSIONS, **system.event_versions}
    upcasters = {**TABLE_UPCASTERS, **system.upcasters}
    current = versions.get(event.kind)
    if current is None:
        raise StorageError(
            N_("event {seq} has kind {kind!r}, unknown to system {system}"),
            seq=event.seq,
            kind=event.kind,
            system=system.id,
        )
    if event.schema_version > current:
        raise StorageError(
            N_("event {seq} ({kind}) has version {version}, newer than {current}"),
            tip=N_("upgrade Tablée to read this table"),
            seq=event.seq,
            kind=event.kind,
            version=event.schema_version,
            current=current,
        )
    payload = dict(event.payload)
    version = event.schema_version
    while version < current:
        step = upcasters.get((event.kind, version))
        if step is None:
            raise StorageError(
                N_("no upgrade from version {version} of event kind {kind}"),
                version=version,
                kind=event.kind,
            )
        payload = step(payload)
        version += 1
    if version == event.schema_version:
        return event
    return StoredEvent(
        event.table_id,
        event.seq,
        event.kind,
        version,
        event.actor,
        event.visibility,
        payload,
        event.created_at,
    )
