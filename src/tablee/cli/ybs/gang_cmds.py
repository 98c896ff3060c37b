"""``tablee ybs gang ...`` and ``tablee ybs ichika``: gang fights throw by throw, Ichika Bachika.

Each gang-fight throw shows, for every side still racing, the advisor's keep choices for the
next throw with their exact chance of a straight and expected number of throws; by default
both sides keep what the advisor picks (``--keep`` and ``--gm-keep`` name other faces).

Source: issue 4 points 6, 7 and 9; seed 004; rulings Y-M7, Y-M8, Y-A12 to Y-A18.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.render import decimal, percent
from tablee.cli.ybs.common import Tr, emit_applied, execute, game_of
from tablee.cli.ybs.odds import fraction_text
from tablee.dice import (
    D6,
    FairSource,
    RandomSource,
    SeededSource,
    TypedFaces,
    parse_faces,
    typed_faces,
)
from tablee.errors import N_, InputError

if TYPE_CHECKING:
    from tablee.systems.ybs import YbsState

__all__ = ["BUILDERS", "advice_json", "advice_lines"]

SHOWN_CHOICES = 6
"""Keep choices listed in text output (JSON lists them all)."""


def _keep(text: str | None, advised: tuple[int, ...], flag: str = "--keep") -> tuple[int, ...]:
    """``advised`` (default), ``none`` (reroll every die) or faces ``2,3``.

    Raises:
        InputError: a part that is not a face from 1 to 6, naming the option and the value.
    """
    if text is None or text.strip().lower() == "advised":
        return advised
    if text.strip().lower() in ("none", ""):
        return ()
    try:
        return parse_faces(text, D6)
    except InputError as exc:
        raise InputError(
            N_("{flag}: {error} (faces to keep, or advised, or none; rule Y-M7)"),
            flag=flag,
            error=exc,
        ) from None


def _typed(text: str | None, flag: str) -> list[int] | None:
    """Faces typed in with ``flag`` (None when not given or blank).

    Raises:
        InputError: a face that is not a d6 face, naming the option, the face and its place.
    """
    try:
        faces = typed_faces(text, D6)
    except InputError as exc:
        raise InputError(N_("{flag}: {error}"), flag=flag, error=exc) from None
    return None if faces is None else list(faces)


def _faces(ctx: Context, counts: tuple[int, int]) -> tuple[list[int], list[int]]:
    a = ctx.args
    typed = (_typed(a.faces, "--dice"), _typed(a.gm_faces, "--gm-dice"))
    if typed != (None, None):
        out: list[list[int]] = []
        for flag, given, count in zip(("--dice", "--gm-dice"), typed, counts, strict=True):
            faces = TypedFaces(given or [])
            try:
                faces.expect(D6, count)
            except InputError as exc:
                raise InputError(N_("{flag}: {error}"), flag=flag, error=exc) from None
            out.append(list(faces.roll(D6, count)))
        return out[0], out[1]
    source: RandomSource = SeededSource(a.seed) if a.seed is not None else FairSource()
    return list(source.roll(D6, counts[0])), list(source.roll(D6, counts[1]))


def advice_json(hand: tuple[int, ...]) -> list[dict[str, Any]]:
    """Every keep choice for a hand, best first, with exact fractions."""
    from tablee.systems.ybs.advisor import advise

    return [
        {
            "keep": list(c.kept),
            "reroll": c.rerolled,
            "straight_next_throw": fraction_text(c.straight_probability),
            "expected_throws": fraction_text(c.expected_throws),
        }
        for c in advise(hand).choices
    ]


def advice_lines(ctx: Context, side: str, hand: tuple[int, ...]) -> list[str]:
    """The advisor's choices for one side, best first (the first few)."""
    from tablee.systems.ybs.advisor import advise

    advice = advise(hand)
    lines = [
        ctx.tr("Keep choices for {side} ({hand}), best first:").format(
            side=side, hand=" ".join(str(f) for f in hand)
        )
    ]
    for choice in advice.choices[:SHOWN_CHOICES]:
        kept = " ".join(str(f) for f in choice.kept) or "-"
        lines.append(
            "  "
            + ctx.tr(
                "keep {kept:<12} reroll {reroll}: straight next throw {p}, {throws} throws expected"
            ).format(
                kept=kept,
                reroll=choice.rerolled,
                p=percent(choice.straight_probability, ctx.lang),
                throws=decimal(choice.expected_throws, ctx.lang),
            )
        )
    hidden = len(advice.choices) - SHOWN_CHOICES
    if hidden > 0:
        lines.append("  " + ctx.tr("… {count} more (all with --json)").format(count=hidden))
    return lines


