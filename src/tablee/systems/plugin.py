"""A game as one plugin: its commands, events, rules, odds, log lines and panels in one place.

A game subclasses `Game` for its state type ``S`` and registers with one line in
`tablee.systems.GAMES`. The command line, the web table and the table layer read everything
they need from it:

* the declared commands (`tablee.systems.declare`) and how each is decided
  (`Game.decide`, pure: state, command and a source of dice faces in; a `Decision` out);
* the typed events (`tablee.systems.event`) and how a recorded outcome is applied
  (`Game.apply`: folding a log never decides again);
* how a stored event is checked by deciding it again (`Game.verify`, used on import, on
  undo and by ``tablee table check``);
* what people read, as data rather than markup: a command's `Report`, a log line
  (`Game.describe`), the trace under it (`Game.details`), the resource `Panel` (its
  `Gauge` drawings), the exact `Odds` shown before rolling, and the lines of ``table show``.

Rendering (text, HTML, JSON) stays in the interface layers.

Source: architecture.md "A game is one plugin"; python-chess's variant list and OpenSpiel's
game objects as models.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from tablee.dice import Chance, SourceChance, TraceStep, TypedFaces
from tablee.errors import N_, InputError, Message, NotFoundError, RuleError, TableeError
from tablee.systems.base import JSON, Fact, Upcaster
from tablee.systems.common import first_difference, with_unrecorded
from tablee.systems.declare import Command, Query, Who, actor_field
from tablee.systems.event import Event, event_fact, read_event
from tablee.systems.options import house_rule_lines

if TYPE_CHECKING:  # annotations only: a roll stores its odds as text, never loads fractions
    from fractions import Fraction

__all__ = [
    "GAUGES",
    "MARKS",
    "TONES",
    "AnyGame",
    "Card",
    "Decision",
    "DiceGroup",
    "Game",
    "Gauge",
    "Line",
    "Odds",
    "Panel",
    "Report",
    "Shown",
    "Text",
    "recorded_rows",
]

S = TypeVar("S")
C = TypeVar("C", bound=Command)
E = TypeVar("E", bound=Event)


@cache
def _event_tables(
    classes: tuple[type[Event], ...],
) -> tuple[Mapping[str, int], Mapping[tuple[str, int], Upcaster], Mapping[str, type[Event]]]:
    """A game's event versions, upgrades and classes by kind, made once for its classes.

    A fold reads them for every event it reads; the classes are a game's constant, so the
    tables are made once and shared read-only.
    """
    versions = {cls.kind: cls.version for cls in classes}
    steps = {(cls.kind, v): step for cls in classes for v, step in cls.upgrades.items()}
    kinds = {cls.kind: cls for cls in classes}
    return MappingProxyType(versions), MappingProxyType(steps), MappingProxyType(kinds)


_READ_KEPT = 4096
"""How many payloads' typed events `Game.event_of` keeps (all are dropped past it)."""

_READ: dict[int, tuple[Mapping[str, JSON], str, Event]] = {}
"""``id(payload) -> (payload, kind, typed event)``: the events `Game.event_of` read. Holding
the payload keeps its id from being reused while it is kept."""

Text = Message | str
"""What a plugin hands the interfaces to show: a translatable `Message`, or a plain string
shown as it is (a name, a number)."""


@dataclass(frozen=True)
class Odds:
    """Exact odds to show before rolling.

    Attributes:
        rows: ``(label, probability)`` pairs, best first.
        success: the chance of success, when the command has one.
        note: what success means here, or None.
        data: the same as JSON-compatible data (exact fractions as ``"p/q"`` strings), or
            None to let the interface list the rows.
    """

    rows: tuple[tuple[Text, Fraction], ...]
    success: Fraction | None = None
    note: Message | None = None
    data: JSON = None


@dataclass(frozen=True)
class Line:
    """One line of a report, with how it stands out.

    Attributes:
        text: the line.
        style: ``""`` (plain), ``heading``, ``result`` (the outcome), ``warning`` or
            ``muted``.
        odds: an odds table drawn after the text (the text may be empty), or None.
    """

    text: Text
    style: str = ""
    odds: Odds | None = None


