"""The ``tablee ybs`` commands: characters, sessions and tokens, tests, damage, fights, evolution.

Source: issue 4 points 1 to 5, 8, 9 and 11; seed 004; rulings Y-M1 to Y-M6, Y-M9.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.render import percent
from tablee.cli.ybs.common import Tr, dice_options, emit_applied, execute, game_of, throw
from tablee.dice import TraceStep
from tablee.errors import N_, InputError, TableeError

if TYPE_CHECKING:
    from tablee.systems.ybs import YbsState

__all__ = ["BUILDERS", "character_lines"]

TRAIT_IDS = ("choushi", "kiyousa", "chisei", "yuuben", "chikaku", "nintai")


# --- characters ----------------------------------------------------------------------------


def character_lines(ctx: Context, name: str, doc: dict[str, Any]) -> list[str]:
    """A character for people: name and player, traits with stars, boxes, attributes."""
    owner = doc["owner"] or ctx.tr("GM character")
    tokens = "" if doc["tokens"] is None else ", " + ctx.tr("tokens: {n}").format(n=doc["tokens"])
    traits = ", ".join(
        f"{t.capitalize()} {doc['traits'][t]:+d}" + ("*" * doc["stars"][t]) for t in TRAIT_IDS
    )
    boxes = (
        "/" * doc["uchimi"]
        + "X" * doc["kega"]
        + "□" * (doc["hit_points"] - doc["uchimi"] - doc["kega"])
    )
    state = ""
    if doc["emergency"]:
        state = " [red]" + ctx.tr("life in danger: call for help") + "[/]"
    elif doc["prostrate"]:
        state = " [red]" + ctx.tr("prostrate") + "[/]"
    lines = [
        f"[bold]{name}[/] ({owner}{tokens})",
        f"  {traits}",
        "  " + ctx.tr("Boxes: {boxes}").format(boxes=boxes) + state,
    ]
    if doc["attributes"]:
        lines.append("  " + ctx.tr("Attributes: {list}").format(list=", ".join(doc["attributes"])))
    return lines


def _traits_of(a: argparse.Namespace) -> dict[str, int]:
    return {t: getattr(a, t) for t in TRAIT_IDS}


def cmd_character_create(ctx: Context) -> int:
    """``tablee ybs character create NAME --choushi N ...`` (Y-M1, Y-A21)."""
    from tablee.systems.ybs import decide_create

    a = ctx.args
    applied = execute(
        ctx,
        lambda g: decide_create(
            g, name=a.name, traits=_traits_of(a), attributes=a.attribute or [], owner=a.player
        ),
    )
    return emit_applied(ctx, applied)


def cmd_character_import(ctx: Context) -> int:
    """``tablee ybs character import FILE``: characters from JSON or TOML, all or none."""
    from tablee.systems.ybs import Decision, decide_create, parse_sheets

    path = Path(ctx.args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(
            N_("cannot read {path}: {error}"),
            path=str(path),
            error=getattr(exc, "strerror", None) or str(exc),
        ) from None
    sheets = parse_sheets(text, toml=path.suffix.lower() == ".toml", where=str(path))

    def decide(game: YbsState) -> Decision:
        facts: list[Any] = []
        warnings: list[Any] = []
        state = game
        for number, sheet in enumerate(sheets, start=1):
            try:
                decision = decide_create(state, **sheet)
            except TableeError as exc:
                raise type(exc)(
                    N_("{file}, character {n}: {error}"), file=str(path), n=number, error=exc
                ) from None
            facts += decision.facts
            warnings += [
                TraceStep(N_("{name}: {warning}"), {"name": sheet["name"], "warning": w})
                for w in decision.warnings
            ]
            state = decision.after
        return Decision(tuple(facts), None, tuple(warnings), state)

    applied = execute(ctx, decide)
    names = [str(e.payload["name"]) for e in applied.events]
    if ctx.json:
        from tablee.systems.ybs import character_json

        game = game_of(applied.state)
        ctx.emit_json(
            {
                "table": applied.state.name,
                "seq": applied.events[-1].seq,
                "file": str(path),
                "characters": [{"name": n, **character_json(game, n)} for n in names],
            }
        )
        return 0
    lines = [
        ctx.tr("Characters imported ({count}): {names}").format(
            count=len(names), names=", ".join(names)
        )
    ]
    lines += [f"[yellow]{w.render(ctx.tr)}[/]" for w in applied.decision.warnings]
    ctx.emit("\n".join(lines))
    return 0


def cmd_character_show(ctx: Context) -> int:
    """``tablee ybs character show [NAME]``: one character or all."""
    from tablee.systems.ybs import character_json, character_named

    name = ctx.service.resolve_name(ctx.args.table)
    game = game_of(ctx.service.state(name))
    names = [character_named(game, ctx.args.name)] if ctx.args.name else list(game.characters)
    docs = {n: character_json(game, n) for n in names}
    if ctx.json:
        ctx.emit_json({"table": name, "characters": docs})
        return 0
    lines: list[str] = []
    for n, doc in docs.items():
        lines += character_lines(ctx, n, doc)
    ctx.emit("\n".join(lines) or ctx.tr("No character yet."))
    return 0


def _add_character(cmds: Any, tr: Tr) -> None:
    group = cmds.add_parser("character", help=tr("create, import and show characters (Y-M1)"))
    sub = group.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = sub.add_parser("create", help=tr("a new character: six traits from -2 to +2"))
    create.add_argument("name", metavar="NAME", help=tr("the character's name"))
    for trait in TRAIT_IDS:
        create.add_argument(
            f"--{trait}",
            type=whole_number(tr),
            default=0,
            metavar="-2..2",
            help=tr("the trait {trait}, -2 to +2 (default 0)").format(trait=trait.capitalize()),
        )
    create.add_argument("--player", metavar="NAME", help=tr("who plays it (none: a GM character)"))
    create.add_argument(
        "--attribute", action="append", metavar="TEXT", help=tr("an attribute (repeatable)")
    )
    add_common(create, tr)
    create.set_defaults(handler=cmd_character_create)
    imp = sub.add_parser("import", help=tr("characters from a JSON or TOML file, all or none"))
    imp.add_argument(
        "file",
        metavar="FILE",
        help=tr("a .json or .toml file: one sheet or a list (name, player, traits, attributes)"),
    )
    add_common(imp, tr)
    imp.set_defaults(handler=cmd_character_import)
    show = sub.add_parser("show", help=tr("a character's sheet, or every character"))
    show.add_argument(
        "name", metavar="NAME", nargs="?", help=tr("the character (default: every character)")
    )
    add_common(show, tr)
    show.set_defaults(handler=cmd_character_show)


# --- sessions and tokens -------------------------------------------------------------------


def cmd_session(ctx: Context) -> int:
    """``tablee ybs session start|end`` (Y-M4)."""
    from tablee.systems.ybs import decide_end_session, decide_start_session

    decide = decide_start_session if ctx.args.action == "start" else decide_end_session
    return emit_applied(ctx, execute(ctx, decide))


def cmd_tokens(ctx: Context) -> int:
    """``tablee ybs tokens``: who holds how many Unmei tokens."""
    from tablee.cli.ybs.common import tokens_line

    name = ctx.service.resolve_name(ctx.args.table)
    game = game_of(ctx.service.state(name))
    if ctx.json:
        ctx.emit_json(
            {
                "table": name,
                "supply": game.ledger.supply,
                "tokens": {"gm": game.ledger.gm, **game.ledger.players},
            }
        )
        return 0
    ctx.emit(tokens_line(ctx, game))
    return 0


def cmd_invoke(ctx: Context) -> int:
    """``tablee ybs invoke CHARACTER --attribute TEXT``: 1 token to its player (Y-M2)."""
    from tablee.systems.ybs import decide_invoke

    a = ctx.args
    applied = execute(
        ctx,
        lambda g: decide_invoke(g, character=a.character, attribute=a.attribute, note=a.note or ""),
    )
    return emit_applied(ctx, applied)


def cmd_shichi(ctx: Context) -> int:
    """``tablee ybs shichi-fukujin PLAYER``: 7 tokens at once (Y-M4).

    PLAYER may also be one of the player's characters, as ``invoke`` and ``test`` name them.
    """
    from tablee.systems.ybs import decide_shichi_fukujin

    a = ctx.args

    def decide(game: YbsState) -> Any:
        return decide_shichi_fukujin(
            game, player=_player_of(game, a.player), proposal=a.proposal or ""
        )

    return emit_applied(ctx, execute(ctx, decide))


def _player_of(game: YbsState, name: str) -> str:
    """A player's name, or the player of the character so named (else the player error)."""
    from tablee.systems.ybs import character_named, player_named

    try:
        return player_named(game, name)
    except TableeError as missing:
        try:
            owner = game.owners.get(character_named(game, name))
        except TableeError:
            raise missing from None
        if owner is None:
            raise missing from None
        return owner