def _advice(game: YbsState) -> dict[str, tuple[int, ...]]:
    """Each side's hand when the fight goes on and a throw has been made."""
    gang = game.gang
    if gang is None or gang.fight.throws == 0 or gang.fight.finished:
        return {}
    return {"players": gang.fight.players_hand, "gm": gang.fight.gm_hand}


def cmd_gang_start(ctx: Context) -> int:
    """``tablee ybs gang start --fighter NAME ...`` (Y-M7, Y-A12)."""
    from tablee.systems.ybs import decide_gang_start

    a = ctx.args
    applied = execute(
        ctx,
        lambda g: decide_gang_start(
            g,
            fighters=a.fighter or [],
            opponents=a.opponent or [],
            outnumbered=a.outnumbered,
            outgunned=a.outgunned,
            winner_uchimi=a.winner_uchimi,
            loser_uchimi=a.loser_uchimi,
            draw_uchimi=a.draw_uchimi,
        ),
    )
    return emit_applied(ctx, applied)


def cmd_gang_throw(ctx: Context) -> int:
    """``tablee ybs gang throw [--keep F|advised|none] [--gm-keep ...]``: one throw (Y-M7)."""
    from tablee.systems.ybs import decide_gang_throw
    from tablee.systems.ybs.advisor import advised_keeps
    from tablee.systems.ybs.gang import Keeps, dice_for_throw

    a = ctx.args
    name = ctx.service.resolve_name(a.table)
    game = game_of(ctx.service.state(name))
    if game.gang is None:
        decide_gang_throw(game, faces=(), gm_faces=())  # refused: names what to do instead
    advised = advised_keeps(game.gang.fight)
    keeps = Keeps(
        _keep(a.keep, advised.players, "--keep"), _keep(a.gm_keep, advised.gm, "--gm-keep")
    )
    players, gm = dice_for_throw(game.gang.fight, keeps)
    faces, gm_faces = _faces(ctx, (players.count, gm.count))
    applied = execute(
        ctx,
        lambda g: decide_gang_throw(
            g, keep=keeps.players, gm_keep=keeps.gm, faces=faces, gm_faces=gm_faces
        ),
    )
    hands = _advice(game_of(applied.state))
    if ctx.json:
        extra = {"advice": {side: advice_json(hand) for side, hand in hands.items()}}
        return emit_applied(ctx, applied, extra)
    emit_applied(ctx, applied)
    lines: list[str] = []
    labels = {"players": ctx.tr("the players"), "gm": ctx.tr("the GM's side")}
    for side, hand in hands.items():
        lines += advice_lines(ctx, labels[side], hand)
    if lines:
        ctx.emit("\n".join(lines), markup=False)
    return 0


def cmd_gang_advise(ctx: Context) -> int:
    """``tablee ybs gang advise``: the keep choices in front of each side, with exact odds."""
    from tablee.systems.ybs import gang_json

    name = ctx.service.resolve_name(ctx.args.table)
    game = game_of(ctx.service.state(name))
    hands = _advice(game)
    if ctx.json:
        doc = {
            "table": name,
            "gang_fight": gang_json(game),
            "advice": {side: advice_json(hand) for side, hand in hands.items()},
        }
        ctx.emit_json(doc)
        return 0
    if not hands:
        ctx.emit(ctx.tr("No gang-fight throw to advise on: start one, or make its first throw."))
        return 0
    labels = {"players": ctx.tr("the players"), "gm": ctx.tr("the GM's side")}
    lines: list[str] = []
    for side, hand in hands.items():
        lines += advice_lines(ctx, labels[side], hand)
    ctx.emit("\n".join(lines), markup=False)
    return 0


def cmd_gang_stop(ctx: Context) -> int:
    """``tablee ybs gang stop``: the GM ends the fight without damage."""
    from tablee.systems.ybs import decide_gang_stop

    return emit_applied(ctx, execute(ctx, lambda g: decide_gang_stop(g, note=ctx.args.note or "")))


