"""The pages everyone uses: creating a table, the table itself, its stream, odds and forms.

Source: docs/web.md, "Pages and routes" and "Fan-out".
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.sse import EventSourceResponse

from tablee.dice import WHOLE_DIGITS, is_whole_in_reach, read_whole
from tablee.errors import N_, InputError, TableeError
from tablee.table.events import StoredEvent
from tablee.table.links import issue_table_links
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web import metrics
from tablee.web.access import Viewer, csrf_token, table_route
from tablee.web.common import (
    FORM_KEY,
    KEEPALIVE_SECONDS,
    NotFound,
    WebTable,
    accept_language,
    action_of,
    applied_lines,
    base_path,
    checked_form,
    error_page,
    form_fields,
    form_result,
    holder_label,
    lang_of,
    new_form_key,
    refusal,
    scoped_command_key,
    shared_links,
    system_choices,
    system_title,
    viewer_of,
)
from tablee.web.history import LOG_PAGE, catch_up, earlier_html, log_window
from tablee.web.joining import manifest
from tablee.web.live import field_choices
from tablee.web.presence import presence_html, presence_message, seat_of
from tablee.web.render import (
    odds_rows,
    percent_text,
    render,
    resources_html,
    translator,
)
from tablee.web.systems import ActionRequest, Field, Forbidden, web_system

__all__ = ["RECHECK_SECONDS", "ROLL_MODES", "add_home_routes", "add_table_routes"]

RECHECK_SECONDS = 5.0
"""How often an open stream checks that its link still works, in seconds."""

RULE_ID = re.compile(r"\s*\((?:rules?|règles?) [PSGY]-[A-Z]+\d+(?:, ?[PSGY]-[A-Z]+\d+)*\)")
"""A ruling's id in a message, as ``(rule S-M2)`` or ``(règles Y-M3, Y-M4)`` (not a house
rule: ``(règle maison)``)."""

ROLL_MODES = (
    ("all", N_("Public"), N_("everyone sees the result")),
    ("roller_and_gm", N_("Secret"), N_("only the roller and the game master see the result")),
    ("gm", N_("Blind"), N_("only the game master sees the result")),
)
"""The roll modes beside a rolled form's button: ``(visibility, short label, what it means)``,
public first (checked); the last, blind, on the game master's page only."""


def add_home_routes(app: FastAPI, table: WebTable) -> None:
    """Add ``GET /`` and ``POST /tables``: a new table and its links."""

    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> Response:
        lang = lang_of(request) or accept_language(request)
        if not table.settings.allow_create:
            return error_page(
                404,
                lang,
                N_("Tablée"),
                N_(
                    "This server does not create tables. To join a game, open the link the "
                    "game master sent you."
                ),
            )
        token = request.cookies.get("tablee_csrf") or secrets.token_urlsafe(24)
        html = render(
            "home.html",
            lang,
            csrf=token,
            systems=system_choices(),
            error=None,
            lab=table.settings.lab,
        )
        response = HTMLResponse(html)
        response.set_cookie("tablee_csrf", token, httponly=True, samesite="strict")
        return response

    @app.post("/tables", response_class=HTMLResponse)
    async def create(request: Request) -> Response:
        lang = lang_of(request) or accept_language(request)
        form = form_fields(await request.form())
        cookie = request.cookies.get("tablee_csrf")
        if not table.settings.allow_create:
            raise NotFound()
        if not cookie or not secrets.compare_digest(cookie, form.get("csrf", "")):
            return error_page(
                403, lang, N_("Refused"), N_("this form has expired: reload the page")
            )
        players = [p.strip() for p in form.get("players", "").splitlines() if p.strip()]
        system = form.get("system", "")
        if system not in dict(system_choices()):
            raise NotFound()

        def work() -> tuple[TableState[Any], list[Any]]:
            state = table.service.create(
                system=system,
                name=form.get("name", ""),
                players=players,
                lang=form.get("lang", lang),
            )
            return state, issue_table_links(table.store, state, table.service.clock())

        try:
            state, issued = await table.run(work)
        except TableeError as exc:
            status, text = refusal(exc, lang)
            html = render(
                "home.html",
                lang,
                csrf=cookie,
                systems=system_choices(),
                error=text,
            )
            return HTMLResponse(html, status_code=status)
        tr = translator(lang)
        items, reachable = shared_links(table, request, [(i.info, i.token) for i in issued], tr)
        html = render(
            "links.html",
            lang,
            table=state.name,
            issued=items,
            reachable=reachable,
            listed=None,
            base="",
        )
        return HTMLResponse(html)


