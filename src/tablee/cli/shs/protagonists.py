"""``tablee shs protagoniste ...``: create, import, show, edit, kill and revive Protagonistes.

Source: seed 003; rulings S-M9, S-N1, S-A9, S-A10.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.common import applied_head
from tablee.cli.shs.common import Tr, execute, game_of, signed_change, warning_lines
from tablee.errors import N_, InputError, TableeError

if TYPE_CHECKING:
    from tablee.systems.shs import ShsState

__all__ = [
    "BUILDERS",
    "cmd_create",
    "cmd_edit",
    "cmd_import",
    "cmd_life",
    "cmd_show",
    "hero_lines",
]


_CHARACTERISTICS = ("carrure", "motricite", "science", "relationnel", "sang_froid")


def hero_lines(ctx: Context, name: str, hero: dict[str, Any]) -> list[str]:
    """A Protagoniste's lines: name and player, thresholds, counters, Expertises."""
    from tablee.systems.shs import Characteristic

    owner = hero["owner"] or ctx.tr("Réalisateur")
    status = "" if hero["alive"] else " [red]" + ctx.tr("(dead)") + "[/]"
    traits = ", ".join(f"{c.title} {hero[c.value]}+" for c in Characteristic)
    counters = ctx.tr("Santé {sante}/{max}, Protection {protection}, Air {air}, NT {nt}").format(
        sante=hero["sante"],
        max=hero["sante_max"],
        protection=hero["protection"],
        air=hero["air"],
        nt=hero["nt"],
    )
    lines = [f"[bold]{name}[/] ({owner}){status}", f"  {traits}", f"  {counters}"]
    if hero["expertises"]:
        lines.append("  " + ctx.tr("Expertises: {list}").format(list=", ".join(hero["expertises"])))
    return lines


def _hero_doc(applied: Any, name: str) -> dict[str, Any]:
    from tablee.systems.shs import protagonist_json

    return {"name": name, **protagonist_json(game_of(applied.state), name)}


def cmd_create(ctx: Context) -> int:
    """``tablee shs protagoniste create``: free entry, Santé from Carrure (S-M9, S-N1)."""
    from tablee.systems.shs import decide_create, parse_threshold

    a = ctx.args
    thresholds = {c: parse_threshold(getattr(a, c), what=c) for c in _CHARACTERISTICS}
    applied = execute(
        ctx,
        lambda g: decide_create(
            g,
            name=a.name,
            expertises=a.expertise or [],
            protection=a.protection,
            air=a.air,
            owner=a.player,
            **thresholds,
        ),
    )
    name = applied.decision.outcome.name
    doc = _hero_doc(applied, name)
    if ctx.json:
        ctx.emit_json({**applied_head(applied), "protagoniste": doc})
        return 0
    head = ctx.tr("Protagoniste {name} created.").format(name=name)
    ctx.emit("\n".join([head, *hero_lines(ctx, name, doc)]))
    return 0


def _read_sheets(path: Path) -> list[dict[str, Any]]:
    """The Protagonistes of a JSON or TOML file (see `tablee.systems.shs.sheets`)."""
    from tablee.systems.shs.sheets import parse_sheets

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(
            N_("cannot read {file}: {reason}"), file=str(path), reason=exc.strerror
        ) from None
    return parse_sheets(text, toml=path.suffix.lower() == ".toml", where=str(path))


def cmd_import(ctx: Context) -> int:
    """``tablee shs protagoniste import FILE``: Protagonistes from JSON or TOML, all or none."""
    from tablee.systems.shs import Decision, decide_create

    path = Path(ctx.args.file)
    sheets = _read_sheets(path)

    def decide(game: ShsState) -> Decision:
        facts: list[Any] = []
        state = game
        for number, fields in enumerate(sheets, start=1):
            try:
                decision = decide_create(state, **fields)
            except TableeError as exc:
                raise type(exc)(
                    N_("{file}: Protagoniste {number}: {error}"),
                    file=str(path),
                    number=number,
                    error=exc,
                ) from None
            facts += decision.facts
            state = decision.after
        return Decision(tuple(facts), None, (), state)

    applied = execute(ctx, decide)
    names = [str(e.payload["name"]) for e in applied.events]
    if ctx.json:
        docs = [_hero_doc(applied, n) for n in names]
        ctx.emit_json({**applied_head(applied), "file": str(path), "protagonistes": docs})
        return 0
    ctx.emit(
        ctx.tr("Protagonistes imported ({count}): {names}").format(
            count=len(names), names=", ".join(names)
        )
    )
    return 0


def cmd_show(ctx: Context) -> int:
    """``tablee shs protagoniste show [NAME]``: traits, counters, alive or dead."""
    from tablee.systems.shs import protagonist_json, protagonist_named

    name = ctx.service.resolve_name(ctx.args.table)
    game = game_of(ctx.service.state(name))
    names = list(game.protagonists)
    if ctx.args.name is not None:
        names = [protagonist_named(game, ctx.args.name)]
    docs = {n: protagonist_json(game, n) for n in names}
    if ctx.json:
        ctx.emit_json({"table": name, "protagonistes": docs})
        return 0
    lines = [line for n, doc in docs.items() for line in hero_lines(ctx, n, doc)]
    ctx.emit("\n".join(lines) or ctx.tr("No Protagoniste yet."))
    return 0


