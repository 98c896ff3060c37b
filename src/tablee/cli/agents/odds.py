"""``tablee odds agents ...``: exact odds of an action and of a whole challenge.

Source: seed 002; rulings G-M4 to G-M6, G-A5, G-A20.
"""

from __future__ import annotations

import argparse
from typing import Any

from tablee.cli.agents.common import Tr, word
from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.render import bar, exact_text, fraction_text, percent
from tablee.errors import N_, InputError

__all__ = ["add_odds_parser"]


def _numbers(text: str, what: str) -> list[int]:
    values = []
    for part in text.replace(" ", "").split(","):
        digits = part.lstrip("+-")
        if not part or not (digits.isascii() and digits.isdigit()):
            raise InputError(
                N_("{what} {value!r}: expected whole numbers separated by commas, e.g. 7,5,3"),
                what=what,
                value=text,
            )
        values.append(int(part))
    return values


def cmd_action(ctx: Context) -> int:
    """``tablee odds agents action``: critical, success and failure for a modifier."""
    from tablee.systems.agents import Result, action_distribution

    modifier = ctx.args.modifier
    dist = action_distribution(modifier)
    if ctx.json:
        ctx.emit_json(
            {
                "modifier": modifier,
                "distribution": {r.value: fraction_text(dist.probability(r)) for r in Result},
            }
        )
        return 0
    title = ctx.tr("Exact odds of an action, modifier {modifier:+d}").format(modifier=modifier)
    lines = [f"[bold]{title}[/]"]
    for result in Result:
        p = dist.probability(result)
        label = word(ctx.tr, result.value)
        lines.append(
            f"  {label:<12} {bar(p):<30} {percent(p, ctx.lang):>8}  ({exact_text(p, ctx.tr)})"
        )
    ctx.emit("\n".join(lines))
    return 0


def cmd_challenge(ctx: Context) -> int:
    """``tablee odds agents challenge``: the agents' exact chance to win a challenge."""
    from tablee.systems.agents import challenge_win_probability

    a = ctx.args
    reserves = _numbers(a.reserves, "--reserves")
    modifiers = _numbers(a.modifiers, "--modifiers") if a.modifiers else [0] * len(reserves)
    win = challenge_win_probability(reserves, modifiers, a.score)
    if ctx.json:
        ctx.emit_json(
            {
                "reserves": reserves,
                "modifiers": modifiers,
                "score": a.score,
                "win": fraction_text(win),
                "lose": fraction_text(1 - win),
            }
        )
        return 0
    ctx.emit(
        ctx.tr(
            "Agents with reserves {reserves} and modifiers {modifiers} against a score of "
            "{score}: they win {percent} ({fraction})"
        ).format(
            reserves=", ".join(map(str, reserves)),
            modifiers=", ".join(f"{m:+d}" for m in modifiers),
            score=a.score,
            percent=percent(win, ctx.lang),
            fraction=exact_text(win, ctx.tr),
        )
    )
    return 0


def add_odds_parser(sub: Any, tr: Tr) -> None:
    """Add ``tablee odds agents action|challenge`` to the ``odds`` subparsers."""
    group: argparse.ArgumentParser = sub.add_parser(
        "agents", help=tr("exact odds of the agents game")
    )
    kinds = group.add_subparsers(dest="odds_kind", required=True, metavar="KIND")
    action = kinds.add_parser("action", help=tr("one action's outcome for a modifier (G-M4)"))
    action.add_argument(
        "--modifier",
        type=whole_number(tr),
        default=0,
        metavar="M",
        help=tr("the total modifier, e.g. -1 or 2 (G-N2)"),
    )
    add_common(action, tr, table=False)
    action.set_defaults(handler=cmd_action)
    challenge = kinds.add_parser(
        "challenge", help=tr("the chance the agents win a challenge (exact, G-M5)")
    )
    challenge.add_argument(
        "--reserves",
        required=True,
        metavar="7,5,3",
        help=tr("each agent's reserve of the challenge's type, in turn order"),
    )
    challenge.add_argument(
        "--modifiers",
        metavar="0,1,0",
        help=tr("each agent's modifier on every action (default: 0 each)"),
    )
    challenge.add_argument(
        "--score",
        type=whole_number(tr),
        required=True,
        metavar="N",
        help=tr("the opposition's score"),
    )
    add_common(challenge, tr, table=False)
    challenge.set_defaults(handler=cmd_challenge)
