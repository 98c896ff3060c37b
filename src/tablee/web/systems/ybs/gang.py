"""YBS gang fights and unexpected encounters (Ichika Bachika) in the web table.

Starting, throwing and stopping a gang fight, with the advisor's keep choices
(`tablee.systems.ybs.advisor.advise`) and the odds of `tablee.systems.ybs.gang_odds`; the
encounter form with each player's secret choice (flee, gang fight or Ichika Bachika) and its
odds (`encounter_odds`). A player throws only for a gang fight their character fights in;
a hidden throw hides the hands and their odds too.

Source: docs/web.md, "Yuigahama Bad Seeds at the web table"; seed 004; rulings Y-M7, Y-M8, Y-A12 to
Y-A18.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tablee.errors import N_, InputError, RuleError
from tablee.systems import ybs
from tablee.systems.ybs.advisor import advise, advised_keeps
from tablee.systems.ybs.gang import Keeps, dice_for_throw
from tablee.systems.ybs.gang_odds import encounter_odds, gang_fight_odds
from tablee.systems.ybs.ichika import decide_encounter
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.access import Viewer, can_see
from tablee.web.systems import (
    Action,
    ActionRequest,
    Field,
    Forbidden,
    OddsView,
    Translate,
    decimal_text,
    facts_of,
    seen_by,
    viewer_translate,
)
from tablee.web.systems.ybs.helpers import (
    BOTH,
    NOTE,
    SIDES,
    keep_faces,
    mean_text,
    typed_side,
    ybs_game,
)

__all__ = [
    "GANG_ACTIONS",
    "gang_rows",
    "throw_hidden",
]


# --- gang fights, Ichika Bachika -----------------------------------------------------------------


def _gang_start(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: ybs.decide_gang_start(
            s.game,
            fighters=req.lines("fighters"),
            opponents=req.lines("opponents"),
            outnumbered=req.optional("outnumbered"),
            outgunned=req.optional("outgunned"),
            winner_uchimi=req.optional_number("winner_uchimi"),
            loser_uchimi=req.optional_number("loser_uchimi"),
            draw_uchimi=req.optional_number("draw_uchimi"),
        ),
        facts_of,
    )


def _gang_now(req: ActionRequest) -> Any:
    gang = ybs_game(req).gang
    if gang is None:
        raise RuleError(
            N_("no gang fight is going on (rule Y-M7)"),
            tip=N_("start one with 'tablee ybs gang start --fighter NAME'"),
        )
    return gang


def _gang_throw(req: ActionRequest) -> Applied[Any]:
    gang = _gang_now(req)
    if not req.viewer.is_gm and not any(
        req.viewer.is_player(ybs_game(req).owners.get(n)) for n in gang.fighters
    ):
        raise Forbidden(N_("a player throws only for a gang fight their character fights in"))
    visibility = req.visibility()
    advised = advised_keeps(gang.fight)
    keeps = Keeps(
        keep_faces(req.text("keep"), advised.players), keep_faces(req.text("gm_keep"), advised.gm)
    )
    ours, theirs = dice_for_throw(gang.fight, keeps)
    faces = typed_side(req, "faces", ours.count)
    gm_faces = typed_side(req, "gm_faces", theirs.count)
    return req.execute(
        lambda s: ybs.decide_gang_throw(
            s.game, keep=keeps.players, gm_keep=keeps.gm, faces=faces, gm_faces=gm_faces
        ),
        seen_by(visibility),
    )


def throw_hidden(state: TableState, viewer: Viewer) -> bool:
    """Whether the gang fight's last throw is hidden from the viewer (so are the hands)."""
    gang = state.game.gang
    if gang is None or gang.fight.throws == 0:
        return False
    event = next(
        (
            e
            for e in reversed(state.events)
            if e.kind == "ybs.gang_throw" and e.seq not in state.voided
        ),
        None,
    )
    return event is not None and not can_see(viewer, event)


