"""How Tablée 0.1.0 folded a YBS log: every event decided again, its payload compared.

Tables written by Tablée 0.1.0 whose log holds an undo rely on this fold: such an undo did
not record how it changed the events after it (the tokens a later test found, for one); the
rules worked it out on every load. `legacy_evolve` keeps that behaviour for those tables:
each stored event's inputs (who, which trait, which assistants, how many tokens forced, which
faces, how much damage) are decided again by the same ``decide_*`` function against the
state reached so far, the stored payload must equal the decided one field by field, and the
state takes what the rules give. Undos written since record their changes, and tables
without an old undo apply recorded outcomes (`tablee.systems.ybs.apply`).

Source: docs/architecture.md, "A history that survives upgrades"; rulings Y-M1 to Y-M9.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from tablee.errors import N_, InputError, Message
from tablee.systems.base import JSON
from tablee.systems.common import decide_again
from tablee.systems.declare import Command
from tablee.systems.options import stored_changes
from tablee.systems.ybs.brawls import (
    decide_encounter_at_table,
    decide_gang_side,
    decide_gang_start,
    decide_gang_stop,
    decide_gang_throw,
)
from tablee.systems.ybs.events import EVENTS
from tablee.systems.ybs.play import (
    decide_critical,
    decide_critical_failure,
    decide_fight_end,
    decide_reroll,
    decide_retreat,
    decide_round,
    decide_test,
)
from tablee.systems.ybs.sessions import (
    decide_create,
    decide_end_session,
    decide_invoke,
    decide_options,
    decide_shichi_fukujin,
    decide_start_session,
)
from tablee.systems.ybs.sheet_changes import (
    decide_attributes,
    decide_damage,
    decide_heal_kega,
    decide_lift_trauma,
    decide_rest,
    decide_star,
    decide_transfer,
    decide_trauma,
)
from tablee.systems.ybs.state import (
    Decision,
    YbsState,
)

__all__ = ["REDECIDE", "legacy_evolve", "with_odds"]

P = Mapping[str, JSON]
_KINDS = {cls.kind: cls for cls in EVENTS}


def _created(s: YbsState, p: P) -> Decision:
    return decide_create(
        s,
        name=p["name"],
        traits=p["traits"],
        attributes=p["attributes"],
        stars=p["stars"],
        uchimi=p["uchimi"],
        kega=p["kega"],
        owner=p["owner"],
        tokens=sum(int(m["count"]) for m in p.get("moves") or []),
    )


def _test(s: YbsState, p: P) -> Decision:
    return decide_test(
        s,
        character=p["character"],
        trait=p["trait"],
        faces=p["faces"],
        second_trait=p["second_trait"],
        combine=p["combine"],
        assistants=p["assistants"],
        force=p["force"],
        purpose=p["purpose"],
        target=p["target"],
        damage=p["damage"] or "uchimi",
        target_armed=p["target_armed"],
        against=p["against"],
        note=p["note"],
        trait_approved=_approved(p),
    )


def _approved(p: P) -> bool:
    """A fight test on another trait than its own was approved by the GM (Y-X3)."""
    if p["purpose"] == "plain":
        return False
    own = "nintai" if p["purpose"] == "gate" else "choushi"
    return p["trait"] != own or p["second_trait"] is not None


def _options(s: YbsState, p: P) -> Decision:
    return decide_options(s, stored_changes(p))


def with_odds(decision: Decision, state: YbsState, command: Command) -> Decision:
    """A rolled command's decision, its first fact recording the odds shown before the roll.

    Args:
        decision: what the rules decided for ``command``.
        state: the state before the roll (the odds are those shown then).
        command: the command; one that shows no odds (a reroll) is left as it is.

    Returns:
        The decision, its first fact's payload with ``odds``: the data of
        `tablee.systems.ybs.answers.odds_before` (exact fractions as ``"p/q"``).

    Source: Y-M3, Y-M7, Y-M8, Y-A3, Y-A13.
    """
    from tablee.systems.ybs.answers import odds_before  # it reads this module's rules

    shown = odds_before(state, command)
    if shown is None or not decision.facts:
        return decision
    first = decision.facts[0]
    fact = replace(first, payload={**first.payload, "odds": shown.data})
    return replace(decision, facts=(fact, *decision.facts[1:]))


def _recorded(kind: str, redecide: Callable[[YbsState, P], Decision]) -> Callable[..., Decision]:
    """A rolled kind decided again, with the odds shown before it when they were recorded.

    Odds not recorded (None: a version-1 event) are left out, so they are not compared.
    """

    def decided(state: YbsState, p: P) -> Decision:
        decision = redecide(state, p)
        if p.get("odds") is None:
            return decision
        command, _ = _KINDS[kind].from_payload(p).inputs()  # type: ignore[attr-defined]
        return with_odds(decision, state, command)

    return decided


def _gang_throw(state: YbsState, p: P) -> Decision:
    """A gang throw decided again: both sides at once, or the side after one that waited."""
    gang = state.gang
    pending = None if gang is None else getattr(gang, "pending", None)
    if pending is None:
        return decide_gang_throw(
            state, keep=p["keep"], gm_keep=p["gm_keep"], faces=p["faces"], gm_faces=p["gm_faces"]
        )
    prefix = "" if pending.side == "gm" else "gm_"
    side = "players" if pending.side == "gm" else "gm"
    return decide_gang_side(state, side=side, keep=p[prefix + "keep"], faces=p[prefix + "faces"])


REDECIDE: dict[str, Callable[[YbsState, P], Any]] = {
    "ybs.character_created": _created,
    "ybs.session_started": lambda s, p: decide_start_session(s),
    "ybs.session_ended": lambda s, p: decide_end_session(s),
    "ybs.attribute_invoked": lambda s, p: decide_invoke(
        s, character=p["character"], attribute=p["attribute"], note=p["note"]
    ),
    "ybs.shichi_fukujin": lambda s, p: decide_shichi_fukujin(
        s, player=p["player"], proposal=p["proposal"]
    ),
    "ybs.damage": lambda s, p: decide_damage(
        s, character=p["character"], uchimi=p["uchimi"], kega=p["kega"], note=p["note"]
    ),
    "ybs.rest": lambda s, p: decide_rest(s, character=p["character"], minutes=p["minutes"]),
    "ybs.kega_healed": lambda s, p: decide_heal_kega(
        s, character=p["character"], count=p["count"], note=p["note"]
    ),
    "ybs.star_awarded": lambda s, p: decide_star(s, character=p["character"], trait=p["trait"]),
    "ybs.traits_transferred": lambda s, p: decide_transfer(
        s, character=p["character"], lower=p["lower"], raise_=p["raise"]
    ),
    "ybs.trauma": lambda s, p: decide_trauma(
        s, character=p["character"], trait=p["trait"], note=p["note"]
    ),
    "ybs.trauma_lifted": lambda s, p: decide_lift_trauma(
        s, character=p["character"], trait=p["trait"], note=p["note"]
    ),
    "ybs.attributes_changed": lambda s, p: decide_attributes(
        s, character=p["character"], add=p["add"], remove=p["remove"]
    ),
    "ybs.options_set": _options,
    "ybs.test": _recorded("ybs.test", _test),
    "ybs.reroll": lambda s, p: decide_reroll(s, faces=[p["face"]]),
    "ybs.critical": lambda s, p: decide_critical(s),
    "ybs.critical_failure": lambda s, p: decide_critical_failure(s),
    "ybs.round_resolved": lambda s, p: decide_round(s),
    "ybs.retreat": lambda s, p: decide_retreat(s, character=p["character"]),
    "ybs.fight_ended": lambda s, p: decide_fight_end(s),
    "ybs.gang_started": lambda s, p: decide_gang_start(
        s,
        fighters=p["fighters"],
        opponents=p["opponents"],
        outnumbered=p["outnumbered"],
        outgunned=p["outgunned"],
        winner_uchimi=p["winner_uchimi"],
        loser_uchimi=p["loser_uchimi"],
        draw_uchimi=p["draw_uchimi"],
    ),
    "ybs.gang_throw": _recorded("ybs.gang_throw", _gang_throw),
    "ybs.gang_side": _recorded(
        "ybs.gang_side",
        lambda s, p: decide_gang_side(s, side=p["side"], keep=p["keep"], faces=p["faces"]),
    ),
    "ybs.gang_stopped": lambda s, p: decide_gang_stop(s, note=p["note"]),
    "ybs.encounter": _recorded(
        "ybs.encounter",
        lambda s, p: decide_encounter_at_table(
            s,
            choices=p["choices"],
            opponents=p["opponents"],
            faces=p["faces"],
            gm_faces=p["gm_faces"],
            outnumbered=p["outnumbered"],
            outgunned=p["outgunned"],
        ),
    ),
}
"""Event kind -> the function deciding it again from its stored inputs."""


def legacy_evolve(state: YbsState, kind: str, payload: Mapping[str, JSON]) -> YbsState:
    """Fold one stored event as Tablée 0.1.0 did: decided again, its payload compared.

    Args:
        state: the state the fold has reached.
        kind: the fact's kind (``ybs.test``...).
        payload: its payload (current version; the boxes a version-2 star records are not
            compared: 0.1.0 did not record them).

    Returns:
        The state after the fact, as the rules give it now.

    Raises:
        RuleError: the fact cannot follow this state (tokens no longer held, an unknown
            character, a reroll with no test before it...).
        InputError: an unknown kind, a missing or malformed field, or a stored result that
            differs from the decided one (an edited fact).

    Source: Y-M1 to Y-M9.
    """
    redecide = REDECIDE.get(kind)
    if redecide is None:
        raise InputError(N_("unknown Yuigahama Bad Seeds event kind {kind!r}"), kind=kind)
    who = payload.get("character") or payload.get("name") or payload.get("player") or ""
    what = Message(N_("{kind} by {who}") if who else "{kind}", kind=kind, who=who)
    records = ("boxes",) if kind == "ybs.star_awarded" else ()
    return decide_again(redecide, state, payload, what, records=records)
