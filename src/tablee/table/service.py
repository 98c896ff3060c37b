"""Running commands against a table: load, fold, decide, append, retry on a lost race.

`TableService` is what the command line and the web table call. A command is a function
from the folded `TableState` to the facts it decides (it may raise a rule error). The service
appends those facts after the last event it read; if another writer appended first it reloads,
decides again against the new state (where the cagnotte may now be empty) and retries, at most
`MAX_ATTEMPTS` times, then refuses with `ConcurrencyError`. A store that can hold a table's
write lock (`tablee.table.pg_store.PgStore.exclusive`: writers of one table queue in the
database) holds it from the first lost race on: the retry reads the table, decides and
appends while no other writer can, so a busy table's commands are not refused for losing
races again and again.

The clock is injected and read once per command; its value is stored in the events.

A command may carry an idempotency key (``command_key``): the table stores each key once, so
a command sent twice (a browser retrying a request whose answer was lost) is applied once,
and the second call gets the stored result back, marked ``replayed``, without being decided.

A service keeps the last state it folded for each table (an in-memory snapshot, a cache
only): the next command loads just the events stored since and extends that state, so a
long-lived process such as the web table does not fold the whole log for every roll. The log
stays the truth: events written meanwhile by another process are read and folded in, and an
undo among them makes the state be folded again from the whole log.

Source: docs/architecture.md, "The event log".
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, BinaryIO, Generic, TypeVar, overload

from tablee.dice import RandomSource
from tablee.errors import (
    N_,
    ConcurrencyError,
    InputError,
    RuleError,
    StorageError,
    TableeError,
)
from tablee.systems import system_named
from tablee.systems.base import JSON, Fact, clean_name, strictest
from tablee.systems.declare import Command
from tablee.systems.plugin import Decision
from tablee.table.chain import first_broken_link
from tablee.table.events import (
    TABLE_CREATED,
    TABLE_EVENT_VERSIONS,
    TABLE_VOIDED,
    StoredEvent,
    check_command_key,
)
from tablee.table.projection import (
    TableState,
    decide_undo,
    extend,
    fold,
    resume,
    verify_log,
)
from tablee.table.store import AppendConflict, EventStore, TableInfo

if TYPE_CHECKING:
    from tablee.table.trailer import Checked, Imported, Trailer

__all__ = ["MAX_ATTEMPTS", "Applied", "Checked", "Imported", "TableService", "utc_now"]

MAX_ATTEMPTS = 10
"""How many times a command is decided again after losing a race before it is refused."""

LAST_TABLE = "last_table"
SNAPSHOT = "snapshot:"
"""Key prefix of a table's snapshot in the store's key-value preferences (then its id)."""
SNAPSHOT_EVERY = 500
"""Events between two stored snapshots of a table's state."""
TABLE_NAME = N_("a table's name")
R = TypeVar("R")
D = TypeVar("D", covariant=True)


