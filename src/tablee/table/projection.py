"""A table's state as a pure fold of its event log, and the undo decision.

`fold` upgrades every stored event to its kind's current version, collects the voided
sequence numbers, then folds the remaining events with the system's ``evolve``. Undo never
deletes: `decide_undo` appends a ``table.voided`` fact, and refuses when folding the log
without the target would break a later event (for instance a later bonus paid with dice that
the undone roll had put in the cagnotte).

Source: docs/architecture.md, "The event log"; docs/architecture.md (eventsourcing model).
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from tablee.errors import (
    N_,
    InputError,
    Message,
    NotFoundError,
    RuleError,
    StorageError,
    TableeError,
)
from tablee.systems import system_named
from tablee.systems.base import JSON, Fact
from tablee.systems.declare import check_text
from tablee.table.events import TABLE_CREATED, TABLE_VOIDED, StoredEvent, upcast

if TYPE_CHECKING:
    from collections.abc import Callable

    from tablee.systems.plugin import Game

__all__ = [
    "StatesAfter",
    "TableState",
    "decide_undo",
    "extend",
    "fold",
    "replay",
    "resume",
    "verify_log",
]


S = TypeVar("S")
T = TypeVar("T")


@dataclass(frozen=True)
class TableState(Generic[S]):
    """A table as folded from its log, for a game whose state type is ``S``.

    A table read from the store plays a game known only at run time: it is a
    ``TableState[Any]``, and `TableState.of` narrows it to a game's own state type, so
    ``mypy --strict`` checks what a caller does with that game's state.

    Attributes:
        table_id: UUID string.
        name: the table's name.
        system: the game plugin (`tablee.systems.plugin.Game`).
        lang: the table's language (``fr`` or ``en``), used by the transcript.
        players: the players' names.
        events: every stored event as it was written, in order (voided ones included);
            `payload_of` gives a payload at its kind's current version.
        voided: sequence numbers of voided events.
        game: the game's state (for Pouyss a `PouyssState`).
        after: seq -> the game's state right after that event (events that count only).
        revised: seq -> the payload an undo revised that event to.
        legacy: the log holds an undo of Tablée 0.1.0 (see `_evolver`).
        upgraded: seq -> the payload of an event stored at an older version of its kind,
            upgraded to the current one.
        partial: resumed from a snapshot: ``events`` starts at the snapshot's event, not at
            the table's creation, and ``after`` is empty. Enough to decide and append a
            command; anything that reads the whole log (undo, export, the log) folds it.
    """

    table_id: str
    name: str
    system: Game[S, Any, Any]
    lang: str
    players: tuple[str, ...]
    events: tuple[StoredEvent, ...]
    voided: frozenset[int]
    game: S
    after: Mapping[int, S] = field(default_factory=dict, compare=False, repr=False)
    revised: Mapping[int, Mapping[str, Any]] = field(default_factory=dict, repr=False)
    legacy: bool = False
    upgraded: Mapping[int, Mapping[str, Any]] = field(default_factory=dict, repr=False)
    partial: bool = False

    def of(self, game: Game[T, Any, Any]) -> TableState[T]:
        """This table as a table of ``game``, its state typed as that game's.

        Raises:
            TypeError: the table plays another game (a caller checks the table's game, with
                a message for people, before narrowing).
        """
        if self.system is not game:
            raise TypeError(f"table {self.name!r} plays {self.system.id}, not {game.id}")
        return cast("TableState[T]", self)

    def payload_of(self, event: StoredEvent) -> Mapping[str, Any]:
        """An event's payload as the fold reads it (current version, or an undo's revision)."""
        found = self.revised.get(event.seq)
        if found is None:
            found = self.upgraded.get(event.seq, event.payload)
        return found

    @property
    def last_seq(self) -> int:
        """Sequence number of the last stored event (1 or more)."""
        return self.events[-1].seq

    def effective(self) -> list[StoredEvent]:
        """Events that count: neither voided nor themselves undo events."""
        return [e for e in self.events if e.seq not in self.voided and e.kind != TABLE_VOIDED]

    def last_event(self, kinds: Collection[str]) -> StoredEvent | None:
        """The last event that counts among those of ``kinds``, or None.

        No kinds (a command that continues nothing, as most do) gives None at once, without
        going through the log: a roll reads this on every command.

        Raises:
            ValueError: a partial state (resumed from a snapshot) that may not hold it: the
                caller needs the whole log (`TableService.state`).
        """
        if not kinds:
            return None
        if self.partial:
            raise ValueError("a partial state does not hold the whole log")
        return next(
            (e for e in reversed(self.events) if e.kind in kinds and e.seq not in self.voided),
            None,
        )


class StatesAfter(Mapping[int, S]):
    """seq -> the game's state right after that event, for the events up to one seq.

    The ``after`` of the states `extend` makes. A table's successive states share one
    dictionary, each seeing its entries up to its own last event, so that a roll adds its
    entries instead of copying the table's whole history (a copy per roll is linear in the
    log's length: about 0.2 ms at 30,000 events). Entries are added in increasing seq only,
    by the state that holds the newest; a state extended again after another state was
    extended from it (a writer's retry after losing a race) copies its own entries first.
    Two threads may extend or read states of one table at once: entries are added, and
    the keys listed, under a lock shared by the states that share the dictionary.
    """

    __slots__ = ("_last", "_lock", "_shared", "_size")

    def __init__(
        self, shared: dict[int, S], last: int, size: int, lock: threading.Lock | None = None
    ) -> None:
        self._shared = shared
        self._last = last
        self._size = size
        self._lock = lock or threading.Lock()

    @classmethod
    def of(cls, after: Mapping[int, S]) -> StatesAfter[S]:
        """``after`` itself when it is one, else a copy of it (a whole fold's dictionary)."""
        if isinstance(after, StatesAfter):
            return after
        ordered = dict(sorted(after.items(), key=lambda item: item[0]))
        return cls(ordered, max(ordered, default=0), len(ordered))

    def extended(self, added: Sequence[tuple[int, S]], last: int) -> StatesAfter[S]:
        """These entries and ``added`` (seqs above all of them, in order), up to ``last``."""
        with self._lock:
            shared, lock = self._shared, self._lock
            if shared and next(reversed(shared)) > self._last:  # another state went on
                shared = {seq: st for seq, st in shared.items() if seq <= self._last}
                lock = threading.Lock()
            shared.update(added)
        return StatesAfter(shared, last, self._size + len(added), lock)

    def __getitem__(self, seq: int) -> S:
        if seq > self._last:
            raise KeyError(seq)
        return self._shared[seq]

    def __contains__(self, seq: object) -> bool:
        return isinstance(seq, int) and seq <= self._last and seq in self._shared

    def __iter__(self) -> Iterator[int]:
        with self._lock:
            listed = list(self._shared)
        for seq in listed:  # in increasing order, as entries are added
            if seq > self._last:
                return
            yield seq

    def __len__(self) -> int:
        return self._size


def _evolver(system: Game[S, Any, Any], legacy: bool) -> Callable[[S, str, Mapping[str, JSON]], S]:
    """How the fold takes one event.

    Its recorded outcome applied; or, for a log with an undo written before undos recorded
    their revisions, decided again as Tablée 0.1.0 did.
    """
    return system.legacy_evolve if legacy else system.evolve


def replay(
    system: Game[S, Any, Any],
    events: Sequence[StoredEvent],
    skip: frozenset[int],
    after: dict[int, S] | None = None,
    *,
    revised: Mapping[int, Mapping[str, Any]] | None = None,
    legacy: bool = False,
) -> S:
    """Fold events (already upcast) into the system's state, skipping ``skip`` and undos.

    Args:
        system: the table's system.
        events: the log, ``table.created`` first.
        skip: sequence numbers to leave out (the voided events).
        after: when given, filled with seq -> the state right after each folded event.
        revised: seq -> the payload an undo revised that event to (used instead of its own).
        legacy: fold as Tablée 0.1.0 did (see `_evolver`).

    Raises:
        RuleError: an event cannot follow the state before it.
    """
    evolve = _evolver(system, legacy)
    revised = revised or {}
    state = system.initial_state(events[0].payload)
    for event in events[1:]:
        if event.kind == TABLE_VOIDED or event.seq in skip:
            continue
        state = evolve(state, event.kind, revised.get(event.seq, event.payload))
        if after is not None:
            after[event.seq] = state
    return state


def fold(events: Sequence[StoredEvent]) -> TableState[Any]:
    """The table's state from its whole log.

    Args:
        events: the log as stored, seq 1 first (a ``table.created`` event).

    Raises:
        StorageError: an empty log, a first event that is not ``table.created``, a gap in the
            sequence, an unknown system, or an event that the rules refuse or that has missing
            or malformed fields. Whatever is wrong, the message says which table and why.
    """
    if not events or events[0].kind != TABLE_CREATED:
        raise StorageError(N_("a table's log must start with its creation event"))
    name = str(events[0].payload.get("name", events[0].table_id))
    try:
        return _fold(events)
    except StorageError:
        raise
    except (TableeError, KeyError, TypeError, ValueError, AttributeError) as exc:
        error = (
            exc
            if isinstance(exc, TableeError)
            else Message(
                N_("an event has a missing or malformed field ({detail})"), detail=repr(exc)
            )
        )
        raise StorageError(
            N_("the log of table {name} cannot be folded: {error}"), name=name, error=error
        ) from exc


def _fold(events: Sequence[StoredEvent]) -> TableState[Any]:
    for expected, event in enumerate(events, start=1):
        if event.seq != expected:
            raise StorageError(
                N_("the log has event {seq} where {expected} was expected"),
                seq=event.seq,
                expected=expected,
            )
    created = events[0].payload
    system = system_named(str(created["system"]))
    legacy = any(e.kind == TABLE_VOIDED and e.schema_version < 2 for e in events)
    upcast_events = tuple(upcast(e, system) for e in events)
    upgraded = {u.seq: u.payload for e, u in zip(events, upcast_events, strict=True) if u is not e}
    voided = frozenset(_voided_seq(e) for e in upcast_events if e.kind == TABLE_VOIDED)
    revised = _revisions(upcast_events)
    after: dict[int, Any] = {}
    game = replay(system, upcast_events, voided, after, revised=revised, legacy=legacy)
    return TableState(
        table_id=events[0].table_id,
        name=str(created["name"]),
        system=system,
        lang=str(created.get("lang", "en")),
        players=tuple(str(p) for p in created.get("players", [])),
        events=tuple(events),
        voided=voided,
        game=game,
        after=after,
        revised=revised,
        legacy=legacy,
        upgraded=upgraded,
    )


def _revisions(events: Sequence[StoredEvent]) -> dict[int, Mapping[str, Any]]:
    """The latest payload an undo revised each event to, by sequence number."""
    revised: dict[int, Mapping[str, Any]] = {}
    for event in events:
        if event.kind != TABLE_VOIDED:
            continue
        changes = event.payload.get("revised") or {}
        if not isinstance(changes, Mapping):
            raise ValueError(f"event {event.seq} has revisions that are not an object")
        for key, payload in changes.items():
            seq = int(key)
            if not 1 < seq < event.seq or not isinstance(payload, Mapping):
                raise ValueError(f"event {event.seq} revises {key!r}, not an earlier event")
            revised[seq] = payload
    return revised


def resume(
    table_id: str,
    created: Mapping[str, Any],
    game: Any,
    tail: Sequence[StoredEvent],
    *,
    legacy: bool = False,
) -> TableState[Any] | None:
    """A partial state from a snapshot of the game's state and the events since.

    Args:
        table_id: the table's id.
        created: its name, system, language and players (as in ``table.created``).
        game: the game's state right after ``tail[0]``, the snapshot's event.
        tail: the stored events from the snapshot's event on, in order.
        legacy: the snapshot was folded as Tablée 0.1.0 did (see `_evolver`).

    Returns:
        The partial state, or None when the snapshot cannot be used: an undo among the
        events since (it may change what the snapshot folded), or a gap.

    Raises:
        StorageError: as `fold`, for the events since.
    """
    if not tail or any(e.kind == TABLE_VOIDED for e in tail):
        return None
    if any(b.seq != a.seq + 1 for a, b in pairwise(tail)):
        return None
    start = TableState(
        table_id=table_id,
        name=str(created["name"]),
        system=system_named(str(created["system"])),
        lang=str(created.get("lang", "en")),
        players=tuple(str(p) for p in created.get("players", [])),
        events=(tail[0],),
        voided=frozenset(),
        game=game,
        legacy=legacy,
        partial=True,
    )
    return extend(start, tail[1:])


def extend(state: TableState[S], new_events: Sequence[StoredEvent]) -> TableState[S]:
    """The state after appending ``new_events`` to the log ``state`` was folded from.

    Folds only the new events, unless one of them is an undo (which changes the past): then
    the log is folded again from the first event the undo changes (`_refold`). Equal to
    ``fold([*state.events, *new_events])``.

    Raises:
        StorageError: as `fold`.
    """
    if not new_events:
        return state
    if any(e.kind == TABLE_VOIDED for e in new_events):
        if state.partial:
            raise ValueError("a partial state cannot take an undo: fold the whole log")
        return _refold(state, new_events)
    events = state.events + tuple(new_events)
    upgraded = state.upgraded  # copied only if a new event needs upgrading (rarely)
    added: list[tuple[int, S]] = []
    game = state.game
    evolve = _evolver(state.system, state.legacy)
    try:
        for stored in new_events:
            event = upcast(stored, state.system)
            if event is not stored:
                upgraded = {**upgraded, event.seq: event.payload}
            game = evolve(game, event.kind, event.payload)
            added.append((event.seq, game))
    except (TableeError, KeyError, TypeError, ValueError, AttributeError):
        if state.partial:
            raise
        return fold(events)  # let the full fold report the problem
    after = StatesAfter.of(state.after).extended(added, events[-1].seq)
    return TableState(
        state.table_id,
        state.name,
        state.system,
        state.lang,
        state.players,
        events,
        state.voided,
        game,
        after,
        state.revised,
        state.legacy,
        upgraded,
        state.partial,
    )


def _refold(state: TableState[S], new_events: Sequence[StoredEvent]) -> TableState[S]:
    """A whole fold extended by events holding an undo: folded again from what it changes.

    An undo changes the fold only from the earliest event it voids or revises on: the state
    before that event is kept (``after``) and the events from there on are folded again,
    instead of the whole log (a 30,000-event table: seconds). Equal to ``fold`` of the whole
    log, which it falls back to for a log folded as Tablée 0.1.0 did, a gap, or anything it
    cannot read (``fold`` then reports it).
    """
    events = (*state.events, *new_events)
    gapless = all(e.seq == state.last_seq + 1 + i for i, e in enumerate(new_events))
    if state.legacy or not gapless:
        return fold(events)
    if any(e.kind == TABLE_VOIDED and e.schema_version < 2 for e in new_events):
        return fold(events)
    system = state.system
    try:
        current = [upcast(e, system) for e in new_events]
        upgraded = dict(state.upgraded)
        upgraded.update(
            {u.seq: u.payload for e, u in zip(new_events, current, strict=True) if u is not e}
        )
        targets = [_voided_seq(e) for e in current if e.kind == TABLE_VOIDED]
        changes = _revisions(current)
        voided = state.voided | frozenset(targets)
        revised = {**state.revised, **changes}
        start = min([*targets, *changes])
        before = [seq for seq in state.after if seq < start]
        game = state.after[max(before)] if before else system.initial_state(events[0].payload)
        after = {seq: state.after[seq] for seq in before}
        evolve = _evolver(system, False)
        for event in events[start - 1 :]:
            if event.kind == TABLE_VOIDED or event.seq in voided:
                continue
            payload = revised.get(event.seq)
            if payload is None:
                payload = upgraded.get(event.seq, event.payload)
            game = evolve(game, event.kind, payload)
            after[event.seq] = game
    except (TableeError, KeyError, TypeError, ValueError, AttributeError):
        return fold(events)  # let the full fold report the problem
    return replace(
        state,
        events=events,
        voided=voided,
        game=game,
        after=after,
        revised=revised,
        upgraded=upgraded,
    )


def _voided_seq(event: StoredEvent) -> int:
    seq = event.payload["seq"]
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 < seq < event.seq:
        raise ValueError(f"event {event.seq} undoes {seq!r}, not an earlier event")
    return seq


def decide_undo(
    state: TableState[Any], *, seq: int | None = None, actor: str | None = None, reason: str = ""
) -> tuple[Fact, ...]:
    """Decide to void one event (by default the last one that counts).

    Args:
        state: the table.
        seq: the event to void; None for the last event that counts.
        actor: who undoes.
        reason: free text kept in the log, 0 to `MAX_TEXT` characters, checked as every
            free text is (`tablee.systems.declare.check_text`).

    Returns:
        One ``table.voided`` fact.

    Raises:
        InputError: a reason too long or holding a control or text-direction character
            (named ``reason``), before anything else is looked at.
        RuleError: nothing to undo; the event is the creation, an undo, or already voided; or
            the log without it breaks a later event (the message names that event).
        NotFoundError: no event has that number.

    Source: docs/architecture.md, "Undo is an event that voids an earlier one".
    """
    reason = check_text(reason, "reason")
    candidates = [e for e in state.effective() if e.kind != TABLE_CREATED]
    if seq is None:
        if not candidates:
            raise RuleError(N_("there is nothing to undo at table {name}"), name=state.name)
        target = candidates[-1]
    else:
        target = _find(state, seq)
    if target.kind == TABLE_CREATED:
        raise RuleError(N_("event {seq} created the table: it cannot be undone"), seq=target.seq)
    if target.kind == TABLE_VOIDED:
        raise RuleError(N_("event {seq} is an undo: an undo cannot be undone"), seq=target.seq)
    if target.seq in state.voided:
        raise RuleError(N_("event {seq} is already undone"), seq=target.seq)
    try:
        revised = _revise_after(state, target.seq)
    except RuleError as exc:
        raise RuleError(
            N_("undoing event {seq} would break a later event: {error}"),
            tip=N_("undo the later events first, newest first"),
            seq=target.seq,
            error=exc,
        ) from exc
    payload = {"seq": target.seq, "reason": reason, "revised": revised}
    return (Fact(TABLE_VOIDED, payload, actor=actor, version=2),)


def _revise_after(state: TableState[Any], seq: int) -> dict[str, Any]:
    """The events after ``seq`` decided again without it: the payloads that change.

    Each later event that counts is decided again under its rules version, from the state
    before ``seq``; every payload the rules now give differently is returned
    (``{"<seq>": payload}``), so the fold never decides again. A log folded as Tablée 0.1.0
    did (it decides at every fold) is only folded without ``seq``.

    Raises:
        RuleError: a later event no longer follows (the message names it).
    """
    system = state.system
    if state.legacy:
        current = [replace(e, payload=state.payload_of(e)) for e in state.events]
        replay(system, current, state.voided | {seq}, legacy=state.legacy)
        return {}
    counting = [e for e in state.effective() if e.kind != TABLE_CREATED]
    before = [e for e in counting if e.seq < seq]
    game = state.after[before[-1].seq] if before else system.initial_state(state.events[0].payload)
    revised: dict[str, Any] = {}
    for event in (e for e in counting if e.seq > seq):
        rules_version = event.rules_version
        game, changed = system.verify(game, event.kind, state.payload_of(event), rules_version)
        if changed is not None:
            revised[str(event.seq)] = changed
    return revised


def _find(state: TableState[Any], seq: int) -> StoredEvent:
    for event in state.events:
        if event.seq == seq:
            return event
    raise NotFoundError(
        N_("table {name} has no event {seq} (its log goes 1 to {last})"),
        name=state.name,
        seq=seq,
        last=state.last_seq,
    )


def verify_log(state: TableState[Any]) -> int:
    """Decide every event that counts again and check it gives what the log recorded.

    The fold applies recorded outcomes; this is the verifier run on import, by ``tablee
    table check``, and (for the events after it) by an undo. Each event is decided under the
    rules version it was written with, from the state the rules give before it.

    Args:
        state: the table as folded.

    Returns:
        How many events were decided again (0 for a log folded as Tablée 0.1.0 did, which
        decides at every fold).

    Raises:
        InputError: an event whose stored payload is not what the rules give (the message
            names the event, the field and both values).
        RuleError: an event that cannot follow the state before it.
    """
    system = state.system
    if state.legacy:
        return 0
    from tablee.systems.common import first_difference

    game = system.initial_state(state.events[0].payload)
    checked = 0
    for event in (e for e in state.effective() if e.kind != TABLE_CREATED):
        payload = state.payload_of(event)
        rules_version = event.rules_version
        try:
            game, changed = system.verify(game, event.kind, payload, rules_version)
        except TableeError as exc:
            raise type(exc)(N_("event {seq}: {error}"), seq=event.seq, error=exc) from exc
        if changed is not None:
            path, stored, decided = first_difference(payload, changed) or ("?", None, None)
            raise InputError(
                N_(
                    "event {seq} ({kind}): the stored {field} {stored!r} is not what the rules "
                    "give ({decided!r})"
                ),
                seq=event.seq,
                kind=event.kind,
                field=path,
                stored=stored,
                decided=decided,
            )
        checked += 1
    return checked
