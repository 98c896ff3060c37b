"""Space Horror Stories as one plugin: commands decided, events applied, the verifier.

`Shs.decide` plans each rolled Action against the table (the temporary modifiers in force
added), asks the dice for its faces (the action dice, then each D+/- group; Actions in the
order they are named) and takes the same ``decide_*`` rule functions as ever with those
faces. `Shs.apply` folds a stored event from its recorded outcome: the Protagoniste as
created, a counter's value after, NT gained and deaths, the clock's reading; nothing is
decided again. `Shs.redecide` (the verifier, run on import, on undo and by ``tablee table
check``) decides an event again from its stored inputs and faces, and refuses one whose
Action the table now gives other modifiers or dice (the log before it changed).
`legacy_evolve` keeps Tablée 0.1.0's fold (every event decided again) for its logs with an
undo that recorded no revisions.

Reports, odds, log lines and panels are in `tablee.systems.shs.reports`.

Source: seed 003; rulings S-M1 to S-M9, S-N1, S-A1 to S-A15, S-T6.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from tablee.dice import D8, DPM, Chance
from tablee.errors import N_, InputError, Message, RuleError, TableeError
from tablee.systems.base import JSON, Fact
from tablee.systems.declare import Command, Query
from tablee.systems.event import Event, read_event
from tablee.systems.plugin import Card, Decision, Game, Odds, Panel, Report, Text
from tablee.systems.shs import display, reports
from tablee.systems.shs.actions import ActionRoll, dice_for_action
from tablee.systems.shs.clock import (
    ActiveModifier,
    Duration,
    LongAction,
    TemporaryModifier,
    advance_time,
    next_tour,
    record_acted,
    start_scene,
)
from tablee.systems.shs.commands import (
    COMMANDS,
    AddModifier,
    Cooperate,
    CreateProtagonist,
    EditCounters,
    EndModifier,
    ImportProtagonists,
    Kill,
    NextTour,
    Oppose,
    Revive,
    ShsCommand,
    Simultaneous,
    StartLongAction,
    StartScene,
    TestCommand,
    TimeAdvance,
)
from tablee.systems.shs.counters import decide_counter, decide_kill, decide_revive
from tablee.systems.shs.events import (
    EVENTS,
    CooperationRolled,
    CounterChanged,
    LongActionStarted,
    ModifierAdded,
    ModifierEnded,
    OpposedRolled,
    OptionsSet,
    ProtagonistCreated,
    ProtagonistKilled,
    ProtagonistRevived,
    RolledAction,
    SceneStarted,
    ShsEvent,
    SimultaneousRolled,
    TestRolled,
    TimeAdvanced,
    TourStarted,
)
from tablee.systems.shs.game import Decision as Decided
from tablee.systems.shs.game import ShsState, decide_create, decide_options, initial_state
from tablee.systems.shs.legacy import REDECIDE, evolve
from tablee.systems.shs.options import (
    SHS_OPTION_HELP,
    SHS_OPTION_LABELS,
    SHS_OPTION_WORDS,
    ShsOptions,
)
from tablee.systems.shs.planning import paid
from tablee.systems.shs.play import (
    decide_cooperation,
    decide_opposed,
    decide_simultaneous,
    decide_test,
    plan_cooperation,
    plan_opposed,
    plan_simultaneous_set,
    plan_test,
)
from tablee.systems.shs.protagonist import Protagonist, set_counter
from tablee.systems.shs.rolling import throw_action
from tablee.systems.shs.sheets import parse_sheets
from tablee.systems.shs.timing import (
    decide_add_modifier,
    decide_advance_time,
    decide_end_modifier,
    decide_long_action,
    decide_next_tour,
    decide_scene,
    modifier_json,
)
from tablee.systems.shs.traits import Characteristic, parse_threshold

__all__ = ["SHS", "Shs"]

THE_SHEETS = N_("the sheets")
"""What pasted or read sheets are called in their errors."""

_KINDS = {cls.kind: cls for cls in EVENTS}


TYPED_COUNT = (
    N_(
        "faces of action dice typed in: {given}; the roll needs {needed} (three D8 per Action, "
        "D10 with a matching Expertise; rules S-M2, S-A1)"
    ),
    N_(
        "faces of +/- dice typed in: {given}; the roll needs {needed} (one +/- die per point of "
        "net Bonus or Malus; rules S-M3, S-A7)"
    ),
)
"""Typed faces that are too few or too many for the Actions, in the words players use (the
same on the command line, the web and the JSON API)."""


def _check_typed(dice: Chance, rolls: Sequence[ActionRoll], options: ShsOptions) -> None:
    """Faces typed in kind by kind must be as many as the Actions need, checked up front.

    Raises:
        InputError: too few or too many action dice or +/- dice faces, naming the dice, the
            count typed, the count needed and the rules (S-M2, S-M3, S-A1, S-A7).
    """
    count = getattr(dice, "typed_count", None)
    if not callable(count):
        return
    requests = [r for roll in rolls for r in dice_for_action(roll, options)]
    action = [r for r in requests if r.die is not DPM]
    given = (count(action[0].die if action else D8), count(DPM))
    if given[0] is None:
        return
    needed = (sum(r.count for r in action), sum(r.count for r in requests if r.die is DPM))
    for index in (0, 1):
        if given[index] != needed[index]:
            raise InputError(TYPED_COUNT[index], given=given[index], needed=needed[index])


def _throws(
    dice: Chance, rolls: Sequence[ActionRoll], options: ShsOptions
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each Action's faces, in the order the Actions are named (typed counts checked first)."""
    _check_typed(dice, rolls, options)
    return [throw_action(roll, dice, options) for roll in rolls]