@dataclass(frozen=True)
class Report:
    """What a command's result (or a query's answer) shows.

    Attributes:
        lines: the lines to read, in order.
        data: the same as JSON-compatible data, with stable keys (the ``--json`` output and
            the JSON API's answer).
        trace: the resolution's steps, when dice were rolled.
    """

    lines: tuple[Line, ...] = ()
    data: Mapping[str, JSON] = field(default_factory=dict)
    trace: tuple[TraceStep, ...] = ()


GAUGES = ("bar", "tokens", "dice", "cards", "boxes")
"""How a `Gauge` is drawn: ``bar`` a bar filled up to its value out of its maximum (Santé,
a reserve); ``tokens`` one round token per unit (Unmei tokens, Sang); ``dice`` one d6 per
unit, a pile (the Pouyss cagnotte); ``cards`` one card per unit (Tension cards in hand);
``boxes`` one box per unit, each with its mark (a YBS character's hit points, ``/`` an
Uchimi, ``X`` a Kega)."""


@dataclass(frozen=True)
class Gauge:
    """A counted resource of a panel, drawn as a player would lay it on the table.

    Attributes:
        label: what it counts (Santé, Unmei tokens, the cagnotte...).
        value: how many there are now, 0 or more (a bar drawn below 0 is drawn empty).
        maximum: the most there can be (a bar's full length; tokens up to it are drawn
            empty when spent), or None when unbounded.
        kind: how it is drawn, one of `GAUGES`.
        brief: whether a folded sheet shows it beside the name (as ``label value``).
        marks: for ``boxes``, each box's mark (``""`` empty, ``"/"``, ``"X"``), one per unit.
        said: the count as read, when it is not ``value/maximum`` (``1 / 0 (6)``).
        described: what the drawing shows, for screen readers, when ``label`` and the count
            do not say it (``1 Uchimi, 0 Kega, 5 free``).
    """

    label: Text
    value: int
    maximum: int | None = None
    kind: str = "bar"
    brief: bool = False
    marks: tuple[str, ...] = ()
    said: str = ""
    described: Text = ""

    @property
    def text(self) -> str:
        """The count as read: ``said``, else ``8/12`` with a maximum, ``8`` without."""
        if self.said:
            return self.said
        return str(self.value) if self.maximum is None else f"{self.value}/{self.maximum}"


@dataclass(frozen=True)
class Panel:
    """One box of resources at a glance.

    Attributes:
        title: the heading.
        rows: ``(label, value)`` pairs.
        gauges: the counted resources, drawn (bars, tokens, a pile of dice, cards), before
            the rows.
        muted: drawn greyed (a dead character...).
        follows: stored event kinds whose last event this panel shows values of (the dice of
            a secret throw): whoever may not see that event is shown ``masked`` instead (or
            nothing when it is None).
        masked: the panel shown to them.
        brief: for a character's sheet (or a long list read when needed, folded the same
            way), the indices of the ``rows`` its folded summary shows after its brief
            gauges (key counters: a YBS character's hit points, state...); None for a panel
            of the table (the clock, a fight), always shown whole.
        cells: short ``(label, value)`` pairs drawn as a grid of cells, after the rows (an
            SHS Protagoniste's thresholds, a YBS character's traits and stars).
    """

    title: Text
    rows: tuple[tuple[Text, Text], ...] = ()
    gauges: tuple[Gauge, ...] = ()
    muted: bool = False
    follows: tuple[str, ...] = ()
    masked: Panel | None = None
    brief: tuple[int, ...] | None = None
    cells: tuple[tuple[Text, Text], ...] = ()


MARKS = ("", "scores", "removed", "missed", "held")
"""How a die stands in its roll: ``""`` thrown, nothing more to say; ``scores`` it gives
the result or counts (the die a Pouyss roll reads, an SHS die at its threshold, a counted
D+/- face); ``removed`` taken away by a rule (a Pouyss malus die's highest face);
``missed`` thrown but not counted (an SHS die under its threshold, a D+/- face that is not
read); ``held`` kept from the previous throw (a YBS gang fight's hand)."""

