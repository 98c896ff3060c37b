"""``tablee pouyss ...`` and ``tablee odds pouyss``: Pouyss at the command line.

Source: issue 2 point 5; rulings section 1 (P-M1 to P-M8).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from tablee.cli.app import Context, add_common, parse_dice, whole_number
from tablee.cli.render import (
    distribution_json,
    format_distribution,
    format_level,
    format_trace,
    fraction_text,
)
from tablee.dice import D6, FairSource, RandomSource, SeededSource, TypedFaces
from tablee.errors import N_
from tablee.systems import pouyss
from tablee.systems.pouyss import ActionRoll, Decision, OpposedRoll

__all__ = ["add_odds_parser", "add_parser", "format_summary"]

Tr = Callable[[str], str]


def _source(ctx: Context) -> tuple[RandomSource, TypedFaces | None]:
    typed = parse_dice(ctx.args.dice)
    if typed is not None:
        faces = TypedFaces(typed)
        return faces, faces
    if ctx.args.seed is not None:
        return SeededSource(ctx.args.seed), None
    return FairSource(), None


def _throw(ctx: Context, pool: int) -> list[int]:
    source, typed = _source(ctx)
    if typed is not None:
        typed.expect(D6, pool)
    faces = list(source.roll(D6, pool))
    if typed is not None:
        typed.finish()
    return faces


def _cagnotte_line(ctx: Context, decision: Decision) -> str:
    move = decision.move
    assert move is not None
    return ctx.tr("Cagnotte: {before} → {after} (−{drawn} drawn, +{deposited} put back)").format(
        before=move.before, after=move.after, drawn=move.drawn, deposited=move.deposited
    )


def _roll_json(ctx: Context, applied: Any, result: Any, extra: dict[str, Any]) -> dict[str, Any]:
    decision: Decision = applied.decision
    move = decision.move
    assert move is not None
    return {
        "table": applied.state.name,
        "seq": applied.events[-1].seq,
        **extra,
        "dice": list(result.faces),
        "removed": list(result.removed),
        "kept": list(result.kept),
        "value": result.value,
        "level": result.level.id,
        "level_name": result.level.title,
        "success": result.level.is_success(applied.state.game.options.success_threshold),
        "cagnotte": move.to_json(),
        "trace": [s.render(ctx.tr) for s in result.trace],
        "warnings": [w.render(ctx.tr) for w in decision.warnings],
    }


def format_summary(ctx: Context, game: Any) -> list[str]:
    """The Pouyss lines of ``table show``: session, cagnotte, house rules."""
    cagnotte = "-" if game.cagnotte is None else str(game.cagnotte)
    status = (
        ctx.tr("session {n} in progress") if game.in_session else ctx.tr("no session in progress")
    ).format(n=game.session)
    rules = ", ".join(f"{k}={pouyss.option_text(v)}" for k, v in game.options.to_json().items())
    return [
        ctx.tr("Status: {status}").format(status=status),
        ctx.tr("Cagnotte: {count}").format(count=cagnotte),
        ctx.tr("House rules:") + " " + rules,
    ]


def cmd_roll(ctx: Context) -> int:
    """``tablee pouyss roll``: an action roll (P-M1) with the cagnotte kept straight."""
    a = ctx.args
    counts = ActionRoll(a.bonus + a.imposed_bonus + int(a.double_bonus), a.malus + a.imposed_malus)
    name = ctx.service.resolve_name(a.table)
    faces = _throw(ctx, counts.pool)
    applied = ctx.service.execute(
        name,
        lambda s: pouyss.decide_roll(
            s.game,
            player=a.player,
            bonus=a.bonus,
            malus=a.malus,
            imposed_bonus=a.imposed_bonus,
            imposed_malus=a.imposed_malus,
            double_bonus=a.double_bonus,
            faces=faces,
            reasons=a.reason or [],
        ),
        lambda d: d.facts,
    )
    result = applied.decision.outcome
    odds = pouyss.action_distribution(counts) if a.odds else None
    if ctx.json:
        extra = {"player": applied.events[-1].actor, "bonus": counts.bonus, "malus": counts.malus}
        doc = _roll_json(ctx, applied, result, extra)
        if odds is not None:
            doc["odds"] = distribution_json(odds)
        ctx.emit_json(doc)
        return 0
    if odds is not None:
        ctx.emit(
            ctx.tr("Odds before rolling:") + "\n" + format_distribution(odds, ctx.lang, tr=ctx.tr)
        )
    head = ctx.tr("{player} rolls 1 base + {bonus} bonus + {malus} malus").format(
        player=applied.events[-1].actor, bonus=counts.bonus, malus=counts.malus
    )
    ctx.emit(_result_block(ctx, head, result, applied.decision))
    return 0


def _result_block(ctx: Context, head: str, result: Any, decision: Decision) -> str:
    faces = " ".join(str(f) for f in result.faces)
    removed = " ".join(str(f) for f in result.removed) or "-"
    lines = [
        f"[bold]{head}[/]",
        ctx.tr("Dice: {faces}   removed: {removed}").format(faces=faces, removed=removed),
        ctx.tr("Result: {value} {level}").format(
            value=result.value, level=format_level(result.level)
        ),
        _cagnotte_line(ctx, decision),
        format_trace(result.trace, ctx.tr),
    ]
    lines += [f"[yellow]{w.render(ctx.tr)}[/]" for w in decision.warnings]
    return "\n".join(lines)


def cmd_opposed(ctx: Context) -> int:
    """``tablee pouyss opposed``: an opposed roll (P-M8) with the accounting of P-A9."""
    a = ctx.args
    counts = OpposedRoll(a.active_bonus, a.active_malus, a.passive_bonus, a.passive_malus)
    name = ctx.service.resolve_name(a.table)
    faces = _throw(ctx, counts.as_action().pool)
    passive = a.passive if a.passive is not None else a.passive_npc
    applied = ctx.service.execute(
        name,
        lambda s: pouyss.decide_opposed(
            s.game,
            active=a.active,
            passive=passive,
            passive_is_npc=a.passive is None,
            counts=counts,
            faces=faces,
        ),
        lambda d: d.facts,
    )
    outcome = applied.decision.outcome
    odds = pouyss.opposed_distribution(counts) if a.odds else None
    if ctx.json:
        action = counts.as_action()
        extra = {
            "active": applied.events[-1].actor,
            "passive": passive,
            "bonus": action.bonus,
            "malus": action.malus,
        }
        doc = _roll_json(ctx, applied, outcome.roll, extra)
        doc.update(
            passive_value=outcome.passive_value,
            passive_level=outcome.passive_level.id,
            trace=[s.render(ctx.tr) for s in outcome.trace],
        )
        if odds is not None:
            doc["odds"] = distribution_json(odds)
        ctx.emit_json(doc)
        return 0
    if odds is not None:
        ctx.emit(
            ctx.tr("Odds of the active side before rolling:")
            + "\n"
            + format_distribution(odds, ctx.lang, tr=ctx.tr)
        )
    head = ctx.tr("{active} (active) against {passive} (passive)").format(
        active=applied.events[-1].actor, passive=passive
    )
    built, mirror = _opposed_lines(ctx, counts, applied.events[-1].actor, passive, outcome)
    block = _result_block(ctx, f"{head}\n{built}", outcome.roll, applied.decision)
    ctx.emit(f"{block}\n{mirror}")
    return 0


def _opposed_lines(
    ctx: Context, counts: OpposedRoll, active: str | None, passive: str | None, outcome: Any
) -> tuple[str, str]:
    """How the passive side's dice entered the roll and how its result is read (P-M8, P-A11).

    Returns:
        The line saying how the roll's dice were built, and the passive side's result line.
    """
    return (
        ctx.tr(
            "One roll for both sides (P-M8): {active} brings bonus {active_bonus} and malus "
            "{active_malus}; {passive}'s bonus {passive_bonus} counts as malus on the roll and "
            "{passive}'s malus {passive_malus} as bonus, so the roll has bonus {bonus} and "
            "malus {malus}"
        ).format(
            active=active,
            passive=passive,
            active_bonus=counts.active_bonus,
            active_malus=counts.active_malus,
            passive_bonus=counts.passive_bonus,
            passive_malus=counts.passive_malus,
            bonus=counts.as_action().bonus,
            malus=counts.as_action().malus,
        ),
        ctx.tr(
            "Passive side ({passive}): 7 − {value} = {passive_value} {level}, the mirror of "
            "the same roll (P-A11)"
        ).format(
            passive=passive,
            value=outcome.roll.value,
            passive_value=outcome.passive_value,
            level=format_level(outcome.passive_level),
        ),
    )


def _pool_change(ctx: Context, kind: str) -> int:
    a = ctx.args
    name = ctx.service.resolve_name(a.table)
    decide = pouyss.decide_reward if kind == "reward" else pouyss.decide_penalty
    applied = ctx.service.execute(
        name,
        lambda s: decide(s.game, amount=a.amount, player=a.player, reason=a.reason or ""),
        lambda d: d.facts,
    )
    decision: Decision = applied.decision
    if ctx.json:
        assert decision.move is not None
        ctx.emit_json(
            {
                "table": name,
                "seq": applied.events[-1].seq,
                "kind": kind,
                "amount": a.amount,
                "cagnotte": decision.move.to_json(),
                "warnings": [w.render(ctx.tr) for w in decision.warnings],
            }
        )
        return 0
    assert decision.move is not None
    template = (
        ctx.tr("Cagnotte: {before} → {after} (+{count} for role-play)")
        if kind == "reward"
        else ctx.tr("Cagnotte: {before} → {after} (−{count} penalty)")
    )
    count = decision.move.deposited if kind == "reward" else decision.move.drawn
    lines = [template.format(before=decision.move.before, after=decision.move.after, count=count)]
    lines += [f"[yellow]{w.render(ctx.tr)}[/]" for w in decision.warnings]
    ctx.emit("\n".join(lines))
    return 0


def cmd_reward(ctx: Context) -> int:
    """``tablee pouyss reward``: role-play reward, 1 or 2 dice (P-M7)."""
    return _pool_change(ctx, "reward")


def cmd_penalty(ctx: Context) -> int:
    """``tablee pouyss penalty``: role-play penalty, 1 or 2 dice, never below 0 (P-M7, P-A8)."""
    return _pool_change(ctx, "penalty")


def cmd_session(ctx: Context) -> int:
    """``tablee pouyss session start|end`` (P-M5)."""
    a = ctx.args
    name = ctx.service.resolve_name(a.table)
    if a.action == "start":
        applied = ctx.service.execute(
            name,
            lambda s: pouyss.decide_start_session(
                s.game, carry_over=a.carry_over, cagnotte=a.cagnotte
            ),
            lambda d: d.facts,
        )
    else:
        applied = ctx.service.execute(
            name, lambda s: pouyss.decide_end_session(s.game), lambda d: d.facts
        )
    payload = applied.events[-1].payload
    if ctx.json:
        ctx.emit_json({"table": name, "seq": applied.events[-1].seq, "action": a.action, **payload})
        return 0
    template = (
        ctx.tr("Session {session} starts with {count} in the cagnotte.")
        if a.action == "start"
        else ctx.tr("Session {session} ends with {count} in the cagnotte.")
    )
    count = ctx.ntr("{n} die", "{n} dice", payload["cagnotte"]).format(n=payload["cagnotte"])
    ctx.emit(template.format(session=payload["session"], count=count))
    return 0


def cmd_character(ctx: Context) -> int:
    """``tablee pouyss character set|show`` (P-A13)."""
    a = ctx.args
    name = ctx.service.resolve_name(a.table)
    if a.action == "set":
        state = ctx.service.execute(
            name,
            lambda s: pouyss.decide_character(
                s.game,
                player=a.player,
                advantages=a.advantage or [],
                disadvantages=a.disadvantage or [],
            ),
            lambda d: d.facts,
        ).state
    else:
        state = ctx.service.state(name)
    chars = state.game.characters
    doc = {
        p: {"advantages": list(c.advantages), "disadvantages": list(c.disadvantages)}
        for p, c in chars.items()
        if a.player is None or p.casefold() == a.player.casefold()
    }
    if ctx.json:
        ctx.emit_json({"table": name, "characters": doc})
        return 0
    lines = []
    for player, sheet in doc.items():
        lines.append(f"[bold]{player}[/]")
        lines.append("  + " + (", ".join(sheet["advantages"]) or "-"))
        lines.append("  − " + (", ".join(sheet["disadvantages"]) or "-"))
    ctx.emit("\n".join(lines) or ctx.tr("No character yet."))
    return 0


def cmd_odds(ctx: Context) -> int:
    """``tablee odds pouyss``: exact odds of an action or opposed roll, before rolling."""
    a = ctx.args
    opposed = a.passive_bonus or a.passive_malus
    counts = OpposedRoll(a.bonus, a.malus, a.passive_bonus, a.passive_malus)
    dist = pouyss.opposed_distribution(counts)
    threshold = a.threshold
    success = dist.probability_where(lambda v: v >= threshold)
    if ctx.json:
        action = counts.as_action()
        doc: dict[str, Any] = {
            "bonus": action.bonus,
            "malus": action.malus,
            "pool": action.pool,
            "distribution": distribution_json(dist),
            "success": fraction_text(success),
            "success_threshold": threshold,
        }
        if opposed:
            doc["passive_distribution"] = distribution_json(dist.map(lambda v: 7 - v))
        ctx.emit_json(doc)
        return 0
    action = counts.as_action()
    head = ctx.tr("Exact odds: 1 base + {bonus} bonus + {malus} malus ({pool} dice)").format(
        bonus=action.bonus, malus=action.malus, pool=action.pool
    )
    from tablee.cli.render import exact_text, percent

    tail = ctx.tr("Success ({threshold} or more): {percent} ({fraction})").format(
        threshold=threshold,
        percent=percent(success, ctx.lang),
        fraction=exact_text(success, ctx.tr),
    )
    ctx.emit(f"[bold]{head}[/]\n{format_distribution(dist, ctx.lang, tr=ctx.tr)}\n{tail}")
    if opposed:
        ctx.emit(
            ctx.tr("Passive side:")
            + "\n"
            + format_distribution(dist.map(lambda v: 7 - v), ctx.lang, tr=ctx.tr)
        )
    return 0


def _counts(parser: argparse.ArgumentParser, tr: Tr, names: list[tuple[str, str]]) -> None:
    for flag, help_text in names:
        parser.add_argument(flag, type=whole_number(tr), default=0, metavar="N", help=tr(help_text))


def _roll_source(parser: argparse.ArgumentParser, tr: Tr) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--dice", metavar="1,4,5,6", help=tr("faces read on physical dice instead of rolling")
    )
    source.add_argument(
        "--seed", type=whole_number(tr), help=tr("roll reproducibly from this seed")
    )
    parser.add_argument("--odds", action="store_true", help=tr("show the exact odds first"))


COMMANDS = ("roll", "opposed", "reward", "penalty", "session", "character")


def add_parser(sub: Any, tr: Tr, only: str | None = None) -> None:
    """Add ``tablee pouyss ...`` to the top-level subparsers.

    Args:
        sub: the top-level subparsers.
        tr: translation of help texts.
        only: build just this command (one of `COMMANDS`), to start faster; None for all.
    """
    group = sub.add_parser("pouyss", help=tr("play Pouyss"))
    cmds = group.add_subparsers(dest="command", required=True, metavar="COMMAND")
    if only in (None, "roll"):
        _add_roll(cmds, tr)
    if only in (None, "opposed"):
        _add_opposed(cmds, tr)
    for kind, handler, text in (
        ("reward", cmd_reward, N_("add 1 or 2 dice for role-play (P-M7)")),
        ("penalty", cmd_penalty, N_("remove 1 or 2 dice (P-M7, P-A8)")),
    ):
        if only in (None, kind):
            _add_pool_change(cmds, tr, kind, handler, text)
    if only in (None, "session"):
        _add_session(cmds, tr)
    if only in (None, "character"):
        _add_character(cmds, tr)


def _add_roll(cmds: Any, tr: Tr) -> None:
    roll = cmds.add_parser("roll", help=tr("an action roll (P-M1)"))
    roll.add_argument("--player", required=True, help=tr("who rolls"))
    _counts(
        roll,
        tr,
        [
            ("--bonus", N_("bonus dice asked for")),
            ("--malus", N_("malus dice asked for")),
            ("--imposed-bonus", N_("bonus dice imposed by the narrator (P-M6)")),
            ("--imposed-malus", N_("malus dice imposed by the narrator (P-M6)")),
        ],
    )
    roll.add_argument(
        "--double-bonus",
        action="store_true",
        help=tr("one advantage is exceptional: one more bonus die (P-M3)"),
    )
    roll.add_argument(
        "--reason", action="append", metavar="TEXT", help=tr("a justification (repeatable)")
    )
    _roll_source(roll, tr)
    add_common(roll, tr)
    roll.set_defaults(handler=cmd_roll)


def _add_opposed(cmds: Any, tr: Tr) -> None:
    opp = cmds.add_parser("opposed", help=tr("an opposed roll (P-M8)"))
    opp.add_argument("--active", required=True, help=tr("the active player character"))
    side = opp.add_mutually_exclusive_group(required=True)
    side.add_argument("--passive", help=tr("the passive player character"))
    side.add_argument("--passive-npc", metavar="NAME", help=tr("a passive non-player character"))
    _counts(
        opp,
        tr,
        [
            ("--active-bonus", N_("the active side's bonus dice")),
            ("--active-malus", N_("the active side's malus dice")),
            ("--passive-bonus", N_("the passive side's bonus dice (malus on the roll)")),
            ("--passive-malus", N_("the passive side's malus dice (bonus on the roll)")),
        ],
    )
    _roll_source(opp, tr)
    add_common(opp, tr)
    opp.set_defaults(handler=cmd_opposed)


def _add_pool_change(cmds: Any, tr: Tr, kind: str, handler: Any, text: str) -> None:
    p = cmds.add_parser(kind, help=tr(text))
    p.add_argument(
        "--amount", type=whole_number(tr), choices=(1, 2), default=1, help=tr("1 or 2 dice")
    )
    p.add_argument("--player", help=tr("the player concerned"))
    p.add_argument("--reason", help=tr("why"))
    add_common(p, tr)
    p.set_defaults(handler=handler)


def _add_session(cmds: Any, tr: Tr) -> None:
    sess = cmds.add_parser("session", help=tr("start or end a session (P-M5)"))
    sess.add_argument("action", choices=("start", "end"))
    keep = sess.add_mutually_exclusive_group()
    keep.add_argument(
        "--carry-over",
        dest="carry_over",
        action="store_true",
        default=None,
        help=tr("keep the last session's cagnotte (campaign)"),
    )
    keep.add_argument(
        "--fresh", dest="carry_over", action="store_false", help=tr("start with one die per player")
    )
    sess.add_argument(
        "--cagnotte", type=whole_number(tr), help=tr("start value set by the narrator")
    )
    add_common(sess, tr)
    sess.set_defaults(handler=cmd_session)


def _add_character(cmds: Any, tr: Tr) -> None:
    char = cmds.add_parser("character", help=tr("advantages and disadvantages (P-A13)"))
    char.add_argument("action", choices=("set", "show"))
    char.add_argument("--player", help=tr("whose character"))
    char.add_argument("--advantage", action="append", metavar="TEXT", help=tr("repeatable"))
    char.add_argument("--disadvantage", action="append", metavar="TEXT", help=tr("repeatable"))
    add_common(char, tr)
    char.set_defaults(handler=cmd_character)


def add_odds_parser(sub: Any, tr: Tr) -> None:
    """Add ``tablee odds pouyss`` to the ``odds`` subparsers."""
    p = sub.add_parser("pouyss", help=tr("exact odds of a Pouyss roll"))
    _counts(
        p,
        tr,
        [
            ("--bonus", N_("bonus dice")),
            ("--malus", N_("malus dice")),
            ("--passive-bonus", N_("opposed roll: the passive side's bonus dice")),
            ("--passive-malus", N_("opposed roll: the passive side's malus dice")),
        ],
    )
    p.add_argument(
        "--threshold",
        type=whole_number(tr),
        choices=range(1, 7),
        default=4,
        metavar="1..6",
        help=tr("lowest successful value (P-A10)"),
    )
    add_common(p, tr, table=False)
    p.set_defaults(handler=cmd_odds)
