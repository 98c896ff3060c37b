"""The film's clock at an SHS table: Scènes, Tours, game time, modifiers, long Actions.

The decisions wrap the core's pure clock (`tablee.systems.shs.clock`) and record what
happened by itself: the temporary modifiers that expired and the long Actions that fell due
or lapsed when a Tour began or game time passed. Those records are shown in the log; the
state always takes what the clock gives now.

Tablée's choices where the text is silent: Tours are counted only in a scène rythmée (S-M8),
and so are long Actions started; game time may be advanced in any Scène, or before the
first. A long Action is rolled with a Test naming it in its last Tour; one not rolled then
lapses when the next Tour begins.

Event kinds: ``shs.scene_started``, ``shs.tour_started``, ``shs.time_advanced`` and
``shs.long_action_started`` (version 1); ``shs.modifier_added`` and ``shs.modifier_ended``
(version 2: a modifier is known by a stable number, the seq of the event that added it,
stored as ``seq`` when added and as ``number`` when ended; version 1 numbered them by their
place among those in force, see `tablee.systems.shs.legacy.UPCASTERS`).

Source: seed 003, "Temporalité des Actions", "Scènes", "Durées", "Bonus et Malus"
("Durée"), "Action sur plusieurs Tours"; rulings S-M3, S-M8, S-A15, S-T4, S-T6.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from tablee.dice import TraceStep
from tablee.errors import N_, InputError, Message, NotFoundError, RuleError
from tablee.systems.base import JSON, Fact, clean_name, name_key
from tablee.systems.common import whole
from tablee.systems.shs.clock import (
    ActiveModifier,
    Clock,
    Duration,
    LongAction,
    SceneKind,
    TemporaryModifier,
    add_modifier,
    advance_time,
    modifier_numbered,
    next_tour,
    parse_duration,
    remove_modifier,
    rolls_due,
    start_long_action,
    start_scene,
)
from tablee.systems.shs.game import Decision, ShsState, free_text, protagonist_named
from tablee.systems.shs.protagonist import require_alive

__all__ = [
    "VERSIONS",
    "clock_json",
    "decide_add_modifier",
    "decide_advance_time",
    "decide_end_modifier",
    "decide_long_action",
    "decide_next_tour",
    "decide_scene",
    "long_action_json",
    "modifier_json",
]

P = Mapping[str, JSON]

VERSIONS: Mapping[str, int] = {"shs.modifier_added": 2, "shs.modifier_ended": 2}
"""The clock's event kinds stored at a version above 1 (the others are at version 1)."""


def modifier_json(active: ActiveModifier) -> dict[str, JSON]:
    """A temporary modifier in force as JSON, with the clock's reading when it was added.

    Source: seed 003, "Durée"; S-M3.
    """
    m = active.modifier
    return {
        "protagonist": m.target,
        "kind": m.kind,
        "amount": m.amount,
        "tours": m.duration.tours,
        "seconds": m.duration.seconds,
        "label": m.label,
        "added_tour": active.tour,
        "added_seconds": active.seconds,
    }


def long_action_json(action: LongAction) -> dict[str, JSON]:
    """A long Action as JSON, with the Tour it is rolled in.

    Source: seed 003, "Action sur plusieurs Tours"; S-M8.
    """
    return {
        "protagonist": action.actor,
        "label": action.label,
        "tours": action.tours,
        "started": action.started,
        "last_tour": action.last_tour,
    }


def _decision(state: ShsState, kind: str, payload: P, clock: Clock, *notes: TraceStep) -> Decision:
    fact = Fact(kind, payload, actor="gm", version=VERSIONS.get(kind, 1))
    return Decision((fact,), clock, notes, replace(state, clock=clock))


def _due_notes(clock: Clock) -> tuple[TraceStep, ...]:
    template = (
        N_(
            "{name}'s {label} counts Tours, which stop in a scène lente: its last seconds pass "
            "in the calm, so roll its Test now"
        )
        if clock.scene_kind is SceneKind.LENTE
        else N_("{name}'s {label} is in its last Tour: roll its Test now")
    )
    return tuple(TraceStep(template, {"name": a.actor, "label": a.label}) for a in rolls_due(clock))


def _frozen_notes(clock: Clock) -> tuple[TraceStep, ...]:
    """In a scène lente, a notice per modifier counted in Tours: Tours do not run (S-X2)."""
    if clock.scene_kind is not SceneKind.LENTE:
        return ()
    return tuple(
        TraceStep(
            N_(
                "{name}'s {kind} of {amount} counts Tours, which do not run in a scène lente: "
                "it stays in force until Tours pass it in a scène rythmée, or until it is ended "
                "by hand (modifier number {number})"
            ),
            {
                "name": m.modifier.target,
                "kind": "Bonus" if m.modifier.kind == "bonus" else "Malus",
                "amount": m.modifier.amount,
                "number": m.number,
            },
        )
        for m in clock.modifiers
        if m.modifier.duration.tours
    )


