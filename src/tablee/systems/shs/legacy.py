"""Folding stored SHS facts into state by deciding each one again.

`evolve` takes a stored fact's *inputs* (who, which Caractéristique, which modifiers and
option, which faces, which counter change, which duration) and runs the same ``decide_*``
function that produced it against the state the fold has reached, so every rule is checked
on every replay. Then it compares the stored payload with the decided one:

* what the table gave an Action (threshold, die, temporary modifiers, dice asked for) or the
  modifier a fact ended must be what it gives now, else RuleError: the log before the fact
  has changed, which refuses an undo that would change a later roll;
* every other field but the records must be equal, else InputError: the fact was edited (a
  stored PS its faces do not give, a Santé its Carrure does not give);
* the records (a counter's value before and after, the Tour and game time reached, expired
  modifiers, long Actions due or lapsed, the Scène's number) are what was shown at the time;
  the state takes what the rules give now, so undoing an older event changes what follows.

A Protagoniste, player or Expertise that is no longer there is a RuleError on replay.

Source: docs/architecture.md, "The event log" and "The fold decides every event again";
rulings S-M1 to S-M9, S-A2 to S-A15.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from tablee.errors import N_, InputError, Message, RuleError
from tablee.systems.base import JSON, Upcaster
from tablee.systems.common import decide_again
from tablee.systems.options import stored_changes
from tablee.systems.shs.actions import Option
from tablee.systems.shs.clock import Duration
from tablee.systems.shs.counters import decide_counter, decide_kill, decide_revive
from tablee.systems.shs.events import EVENTS
from tablee.systems.shs.game import (
    Decision,
    ShsState,
    decide_create,
    decide_options,
)
from tablee.systems.shs.play import (
    Attempt,
    OpposedInSet,
    decide_cooperation,
    decide_opposed,
    decide_simultaneous,
    decide_test,
)
from tablee.systems.shs.timing import (
    decide_add_modifier,
    decide_advance_time,
    decide_end_modifier,
    decide_long_action,
    decide_next_tour,
    decide_scene,
)

__all__ = ["EVENT_VERSIONS", "RECORDS", "REDECIDE", "UPCASTERS", "evolve"]

P = Mapping[str, JSON]
_KINDS = {cls.kind: cls for cls in EVENTS}
RECORDS = frozenset(
    {
        "before",
        "after",
        "scene",
        "tour",
        "total",
        "expired",
        "due",
        "lapsed",
        "added_tour",
        "added_seconds",
        "started",
        "last_tour",
    }
)
"""Payload fields that record what was shown at the time, never compared on replay."""


def _attempt(p: P) -> Attempt:
    option = Option(p["option"])
    return Attempt(
        protagonist=p["protagonist"],
        characteristic=p["characteristic"],
        difficulty=p.get("difficulty"),
        expertise=p["expertise"],
        bonus=p["bonus"],
        malus=p["malus"],
        surpass=option is Option.SE_SURPASSER,
        sacrifice=option is Option.SE_SACRIFIER,
    )


def _faces(p: P) -> tuple[Any, Any]:
    return p["action_faces"], p["dpm_faces"]


def _created(state: ShsState, p: P) -> Decision:
    return decide_create(
        state,
        name=p["name"],
        carrure=p["carrure"],
        motricite=p["motricite"],
        science=p["science"],
        relationnel=p["relationnel"],
        sang_froid=p["sang_froid"],
        expertises=p["expertises"],
        protection=p["protection"],
        air=p["air"],
        owner=p["owner"],
    )


def _test(state: ShsState, p: P) -> Decision:
    action, dpm = _faces(p)
    return decide_test(
        state,
        _attempt(p),
        action_faces=action,
        dpm_faces=dpm,
        long_action=p["long_action"],
        reason=p["reason"],
        expect=p,
    )


def _opposed(state: ShsState, p: P) -> Decision:
    return decide_opposed(
        state,
        _attempt(p["first"]),
        _attempt(p["second"]),
        first_faces=_faces(p["first"]),
        second_faces=_faces(p["second"]),
        changer=p["changer"],
        reason=p["reason"],
        expect=p,
    )


def _cooperation(state: ShsState, p: P) -> Decision:
    members = list(p["members"])
    return decide_cooperation(
        state,
        [_attempt(m) for m in members],
        faces=[_faces(m) for m in members],
        reason=p["reason"],
        expect=p,
    )


def _simultaneous(state: ShsState, p: P) -> Decision:
    actions = list(p["actions"])
    fight = p.get("opposed")
    opposed = opposed_faces = None
    if fight is not None:
        first, second = fight["first"], fight["second"]
        opposed = OpposedInSet(_attempt(first), _attempt(second), fight["changer"])
        opposed_faces = (_faces(first), _faces(second))
    return decide_simultaneous(
        state,
        [_attempt(a) for a in actions],
        faces=[_faces(a) for a in actions],
        trivial=p["trivial"],
        opposed=opposed,
        opposed_faces=opposed_faces,
        reason=p["reason"],
        expect=p,
    )


def _options(state: ShsState, p: P) -> Decision:
    return decide_options(state, stored_changes(p))


def _with_odds(redecide: Callable[[ShsState, P], Decision]) -> Callable[[ShsState, P], Decision]:
    """A rolled kind decided again, with the odds shown before it when they were recorded.

    The recorded odds are computed again from the state before the event and the command
    its inputs give (`tablee.systems.shs.display.odds_record`), so they are compared; odds
    not recorded (None: a version-1 event) are left out of the decided payload, so they
    are not compared.
    """

    def decided(state: ShsState, p: P) -> Decision:
        decision = redecide(state, p)
        if p.get("odds") is None:
            return decision
        from tablee.systems.shs.display import odds_record  # it reads this module's rules

        first = decision.facts[0]
        command, _ = _KINDS[first.kind].from_payload(p).inputs()  # type: ignore[attr-defined]
        fact = replace(first, payload={**first.payload, "odds": odds_record(state, command)})
        return replace(decision, facts=(fact, *decision.facts[1:]))

    return decided


REDECIDE: Mapping[str, Callable[[ShsState, P], Decision]] = {
    "shs.protagonist_created": _created,
    "shs.counter_changed": lambda s, p: decide_counter(
        s, protagonist=p["protagonist"], counter=p["counter"], delta=p["delta"], value=p["value"]
    ),
    "shs.protagonist_killed": lambda s, p: decide_kill(
        s, protagonist=p["protagonist"], reason=p["reason"]
    ),
    "shs.protagonist_revived": lambda s, p: decide_revive(
        s, protagonist=p["protagonist"], reason=p["reason"]
    ),
    "shs.test": _with_odds(_test),
    "shs.opposed": _with_odds(_opposed),
    "shs.cooperation": _with_odds(_cooperation),
    "shs.simultaneous": _with_odds(_simultaneous),
    "shs.scene_started": lambda s, p: decide_scene(s, kind=p["kind"]),
    "shs.tour_started": lambda s, p: decide_next_tour(s),
    "shs.time_advanced": lambda s, p: decide_advance_time(s, duration=p["seconds"]),
    "shs.modifier_added": lambda s, p: decide_add_modifier(
        s,
        protagonist=p["protagonist"],
        kind=p["kind"],
        amount=p["amount"],
        duration=Duration(tours=p["tours"], seconds=p["seconds"]),
        label=p["label"],
        seq=p["seq"],
    ),
    "shs.modifier_ended": lambda s, p: _modifier_ended(s, p),
    "shs.long_action_started": lambda s, p: decide_long_action(
        s, protagonist=p["protagonist"], label=p["label"], tours=p["tours"]
    ),
    "shs.options_set": _options,
}

EVENT_VERSIONS: Mapping[str, int] = {cls.kind: cls.version for cls in EVENTS}
"""Current schema version of every SHS event kind."""

UPCASTERS: Mapping[tuple[str, int], Upcaster] = {
    (cls.kind, version): step for cls in EVENTS for version, step in cls.upgrades.items()
}
"""Upgrades of stored SHS payloads, ``(kind, version) -> payload of version + 1``.

