"""Rows shared by both event store backends, standard library only.

Both `tablee.table.sqlite_store` (sqlite3) and `tablee.table.sql_store` (SQLAlchemy) turn
facts into the same rows and rows into the same `StoredEvent` values, and raise the same
errors, through this module. It must not import SQLAlchemy or Alembic: the sqlite3 store is
the CLI's fast path.

Source: docs/architecture.md, "The event log".
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from tablee.errors import N_, InputError, NotFoundError, RuleError, StorageError
from tablee.systems.base import JSON, Fact
from tablee.table.chain import canonical_bytes, chain_link
from tablee.table.events import (
    StoredEvent,
    check_command_key,
    command_key_of,
    decode_payload,
    encode_payload,
)
from tablee.table.store import AppendConflict, DuplicateCommand, TableInfo

if TYPE_CHECKING:
    from tablee.table.links import LinkInfo

__all__ = [
    "COMMAND_BATCH",
    "EVENT_COLUMNS",
    "LINK_COLUMNS",
    "SCHEMA_HEAD",
    "EventRow",
    "LaterFact",
    "TableRow",
    "chained",
    "chained_events",
    "collect_command",
    "conflict",
    "duplicate_command",
    "duplicate_name",
    "event_from_row",
    "fact_rows",
    "format_time",
    "link_from_row",
    "link_row",
    "log_rows",
    "parse_time",
    "reserved_preference",
    "table_from_row",
    "unknown_table",
    "unknown_table_id",
]

SCHEMA_HEAD = "0004_chain"
"""The Alembic revision this code reads and writes (the newest in ``migrations/versions``)."""

EVENT_COLUMNS = (
    "table_id",
    "seq",
    "kind",
    "schema_version",
    "actor",
    "visibility",
    "payload",
    "created_at",
    "rules_version",
    "command_key",
    "chain",
)
"""The ``events`` columns, in the order of an `EventRow`."""

EventRow = tuple[str, int, str, int, str | None, str, str, str, str | None, str | None, str | None]
"""One ``events`` row: the values of `EVENT_COLUMNS`, payload as JSON text."""

LINK_COLUMNS = (
    "token_hash",
    "table_id",
    "prefix",
    "role",
    "player",
    "created_at",
    "revoked_at",
)
"""The ``links`` columns, in the order of `link_row`."""

TableRow = tuple[str, str, str, str]
"""One ``tables`` row: id, name, system, created_at text."""


def format_time(now: datetime) -> str:
    """The stored text of a time: ISO-8601 in UTC with microseconds and a ``+00:00`` offset.

    Args:
        now: a timezone-aware time (any offset; converted to UTC).

    Returns:
        Fixed-width text (32 characters for years 1000-9999) that sorts in time order.

    Raises:
        InputError: ``now`` is naive (no timezone).

    Source: docs/architecture.md, "The event log".
    """
    if now.tzinfo is None or now.utcoffset() is None:
        raise InputError(
            N_("the time {value} has no timezone"),
            tip=N_("pass an aware time such as datetime.now(UTC)"),
            value=now.isoformat(),
        )
    return now.astimezone(UTC).isoformat(timespec="microseconds")


def parse_time(text: str) -> datetime:
    """The aware UTC time stored as `format_time` text.

    Raises:
        StorageError: the text is not an ISO-8601 time with an offset.

    Source: docs/architecture.md, "The event log".
    """
    try:
        value = datetime.fromisoformat(text)
    except ValueError as exc:
        raise StorageError(N_("unreadable stored time {value!r}"), value=text) from exc
    if value.tzinfo is None:
        raise StorageError(N_("stored time {value!r} has no timezone"), value=text)
    return value.astimezone(UTC)


LaterFact = tuple[Fact, datetime] | tuple[Fact, datetime, str | None]
"""A fact of an imported log with its own time, and optionally its stored ``command_key``."""


def log_rows(
    table_id: str, created: Fact, now: datetime, later: Sequence[LaterFact] = ()
) -> list[EventRow]:
    """The rows of a new table's log: ``created`` as seq 1, then ``later`` as 2, 3...

    Args:
        table_id: the table's id.
        created: the ``table.created`` fact, stored at ``now``.
        now: aware time of the creation.
        later: further facts with their own aware times (an imported log), in order, each
            optionally with the ``command_key`` value to store on it as it is.

    Raises:
        InputError: a naive time.

    Source: docs/architecture.md, "The event log".
    """
    rows = fact_rows(table_id, 1, [created], now)
    for offset, item in enumerate(later, start=2):
        fact, when = item[0], item[1]
        (row,) = fact_rows(table_id, offset, [fact], when)
        stored_key = item[2] if len(item) == 3 else None
        rows.append((*row[:9], stored_key, row[10]))
    return rows


def fact_rows(
    table_id: str,
    first_seq: int,
    facts: Sequence[Fact],
    now: datetime,
    command_key: str | None = None,
) -> list[EventRow]:
    """The rows storing ``facts`` as ``first_seq, first_seq + 1, ...``.

    Args:
        table_id: the table's id.
        first_seq: seq of the first fact (1 or more).
        facts: in order.
        now: aware time of the command, stored on every row.
        command_key: the command's idempotency key, or None; stored as `command_key_of`
            ``(key, rank)`` on each row.

    Returns:
        One `EventRow` per fact, ``fact.version`` as schema_version, ``fact.rules_version``
        as rules_version, no chain yet.

    Raises:
        InputError: ``now`` is naive, or a malformed key.

    Source: docs/architecture.md, "The event log".
    """
    stamp = format_time(now)
    if command_key is not None:
        check_command_key(command_key)
    return [
        (
            table_id,
            first_seq + i,
            fact.kind,
            fact.version,
            fact.actor,
            fact.visibility,
            encode_payload(fact.payload),
            stamp,
            fact.rules_version,
            None if command_key is None else command_key_of(command_key, i + 1),
            None,
        )
        for i, fact in enumerate(facts)
    ]


def chained(rows: Sequence[EventRow], previous: str | None, secret: str) -> list[EventRow]:
    """The rows with their chain links, continuing the chain from ``previous``.

    Args:
        rows: consecutive rows of one table (as `fact_rows` or `log_rows` give them).
        previous: the chain of the event before the first row, None before seq 1.
        secret: the installation secret.

    Returns:
        The same rows, each with its ``chain`` (see `tablee.table.chain`).

    Source: docs/architecture.md, "The event log" and "A tamper-evident log".
    """
    linked: list[EventRow] = []
    for row in rows:
        linked.append(_linked(row, previous, secret, json.loads(row[6])))
        previous = linked[-1][10]
    return linked


def chained_events(
    rows: Sequence[EventRow], previous: str | None, secret: str
) -> tuple[list[EventRow], list[StoredEvent]]:
    """The rows with their chain links (as `chained`), and the stored events they hold.

    What an append returns: each row's payload is parsed once, for its chain link and for
    its event, instead of once for each (`chained`, then `event_from_row`). The events are
    those `event_from_row` reads from the linked rows.

    Args:
        rows: consecutive rows of one table, as `fact_rows` gives them.
        previous: the chain of the event before the first row, None before seq 1.
        secret: the installation secret.

    Returns:
        ``(linked rows, events)``, one of each per row, in order.

    Raises:
        StorageError: a payload that is not a JSON object (`decode_payload`), or an
            unreadable time.

    Source: docs/architecture.md, "The event log" and "A tamper-evident log".
    """
    linked: list[EventRow] = []
    events: list[StoredEvent] = []
    for row in rows:
        payload = decode_payload(row[6], table_id=row[0], seq=row[1])
        linked.append(_linked(row, previous, secret, payload))
        events.append(event_from_row(linked[-1], payload))
        previous = linked[-1][10]
    return linked, events


def _linked(
    row: EventRow, previous: str | None, secret: str, payload: Mapping[str, JSON]
) -> EventRow:
    """One row with its chain link after ``previous``; ``payload`` is its payload parsed."""
    _, seq, kind, version, actor, visibility, _, created_at, rules, key, _ = row
    canonical = canonical_bytes(
        seq, kind, version, rules, actor, visibility, payload, created_at, key
    )
    return (*row[:10], chain_link(secret, previous, canonical))


def reserved_preference(key: str) -> InputError:
    """The error for setting the preference that holds the installation secret."""
    return InputError(
        N_("the preference {key!r} is reserved: Tablée keeps it itself"),
        key=key,
    )


def _text_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def event_from_row(row: Sequence[object], payload: dict[str, JSON] | None = None) -> StoredEvent:
    """The `StoredEvent` of one row ordered as `EVENT_COLUMNS`.

    Args:
        row: the row's values.
        payload: its payload already parsed (`chained_events`), or None to parse it here.

    Raises:
        StorageError: unreadable payload or time.

    Source: docs/architecture.md, "The event log".
    """
    table_id, seq, kind, version, actor, visibility, text, created_at = row[:8]
    rules_version, command_key, chain = row[8:11]
    return StoredEvent(
        table_id=str(table_id),
        seq=int(str(seq)),
        kind=str(kind),
        schema_version=int(str(version)),
        actor=_text_or_none(actor),
        visibility=str(visibility),
        payload=(
            decode_payload(str(text), table_id=str(table_id), seq=int(str(seq)))
            if payload is None
            else payload
        ),
        created_at=parse_time(str(created_at)),
        rules_version=_text_or_none(rules_version),
        command_key=_text_or_none(command_key),
        chain=_text_or_none(chain),
    )


COMMAND_BATCH = 32
"""How many events `collect_command` reads at a time after a command's first event."""


