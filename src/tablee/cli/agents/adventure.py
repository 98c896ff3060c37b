"""The scenario generator step by step at the command line, for a game master.

``tablee agents quest|draw|scene|generate|consequence|give-up|contest``; ``play`` runs the
same steps without one.

Source: seed 002; rulings G-M9 to G-M12, G-A13, G-A16, G-A18.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tablee.cli.agents.common import Dice, Tr, add_dice, execute, head, names, state_of
from tablee.cli.app import Context, add_common, whole_number

__all__ = ["ADVENTURE_BUILDERS"]


def _report(ctx: Context, applied: Any) -> int:
    """Show what was stored: one line per event, or JSON with each event's payload."""
    from rich.markup import escape

    if ctx.json:
        events = [{"seq": e.seq, "kind": e.kind, **e.payload} for e in applied.events]
        ctx.emit_json({**head(applied), "events": events})
        return 0
    system = applied.state.system
    lines = [
        escape(system.describe(e.kind, e.payload, None).render(ctx.tr)) for e in applied.events
    ]
    ctx.emit("\n".join(lines))
    return 0


def cmd_quest(ctx: Context) -> int:
    """``tablee agents quest``: draw a quest from the starter tables or a folder (G-M9)."""
    from tablee.systems.agents import decide_quest
    from tablee.systems_io.agents_tables import load_tables, starter_tables

    a = ctx.args
    if a.tables:
        tables, source = load_tables(Path(a.tables)), Path(a.tables).name or a.tables
    else:
        lang = a.starter or ("fr" if ctx.lang == "fr" else "en")
        tables, source = starter_tables(lang), f"starter:{lang}"
    dice = Dice(ctx)
    face = dice.roll(1, tables.objectives.die)[0]
    dice.finish()
    return _report(
        ctx, execute(ctx, lambda g: decide_quest(g, tables=tables, source=source, face=face))
    )


def cmd_draw(ctx: Context) -> int:
    """``tablee agents draw``: one entry of a quest table (environment, creatures, boon)."""
    from tablee.systems.agents import TableKind, decide_draw

    a = ctx.args
    _, game = state_of(ctx)
    face = 1  # without a quest the decision refuses before reading it
    if game.tables is not None:
        dice = Dice(ctx)
        face = dice.roll(1, game.tables.table(TableKind(a.kind)).die)[0]
        dice.finish()
    return _report(ctx, execute(ctx, lambda g: decide_draw(g, table=a.kind, face=face)))


def cmd_scene(ctx: Context) -> int:
    """``tablee agents scene``: start the quest's next scene (G-M11, G-A16)."""
    from tablee.systems.agents import decide_scene

    return _report(ctx, execute(ctx, decide_scene))


def cmd_generate(ctx: Context) -> int:
    """``tablee agents generate``: draw the scene's challenge for some agents (G-M9 step 3)."""
    from tablee.systems.agents import CHALLENGE_GENERATOR, ChallengeInputs, decide_generate

    a = ctx.args
    _, game = state_of(ctx)
    group = names(a.agents) or [
        n for n in game.agents if game.quest is None or n not in game.quest.sitting_out
    ]
    progress = game.quest.progress if game.quest is not None else 0
    inputs = ChallengeInputs(min(progress, 3), len(group) or 1)
    count = CHALLENGE_GENERATOR.dice_for(inputs).count
    dice = Dice(ctx)
    faces = dice.roll(count)
    dice.finish()
    opposition = a.opposition
    if not opposition:  # named by its source, in words of the reader's language
        from tablee.errors import InputError
        from tablee.systems.agents.log import SOURCE_WORDS

        try:
            source = CHALLENGE_GENERATOR.resolve(inputs, faces).source.value
        except InputError:
            source = None  # bad faces: the decision names them
        opposition = ctx.tr(SOURCE_WORDS[source]) if source else None
    return _report(
        ctx,
        execute(
            ctx,
            lambda g: decide_generate(g, agents=group, faces=faces, opposition=opposition),
        ),
    )


def cmd_consequence(ctx: Context) -> int:
    """``tablee agents consequence``: apply a drawn challenge's consequences (G-M10)."""
    from tablee.systems.agents import decide_consequence

    number = ctx.args.challenge
    return _report(ctx, execute(ctx, lambda g: decide_consequence(g, challenge=number)))