TONES = ("critical", "great", "success", "setback", "failure", "fumble", "neutral")
"""How a roll's result stands, best first: ``critical`` (a Triomphe, a critical success),
``great`` (a Victoire), ``success``, ``setback`` (a Revers), ``failure``, ``fumble`` (a
Désastre, a critical failure), and ``neutral`` (no success or failure to tell)."""


@dataclass(frozen=True)
class Shown:
    """One die as a roll card draws it.

    Attributes:
        die: ``d6``, ``d8``, ``d10`` or ``dpm`` (a D+/- die).
        face: the face read: 1 to the die's sides, or for a D+/- 1 (``+``), -1 (``−``) or
            0 (blank).
        mark: how it stands in the roll, one of `MARKS`.
    """

    die: str
    face: int
    mark: str = ""


@dataclass(frozen=True)
class DiceGroup:
    """Dice a card draws together: one side, one Action, one cooperator.

    Attributes:
        label: what the dice are (a name, ``Action dice``), or ``""``.
        dice: the dice in the order thrown.
    """

    label: Text
    dice: tuple[Shown, ...]


@dataclass(frozen=True)
class Card:
    """A rolled event as a card of the log: its dice, its result, the odds, what it changed.

    A plugin gives it as data (`Game.card`); the interfaces draw it.

    Attributes:
        groups: the dice, in groups.
        result: the result named (``5 Victoire``, ``success: 2 PS``).
        tone: how the result stands, one of `TONES` (drawn as a colour and a sign; the
            result's words always say it too).
        odds: the exact odds shown before the roll, as its event recorded them, or None
            when the event did not record them.
        consequences: what the roll changed (``Cagnotte: 4 → 5``), in order.
    """

    groups: tuple[DiceGroup, ...]
    result: Text
    tone: str = "neutral"
    odds: Odds | None = None
    consequences: tuple[Text, ...] = ()


def recorded_rows(pairs: Sequence[tuple[Text, JSON]]) -> tuple[tuple[Text, Fraction], ...]:
    """Odds rows from labels and recorded chances (exact ``"p/q"`` strings).

    Raises:
        ValueError: a chance that is not a fraction's text.
    """
    return tuple((label, _recorded_chance(str(chance))) for label, chance in pairs)


@lru_cache(maxsize=4096)
def _recorded_chance(text: str) -> Fraction:
    """A recorded chance's text read once: the same few chances come back at every roll."""
    from fractions import Fraction  # a roll on the command line never needs it

    return Fraction(text)


@dataclass(frozen=True)
class Decision(Generic[S]):
    """What a command decided.

    Attributes:
        events: the events to append, in order.
        actor: who acted (a player's name, ``gm``), stored with the events.
        visibility: who may see them: ``all``, ``roller_and_gm`` or ``gm``.
        outcome: the resolution to report (a result object), or None.
        warnings: notices shown but never blocking.
        after: the state once the events are applied.
    """

    events: tuple[Event, ...]
    after: S
    actor: str | None = "gm"
    visibility: str = "all"
    outcome: Any = None
    warnings: tuple[TraceStep, ...] = ()


