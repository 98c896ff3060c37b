"""The film's clock: ``tablee shs scene|tour|time|modifier|long-action|clock``.

Scènes and Tours, game time, temporary Bonus and Malus that expire by themselves, and
Actions over several Tours.

Source: seed 003; rulings S-M3, S-M8, S-T6, S-A15.
"""

from __future__ import annotations

from typing import Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.common import applied_head
from tablee.cli.shs.common import Tr, execute, game_of, state_of, warning_lines

__all__ = [
    "BUILDERS",
    "clock_lines",
    "cmd_clock",
    "cmd_long_action",
    "cmd_modifier_add",
    "cmd_modifier_end",
    "cmd_scene",
    "cmd_time",
    "cmd_tour",
]


def _modifier_text(ctx: Context, m: dict[str, Any]) -> str:
    from tablee.systems.shs import Duration

    duration = Duration(tours=int(m["tours"]), seconds=int(m["seconds"]))
    kind = "Bonus" if m["kind"] == "bonus" else "Malus"
    text = ctx.tr("{name}: {kind} ({duration}) of {amount}").format(
        kind=kind, duration=str(duration), amount=m["amount"], name=m["protagonist"]
    )
    return text + (f" — {m['label']}" if m.get("label") else "")


def clock_lines(ctx: Context, clock: dict[str, Any]) -> list[str]:
    """The clock's lines: Scène, Tour and game time, then the modifiers and long Actions."""
    from tablee.systems.shs import game_time

    kinds = {"rythmee": ctx.tr("scène rythmée"), "lente": ctx.tr("scène lente")}
    scene = (
        ctx.tr("Scène {scene} ({kind})").format(
            scene=clock["scene"], kind=kinds[clock["scene_kind"]]
        )
        if clock["scene_kind"]
        else ctx.tr("No Scène yet")
    )
    lines = [
        ctx.tr("{scene}, Tour {tour}, game time {time}").format(
            scene=scene, tour=clock["tour"], time=game_time(clock["seconds"])
        )
    ]
    for m in clock["modifiers"]:
        line = f"  #{m['number']} {_modifier_text(ctx, m)}"
        if m.get("protagonist_alive") is False:
            line += " " + ctx.tr("(dead: applies to no roll)")
        lines.append(line)
    for action in clock["long_actions"]:
        lines.append(
            "  "
            + ctx.tr("{name}: {label}, rolled in Tour {last}").format(
                name=action["protagonist"], label=action["label"], last=action["last_tour"]
            )
        )
    return lines


def _clock_done(ctx: Context, applied: Any, head: str, extra: list[str] | None = None) -> int:
    from tablee.systems.shs import clock_json

    clock = clock_json(game_of(applied.state).clock)
    if ctx.json:
        ctx.emit_json(
            {
                **applied_head(applied),
                **applied.events[-1].payload,
                "clock": clock,
                "warnings": [w.render(ctx.tr) for w in applied.decision.warnings],
            }
        )
        return 0
    lines = [head, *(extra or []), *warning_lines(ctx, applied.decision)]
    ctx.emit("\n".join(lines))
    return 0


def _expired_lines(ctx: Context, payload: Any) -> list[str]:
    return [
        ctx.tr("Expired: {modifier}").format(modifier=_modifier_text(ctx, m))
        for m in payload.get("expired", [])
    ]


def cmd_scene(ctx: Context) -> int:
    """``tablee shs scene start rythmee|lente`` (S-M8)."""
    from tablee.systems.shs import decide_scene

    applied = execute(ctx, lambda g: decide_scene(g, kind=ctx.args.kind))
    p = applied.events[-1].payload
    kinds = {"rythmee": ctx.tr("scène rythmée"), "lente": ctx.tr("scène lente")}
    head = ctx.tr("Scène {scene} begins: {kind}.").format(scene=p["scene"], kind=kinds[p["kind"]])
    return _clock_done(ctx, applied, head)