def _add_tokens(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("session", help=tr("start or end a session: 2 tokens each, then back"))
    p.add_argument(
        "action",
        choices=("start", "end"),
        help=tr("start: 2 tokens to each player; end: every unspent token back to the GM"),
    )
    add_common(p, tr)
    p.set_defaults(handler=cmd_session)
    p = cmds.add_parser("tokens", help=tr("who holds the Unmei tokens"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_tokens)
    p = cmds.add_parser(
        "invoke", help=tr("the GM invokes an attribute against a character: 1 token (Y-M2)")
    )
    p.add_argument("character", metavar="CHARACTER", help=tr("the character's name"))
    p.add_argument("--attribute", required=True, metavar="TEXT", help=tr("the attribute"))
    p.add_argument("--note", "--reason", metavar="TEXT", help=tr("a note kept in the log"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_invoke)
    p = cmds.add_parser(
        "shichi-fukujin", help=tr("a player spends 7 tokens to rewrite the scene (Y-M4)")
    )
    p.add_argument(
        "player", metavar="PLAYER", help=tr("the player (or one of the player's characters)")
    )
    p.add_argument("--proposal", metavar="TEXT", help=tr("what the GM approved"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_shichi)


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


BUILDERS = {
    "character": _add_character,
    "session": _add_tokens,
    "test": _add_test,
    "damage": _add_damage,
    "fight": _add_fight,
    "star": _add_evolution,
}
"""A builder per group of commands (the key is the first command it adds)."""
