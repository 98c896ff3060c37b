"""YBS damage, individual fights and evolution in the web table.

Uchimi and Kega dealt, rest and Kega healed by care; an individual fight's round, a
retreat (W-Y6: a player may retreat their own character) and its end; a character's
evolution: a star, a trait transfer (the player's own call), a trauma or attributes gained
and lost (W-Y7: the GM's call).

Source: docs/web.md, "Yuigahama Bad Seeds at the web table"; seed 004; rulings Y-M5, Y-M6, Y-M9,
Y-A9, Y-A10, Y-A19, Y-A20, Y-A22.
"""

from __future__ import annotations

from typing import Any

from tablee.errors import N_
from tablee.systems import ybs
from tablee.table.service import Applied
from tablee.web.systems import (
    Action,
    ActionRequest,
    Field,
    facts_of,
)
from tablee.web.systems.ybs.helpers import (
    BOTH,
    CHARACTER,
    NOTE,
    TRAITS,
    acting_for_character,
    own_characters,
)

__all__ = ["FIGHT_ACTIONS"]


# --- damage, fights, evolution -------------------------------------------------------------------


def _damage(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: ybs.decide_damage(
            s.game,
            character=req.text("character"),
            uchimi=req.number("uchimi"),
            kega=req.number("kega"),
            note=req.text("note"),
        ),
        facts_of,
    )


def _rest(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: ybs.decide_rest(
            s.game, character=req.text("character"), minutes=req.number("minutes")
        ),
        facts_of,
    )


def _heal(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: ybs.decide_heal_kega(
            s.game,
            character=req.text("character"),
            count=req.number("count", 1),
            note=req.text("note"),
        ),
        facts_of,
    )


def _fight(req: ActionRequest) -> Applied[Any]:
    step = req.text("step", "resolve")
    if step == "retreat":
        character = req.text("character")
        acting_for_character(req, character)  # W-Y6: a player may retreat their own character
        return req.execute(lambda s: ybs.decide_retreat(s.game, character=character), facts_of)
    req.require_gm()
    decide = ybs.decide_round if step == "resolve" else ybs.decide_fight_end
    return req.execute(lambda s: decide(s.game), facts_of)


def _evolve(req: ActionRequest) -> Applied[Any]:
    step = req.text("step", "star")
    character = req.text("character")
    if step != "transfer":
        req.require_gm()  # W-Y7: stars, traumas and attributes are the GM's call
    acting_for_character(req, character)
    if step == "star":
        return req.execute(
            lambda s: ybs.decide_star(s.game, character=character, trait=req.text("trait")),
            facts_of,
        )
    if step == "transfer":
        return req.execute(
            lambda s: ybs.decide_transfer(
                s.game, character=character, lower=req.text("lowered"), raise_=req.text("raised")
            ),
            facts_of,
        )
    if step == "trauma":
        return req.execute(
            lambda s: ybs.decide_trauma(
                s.game, character=character, trait=req.text("trait"), note=req.text("note")
            ),
            facts_of,
        )
    return req.execute(
        lambda s: ybs.decide_attributes(
            s.game, character=character, add=req.lines("add"), remove=req.lines("remove")
        ),
        facts_of,
    )


# --- the forms -----------------------------------------------------------------------------------

FIGHT_ACTIONS: tuple[Action, ...] = (
    Action(
        "damage",
        N_("Damage: Uchimi and Kega"),
        (
            CHARACTER,
            Field("uchimi", "Uchimi", "int", default="0"),
            Field("kega", "Kega", "int", default="0"),
            Field("note", N_("The wound's nature or care")),
        ),
        _damage,
    ),
    Action(
        "rest",
        N_("Rest"),
        (CHARACTER, Field("minutes", N_("Minutes of rest"), "int", default="30")),
        _rest,
    ),
    Action(
        "heal",
        N_("Kega healed by care"),
        (CHARACTER, Field("count", N_("Kega healed"), "int", default="1"), NOTE),
        _heal,
    ),
    Action(
        "fight",
        N_("Individual fight"),
        (
            Field(
                "step",
                N_("What happens"),
                "choice",
                (
                    ("resolve", N_("resolve the round's attacks")),
                    ("retreat", N_("a character retreats")),
                    ("end", N_("the fight ends")),
                ),
                "resolve",
            ),
            Field("character", N_("Who retreats"), "choice", own_characters),
        ),
        _fight,
        BOTH,
    ),
    Action(
        "evolve",
        N_("Evolution: star, transfer, trauma, attributes"),
        (
            Field("character", N_("Character"), "choice", own_characters),
            Field(
                "step",
                N_("What changes"),
                "choice",
                (
                    ("star", N_("a star for a trait")),
                    ("transfer", N_("lower one trait by 1 to raise another")),
                    ("trauma", N_("a trauma: a trait becomes -1")),
                    ("attributes", N_("attributes gained or lost")),
                ),
                "star",
            ),
            Field("trait", N_("Trait (star, trauma)"), "choice", TRAITS),
            Field("lowered", N_("Trait lowered (transfer)"), "choice", TRAITS),
            Field("raised", N_("Trait raised (transfer)"), "choice", TRAITS),
            Field("add", N_("Attributes gained (one per line)"), "lines"),
            Field("remove", N_("Attributes lost (one per line)"), "lines"),
            NOTE,
        ),
        _evolve,
        BOTH,
    ),
)
"""The forms of damage, individual fights and evolution, in page order."""
