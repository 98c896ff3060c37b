"""``tablee ybs damage|rest|heal``, ``fight ...`` and the evolution commands.

Uchimi and Kega marked, rest and Kega healed by care, an individual fight's rounds, retreats
and end, then evolution: a star, a trait transfer, a trauma, attributes gained or lost.

Source: seed 004; rulings Y-M5, Y-M6, Y-M9, Y-A9, Y-A10,
Y-A19, Y-A20, Y-A22.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.ybs.common import Tr, emit_applied, execute
from tablee.errors import N_, InputError

if TYPE_CHECKING:
    pass


__all__ = ["SHEET_BUILDERS"]


# --- damage, fights, evolution -------------------------------------------------------------


def cmd_damage(ctx: Context) -> int:
    """``tablee ybs damage|rest|heal CHARACTER`` (Y-M5)."""
    from tablee.systems.ybs import decide_damage, decide_heal_kega, decide_rest

    a = ctx.args
    if a.command == "damage":
        applied = execute(
            ctx,
            lambda g: decide_damage(
                g, character=a.character, uchimi=a.uchimi, kega=a.kega, note=a.note or ""
            ),
        )
    elif a.command == "rest":
        applied = execute(ctx, lambda g: decide_rest(g, character=a.character, minutes=a.minutes))
    else:
        applied = execute(
            ctx,
            lambda g: decide_heal_kega(g, character=a.character, count=a.count, note=a.note or ""),
        )
    return emit_applied(ctx, applied)


def _add_damage(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("damage", help=tr("mark Uchimi or Kega, with overflow (Y-M5, Y-A19)"))
    p.add_argument("character", metavar="CHARACTER", help=tr("the character's name"))
    p.add_argument(
        "--uchimi",
        type=whole_number(tr),
        default=0,
        metavar="N",
        help=tr("light blows: each marks a free box with /, else turns a / into X"),
    )
    p.add_argument(
        "--kega",
        type=whole_number(tr),
        default=0,
        metavar="N",
        help=tr("serious wounds: each marks a free box with X, else turns a / into X"),
    )
    p.add_argument(
        "--note", "--reason", metavar="TEXT", help=tr("the wound's nature or care (Y-A22)")
    )
    add_common(p, tr)
    p.set_defaults(handler=cmd_damage)
    p = cmds.add_parser("rest", help=tr("rest: 30 minutes heal the last Uchimi (Y-N6)"))
    p.add_argument("character", metavar="CHARACTER", help=tr("the character's name"))
    p.add_argument(
        "--minutes",
        type=whole_number(tr),
        required=True,
        metavar="M",
        help=tr("minutes of rest: each full 30 heal the last Uchimi (Y-N6)"),
    )
    add_common(p, tr)
    p.set_defaults(handler=cmd_damage)
    p = cmds.add_parser("heal", help=tr("Kega healed by care, as the GM narrates (Y-A22)"))
    p.add_argument("character", metavar="CHARACTER", help=tr("the character's name"))
    p.add_argument(
        "--count",
        type=whole_number(tr),
        default=1,
        metavar="N",
        help=tr("Kega healed (default 1)"),
    )
    p.add_argument("--note", "--reason", metavar="TEXT", help=tr("a note kept in the log"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_damage)


def cmd_fight(ctx: Context) -> int:
    """``tablee ybs fight resolve|retreat NAME|end`` (Y-M6)."""
    from tablee.systems.ybs import decide_fight_end, decide_retreat, decide_round

    a = ctx.args
    if a.action == "retreat":
        if not a.character:
            raise InputError(N_("name the character who retreats"))
        applied = execute(ctx, lambda g: decide_retreat(g, character=a.character))
    else:
        applied = execute(ctx, decide_round if a.action == "resolve" else decide_fight_end)
    return emit_applied(ctx, applied)


def _add_fight(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser(
        "fight", help=tr("an individual fight: resolve the round's attacks, retreat, end (Y-M6)")
    )
    p.add_argument(
        "action",
        choices=("resolve", "retreat", "end"),
        help=tr(
            "resolve: mark the round's damage; retreat: a character leaves the fight; "
            "end: the fight is over"
        ),
    )
    p.add_argument("character", metavar="CHARACTER", nargs="?", help=tr("who retreats"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_fight)


def cmd_evolve(ctx: Context) -> int:
    """``tablee ybs star|transfer|trauma|attributes CHARACTER ...`` (Y-M9)."""
    from tablee.systems.ybs import decide_attributes, decide_star, decide_transfer, decide_trauma

    a = ctx.args
    if a.command == "star":
        applied = execute(ctx, lambda g: decide_star(g, character=a.character, trait=a.trait))
    elif a.command == "transfer":
        applied = execute(
            ctx, lambda g: decide_transfer(g, character=a.character, lower=a.lower, raise_=a.raise_)
        )
    elif a.command == "trauma":
        applied = execute(
            ctx, lambda g: decide_trauma(g, character=a.character, trait=a.trait, note=a.note or "")
        )
    else:
        applied = execute(
            ctx,
            lambda g: decide_attributes(
                g, character=a.character, add=a.add or [], remove=a.remove or []
            ),
        )
    return emit_applied(ctx, applied)


def _add_evolution(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("star", help=tr("a star for a trait used heavily; 5 raise it (Y-M9)"))
    p.add_argument("character", metavar="CHARACTER", help=tr("the character's name"))
    p.add_argument("--trait", required=True, metavar="TRAIT", help=tr("the trait used heavily"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_evolve)
    p = cmds.add_parser("transfer", help=tr("lower one trait by 1 to raise another (Y-M9)"))
    p.add_argument("character", metavar="CHARACTER", help=tr("the character's name"))
    p.add_argument(
        "--lower", required=True, metavar="TRAIT", help=tr("the trait lowered by 1 (not below -2)")
    )
    p.add_argument(
        "--raise",
        dest="raise_",
        required=True,
        metavar="TRAIT",
        help=tr("the trait raised by 1 (at most +2, two traits at +2)"),
    )
    add_common(p, tr)
    p.set_defaults(handler=cmd_evolve)
    p = cmds.add_parser("trauma", help=tr("after 3 Kega, a trait related to the wounds becomes -1"))
    p.add_argument("character", metavar="CHARACTER", help=tr("the character's name"))
    p.add_argument(
        "--trait",
        required=True,
        metavar="TRAIT",
        help=tr("the trait related to the wounds: it becomes -1 (a -2 stays)"),
    )
    p.add_argument("--note", "--reason", metavar="TEXT", help=tr("a note kept in the log"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_evolve)
    p = cmds.add_parser("attributes", help=tr("attributes gained or lost after a scenario (Y-M9)"))
    p.add_argument("character", metavar="CHARACTER", help=tr("the character's name"))
    p.add_argument(
        "--add", action="append", metavar="TEXT", help=tr("an attribute gained (repeatable)")
    )
    p.add_argument(
        "--remove", action="append", metavar="TEXT", help=tr("an attribute lost (repeatable)")
    )
    add_common(p, tr)
    p.set_defaults(handler=cmd_evolve)


SHEET_BUILDERS = {"damage": _add_damage, "fight": _add_fight, "star": _add_evolution}
"""The builders of the damage, fight and evolution commands (keyed by their first command)."""
