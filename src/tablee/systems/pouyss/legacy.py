"""How Tablée 0.1.0 folded a Pouyss log: every event decided again, its records ignored.

Tables written by Tablée 0.1.0 whose log holds an undo rely on this fold: an undo then did
not record how it changed the events after it (the cagnotte a later roll found, for one); the
rules worked it out on every load. `legacy_evolve` keeps that behaviour for those tables:
each event's inputs and faces are decided again against the state reached so far, the
decided results (faces, removed and kept dice, value, levels) must equal the stored ones,
and the state takes what the rules give now (the stored cagnotte figures are a record of
what was shown at the time). Undos written since record their changes, and tables without
an old undo apply recorded outcomes (`tablee.systems.pouyss.state.apply`).

Source: architecture.md "A history that survives upgrades"; rulings P-M1 to P-M8.
"""

from __future__ import annotations

from collections.abc import Mapping

from tablee.errors import N_, InputError, Message, TableeError
from tablee.systems.base import JSON
from tablee.systems.event import read_event
from tablee.systems.options import stored_changes
from tablee.systems.plugin import Decision
from tablee.systems.pouyss.decide import (
    decide_character,
    decide_end_session,
    decide_opposed,
    decide_options,
    decide_penalty,
    decide_reward,
    decide_roll,
    decide_start_session,
)
from tablee.systems.pouyss.events import (
    EVENTS,
    CharacterSet,
    OpposedRolled,
    OptionsSet,
    Penalised,
    Rewarded,
    Rolled,
    SessionEnded,
    SessionStarted,
)
from tablee.systems.pouyss.state import PouyssState

__all__ = ["RESULT_FIELDS", "legacy_evolve"]

RESULT_FIELDS = ("faces", "removed", "kept", "value", "level", "passive_value", "passive_level")
"""The stored fields the rules must give again from the stored faces."""

_KINDS = {cls.kind: cls for cls in EVENTS}


def _redecide(state: PouyssState, kind: str, p: Mapping[str, JSON]) -> Decision[PouyssState]:
    event = read_event(_KINDS, kind, p)
    match event:
        case SessionStarted() | SessionEnded() | Rewarded() | Penalised() | CharacterSet():
            command, _ = event.inputs()
            deciders = {
                SessionStarted: decide_start_session,
                Rewarded: decide_reward,
                Penalised: lambda s, c: decide_penalty(s, c, refuse_empty=False),
                CharacterSet: decide_character,
            }
            if isinstance(event, SessionEnded):
                return decide_end_session(state)
            decided: Decision[PouyssState] = deciders[type(event)](state, command)  # type: ignore[operator]
            return decided
        case Rolled():
            roll, faces = event.inputs()
            return decide_roll(state, roll, faces)  # type: ignore[arg-type]
        case OpposedRolled():
            opposed, faces = event.inputs()
            return decide_opposed(state, opposed, faces)  # type: ignore[arg-type]
        case OptionsSet():
            return decide_options(state, stored_changes(p))
    raise InputError(N_("unknown Pouyss event kind {kind!r}"), kind=kind)


def legacy_evolve(state: PouyssState, kind: str, payload: Mapping[str, JSON]) -> PouyssState:
    """Fold one stored event as Tablée 0.1.0 did: decided again, its results compared.

    Args:
        state: the state the fold has reached.
        kind: the event's kind.
        payload: its payload (current schema version).

    Returns:
        The state after it, as the rules give it.

    Raises:
        RuleError: the event cannot follow this state.
        InputError: an unknown kind, malformed inputs, or a stored result that differs from
            the result of its faces.

    Source: P-M1 to P-M8.
    """
    try:
        decision = _redecide(state, kind, payload)
    except TableeError as exc:
        raise type(exc)(N_("{what}: {error}"), what=_what(kind, payload), error=exc) from exc
    decided = decision.events[0].payload()
    for key in RESULT_FIELDS:
        if key in decided and decided[key] != payload.get(key):
            raise InputError(
                N_("{what}: the stored {field} {stored!r} is not what its dice give ({decided!r})"),
                what=_what(kind, payload),
                field=key,
                stored=payload.get(key),
                decided=decided[key],
            )
    return decision.after


def _what(kind: str, p: Mapping[str, JSON]) -> Message:
    who = p.get("player") or p.get("active") or ""
    return Message(N_("{kind} by {who}") if who else "{kind}", kind=kind, who=who)
