"""``tablee odds shs``: the exact odds of an SHS Test, before rolling.

Source: seed 003; rulings S-M1, S-M3, S-M5, S-A1, S-A2, S-A4.
"""

from __future__ import annotations

import argparse
from typing import Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.render import bar, exact_text, fraction_text, percent
from tablee.cli.shs.common import Tr

__all__ = ["add_odds_parser", "cmd_odds"]


def _row(outcome: str, value: int, p: Any) -> dict[str, Any]:
    return {
        "outcome": outcome,
        "value": value,
        "probability": fraction_text(p),
        "percent": round(float(p) * 100, 4),
    }


def cmd_odds(ctx: Context) -> int:
    """``tablee odds shs``: the PS distribution and, with a difficulty, the chance of success."""
    from tablee.systems import shs

    a = ctx.args
    roll = shs.ActionRoll(
        a.threshold, a.expertise, a.bonus, a.malus, a.option == "surpasser", a.option == "sacrifier"
    )
    dist = shs.ps_distribution(roll)
    values = sorted(dist.weights, reverse=True)
    difficulty = a.difficulty
    if difficulty is not None:
        test = shs.Test(
            a.threshold,
            difficulty,
            None,
            a.expertise,
            a.bonus,
            a.malus,
            a.option == "surpasser",
            a.option == "sacrifier",
        )
        success = shs.success_probability(test)

    def outcome(v: int) -> str:
        if difficulty is None:
            return "ps"
        return "success" if v >= difficulty else "failure"

    if ctx.json:
        doc: dict[str, Any] = {
            "threshold": a.threshold,
            "expertise": a.expertise,
            "bonus": a.bonus,
            "malus": a.malus,
            "option": a.option or "none",
            "difficulty": difficulty,
            "distribution": [_row(outcome(v), v, dist.probability(v)) for v in values],
        }
        if difficulty is not None:
            doc["success"] = fraction_text(success)
        ctx.emit_json(doc)
        return 0
    title = ctx.tr("Exact odds of the PS total")
    lines = [f"[bold]{title}[/]"]
    for v in values:
        p = dist.probability(v)
        style = "green" if difficulty is not None and v >= difficulty else "white"
        lines.append(
            f"  {v:>3} PS [{style}]{bar(p):<30}[/] {percent(p, ctx.lang):>8}  "
            f"({exact_text(p, ctx.tr)})"
        )
    if difficulty is not None:
        lines.append(
            ctx.tr("Success (Difficulty {difficulty}): {percent} ({fraction})").format(
                difficulty=difficulty,
                percent=percent(success, ctx.lang),
                fraction=exact_text(success, ctx.tr),
            )
        )
    ctx.emit("\n".join(lines))
    return 0


def add_odds_parser(sub: Any, tr: Tr) -> None:
    """Add ``tablee odds shs`` to the ``odds`` subparsers."""
    p: argparse.ArgumentParser = sub.add_parser("shs", help=tr("exact odds of an SHS Test"))
    p.add_argument(
        "--threshold",
        type=whole_number(tr),
        required=True,
        metavar="5..8",
        help=tr("the Caractéristique's threshold, 5 to 8 (S-M1)"),
    )
    p.add_argument(
        "--expertise",
        action="store_true",
        help=tr("a matching Expertise: D10 instead of D8 (S-A1, S-A2)"),
    )
    p.add_argument(
        "--bonus",
        type=whole_number(tr),
        default=0,
        metavar="N",
        help=tr("sum of the bonuses (S-M3)"),
    )
    p.add_argument(
        "--malus",
        type=whole_number(tr),
        default=0,
        metavar="N",
        help=tr("sum of the maluses (S-M3)"),
    )
    p.add_argument(
        "--option",
        choices=("surpasser", "sacrifier"),
        help=tr("Se Surpasser or Se Sacrifier (S-M5)"),
    )
    p.add_argument(
        "--difficulty", type=whole_number(tr), metavar="D", help=tr("PS needed, 1 or more (S-A4)")
    )
    add_common(p, tr, table=False)
    p.set_defaults(handler=cmd_odds)