def decide_scene(state: ShsState, *, kind: SceneKind | str) -> Decision:
    """Begin the next Scène, rythmée or lente; Tours, game time and modifiers carry on.

    A long Action still running when a scène lente begins falls due there (its last seconds
    pass in the calm): a notice says so, and its Test may be rolled in that Scène. A modifier
    counted in Tours does not run down in a scène lente: a notice names each one (S-X2).

    Raises:
        InputError: an unknown kind (``rythmee`` or ``lente``).

    Source: seed 003, "Scènes"; S-M8, S-X2.
    """
    clock = start_scene(state.clock, kind)
    payload: dict[str, JSON] = {
        "kind": clock.scene_kind.value if clock.scene_kind else None,
        "scene": clock.scene,
    }
    notes = (
        (*_due_notes(clock), *_frozen_notes(clock)) if clock.scene_kind is SceneKind.LENTE else ()
    )
    return _decision(state, "shs.scene_started", payload, clock, *notes)


def decide_next_tour(state: ShsState) -> Decision:
    """Begin the next Tour of the scène rythmée: what has run its course stops by itself.

    Returns:
        The decision; the fact records the expired modifiers, the long Actions due in this
        Tour and those that lapsed (not rolled in their last Tour); notices name those due.

    Raises:
        RuleError: the current Scène is not a scène rythmée.

    Source: seed 003, "Tour", "Action sur plusieurs Tours"; S-M3, S-M8, S-A15, S-T4, S-T6.
    """
    if state.clock.scene_kind is not SceneKind.RYTHMEE:
        raise RuleError(
            N_("Tours divide a scène rythmée, and the current Scène is not one (rule S-M8)"),
            tip=N_("start a scène rythmée first"),
        )
    clock = next_tour(state.clock)
    payload: dict[str, JSON] = {
        "tour": clock.tour,
        "expired": [modifier_json(m) for m in state.clock.modifiers if not m.in_force(clock)],
        "due": [long_action_json(a) for a in rolls_due(clock)],
        "lapsed": [
            long_action_json(a) for a in state.clock.long_actions if a.last_tour < clock.tour
        ],
    }
    return _decision(state, "shs.tour_started", payload, clock, *_due_notes(clock))


def _duration(value: Duration | str | int, *, seconds_only: bool) -> Duration:
    if isinstance(value, Duration):
        return value
    if isinstance(value, str):
        return parse_duration(value)
    if seconds_only:
        return Duration(seconds=value)
    raise InputError(
        N_("{value!r} is not a duration (rule S-M3)"),
        tip=N_("write 2 Tours, 30 min or 1 h"),
        value=value,
    )


def decide_advance_time(state: ShsState, *, duration: Duration | str | int) -> Decision:
    """Advance game time by the Réalisateur's estimate; modifiers past their time stop.

    Args:
        state: current state.
        duration: a game time (``30 min``, ``1 h``, a `Duration`, or seconds).

    Raises:
        InputError: a duration in Tours, or out of range (1 s to 100 days).

    Source: seed 003, "Durées"; S-M3, S-M8, S-A15, S-T4.
    """
    chosen = _duration(duration, seconds_only=True)
    clock = advance_time(state.clock, chosen)
    payload: dict[str, JSON] = {
        "seconds": chosen.seconds,
        "total": clock.seconds,
        "expired": [modifier_json(m) for m in state.clock.modifiers if not m.in_force(clock)],
    }
    return _decision(state, "shs.time_advanced", payload, clock)


