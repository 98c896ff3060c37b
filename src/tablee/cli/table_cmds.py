"""``tablee table ...``: create, list, show, log, undo, export, import, check, house rules.

Source: docs/architecture.md, "The event log".
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablee.cli.app import Context, add_common, parse_options, whole_number
from tablee.cli.render import event_line
from tablee.errors import N_, InputError
from tablee.systems import game_ids
from tablee.systems.declare import check_text
from tablee.systems.options import option_text
from tablee.table.projection import TableState
from tablee.table.transcript import to_markdown

__all__ = ["add_parser"]

Tr = Callable[[str], str]


def cmd_new(ctx: Context) -> int:
    """``tablee table new SYSTEM --name N --players A,B,C``."""
    a = ctx.args
    players = [p for p in a.players.split(",") if p.strip()]
    state = ctx.service.create(
        system=a.system,
        name=a.name,
        players=players,
        lang=getattr(a, "lang", None) or ctx.lang,
        options=parse_options(a.option),
    )
    if ctx.json:
        ctx.emit_json(_table_json(state))
        return 0
    ctx.emit(
        ctx.tr("Table {name} created ({system}) for {players}.").format(
            name=state.name, system=state.system.id, players=", ".join(state.players)
        )
    )
    return 0


def _table_json(state: TableState[Any]) -> dict[str, Any]:
    return {
        "name": state.name,
        "id": state.table_id,
        "system": state.system.id,
        "lang": state.lang,
        "players": list(state.players),
        "last_seq": state.last_seq,
        **state.system.summary(state.game),
    }


def _summary_lines(ctx: Context, state: TableState[Any]) -> list[str]:
    """The system's part of ``table show``, in the reader's language."""
    from tablee.systems.plugin import Game

    if isinstance(state.system, Game):
        from tablee.cli.report import render_text

        return [render_text(ctx, line) for line in state.system.summary_lines(state.game)]
    summary = state.system.summary(state.game)
    return [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in summary.items()]


def cmd_list(ctx: Context) -> int:
    """``tablee table list``."""
    tables = ctx.service.store.tables()
    if ctx.json:
        ctx.emit_json(
            [
                {
                    "name": t.name,
                    "system": t.system,
                    "id": t.id,
                    "created_at": t.created_at.isoformat(),
                }
                for t in tables
            ]
        )
        return 0
    if not tables:
        ctx.emit(ctx.tr("No table yet."))
        return 0
    ctx.emit("\n".join(f"{t.name}  ({t.system}, {t.created_at:%Y-%m-%d})" for t in tables))
    return 0


def cmd_show(ctx: Context) -> int:
    """``tablee table show``: players, session, cagnotte, house rules."""
    state = ctx.service.state(ctx.service.resolve_name(ctx.args.table))
    doc = _table_json(state)
    if ctx.json:
        ctx.emit_json(doc)
        return 0
    lines = [
        f"[bold]{state.name}[/] ({state.system.title}, {state.lang})",
        ctx.tr("Players: {players}").format(players=", ".join(state.players)),
        *_summary_lines(ctx, state),
    ]
    ctx.emit("\n".join(lines))
    return 0


def cmd_log(ctx: Context) -> int:
    """``tablee table log``: every event, undone ones marked."""
    state = ctx.service.state(ctx.service.resolve_name(ctx.args.table))
    if ctx.json:
        ctx.emit_json([{**e.to_json(), "voided": e.seq in state.voided} for e in state.events])
        return 0
    ctx.emit("\n".join(event_line(e, ctx.tr, state) for e in state.events), markup=False)
    return 0


def cmd_undo(ctx: Context) -> int:
    """``tablee table undo [--seq N]``: void an event (nothing is deleted)."""
    a = ctx.args
    name = ctx.service.resolve_name(a.table)
    applied = ctx.service.undo(name, seq=a.seq, actor="gm", reason=a.reason or "")
    target = int(applied.events[-1].payload["seq"])
    if ctx.json:
        ctx.emit_json(
            {
                "table": name,
                "seq": applied.events[-1].seq,
                "voided": target,
                **applied.state.system.summary(applied.state.game),
            }
        )
        return 0
    lines = [ctx.tr("Event {seq} undone.").format(seq=target), *_summary_lines(ctx, applied.state)]
    ctx.emit("\n".join(lines))
    return 0


def cmd_export(ctx: Context) -> int:
    """``tablee table export --format jsonl|md [--output FILE]``."""
    a = ctx.args
    state = ctx.service.state(ctx.service.resolve_name(a.table))
    if a.format == "jsonl":
        text = ctx.service.export_jsonl(state.name)
    else:
        from tablee.locale import translation

        text = to_markdown(state, translation(state.lang).gettext)
    if a.output:
        try:
            Path(a.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InputError(
                N_("cannot write {path}: {error}"), path=a.output, error=exc.strerror or str(exc)
            ) from exc
        if ctx.json:
            ctx.emit_json(
                {
                    "table": state.name,
                    "format": a.format,
                    "output": a.output,
                    "events": len(state.events),
                }
            )
        else:
            message = ctx.ntr(
                "Written to {path} ({count} event).",
                "Written to {path} ({count} events).",
                len(state.events),
            )
            ctx.emit(message.format(path=a.output, count=len(state.events)), markup=False)
        return 0
    ctx.out.write(text)
    return 0


def cmd_import(ctx: Context) -> int:
    """``tablee table import FILE [--name NEW]``: a JSON Lines export as a new table.

    An export this installation cannot verify (no hash chain, or another installation's) is
    imported, and says so: on standard error, or as ``"verified": false`` and ``"why"``.
    The file is read line by line, at most 16 MiB a line and 64 MiB in all
    (`tablee.table.transcript.MAX_LINE_BYTES`, `MAX_EXPORT_BYTES`): nothing is stored when
    it is refused.
    """
    a = ctx.args
    try:
        with open(a.file, "rb") as stream:
            imported = ctx.service.import_jsonl(stream, a.name)
    except OSError as exc:
        raise InputError(
            N_("cannot read {path}: {error}"), path=a.file, error=exc.strerror or str(exc)
        ) from exc
    state = imported.state
    why = None if imported.why is None else imported.why.render(ctx.tr)
    if ctx.json:
        ctx.emit_json({**_table_json(state), "verified": imported.verified, "why": why})
        return 0
    ctx.emit(
        ctx.ntr(
            "Table {name} imported: {count} event.",
            "Table {name} imported: {count} events.",
            len(state.events),
        ).format(name=state.name, count=len(state.events))
    )
    if why is not None:
        ctx.warn(ctx.tr("Not verified: {why}.").format(why=why))
    return 0


def cmd_check(ctx: Context) -> int:
    """``tablee table check``: the stored hash chain, then the log folded with the rules.

    Exit code 5 (a `StorageError` naming the event) when a link does not match or the rules
    refuse the log.
    """
    checked = ctx.service.check(ctx.service.resolve_name(ctx.args.table))
    if ctx.json:
        ctx.emit_json(
            {"table": checked.name, "events": checked.events, "chain": "verified", "rules": "ok"}
        )
        return 0
    ctx.emit(
        ctx.ntr(
            "Table {name}: {count} event checked, hash chain verified, the rules replay it.",
            "Table {name}: {count} events checked, hash chain verified, the rules replay them.",
            checked.events,
        ).format(name=checked.name, count=checked.events),
        markup=False,
    )
    return 0


def cmd_options(ctx: Context) -> int:
    """``tablee table options [--set NAME=VALUE ...]``: show or change house rules."""
    a = ctx.args
    name = ctx.service.resolve_name(a.table)
    changes = parse_options(a.set)
    if changes:
        state = ctx.service.execute(
            name, lambda s: s.system.decide_options(s.game, changes), lambda facts: facts
        ).state
    else:
        state = ctx.service.state(name)
    options = state.system.options_json(state.game)
    if ctx.json:
        ctx.emit_json({"table": name, "options": options})
        return 0
    lines = [
        f"{k} = {option_text(v)}   [dim]{ctx.tr(state.system.option_help[k])}[/]"
        for k, v in options.items()
    ]
    ctx.emit("\n".join(lines))
    return 0


def _link_doc(base: str, info: Any, token: str | None) -> dict[str, Any]:
    doc = {
        "role": info.role,
        "player": info.player,
        "prefix": info.prefix,
        "created_at": info.created_at.isoformat(),
        "revoked": info.revoked_at is not None,
    }
    if token is not None:
        doc["url"] = f"{base.rstrip('/')}/t/{token}"
    return doc


def _link_label(ctx: Context, doc: dict[str, Any]) -> str:
    if doc["role"] == "gm":
        return ctx.tr("game master")
    if doc["role"] == "spectator":
        return ctx.tr("spectator")
    return ctx.tr("player {name}").format(name=doc["player"])


def cmd_links(ctx: Context) -> int:
    """``tablee table links [NAME] [--revoke PREFIX] [--list]``: the web table's links.

    Without an option, makes a fresh set (game master, one per player, spectator) and prints
    their URLs: the tokens are shown once, only their hashes are stored.
    """
    from tablee.table.links import issue_table_links, revoke_by_prefix

    a = ctx.args
    check_text(a.base_url, "--base-url")  # printed in every link
    name = ctx.service.resolve_name(a.name or a.table)
    state = ctx.service.state(name)
    store, now = ctx.service.store, ctx.service.clock()
    if a.revoke is not None:
        revoked = revoke_by_prefix(store, state.table_id, a.revoke, now)[0]
        doc = {**_link_doc(a.base_url, revoked, None), "revoked": True}
        if ctx.json:
            ctx.emit_json({"table": name, "revoked": doc})
        else:
            text = ctx.tr("Link {prefix}… ({who}) revoked.")
            ctx.emit(text.format(prefix=revoked.prefix, who=_link_label(ctx, doc)), markup=False)
        return 0
    if a.list:
        docs = [_link_doc(a.base_url, info, None) for info in store.links(state.table_id)]
    else:
        issued = issue_table_links(store, state, now)
        docs = [_link_doc(a.base_url, i.info, i.token) for i in issued]
    if ctx.json:
        ctx.emit_json({"table": name, "links": docs})
        return 0
    lines = []
    for doc in docs:
        where = doc.get("url") or doc["prefix"] + "…"
        mark = " " + ctx.tr("(revoked)") if doc["revoked"] else ""
        lines.append(f"{_link_label(ctx, doc)}: {where}{mark}")
    ctx.emit("\n".join(lines) or ctx.tr("No link yet."), markup=False)
    return 0


def add_parser(sub: Any, tr: Tr) -> None:
    """Add ``tablee table ...`` to the top-level subparsers."""
    group = sub.add_parser("table", help=tr("create and manage tables"))
    cmds = group.add_subparsers(dest="command", required=True, metavar="COMMAND")

    new = cmds.add_parser("new", help=tr("create a table"))
    new.add_argument("system", choices=game_ids(), help=tr("the game system"))
    new.add_argument("--name", required=True, help=tr("the table's name"))
    new.add_argument(
        "--players",
        required=True,
        metavar="A,B,C",
        help=tr("players' names, comma separated (the narrator is not one)"),
    )
    new.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help=tr("a house rule (repeatable); see 'tablee table options'"),
    )
    add_common(new, tr, table=False)
    new.set_defaults(handler=cmd_new)

    for name, handler, text in (
        ("list", cmd_list, N_("list the tables")),
        ("show", cmd_show, N_("show a table")),
        ("log", cmd_log, N_("show a table's log")),
    ):
        p = cmds.add_parser(name, help=tr(text))
        add_common(p, tr, table=name != "list")
        p.set_defaults(handler=handler)

    undo = cmds.add_parser("undo", help=tr("undo the last event (or --seq N)"))
    undo.add_argument("--seq", type=whole_number(tr), help=tr("the event to undo"))
    undo.add_argument("--reason", help=tr("why"))
    add_common(undo, tr)
    undo.set_defaults(handler=cmd_undo)

    export = cmds.add_parser("export", help=tr("export the log"))
    export.add_argument(
        "--format",
        choices=("jsonl", "md"),
        default="jsonl",
        help=tr("jsonl: every event, replayable; md: a readable transcript"),
    )
    export.add_argument("--output", metavar="FILE", help=tr("write to a file"))
    add_common(export, tr)
    export.set_defaults(handler=cmd_export)

    imp = cmds.add_parser("import", help=tr("a JSON Lines export as a new table"))
    imp.add_argument("file", metavar="FILE", help=tr("the .jsonl file"))
    imp.add_argument("--name", help=tr("the new table's name (default: the exported name)"))
    add_common(imp, tr, table=False)
    imp.set_defaults(handler=cmd_import)

    check = cmds.add_parser(
        "check", help=tr("check a table's stored hash chain, and its log against the rules")
    )
    add_common(check, tr)
    check.set_defaults(handler=cmd_check)

    opts = cmds.add_parser("options", help=tr("show or change the house rules"))
    opts.add_argument(
        "--set", action="append", metavar="NAME=VALUE", help=tr("change a house rule (repeatable)")
    )
    add_common(opts, tr)
    opts.set_defaults(handler=cmd_options)

    links = cmds.add_parser(
        "links", help=tr("links to the web table: game master, each player, spectator")
    )
    links.add_argument("name", nargs="?", metavar="NAME", help=tr("the table (default: --table)"))
    action = links.add_mutually_exclusive_group()
    action.add_argument(
        "--revoke", metavar="TOKEN_PREFIX", help=tr("revoke the link whose token starts so")
    )
    action.add_argument(
        "--list", action="store_true", help=tr("list the links (their first characters only)")
    )
    links.add_argument(
        "--base-url",
        default="http://127.0.0.1:8000",
        metavar="URL",
        help=tr("where 'tablee serve' is reached (default: http://127.0.0.1:8000)"),
    )
    add_common(links, tr)
    links.set_defaults(handler=cmd_links)
