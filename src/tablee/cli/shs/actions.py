"""``tablee shs test|opposed|cooperation|simultaneous``: rolled Actions and their price.

Each command plans the Action against the table, throws the dice the plan needs (typed in,
seeded or fair), then appends the decision taken with those faces.

Source: seed 003; rulings S-M2, S-M4 to S-M7, S-A1 to S-A5, S-A7.
"""

from __future__ import annotations

from typing import Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.common import applied_head
from tablee.cli.shs.attempts import (
    SPEC_HELP,
    action_attempt,
    action_lines,
    add_attempt_options,
    attempt_of_test,
    cooperation_odds_json,
    cooperation_odds_text,
    head_of_test,
    json_of_test,
    member_attempt,
    odds_json,
    odds_text,
    opposed_odds_json,
    opposed_odds_text,
    outcome_word,
)
from tablee.cli.shs.common import Dice, Tr, counters_after, dice_options, game_of, state_of

__all__ = ["BUILDERS", "cmd_cooperation", "cmd_opposed", "cmd_simultaneous", "cmd_test"]


def cmd_test(ctx: Context) -> int:
    """``tablee shs test``: a Test (S-M2) with typed, seeded or fair dice, and its price."""
    from tablee.systems.shs import decide_test, plan_test, ps_distribution, success_probability

    a = ctx.args
    attempt = attempt_of_test(a)
    table, game = state_of(ctx)
    test = plan_test(game, attempt)
    dice = Dice(ctx)
    action_faces, dpm_faces = dice.throw(test.action, game.options)
    dice.finish()
    applied = ctx.service.execute(
        table,
        lambda s: decide_test(
            game_of(s),
            attempt,
            action_faces=action_faces,
            dpm_faces=dpm_faces,
            long_action=a.long_action,
            reason=a.reason or "",
        ),
        lambda d: d.facts,
    )
    result = applied.decision.outcome
    doc = dict(applied.events[-1].payload)
    odds = None
    if a.odds:
        odds = ps_distribution(test, game.options), success_probability(test, game.options)
    if ctx.json:
        out = {
            **applied_head(applied),
            **json_of_test(doc, result, ctx),
            **counters_after(applied, doc["protagonist"]),
        }
        if odds is not None:
            out["odds"] = odds_json(*odds)
        ctx.emit_json(out)
        return 0
    if odds is not None:
        ctx.emit(odds_text(ctx, *odds))
    lines = action_lines(ctx, doc, result.trace, head_of_test(ctx, doc))
    lines.append(
        ctx.tr("PS {ps} against Difficulty {difficulty}: {outcome}").format(
            ps=doc["ps"], difficulty=doc["difficulty"], outcome=outcome_word(ctx, doc["success"])
        )
    )
    ctx.emit("\n".join(lines))
    return 0


def cmd_opposed(ctx: Context) -> int:
    """``tablee shs opposed``: Protagoniste against Protagoniste (S-M4, S-A5)."""
    from tablee.systems.shs import decide_opposed, opposed_odds, plan_opposed

    a = ctx.args
    first = member_attempt(a.first, what="--first", difficulty=None)
    second = member_attempt(a.second, what="--second", difficulty=None)
    changer = None if a.changer == "none" else a.changer
    table, game = state_of(ctx)
    plan = plan_opposed(game, first, second, changer)
    dice = Dice(ctx)
    one = dice.throw(plan.first, game.options)
    two = dice.throw(plan.second, game.options)
    dice.finish()
    applied = ctx.service.execute(
        table,
        lambda s: decide_opposed(
            game_of(s),
            first,
            second,
            first_faces=one,
            second_faces=two,
            changer=changer,
            reason=a.reason or "",
        ),
        lambda d: d.facts,
    )
    result = applied.decision.outcome
    doc = dict(applied.events[-1].payload)
    odds = opposed_odds(plan, game.options) if a.odds else None
    if ctx.json:
        out = {**applied_head(applied), **doc, "trace": [s.render(ctx.tr) for s in result.trace]}
        if odds is not None:
            out["odds"] = opposed_odds_json(odds)
        ctx.emit_json(out)
        return 0
    lines = [] if odds is None else opposed_odds_text(ctx, odds, doc)
    for side, part in (("first", result.first), ("second", result.second)):
        d = doc[side]
        from tablee.systems.shs import characteristic_named

        head = (
            f"{d['protagonist']} ({characteristic_named(d['characteristic']).title}): {d['ps']} PS"
        )
        lines += action_lines(ctx, d, part.trace, head)
    lines.append(f"[bold]{_verdict(ctx, doc)}[/]")
    ctx.emit("\n".join(lines))
    return 0