def cmd_tour(ctx: Context) -> int:
    """``tablee shs tour next``: the next Tour; modifiers that ran their course expire."""
    from tablee.systems.shs import decide_next_tour

    applied = execute(ctx, decide_next_tour)
    p = applied.events[-1].payload
    head = ctx.tr("Tour {tour} begins.").format(tour=p["tour"])
    lapsed = [
        ctx.tr("Lapsed: {name}'s {label}").format(name=x["protagonist"], label=x["label"])
        for x in p["lapsed"]
    ]
    return _clock_done(ctx, applied, head, _expired_lines(ctx, p) + lapsed)


def cmd_time(ctx: Context) -> int:
    """``tablee shs time advance DURATION``: game time passes; modifiers past it expire."""
    from tablee.systems.shs import decide_advance_time, game_time

    text = " ".join(ctx.args.duration)
    applied = execute(ctx, lambda g: decide_advance_time(g, duration=text))
    p = applied.events[-1].payload
    head = ctx.tr("Game time +{duration}: {total}.").format(
        duration=game_time(p["seconds"]), total=game_time(p["total"])
    )
    return _clock_done(ctx, applied, head, _expired_lines(ctx, p))


def cmd_modifier_add(ctx: Context) -> int:
    """``tablee shs modifier add``: a temporary Bonus or Malus that expires by itself (S-M3)."""
    from tablee.systems.shs import Duration, decide_add_modifier

    a = ctx.args
    kind, amount = ("bonus", a.bonus) if a.bonus is not None else ("malus", a.malus)
    duration: Duration | str = Duration(tours=a.tours) if a.tours is not None else a.time
    table = ctx.service.resolve_name(a.table)
    applied = ctx.service.execute(
        table,
        lambda s: decide_add_modifier(
            game_of(s),
            protagonist=a.protagoniste,
            kind=kind,
            amount=amount,
            duration=duration,
            label=a.label or "",
            seq=s.last_seq + 1,  # the modifier's number: the seq this fact is stored at
        ),
        lambda d: d.facts,
    )
    number = applied.events[-1].seq
    p = applied.events[-1].payload
    head = ctx.tr("Modifier #{number}: {modifier}").format(
        number=number, modifier=_modifier_text(ctx, dict(p))
    )
    if ctx.json:
        from tablee.systems.shs import clock_json

        ctx.emit_json(
            {
                **applied_head(applied),
                "number": number,
                **p,
                "clock": clock_json(game_of(applied.state).clock),
            }
        )
        return 0
    ctx.emit(head)
    return 0


def cmd_modifier_end(ctx: Context) -> int:
    """``tablee shs modifier end NUMBER``: the Réalisateur ends a modifier early (S-A15)."""
    from tablee.systems.shs import decide_end_modifier

    applied = execute(ctx, lambda g: decide_end_modifier(g, number=ctx.args.number))
    p = applied.events[-1].payload
    head = ctx.tr("Modifier #{number} ended: {modifier}").format(
        number=p["number"], modifier=_modifier_text(ctx, dict(p["modifier"]))
    )
    return _clock_done(ctx, applied, head)


def cmd_long_action(ctx: Context) -> int:
    """``tablee shs long-action start``: an Action over several Tours, rolled in its last."""
    from tablee.systems.shs import decide_long_action

    a = ctx.args
    applied = execute(
        ctx,
        lambda g: decide_long_action(g, protagonist=a.protagoniste, label=a.label, tours=a.tours),
    )
    p = applied.events[-1].payload
    head = ctx.tr("{name} starts {label}: Tours {start} to {last}, rolled in Tour {last}.").format(
        name=p["protagonist"], label=p["label"], start=p["started"], last=p["last_tour"]
    )
    return _clock_done(ctx, applied, head)


