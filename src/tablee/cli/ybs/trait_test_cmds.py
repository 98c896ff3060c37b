"""``tablee ybs test`` and its follow-ups: s'entêter, critical success, critical failure.

A test of a trait (a second trait combined, forced destiny, assistants, an attack or a
defence) with its exact odds before the roll, then the follow-ups of the test in progress.

Source: seed 004; rulings Y-M3, Y-M4, Y-M6, Y-A2 to Y-A9.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.render import percent
from tablee.cli.ybs.common import Tr, dice_options, emit_applied, execute, game_of, throw
from tablee.errors import N_

if TYPE_CHECKING:
    pass


__all__ = ["TEST_BUILDERS"]


# --- tests ---------------------------------------------------------------------------------


def _test_extra(applied: Any) -> dict[str, Any]:
    game = game_of(applied.state)
    payload = applied.events[-1].payload
    faces = list(game.test.payload["faces"]) if game.test is not None else []
    return {
        "faces": faces,
        "critical": bool(payload.get("critical_success") or payload.get("critical_failure")),
    }


def _odds_of(ctx: Context, value: int, force: int, tokens: int) -> Any:
    """The exact odds of a test at this table's options (Y-A3)."""
    from tablee.systems.ybs import odds_of_test

    game = game_of(ctx.service.state(ctx.service.resolve_name(ctx.args.table)))
    return odds_of_test(
        value,
        force=force,
        tokens=tokens,
        policy="any" if game.options.stubborn == "repeat" else "once",
        stubborn_on=game.options.stubborn_on,
    )


def _odds_lines(ctx: Context, value: int, force: int, tokens: int) -> str:
    odds = _odds_of(ctx, value, force, tokens)
    return ctx.tr("Odds before rolling: success {success}, critical {critical}").format(
        success=percent(odds.success, ctx.lang), critical=percent(odds.critical, ctx.lang)
    )


def cmd_test(ctx: Context) -> int:
    """``tablee ybs test CHARACTER --trait T``: the first die of a test (Y-M3)."""
    from tablee.systems.ybs import decide_test

    a = ctx.args
    faces = throw(ctx, 1)
    applied = execute(
        ctx,
        lambda g: decide_test(
            g,
            character=a.character,
            trait=a.trait,
            faces=faces,
            second_trait=a.second_trait,
            combine=a.combine,
            assistants=a.assist or [],
            force=a.force,
            purpose=a.purpose,
            target=a.target,
            damage=a.damage,
            target_armed=a.armed,
            against=a.against,
            note=a.note or "",
        ),
    )
    extra = _test_extra(applied)
    if a.odds:
        inputs = applied.decision.outcome.inputs
        if ctx.json:
            from tablee.cli.ybs.odds import fraction_text

            odds = _odds_of(ctx, inputs.trait, inputs.force, inputs.tokens)
            extra["odds"] = {
                "success": fraction_text(odds.success),
                "critical": fraction_text(odds.critical),
            }
        else:
            ctx.emit(_odds_lines(ctx, inputs.trait, inputs.force, inputs.tokens))
    return emit_applied(ctx, applied, extra)


def cmd_follow_up(ctx: Context) -> int:
    """``tablee ybs stubborn|critical|critical-failure``: a follow-up of the last test."""
    from tablee.systems.ybs import decide_critical, decide_critical_failure, decide_reroll

    command = ctx.args.command
    if command == "stubborn":
        faces = throw(ctx, 1)
        applied = execute(ctx, lambda g: decide_reroll(g, faces=faces))
    elif command == "critical":
        applied = execute(ctx, decide_critical)
    else:
        applied = execute(ctx, decide_critical_failure)
    return emit_applied(ctx, applied, _test_extra(applied))


def _add_test(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("test", help=tr("a test: 1d6 + trait, 4 or more succeeds (Y-M3)"))
    p.add_argument("character", metavar="CHARACTER", help=tr("the character's name"))
    p.add_argument("--trait", required=True, metavar="TRAIT", help=tr("the trait the GM names"))
    p.add_argument(
        "--second-trait", metavar="TRAIT", help=tr("a second trait that also applies (Y-A2)")
    )
    p.add_argument(
        "--combine", choices=("average", "limit"), help=tr("how two traits combine (Y-A2)")
    )
    p.add_argument(
        "--assist",
        action="append",
        metavar="CHARACTER",
        help=tr("an assistant: its player gives 1 token (Y-A6)"),
    )
    p.add_argument(
        "--force",
        type=whole_number(tr),
        default=0,
        metavar="0..3",
        help=tr("tokens spent to force destiny, +1 each (Y-M3)"),
    )
    p.add_argument(
        "--purpose",
        choices=("plain", "gate", "attack", "defend"),
        default="plain",
        help=tr("a fight test: the Nintai gate, an attack, a defence (Y-M6)"),
    )
    p.add_argument("--target", metavar="CHARACTER", help=tr("an attack's target"))
    p.add_argument(
        "--damage",
        choices=("uchimi", "kega"),
        default="uchimi",
        help=tr("an attack's damage kind (Y-A11)"),
    )
    p.add_argument(
        "--armed",
        action="store_true",
        help=tr("the target bears a lethal or impressive weapon (Y-A9)"),
    )
    p.add_argument(
        "--against", metavar="CHARACTER", help=tr("the opponent a defence is against (Y-A10)")
    )
    p.add_argument("--odds", action="store_true", help=tr("show the exact odds too"))
    p.add_argument("--note", "--reason", metavar="TEXT", help=tr("a note kept in the log"))
    dice_options(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_test)
    p = cmds.add_parser("stubborn", help=tr("s'entêter: 1 token to reroll the last test (Y-A3)"))
    dice_options(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_follow_up)
    for name, text in (
        ("critical", N_("turn the last test's 6 into a critical success: 1 token (Y-A4)")),
        (
            "critical-failure",
            N_(
                "the GM turns the last test's 1 into a critical failure: 1 token to the "
                "player (Y-A5)"
            ),
        ),
    ):
        p = cmds.add_parser(name, help=tr(text))
        add_common(p, tr)
        p.set_defaults(handler=cmd_follow_up)


TEST_BUILDERS = {"test": _add_test}
"""The builder of ``test`` and its follow-ups."""