def add_table_routes(app: FastAPI, table: WebTable) -> None:
    """Add the table's page, stream, odds and actions."""

    @app.get("/t/{token}", response_class=HTMLResponse)
    async def page(request: Request, token: str) -> Response:
        viewer = await viewer_of(table, request, token)
        state = await table.whole_state(viewer.link.table_id, viewer.table)
        window = log_window(state)  # the latest entries; earlier ones on request
        entries = await table.entries.html(table, window.events, state, viewer)
        earlier = earlier_html(base_path(token), window, viewer.lang)
        html = _table_page(table, viewer, state, token, [earlier, *entries])
        response = HTMLResponse(html)
        if request.query_params.get("lang") in ("fr", "en"):
            response.set_cookie(
                "tablee_lang", viewer.lang, path=base_path(token), httponly=True, samesite="strict"
            )
        return response

    @app.get("/t/{token}/manifest.webmanifest")
    async def web_manifest(request: Request, token: str) -> Response:
        viewer = await viewer_of(table, request, token)
        tr = translator(viewer.lang)
        name = f"{viewer.table} · {holder_label(tr, viewer.link)}"
        body = json.dumps(manifest(name, base_path(token), viewer.lang), ensure_ascii=False)
        return Response(body, media_type="application/manifest+json")

    @app.get("/t/{token}/stream")
    async def stream(request: Request, token: str, after: str = "0") -> Response:
        viewer = await viewer_of(table, request, token)
        since = read_whole(after, negative=False)
        if since is None or not is_whole_in_reach(since):
            message = InputError(
                N_("{field}: {value!r} is not an event number (0 to {high})"),
                field="after",
                value=after[:30],
                high=10**WHOLE_DIGITS - 1,
            ).render(translator(viewer.lang))
            return error_page(400, viewer.lang, N_("Refused"), message)
        last_id = request.headers.get("last-event-id", "")
        valid = last_id.isascii() and last_id.isdigit()  # '²'.isdigit() is True
        start = max(since, int(last_id[:18]) if valid else 0, 0)
        state = await table.whole_state(viewer.link.table_id, viewer.table)
        start = min(start, state.last_seq)  # never past the log's end
        body = _events(table, viewer, start, base_path(token), state)
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return EventSourceResponse(body, headers=headers)

    @app.get("/t/{token}/odds/{action_id}", response_class=HTMLResponse)
    async def odds(request: Request, token: str, action_id: str) -> Response:
        viewer = await viewer_of(table, request, token)
        state = await table.run(lambda: table.service.state(viewer.table))
        action = action_of(state, action_id)
        if action.odds is None:
            raise NotFound()
        fields = dict(request.query_params)
        odds = action.odds
        try:
            # exact odds may take a second the first time: not on the event loop
            view = await anyio.to_thread.run_sync(
                lambda: odds(ActionRequest(action, fields, viewer, state))
            )
        except (TableeError, Forbidden) as exc:
            # Said before anyone acts, while the form is being filled: what is missing, in
            # players' words (the rule's id is for a refusal of what they sent).
            text = RULE_ID.sub("", refusal(exc, viewer.lang, count=False)[1])
            return HTMLResponse(render("_odds.html", viewer.lang, error=text))
        tr = translator(viewer.lang)
        success = None
        if view.success is not None:
            p = view.success
            success = {
                "percent": percent_text(p, viewer.lang),
                "fraction": f"{p.numerator}/{p.denominator}",
            }
        note = tr(view.note).format(**view.values) if view.note else ""
        html = render(
            "_odds.html",
            viewer.lang,
            error=None,
            rows=odds_rows(view, viewer.lang),
            success=success,
            note=note,
        )
        return HTMLResponse(html)

    async def act(request: Request) -> Response:
        """Run an action's posted form (``/t/{token}/act/{action_id}``): a player's roll.

        The hot path of the web table, declared as a plain Starlette route: its two path
        parameters are read from the request, where FastAPI's solving of the function's
        signature took about 5 percent of a roll's CPU (benchmarks/README.md).
        """
        token, action_id = request.path_params["token"], request.path_params["action_id"]
        viewer = await viewer_of(table, request, token)
        try:
            form = form_fields(await checked_form(table, request, viewer))
            key = _form_command_key(form, viewer)

            def work() -> Applied[Any]:
                known = table.known_state(viewer.link.table_id)  # the command reads the log
                state = known or table.service.state(viewer.table)
                action = action_of(state, action_id)
                asked = ActionRequest(action, form, viewer, state, table.service, command_key=key)
                return action.run(asked)

            applied = await table.run(work)
        except (TableeError, Forbidden) as exc:
            status, text = refusal(exc, viewer.lang)
            return form_result(request, viewer, status, error=text)
        if not applied.replayed:  # a replayed form stored nothing: nobody is told again
            table.hub.notify(viewer.link.table_id, applied.events[-1].seq)
            metrics.command(applied.state.system.id)
        lines, warnings = applied_lines(applied, viewer)
        return form_result(
            request,
            viewer,
            lines=lines,
            warnings=warnings,
            form_id=action_id,
            form_key=new_form_key(),
        )

    app.add_route("/t/{token}/act/{action_id}", act, methods=["POST"])