def cmd_edit(ctx: Context) -> int:
    """``tablee shs protagoniste edit NAME``: Santé, Protection, Air, NT by hand (S-A9, S-A10)."""
    from tablee.systems.shs import Decision, decide_counter

    a = ctx.args
    changes = []
    for counter in ("sante", "protection", "air", "nt"):
        delta, value = getattr(a, counter), getattr(a, "set_" + counter)
        if delta is not None or value is not None:
            changes.append((counter, delta, value))
    if not changes:
        raise InputError(
            N_("nothing to edit"), tip=N_("give --sante +N or -N, --set-sante N, --air, --nt...")
        )

    def decide(game: ShsState) -> Decision:
        facts: list[Any] = []
        warnings: list[Any] = []
        state = game
        for counter, delta, value in changes:
            decision = decide_counter(
                state, protagonist=a.name, counter=counter, delta=delta, value=value
            )
            facts += decision.facts
            warnings += decision.warnings
            state = decision.after
        return Decision(tuple(facts), None, tuple(warnings), state)

    applied = execute(ctx, decide)
    name = str(applied.events[-1].payload["protagonist"])
    changed = [{k: e.payload[k] for k in ("counter", "before", "after")} for e in applied.events]
    if ctx.json:
        ctx.emit_json(
            {
                **applied_head(applied),
                "protagoniste": _hero_doc(applied, name),
                "changes": changed,
                "warnings": [w.render(ctx.tr) for w in applied.decision.warnings],
            }
        )
        return 0
    from tablee.systems.shs import COUNTER_TITLES

    lines = [
        ctx.tr("{name}: {counter} {before} → {after}").format(
            name=name,
            counter=COUNTER_TITLES[str(c["counter"])],
            before=c["before"],
            after=c["after"],
        )
        for c in changed
    ]
    ctx.emit("\n".join(lines + warning_lines(ctx, applied.decision)))
    return 0


def cmd_life(ctx: Context) -> int:
    """``tablee shs protagoniste kill|revive NAME``: the Réalisateur's call."""
    from tablee.systems.shs import decide_kill, decide_revive

    a = ctx.args
    decide = decide_kill if a.action == "kill" else decide_revive
    applied = execute(ctx, lambda g: decide(g, protagonist=a.name, reason=a.reason or ""))
    name = str(applied.events[-1].payload["protagonist"])
    if ctx.json:
        ctx.emit_json({**applied_head(applied), "protagoniste": _hero_doc(applied, name)})
        return 0
    text = ctx.tr("{name} is dead.") if a.action == "kill" else ctx.tr("{name} lives again.")
    ctx.emit(text.format(name=name))
    return 0


# --- the parser ----------------------------------------------------------------------------------


def _add_protagoniste(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("protagoniste", help=tr("create, import, show and edit Protagonistes"))
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = sub.add_parser("create", help=tr("a new Protagoniste, Santé from Carrure (S-N1)"))
    create.add_argument("--name", required=True, help=tr("the Protagoniste's name"))
    create.add_argument("--player", help=tr("the player who plays it (default: the Réalisateur)"))
    for flag in ("carrure", "motricite", "science", "relationnel", "sang-froid"):
        create.add_argument(
            "--" + flag, required=True, metavar="5..8", help=tr("threshold from 5+ to 8+")
        )
    create.add_argument(
        "--expertise", action="append", metavar="TEXT", help=tr("an Expertise (repeatable)")
    )
    create.add_argument("--protection", type=whole_number(tr), default=0, help=tr("Protection"))
    create.add_argument("--air", type=whole_number(tr), default=0, help=tr("Air"))
    add_common(create, tr)
    create.set_defaults(handler=cmd_create)

    imp = sub.add_parser("import", help=tr("Protagonistes from a JSON or TOML file (all or none)"))
    imp.add_argument("file", help=tr("a .json or .toml file: one Protagoniste or a list"))
    add_common(imp, tr)
    imp.set_defaults(handler=cmd_import)

    show = sub.add_parser("show", help=tr("traits and counters"))
    show.add_argument("name", nargs="?", help=tr("one Protagoniste (default: all)"))
    add_common(show, tr)
    show.set_defaults(handler=cmd_show)

    edit = sub.add_parser("edit", help=tr("change Santé, Protection, Air or NT by hand"))
    edit.add_argument("name", help=tr("the Protagoniste"))
    for counter, title in (
        ("sante", "Santé"),
        ("protection", "Protection"),
        ("air", "Air"),
        ("nt", "NT"),
    ):
        edit.add_argument(
            "--" + counter,
            type=signed_change(tr),
            metavar="±N",
            help=tr("change {counter} by N").format(counter=title),
        )
        edit.add_argument(
            "--set-" + counter,
            type=whole_number(tr),
            metavar="N",
            help=tr("set {counter} to N").format(counter=title),
        )
    add_common(edit, tr)
    edit.set_defaults(handler=cmd_edit)

    for action, text in (
        ("kill", N_("the Réalisateur's call: the Protagoniste dies")),
        ("revive", N_("take back a death decided by mistake")),
    ):
        life = sub.add_parser(action, help=tr(text))
        life.add_argument("name", help=tr("the Protagoniste"))
        life.add_argument("--reason", metavar="TEXT", help=tr("a note kept in the log"))
        add_common(life, tr)
        life.set_defaults(handler=cmd_life)


BUILDERS = {"protagoniste": _add_protagoniste}
"""The builder of ``protagoniste``."""
