"""Pouyss in the web table: the forms of ``tablee pouyss ...``, the cagnotte at a glance.

Every handler calls the same ``decide_*`` function as the command line, through the table
service; the odds are `tablee.systems.pouyss.action_distribution` and
`opposed_distribution`, as ``tablee odds pouyss``.

Source: issue 6 points 3 and 5; rulings P-M1 to P-M8, P-A7 to P-A13.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tablee.dice import D6
from tablee.errors import N_
from tablee.systems import pouyss
from tablee.systems.pouyss import ActionRoll, Level, OpposedRoll
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.access import Viewer
from tablee.web.systems import (
    GM_AND_PLAYERS,
    Action,
    ActionRequest,
    Field,
    OddsView,
    Panel,
    Translate,
    WebSystem,
    all_players,
    players,
)

__all__ = ["WEB", "PouyssWeb"]


def _counts(req: ActionRequest) -> ActionRoll:
    bonus = req.number("bonus") + req.number("imposed_bonus") + int(req.flag("double_bonus"))
    return ActionRoll(bonus, req.number("malus") + req.number("imposed_malus"))


def _opposed_counts(req: ActionRequest) -> OpposedRoll:
    return OpposedRoll(
        req.number("active_bonus"),
        req.number("active_malus"),
        req.number("passive_bonus"),
        req.number("passive_malus"),
    )


def _view(dist: Any, threshold: int) -> OddsView:
    rows = [(f"{v} {Level(v).title}", dist.probability(v)) for v in range(6, 0, -1)]
    success = dist.probability_where(lambda v: v >= threshold)
    return OddsView(rows, success, N_("success: {threshold} or more"), {"threshold": threshold})


def _roll_odds(req: ActionRequest) -> OddsView:
    dist = pouyss.action_distribution(_counts(req))
    return _view(dist, req.state.game.options.success_threshold)


def _opposed_odds(req: ActionRequest) -> OddsView:
    dist = pouyss.opposed_distribution(_opposed_counts(req))
    return _view(dist, req.state.game.options.success_threshold)


def _roll(req: ActionRequest) -> Applied[Any]:
    player = req.text("player") or (req.viewer.player or "")
    req.acting_as(player)
    visibility = req.visibility()
    faces = req.throw(D6, _counts(req).pool, req.typed())
    return req.execute(
        lambda s: pouyss.decide_roll(
            s.game,
            player=player,
            bonus=req.number("bonus"),
            malus=req.number("malus"),
            imposed_bonus=req.number("imposed_bonus"),
            imposed_malus=req.number("imposed_malus"),
            double_bonus=req.flag("double_bonus"),
            faces=faces,
            reasons=req.lines("reasons"),
            visibility=visibility,
        ),
        lambda d: d.facts,
    )


def _opposed(req: ActionRequest) -> Applied[Any]:
    active = req.text("active") or (req.viewer.player or "")
    req.acting_as(active)
    passive_pc, passive_npc = req.optional("passive"), req.optional("passive_npc")
    visibility = req.visibility()
    counts = _opposed_counts(req)
    faces = req.throw(D6, counts.as_action().pool, req.typed())
    return req.execute(
        lambda s: pouyss.decide_opposed(
            s.game,
            active=active,
            passive=passive_pc or passive_npc or "",
            passive_is_npc=passive_pc is None,
            counts=counts,
            faces=faces,
            visibility=visibility,
        ),
        lambda d: d.facts,
    )


def _pool_change(kind: str) -> Callable[[ActionRequest], Applied[Any]]:
    decide = pouyss.decide_reward if kind == "reward" else pouyss.decide_penalty

    def run(req: ActionRequest) -> Applied[Any]:
        return req.execute(
            lambda s: decide(
                s.game,
                amount=req.number("amount", 1),
                player=req.optional("player"),
                reason=req.text("reason"),
            ),
            lambda d: d.facts,
        )

    return run


def _session(req: ActionRequest) -> Applied[Any]:
    if req.text("step", "start") == "end":
        return req.execute(lambda s: pouyss.decide_end_session(s.game), lambda d: d.facts)
    keep = {"": None, "yes": True, "no": False}.get(req.text("carry_over"))
    start = req.optional_number("cagnotte")
    return req.execute(
        lambda s: pouyss.decide_start_session(s.game, carry_over=keep, cagnotte=start),
        lambda d: d.facts,
    )


def _character(req: ActionRequest) -> Applied[Any]:
    player = req.text("player") or (req.viewer.player or "")
    req.acting_as(player)
    return req.execute(
        lambda s: pouyss.decide_character(
            s.game,
            player=player,
            advantages=req.lines("advantages"),
            disadvantages=req.lines("disadvantages"),
        ),
        lambda d: d.facts,
    )


def _npc_or_player(state: TableState, viewer: Viewer) -> list[tuple[str, str]]:
    return [("", N_("(a non-player character)")), *all_players(state, viewer)]


_ONE_OR_TWO = (("1", "1"), ("2", "2"))
_PLAYER = Field("player", N_("Player"), "choice", players)

ACTIONS: tuple[Action, ...] = (
    Action(
        "roll",
        N_("Action roll"),
        (
            _PLAYER,
            Field("bonus", N_("Bonus dice asked for"), "int", default="0"),
            Field("malus", N_("Malus dice asked for"), "int", default="0"),
            Field(
                "imposed_bonus",
                N_("Bonus dice imposed by the narrator"),
                "int",
                default="0",
                gm_only=True,
            ),
            Field(
                "imposed_malus",
                N_("Malus dice imposed by the narrator"),
                "int",
                default="0",
                gm_only=True,
            ),
            Field("double_bonus", N_("An exceptional advantage: one more bonus die"), "bool"),
            Field("reasons", N_("Justifications (one per line)"), "lines"),
        ),
        _roll,
        GM_AND_PLAYERS,
        rolled=True,
        odds=_roll_odds,
        faces_hint=N_("1 + bonus + malus d6 faces, e.g. 1,4,5,6"),
    ),
    Action(
        "opposed",
        N_("Opposed roll"),
        (
            Field("active", N_("Active player character"), "choice", players),
            Field("passive", N_("Passive player character"), "choice", _npc_or_player),
            Field("passive_npc", N_("Or a passive non-player character")),
            Field("active_bonus", N_("Active side's bonus dice"), "int", default="0"),
            Field("active_malus", N_("Active side's malus dice"), "int", default="0"),
            Field("passive_bonus", N_("Passive side's bonus dice"), "int", default="0"),
            Field("passive_malus", N_("Passive side's malus dice"), "int", default="0"),
        ),
        _opposed,
        GM_AND_PLAYERS,
        rolled=True,
        odds=_opposed_odds,
        faces_hint=N_("the d6 faces of the one roll, e.g. 1,4,5"),
    ),
    Action(
        "reward",
        N_("Reward: dice into the cagnotte"),
        (
            Field("amount", N_("Dice"), "choice", _ONE_OR_TWO, "1"),
            Field("player", N_("Player"), "choice", lambda s, v: [("", "-"), *all_players(s, v)]),
            Field("reason", N_("Why")),
        ),
        _pool_change("reward"),
    ),
    Action(
        "penalty",
        N_("Penalty: dice out of the cagnotte"),
        (
            Field("amount", N_("Dice"), "choice", _ONE_OR_TWO, "1"),
            Field("player", N_("Player"), "choice", lambda s, v: [("", "-"), *all_players(s, v)]),
            Field("reason", N_("Why")),
        ),
        _pool_change("penalty"),
    ),
    Action(
        "session",
        N_("Session"),
        (
            Field(
                "step", N_("Start or end"), "choice", (("start", N_("start")), ("end", N_("end")))
            ),
            Field(
                "carry_over",
                N_("Keep the last session's cagnotte"),
                "choice",
                (("", N_("as the house rules say")), ("yes", N_("yes")), ("no", N_("no"))),
            ),
            Field("cagnotte", N_("Or a start value"), "int", default=""),
        ),
        _session,
    ),
    Action(
        "character",
        N_("Character: advantages and disadvantages"),
        (
            _PLAYER,
            Field("advantages", N_("Advantages (one per line)"), "lines"),
            Field("disadvantages", N_("Disadvantages (one per line)"), "lines"),
        ),
        _character,
        GM_AND_PLAYERS,
    ),
)


class PouyssWeb:
    """The Pouyss module of the web table (see `tablee.web.systems.WebSystem`)."""

    id = "pouyss"
    title = "Pouyss"

    def actions(self) -> Sequence[Action]:
        """The forms: roll, opposed, reward, penalty, session, character."""
        return ACTIONS

    def resources(self, state: TableState, viewer: Viewer, tr: Translate) -> Sequence[Panel]:
        """The session and the cagnotte, then each character's advantages."""
        game = state.game
        status = tr(N_("in progress") if game.in_session else N_("not in progress"))
        rows = [
            (tr(N_("Session")), f"{game.session}"),
            (tr(N_("Status")), status),
            (tr(N_("Cagnotte")), "-" if game.cagnotte is None else str(game.cagnotte)),
        ]
        panels = [Panel(tr(N_("Table")), rows)]
        for player in state.players:
            sheet = game.characters.get(player)
            if sheet is None:
                continue
            panels.append(
                Panel(
                    player,
                    [
                        (tr(N_("Advantages")), ", ".join(sheet.advantages) or "-"),
                        (tr(N_("Disadvantages")), ", ".join(sheet.disadvantages) or "-"),
                    ],
                )
            )
        return panels

    def details(self, event: StoredEvent, state: TableState, tr: Translate) -> Sequence[str]:
        """The trace of a roll, resolved again from its stored faces (the rules explain)."""
        p = event.payload
        try:
            if event.kind == "pouyss.roll":
                bonus = int(p["bonus"]) + int(p["imposed_bonus"]) + int(bool(p["double_bonus"]))
                roll = ActionRoll(bonus, int(p["malus"]) + int(p["imposed_malus"]))
                trace = pouyss.resolve_action_roll(roll, list(p["faces"])).trace
            elif event.kind == "pouyss.opposed":
                counts = OpposedRoll(
                    int(p["active_bonus"]),
                    int(p["active_malus"]),
                    int(p["passive_bonus"]),
                    int(p["passive_malus"]),
                )
                trace = pouyss.resolve_opposed_roll(counts, list(p["faces"])).trace
            else:
                return ()
        except (KeyError, TypeError, ValueError):
            return ()
        return [step.render(tr) for step in trace]


WEB: WebSystem = PouyssWeb()
"""The module's `WebSystem` object."""