def _verdict(ctx: Context, doc: dict[str, Any]) -> str:
    """Who prevails in an opposed Action and, on a tie, who keeps what (S-A3, S-A5)."""
    winner, ps = doc["winner"], doc["first"]["ps"]
    if doc["reroll"]:
        return ctx.tr("A tie at {ps} PS: roll again (option opposed_tie, S-A5).").format(ps=ps)
    if winner is None:
        return ctx.tr(
            "A tie at {ps} PS: neither side achieves its goal, the situation stays as it was "
            "(rules S-A3, S-A5)."
        ).format(ps=ps)
    if doc["tie"]:
        changer = "second" if winner == "first" else "first"
        return ctx.tr(
            "A tie at {ps} PS: {changer} sought the change and does not get it; {holder} keeps "
            "the situation as it was (rules S-A3, S-A5)."
        ).format(ps=ps, changer=doc[changer]["protagonist"], holder=doc[winner]["protagonist"])
    return ctx.tr("{name} prevails.").format(name=doc[winner]["protagonist"])


def cmd_cooperation(ctx: Context) -> int:
    """``tablee shs cooperation``: each cooperator rolls with Bonus 1; one success suffices."""
    from tablee.systems.shs import (
        Cooperation,
        cooperation_odds,
        decide_cooperation,
        difficulty_named,
        plan_cooperation,
    )

    a = ctx.args
    difficulty = difficulty_named(a.difficulty)
    members = [member_attempt(m, what="--member", difficulty=difficulty) for m in a.member]
    table, game = state_of(ctx)
    tests = plan_cooperation(game, members)
    dice = Dice(ctx)
    faces = [dice.throw(t.action, game.options) for t in tests]
    dice.finish()
    applied = ctx.service.execute(
        table,
        lambda s: decide_cooperation(game_of(s), members, faces=faces, reason=a.reason or ""),
        lambda d: d.facts,
    )
    result = applied.decision.outcome
    doc = dict(applied.events[-1].payload)
    odds = None
    if a.odds:  # the planned Tests carry the cooperation's Bonus 1, which the odds add again
        plain = Cooperation(tuple(t.with_modifiers(bonus=-1) for t in tests))
        odds = cooperation_odds(plain, game.options)
    if ctx.json:
        out = {
            **applied_head(applied),
            **doc,
            "difficulty": difficulty,
            "members": [
                {**json_of_test(m, r, ctx), **counters_after(applied, m["protagonist"])}
                for m, r in zip(doc["members"], result.results, strict=True)
            ],
        }
        if odds is not None:
            out["odds"] = cooperation_odds_json(odds, doc)
        ctx.emit_json(out)
        return 0
    lines = [] if odds is None else cooperation_odds_text(ctx, odds, doc)
    for m, r in zip(doc["members"], result.results, strict=True):
        lines += action_lines(ctx, m, r.trace, head_of_test(ctx, m))
    lines.append(
        "[bold]"
        + ctx.tr("Cooperation (Difficulty {difficulty}): {outcome}").format(
            difficulty=difficulty, outcome=outcome_word(ctx, doc["success"])
        )
        + "[/]"
    )
    ctx.emit("\n".join(lines))
    return 0


