"""YBS characters, sessions and Unmei tokens in the web table.

A new character (W-Y2: a player creates only characters they play), the import of pasted
JSON or TOML sheets, the start and end of a session, invoking an attribute (1 token to its
player) and Shichi Fukujin (W-Y3: a player spends only their own 7 tokens).

Source: docs/web.md, "Yuigahama Bad Seeds at the web table"; seed 004; rulings Y-M1, Y-M2, Y-M4,
Y-A7, Y-A21.
"""

from __future__ import annotations

from typing import Any

from tablee.errors import N_, InputError
from tablee.systems import ybs
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.systems import (
    Action,
    ActionRequest,
    Field,
    facts_of,
    players,
)
from tablee.web.systems.ybs.helpers import (
    BOTH,
    CHARACTER,
    NOTE,
    SHEETS_MAX,
    TRAITS,
    owners,
)

__all__ = ["TOKEN_ACTIONS"]


# --- characters ----------------------------------------------------------------------------------


def _create(req: ActionRequest) -> Applied[Any]:
    owner = req.optional("owner")
    if not req.viewer.is_gm:
        req.acting_as(owner)  # W-Y2: a player creates only characters they play
    traits = {t: req.number(t) for t, _ in TRAITS}
    return req.execute(
        lambda s: ybs.decide_create(
            s.game,
            name=req.text("name"),
            traits=traits,
            attributes=req.lines("attributes"),
            owner=owner,
        ),
        facts_of,
    )


def _import(req: ActionRequest) -> Applied[Any]:
    toml = req.text("format", "json") == "toml"
    sheets = ybs.parse_sheets(req.text("sheets"), toml=toml, where=N_("the pasted text"))

    def decide(state: TableState) -> Any:
        facts: list[Any] = []
        warnings: list[Any] = []
        game = state.game
        for sheet in sheets:
            decision = ybs.decide_create(game, **sheet)
            facts += decision.facts
            warnings += decision.warnings
            game = decision.after
        if not facts:
            raise InputError(N_("no character in the pasted text"))
        return ybs.Decision(tuple(facts), None, tuple(warnings), game)

    return req.execute(decide, facts_of)


# --- sessions and tokens -------------------------------------------------------------------------


def _session(req: ActionRequest) -> Applied[Any]:
    if req.text("step", "start") == "end":
        return req.execute(lambda s: ybs.decide_end_session(s.game), facts_of)
    return req.execute(lambda s: ybs.decide_start_session(s.game), facts_of)


def _invoke(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: ybs.decide_invoke(
            s.game,
            character=req.text("character"),
            attribute=req.text("attribute"),
            note=req.text("note"),
        ),
        facts_of,
    )


def _shichi(req: ActionRequest) -> Applied[Any]:
    player = req.text("player") or (req.viewer.player or "")
    req.acting_as(player)  # W-Y3: a player spends only their own 7 tokens
    return req.execute(
        lambda s: ybs.decide_shichi_fukujin(s.game, player=player, proposal=req.text("proposal")),
        facts_of,
    )


# --- the forms -----------------------------------------------------------------------------------

TOKEN_ACTIONS: tuple[Action, ...] = (
    Action(
        "session",
        N_("Session"),
        (
            Field(
                "step", N_("Start or end"), "choice", (("start", N_("start")), ("end", N_("end")))
            ),
        ),
        _session,
    ),
    Action(
        "invoke",
        N_("Invoke an attribute: 1 token to its player (Y-M2)"),
        (CHARACTER, Field("attribute", N_("Attribute")), NOTE),
        _invoke,
    ),
    Action(
        "shichi",
        N_("Shichi Fukujin: 7 tokens to rewrite the scene"),
        (
            Field("player", N_("Player"), "choice", players),
            Field("proposal", N_("What the GM approved")),
        ),
        _shichi,
        BOTH,
    ),
    Action(
        "character",
        N_("New character"),
        (
            Field("name", N_("Name")),
            Field("owner", N_("Played by"), "choice", owners),
            *(
                Field(t, title, "int", default="0", minimum=ybs.MIN_TRAIT, maximum=ybs.MAX_TRAIT)
                for t, title in TRAITS
            ),
            Field("attributes", N_("Attributes (one per line)"), "lines"),
        ),
        _create,
        BOTH,
    ),
    Action(
        "import",
        N_("Import characters (JSON or TOML)"),
        (
            Field("format", N_("Format"), "choice", (("json", "JSON"), ("toml", "TOML")), "json"),
            Field("sheets", N_("The sheets, pasted"), "lines", max_length=SHEETS_MAX),
        ),
        _import,
    ),
)
"""The forms of sessions, tokens and characters, in the order the page shows them."""
