"""HTML for the web table: Jinja2 templates (autoescaped), log entries per viewer, odds.

Everything a user typed (names, reasons, notes) reaches the page through Jinja2 with
autoescaping on, never through hand-built markup. A log entry is rendered for one viewer:
an event the viewer may not see (see `tablee.web.access.can_see`) becomes a line saying only
that something hidden happened, so its dice and result never leave the server.

Source: issue 6 points 4, 5 and 7; DESIGN.md "Pages".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

import jinja2

from tablee.errors import N_
from tablee.locale import translation
from tablee.table.events import TABLE_VOIDED, StoredEvent
from tablee.table.projection import TableState
from tablee.table.transcript import describe
from tablee.web.access import Viewer, can_see
from tablee.web.systems import OddsView, web_system

__all__ = ["entry_html", "odds_rows", "percent_text", "render", "resources_html", "translator"]

Translate = Callable[[str], str]

HIDDEN = {
    "roller_and_gm": N_("A secret roll: only its roller and the game master see it."),
    "gm": N_("A blind roll: only the game master sees it."),
}
VISIBILITY_LABELS = {
    "all": N_("everyone"),
    "roller_and_gm": N_("the roller and the game master"),
    "gm": N_("the game master only (blind)"),
}


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The templates of ``tablee/web/templates``, autoescaped, undefined names an error."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("tablee.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def translator(lang: str) -> Translate:
    """The gettext function of ``fr`` or ``en`` (messages not yet in the catalog stay English).

    An empty text stays empty (gettext would give the catalog's header for it).
    """
    catalog = translation(lang if lang in ("fr", "en") else "en")

    def tr(message: str) -> str:
        return catalog.gettext(message) if message else message

    return tr


def render(name: str, lang: str, **context: Any) -> str:
    """Render a template with ``_`` (translation) and ``lang`` in its context."""
    tr = translator(lang)
    return environment().get_template(name).render(_=tr, lang=lang, **context)


def percent_text(probability: Fraction, lang: str) -> str:
    """A probability as a percentage with one decimal, in the language's number format."""
    value = f"{float(probability) * 100:.1f}"
    return (value.replace(".", ",") + "\u00a0%") if lang == "fr" else value + "%"


def odds_rows(view: OddsView, lang: str) -> list[dict[str, Any]]:
    """The rows of an odds table: label, percentage, exact fraction, value for a meter."""
    return [
        {
            "label": label,
            "percent": percent_text(p, lang),
            "fraction": f"{p.numerator}/{p.denominator}",
            "value": f"{float(p):.4f}",
        }
        for label, p in view.rows
    ]


def entry_context(event: StoredEvent, state: TableState, viewer: Viewer) -> dict[str, Any]:
    """What the entry template shows of one event, for one viewer."""
    tr = translator(viewer.lang)
    visible = can_see(viewer, event)
    details: list[str] = []
    if visible:
        text = describe(event, tr, state)
        web = web_system(state.system.id)
        if web is not None:
            details = list(web.details(event, state, tr))
    else:
        text = tr(HIDDEN.get(event.visibility, HIDDEN["gm"]))
    return {
        "seq": event.seq,
        "time": event.created_at.strftime("%H:%M:%S"),
        "iso": event.created_at.isoformat(),
        "actor": event.actor if visible else None,
        "text": text,
        "details": details,
        "voided": event.seq in state.voided,
        "undo": event.kind == TABLE_VOIDED,
        "visibility": event.visibility,
        "visibility_label": VISIBILITY_LABELS.get(event.visibility, event.visibility),
        "hidden": not visible,
    }


def entry_html(event: StoredEvent, state: TableState, viewer: Viewer, *, oob: bool = False) -> str:
    """One ``<li>`` of the log for a viewer (``oob``: replaces the entry already shown)."""
    return render(
        "_entry.html", viewer.lang, e=entry_context(event, state, viewer), oob=oob, viewer=viewer
    )


def resources_html(state: TableState, viewer: Viewer, *, oob: bool = False) -> str:
    """The resources at a glance, as the system's web module draws them."""
    web = web_system(state.system.id)
    tr = translator(viewer.lang)
    panels = [] if web is None else list(web.resources(state, viewer, tr))
    return render("_resources.html", viewer.lang, panels=panels, oob=oob)


def stream_fragment(
    events: list[StoredEvent], state: TableState, viewer: Viewer, by_seq: Mapping[int, StoredEvent]
) -> str:
    """What one pushed message carries: the new entries, undone entries re-drawn, resources.

    Args:
        events: the new events, in order.
        state: the table after them.
        viewer: who receives the message.
        by_seq: every event of the table by seq (to re-draw an undone one).
    """
    parts = [entry_html(e, state, viewer) for e in events]
    for e in events:
        if e.kind == TABLE_VOIDED:
            target = by_seq.get(int(e.payload.get("seq", 0)))
            if target is not None:
                parts.append(entry_html(target, state, viewer, oob=True))
    parts.append(resources_html(state, viewer, oob=True))
    return "".join(parts)