def collect_command(
    first: StoredEvent | None, key: str, load_after: Callable[[int, int], list[StoredEvent]]
) -> list[StoredEvent]:
    """The events of the command whose first event is ``first``, in order.

    Args:
        first: the event whose ``command_key`` is ``key``, or None when there is none.
        key: the command key.
        load_after: ``(seq, limit)`` -> up to ``limit`` events of the table with a greater
            seq, in order.

    Returns:
        ``first`` and the run of events right after it holding ``command_key_of(key, 2)``,
        ``command_key_of(key, 3)``...; empty when ``first`` is None.

    Source: docs/architecture.md, "The event log" and "A tamper-evident log".
    """
    if first is None:
        return []
    found = [first]
    while True:
        batch = load_after(found[-1].seq, COMMAND_BATCH)
        for event in batch:
            rank = len(found) + 1
            if event.seq != found[-1].seq + 1 or event.command_key != command_key_of(key, rank):
                return found
            found.append(event)
        if len(batch) < COMMAND_BATCH:
            return found


def table_from_row(row: Sequence[object]) -> TableInfo:
    """The `TableInfo` of one ``tables`` row (id, name, system, created_at)."""
    table_id, name, system, created_at = row
    return TableInfo(str(table_id), str(name), str(system), parse_time(str(created_at)))


