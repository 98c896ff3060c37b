"""Signed exports: the trailer line of a JSON Lines export, and the checks before an import.

A JSON Lines export ends with a trailer line ``{"trailer": {...}}`` (`Trailer`): the table's
id, the count of events, the last chain, the installation id and a MAC over the rest
(`tablee.table.chain.export_mac`), so that a cut or a trailer edited to match is caught.
`verify_export` checks an export before it is imported: its chain, its trailer, its times.
`Imported` and `Checked` are what `tablee.table.service.TableService` answers after an import
and a check (given from `tablee.table.service` too).

Kept apart from `tablee.table.chain` (the chain every append computes) so that a command
that only appends does not load it. Pure (standard library only).

Source: docs/architecture.md, "A tamper-evident log".
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tablee.errors import N_, InputError, Message
from tablee.table.chain import (
    FUTURE_SLACK_DAYS,
    export_mac,
    first_broken_link,
    installation_id,
)
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState

__all__ = ["Checked", "Imported", "Trailer", "Verdict", "make_trailer", "verify_export"]


@dataclass(frozen=True)
class Trailer:
    """The last line of a JSON Lines export.

    Attributes:
        table_id: the exported table's id.
        events: how many events the export holds.
        last_chain: the last event's chain.
        installation: the exporting installation's id (`installation_id`).
        mac: `export_mac` of the four values above with the exporter's secret.
    """

    table_id: str
    events: int
    last_chain: str
    installation: str
    mac: str

    def to_json(self) -> dict[str, Any]:
        """The trailer line's object: ``{"trailer": {...}}``."""
        return {
            "trailer": {
                "table_id": self.table_id,
                "events": self.events,
                "last_chain": self.last_chain,
                "installation": self.installation,
                "mac": self.mac,
            }
        }

    @classmethod
    def from_json(cls, value: Any) -> Trailer:
        """The trailer in a line's ``"trailer"`` object.

        Raises:
            TypeError: a field is missing or has the wrong type.
        """
        if not isinstance(value, dict):
            raise TypeError("the trailer is not an object")
        texts = {k: value.get(k) for k in ("table_id", "last_chain", "installation", "mac")}
        for key, text in texts.items():
            if not isinstance(text, str):
                raise TypeError(f"trailer {key} is not text: {text!r}")
        count = value.get("events")
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"trailer events is not a whole number: {count!r}")
        return cls(
            str(texts["table_id"]),
            count,
            str(texts["last_chain"]),
            str(texts["installation"]),
            str(texts["mac"]),
        )


def make_trailer(secret: str, table_id: str, events: Sequence[StoredEvent]) -> Trailer:
    """The trailer of an export of ``events`` (a whole log, every event chained).

    Raises:
        InputError: an event without a chain (a log read from elsewhere).
    """
    last = events[-1].chain
    if last is None:
        raise InputError(N_("event {seq} has no chain to export"), seq=events[-1].seq)
    return Trailer(
        table_id,
        len(events),
        last,
        installation_id(secret),
        export_mac(secret, table_id, len(events), last),
    )


@dataclass(frozen=True)
class Verdict:
    """What checking an export found, when it was not refused.

    Attributes:
        verified: True when every chain and the trailer's MAC were checked with this
            installation's secret.
        why: when not verified, why not (a translatable message); None when verified.
    """

    verified: bool
    why: Message | None = None


def verify_export(
    secret: str, events: Sequence[StoredEvent], trailer: Trailer | None, now: datetime
) -> Verdict:
    """Check an exported log before it is imported: its chain, its trailer, its times.

    From this installation (the trailer's installation id is this secret's), every chain is
    computed again and the trailer's MAC checked: the import is verified. An export without
    any chain (written before chains existed) or from another installation cannot be
    checked: it is unverified, and says why. Whatever the source, the events must be numbered
    1, 2, 3... without gap, and their times must go forward and not be later than ``now``
    plus `FUTURE_SLACK_DAYS`.

    Args:
        secret: this installation's secret.
        events: the exported events, in file order.
        trailer: the export's trailer, or None when it has none.
        now: the importer's clock.

    Returns:
        Whether the export was verified, and if not why.

    Raises:
        InputError: an empty export; events with chains but no trailer (the file was cut
            short: names the last event present); a trailer that does not match the events
            (count, last chain, MAC); an event whose chain does not match (from this
            installation: names the first); a seq gap; a time going backwards or in the
            future, or a command key stored twice (names the event).
    """
    if not events:
        raise InputError(N_("the export holds no event"))
    verdict = _check_chain(secret, events, trailer)
    _check_order(events, now)
    return verdict


