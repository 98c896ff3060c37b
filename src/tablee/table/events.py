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

The envelope also keeps, per event, the version of the rules that decided it
(``rules_version``), the key of the command that stored it (``command_key``, see
`command_key_of`) and its link in the table's keyed hash chain (``chain``); each is None on
events written before it existed.

Source: docs/architecture.md, "The event log".
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tablee.errors import N_, InputError, StorageError
from tablee.systems.base import JSON, Upcaster

if TYPE_CHECKING:
    from tablee.systems.plugin import AnyGame

__all__ = [
    "COMMAND_KEY_MAX",
    "COMMAND_KEY_PART",
    "TABLE_CREATED",
    "TABLE_EVENT_VERSIONS",
    "TABLE_VOIDED",
    "StoredEvent",
    "check_command_key",
    "command_key_of",
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

COMMAND_KEY_MAX = 100
"""Longest command key, in characters."""

COMMAND_KEY_PART = "\x1f"
"""Separates a command key from an event's rank in its command (never in a key itself)."""


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
        rules_version: version of the rules that decided it (`Fact.rules_version`), or None
            (events written before rules versions existed, or decided without one).
        command_key: the idempotency key of the command that stored it, or None. The
            command's first event holds the key itself; its n-th event (n >= 2) holds
            `command_key_of` ``(key, n)``, so that every event of a command names it while
            each stored value stays unique in its table.
        chain: this event's link in the table's keyed hash chain (64 hex digits), or None
            when not computed (an event read from an export without chains).
    """

    table_id: str
    seq: int
    kind: str
    schema_version: int
    actor: str | None
    visibility: str
    payload: Mapping[str, JSON]
    created_at: datetime
    rules_version: str | None = None
    command_key: str | None = None
    chain: str | None = None

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
            "rules_version": self.rules_version,
            "command_key": self.command_key,
            "chain": self.chain,
        }


def check_command_key(key: object) -> str:
    """A command's idempotency key, checked: 1 to `COMMAND_KEY_MAX` printable ASCII characters.

    Args:
        key: the key a caller gave (for instance a web request's id).

    Returns:
        The key, unchanged.

    Raises:
        InputError: not text, empty, too long, or with a character outside printable ASCII
            (space to tilde).
    """
    if (
        not isinstance(key, str)
        or not 1 <= len(key) <= COMMAND_KEY_MAX
        or any(not " " <= ch <= "~" for ch in key)
    ):
        raise InputError(
            N_("{key!r} is not a command key: 1 to {maximum} printable ASCII characters"),
            key=key,
            maximum=COMMAND_KEY_MAX,
        )
    return key


def command_key_of(key: str, rank: int) -> str:
    """The ``command_key`` stored on the ``rank``-th event of the command with key ``key``.

    Args:
        key: a checked command key.
        rank: 1 for the command's first event, then 2, 3...

    Returns:
        ``key`` for the first event, else ``key``, `COMMAND_KEY_PART` and ``rank``
        (``abc``, U+001F, ``2``): a value no key can take, since keys are printable ASCII.
    """
    return key if rank == 1 else f"{key}{COMMAND_KEY_PART}{rank}"


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


def upcast(event: StoredEvent, system: AnyGame) -> StoredEvent:
    """Bring an event's payload to the current version of its kind, step by step.

    Args:
        event: as loaded.
        system: the table's system, which knows its kinds' versions and upcasters.

    Returns:
        The event at the current version (the same object when already current).

    Raises:
        StorageError: unknown kind, a version newer than this Tablée knows, or a missing step.
    """
    # the system's kinds, then the table's own (a fold calls this for every event: no
    # merged copy of the two tables per call)
    current = system.event_versions.get(event.kind) or TABLE_EVENT_VERSIONS.get(event.kind)
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
    version = event.schema_version
    if version == current:
        return event
    payload = dict(event.payload)
    upcasters = system.upcasters
    while version < current:
        step = upcasters.get((event.kind, version)) or TABLE_UPCASTERS.get((event.kind, version))
        if step is None:
            raise StorageError(
                N_("no upgrade from version {version} of event kind {kind}"),
                version=version,
                kind=event.kind,
            )
        payload = step(payload)
        version += 1
    return replace(event, schema_version=version, payload=payload)