def cmd_give_up(ctx: Context) -> int:
    """``tablee agents give-up``: the agents abandon their quest (G-M9 step 6)."""
    from tablee.systems.agents import decide_quest_abandon

    return _report(ctx, execute(ctx, decide_quest_abandon))


def cmd_contest(ctx: Context) -> int:
    """``tablee agents contest start|challenge|settle|close``: the artefact (G-M12, G-A18)."""
    from tablee.systems import agents

    a = ctx.args
    if a.step == "start":
        applied = execute(ctx, lambda g: agents.decide_contest_start(g, favori=a.favori))
    elif a.step == "challenge":
        applied = execute(
            ctx,
            lambda g: agents.decide_contest_challenge(
                g,
                challengers=names(a.challengers),
                attribute=a.attribute,
                wanting=names(a.wanting),
                allies=names(a.allies),
            ),
        )
    elif a.step == "settle":
        applied = execute(
            ctx, lambda g: agents.decide_contest_settle(g, challenge=a.challenge, taker=a.taker)
        )
    else:
        applied = execute(ctx, lambda g: agents.decide_contest_close(g, wanting=names(a.wanting)))
    return _report(ctx, applied)


# --- the parsers -----------------------------------------------------------------------------


def _add_quest(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("quest", help=tr("draw a quest: index 0, objective secret (G-M9)"))
    p.add_argument("--tables", metavar="FOLDER", help=tr("a folder with your own four tables"))
    p.add_argument("--starter", choices=("fr", "en"), help=tr("the starter tables' language"))
    add_dice(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_quest)


def _add_draw(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("draw", help=tr("draw from a quest table: where, who, what helps"))
    p.add_argument(
        "kind",
        choices=("environments", "creatures", "boons"),
        help=tr("the table to draw from (the objective is drawn with the quest)"),
    )
    add_dice(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_draw)


def _add_scene(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("scene", help=tr("start the quest's next scene (G-A16)"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_scene)


def _add_generate(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("generate", help=tr("draw the scene's challenge (G-M9, G-N3, G-N4)"))
    p.add_argument(
        "--agents", metavar="A,B", help=tr("the agents involved (default: all who take part)")
    )
    p.add_argument(
        "--opposition",
        metavar="NAME",
        help=tr("who or what opposes them (default: the source, in words)"),
    )
    add_dice(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_generate)


def _add_consequence(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("consequence", help=tr("apply a drawn challenge's consequences (G-M10)"))
    p.add_argument(
        "--challenge",
        type=whole_number(tr),
        required=True,
        metavar="N",
        help=tr("the challenge's number"),
    )
    add_common(p, tr)
    p.set_defaults(handler=cmd_consequence)


def _add_give_up(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("give-up", help=tr("the agents abandon their quest (G-M9)"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_give_up)


def _add_contest(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("contest", help=tr("the artefact contest, step by step (G-M12)"))
    p.add_argument("step", choices=("start", "challenge", "settle", "close"))
    p.add_argument("--favori", help=tr("start: the favori among agents tied for most wins"))
    p.add_argument("--challengers", metavar="A,B", help=tr("challenge: the alliance"))
    p.add_argument(
        "--attribute", default="muscles", help=tr("challenge: Muscles, Sexe or Intelligence")
    )
    p.add_argument("--allies", metavar="A,B", help=tr("challenge: agents siding with the holder"))
    p.add_argument(
        "--wanting", metavar="A,B", help=tr("challenge, close: who else wants to challenge")
    )
    p.add_argument(
        "--challenge", type=whole_number(tr), metavar="N", help=tr("settle: the challenge")
    )
    p.add_argument("--taker", help=tr("settle: who of the alliance takes the artefact"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_contest)


ADVENTURE_BUILDERS = {
    "quest": _add_quest,
    "draw": _add_draw,
    "scene": _add_scene,
    "generate": _add_generate,
    "consequence": _add_consequence,
    "give-up": _add_give_up,
    "contest": _add_contest,
}
"""The generator's commands and the functions adding their parsers."""
