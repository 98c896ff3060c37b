"""SHS rolled Actions in the web table: Tests, opposed, cooperative and simultaneous Actions.

The four rolled forms with their exact odds, each through the same ``plan_*``/``decide_*``
function as ``tablee shs``; a logged Action shows its trace again, resolved from its stored
faces with the options in force right after it.

Source: docs/web.md, "Space Horror Stories at the web table"; seed 003; rulings S-M1 to S-M7, S-A1
to S-A8, S-A13, S-A14.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablee.errors import N_, InputError
from tablee.systems import shs
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.systems import (
    Action,
    ActionRequest,
    Field,
    OddsView,
    Translate,
)
from tablee.web.systems.shs.reading import (
    BOTH,
    GM,
    Dice,
    acting_for_protagonist,
    attempt_of,
    cooperation_members,
    difficulty_of,
    every_protagonist,
    own_protagonists,
    side_fields,
    simultaneous_attempts,
)

__all__ = ["ROLLED_ACTIONS", "action_details"]


# --- handlers ------------------------------------------------------------------------------------


def _test(req: ActionRequest) -> Applied[Any]:
    acting_for_protagonist(req, req.text("who"))
    attempt = attempt_of(req, "who", difficulty_of(req))
    visibility = req.visibility()
    game = req.state.game
    test = shs.plan_test(game, attempt)
    dice = Dice(req)
    action_faces, dpm_faces = dice.throw(test.action, game.options)
    dice.finish()
    return req.execute(
        lambda s: shs.decide_test(
            s.game,
            attempt,
            action_faces=action_faces,
            dpm_faces=dpm_faces,
            long_action=req.optional("long_action"),
            reason=req.text("reason"),
            visibility=visibility,
        ),
        lambda d: d.facts,
    )


def _test_odds(req: ActionRequest) -> OddsView:
    game = req.state.game
    test = shs.plan_test(game, attempt_of(req, "who", difficulty_of(req)))
    dist = shs.ps_distribution(test, game.options)
    rows = [(f"{v} PS", dist.probability(v)) for v in sorted(dist.weights, reverse=True)]
    success = shs.success_probability(test, game.options)
    return OddsView(rows, success, N_("Difficulty {difficulty}"), {"difficulty": test.difficulty})


def _opposed(req: ActionRequest) -> Applied[Any]:
    acting_for_protagonist(req, req.text("first"))
    first, second = attempt_of(req, "first", None), attempt_of(req, "second", None)
    takes_something = second.surpass or second.sacrifice or second.expertise
    if takes_something and not req.viewer.is_gm:
        acting_for_protagonist(req, second.protagonist)
    changer = req.text("changer", "first")
    changer_or_none = None if changer == "none" else changer
    visibility = req.visibility()
    game = req.state.game
    plan = shs.plan_opposed(game, first, second, changer_or_none)
    dice = Dice(req)
    one, two = dice.throw(plan.first, game.options), dice.throw(plan.second, game.options)
    dice.finish()
    return req.execute(
        lambda s: shs.decide_opposed(
            s.game,
            first,
            second,
            first_faces=one,
            second_faces=two,
            changer=changer_or_none,
            reason=req.text("reason"),
            visibility=visibility,
        ),
        lambda d: d.facts,
    )


def _opposed_odds(req: ActionRequest) -> OddsView:
    game = req.state.game
    first, second = attempt_of(req, "first", None), attempt_of(req, "second", None)
    changer = req.text("changer", "first")
    plan = shs.plan_opposed(game, first, second, None if changer == "none" else changer)
    dist = shs.opposed_distribution(plan, game.options)
    names = {"first": first.protagonist, "second": second.protagonist}
    rows = [(names.get(str(k), str(k)), dist.probability(k)) for k in sorted(dist.weights)]
    return OddsView(rows)


def _cooperation(req: ActionRequest) -> Applied[Any]:
    members = cooperation_members(req)
    visibility = req.visibility()
    game = req.state.game
    tests = shs.plan_cooperation(game, members)
    dice = Dice(req)
    faces = [dice.throw(t.action, game.options) for t in tests]
    dice.finish()
    return req.execute(
        lambda s: shs.decide_cooperation(
            s.game, members, faces=faces, reason=req.text("reason"), visibility=visibility
        ),
        lambda d: d.facts,
    )


def _cooperation_odds(req: ActionRequest) -> OddsView:
    members = cooperation_members(req)
    tests = shs.plan_cooperation(req.state.game, members)
    plain = shs.Cooperation(tuple(t.with_modifiers(bonus=-1) for t in tests))
    return OddsView((), shs.cooperation_success_probability(plain, req.state.game.options))


def _simultaneous(req: ActionRequest) -> Applied[Any]:
    who = req.text("who")
    acting_for_protagonist(req, who)
    actions = simultaneous_attempts(req, who)
    trivial = req.number("trivial")
    visibility = req.visibility()
    game = req.state.game
    tests = shs.plan_simultaneous(game, actions, trivial)
    dice = Dice(req)
    faces = [dice.throw(t.action, game.options) for t in tests]
    dice.finish()
    return req.execute(
        lambda s: shs.decide_simultaneous(
            s.game,
            actions,
            faces=faces,
            trivial=trivial,
            reason=req.text("reason"),
            visibility=visibility,
        ),
        lambda d: d.facts,
    )


# --- the forms -----------------------------------------------------------------------------------

_ROLL_FIELDS = (Field("reason", N_("A note kept in the log")),)
_FACES_HINT = N_("action dice in order, e.g. 1,5,8; D+/- dice below as +,-,0")

ROLLED_ACTIONS: tuple[Action, ...] = (
    Action(
        "test",
        N_("Test"),
        (
            *side_fields("who", N_("Protagoniste"), own_protagonists),
            Field("difficulty", N_("Difficulty (a number, Difficile or Extrême)"), default="1"),
            Field("long_action", N_("Roll this long Action (its label)"), gm_only=True),
            *_ROLL_FIELDS,
        ),
        _test,
        BOTH,
        rolled=True,
        odds=_test_odds,
        faces_hint=_FACES_HINT,
    ),
    Action(
        "opposed",
        N_("Opposed Action"),
        (
            *side_fields("first", N_("First side"), own_protagonists),
            *side_fields("second", N_("Second side"), every_protagonist),
            Field(
                "changer",
                N_("Who seeks change (loses a tie)"),
                "choice",
                (("first", N_("first side")), ("second", N_("second side")), ("none", N_("none"))),
                "first",
            ),
            *_ROLL_FIELDS,
        ),
        _opposed,
        BOTH,
        rolled=True,
        odds=_opposed_odds,
        faces_hint=_FACES_HINT,
    ),
    Action(
        "cooperation",
        N_("Cooperation"),
        (
            Field(
                "members",
                N_("Cooperators, one per line: NAME:CARACTERISTIQUE[:option...]"),
                "lines",
            ),
            Field("difficulty", N_("Shared Difficulty"), default="1"),
            *_ROLL_FIELDS,
        ),
        _cooperation,
        GM,
        rolled=True,
        odds=_cooperation_odds,
        faces_hint=_FACES_HINT,
    ),
    Action(
        "simultaneous",
        N_("Simultaneous Actions"),
        (
            Field("who", N_("Protagoniste"), "choice", own_protagonists),
            Field(
                "actions",
                N_("Actions, one per line: CARACTERISTIQUE:DIFFICULTY[:option...]"),
                "lines",
            ),
            Field("trivial", N_("Trivial Actions at the same time"), "int", default="0"),
            *_ROLL_FIELDS,
        ),
        _simultaneous,
        BOTH,
        rolled=True,
        faces_hint=_FACES_HINT,
    ),
)
"""The rolled forms: Tests, opposed, cooperative and simultaneous Actions, in page order."""


# --- the log -------------------------------------------------------------------------------------


def action_details(event: StoredEvent, state: TableState, tr: Translate) -> Sequence[str]:
    """The trace of each rolled Action, resolved again from its stored faces.

    The options in force are those right after the event; a trace is shown only when
    resolving again gives the stored PS (else the log line alone says what happened).
    """
    after = state.after.get(event.seq)
    options = state.game.options if after is None else after.options
    p = event.payload
    if event.kind == "shs.test":
        docs: list[tuple[Any, Any]] = [(None, p)]
    elif event.kind == "shs.opposed":
        docs = [(p[k]["protagonist"], p[k]) for k in ("first", "second")]
    elif event.kind == "shs.cooperation":  # each cooperator rolls with a Bonus 1 (S-M6)
        docs = [(m["protagonist"], {**m, "bonus": int(m["bonus"]) + 1}) for m in p["members"]]
    elif event.kind == "shs.simultaneous":  # Malus k - 1 on each Action of the set (S-M7)
        extra = int(p.get("set_malus", 0))
        docs = [
            (_title_of(a["characteristic"]), {**a, "malus": int(a["malus"]) + extra})
            for a in p["actions"]
        ]
    else:
        return ()
    lines: list[str] = []
    for head, doc in docs:
        steps = _trace(doc, options, tr)
        if head is not None and steps:
            lines.append(str(head))
        lines += steps
    return lines


def _title_of(characteristic: object) -> str:
    try:
        return str(shs.characteristic_named(str(characteristic)).title)
    except InputError:
        return str(characteristic)


def _trace(doc: Any, options: Any, tr: Translate) -> list[str]:
    """The steps of one stored Action resolved again, or nothing when they disagree."""
    try:
        roll = shs.ActionRoll(
            int(doc["threshold"]),
            doc["die"] == "d10",
            int(doc["bonus"]) + int(doc.get("temporary_bonus", 0)),
            int(doc["malus"]) + int(doc.get("temporary_malus", 0)),
            doc["option"] == "se_surpasser",
            doc["option"] == "se_sacrifier",
        )
        result = shs.resolve_action(roll, doc["action_faces"], doc["dpm_faces"], options)
    except (KeyError, TypeError, ValueError):
        return []
    if result.ps != doc.get("ps"):
        return []
    return [step.render(tr) for step in result.trace]