def cmd_ichika(ctx: Context) -> int:
    """``tablee ybs ichika --choice A=ichika_bachika ...``: an unexpected encounter (Y-M8)."""
    from tablee.systems.ybs import decide_encounter_at_table, player_named
    from tablee.systems.ybs.ichika import decide_encounter

    a = ctx.args
    choices: dict[str, str] = {}
    for item in a.choice or []:
        player, sep, choice = item.partition("=")
        if not sep or not player.strip():
            raise InputError(N_("--choice {value!r}: expected PLAYER=CHOICE"), value=item)
        choices[player.strip()] = choice.strip().lower().replace("-", "_")
    name = ctx.service.resolve_name(a.table)
    game = game_of(ctx.service.state(name))
    kind = decide_encounter({player_named(game, p): c for p, c in choices.items()}).kind
    faces, gm_faces = _faces(ctx, (5, 5)) if kind == "ichika_bachika" else ([], [])
    applied = execute(
        ctx,
        lambda g: decide_encounter_at_table(
            g,
            choices=choices,
            opponents=a.opponent or [],
            faces=faces,
            gm_faces=gm_faces,
            outnumbered=a.outnumbered,
            outgunned=a.outgunned,
        ),
    )
    return emit_applied(ctx, applied)


def _sides(p: argparse.ArgumentParser, tr: Tr) -> None:
    p.add_argument(
        "--opponent",
        action="append",
        metavar="CHARACTER",
        help=tr("a GM character in the fight (repeatable)"),
    )
    p.add_argument(
        "--outnumbered", choices=("players", "gm"), help=tr("the side with fewer fighters (Y-M7)")
    )
    p.add_argument(
        "--outgunned", choices=("players", "gm"), help=tr("the side with worse weapons (Y-M7)")
    )


def _gang_dice(p: argparse.ArgumentParser, tr: Tr, *, once: bool = False) -> None:
    """``--dice``/``--faces``, ``--gm-dice``/``--gm-faces`` and ``--seed``.

    ``--dice`` is the name of the pouyss and shs commands; ``--faces`` stays as an alias.
    """
    p.add_argument(
        "--dice",
        "--faces",
        dest="faces",
        metavar="1,5",
        help=tr("the players' 5 faces, read on physical dice")
        if once
        else tr("the players' new faces (the rerolled dice), read on physical dice"),
    )
    p.add_argument(
        "--gm-dice",
        "--gm-faces",
        dest="gm_faces",
        metavar="2,6",
        help=tr("the GM's 5 faces, read on physical dice")
        if once
        else tr("the GM's new faces (the rerolled dice), read on physical dice"),
    )
    p.add_argument("--seed", type=whole_number(tr), help=tr("roll reproducibly from this seed"))


def _add_gang(cmds: Any, tr: Tr) -> None:
    group = cmds.add_parser(
        "gang", help=tr("a gang fight, throw by throw, with the advisor (Y-M7)")
    )
    sub = group.add_subparsers(dest="action", required=True, metavar="ACTION")
    p = sub.add_parser("start", help=tr("start a gang fight: dice from the disadvantages"))
    p.add_argument(
        "--fighter",
        action="append",
        required=True,
        metavar="CHARACTER",
        help=tr("a fighter on the players' side (repeatable)"),
    )
    _sides(p, tr)
    for key, text in (
        ("winner", N_("Uchimi for each fighter of the winning side (default 1, Y-M7)")),
        ("loser", N_("Uchimi for each fighter of the losing side (default 3, Y-M7)")),
        ("draw", N_("Uchimi for every fighter on identical straights (default 2, Y-M7)")),
    ):
        p.add_argument(f"--{key}-uchimi", type=whole_number(tr), metavar="N", help=tr(text))
    add_common(p, tr)
    p.set_defaults(handler=cmd_gang_start)
    p = sub.add_parser(
        "throw", help=tr("one throw: each side keeps some dice and rerolls the rest")
    )
    p.add_argument(
        "--keep",
        metavar="FACES|advised|none",
        help=tr("the faces the players keep (default: advised)"),
    )
    p.add_argument(
        "--gm-keep",
        metavar="FACES|advised|none",
        help=tr("the faces the GM keeps (default: advised)"),
    )
    _gang_dice(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_gang_throw)
    p = sub.add_parser("advise", help=tr("each side's keep choices with their exact odds"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_gang_advise)
    p = sub.add_parser("stop", help=tr("the GM stops the gang fight, no damage"))
    p.add_argument("--note", "--reason", metavar="TEXT", help=tr("a note kept in the log"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_gang_stop)
    p = cmds.add_parser(
        "ichika", help=tr("an unexpected encounter: flee, gang fight or Ichika Bachika (Y-M8)")
    )
    p.add_argument(
        "--choice",
        action="append",
        required=True,
        metavar="PLAYER=CHOICE",
        help=tr("a player's secret choice: flee, gang-fight or ichika-bachika"),
    )
    _sides(p, tr)
    _gang_dice(p, tr, once=True)
    add_common(p, tr)
    p.set_defaults(handler=cmd_ichika)


BUILDERS = {"gang": _add_gang}
"""The builder of ``gang`` and ``ichika``."""
