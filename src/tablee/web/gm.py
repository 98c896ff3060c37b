"""The game master's tools: undo, house rules, exports, the table's links.

Source: docs/web.md, "Pages and routes" (undo, export, revocable links).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from tablee.dice import is_whole_in_reach, read_whole
from tablee.errors import N_, InputError, RuleError, TableeError
from tablee.table.links import issue_link, revoke_by_prefix
from tablee.table.projection import decide_undo
from tablee.table.transcript import to_markdown
from tablee.web.access import Viewer, csrf_token
from tablee.web.common import (
    NotFound,
    WebTable,
    applied_lines,
    base_path,
    checked_form,
    error_page,
    form_fields,
    form_result,
    holder_label,
    refusal,
    shared_links,
    viewer_of,
)
from tablee.web.render import (
    render,
    translator,
)
from tablee.web.systems import Forbidden

__all__ = ["add_gm_routes"]


def add_gm_routes(app: FastAPI, table: WebTable) -> None:
    """Add the game master's routes: undo, options, exports, links."""

    async def gm(request: Request, token: str) -> Viewer:
        viewer = await viewer_of(table, request, token)
        if not viewer.is_gm:
            raise NotFound(403)
        return viewer

    @app.post("/t/{token}/undo", response_class=HTMLResponse)
    async def undo(request: Request, token: str) -> Response:
        viewer = await viewer_of(table, request, token)
        try:
            form = form_fields(await checked_form(table, request, viewer))
            if not viewer.is_gm:
                raise Forbidden(N_("only the game master undoes"))
            seq = _event_number(form.get("seq", ""))
            seen = _event_number(form.get("last", ""))
            reason = form.get("reason", "")

            def work() -> Any:
                target = seq
                if target is None and seen is not None:
                    # "the last event" as the page showed it: a roll stored since is not it
                    state = table.service.state(viewer.table)
                    voided = decide_undo(state, actor="gm", reason=reason)[0]
                    target = int(voided.payload["seq"])
                    if target > seen:
                        raise RuleError(
                            N_(
                                "event {seq} was stored after your page showed the log: "
                                "give the number of the event to undo"
                            ),
                            seq=target,
                        )
                return table.service.undo(viewer.table, seq=target, actor="gm", reason=reason)

            applied = await table.run(work)
        except (TableeError, Forbidden) as exc:
            status, text = refusal(exc, viewer.lang)
            return form_result(request, viewer, status, error=text)
        table.hub.notify(viewer.link.table_id, applied.events[-1].seq)
        return form_result(request, viewer, lines=applied_lines(applied, viewer)[0])

    @app.post("/t/{token}/options", response_class=HTMLResponse)
    async def options(request: Request, token: str) -> Response:
        viewer = await viewer_of(table, request, token)
        try:
            form = form_fields(await checked_form(table, request, viewer))
            if not viewer.is_gm:
                raise Forbidden(N_("only the game master changes the house rules"))
            changes = {}
            for line in form.get("set", "").splitlines():
                if not line.strip():
                    continue
                key, sep, value = line.partition("=")
                if not sep or not key.strip():
                    raise InputError(N_("{value!r}: expected NAME=VALUE"), value=line)
                changes[key.strip()] = value.strip()
            applied = await table.run(
                lambda: table.service.execute(
                    viewer.table, lambda s: s.system.decide_options(s.game, changes), lambda f: f
                )
            )
        except (TableeError, Forbidden) as exc:
            status, text = refusal(exc, viewer.lang)
            return form_result(request, viewer, status, error=text)
        if applied.events:
            table.hub.notify(viewer.link.table_id, applied.events[-1].seq)
        return form_result(request, viewer, lines=applied_lines(applied, viewer)[0])

    @app.get("/t/{token}/export.jsonl")
    async def export_jsonl(request: Request, token: str) -> Response:
        viewer = await gm(request, token)
        text = await table.run(lambda: table.service.export_jsonl(viewer.table))
        return Response(
            text,
            media_type="application/x-ndjson; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="tablee-log.jsonl"'},
        )

    @app.get("/t/{token}/export.md")
    async def export_md(request: Request, token: str) -> Response:
        viewer = await gm(request, token)
        state = await table.run(lambda: table.service.state(viewer.table))
        text = to_markdown(state, translator(state.lang))
        return Response(
            text,
            media_type="text/markdown; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="tablee-log.md"'},
        )

    @app.get("/t/{token}/links", response_class=HTMLResponse)
    async def links(request: Request, token: str) -> Response:
        viewer = await gm(request, token)
        return await _links_page(table, request, viewer, token, [])

    @app.post("/t/{token}/links/new", response_class=HTMLResponse)
    async def new_link(request: Request, token: str) -> Response:
        viewer = await gm(request, token)
        try:
            form = form_fields(await checked_form(table, request, viewer))
            role, _, player = form.get("holder", "").partition(":")

            def work() -> Any:
                state = table.service.state(viewer.table)
                now = table.service.clock()
                return issue_link(table.store, state, role, now, player or None)

            issued = await table.run(work)
        except (TableeError, Forbidden) as exc:
            status, text = refusal(exc, viewer.lang)
            return error_page(status, viewer.lang, N_("Refused"), text)
        return await _links_page(table, request, viewer, token, [issued])

    @app.post("/t/{token}/links/revoke", response_class=HTMLResponse)
    async def revoke(request: Request, token: str) -> Response:
        viewer = await gm(request, token)
        try:
            form = form_fields(await checked_form(table, request, viewer))
            prefix = form.get("prefix", "")
            now = table.service.clock()
            await table.run(
                lambda: revoke_by_prefix(table.store, viewer.link.table_id, prefix, now)
            )
            table.hub.links_changed(viewer.link.table_id)  # its open streams end now
        except (TableeError, Forbidden) as exc:
            status, text = refusal(exc, viewer.lang)
            return error_page(status, viewer.lang, N_("Refused"), text)
        return RedirectResponse(base_path(token) + "/links", status_code=303)


def _event_number(text: str) -> int | None:
    """An event number typed in a form, or None when empty.

    Raises:
        InputError: anything but ASCII digits (``'²'.isdigit()`` is true), or too long.
    """
    value = text.strip()
    if not value:
        return None
    number = read_whole(value, negative=False)
    if number is None or not is_whole_in_reach(number):
        raise InputError(N_("{value!r} is not an event number"), value=value[:30])
    return number


async def _links_page(
    table: WebTable, request: Request, viewer: Viewer, token: str, issued: list[Any]
) -> Response:
    state, listed = await table.run(
        lambda: (
            table.service.state(viewer.table),
            table.store.links(viewer.link.table_id),
        )
    )
    tr = translator(viewer.lang)
    items, reachable = shared_links(table, request, [(i.info, i.token) for i in issued], tr)
    html = render(
        "links.html",
        viewer.lang,
        table=state.name,
        issued=items,
        reachable=reachable,
        listed=[
            {
                "label": holder_label(tr, link),
                "prefix": link.prefix,
                "revoked": link.revoked_at is not None,
                "current": link.token_hash == viewer.link.token_hash,
            }
            for link in listed
        ],
        players=list(state.players),
        base=base_path(token),
        csrf=csrf_token(table.secret, viewer.link),
    )
    return HTMLResponse(html)