def _typed(decided: Decided) -> Decision[ShsState]:
    """The plugin's decision from a rule function's: its facts as typed events."""
    events = tuple(read_event(_KINDS, fact.kind, fact.payload) for fact in decided.facts)
    first: Fact | None = decided.facts[0] if decided.facts else None
    return Decision(
        events,
        decided.after,
        actor=first.actor if first is not None else "gm",
        visibility=first.visibility if first is not None else "all",
        outcome=decided.outcome,
        warnings=tuple(decided.warnings),
    )


def _with_odds(decision: Decision[ShsState], odds: Mapping[str, JSON] | None) -> Decision[ShsState]:
    """The decision with its (rolled) first event recording the odds shown before the roll."""
    first, *rest = decision.events
    return replace(decision, events=(replace(first, odds=odds), *rest))  # type: ignore[type-var]


def _several(state: ShsState, steps: Sequence[Any]) -> Decided:
    """Several rule decisions in a row, each on the state the previous one left."""
    facts: list[Fact] = []
    warnings: list[Any] = []
    for step in steps:
        decided = step(state)
        facts += decided.facts
        warnings += decided.warnings
        state = decided.after
    return Decided(tuple(facts), None, tuple(warnings), state)


def _hero(state: ShsState, name: str, hero: Protagonist) -> ShsState:
    return replace(state, protagonists={**state.protagonists, name: hero})


def _paid(state: ShsState, actions: Sequence[RolledAction]) -> ShsState:
    """The Protagonistes once their Actions are over: NT gained, deaths (S-M5, S-A8).

    They are recorded as having acted in this Tour (S-X3).
    """
    clock = record_acted(state.clock, [a.protagonist for a in actions])
    heroes = paid(state.protagonists, [(a.protagonist, a) for a in actions])
    return replace(state, protagonists=heroes, clock=clock)