def utc_now() -> datetime:
    """The current UTC time (the default clock)."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class Applied(Generic[D]):
    """A command's result once stored.

    Attributes:
        decision: what the command's decide function returned; None when ``replayed`` (the
            command was not decided again).
        events: the stored events, with their sequence numbers (when ``replayed``, the
            events the first call stored).
        state: the table after them (when ``replayed``, the table now, which may hold later
            events).
        replayed: True when the table already held the command's key: nothing was decided
            or stored by this call.
    """

    decision: D
    events: tuple[StoredEvent, ...]
    state: TableState[Any]
    replayed: bool = False


def _back_off(attempt: int) -> None:
    """Wait a random moment, longer after each lost race (at most about 0.3 s)."""
    import random
    import time

    time.sleep(random.uniform(0, 0.005 * 2 ** min(attempt, 6)))


class TableService:
    """Tables over an `EventStore`.

    Args:
        store: where the logs live.
        clock: returns the current aware UTC time; read once per command.
        remember_last: record the table each command acted on as "the table last used"
            (the command line's default table). The web table passes False: a roll in a
            browser must not change which table the command line acts on next, and it saves
            a write per roll.
        snapshot_every: store a snapshot of a game's state each time its log passes a
            multiple of this many events (0: never). A snapshot is a cache: a command on a
            table resumes from it and reads only the events since, instead of folding the
            whole log; anything that reads the whole log still folds it.
    """

    def __init__(
        self,
        store: EventStore,
        clock: Callable[[], datetime] = utc_now,
        *,
        remember_last: bool = True,
        snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        self.store = store
        self.clock = clock
        self.remember_last = remember_last
        self.snapshot_every = snapshot_every
        self._snapshots: dict[str, TableState[Any]] = {}

    def _current(self, info: TableInfo, *, full: bool = True) -> TableState[Any]:
        """The table's state now: the cached state extended by the events stored since.

        Equal to folding the whole log (tests check snapshot plus tail against the full
        fold). With ``full=False`` a state resumed from a stored snapshot will do (enough
        to decide and append a command); otherwise the whole log is folded once.

        Raises:
            StorageError: as `fold`.
        """
        cached = self._snapshots.get(info.id)
        state: TableState[Any] | None = None
        if cached is not None and (not full or not cached.partial):
            new = self.store.load(info.id, after_seq=cached.last_seq)
            if not (cached.partial and any(e.kind == TABLE_VOIDED for e in new)):
                try:
                    state = extend(cached, new)
                except (TableeError, KeyError, TypeError, ValueError, AttributeError):
                    if not cached.partial:
                        raise
        if state is None and not full:
            state = self._resumed(info)
        if state is None:
            state = fold(self.store.load(info.id))
        self._snapshots[info.id] = state
        return state

    def _resumed(self, info: TableInfo) -> TableState[Any] | None:
        """The table resumed from its stored snapshot, or None when there is none to use."""
        system = system_named(info.system)
        expected = system.snapshot_format()
        raw = self.store.get_preference(SNAPSHOT + info.id) if expected else None
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            if data.get("format") != expected:
                return None
            seq = int(data["seq"])
            game = system.decode_state(data["state"])
            tail = self.store.load(info.id, after_seq=seq - 1)
            if not tail or tail[0].seq != seq:
                return None
            return resume(info.id, data["created"], game, tail, legacy=bool(data["legacy"]))
        except (TableeError, KeyError, TypeError, ValueError, AttributeError):
            return None  # a cache: a snapshot that does not read is ignored

    def _keep_snapshot(self, before: TableState[Any], after: TableState[Any]) -> None:
        """Store a snapshot of ``after`` when the log just passed a multiple of the interval."""
        every = self.snapshot_every
        if every <= 0 or after.last_seq // every == before.last_seq // every:
            return
        expected = after.system.snapshot_format()
        if expected is None:
            return
        created = {
            "name": after.name,
            "system": after.system.id,
            "lang": after.lang,
            "players": list(after.players),
        }
        try:
            state = after.system.encode_state(after.game)
            doc = {
                "format": expected,
                "seq": after.last_seq,
                "legacy": after.legacy,
                "created": created,
                "state": state,
            }
            text = json.dumps(doc, ensure_ascii=False)
        except (TypeError, ValueError):
            return  # a cache: a state that cannot be written is folded next time instead
        self.store.set_preference(SNAPSHOT + after.table_id, text)

    def create(
        self,
        *,
        system: str,
        name: str,
        players: Sequence[str],
        lang: str,
        options: Mapping[str, str] | None = None,
    ) -> TableState[Any]:
        """Create a table; its options and players are checked by the system first.

        Raises:
            InputError: a bad name, system, player list, option or language.
            RuleError: a table with that name exists.
        """
        clean = clean_name(name, what=TABLE_NAME)
        if lang not in ("fr", "en"):
            raise InputError(N_("language {lang!r} is not fr or en"), lang=lang)
        game_system = system_named(system)
        payload: dict[str, JSON] = {
            "system": game_system.id,
            "name": clean,
            "players": [p.strip() for p in players],
            "lang": lang,
            "options": {},
        }
        state = game_system.initial_state({**payload, "options": dict(options or {})})
        payload["options"] = game_system.options_json(state)
        created = Fact(
            TABLE_CREATED, payload, actor="gm", version=TABLE_EVENT_VERSIONS[TABLE_CREATED]
        )
        import uuid  # only table creation needs it

        self.store.create_table(str(uuid.uuid4()), clean, game_system.id, created, self.clock())
        if self.remember_last:
            self.store.set_preference(LAST_TABLE, clean)
        return self.state(clean)

    def resolve_name(self, name: str | None) -> str:
        """The table to act on: ``name``, else the table last used (last written to).

        Raises:
            NotFoundError: ``name`` names no table.
            InputError: no name and no table used yet.
        """
        if name:
            return self.store.find_table(clean_name(name, what=TABLE_NAME)).name
        last = self.store.get_preference(LAST_TABLE)
        if last is None:
            raise InputError(
                N_("no table given and none used yet"),
                cli_tip=N_("create one with 'tablee table new SYSTEM --name NAME' or pass --table"),
            )
        return self.store.find_table(last).name

    def info(self, name: str) -> TableInfo:
        """The table's registry row (NotFoundError if unknown)."""
        return self.store.find_table(name)

    def cached(self, table_id: str) -> TableState[Any] | None:
        """The table's state as this service last read or wrote it, without reading the store.

        None when there is none, or only one resumed from a stored snapshot (not folded from
        the whole log). Events stored since by another process are missing: a caller that
        knows the table's last seq (the web table's hub, told by the database) compares it.
        """
        found = self._snapshots.get(table_id)
        return None if found is None or found.partial else found

    def state(self, name: str) -> TableState[Any]:
        """The table folded from its whole log (from the snapshot and the events since)."""
        return self._current(self.store.find_table(name))

    def latest(self, name: str) -> TableState[Any]:
        """The table now, resumed from its stored snapshot when it has one.

        Cheap on a long log (the snapshot plus the events since, at most `SNAPSHOT_EVERY` or
        so), and enough for the game's state, the players and the language; it may be
        partial (`TableState.partial`): anything that reads the whole log uses `state`.
        """
        return self._current(self.store.find_table(name), full=False)

    def holds_whole(self, table_id: str) -> bool:
        """Whether this service keeps a whole fold of the table (then `state` is cheap)."""
        cached = self._snapshots.get(table_id)
        return cached is not None and not cached.partial

    def adopt(self, state: TableState[Any]) -> None:
        """Keep a whole fold made elsewhere (a worker thread reading its own connection).

        The next `state` extends it by the events stored since, instead of folding the whole
        log. Ignored when this service already keeps a whole fold at least as recent, or when
        ``state`` is partial.

        Args:
            state: a whole fold of one table's log (`fold`).
        """
        cached = self._snapshots.get(state.table_id)
        if state.partial or (
            cached is not None and not cached.partial and cached.last_seq >= state.last_seq
        ):
            return
        self._snapshots[state.table_id] = state

    def heard(self, events: Sequence[StoredEvent]) -> bool:
        """Extend the kept whole fold of a table by events another process stored.

        For a caller told the events by the database (a server process hearing a
        notification that carries them, `tablee.table.pg_store.PgStore.told`), so that
        the next `state` or command needs no read of them.

        Args:
            events: one table's events, in order, with no gap.

        Returns:
            Whether the kept fold was extended: False (and nothing changed) when this
            service keeps no whole fold of the table, when the events do not follow its last
            seq directly, or when they do not fold (the next read folds and reports them).
        """
        if not events:
            return False
        held = self._snapshots.get(events[0].table_id)
        if held is None or held.partial or held.last_seq + 1 != events[0].seq:
            return False
        try:
            state = extend(held, events)
        except (TableeError, KeyError, TypeError, ValueError, AttributeError):
            return False
        self._snapshots[held.table_id] = state
        return True

    @overload
    def execute(
        self,
        name: str,
        decide: Callable[[TableState[Any]], R],
        facts_of: Callable[[R], Sequence[Fact]],
        *,
        known: TableState[Any] | None = None,
    ) -> Applied[R]: ...

    @overload
    def execute(
        self,
        name: str,
        decide: Callable[[TableState[Any]], R],
        facts_of: Callable[[R], Sequence[Fact]],
        *,
        command_key: str | None,
        known: TableState[Any] | None = None,
    ) -> Applied[R | None]: ...

    def execute(
        self,
        name: str,
        decide: Callable[[TableState[Any]], R],
        facts_of: Callable[[R], Sequence[Fact]],
        *,
        command_key: str | None = None,
        known: TableState[Any] | None = None,
    ) -> Applied[R] | Applied[R | None]:
        """Decide and append, retrying against the new state when another writer won.

        Args:
            name: the table.
            decide: state -> decision (may raise InputError or RuleError: nothing is stored).
            facts_of: decision -> the facts to append.
            command_key: the command's idempotency key (1 to 100 printable ASCII
                characters), or None. When the table already holds it (stored by an earlier
                call, or by another writer while this one decided), nothing is decided or
                stored: the stored events come back with ``replayed=True`` and
                ``decision=None``.
            known: the table's whole state as the caller holds it (the web table's, when
                its hub knows of no later event), or None. The first attempt decides
                against it instead of reading the store for events stored since; if it is
                behind after all, the append finds a later event and the command is decided
                again against the store's, as after a lost race. Ignored when partial or of
                another table.

        Returns:
            The decision, the stored events and the new state.

        Raises:
            InputError: a malformed key.
            ConcurrencyError: the table kept changing for `MAX_ATTEMPTS` attempts.
        """
        if command_key is not None:
            check_command_key(command_key)
        info = self.store.find_table(name)
        if command_key is not None:
            done = self._replayed(info, command_key)
            if done is not None:
                return done
        if known is not None and known.table_id == info.id and not known.partial:
            state = known  # no read of the events stored since: the append checks
        else:
            state = self._current(info, full=False)
        exclusive = getattr(self.store, "exclusive", None)
        locked = False

        def forget(kind: type[BaseException] | None, *_: object) -> bool:
            # an error while the table was held (its commit failing, say): the state cached
            # inside the block may not be stored, so the table is read again next time
            if kind is not None and locked:
                self._snapshots.pop(info.id, None)
            return False

        with contextlib.ExitStack() as held:
            held.push(forget)  # runs after the lock's block has ended (and committed)
            for attempt in range(MAX_ATTEMPTS):
                decision = decide(state)
                facts = tuple(facts_of(decision))
                try:
                    stored = self.store.append(
                        info.id, state.last_seq, facts, self.clock(), command_key=command_key
                    )
                except AppendConflict:
                    if callable(exclusive) and attempt == 0:  # from now on, no race to lose
                        held.enter_context(exclusive(info.id))
                        locked = True
                    if command_key is not None:  # the same command stored by another writer?
                        done = self._replayed(info, command_key)
                        if done is not None:
                            return done
                    state = self._current(info, full=False)
                    if not callable(exclusive):
                        _back_off(attempt)
                    continue
                new_state = extend(state, stored)
                self._snapshots[info.id] = new_state
                self._keep_snapshot(state, new_state)
                if self.remember_last and self.store.get_preference(LAST_TABLE) != info.name:
                    self.store.set_preference(LAST_TABLE, info.name)
                return Applied(decision, tuple(stored), new_state)
        raise ConcurrencyError(
            N_("table {name} kept changing while this command was decided ({attempts} tries)"),
            tip=N_("run the command again"),
            name=name,
            attempts=MAX_ATTEMPTS,
        )

    def _replayed(self, info: TableInfo, command_key: str) -> Applied[None] | None:
        """The stored result of the command with that key, or None if the table lacks it."""
        stored = self.store.command_events(info.id, command_key)
        if not stored:
            return None
        return Applied(None, tuple(stored), self._current(info), replayed=True)

    def export_jsonl(self, name: str) -> str:
        """The table's JSON Lines export: every event as stored, then the signed trailer.

        The events are exported as stored (their old payload versions included), each with
        its chain link, so that this installation can check the file on import.

        Raises:
            NotFoundError: no such table.
        """
        info = self.store.find_table(name)
        events = self.store.load(info.id)
        from tablee.table.trailer import make_trailer  # only exports need it
        from tablee.table.transcript import to_jsonl

        trailer = make_trailer(self.store.installation_secret(), info.id, events)

        return to_jsonl(events, trailer)

    def import_jsonl(self, text: str | BinaryIO, name: str | None = None) -> Imported:
        """Check a JSON Lines export and store it as a new table (see `import_log`).

        Args:
            text: the export's text, or a binary stream read line by line, bounded
                (`tablee.table.transcript.read_jsonl`).
            name: the new table's name; None keeps the exported name.

        Returns:
            The new table, and whether the export was verified (and if not why).

        Raises:
            InputError: a malformed line, a line past 16 MiB or a file past 64 MiB; an
                export cut short, edited or out of order (see
                `tablee.table.trailer.verify_export`); a log that does not replay; a bad name.
            RuleError: a table with that name exists.
        """
        from tablee.table.transcript import read_jsonl  # only imports need it

        export = read_jsonl(text)
        return self._import(export.events, export.trailer, name)

    def import_log(
        self,
        events: Sequence[StoredEvent],
        name: str | None = None,
        *,
        trailer: Trailer | None = None,
    ) -> TableState[Any]:
        """Store an exported log as a new table, every event as it was (faces, times, undos).

        The export is checked first (`tablee.table.trailer.verify_export`): from this
        installation, its hash chain and trailer; from anywhere, seq numbers without gaps
        and times going forward, none a day past the clock. Then the whole log is folded,
        with the rules, so a log that does not replay is refused before anything is written;
        then it is stored in one transaction, with fresh chain links. The rules versions
        and command keys are kept.

        Args:
            events: a log as read by `tablee.table.transcript.read_jsonl`, seq 1 first.
            name: the new table's name; None keeps the exported name.
            trailer: the export's trailer, None when it has none.

        Returns:
            The new table's state (equal to the exported one but for its id and name).

        Raises:
            InputError: the export was cut short or edited, or is out of order, or the log
                does not replay (the message says why), or a bad name.
            RuleError: a table with that name exists.
        """
        return self._import(events, trailer, name).state

    def _import(
        self, events: Sequence[StoredEvent], trailer: Trailer | None, name: str | None
    ) -> Imported:
        from tablee.table.trailer import Imported, verify_export  # only imports need them

        verdict = verify_export(self.store.installation_secret(), events, trailer, self.clock())
        from tablee.table.transcript import check_texts  # only imports need it

        try:
            exported = fold(events)
            check_texts(exported)
            verify_log(exported)
        except StorageError as exc:
            raise InputError(N_("this log cannot be imported: {error}"), error=exc) from exc
        except (InputError, RuleError) as exc:
            raise InputError(N_("this log cannot be imported: {error}"), error=exc) from exc
        new_name = clean_name(name or exported.name, what=TABLE_NAME)
        import uuid  # only table creation needs it

        table_id = str(uuid.uuid4())
        first = events[0]
        created = Fact(
            first.kind,
            {**first.payload, "name": new_name},
            first.actor,
            first.visibility,
            first.schema_version,
            first.rules_version,
        )
        later = [
            (
                Fact(e.kind, e.payload, e.actor, e.visibility, e.schema_version, e.rules_version),
                e.created_at,
                e.command_key,
            )
            for e in events[1:]
        ]
        self.store.create_table(
            table_id, new_name, exported.system.id, created, first.created_at, later
        )
        self.store.set_preference(LAST_TABLE, new_name)
        return Imported(self.state(new_name), verdict.verified, verdict.why)

    def check(self, name: str) -> Checked:
        """Check a stored table: every chain link, then every event decided again.

        The chain is recomputed with this installation's secret; then the log is folded and
        each event that counts is decided again under the rules version it was written with
        (`tablee.table.projection.verify_log`).

        Returns:
            The table's name and how many events were checked.

        Raises:
            NotFoundError: no such table.
            StorageError: an event whose chain does not match (the first is named: it, or
                an event before it, was changed in the database), a log that does not fold,
                or an event the rules decide differently (named, with the field).
        """
        info = self.store.find_table(name)
        events = self.store.load(info.id)
        broken = first_broken_link(self.store.installation_secret(), events)
        if broken is not None:
            raise StorageError(
                N_(
                    "event {seq} of table {name} does not match its hash chain: it, or an "
                    "event before it, was changed in the database"
                ),
                tip=N_("restore the database from a backup, or import a verified export"),
                seq=broken.seq,
                name=info.name,
            )
        state = fold(events)
        try:
            verify_log(state)
        except (InputError, RuleError) as exc:
            raise StorageError(
                N_("table {name} does not hold what its rules give: {error}"),
                name=info.name,
                error=exc,
            ) from exc
        from tablee.table.trailer import Checked

        return Checked(info.name, len(events))

    def undo(
        self,
        name: str,
        *,
        seq: int | None = None,
        actor: str | None = None,
        reason: str = "",
        command_key: str | None = None,
    ) -> Applied[tuple[Fact, ...] | None]:
        """Void the last event that counts (or event ``seq``); see `decide_undo`.

        "The last event" is fixed once, against the state the command read: if another
        writer appends first, the retry voids that same event (when it still can), never the
        newcomer. With a ``command_key`` already stored, nothing is undone again: the stored
        undo comes back (see `execute`).
        """
        if command_key is not None:
            check_command_key(command_key)
            done = self._replayed(self.store.find_table(name), command_key)
            if done is not None:
                return done
        if seq is None:
            target = decide_undo(self.state(name), actor=actor, reason=reason)[0]
            seq = int(target.payload["seq"])
        return self.execute(
            name,
            lambda s: decide_undo(s, seq=seq, actor=actor, reason=reason),
            lambda f: f,
            command_key=command_key,
        )

    def run_command(
        self,
        name: str,
        command: Command,
        dice: RandomSource | None = None,
        *,
        visibility: str | None = None,
        command_key: str | None = None,
        known: TableState[Any] | None = None,
    ) -> Applied[Any]:
        """Decide a declared command of the table's game and append its events.

        The dice are recorded on the first attempt (`tablee.dice.Recorder`), so a retry
        after losing a race to another writer decides again with the same faces.

        Args:
            name: the table (its game must be a plugin, `tablee.systems.plugin.Game`).
            command: the declared command.
            dice: where faces come from (typed in, per kind of die or not; seeded); fair
                dice when None. Typed faces must all be used.
            visibility: who may see the events (``all``, ``roller_and_gm``, ``gm``); None
                keeps the game's choice. A command that continues an event (its ``follows``,
                unless ``keeps_hidden`` is false) is never shown to more people than the last
                event of those kinds.
            command_key: the command's idempotency key (see `execute`): a command already
                stored with it is not decided again.
            known: the table's whole state as the caller holds it, or None (see
                `execute`).

        Returns:
            The decision (with its report's material), the stored events, the new state;
            for a command already stored, ``replayed`` is true and the decision None.

        Raises:
            InputError: a game that is not a plugin, bad input, faces that do not fit.
            RuleError: refused by the rules now.
            ConcurrencyError: as `execute`.
        """
        from dataclasses import replace

        from tablee.dice import FairSource, Recorder, SourceChance, TypedFaces
        from tablee.systems.plugin import Game

        game = system_named(self.store.find_table(name).system)
        if not isinstance(game, Game):
            raise InputError(N_("the commands of {system} are not declared yet"), system=game.id)
        if type(command) not in game.commands:
            raise InputError(
                N_("table {name} plays {system}, which has no command {command!r}"),
                name=name,
                system=game.id,
                command=command.name,
            )
        needed = command.dice()
        if isinstance(dice, TypedFaces) and len(needed) == 1:
            dice.expect(needed[0].die, needed[0].count)  # a wrong count named up front
        recorder = Recorder(SourceChance(dice if dice is not None else FairSource()))
        attempts = 0
        whole = known is not None and not known.partial and self.holds_whole(known.table_id)
        if command.follows and command.keeps_hidden and not whole:
            self.state(name)  # the whole log, cached: the event it continues may be old

        def decide(state: TableState[Any]) -> Decision[Any]:
            nonlocal attempts
            attempts += 1
            seq = state.last_seq + 1  # where the decision's first event will be stored
            if attempts == 1:  # the first attempt rolls (or reads the typed faces)
                decision: Decision[Any] = game.decide_at(state.game, command, recorder, seq)
                finish = getattr(dice, "finish", None)
                if callable(finish):
                    finish()  # typed faces left over are an error too
            else:  # a retry after another writer won hands out the same faces again
                replay = recorder.replay()
                decision = game.decide_at(state.game, command, replay, seq)
                replay.finish()
            if visibility is not None:
                decision = replace(decision, visibility=visibility)
            followed = state.last_event(command.follows) if command.keeps_hidden else None
            if followed is not None:  # never shown to more people than what it continues
                shown = strictest(decision.visibility, followed.visibility)
                decision = replace(decision, visibility=shown)
            return decision

        return self.execute(name, decide, game.facts, command_key=command_key, known=known)


def __getattr__(name: str) -> Any:
    """`Imported` and `Checked`, which live in `tablee.table.trailer`, imported on first use.

    Raises:
        AttributeError: no such name.
    """
    if name in ("Imported", "Checked"):
        from tablee.table import trailer

        value = getattr(trailer, name)
        globals()[name] = value  # found directly from now on
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
