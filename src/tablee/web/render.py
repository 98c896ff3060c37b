"""HTML for the web table: Jinja2 templates (autoescaped), log entries per viewer, odds.

Everything a user typed (names, reasons, notes) reaches the page through Jinja2 with
autoescaping on, never through hand-built markup. A log entry is rendered for one viewer:
an event the viewer may not see (see `tablee.web.access.can_see`) becomes a line saying only
that something hidden happened, so its dice and result never leave the server.

Source: docs/web.md, "Pages and routes".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import fields
from functools import cache, lru_cache
from types import SimpleNamespace
from typing import Any

import jinja2
from markupsafe import Markup

from tablee.errors import N_
from tablee.locale import translation
from tablee.locale.numbers import format_percent
from tablee.table.events import TABLE_VOIDED, StoredEvent
from tablee.table.projection import TableState
from tablee.table.transcript import describe
from tablee.web.access import Viewer, can_see
from tablee.web.cards import card_context
from tablee.web.live import LiveList, live_choices
from tablee.web.memo import StateMemo, kept_value
from tablee.web.systems import OddsView, Panel, web_system

__all__ = [
    "LASTING",
    "TAIL",
    "CatalogText",
    "Fragments",
    "choices_html",
    "described",
    "entry_html",
    "first_upper",
    "odds_rows",
    "percent_text",
    "render",
    "resource_panels",
    "resources_html",
    "sse_message",
    "stream_fragment",
    "translator",
]

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
    """The templates of ``tablee/web/templates``, autoescaped, undefined names an error.

    Templates ship in the package and are loaded once (``auto_reload=False``: Jinja2 would
    otherwise check each template's file on disk at every rendering).
    """
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("tablee.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    env.filters["first_upper"] = first_upper
    env.globals["die_html"] = die_html
    env.globals["odds_html"] = odds_html
    return env


def die_html(die: Mapping[str, Any]) -> Markup:
    """One die of a roll card (``_die.html``), drawn once per kind, face, mark and label.

    A log holds few kinds of die (a d6's six faces, each with a handful of marks), and
    Jinja2's macros cost tens of microseconds a call: every card reuses the drawings.

    Args:
        die: a die as `tablee.table.cards.card_view` gives it: ``die``, ``face``, ``mark``,
            ``label`` (already in the reader's language), ``pips``.
    """
    return _drawn_die(die["die"], die["face"], die["mark"], die["label"], die["pips"])


def odds_html(odds: Mapping[str, Any]) -> Markup:
    """The odds a roll card shows (``_card_odds.html``), drawn once per odds and language.

    The odds a roll recorded repeat from roll to roll (the same pool, the same threshold):
    every card showing the same reuses the drawing.

    Args:
        odds: the card's odds as `tablee.table.cards.card_view` gives them, in the reader's
            language: ``summary``, ``rows`` (each ``label``, ``percent``, ``fraction``,
            ``value``), ``note``.
    """
    rows = tuple((r["label"], r["percent"], r["fraction"], r["value"]) for r in odds["rows"])
    return _drawn_odds(odds["summary"], rows, odds["note"])


@lru_cache(maxsize=1024)
def _drawn_odds(summary: str, rows: tuple[tuple[str, str, str, str], ...], note: str) -> Markup:
    names = ("label", "percent", "fraction", "value")
    shown = {
        "summary": summary,
        "rows": [dict(zip(names, row, strict=True)) for row in rows],
        "note": note,
    }
    return Markup(_template("_card_odds.html").render(odds=shown))


@lru_cache(maxsize=1024)
def _drawn_die(
    die: str, face: str, mark: str, label: str, pips: tuple[tuple[int, int], ...]
) -> Markup:
    drawn = {"die": die, "face": face, "mark": mark, "label": label, "pips": pips}
    # the template's last line break (which Jinja2 drops) keeps the dice apart as the
    # macro it replaces did
    return Markup(_template("_die.html").render(d=drawn) + "\n")


def first_upper(text: str) -> str:
    """``text`` with its first character upper-case, the rest as it is (a form's title).

    ``"a test: 1d6 + trait"`` -> ``"A test: 1d6 + trait"``; ``"s'entêter"`` -> ``"S'entêter"``.
    Unlike `str.capitalize`, a game term or a name inside keeps its capitals.
    """
    return text[:1].upper() + text[1:]


class CatalogText:
    """The gettext function of a catalog, and its ``ngettext`` for counts (`Plural`).

    An empty text stays empty (gettext would give the catalog's header for it).
    """

    def __init__(self, catalog: Any) -> None:
        self.catalog = catalog

    def __call__(self, message: str) -> str:
        """``message`` translated (an empty one stays empty)."""
        return str(self.catalog.gettext(message)) if message else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` that ``n`` takes, translated."""
        return str(self.catalog.ngettext(singular, plural, n))


def translator(lang: str) -> Translate:
    """The gettext function of ``fr`` or ``en`` (messages not yet in the catalog stay English).

    An empty text stays empty; a count (`tablee.errors.Plural`) takes the form of the
    language (`CatalogText`).
    """
    return CatalogText(translation(lang if lang in ("fr", "en") else "en"))


@cache
def _template(name: str) -> jinja2.Template:
    """A template of the package, found once (Jinja2's own cache takes a lock per lookup)."""
    return environment().get_template(name)


def render(name: str, lang: str, **context: Any) -> str:
    """Render a template with ``_`` (translation) and ``lang`` in its context."""
    tr = translator(lang)
    return _template(name).render(_=tr, lang=lang, **context)


percent_text = format_percent
"""A probability as a percentage in the language's format (`tablee.locale.numbers`)."""


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


_MEMO = StateMemo()


def described(event: StoredEvent, state: TableState[Any], lang: str) -> str:
    """An event's log line in ``lang`` (`describe`), made once per state and language.

    The answer to a form and the log entry its streams push both tell the new event from
    the same state: the line is made once for both.
    """
    return _MEMO.get(state, (event.seq, lang), lambda: describe(event, translator(lang), state))


def entry_context(event: StoredEvent, state: TableState[Any], viewer: Viewer) -> dict[str, Any]:
    """What the entry template shows of one event, for one viewer."""
    tr = translator(viewer.lang)
    visible = can_see(viewer, event)
    details: list[str] = []
    card = None
    if visible:
        text = described(event, state, viewer.lang)
        web = web_system(state.system.id)
        if web is not None:
            details = list(web.details(event, state, tr))
        card = card_context(event, state, viewer.lang)
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
        "seen_by": viewer.is_gm and event.visibility != "all",  # the GM is told who sees it
        "hidden": not visible,
        "card": card,
    }


def entry_html(
    event: StoredEvent,
    state: TableState[Any],
    viewer: Viewer,
    *,
    oob: bool = False,
    fresh: bool = False,
) -> str:
    """One ``<li>`` of the log for a viewer.

    ``oob``: it replaces the entry already shown; ``fresh``: it arrives live (pushed to the
    page), so its roll card is drawn arriving (a short animation, none when the reader asks
    for reduced motion).
    """
    context = entry_context(event, state, viewer)
    return render("_entry.html", viewer.lang, e=_as_attributes(context), oob=oob, fresh=fresh)


def _as_attributes(context: dict[str, Any]) -> SimpleNamespace:
    """An entry's context with its card and the card's groups read as attributes.

    The templates read ``e.text``, ``card.groups``, ``group.dice``: Jinja2 tries an
    attribute first and a key only after that lookup fails, which on mappings took a third
    of an entry's rendering. Dice and odds stay mappings (`die_html`, `odds_html`).
    """
    card = context["card"]
    if card is not None:
        groups = [SimpleNamespace(**group) for group in card["groups"]]
        card = SimpleNamespace(**{**card, "groups": groups})
    return SimpleNamespace(**{**context, "card": card})


def resource_panels(state: TableState[Any], viewer: Viewer) -> list[Panel]:
    """The resources at a glance for a viewer, as the system's web module gives them."""
    web = web_system(state.system.id)
    return [] if web is None else list(web.resources(state, viewer, translator(viewer.lang)))


def own_sheets(panels: list[Panel], viewer: Viewer) -> tuple[bool, ...]:
    """For each panel, whether it is the viewer's own sheet (drawn unfolded on their page)."""
    return tuple(p.sheet and p.owner is not None and viewer.is_player(p.owner) for p in panels)


def _draw_resources(panels: list[Panel], viewer: Viewer, oob: bool) -> str:
    mine = own_sheets(panels, viewer)
    return render("_resources.html", viewer.lang, panels=panels, mine=mine, oob=oob)


def resources_html(state: TableState[Any], viewer: Viewer, *, oob: bool = False) -> str:
    """The resources at a glance, as the system's web module draws them.

    Characters' sheets are folded (their name and key counters) except the viewer's own.
    """
    return _draw_resources(resource_panels(state, viewer), viewer, oob)


def choices_html(state: TableState[Any], viewer: Viewer) -> str:
    """The forms' choice lists as the table is now, for a stream message (`tablee.web.live`).

    An out-of-band swap of the page's hidden ``#live-choices`` box: one ``<template>`` per
    list, naming in ``data-for`` the ids of the ``<select>`` elements it fills; the page's
    script then moves the options into them.
    """
    return _draw_choices(live_choices(state, viewer), viewer.lang)


def _draw_choices(lists: Sequence[LiveList], lang: str) -> str:
    return render("_choices.html", lang, lists=lists)


def stream_fragment(
    events: list[StoredEvent],
    state: TableState[Any],
    viewer: Viewer,
    by_seq: Mapping[int, StoredEvent],
) -> str:
    """What one pushed message carries: new entries, undone ones re-drawn, resources, choices.

    The choices are the forms' lists read from the table (`choices_html`).

    Args:
        events: the new events, in order.
        state: the table after them.
        viewer: who receives the message.
        by_seq: every event of the table by seq (to re-draw an undone one).
    """
    parts = [entry_html(e, state, viewer, fresh=True) for e in events]
    for e in events:
        target = _voided_target(e, by_seq)
        if target is not None:
            parts.append(entry_html(target, state, viewer, oob=True))
    parts.append(resources_html(state, viewer, oob=True))
    parts.append(choices_html(state, viewer))
    return "".join(parts)


def sse_message(data: str, *, event: str, event_id: int) -> bytes:
    """One Server-Sent Events message: its type, one ``data:`` line per line, its id.

    Source: the HTML standard's event stream format (lines split on CR, LF or CRLF).
    """
    lines = data.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\ndata: ")
    return f"event: {event}\ndata: {lines}\nid: {event_id}\n\n".encode()


TAIL = 100
"""How many of a table's last events have their stream messages kept for sharing."""

LASTING = 64
"""How many renderings of resources panels and choice lists are kept per table across its
states (`Fragments`); past it the oldest half is dropped."""


class Fragments:
    """Stream messages rendered once and shared by the streams of a table.

    A stream message (`stream_fragment` as an SSE ``log`` message) depends on the event, the
    table's state and the viewer only through what the viewer may see and the language: a
    log entry through whether the viewer may see the event (`can_see`), whether the viewer
    is told who else sees it (the game master, for a roll not shown to everyone) and the
    language; the resources panel through the panels the system's web module gives for
    that viewer (`resource_panels`, computed for every viewer: cheap) and the language.
    Each part is rendered once per such key and reused by every stream of the table whose
    key is the same, so the filtering stays exactly as strict as rendering for each viewer:
    a viewer only ever receives what was rendered from its own key.

    For each table only the renderings made from one state (its last seq) are kept, and
    only for the last `TAIL` events: a newer state drops them; a stream still on an older
    state renders for itself without keeping anything. The resources panel and the choice
    lists are drawn from data that most events leave as it was (the panels, the lists'
    options): their renderings are kept across states, keyed by that data itself (at most
    `LASTING` per table), so a roll that changes neither draws neither again.

    Source: docs/web.md, "Security model" (filtered on the server); docs/architecture.md, "Web
    hot path".
    """

    def __init__(self) -> None:
        self._tables: dict[str, tuple[int, dict[tuple[Any, ...], Any]]] = {}
        self._lasting: dict[str, dict[tuple[Any, ...], str]] = {}

    def _kept(self, table_id: str, state: TableState[Any]) -> dict[tuple[Any, ...], Any] | None:
        """The renderings kept for the table's state, or None when the state is an old one."""
        found = self._tables.get(table_id)
        if found is None or found[0] < state.last_seq:
            found = self._tables[table_id] = (state.last_seq, {})
        return found[1] if found[0] == state.last_seq else None

    def forget(self, table_id: str) -> None:
        """Drop what is kept for a table (its last stream closed)."""
        self._tables.pop(table_id, None)
        self._lasting.pop(table_id, None)

    def _drawn(self, table_id: str, key: tuple[Any, ...], draw: Callable[[], str]) -> str:
        """A rendering kept across the table's states, keyed by all the data it is drawn from."""
        return kept_value(self._lasting.setdefault(table_id, {}), key, LASTING, draw)

    def message(
        self,
        event: StoredEvent,
        state: TableState[Any],
        viewer: Viewer,
    ) -> bytes:
        """The SSE ``log`` message of one event for a viewer, rendered once per audience.

        Args:
            event: the event pushed (one of ``state.events``).
            state: the table's state the stream read (after ``event``).
            viewer: who receives the message.

        Returns:
            The bytes of the message, equal to ``sse_message(stream_fragment([event], state,
            viewer, by_seq), event="log", event_id=event.seq)`` with ``by_seq`` every event
            of the state by seq.
        """
        kept = self._kept(viewer.link.table_id, state)
        target = _voided_target(event, _EventsBySeq(state))
        if kept is None or event.seq <= state.last_seq - TAIL:
            parts = [entry_html(event, state, viewer, fresh=True)]
            if target is not None:
                parts.append(entry_html(target, state, viewer, oob=True))
            parts.append(resources_html(state, viewer, oob=True))
            parts.append(choices_html(state, viewer))
            return sse_message("".join(parts), event="log", event_id=event.seq)
        key = ("message", event.seq, viewer.role, viewer.player, viewer.lang)
        found = kept.get(key)
        if found is None:
            parts = [self._entry(kept, event, state, viewer, oob=False)]
            if target is not None:
                parts.append(self._entry(kept, target, state, viewer, oob=True))
            parts.append(self._resources(state, viewer))
            parts.append(self._choices(kept, state, viewer))
            found = sse_message("".join(parts), event="log", event_id=event.seq)
            kept[key] = found
        message: bytes = found
        return message

    @staticmethod
    def _entry(
        kept: dict[tuple[Any, ...], Any],
        event: StoredEvent,
        state: TableState[Any],
        viewer: Viewer,
        *,
        oob: bool,
    ) -> str:
        seen_by = viewer.is_gm and event.visibility != "all"  # as `entry_context`
        key = ("entry", event.seq, oob, can_see(viewer, event), seen_by, viewer.lang)
        if key not in kept:
            kept[key] = entry_html(event, state, viewer, oob=oob, fresh=not oob)
        html: str = kept[key]
        return html

    def _resources(self, state: TableState[Any], viewer: Viewer) -> str:
        panels = resource_panels(state, viewer)
        hashed = tuple(map(_hashable, panels))
        key = ("resources", viewer.lang, own_sheets(panels, viewer), hashed)
        try:
            return self._drawn(state.table_id, key, lambda: _draw_resources(panels, viewer, True))
        except TypeError:  # a panel holding a list of lists: rendered, not kept
            return _draw_resources(panels, viewer, True)

    def _choices(
        self, kept: dict[tuple[Any, ...], Any], state: TableState[Any], viewer: Viewer
    ) -> str:
        # the lists depend on the viewer only through its role and player (a player's "who
        # acts" list) and the language (translated labels); their rendering only on the
        # lists and the language
        key = ("choices", viewer.role, viewer.player, viewer.lang)
        if key not in kept:
            lists = live_choices(state, viewer)
            drawn = ("choices", viewer.lang, lists)
            kept[key] = self._drawn(
                state.table_id, drawn, lambda: _draw_choices(lists, viewer.lang)
            )
        html: str = kept[key]
        return html


def _hashable(panel: Panel) -> tuple[Any, ...]:
    """A panel as a tuple of its fields (lists as tuples): equal exactly when the panels are."""
    values = map(panel.__dict__.__getitem__, _PANEL_FIELDS)
    return tuple([tuple(v) if type(v) is list else v for v in values])


_PANEL_FIELDS = tuple(f.name for f in fields(Panel))
"""The names of a `Panel`'s fields, in order (`_hashable`)."""


def _voided_target(event: StoredEvent, by_seq: Mapping[int, StoredEvent]) -> StoredEvent | None:
    """The event an undo voids (None for any other event, or an unknown target)."""
    if event.kind != TABLE_VOIDED:
        return None
    return by_seq.get(int(event.payload.get("seq", 0)))


class _EventsBySeq(Mapping[int, StoredEvent]):
    """A state's events by seq, without building a dict (a log's seqs run 1, 2, 3...)."""

    def __init__(self, state: TableState[Any]) -> None:
        self._events = state.events

    def __getitem__(self, seq: int) -> StoredEvent:
        if 1 <= seq <= len(self._events) and self._events[seq - 1].seq == seq:
            return self._events[seq - 1]
        for event in self._events:  # a log that does not start at 1 (never stored so)
            if event.seq == seq:
                return event
        raise KeyError(seq)

    def __iter__(self) -> Iterator[int]:
        return (event.seq for event in self._events)

    def __len__(self) -> int:
        return len(self._events)