def cmd_simultaneous(ctx: Context) -> int:
    """``tablee shs simultaneous``: one Protagoniste's Actions at once, Malus k - 1 (S-M7)."""
    from tablee.systems.shs import decide_simultaneous, plan_simultaneous

    a = ctx.args
    actions = [action_attempt(a.protagoniste, t) for t in a.action]
    table, game = state_of(ctx)
    tests = plan_simultaneous(game, actions, a.trivial)
    dice = Dice(ctx)
    faces = [dice.throw(t.action, game.options) for t in tests]
    dice.finish()
    applied = ctx.service.execute(
        table,
        lambda s: decide_simultaneous(
            game_of(s), actions, faces=faces, trivial=a.trivial, reason=a.reason or ""
        ),
        lambda d: d.facts,
    )
    results = applied.decision.outcome
    doc = dict(applied.events[-1].payload)
    if ctx.json:
        out = {
            **applied_head(applied),
            **doc,
            "actions": [
                json_of_test(m, r, ctx) for m, r in zip(doc["actions"], results, strict=True)
            ],
            **counters_after(applied, doc["protagonist"]),
        }
        ctx.emit_json(out)
        return 0
    count = len(doc["actions"]) + doc["trivial"]
    lines = [
        ctx.ntr(
            "{name}: {count} simultaneous Action, Malus {malus} (rule S-M7)",
            "{name}: {count} simultaneous Actions, Malus {malus} on each (rule S-M7)",
            count,
        ).format(name=doc["protagonist"], count=count, malus=doc["set_malus"])
    ]
    for m, r in zip(doc["actions"], results, strict=True):
        lines += action_lines(ctx, m, r.trace, head_of_test(ctx, m))
        lines.append(
            ctx.tr("PS {ps} against Difficulty {difficulty}: {outcome}").format(
                ps=m["ps"], difficulty=m["difficulty"], outcome=outcome_word(ctx, m["success"])
            )
        )
    ctx.emit("\n".join(lines))
    return 0


# --- the parsers ---------------------------------------------------------------------------------


def _add_test(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("test", help=tr("a Test (Caractéristique, Difficulté) (S-M2)"))
    p.add_argument("--protagoniste", required=True, metavar="NAME", help=tr("who acts"))
    p.add_argument("--characteristic", metavar="NAME", help=tr("the Caractéristique used"))
    p.add_argument(
        "--difficulty", metavar="D", help=tr("PS needed, 1 or more (or Difficile, Extrême)")
    )
    p.add_argument(
        "--test", metavar='"Test (Science, 3)"', help=tr("the text's notation, instead of both")
    )
    add_attempt_options(p, tr)
    p.add_argument(
        "--long-action",
        metavar="LABEL",
        help=tr("roll this Action over several Tours, in its last Tour (S-T6)"),
    )
    dice_options(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_test)


def _add_opposed(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser(
        "opposed",
        help=tr("Protagoniste against Protagoniste: the more PS wins (S-M4)"),
        description=tr(SPEC_HELP),
    )
    p.add_argument(
        "--first", required=True, metavar="NAME:CARACTERISTIQUE[:option...]", help=tr("one side")
    )
    p.add_argument(
        "--second",
        required=True,
        metavar="NAME:CARACTERISTIQUE[:option...]",
        help=tr("the other side"),
    )
    p.add_argument(
        "--changer",
        choices=("first", "second", "none"),
        default="first",
        help=tr("the side seeking change, which loses a tie (S-A5); default: first"),
    )
    dice_options(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_opposed)


def _add_cooperation(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser(
        "cooperation",
        help=tr("Protagonistes cooperating: Bonus 1 each, one success suffices (S-M6)"),
        description=tr(SPEC_HELP),
    )
    p.add_argument(
        "--member",
        action="append",
        required=True,
        metavar="NAME:CARACTERISTIQUE[:option...]",
        help=tr("a cooperator (2 or more)"),
    )
    p.add_argument("--difficulty", required=True, metavar="D", help=tr("the shared Difficulty"))
    dice_options(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_cooperation)


def _add_simultaneous(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser(
        "simultaneous",
        help=tr("one Protagoniste's simultaneous Actions, Malus k - 1 on each (S-M7)"),
        description=tr(SPEC_HELP),
    )
    p.add_argument("--protagoniste", required=True, metavar="NAME", help=tr("who acts"))
    p.add_argument(
        "--action",
        action="append",
        required=True,
        metavar="CARACTERISTIQUE:DIFFICULTY[:option...]",
        help=tr("a rolled Action (repeatable); at most one option in the set"),
    )
    p.add_argument(
        "--trivial",
        type=whole_number(tr),
        default=0,
        metavar="N",
        help=tr("trivial Actions attempted at the same time (they count)"),
    )
    dice_options(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_simultaneous)


BUILDERS = {
    "test": _add_test,
    "opposed": _add_opposed,
    "cooperation": _add_cooperation,
    "simultaneous": _add_simultaneous,
}
"""The builders of ``test``, ``opposed``, ``cooperation`` and ``simultaneous``."""