A modifier added by a version-1 fact gets the next number after the highest in force when
it is folded (its seq is not in its payload); a version-1 end names the modifier by its
place among those in force then, which the fold resolves to that modifier's number; a
version-1 rolled fact recorded no odds (None).
"""


def _modifier_ended(state: ShsState, p: P) -> Decision:
    if p.get("number") is not None or "position" not in p:
        return decide_end_modifier(state, number=p["number"], expect=p)
    position, modifiers = p["position"], state.clock.modifiers
    valid = isinstance(position, int) and not isinstance(position, bool)
    if not valid or not 1 <= position <= len(modifiers):
        raise RuleError(
            N_(
                "no temporary modifier is in force at place {position}, the one this fact "
                "ended (the log before it has changed)"
            ),
            tip=N_("undo the later events first, newest first"),
            position=position,
        )
    decision = decide_end_modifier(state, number=modifiers[position - 1].number, expect=p)
    fact = replace(decision.facts[0], payload=dict(p))  # the stored shape, checked above
    return replace(decision, facts=(fact,))


def evolve(state: ShsState, kind: str, payload: Mapping[str, JSON]) -> ShsState:
    """Fold one stored fact into the state by deciding it again (pure).

    Args:
        state: the state the fold has reached.
        kind: the fact's kind (``shs.test``...).
        payload: its payload (current version).

    Returns:
        The state after the fact, as the rules give it now.

    Raises:
        RuleError: the fact cannot follow this state (a dead Protagoniste acting, an unknown
            Protagoniste, a long Action not in its last Tour, other temporary modifiers than
            when it was rolled...): this refuses an undo that would break a later fact, and
            an imported log that breaks a rule.
        InputError: an unknown kind, a missing or malformed field, or a stored result that
            differs from the decided one (an edited fact).

    Source: docs/architecture.md, "The event log"; S-M1 to S-M9, S-A2 to S-A15.
    """
    redecide = REDECIDE.get(kind)
    if redecide is None:
        raise InputError(N_("unknown Space Horror Stories event kind {kind!r}"), kind=kind)
    what = _what(kind, payload)
    return decide_again(redecide, state, payload, what, records=RECORDS)


def _what(kind: str, p: P) -> Message:
    first = p.get("first")
    members = p.get("members")
    who = p.get("protagonist") or p.get("name") or ""
    if not who and isinstance(first, Mapping):
        who = first.get("protagonist") or ""
    if not who and isinstance(members, list) and members and isinstance(members[0], Mapping):
        who = members[0].get("protagonist") or ""
    return Message(N_("{kind} by {who}") if who else "{kind}", kind=kind, who=who)
