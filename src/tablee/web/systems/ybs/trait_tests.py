"""YBS trait tests in the web table: the test form, its odds and its follow-ups.

A test (a trait, maybe a second one combined, forced destiny, assistants, an attack or a
defence), s'entêter, the critical success and the critical failure, each through the same
``decide_*`` function as ``tablee ybs test``; the odds are `tablee.systems.ybs.odds_of_test`;
a logged test shows its trace again, resolved from its stored faces.

Who may do what: W-Y1 (a player tests only their characters), W-Y4 (the GM records an
assistance), W-Y5 (a player takes the follow-ups of their own character's test).

Source: docs/web.md, "Yuigahama Bad Seeds at the web table"; seed 004; rulings Y-M3 to Y-M6, Y-A2 to
Y-A11.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablee.dice import D6
from tablee.errors import N_, InputError, RuleError
from tablee.systems import ybs
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.access import can_see
from tablee.web.systems import (
    Action,
    ActionRequest,
    Field,
    Forbidden,
    OddsView,
    Translate,
    seen_by,
    viewer_translate,
)
from tablee.web.systems.ybs.helpers import (
    BOTH,
    COMBINE,
    DAMAGE,
    NOTE,
    POLICY,
    PURPOSES,
    SECOND,
    TRAITS,
    acting_for_character,
    every_character_or_none,
    last_test,
    mean_text,
    own_characters,
    ybs_game,
)

__all__ = ["TEST_ACTIONS", "test_details"]


# --- tests ---------------------------------------------------------------------------------------


def _test(req: ActionRequest) -> Applied[Any]:
    character = req.text("character")
    acting_for_character(req, character)
    assistants = req.lines("assistants")
    if assistants and not req.viewer.is_gm:
        # W-Y4: an assistant's player gives a token; the GM records it once they agree
        raise Forbidden(
            N_("only the game master records an assistance (it spends another's token)")
        )
    visibility = req.visibility()
    faces = req.throw(D6, 1, req.typed())
    return req.execute(
        lambda s: ybs.decide_test(
            s.game,
            character=character,
            trait=req.text("trait"),
            faces=faces,
            second_trait=req.optional("second_trait"),
            combine=req.optional("combine"),
            assistants=assistants,
            force=req.number("force"),
            purpose=req.text("purpose", "plain"),
            target=req.optional("target"),
            damage=req.text("damage", "uchimi"),
            target_armed=req.flag("armed"),
            against=req.optional("against"),
            note=req.text("note"),
        ),
        seen_by(visibility),
    )


def _test_odds(req: ActionRequest) -> OddsView:
    game = ybs_game(req)
    name = ybs.character_named(game, req.text("character"))
    hero = game.characters[name]
    value = hero.trait(ybs.trait_named(req.text("trait")))
    second, combine = req.optional("second_trait"), req.optional("combine")
    if second is not None or combine is not None:
        if second is None or combine is None:
            raise InputError(
                N_("two traits need a way to combine them: average or limit (rule Y-A2)")
            )
        value = ybs.combined_trait(value, hero.trait(ybs.trait_named(second)), combine)
    force = req.number("force")
    held = ybs.plan_tokens(game, name)
    tokens = 0 if held is None else max(held + len(req.lines("assistants")) - force, 0)
    default = "any" if game.options.stubborn == "repeat" else "once"
    policy = req.text("policy") or default
    odds = ybs.odds_of_test(
        value, force=force, tokens=tokens, policy=policy, stubborn_on=game.options.stubborn_on
    )
    tr = viewer_translate(req)
    rows = [
        (tr(N_("success")), odds.success),
        (tr(N_("critical success")), odds.critical),
        (tr(N_("final natural 1")), odds.natural_one),
    ]
    note = N_(
        "trait {trait:+d}, forced {force}, {tokens} tokens left, s'entêter: {policy}; "
        "expected rerolls {rerolls}"
    )
    rerolls = odds.expected_rerolls
    values = {
        "trait": value,
        "force": force,
        "tokens": tokens,
        "policy": tr(dict(POLICY).get(policy, policy)),
        "rerolls": mean_text(rerolls, req.viewer.lang),
    }
    return OddsView(rows, odds.success, note, values)


def _open_test(req: ActionRequest) -> tuple[str, str]:
    """The open test's character and visibility; a player must play that character (W-Y5)."""
    opened = ybs_game(req).test
    if opened is None:
        return "", "all"  # the rules refuse, naming the reason
    acting_for_character(req, str(opened.payload["character"]))
    event = last_test(req.state)
    if event is not None and not can_see(req.viewer, event):
        raise Forbidden(N_("this test is hidden from you: the game master takes its follow-ups"))
    return str(opened.payload["character"]), "all" if event is None else event.visibility


