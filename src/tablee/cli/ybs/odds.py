"""``tablee odds ybs ...``: exact odds of YBS tests, straights, gang fights, Ichika Bachika.

Source: seed 004; rulings Y-M3, Y-A3, Y-A4.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.render import bar, decimal, exact_text, fraction_text, percent
from tablee.cli.ybs.common import Tr
from tablee.errors import N_

__all__ = [
    "add_odds_parser",
    "cmd_odds_gang",
    "cmd_odds_ichika",
    "cmd_odds_straight",
    "cmd_odds_test",
    "fraction_text",
]


def _line(ctx: Context, label: str, p: Fraction, width: int = 16) -> str:
    return f"  {label:<{width}} {bar(p):<30} {percent(p, ctx.lang):>8}  ({exact_text(p, ctx.tr)})"


def _lines(ctx: Context, rows: list[tuple[str, Fraction]]) -> list[str]:
    """Aligned lines of labelled probabilities (labels as wide as the longest, 16 or more)."""
    width = max([16, *(len(label) for label, _ in rows)])
    return [_line(ctx, label, p, width) for label, p in rows]


_STUBBORN_WORDS = {
    "any": N_("after every failure, while tokens last"),
    "once": N_("once per test"),
    "never": N_("never"),
}
"""The reroll policies of the odds, in words (Y-A3)."""


def cmd_odds_test(ctx: Context) -> int:
    """``tablee odds ybs test --trait T [--force F] [--tokens K] [--stubborn P]``."""
    from tablee.systems.ybs import odds_of_test

    a = ctx.args
    odds = odds_of_test(a.trait, force=a.force, tokens=a.tokens, policy=a.stubborn)
    if ctx.json:
        ctx.emit_json(
            {
                "trait": a.trait,
                "force": a.force,
                "tokens": a.tokens,
                "stubborn": a.stubborn,
                "success": fraction_text(odds.success),
                "critical": fraction_text(odds.critical),
                "natural_one": fraction_text(odds.natural_one),
                "expected_rerolls": fraction_text(odds.expected_rerolls),
            }
        )
        return 0
    title = ctx.ntr(
        "Exact odds of a test (trait {trait:+d}, forced {force}, {tokens} token left, "
        "s'entêter: {stubborn})",
        "Exact odds of a test (trait {trait:+d}, forced {force}, {tokens} tokens left, "
        "s'entêter: {stubborn})",
        a.tokens,
    )
    stubborn = ctx.tr(_STUBBORN_WORDS[a.stubborn])
    lines = [
        "[bold]"
        + title.format(trait=a.trait, force=a.force, tokens=a.tokens, stubborn=stubborn)
        + "[/]",
        *_lines(
            ctx,
            [
                (ctx.tr("success"), odds.success),
                (ctx.tr("critical success"), odds.critical),
                (ctx.tr("final natural 1"), odds.natural_one),
            ],
        ),
        ctx.tr("Expected rerolls: {value} ({fraction})").format(
            value=decimal(odds.expected_rerolls, ctx.lang, 3),
            fraction=exact_text(odds.expected_rerolls, ctx.tr),
        ),
    ]
    ctx.emit("\n".join(lines))
    return 0


def cmd_odds_straight(ctx: Context) -> int:
    """``tablee odds ybs straight --dice N``: a straight in one throw, and which one."""
    from tablee.systems.ybs.gang_odds import best_straight_distribution, straight_probability

    dice = ctx.args.dice
    p = straight_probability(dice)
    dist = best_straight_distribution(dice)
    labels = {0: "-", 1: "1-2-3-4", 2: "2-3-4-5", 3: "3-4-5-6"}
    rows = {labels[k]: dist.probability(k) for k in sorted(dist.weights)}
    if ctx.json:
        ctx.emit_json(
            {
                "dice": dice,
                "probability": fraction_text(p),
                "best_straight": {k: fraction_text(v) for k, v in rows.items()},
            }
        )
        return 0
    title = ctx.tr("Exact odds of a straight in one throw of {dice} dice").format(dice=dice)
    lines = [f"[bold]{title}[/]"]
    lines += _lines(
        ctx, [(ctx.tr("a straight"), p), *((k, v) for k, v in rows.items() if k != "-")]
    )
    ctx.emit("\n".join(lines))
    return 0


def _win_draw_loss(ctx: Context, title: str, odds: Any, extra: dict[str, Any]) -> int:
    if ctx.json:
        ctx.emit_json(
            {
                **extra,
                "win": fraction_text(odds.win),
                "tie": fraction_text(odds.draw),
                "loss": fraction_text(odds.loss),
                "expected_throws": fraction_text(odds.expected_throws),
            }
        )
        return 0
    lines = [
        f"[bold]{title}[/]",
        *_lines(
            ctx,
            [(ctx.tr("win"), odds.win), (ctx.tr("tie"), odds.draw), (ctx.tr("loss"), odds.loss)],
        ),
        ctx.tr("Expected throws: {value} ({fraction})").format(
            value=decimal(odds.expected_throws, ctx.lang, 3),
            fraction=exact_text(odds.expected_throws, ctx.tr),
        ),
    ]
    ctx.emit("\n".join(lines))
    return 0


def cmd_odds_gang(ctx: Context) -> int:
    """``tablee odds ybs gang-fight --dice N --against M``: both sides follow the advisor."""
    from tablee.systems.ybs.gang_odds import gang_fight_odds

    a = ctx.args
    higher = a.higher_straight_wins == "true"
    odds = gang_fight_odds(a.dice, a.against, higher_straight_wins=higher)
    title = ctx.tr(
        "Exact odds of a gang fight, {dice} dice against {against}, both sides advised"
    ).format(dice=a.dice, against=a.against)
    extra = {"dice": a.dice, "against": a.against, "higher_straight_wins": higher}
    return _win_draw_loss(ctx, title, odds, extra)


def cmd_odds_ichika(ctx: Context) -> int:
    """``tablee odds ybs ichika [--tie draw|reroll]``: 5 dice a side, once."""
    from tablee.systems.ybs.gang_odds import ichika_odds

    odds = ichika_odds(tie=ctx.args.tie)
    title = ctx.tr("Exact odds of Ichika Bachika, 5 dice a side")
    return _win_draw_loss(ctx, title, odds, {"dice": 5, "against": 5, "tie_rule": ctx.args.tie})


def add_odds_parser(sub: Any, tr: Tr) -> None:
    """Add ``tablee odds ybs ...`` to the ``odds`` subparsers."""
    group: argparse.ArgumentParser = sub.add_parser(
        "ybs", help=tr("exact odds of Yuigahama Bad Seeds")
    )
    kinds = group.add_subparsers(dest="kind", required=True, metavar="KIND")
    p = kinds.add_parser("test", help=tr("a test's success and critical chances (Y-M3)"))
    p.add_argument(
        "--trait", type=whole_number(tr), required=True, metavar="-2..2", help=tr("the trait value")
    )
    p.add_argument(
        "--force",
        type=whole_number(tr),
        default=0,
        metavar="0..3",
        help=tr("tokens spent to force destiny"),
    )
    p.add_argument(
        "--tokens",
        type=whole_number(tr),
        default=0,
        metavar="K",
        help=tr("tokens left once forced, for rerolls and a critical"),
    )
    p.add_argument(
        "--stubborn",
        choices=("any", "once", "never"),
        default="any",
        help=tr(
            "s'entêter: reroll every failure while tokens last (any), once per test, or never "
            "(Y-A3)"
        ),
    )
    add_common(p, tr, table=False)
    p.set_defaults(handler=cmd_odds_test)
    p = kinds.add_parser("straight", help=tr("a straight in one throw of N dice (Y-M7)"))
    p.add_argument(
        "--dice",
        type=whole_number(tr),
        required=True,
        metavar="1..8",
        help=tr("dice thrown at once (a straight needs 4 or more)"),
    )
    add_common(p, tr, table=False)
    p.set_defaults(handler=cmd_odds_straight)
    p = kinds.add_parser(
        "gang-fight", help=tr("the players' win, draw and loss when both sides follow the advisor")
    )
    p.add_argument(
        "--dice", type=whole_number(tr), required=True, metavar="4..6", help=tr("the players' dice")
    )
    p.add_argument(
        "--against", type=whole_number(tr), required=True, metavar="4..6", help=tr("the GM's dice")
    )
    p.add_argument(
        "--higher-straight-wins",
        choices=("true", "false"),
        default="true",
        help=tr("simultaneous straights: the higher wins, or a draw (Y-A13)"),
    )
    add_common(p, tr, table=False)
    p.set_defaults(handler=cmd_odds_gang)
    p = kinds.add_parser(
        "ichika", help=tr("Ichika Bachika: the players' win, draw and loss (Y-M8)")
    )
    p.add_argument(
        "--tie",
        choices=("draw", "reroll"),
        default="draw",
        help=tr("a complete tie: a draw or thrown again (Y-A16)"),
    )
    add_common(p, tr, table=False)
    p.set_defaults(handler=cmd_odds_ichika)
