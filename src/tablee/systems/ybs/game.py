"""A YBS table as state folded from facts: characters, tokens, boxes, evolution, options.

Every ``decide_*`` function takes the current `YbsState` and a command's inputs and returns a
`Decision`: the facts to store, the outcome to show, notices that never block, and the state
right after. Folding a stored fact applies its recorded outcome (`tablee.systems.ybs.apply`);
the verifier decides it again from its inputs. Tests and fights are in
`tablee.systems.ybs.play`.

The state lives in `tablee.systems.ybs.state`; the decisions in `tablee.systems.ybs.sessions`
(characters, sessions, tokens, house rules) and `tablee.systems.ybs.sheet_changes` (damage,
care, evolution). This module gathers them under one name.

Every fact but a test's follow-ups (reroll, critical success, critical failure) closes the
test in progress: its follow-ups must come right after it.

Event kinds of these decisions (all version 1): ``ybs.character_created``,
``ybs.session_started``, ``ybs.session_ended``, ``ybs.attribute_invoked``,
``ybs.shichi_fukujin``, ``ybs.damage``, ``ybs.rest``, ``ybs.kega_healed``,
``ybs.star_awarded``, ``ybs.traits_transferred``, ``ybs.trauma``, ``ybs.attributes_changed``,
``ybs.options_set``.

Source: seed 004; rulings Y-M1, Y-M2, Y-M4, Y-M5, Y-M9, Y-A1, Y-A7, Y-A19 to Y-A22.
"""

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
    decide_rest,
    decide_star,
    decide_transfer,
    decide_trauma,
)
from tablee.systems.ybs.state import (
    MAX_CHARACTERS,
    MAX_PLAYERS,
    Decision,
    FightRound,
    GangTable,
    OpenTest,
    YbsState,
    box_json,
    character_json,
    character_named,
    free_text,
    initial_state,
    player_named,
    settled,
    with_boxes,
)

__all__ = [
    "MAX_CHARACTERS",
    "MAX_PLAYERS",
    "Decision",
    "FightRound",
    "GangTable",
    "OpenTest",
    "YbsState",
    "box_json",
    "character_json",
    "character_named",
    "decide_attributes",
    "decide_create",
    "decide_damage",
    "decide_end_session",
    "decide_heal_kega",
    "decide_invoke",
    "decide_options",
    "decide_rest",
    "decide_shichi_fukujin",
    "decide_star",
    "decide_start_session",
    "decide_transfer",
    "decide_trauma",
    "free_text",
    "initial_state",
    "player_named",
    "settled",
    "with_boxes",
]
