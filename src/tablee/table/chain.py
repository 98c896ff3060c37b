"""The tamper-evident log: a keyed hash chain over each table's events, and signed exports.

Each installation (every process sharing one database) has a secret: 32 random bytes, kept
as 64 hex digits in the database's ``preferences`` under `SECRET_PREFERENCE`, made on first
need and never shown. Each event's ``chain`` is::

    HMAC-SHA256(secret, previous chain + canonical bytes of the event)

with the previous chain as its 64 hex digits (nothing for seq 1), and the canonical bytes the
compact JSON (keys sorted, UTF-8) of ``[seq, kind, schema_version, rules_version, actor,
visibility, payload, created_at, command_key]`` (`canonical_bytes`), ``created_at`` as UTC
ISO-8601 text with microseconds. The table id is left out, so an exported log can be checked
wherever its secret is known. Changing, removing or inserting an event changes every chain
from there on; without the secret nobody can compute matching chains.

A JSON Lines export ends with a trailer line ``{"trailer": {...}}`` (`Trailer`): the table's
id, the count of events, the last chain, the installation id (the first 16 hex digits of the
SHA-256 of the secret: it names the installation without revealing the secret) and a MAC over
the rest, so that a cut or a trailer edited to match is caught.

This module is pure (standard library only): the stores call it inside their append
transactions and `tablee.table.service` to check stored logs. The trailer and the checks of
an export before import live in `tablee.table.trailer` (loaded on first use, so that a
command that only appends does not load them); their names can still be read from here.

Source: docs/architecture.md, "A tamper-evident log".
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from tablee.systems.base import JSON
from tablee.table.events import StoredEvent

if TYPE_CHECKING:
    from tablee.table.trailer import Trailer, Verdict, make_trailer, verify_export

__all__ = [
    "EXPORT_DOMAIN",
    "FUTURE_SLACK_DAYS",
    "SECRET_PREFERENCE",
    "Trailer",
    "Verdict",
    "canonical_bytes",
    "chain_link",
    "chain_text",
    "export_mac",
    "first_broken_link",
    "installation_id",
    "make_trailer",
    "new_secret",
    "verify_export",
]

SECRET_PREFERENCE = "tablee.installation_secret"
"""The reserved ``preferences`` key holding the installation secret (64 hex digits)."""

EXPORT_DOMAIN = b"tablee-export"
"""The prefix of the bytes an export's MAC covers, so that it is never a chain link."""

FUTURE_SLACK_DAYS = 1
"""An imported event may be dated at most this many days after the importer's clock."""


def new_secret() -> str:
    """A fresh installation secret: 32 random bytes from `secrets`, as 64 hex digits."""
    import secrets  # lazy: made once per installation, and `secrets` loads `random`

    return secrets.token_hex(32)


def _key(secret: str) -> bytes:
    return bytes.fromhex(secret)


def installation_id(secret: str) -> str:
    """The installation's public id: the first 16 hex digits of SHA-256 of the secret's bytes.

    Args:
        secret: the installation secret (64 hex digits).
    """
    return hashlib.sha256(_key(secret)).hexdigest()[:16]


def chain_text(created_at: datetime) -> str:
    """A time as the chain reads it: UTC ISO-8601 with microseconds (as the stores keep it)."""
    return created_at.astimezone(UTC).isoformat(timespec="microseconds")


def canonical_bytes(
    seq: int,
    kind: str,
    schema_version: int,
    rules_version: str | None,
    actor: str | None,
    visibility: str,
    payload: Mapping[str, JSON],
    created_at: str,
    command_key: str | None,
) -> bytes:
    """The bytes of an event that its chain link covers (the table id is not among them).

    Args:
        seq: the event's place in its log.
        kind: its kind.
        schema_version: its payload's version.
        rules_version: the rules version stored with it, or None.
        actor: who acted, or None.
        visibility: who may see it.
        payload: its data (keys are sorted here, so their order does not count).
        created_at: its time as `chain_text` gives it.
        command_key: the stored command key, or None.

    Returns:
        Compact UTF-8 JSON of the list of those nine values, object keys sorted.
    """
    values = [
        seq,
        kind,
        schema_version,
        rules_version,
        actor,
        visibility,
        dict(payload),
        created_at,
        command_key,
    ]
    text = json.dumps(values, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8")


def _event_bytes(event: StoredEvent) -> bytes:
    return canonical_bytes(
        event.seq,
        event.kind,
        event.schema_version,
        event.rules_version,
        event.actor,
        event.visibility,
        event.payload,
        chain_text(event.created_at),
        event.command_key,
    )


def chain_link(secret: str, previous: str | None, canonical: bytes) -> str:
    """One event's chain: HMAC-SHA256(secret, previous chain's hex + its canonical bytes).

    Args:
        secret: the installation secret.
        previous: the previous event's chain, or None (or empty) for seq 1.
        canonical: the event's `canonical_bytes`.

    Returns:
        64 lowercase hex digits.
    """
    message = (previous or "").encode("ascii") + canonical
    return hmac.new(_key(secret), message, hashlib.sha256).hexdigest()


def first_broken_link(secret: str, events: Sequence[StoredEvent]) -> StoredEvent | None:
    """The first event whose stored chain is not the one its log and the secret give.

    Args:
        secret: the installation secret.
        events: a log from its seq 1, in order, as stored (not upcast).

    Returns:
        That event, or None when every chain matches.
    """
    previous: str | None = None
    for event in events:
        expected = chain_link(secret, previous, _event_bytes(event))
        if event.chain is None or not hmac.compare_digest(event.chain, expected):
            return event
        previous = event.chain
    return None


def export_mac(secret: str, table_id: str, count: int, last_chain: str) -> str:
    """The MAC of an export's trailer: HMAC over `EXPORT_DOMAIN`, table id, count, last chain.

    The four parts are joined with NUL bytes, so that no two trailers give the same bytes.
    """
    message = b"\0".join(
        (EXPORT_DOMAIN, table_id.encode("utf-8"), str(count).encode("ascii"), last_chain.encode())
    )
    return hmac.new(_key(secret), message, hashlib.sha256).hexdigest()


TRAILER_NAMES = frozenset({"Trailer", "Verdict", "make_trailer", "verify_export"})
"""The names `tablee.table.trailer` holds, given from here on first use."""


def __getattr__(name: str) -> Any:
    """The trailer's names (`tablee.table.trailer`), imported on first use.

    Raises:
        AttributeError: no such name here nor there.
    """
    if name in TRAILER_NAMES:
        from tablee.table import trailer

        value = getattr(trailer, name)
        globals()[name] = value  # found directly from now on
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
