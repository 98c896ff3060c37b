"""``tablee ybs character ...``, ``session``, ``tokens``, ``invoke`` and ``shichi``.

Creating, importing and showing characters (with `character_lines`, also used by ``table
show``), starting and ending a session, the Unmei tokens each holder has, invoking an
attribute and Shichi Fukujin.

Source: seed 004; rulings Y-M1, Y-M2, Y-M4, Y-A7, Y-A21.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.ybs.common import Tr, emit_applied, execute, game_of
from tablee.dice import TraceStep
from tablee.errors import N_, InputError, TableeError

if TYPE_CHECKING:
    from tablee.systems.ybs import YbsState


__all__ = ["CHARACTER_BUILDERS", "TRAIT_IDS", "character_lines"]

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


CHARACTER_BUILDERS = {"character": _add_character, "session": _add_tokens}
"""The builders of the character and token commands (the key is the first command added)."""