def decide_add_modifier(
    state: ShsState,
    *,
    protagonist: str,
    kind: str,
    amount: int,
    duration: Duration | str,
    label: str = "",
    seq: int | None = None,
) -> Decision:
    """Give a Protagoniste a temporary Bonus or Malus, e.g. ``Malus (2 Tours) de 1``.

    It applies by itself to the Protagoniste's Actions while in force: one lasting n Tours
    for the rest of the current Tour and the n next; one lasting a game time until that
    much time has been advanced; a lasting one (no duration) until ended by hand (S-X1).
    One counted in Tours is accepted in a scène lente, with a notice that Tours do not run
    there (S-X2). Its number, shown to people and used to end it by hand,
    is ``seq`` and never changes while it is in force.

    Args:
        state: current state.
        protagonist: who it applies to.
        kind: ``bonus`` or ``malus``.
        amount: 1 to 50.
        duration: ``2 Tours``, ``30 min``, ``1 h`` or a `Duration`.
        label: an optional reason.
        seq: the sequence number the fact will be stored at (the table's last seq + 1),
            which becomes the modifier's number; None (play without a table, or a fact
            stored before version 2) takes the next number after the highest in force.

    Raises:
        NotFoundError: an unknown Protagoniste.
        InputError: a bad kind, amount, duration or label; a ``seq`` that is not a whole
            number above the numbers in force.

    Source: seed 003, "Bonus/Malus temporaire"; S-M3, S-A15, S-T4, S-X1, S-X2.
    """
    name = protagonist_named(state, protagonist)
    label = free_text(label)
    modifier = TemporaryModifier(name, kind, amount, _duration(duration, seconds_only=False), label)
    if seq is not None:
        whole(seq, Message(N_("the modifier's seq")), 2, rule="S-A15")
    clock = add_modifier(state.clock, modifier, seq)
    payload = {**modifier_json(clock.modifiers[-1]), "seq": seq}
    notes = _frozen_notes(replace(clock, modifiers=clock.modifiers[-1:]))
    return _decision(state, "shs.modifier_added", payload, clock, *notes)


def decide_end_modifier(state: ShsState, *, number: int, expect: P | None = None) -> Decision:
    """End a temporary modifier by hand before its time (the Réalisateur's call, S-A15).

    Args:
        state: current state.
        number: the modifier's stable number (the seq of the event that added it, as the
            clock shows it).
        expect: the stored payload, when replaying.

    Raises:
        NotFoundError: no modifier in force has that number (the message lists them).
        RuleError: on replay, no modifier or another one has that number now.

    Source: seed 003; S-A15.
    """
    try:
        active = modifier_numbered(state.clock, number)
    except NotFoundError:
        if expect is None:
            raise
        active = None
    ended = None if active is None else modifier_json(active)
    if ended is None or (expect is not None and expect.get("modifier") != ended):
        raise RuleError(
            N_(
                "the temporary modifier number {number} is not the one this fact ended "
                "(the log before it has changed)"
            ),
            tip=N_("undo the later events first, newest first"),
            number=number,
        )
    clock = remove_modifier(state.clock, number)
    return _decision(state, "shs.modifier_ended", {"number": number, "modifier": ended}, clock)


def decide_long_action(state: ShsState, *, protagonist: str, label: str, tours: int) -> Decision:
    """Start an Action over several Tours in the current Tour; it is rolled in its last.

    Args:
        state: current state.
        protagonist: who acts; must be alive.
        label: what is attempted, unique among its long Actions in progress.
        tours: how many Tours it lasts, 1 or more.

    Raises:
        NotFoundError: an unknown Protagoniste.
        InputError: a bad label or number of Tours.
        RuleError: a dead Protagoniste; not in a scène rythmée or before its first Tour;
            the same label already in progress for this Protagoniste.

    Source: seed 003, "Action sur plusieurs Tours"; S-M1, S-M8, S-T6.
    """
    name = protagonist_named(state, protagonist)
    require_alive(state.protagonists[name])
    if state.clock.scene_kind is not SceneKind.RYTHMEE:
        raise RuleError(
            N_(
                "an Action over several Tours belongs to a scène rythmée, and the current "
                "Scène is not one: outside Tours, the Réalisateur estimates how long an Action "
                "takes (rule S-M8)"
            ),
            tip=N_(
                "in a scène lente, advance game time by the Action's length, then roll an "
                "ordinary Test; or start a scène rythmée"
            ),
        )
    key = name_key(clean_name(label, what=N_("a label")))
    for action in state.clock.long_actions:
        if name_key(action.actor) == name_key(name) and name_key(action.label) == key:
            raise RuleError(
                N_("{name} is already doing {label} until Tour {last}"),
                name=name,
                label=action.label,
                last=action.last_tour,
            )
    clock = start_long_action(state.clock, name, label, tours)
    payload = long_action_json(clock.long_actions[-1])
    return _decision(state, "shs.long_action_started", payload, clock, *_due_notes(clock))


def clock_json(clock: Clock) -> dict[str, JSON]:
    """The clock as JSON: Scène, Tour, game time, modifiers with their numbers, long Actions.

    Each modifier's ``number`` is its stable number (the seq of the event that added it).

    Source: seed 003; S-M3, S-M8, S-A15.
    """
    return {
        "scene": clock.scene,
        "scene_kind": None if clock.scene_kind is None else clock.scene_kind.value,
        "tour": clock.tour,
        "seconds": clock.seconds,
        "modifiers": [{"number": m.number, **modifier_json(m)} for m in clock.modifiers],
        "long_actions": [long_action_json(a) for a in clock.long_actions],
        "due": [long_action_json(a) for a in rolls_due(clock)],
    }
