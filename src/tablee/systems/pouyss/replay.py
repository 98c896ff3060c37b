"""Folding stored Pouyss facts into state by deciding each one again.

`evolve` takes a stored fact's *inputs* (who, which counts, which faces, which amount) and
runs the same ``decide_*`` function that produced it, against the state the fold has reached.
So every rule is checked again on every replay: the cagnotte, the session, the player, the
counts, the cap, the faces. The decided result must match the stored one (faces, removed and
kept dice, value, levels), or the log was tampered with. The stored cagnotte numbers are a
record of what was shown at the time; the state takes the value decided now, so undoing an
older event (a carry-over, a clamped penalty) changes what follows as the rules say, and an
undo that would make a later fact impossible is refused.

Source: DESIGN.md "The event log"; rulings P-M1 to P-M8, P-A2 to P-A9.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from tablee.errors import N_, InputError, Message, TableeError
from tablee.systems.base import JSON
from tablee.systems.options import stored_changes
from tablee.systems.pouyss.actions import OpposedRoll
from tablee.systems.pouyss.game import (
    Character,
    Decision,
    PouyssState,
    decide_character,
    decide_end_session,
    decide_opposed,
    decide_options,
    decide_penalty,
    decide_reward,
    decide_roll,
    decide_start_session,
)
from tablee.systems.pouyss.options import PouyssOptions

__all__ = ["EVENT_VERSIONS", "evolve"]

P = Mapping[str, JSON]
RESULT_FIELDS = ("faces", "removed", "kept", "value", "level", "passive_value", "passive_level")


def _started(state: PouyssState, p: P) -> Decision:
    carried = p.get("carried_over") is True
    return decide_start_session(
        state, carry_over=carried, cagnotte=None if carried else p["cagnotte"]
    )


def _roll(state: PouyssState, p: P) -> Decision:
    return decide_roll(
        state,
        player=p["player"],
        bonus=p["bonus"],
        malus=p["malus"],
        imposed_bonus=p["imposed_bonus"],
        imposed_malus=p["imposed_malus"],
        double_bonus=p["double_bonus"],
        faces=p["faces"],
        reasons=p.get("reasons") or (),
    )


def _opposed(state: PouyssState, p: P) -> Decision:
    counts = OpposedRoll(
        p["active_bonus"], p["active_malus"], p["passive_bonus"], p["passive_malus"]
    )
    return decide_opposed(
        state,
        active=p["active"],
        passive=p["passive"],
        passive_is_npc=p["passive_is_npc"] is True,
        counts=counts,
        faces=p["faces"],
    )


def _options(state: PouyssState, p: P) -> Decision:
    return decide_options(state, stored_changes(p))


_REDECIDE: Mapping[str, Callable[[PouyssState, P], Decision]] = {
    "pouyss.session_started": _started,
    "pouyss.session_ended": lambda s, p: decide_end_session(s),
    "pouyss.roll": _roll,
    "pouyss.opposed": _opposed,
    "pouyss.reward": lambda s, p: decide_reward(
        s, amount=p["amount"], player=p.get("player"), reason=p.get("reason") or ""
    ),
    "pouyss.penalty": lambda s, p: decide_penalty(
        s, amount=p["amount"], player=p.get("player"), reason=p.get("reason") or ""
    ),
    "pouyss.character_set": lambda s, p: decide_character(
        s, player=p["player"], advantages=p["advantages"], disadvantages=p["disadvantages"]
    ),
    "pouyss.options_set": _options,
}

EVENT_VERSIONS: Mapping[str, int] = {kind: 1 for kind in _REDECIDE}
"""Current schema version of every Pouyss event kind."""


def evolve(state: PouyssState, kind: str, payload: Mapping[str, JSON]) -> PouyssState:
    """Fold one stored fact into the state by deciding it again (pure).

    Args:
        state: the state the fold has reached.
        kind: the fact's kind.
        payload: its payload (current version).

    Returns:
        The state after the fact.

    Raises:
        RuleError: the fact cannot follow this state (a roll outside a session, a draw larger
            than the cagnotte, a bonus over the cap...): this is what refuses an undo that
            would break a later fact, and an imported log that breaks a rule.
        InputError: an unknown kind, malformed inputs, or a stored result that differs from
            the result of its faces.

    Source: DESIGN.md "The event log"; P-M1 to P-M8.
    """
    redecide = _REDECIDE.get(kind)
    if redecide is None:
        raise InputError(N_("unknown Pouyss event kind {kind!r}"), kind=kind)
    try:
        decision = redecide(state, payload)
    except TableeError as exc:
        raise type(exc)(N_("{what}: {error}"), what=_what(kind, payload), error=exc) from exc
    decided = decision.facts[0].payload
    for key in RESULT_FIELDS:
        if key in decided and decided[key] != payload.get(key):
            raise InputError(
                N_("{what}: the stored {field} {stored!r} is not what its dice give ({decided!r})"),
                what=_what(kind, payload),
                field=key,
                stored=payload.get(key),
                decided=decided[key],
            )
    return _apply(state, kind, decided, decision)


def _what(kind: str, p: P) -> Message:
    who = p.get("player") or p.get("active") or ""
    return Message(N_("{kind} by {who}") if who else "{kind}", kind=kind, who=who)


def _apply(state: PouyssState, kind: str, p: P, decision: Decision) -> PouyssState:
    after = decision.move.after if decision.move is not None else state.cagnotte
    if kind == "pouyss.session_started":
        rewards = state.rewards if state.options.reward_limit_scope == "campaign" else 0
        return replace(
            state,
            cagnotte=int(p["cagnotte"]),
            session=int(p["session"]),
            in_session=True,
            rewards=rewards,
            doubles=0,
        )
    if kind == "pouyss.session_ended":
        return replace(state, in_session=False)
    if kind == "pouyss.roll":
        return replace(state, cagnotte=after, doubles=state.doubles + int(p["double_bonus"]))
    if kind == "pouyss.reward":
        return replace(state, cagnotte=after, rewards=state.rewards + int(p["amount"]))
    if kind == "pouyss.character_set":
        character = Character(tuple(p["advantages"]), tuple(p["disadvantages"]))
        return replace(state, characters={**state.characters, str(p["player"]): character})
    if kind == "pouyss.options_set":
        return replace(state, options=PouyssOptions.from_json(p["options"]))
    return replace(state, cagnotte=after)