def _gang_odds(req: ActionRequest) -> OddsView:
    gang = _gang_now(req)
    fight = gang.fight
    tr = viewer_translate(req)
    if throw_hidden(req.state, req.viewer):
        raise Forbidden(N_("the last throw is hidden from you, and so are its dice and their odds"))
    if fight.throws == 0:
        odds = gang_fight_odds(
            fight.players_dice,
            fight.gm_dice,
            higher_straight_wins=ybs_game(req).options.higher_straight_wins,
        )
        return _win_draw_loss(tr, req.viewer.lang, odds, fight.players_dice, fight.gm_dice)
    rows: list[tuple[str, Fraction]] = []
    sides = ((tr(N_("the players")), fight.players_hand), (tr(N_("the GM's side")), fight.gm_hand))
    template = tr(N_("{side}: keep {kept}, reroll {reroll} ({throws} throws expected)"))
    for side, hand in sides:
        for choice in advise(hand).choices:
            label = template.format(
                side=side,
                kept=" ".join(str(f) for f in choice.kept) or "-",
                reroll=choice.rerolled,
                throws=decimal_text(choice.expected_throws, req.viewer.lang),
            )
            rows.append((label, choice.straight_probability))
    hands = {
        "hand": " ".join(str(f) for f in fight.players_hand),
        "gm_hand": " ".join(str(f) for f in fight.gm_hand),
    }
    note = N_(
        "chance of a straight on the next throw for each keep choice, best first "
        "(players {hand}, GM {gm_hand})"
    )
    return OddsView(rows, None, note, hands)


def _win_draw_loss(tr: Translate, lang: str, odds: Any, dice: int, against: int) -> OddsView:
    rows = [(tr(N_("win")), odds.win), (tr(N_("draw")), odds.draw), (tr(N_("loss")), odds.loss)]
    expected = odds.expected_throws
    note = N_("the players' {dice} dice against {against}, both sides advised; {throws} throws")
    values = {
        "dice": dice,
        "against": against,
        "throws": mean_text(expected, lang),
    }
    return OddsView(rows, odds.win, note, values)


def _choices(req: ActionRequest) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in req.lines("choices"):
        player, sep, choice = line.partition("=")
        if not sep or not player.strip():
            raise InputError(N_("{value!r}: expected PLAYER=CHOICE"), value=line)
        found[player.strip()] = choice.strip().lower().replace("-", "_").replace(" ", "_")
    return found


def _ichika(req: ActionRequest) -> Applied[Any]:
    choices = _choices(req)
    visibility = req.visibility()
    game = ybs_game(req)
    kind = decide_encounter({ybs.player_named(game, p): c for p, c in choices.items()}).kind
    striking = kind == "ichika_bachika"
    faces = typed_side(req, "faces", 5) if striking else []
    gm_faces = typed_side(req, "gm_faces", 5) if striking else []
    return req.execute(
        lambda s: ybs.decide_encounter_at_table(
            s.game,
            choices=choices,
            opponents=req.lines("opponents"),
            faces=faces,
            gm_faces=gm_faces,
            outnumbered=req.optional("outnumbered"),
            outgunned=req.optional("outgunned"),
        ),
        seen_by(visibility),
    )


def _ichika_odds(req: ActionRequest) -> OddsView:
    game = ybs_game(req)
    choices = {ybs.player_named(game, p): c for p, c in _choices(req).items()}
    options = game.options
    found = encounter_odds(
        choices,
        outnumbered=ybs.side_named(req.optional("outnumbered")),
        outgunned=ybs.side_named(req.optional("outgunned")),
        mixed_disadvantages=options.mixed_disadvantages,
        higher_straight_wins=options.higher_straight_wins,
        tie=options.ichika_tie,
    )
    if found.odds is None:
        tr = viewer_translate(req)
        return OddsView([(tr(N_("everyone flees: no dice are thrown")), Fraction(1))])
    tr = viewer_translate(req)
    odds = found.odds
    rows = [(tr(N_("win")), odds.win), (tr(N_("draw")), odds.draw), (tr(N_("loss")), odds.loss)]
    kinds = {"ichika_bachika": "Ichika Bachika", "gang_fight": tr(N_("a gang fight"))}
    note = N_("{kind}: the players' chances, {fighters} fighting")
    values = {"kind": kinds.get(found.kind, found.kind), "fighters": ", ".join(found.fighters)}
    return OddsView(rows, odds.win, note, values)


