"""The JSON API of the web table, generated from the games' declared commands.

* ``GET /t/{token}/api``: the commands this link may use, each with its fields (name, kind,
  range, unit, choices as the table has them now, help in the link's language; a choice's
  ``labels`` as the forms show them, value -> label, when they differ from the values; the
  ``group`` of a rarely used field, which the forms fold), whether it rolls and who may
  use it.
* ``POST /t/{token}/api/{command}``: run a command. The body is a JSON object of the
  command's fields (numbers as numbers or text, lists for repeated texts), plus for a rolled
  command ``faces`` (typed-in faces, as text or a list; left out: the server rolls; a
  command throwing several kinds of dice takes the others as ``faces_dpm``..., listed with
  their help under the command's ``dice``) and ``visibility``.
  The answer is the game's report as data, the stored events' numbers and
  the lines as the log tells them; a refusal is ``{"error", "message", "exit_code"}`` with
  the same message as the command line gives for the same input.

The body must be sent as ``application/json``: a browser cannot send that to another site
without asking first, which this server never allows, so no anti-forgery token is needed
(the link in the URL is the credential, as for the pages).

Source: architecture.md "One declaration per command".
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from tablee.dice import WHOLE_DIGITS
from tablee.errors import N_, InputError, TableeError
from tablee.systems.declare import Command, Query, Who, build_command, fields_of
from tablee.systems.plugin import AnyGame, Game
from tablee.table.service import Applied
from tablee.web import metrics
from tablee.web.access import Viewer, can_see, error_for
from tablee.web.common import (
    WebTable,
    applied_lines,
    refusal,
    scoped_command_key,
    viewer_of,
)
from tablee.web.declared import action_id, check_follows, faces_field, faces_label, typed_dice
from tablee.web.render import translator
from tablee.web.systems import Forbidden

__all__ = ["add_api_routes", "check_who"]

ENVELOPE = ("faces", "visibility")
IDEMPOTENCY_HEADER = "Idempotency-Key"
"""The request header carrying a command's idempotency key: a retried POST with the same key
records nothing new and answers with the events the first one stored."""


def command_key(request: Request, viewer: Viewer) -> str | None:
    """The stored idempotency key of a request, scoped to its link, or None without one.

    A key sent by one link never matches another link's: the stored key is ``api:``, the
    first `KEY_SCOPE_CHARS` hex digits of the link's token hash, ``:`` and the key sent
    (`tablee.web.common.scoped_command_key`).

    Raises:
        InputError: a key that is empty, longer than its share of `COMMAND_KEY_MAX`, or not
            printable ASCII.
    """
    sent = request.headers.get(IDEMPOTENCY_HEADER)
    return None if sent is None else scoped_command_key("api", viewer, sent)


"""Keys of a command's body that are not its fields."""


def check_who(game: AnyGame, state: Any, command: Command, viewer: Viewer) -> None:
    """Refuse a command the viewer may not use, as the forms do.

    Raises:
        Forbidden: a spectator; a player using a game master's command, acting for another
            player's character, or setting a field only the game master may set.
    """
    cls = type(command)
    if viewer.role not in ("gm", "player"):
        raise Forbidden()
    if viewer.is_gm:
        return
    who = game.who(state, cls)
    if who is Who.GM:
        raise Forbidden()
    for spec in fields_of(cls):
        if spec.param.gm_only and getattr(command, spec.attr) != spec.default:
            raise Forbidden(N_("only the game master may set {field}"), field=spec.name)
    if who is Who.ACTOR:
        names = game.acting(state, command)
        if not names or not all(viewer.is_player(game.owner(state, n)) for n in names):
            raise Forbidden(N_("a player acts only for their own character"))


def _plugin(table: WebTable, viewer: Viewer) -> tuple[AnyGame, Any]:
    # the service's state when the hub knows of no later event (no store call), as a form's
    state = table.known_state(viewer.link.table_id) or table.service.state(viewer.table)
    game = state.system
    if not isinstance(game, Game):
        raise InputError(N_("the commands of {system} are not declared yet"), system=game.id)
    return game, state


def _command_class(game: AnyGame, name: str) -> type[Command]:
    for command in game.commands:
        if action_id(command) == name and not issubclass(command, Query):
            return command
    raise InputError(N_("unknown command {name!r}"), name=name)


def _json_whole(text: str) -> int | str:
    """A JSON integer: its value, or its digits as text when longer than `WHOLE_DIGITS`.

    The text is then refused by the field it was sent for, out of range with the field's
    range named, instead of Python's own refusal of very long numbers.
    """
    return int(text) if len(text.lstrip("-")) <= WHOLE_DIGITS else text


def _faces_text(value: object) -> str:
    if value is None:
        return ""
    return ",".join(str(v) for v in value) if isinstance(value, list) else str(value)