def _stubborn(req: ActionRequest) -> Applied[Any]:
    _name, visibility = _open_test(req)
    faces = req.throw(D6, 1, req.typed())
    return req.execute(lambda s: ybs.decide_reroll(s.game, faces=faces), seen_by(visibility))


def _critical(req: ActionRequest) -> Applied[Any]:
    _name, visibility = _open_test(req)
    return req.execute(lambda s: ybs.decide_critical(s.game), seen_by(visibility))


def _critical_failure(req: ActionRequest) -> Applied[Any]:
    event = last_test(req.state)
    visibility = "all" if event is None else event.visibility
    return req.execute(lambda s: ybs.decide_critical_failure(s.game), seen_by(visibility))


# --- the forms -----------------------------------------------------------------------------------

_TEST_FACES = N_("one d6 face, e.g. 5")


TEST_ACTIONS: tuple[Action, ...] = (
    Action(
        "test",
        N_("Test"),
        (
            Field("character", N_("Character"), "choice", own_characters),
            Field("trait", N_("Trait the GM names"), "choice", TRAITS),
            Field("second_trait", N_("A second trait that also applies (Y-A2)"), "choice", SECOND),
            Field("combine", N_("How the two traits combine"), "choice", COMBINE),
            Field(
                "force",
                N_("Tokens spent to force destiny (+1 each)"),
                "int",
                default="0",
                maximum=3,
            ),
            Field(
                "assistants",
                N_("Assistants, one per line: each one's player gives 1 token (Y-A6)"),
                "lines",
                gm_only=True,
            ),
            Field("purpose", N_("What the test is for"), "choice", PURPOSES, "plain"),
            Field("target", N_("An attack's target"), "choice", every_character_or_none),
            Field("damage", N_("An attack's damage"), "choice", DAMAGE, "uchimi"),
            Field("armed", N_("The target bears a lethal or impressive weapon (Y-A9)"), "bool"),
            Field(
                "against",
                N_("The opponent a defence is against"),
                "choice",
                every_character_or_none,
            ),
            Field("policy", N_("Odds: when the player s'entête"), "choice", POLICY),
            NOTE,
        ),
        _test,
        BOTH,
        rolled=True,
        odds=_test_odds,
        faces_hint=_TEST_FACES,
    ),
    Action(
        "stubborn",
        N_("S'entêter: 1 token to reroll the last test"),
        (),
        _stubborn,
        BOTH,
        rolled=True,
        faces_hint=_TEST_FACES,
    ),
    Action("critical", N_("Critical success: 1 token for the last test's 6"), (), _critical, BOTH),
    Action(
        "critical_failure",
        N_("Critical failure: the last test's 1, 1 token to the player"),
        (),
        _critical_failure,
    ),
)
"""The forms of a test and its follow-ups, in the order the page shows them."""


def test_details(event: StoredEvent, state: TableState, tr: Translate) -> Sequence[str]:
    """The trace of a test so far, resolved again from its stored faces."""
    if event.kind not in ("ybs.test", "ybs.reroll", "ybs.critical", "ybs.critical_failure"):
        return ()
    after = state.after.get(event.seq)
    if after is None or after.test is None:
        return ()
    p = after.test.payload
    try:
        test = ybs.YbsTest(
            int(p["value"]),
            int(p["force"]),
            int(after.test.tokens),
            after.options.stubborn,
            after.options.stubborn_on,
            bool(p["critical_success"]),
            bool(p["critical_failure"]),
            npc=p["player"] is None,
        )
        result = ybs.resolve_test(test, [int(f) for f in p["faces"]])
    except (KeyError, TypeError, ValueError, InputError, RuleError):
        return ()
    return [step.render(tr) for step in result.trace]