def link_row(link: LinkInfo) -> tuple[str, str, str, str, str | None, str, str | None]:
    """The ``links`` row of a link, ordered as `LINK_COLUMNS` (times as stored text).

    Raises:
        InputError: a naive time.

    Source: docs/architecture.md.
    """
    revoked = None if link.revoked_at is None else format_time(link.revoked_at)
    return (
        link.token_hash,
        link.table_id,
        link.prefix,
        link.role,
        link.player,
        format_time(link.created_at),
        revoked,
    )


def link_from_row(row: Sequence[object]) -> LinkInfo:
    """The `LinkInfo` of one ``links`` row ordered as `LINK_COLUMNS`.

    Raises:
        StorageError: an unreadable time.

    Source: docs/architecture.md.
    """
    from tablee.table.links import LinkInfo  # lazy: only the web table's links need it

    token_hash, table_id, prefix, role, player, created_at, revoked_at = row
    return LinkInfo(
        str(token_hash),
        str(table_id),
        str(prefix),
        str(role),
        None if player is None else str(player),
        parse_time(str(created_at)),
        None if revoked_at is None else parse_time(str(revoked_at)),
    )


def duplicate_name(name: str) -> RuleError:
    """The error for a second table named ``name``."""
    return RuleError(
        N_("a table named {name!r} already exists"),
        tip=N_("choose another name, or open the existing table"),
        name=name,
    )


def unknown_table(name: str) -> NotFoundError:
    """The error for a table name that is not registered."""
    return NotFoundError(
        N_("no table named {name!r}"),
        tip=N_("list the tables to see their names"),
        name=name,
    )


def unknown_table_id(table_id: str) -> NotFoundError:
    """The error for a table id that is not registered."""
    return NotFoundError(N_("no table with id {table_id}"), table_id=table_id)


def duplicate_command(table_id: str, key: str) -> DuplicateCommand:
    """The error for an append whose command key the table already holds."""
    return DuplicateCommand(
        N_("table {table_id} already holds the command with key {key!r}"),
        tip=N_("load that command's events instead of storing it again"),
        table_id=table_id,
        key=key,
    )


def conflict(table_id: str, expected: int) -> AppendConflict:
    """The error for an append whose expected last seq is stale.

    Args:
        table_id: the table's id.
        expected: the last seq the writer had read (0 or more).
    """
    return AppendConflict(
        N_("another writer appended to table {table_id} after event {expected}"),
        tip=N_("reload the table and try again"),
        table_id=table_id,
        expected=expected,
    )