class Shs(Game[ShsState, ShsCommand, ShsEvent]):
    """Space Horror Stories: three dice against a threshold, D+/- dice, the film's clock."""

    id: ClassVar[str] = "shs"
    title: ClassVar[str] = "Space Horror Stories"
    rules_version: ClassVar[str] = "1"
    commands = COMMANDS
    event_classes = EVENTS
    option_help: ClassVar[Mapping[str, str]] = SHS_OPTION_HELP
    option_labels: ClassVar[Mapping[str, str]] = SHS_OPTION_LABELS
    option_words: ClassVar[Mapping[str, Mapping[str, str]]] = SHS_OPTION_WORDS
    state_type: ClassVar[type | None] = ShsState

    def initial_state(self, created: Mapping[str, JSON]) -> ShsState:
        """The state of a new table: no Protagoniste, the clock before the first Scène."""
        return initial_state(created)

    # -- deciding ---------------------------------------------------------------------------

    def decide(self, state: ShsState, command: ShsCommand, dice: Chance) -> Decision[ShsState]:
        """Decide an SHS command; a rolled one throws its dice from ``dice`` first."""
        return self.decide_at(state, command, dice, None)

    def decide_at(
        self, state: ShsState, command: ShsCommand, dice: Chance, seq: int | None
    ) -> Decision[ShsState]:
        """Decide a command whose first event will be stored at ``seq``.

        A temporary modifier is numbered by that seq (S-A15); None (no table) takes the next
        number after the highest in force. A rolled command's event records the exact odds
        shown before the roll (`tablee.systems.shs.display.odds_record`).
        """
        decision = _typed(self._decided(state, command, dice, seq))
        if command.rolled:
            decision = _with_odds(decision, display.odds_record(state, command))
        return decision

    def _decided(
        self, state: ShsState, command: ShsCommand, dice: Chance, seq: int | None
    ) -> Decided:
        match command:
            case TestCommand():
                attempt = command.attempt()
                test = plan_test(state, attempt)
                ((action, dpm),) = _throws(dice, [test.action], state.options)
                return decide_test(
                    state,
                    attempt,
                    action_faces=action,
                    dpm_faces=dpm,
                    long_action=command.long_action,
                    reason=command.reason,
                )
            case Oppose():
                first, second = command.attempts()
                changer = None if command.changer == "none" else command.changer
                plan = plan_opposed(state, first, second, changer)
                one, two = _throws(dice, [plan.first, plan.second], state.options)
                return decide_opposed(
                    state,
                    first,
                    second,
                    first_faces=one,
                    second_faces=two,
                    changer=changer,
                    reason=command.reason,
                )
            case Cooperate():
                members = command.attempts()
                tests = plan_cooperation(state, members)
                faces = _throws(dice, [t.action for t in tests], state.options)
                return decide_cooperation(state, members, faces=faces, reason=command.reason)
            case Simultaneous():
                actions, opposed = command.attempts(), command.opposed_action()
                tests, fight = plan_simultaneous_set(state, actions, command.trivial, opposed)
                sides = [] if fight is None else [fight.first, fight.second]
                faces = _throws(dice, [*(t.action for t in tests), *sides], state.options)
                return decide_simultaneous(
                    state,
                    actions,
                    faces=faces[: len(tests)],
                    trivial=command.trivial,
                    opposed=opposed,
                    opposed_faces=None if fight is None else (faces[-2], faces[-1]),
                    reason=command.reason,
                )
        return self._decided_unrolled(state, command, seq)

    def _decided_unrolled(self, state: ShsState, command: Command, seq: int | None) -> Decided:
        match command:
            case CreateProtagonist():
                thresholds = {
                    c.value: parse_threshold(getattr(command, c.value), what=c.value)
                    for c in Characteristic
                }
                return decide_create(
                    state,
                    name=command.protagonist,
                    expertises=command.expertises,
                    protection=command.protection,
                    air=command.air,
                    owner=command.player,
                    **thresholds,
                )
            case ImportProtagonists():
                return self._imported(state, command)
            case EditCounters():
                steps = [
                    lambda s, c=c, d=d, v=v: decide_counter(
                        s, protagonist=command.protagonist, counter=c, delta=d, value=v
                    )
                    for c, d, v in command.changes()
                ]
                return _several(state, steps)
            case Kill():
                return decide_kill(state, protagonist=command.protagonist, reason=command.reason)
            case Revive():
                return decide_revive(state, protagonist=command.protagonist, reason=command.reason)
            case StartScene():
                return decide_scene(state, kind=command.kind)
            case NextTour():
                return decide_next_tour(state)
            case TimeAdvance():
                return decide_advance_time(state, duration=command.duration)
            case AddModifier():
                kind, amount = command.kind_amount()
                span = command.span()
                return decide_add_modifier(
                    state,
                    protagonist=command.protagoniste,
                    kind=kind,
                    amount=amount,
                    duration=Duration(tours=span) if isinstance(span, int) else span or Duration(),
                    label=command.label,
                    seq=seq,
                )
            case EndModifier():
                return decide_end_modifier(state, number=command.number)
            case StartLongAction():
                return decide_long_action(
                    state,
                    protagonist=command.protagoniste,
                    label=command.label,
                    tours=command.tours,
                )
        raise InputError(N_("{name} is not a Space Horror Stories command"), name=command.name)

    def _imported(self, state: ShsState, command: ImportProtagonists) -> Decided:
        """Every sheet's Protagoniste, all or none (S-M9, S-N1)."""
        where = Message(THE_SHEETS)
        toml = command.format == "toml"
        if command.format == "auto":  # JSON when it reads as JSON or looks like an object
            toml = not _reads_as_json(command.file) and not command.file.lstrip().startswith("{")
        sheets = parse_sheets(command.file, toml=toml, where=where)
        steps = []
        for number, fields in enumerate(sheets, start=1):

            def step(s: ShsState, fields: dict[str, Any] = fields, number: int = number) -> Decided:
                try:
                    return decide_create(s, **fields)
                except TableeError as exc:
                    raise type(exc)(
                        N_("{file}: Protagoniste {number}: {error}"),
                        file=where,
                        number=number,
                        error=exc,
                    ) from None

            steps.append(step)
        return _several(state, steps)

    def change_options(self, state: ShsState, changes: Mapping[str, str]) -> Decision[ShsState]:
        """Change the house rules from text values."""
        return _typed(decide_options(state, changes))

    # -- folding ----------------------------------------------------------------------------

    def apply(self, state: ShsState, event: ShsEvent) -> ShsState:
        """The state after an event, from its recorded outcome alone (never decided again).

        Source: seed 003; S-M3, S-M5, S-M8, S-A8 to S-A10, S-A15, S-T6.
        """
        match event:
            case ProtagonistCreated():
                hero = Protagonist(
                    event.name,
                    event.carrure,
                    event.motricite,
                    event.science,
                    event.relationnel,
                    event.sang_froid,
                    event.sante,
                    event.expertises,
                    event.protection,
                    event.air,
                )
                owners = {**state.owners, event.name: event.owner} if event.owner else state.owners
                return replace(_hero(state, event.name, hero), owners=owners)
            case CounterChanged():
                hero = set_counter(
                    state.protagonists[event.protagonist], event.counter, event.after
                )
                return _hero(state, event.protagonist, hero)
            case ProtagonistKilled() | ProtagonistRevived():
                alive = isinstance(event, ProtagonistRevived)
                hero = replace(state.protagonists[event.protagonist], alive=alive)
                return _hero(state, event.protagonist, hero)
            case TestRolled():
                after = _paid(state, [event.action])
                if event.long_action is None:
                    return after
                kept = tuple(
                    a
                    for a in after.clock.long_actions
                    if (a.actor, a.label) != (event.protagonist, event.long_action)
                )
                return replace(after, clock=replace(after.clock, long_actions=kept))
            case OpposedRolled():
                return _paid(state, [event.first, event.second])
            case CooperationRolled():
                return _paid(state, event.members)
            case SimultaneousRolled():
                fight = event.opposed  # the set's opposed Action: both sides pay (S-X5)
                sides = () if fight is None else (fight.first, fight.second)
                return _paid(state, (*event.actions, *sides))
        return self._applied_clock(state, event)

    def _applied_clock(self, state: ShsState, event: Event) -> ShsState:
        clock = state.clock
        match event:
            case SceneStarted():
                clock = start_scene(clock, event.scene_kind or "rythmee")
                return replace(state, clock=replace(clock, scene=event.scene))
            case TourStarted():
                return replace(state, clock=replace(next_tour(clock), tour=event.tour))
            case TimeAdvanced():
                return replace(state, clock=advance_time(clock, event.seconds))
            case ModifierAdded():
                highest = max((m.number for m in clock.modifiers), default=0)
                modifier = TemporaryModifier(
                    event.protagonist,
                    event.modifier_kind,
                    event.amount,
                    Duration(tours=event.tours, seconds=event.seconds),
                    event.label,
                )
                number = event.seq if event.seq is not None else highest + 1
                active = ActiveModifier(modifier, event.added_tour, event.added_seconds, number)
                return replace(state, clock=replace(clock, modifiers=(*clock.modifiers, active)))
            case ModifierEnded():
                ended = event.number
                if ended is None:  # version 1: its place among those in force then
                    ended = _at_place(clock.modifiers, event)
                kept = tuple(m for m in clock.modifiers if m.number != ended)
                return replace(state, clock=replace(clock, modifiers=kept))
            case LongActionStarted():
                action = LongAction(event.protagonist, event.label, event.tours, event.started)
                return replace(
                    state, clock=replace(clock, long_actions=(*clock.long_actions, action))
                )
            case OptionsSet():
                return replace(state, options=event.house_rules())
        raise InputError(N_("{kind} is not a Space Horror Stories event"), kind=event.kind)

    def legacy_evolve(self, state: ShsState, kind: str, payload: Mapping[str, JSON]) -> ShsState:
        """The fold of Tablée 0.1.0 (every event decided again), for its logs with undos."""
        return evolve(state, kind, payload)

    def redecide(self, state: ShsState, event: ShsEvent) -> Decision[ShsState]:
        """Decide an event again from its stored inputs and faces (the verifier).

        What the table gave a rolled Action (threshold, die, temporary modifiers, dice) and
        the modifier an end names must be unchanged, else RuleError: the log before the
        event changed (an undo that would change a later roll is refused). A rolled event's
        recorded odds are computed again (`tablee.systems.shs.legacy.REDECIDE`); odds not
        recorded (None, a version-1 event) stay None, so they are not compared.
        """
        redecide = REDECIDE.get(event.kind)
        if redecide is None:
            raise InputError(
                N_("unknown Space Horror Stories event kind {kind!r}"), kind=event.kind
            )
        return _typed(redecide(state, event.payload()))

    # -- what people read -------------------------------------------------------------------

    def line(self, event: ShsEvent, after: ShsState | None) -> Message:
        """The log line of an event."""
        return display.line(event, after)

    def details(self, event: ShsEvent) -> tuple[Text, ...]:
        """The trace of each rolled Action, resolved again from its stored faces."""
        return display.details(event, None)

    def details_after(self, event: ShsEvent, after: ShsState | None) -> tuple[Text, ...]:
        """The trace of each rolled Action under the options in force right after it."""
        return display.details(event, after)

    def card(self, event: ShsEvent, after: ShsState | None) -> Card | None:
        """A rolled event as a card: D8/D10 and D+/- dice, PS, success, odds, the price."""
        from tablee.systems.shs import cards  # only the web log draws cards

        if isinstance(event, TestRolled | OpposedRolled | CooperationRolled | SimultaneousRolled):
            return cards.card(event)
        return None

    def report(self, command: ShsCommand, decision: Decision[ShsState]) -> Report:
        """What a decided SHS command shows."""
        return reports.report(command, decision)

    def answer(self, state: ShsState | None, query: Query) -> Report:
        """The Protagonistes, the clock, or the exact odds of a Test."""
        return reports.answer(state, query)

    def odds(self, state: ShsState | None, command: ShsCommand) -> Odds | None:
        """The exact odds of a Test, an opposed Action or a cooperation, before rolling."""
        if state is None:
            return None
        return display.odds(state, command)

    def panels(self, state: ShsState) -> tuple[Panel, ...]:
        """The clock, then each Protagoniste's counters, traits and Expertises."""
        return display.panels(state)

    def summary(self, state: ShsState) -> dict[str, JSON]:
        """The Protagonistes' counters, the film's clock and the house rules.

        Returns:
            ``{"protagonistes": {name: {owner, alive, sante, sante_max, protection, air,
            nt, the five thresholds, expertises}}, "clock": {scene, scene_kind, tour,
            seconds, modifiers (each with its stable ``number``), long_actions, due},
            "options": {...}}``.
        """
        return display.summary(state, self.options_json(state))

    def summary_lines(self, state: ShsState) -> tuple[Text, ...]:
        """The clock, then each Protagoniste, for ``table show``."""
        return display.summary_lines(state)

    def choices(self, state: ShsState, source: str) -> tuple[str, ...]:
        """The players, the Protagonistes or the Caractéristiques."""
        if source == "protagonistes":
            return tuple(state.protagonists)
        if source == "characteristics":
            return tuple(c.value for c in Characteristic)
        return super().choices(state, source)

    def owner(self, state: ShsState, name: str) -> str | None:
        """Who acts as ``name``: a player, or a Protagoniste's player, else None.

        A Protagoniste may be named alone or first in a spec (``Jake:science``); None is the
        Réalisateur's.
        """
        key = name.split(":")[0].strip().casefold()
        for player in state.players:
            if player.casefold() == key:
                return player
        for hero, player in state.owners.items():
            if hero.casefold() == key:
                return player
        return None


def _at_place(modifiers: Sequence[ActiveModifier], event: ModifierEnded) -> int:
    """The number of the modifier a version-1 end names by its place, checked.

    The modifier at that place must be the one the end recorded.

    Raises:
        RuleError: no modifier, or another one, is at that place (the log before changed).
    """
    place = event.position
    found = modifiers[place - 1] if place is not None and 1 <= place <= len(modifiers) else None
    if found is None or modifier_json(found) != dict(event.modifier):
        raise RuleError(
            N_(
                "the temporary modifier number {number} is not the one this fact ended "
                "(the log before it has changed)"
            ),
            tip=N_("undo the later events first, newest first"),
            number=place,
        )
    return found.number


def _reads_as_json(text: str) -> bool:
    import json

    try:
        json.loads(text)
    except RecursionError:  # JSON nested too deep: read as JSON, which says so
        return True
    except ValueError:
        return False
    return True


SHS = Shs()
"""The Space Horror Stories plugin."""