def _gang_stop(req: ActionRequest) -> Applied[Any]:
    return req.execute(lambda s: ybs.decide_gang_stop(s.game, note=req.text("note")), facts_of)


# --- the forms -----------------------------------------------------------------------------------

_GM_FACES_HINT = N_("The GM's side's new faces (empty: the server rolls)")

GANG_ACTIONS: tuple[Action, ...] = (
    Action(
        "gang_start",
        N_("Gang fight: start"),
        (
            Field("fighters", N_("The players' fighters (one per line)"), "lines"),
            Field("opponents", N_("The GM's named characters (one per line)"), "lines"),
            Field("outnumbered", N_("Outnumbered side"), "choice", SIDES),
            Field("outgunned", N_("Outgunned side"), "choice", SIDES),
            Field("winner_uchimi", N_("Uchimi per winner (default 1)"), "int", default=""),
            Field("loser_uchimi", N_("Uchimi per loser (default 3)"), "int", default=""),
            Field("draw_uchimi", N_("Uchimi each on a draw (default 2)"), "int", default=""),
        ),
        _gang_start,
    ),
    Action(
        "gang_throw",
        N_("Gang fight: a throw, with the advisor"),
        (
            Field(
                "keep",
                N_("Faces the players keep (advised, none, or faces)"),
                default="advised",
            ),
            Field(
                "gm_keep",
                N_("Faces the GM's side keeps (advised, none, or faces)"),
                default="advised",
                gm_only=True,
            ),
            Field("gm_faces", _GM_FACES_HINT, gm_only=True),
        ),
        _gang_throw,
        BOTH,
        rolled=True,
        odds=_gang_odds,
        faces_hint=N_("the players' new faces, e.g. 1,3,4,6"),
    ),
    Action("gang_stop", N_("Gang fight: stop, no damage"), (NOTE,), _gang_stop),
    Action(
        "ichika",
        N_("Unexpected encounter: flee, gang fight or Ichika Bachika"),
        (
            Field(
                "choices",
                N_(
                    "Each player's secret choice, one per line: "
                    "PLAYER=flee|gang_fight|ichika_bachika"
                ),
                "lines",
            ),
            Field("opponents", N_("The GM's named characters (one per line)"), "lines"),
            Field("outnumbered", N_("Outnumbered side"), "choice", SIDES),
            Field("outgunned", N_("Outgunned side"), "choice", SIDES),
            Field("gm_faces", _GM_FACES_HINT),
        ),
        _ichika,
        rolled=True,
        odds=_ichika_odds,
        faces_hint=N_("Ichika Bachika: the players' 5 faces"),
    ),
)
"""The forms of gang fights and encounters, in the order the page shows them."""


def gang_rows(gang: dict[str, Any], tr: Translate, hidden: bool) -> list[tuple[str, str]]:
    """The rows of the gang-fight panel: sides, dice, kept hands (hidden when ``hidden``)."""

    def hand(faces: Any) -> str:
        if hidden:
            return tr(N_("hidden"))
        return " ".join(str(f) for f in faces) or "-"

    return [
        (tr(N_("The players' fighters")), ", ".join(gang["fighters"])),
        (tr(N_("The GM's side")), ", ".join(gang["opponents"]) or "-"),
        (tr(N_("Dice")), f"{gang['players_dice']} / {gang['gm_dice']}"),
        (tr(N_("Throws")), str(gang["throws"])),
        (tr(N_("The players' dice")), hand(gang["players_hand"])),
        (tr(N_("The GM's dice")), hand(gang["gm_hand"])),
        (tr(N_("Minutes")), str(gang["minutes"])),
    ]