def _schema(game: AnyGame, state: Any, viewer: Viewer) -> list[dict[str, Any]]:
    tr = translator(viewer.lang)
    commands = []
    for command in game.commands:
        if issubclass(command, Query):
            continue
        who = game.who(state, command)
        if who is Who.GM and not viewer.is_gm:
            continue
        fields = []
        for spec in fields_of(command):
            if spec.param.gm_only and not viewer.is_gm:
                continue
            item: dict[str, Any] = {
                "name": spec.name,
                "kind": spec.kind,
                "required": spec.required and not spec.optional,
                "default": list(spec.default) if isinstance(spec.default, tuple) else spec.default,
                "help": tr(spec.param.help),
            }
            if spec.kind == "int":
                item.update(low=spec.param.low, high=spec.param.high)
            if spec.kind == "word":
                item["choices"] = list(spec.words)
            if spec.param.choices:
                item["choices"] = list(game.choices(state, spec.param.choices))
            if spec.param.option_labels and "choices" in item:
                item["labels"] = {c: tr(spec.param.label_of(c)) for c in item["choices"]}
            if spec.param.group:
                item["group"] = tr(spec.param.group)
            fields.append(item)
        commands.append(
            {
                "name": action_id(command),
                "title": tr(command.title),
                "who": who.value,
                "rolled": command.rolled,
                "fields": fields,
                "dice": _dice_schema(command, viewer, tr) if command.rolled else [],
            }
        )
    return commands


def _dice_schema(
    command: type[Command], viewer: Viewer, tr: Callable[[str], str]
) -> list[dict[str, Any]]:
    """The faces keys of a rolled command this viewer may send, with what to type in each.

    Each names its dice as players do (``faces_dpm``: ``+/- dice read on physical dice...``).
    """
    found = []
    for index, die in enumerate(command.dice_kinds):
        if die.name in command.gm_dice and not viewer.is_gm:
            continue
        main = index == 0
        label = faces_label(command, die, main)
        found.append({"name": faces_field(die, main), "help": tr(label)})
    return found


def _error(exc: Exception, viewer: Viewer) -> JSONResponse:
    status, text = refusal(exc, viewer.lang)
    code = exc.exit_code if isinstance(exc, TableeError) else 2
    kind = type(exc).__name__
    return JSONResponse({"error": kind, "message": text, "exit_code": code}, status_code=status)


def add_api_routes(app: FastAPI, table: WebTable) -> None:
    """Add the JSON API (see the module docstring)."""

    @app.get("/t/{token}/api")
    async def describe(request: Request, token: str) -> Response:
        viewer = await viewer_of(table, request, token)
        try:
            game, state = await table.run(lambda: _plugin(table, viewer))
        except TableeError as exc:
            return _error(exc, viewer)
        schema = _schema(game, state.game, viewer) if viewer.role != "spectator" else []
        return JSONResponse({"game": game.id, "commands": schema})

    @app.post("/t/{token}/api/{name}")
    async def run(request: Request, token: str, name: str) -> Response:
        viewer = await viewer_of(table, request, token)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _error(Forbidden(N_("send the command as application/json")), viewer)
        try:
            body = json.loads(await request.body() or b"{}", parse_int=_json_whole)
        except (ValueError, RecursionError):  # bad JSON or UTF-8, or nested too deep
            return _error(InputError(N_("the body is not a JSON object")), viewer)
        if not isinstance(body, dict):
            return _error(InputError(N_("the body is not a JSON object")), viewer)

        def work() -> tuple[AnyGame, Command, Applied[Any]]:
            game, state = _plugin(table, viewer)
            try:
                return run_for(game, state)
            except TableeError as exc:
                raise error_for(exc, viewer, state.events) from None

        def run_for(game: AnyGame, state: Any) -> tuple[AnyGame, Command, Applied[Any]]:
            cls = _command_class(game, name)
            fields = {
                k: v for k, v in body.items() if k not in ENVELOPE and not k.startswith("faces_")
            }
            command = build_command(cls, fields)
            check_who(game, state.game, command, viewer)
            check_follows(cls, state, viewer)
            for index, die in enumerate(cls.dice_kinds):
                key = faces_field(die, index == 0)
                if die.name in cls.gm_dice and body.get(key) and not viewer.is_gm:
                    raise Forbidden(N_("only the game master may set {field}"), field=key)
            visibility = None
            dice = None
            if cls.rolled:
                visibility = str(body.get("visibility") or "all")
                if visibility not in ("all", "roller_and_gm", "gm"):
                    raise InputError(N_("visibility {value!r} is not known"), value=visibility)
                if visibility == "gm" and not viewer.is_gm:
                    raise Forbidden(N_("only the game master makes blind rolls"))
                dice = typed_dice(
                    cls, lambda die, main: _faces_text(body.get(faces_field(die, main)))
                )
            applied = table.service.run_command(
                viewer.table,
                command,
                dice,
                visibility=visibility,
                command_key=command_key(request, viewer),
                known=state,
            )
            return game, command, applied

        try:
            game, command, applied = await table.run(work)
        except (TableeError, Forbidden) as exc:
            return _error(exc, viewer)
        if not applied.replayed:
            table.hub.notify(viewer.link.table_id, applied.events[-1].seq)
            metrics.command(applied.state.system.id)
        lines, warnings = applied_lines(applied, viewer)
        visible = all(can_see(viewer, e) for e in applied.events)
        decided = visible and applied.decision is not None
        report = game.report(command, applied.decision) if decided else None
        return JSONResponse(
            {
                "seq": applied.events[-1].seq,
                "events": [e.seq for e in applied.events],
                "report": None if report is None else dict(report.data),
                "lines": lines,
                "warnings": warnings,
                "replayed": applied.replayed,
            }
        )