def cmd_clock(ctx: Context) -> int:
    """``tablee shs clock``: Scène, Tour, game time, modifiers in force, long Actions."""
    from tablee.systems.shs import clock_json

    name, game = state_of(ctx)
    clock = clock_json(game.clock)
    for m in clock["modifiers"]:  # a dead Protagoniste's modifier stays, marked (S-A8)
        hero = game.protagonists.get(str(m["protagonist"]))
        m["protagonist_alive"] = hero is None or hero.alive
    if ctx.json:
        ctx.emit_json({"table": name, "clock": clock})
        return 0
    ctx.emit("\n".join(clock_lines(ctx, clock)))
    return 0


# --- the parsers ---------------------------------------------------------------------------------


def _add_scene(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("scene", help=tr("begin a Scène (S-M8)"))
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    start = sub.add_parser("start", help=tr("begin the next Scène"))
    start.add_argument("kind", choices=("rythmee", "lente"), help=tr("scène rythmée or lente"))
    add_common(start, tr)
    start.set_defaults(handler=cmd_scene)


def _add_tour(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("tour", help=tr("Tours of a scène rythmée (S-M8)"))
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    nxt = sub.add_parser("next", help=tr("begin the next Tour; expired modifiers stop"))
    add_common(nxt, tr)
    nxt.set_defaults(handler=cmd_tour)


def _add_time(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("time", help=tr("game time (S-M8)"))
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    adv = sub.add_parser("advance", help=tr("advance game time; modifiers past it stop"))
    adv.add_argument("duration", nargs="+", help=tr("e.g. 30 min, 1 h, 45 s"))
    add_common(adv, tr)
    adv.set_defaults(handler=cmd_time)


def _add_modifier(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("modifier", help=tr("temporary Bonus and Malus (S-M3)"))
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = sub.add_parser("add", help=tr("a Bonus or Malus for some Tours or some game time"))
    add.add_argument("--protagoniste", required=True, metavar="NAME", help=tr("who it applies to"))
    kind = add.add_mutually_exclusive_group(required=True)
    kind.add_argument("--bonus", type=whole_number(tr), metavar="K", help=tr("a Bonus of K"))
    kind.add_argument("--malus", type=whole_number(tr), metavar="K", help=tr("a Malus of K"))
    span = add.add_mutually_exclusive_group(required=True)
    span.add_argument("--tours", type=whole_number(tr), metavar="T", help=tr("lasts T Tours"))
    span.add_argument("--time", metavar="DURATION", help=tr("lasts a game time: 30 min, 1 h"))
    add.add_argument("--label", metavar="TEXT", help=tr("why"))
    add_common(add, tr)
    add.set_defaults(handler=cmd_modifier_add)
    end = sub.add_parser("end", help=tr("end a modifier by hand (S-A15)"))
    end.add_argument(
        "number",
        type=whole_number(tr),
        help=tr("its number, shown by tablee shs clock: the seq of the event that added it"),
    )
    add_common(end, tr)
    end.set_defaults(handler=cmd_modifier_end)


def _add_long_action(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("long-action", help=tr("Actions over several Tours (S-M8, S-T6)"))
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    start = sub.add_parser("start", help=tr("start it in the current Tour"))
    start.add_argument("--protagoniste", required=True, metavar="NAME", help=tr("who acts"))
    start.add_argument("--label", required=True, metavar="TEXT", help=tr("what is attempted"))
    start.add_argument("--tours", type=whole_number(tr), required=True, help=tr("how many Tours"))
    add_common(start, tr)
    start.set_defaults(handler=cmd_long_action)


def _add_clock(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("clock", help=tr("Scène, Tour, game time, modifiers in force"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_clock)


BUILDERS = {
    "scene": _add_scene,
    "tour": _add_tour,
    "time": _add_time,
    "modifier": _add_modifier,
    "long-action": _add_long_action,
    "clock": _add_clock,
}
"""The builders of ``scene``, ``tour``, ``time``, ``modifier``, ``long-action``, ``clock``."""