def _check_chain(secret: str, events: Sequence[StoredEvent], trailer: Trailer | None) -> Verdict:
    chained = [e for e in events if e.chain is not None]
    if trailer is None:
        if chained:
            raise InputError(
                N_("the export was cut short: it stops after event {seq}, without its trailer"),
                tip=N_("export the table again and copy the whole file"),
                seq=events[-1].seq,
            )
        return Verdict(
            False,
            Message(N_("the export has no hash chain (written before Tablée signed its exports)")),
        )
    unchained = next((e for e in events if e.chain is None), None)
    if unchained is not None:
        raise InputError(N_("event {seq} of the export has no chain"), seq=unchained.seq)
    if trailer.installation != installation_id(secret):
        _check_count(events, trailer)
        return Verdict(
            False,
            Message(
                N_(
                    "the export comes from another installation ({installation}): its hash "
                    "chain cannot be checked here"
                ),
                installation=trailer.installation,
            ),
        )
    broken = first_broken_link(secret, events)
    if broken is not None:
        raise InputError(
            N_(
                "event {seq} of the export does not match its hash chain: it was changed, "
                "or an event before it was changed or removed"
            ),
            seq=broken.seq,
        )
    _check_count(events, trailer)
    expected_mac = export_mac(secret, trailer.table_id, trailer.events, trailer.last_chain)
    if not hmac.compare_digest(trailer.mac, expected_mac):
        raise InputError(N_("the export's trailer does not match its events: it was changed"))
    return Verdict(True)


def _check_count(events: Sequence[StoredEvent], trailer: Trailer) -> None:
    """The trailer counts the events and ends with the last one's chain."""
    if trailer.events != len(events) or trailer.last_chain != events[-1].chain:
        raise InputError(
            N_(
                "the export does not match its trailer: it holds {count} events up to event "
                "{seq}, its trailer counts {expected}"
            ),
            tip=N_("export the table again and copy the whole file"),
            count=len(events),
            seq=events[-1].seq,
            expected=trailer.events,
        )


def _check_order(events: Sequence[StoredEvent], now: datetime) -> None:
    """Seq 1, 2, 3..., times going forward, none past ``now`` and the slack, keys once."""
    latest = now + timedelta(days=FUTURE_SLACK_DAYS)
    previous: StoredEvent | None = None
    keys: dict[str, int] = {}
    for expected, event in enumerate(events, start=1):
        if event.command_key is not None:
            first = keys.setdefault(event.command_key, event.seq)
            if first != event.seq:
                raise InputError(
                    N_("event {seq} of the export repeats the command key of event {first}"),
                    seq=event.seq,
                    first=first,
                )
        if event.seq != expected:
            raise InputError(
                N_("the export has event {seq} where event {expected} was expected"),
                seq=event.seq,
                expected=expected,
            )
        if event.created_at > latest:
            raise InputError(
                N_("event {seq} of the export is dated {when}, in the future"),
                seq=event.seq,
                when=event.created_at.isoformat(),
            )
        if previous is not None and event.created_at < previous.created_at:
            raise InputError(
                N_("event {seq} of the export is dated {when}, before event {previous}"),
                seq=event.seq,
                when=event.created_at.isoformat(),
                previous=previous.seq,
            )
        previous = event


@dataclass(frozen=True)
class Imported:
    """An imported table, and whether its export could be verified.

    Attributes:
        state: the new table.
        verified: True when the export came from this installation and its whole hash chain
            and trailer were checked.
        why: when not verified, why not (no chain: an export of Tablée 0.1.0; another
            installation); None when verified. Its events were checked by the rules (the
            fold) either way.
    """

    state: TableState[Any]
    verified: bool
    why: Message | None = None


@dataclass(frozen=True)
class Checked:
    """A stored table whose hash chain and fold were checked (`TableService.check`).

    Attributes:
        name: the table's name.
        events: how many events were checked.
    """

    name: str
    events: int