class Game(Generic[S, C, E]):
    """Base of a game plugin; a game overrides what it offers.

    Type parameters: ``S`` the game's state, ``C`` its commands (the union of its declared
    command classes, queries apart) and ``E`` its events (the union of its event classes), so
    ``mypy --strict`` checks a game's `decide`, `apply`, log lines and reports against its own
    types, and a caller holding a ``Game[PouyssState, PouyssCommand, PouyssEvent]`` against
    them too. The contract suite checks that the unions hold exactly the declared classes.

    Class attributes a game sets:
        id: the short id stored on a table (``pouyss``).
        title: the game's name as shown.
        rules_version: names the rule code deciding new events (stored with each event).
        commands: its declared commands and queries, in the order shown.
        event_classes: its typed events.
        option_help: each table option's name -> its English help text (marked `N_`).
        option_labels: each table option's name -> a short label (marked `N_`), for the
            house rules as players read them (`house_rules`).
        option_words: each choice option's name -> its words -> their phrase (marked `N_`).
        group_titles: the first word of nested commands (``session`` of ``session start``)
            -> the title of the group they make (marked `N_`); by default the first
            command's title.
        state_type: the state's class, when its snapshots may be stored (a frozen dataclass
            that `tablee.systems.codec` reads back).
        state_version: raised whenever the state's shape changes (old snapshots are then
            ignored).
        recorded_only: payload keys that record what was shown (the odds before a roll):
            an older event version that did not keep one (None) is not compared on it.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str] = "1"
    commands: ClassVar[tuple[type[Command], ...]]
    event_classes: ClassVar[tuple[type[Event], ...]]
    option_help: ClassVar[Mapping[str, str]] = {}
    option_labels: ClassVar[Mapping[str, str]] = {}
    option_words: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    group_titles: ClassVar[Mapping[str, str]] = {}
    state_type: ClassVar[type | None] = None
    state_version: ClassVar[int] = 1
    recorded_only: ClassVar[tuple[str, ...]] = ("odds",)

    # -- snapshots (a cache of the fold) --------------------------------------------------

    def snapshot_format(self) -> str | None:
        """What a stored snapshot of this game's state must say it is to be used.

        None when the game keeps no snapshot (its ``state_type`` is not declared). The
        format names the game, its state's shape version and Tablée's own version, so a
        snapshot written by another release is ignored (and written again).
        """
        if self.state_type is None:
            return None
        from tablee import __version__

        return f"{self.id}/{self.state_version}/{__version__}"

    def encode_state(self, state: S) -> JSON:
        """The state as JSON data (for a snapshot)."""
        from tablee.systems.codec import encode

        return encode(state)

    def decode_state(self, data: JSON) -> S:
        """The state from a snapshot's JSON data.

        Raises:
            InputError: data that does not fit the state's type.
        """
        from tablee.systems.codec import decode

        state: S = decode(self.state_type, data, "state")
        return state

    # -- what the table layer reads (the System protocol) -------------------------------

    @property
    def event_versions(self) -> Mapping[str, int]:
        """Current schema version of each event kind (read-only, made once per game)."""
        return _event_tables(self.event_classes)[0]

    @property
    def upcasters(self) -> Mapping[tuple[str, int], Upcaster]:
        """``(kind, version) -> upgrade`` for every event class's older versions (read-only)."""
        return _event_tables(self.event_classes)[1]

    def kinds(self) -> Mapping[str, type[Event]]:
        """Event class by stored kind (read-only, made once per game)."""
        return _event_tables(self.event_classes)[2]

    def event_of(self, kind: str, payload: Mapping[str, JSON]) -> E:
        """The typed event of a stored kind of this game and its current-version payload.

        The same payload object read again gives the event read the first time (`_READ`):
        a table's events are read by the fold, then by each part of their log entry (its
        line, its trace, its card). A payload must not change once read (none does: stored
        payloads are never changed, and a command's are built before they are read).

        Raises:
            InputError: a kind this game does not store, or a payload that does not fit.
        """
        found = _READ.get(id(payload))
        if found is not None and found[0] is payload and found[1] == kind:
            return cast(E, found[2])
        event = read_event(self.kinds(), kind, payload)
        if len(_READ) >= _READ_KEPT:
            _READ.clear()
        _READ[id(payload)] = (payload, kind, event)
        return cast(E, event)

    def command_named(self, name: str) -> type[Command]:
        """The command or query with that name.

        Raises:
            NotFoundError: no such command.
        """
        for command in self.commands:
            if command.name == name:
                return command
        raise NotFoundError(
            N_("{game} has no command {name!r}"),
            tip=N_("commands: {known}"),
            game=self.title,
            name=name,
            known=", ".join(c.name for c in self.commands),
        )

    def initial_state(self, created: Mapping[str, JSON]) -> S:
        """The state of a new table from its ``table.created`` payload."""
        raise NotImplementedError

    def evolve(self, state: S, kind: str, payload: Mapping[str, JSON]) -> S:
        """The state after one stored event: its recorded outcome applied (never decided)."""
        return self.apply(state, self.event_of(kind, payload))

    def legacy_evolve(self, state: S, kind: str, payload: Mapping[str, JSON]) -> S:
        """The state after one stored event of a log folded as Tablée 0.1.0 did.

        Tablée 0.1.0 decided every event again at each fold, and its undos recorded no
        revisions; a game with such logs decides the event again here. By default (a game
        with no 0.1.0 tables) this is `evolve`.
        """
        return self.evolve(state, kind, payload)

    def describe(self, kind: str, payload: Mapping[str, JSON], after: S | None) -> Message:
        """One readable line for a stored event (``after``: the state right after it)."""
        return self.line(self.event_of(kind, payload), after)

    def options_json(self, state: S) -> dict[str, JSON]:
        """The table's house rules as JSON (``state.options``)."""
        return dict(state.options.to_json())  # type: ignore[attr-defined]

    def house_rules(self, state: S) -> tuple[Message, ...]:
        """The table's house rules as sentences players read (``Bonus dice per roll: 2``).

        No option name, no ``NAME=VALUE`` and no ruling id: each option's label
        (``option_labels``) and its value in words (`tablee.systems.options.house_rule_lines`).
        """
        return house_rule_lines(self.options_json(state), self.option_labels, self.option_words)

    def decide_options(self, state: S, changes: Mapping[str, str]) -> Sequence[Fact]:
        """The facts changing table options from text values (InputError if one is bad)."""
        return self.facts(self.change_options(state, changes))

    def summary(self, state: S) -> dict[str, JSON]:
        """What ``table show --json`` adds to the name, players and log length."""
        return {"options": self.options_json(state)}

    # -- what a game implements ---------------------------------------------------------

    def decide(self, state: S, command: C, dice: Chance) -> Decision[S]:
        """Decide a command against the state, asking ``dice`` for each roll (pure).

        ``dice`` is the chance protocol (`tablee.dice.Chance`): live play, typed-in faces,
        a seed, the verifier and exact enumeration all drive the same rules through it.

        Raises:
            InputError: malformed input; RuleError: refused by the rules now.
        """
        raise NotImplementedError

    def decide_at(self, state: S, command: C, dice: Chance, seq: int | None) -> Decision[S]:
        """Decide a command whose first event will be stored at ``seq`` (pure).

        For a game that numbers things by the seq of the event that made them; by default
        the seq is not needed and this is `decide`.
        """
        return self.decide(state, command, dice)

    def apply(self, state: S, event: E) -> S:
        """The state after an event, from its recorded outcome alone."""
        raise NotImplementedError

    def change_options(self, state: S, changes: Mapping[str, str]) -> Decision[S]:
        """Decide a change of house rules from text values."""
        raise NotImplementedError

    def line(self, event: E, after: S | None) -> Message:
        """The log line of an event."""
        raise NotImplementedError

    def details(self, event: E) -> tuple[Text, ...]:
        """Extra lines under an event's log line (its trace); none by default."""
        return ()

    def details_after(self, event: E, after: S | None) -> tuple[Text, ...]:
        """The lines under an event's log line, knowing the state right after it.

        ``after`` is None when unknown; by default the lines are `details`.
        """
        return self.details(event)

    def report(self, command: C, decision: Decision[S]) -> Report:
        """What a decided command shows."""
        raise NotImplementedError

    def answer(self, state: S | None, query: Query) -> Report:
        """The answer to a query (``state`` is None for a query that needs no table)."""
        raise NotImplementedError

    def odds(self, state: S | None, command: C) -> Odds | None:
        """Exact odds of a rolled command before rolling, or None."""
        return None

    def card(self, event: E, after: S | None) -> Card | None:
        """A rolled event as a card of the log (its dice, result, odds, consequences).

        ``after`` is the state right after the event, or None when unknown. None (the
        default) for an event that rolled no dice, or a game that draws no cards.
        """
        return None

    def succeeded(self, event: E) -> bool | None:
        """Whether a rolled event is a success, as its odds' ``success`` counts them.

        By default its payload's ``success``; None when the event has no such notion.
        """
        value = event.payload().get("success")
        return value if isinstance(value, bool) else None

    def panels(self, state: S) -> tuple[Panel, ...]:
        """The shared resources at a glance (public state only)."""
        return ()

    def summary_lines(self, state: S) -> tuple[Text, ...]:
        """The lines ``table show`` adds to the name and players."""
        return ()

    def choices(self, state: S, source: str) -> tuple[str, ...]:
        """The names a choice field offers (``players`` is every player by default).

        Raises:
            KeyError: a source the game does not know (a programming error).
        """
        if source == "players":
            return tuple(state.players)  # type: ignore[attr-defined]
        raise KeyError(source)

    def who(self, state: S, command: type[Command]) -> Who:
        """Who may use a command at this table now; by default its declared `Command.who`.

        A game whose house rules open a game master's command to the players (a YBS
        transfer of a trait level) says so here; the web forms and the JSON API ask it, so a
        player's page never shows a form the player would be refused.
        """
        return command.who

    def acting(self, state: S, command: C) -> tuple[str, ...]:
        """Who acts in a command: the names a player must play to send it (`Who.ACTOR`).

        By default the value of the command's actor field when it is given, else nobody
        (then only the game master may send it). A game whose actor may be left out (the
        one whose turn it is) or names several (an alliance) says so here.

        Raises:
            InputError, RuleError: the actor cannot be told from this state (as `decide`
                would refuse the command).
        """
        spec = actor_field(type(command))
        value = None if spec is None else getattr(command, spec.attr)
        if value is None or value == "":
            return ()
        if isinstance(value, tuple):
            return tuple(str(v) for v in value)
        return (str(value),)

    def owner(self, state: S, name: str) -> str | None:
        """The player who acts as ``name`` (a player's own name: that player), or None."""
        for player in state.players:  # type: ignore[attr-defined]
            if player.casefold() == name.strip().casefold():
                return str(player)
        return None

    # -- shared machinery -----------------------------------------------------------------

    def facts(self, decision: Decision[S]) -> tuple[Fact, ...]:
        """The facts storing a decision's events, with this game's rules version."""
        return tuple(
            event_fact(
                event,
                actor=decision.actor,
                visibility=decision.visibility,
                rules_version=self.rules_version,
            )
            for event in decision.events
        )

    def rules_of(self, version: str | None) -> Game[S, C, E]:
        """The game whose rule code decided events of ``version`` (None: before versions).

        Raises:
            RuleError: a version this release does not have the code of.
        """
        if version in (None, self.rules_version):
            return self
        raise RuleError(
            N_("rules version {version!r} of {game} is unknown to this Tablée"),
            tip=N_("upgrade Tablée"),
            version=version,
            game=self.title,
        )

    def redecide(self, state: S, event: E) -> Decision[S]:
        """Decide again the command that produced ``event``, from its recorded inputs."""
        command, faces = event.inputs()  # type: ignore[attr-defined]
        needed = command.dice()
        if len(needed) == 1 and len(faces) != needed[0].count:
            raise InputError(
                N_("faces recorded: {given}; the command needs {count} {die} (rule {rule})"),
                given=len(faces),
                count=needed[0].count,
                die=needed[0].die.name,
                rule=command.rule or "-",
            )
        source = TypedFaces(faces)
        decision = self.decide(state, cast(C, command), SourceChance(source))
        source.finish()
        return decision

    def verify(
        self, state: S, kind: str, payload: Mapping[str, JSON], version: str | None = None
    ) -> tuple[S, dict[str, JSON] | None]:
        """Decide a stored event again under the rules version it was written with.

        Args:
            state: the state the fold has reached.
            kind: the event's kind.
            payload: its payload (current schema version).
            version: the rules version it was decided under.

        Returns:
            The state after it as the rules give it, and the payload the rules give now when
            it differs from the stored one (None when equal). Odds shown before a roll that
            an older version did not record (``odds`` None) are not compared; recorded odds
            are.

        Raises:
            RuleError: the event cannot follow this state; InputError: malformed inputs or
                faces that do not give the stored result.
        """
        rules = self.rules_of(version)
        event = self.event_of(kind, payload)
        what = Message(N_("{kind} (event)"), kind=kind)
        try:
            decision = rules.redecide(state, event)
        except NotFoundError as exc:
            raise RuleError(N_("{what}: {error}"), what=what, error=exc) from exc
        except TableeError as exc:
            raise type(exc)(N_("{what}: {error}"), what=what, error=exc) from exc
        decided = with_unrecorded(payload, decision.events[0].payload(), self.recorded_only)
        return decision.after, (decided if first_difference(payload, decided) else None)


AnyGame = Game[Any, Any, Any]
"""A game known only at run time (a table read from the store says which it plays)."""