def _form_command_key(form: dict[str, str], viewer: Viewer) -> str | None:
    """The stored idempotency key of a posted form (`FORM_KEY`), or None when it has none.

    Each rendered form holds a fresh key (`new_form_key`), replaced after each success: a
    form sent twice (a double tap, a network retry) is stored once. The key is scoped to the
    link as the JSON API's are, with the ``form`` origin.

    Raises:
        InputError: a key that is not 1 to about 80 printable ASCII characters.
    """
    sent = form.get(FORM_KEY, "")
    return scoped_command_key("form", viewer, sent) if sent else None


def _choices(field: Field, state: TableState[Any], viewer: Viewer) -> list[tuple[str, str]]:
    """A field's choices for the viewer, translated (`tablee.web.live.field_choices`)."""
    return field_choices(field, state, viewer, translator(viewer.lang))


def _grouped(fields: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The grouped fields of a form: ``(group title, its fields)``, in order of first use."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for f in fields:
        if f["group"]:
            groups.setdefault(f["group"], []).append(f)
    return list(groups.items())


def _table_page(
    table: WebTable, viewer: Viewer, state: TableState[Any], token: str, entries: list[str]
) -> str:
    """The table's page for a viewer, its log holding ``entries`` (rendered already)."""
    web = web_system(state.system.id)
    forms = []
    if web is not None and viewer.role != "spectator":
        for action in web.actions():
            if not action.open_to(state, viewer.role):
                continue
            fields = [
                {
                    "name": f.name,
                    "label": f.label,
                    "kind": f.kind,
                    "default": f.default,
                    "minimum": f.minimum,
                    "maximum": f.maximum,
                    "max_length": f.max_length,
                    "placeholder": f.placeholder,
                    "options": _choices(f, state, viewer),
                    "live": callable(f.choices),
                    "group": f.group,
                    "faces": f.faces,
                }
                for f in action.fields
                if viewer.is_gm or not f.gm_only
            ]
            forms.append(
                {
                    "id": action.id,
                    "title": action.title,
                    "fields": [f for f in fields if not f["group"] and not f["faces"]],
                    "groups": _grouped(fields),
                    "dice_fields": [f for f in fields if f["faces"]],
                    "rolled": action.rolled,
                    "has_odds": action.odds is not None,
                    "faces_hint": action.faces_hint or N_("the faces, comma separated"),
                    "key": new_form_key(),
                    "open": False,
                }
            )
        # What a table does most comes first: the forms that roll dice (in the game's
        # order), the first of them open; then the others (creation, sheets, the clock).
        forms.sort(key=lambda f: not f["rolled"])
        if forms:
            forms[0]["open"] = True
    tr = translator(viewer.lang)
    role = holder_label(tr, viewer.link)
    here = table.presence.counts(viewer.link.table_id)
    mine = seat_of(viewer.role, viewer.player)
    here[mine] = max(here[mine], 1)  # the page's own stream opens next

    house_rules = [
        (name, rule.render(tr))
        for name, rule in zip(
            state.system.options_json(state.game), state.system.house_rules(state.game), strict=True
        )
    ]
    return render(
        "table.html",
        viewer.lang,
        table=state.name,
        system_title=system_title(state.system.id),
        role_label=role,
        base=base_path(token),
        csrf=csrf_token(table.secret, viewer.link),
        route=table_route(table.secret, viewer.link.table_id),
        forms=forms,
        roll_modes=ROLL_MODES if viewer.is_gm else ROLL_MODES[:2],
        is_gm=viewer.is_gm,
        entries=entries,
        resources=resources_html(state, viewer),
        last_seq=state.last_seq,
        presence=presence_html(state.players, here, viewer.lang),
        house_rules=house_rules,
    )


async def _events(
    table: WebTable, viewer: Viewer, start: int, base: str, opened: TableState[Any]
) -> AsyncIterator[bytes]:
    """The stream: every event after ``start`` as it is stored, rendered for the viewer.

    A stream that starts more than `LOG_PAGE` events behind the log's end first sends the
    latest page in one message, after an "Earlier entries" control for what it skipped
    (`tablee.web.history.catch_up`; ``base`` is the link's page, ``/t/TOKEN``; ``opened``
    the table's whole fold as the stream's request read it).

    The link is checked again at least every `RECHECK_SECONDS`, and at once when the table's
    links change (`tablee.web.hub.Hub.links_changed`): a revoked link's stream ends.
    While the stream is open its seat counts as connected (`tablee.web.presence`); each
    change of the table's seats is sent as a ``presence`` message.
    Each message is rendered once per audience and shared with the table's other streams
    (`tablee.web.render.Fragments`); the messages found at one wake-up go out in one write.
    """
    table_id = viewer.link.table_id
    sent = start
    shown = -1  # the presence version last sent (`tablee.web.presence`)
    now = asyncio.get_running_loop().time
    checked = last_out = now()
    stream_opened = time.time()  # the metrics count deliveries after it
    yield b": tablee\nretry: 2000\n\n"  # reconnect after 2 s when the connection drops
    try:
        seat = seat_of(viewer.role, viewer.player)
        # the log is known to reach ``opened``'s end: the poller reads only what follows
        # (from ``sent``, a stream from 0 would have it read the whole log on the loop)
        known = max(sent, opened.last_seq)
        with table.hub.watching(table_id, known), table.presence.present(table_id, seat):
            links = table.hub.links(table_id)
            if opened.last_seq - sent > LOG_PAGE:
                yield await catch_up(table, opened, viewer, sent, base)
                sent, last_out = opened.last_seq, now()
            while not table.hub.closed:
                signal = table.hub.signal(table_id)
                if now() - checked >= RECHECK_SECONDS or table.hub.links(table_id) != links:
                    links = table.hub.links(table_id)
                    if not await table.link_works(viewer.link):
                        return
                    checked = now()
                state = await table.fresh_state(table_id, viewer.table)
                if state.last_seq > sent:
                    new = _events_after(state, sent)
                    yield b"".join(table.fragments.message(e, state, viewer) for e in new)
                    metrics.delivered(new, stream_opened)
                    sent, last_out = new[-1].seq, now()
                    continue
                if table.presence.version(table_id) != shown:
                    shown = table.presence.version(table_id)
                    counts = table.presence.counts(table_id)
                    yield presence_message(state.players, counts, viewer.lang)
                    last_out = now()
                    continue
                await table.hub.wait(signal, min(KEEPALIVE_SECONDS, RECHECK_SECONDS))
                if now() - last_out >= KEEPALIVE_SECONDS:
                    yield b": ping\n\n"  # keeps proxies from closing an idle stream
                    last_out = now()
    finally:
        if not table.hub.watched(table_id):
            table.fragments.forget(table_id)


def _events_after(state: TableState[Any], seq: int) -> list[StoredEvent]:
    """The state's events after ``seq``, in order (the log's seqs run 1, 2, ... with no gap)."""
    events = state.events
    if events and events[-1].seq - events[0].seq == len(events) - 1:
        return list(events[max(0, seq - events[0].seq + 1) :])
    return [e for e in events if e.seq > seq]
