"""The forms' choice lists as the table is now, for one viewer: sent with every stream message.

A form's choice list read from the table (characters, Protagonistes, agents, fighters...:
a `tablee.web.systems.Field` whose ``choices`` is a function) changes as the table does. The
page draws each list once; every message of the live stream then carries the lists again
(`tablee.web.render.choices_html`), filtered for its viewer exactly as the page is (a
player's "who acts" list holds only what they may act as), and the page's script puts the
new options in the ``<select>`` elements whose id they name, keeping the option selected
when it is still offered and every other field as the user left it.

Source: docs/web.md, "Live forms".
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from tablee.table.projection import TableState
from tablee.web.access import Viewer
from tablee.web.memo import kept_value
from tablee.web.systems import Action, Field, Translate, WebSystem, web_system

__all__ = ["LiveList", "field_choices", "live_choices", "select_id", "shown_fields"]

LiveList = tuple[tuple[str, ...], tuple[tuple[str, str], ...]]
"""One list sent: the ids of the ``<select>`` elements showing it, and its ``(value, label)``
options in order."""


def select_id(action: Action, field: Field) -> str:
    """The id of a field's input on the table page (``roll-player``)."""
    return f"{action.id}-{field.name}"


def field_choices(
    field: Field, state: TableState[Any], viewer: Viewer, tr: Translate
) -> list[tuple[str, str]]:
    """A field's choices for the viewer, translated; names (label == value) stay as typed.

    Args:
        field: a ``choice`` field.
        state: the table now.
        viewer: who reads the form (a player's "who acts" list is filtered for them).
        tr: the viewer's translation function.
    """
    fixed = not callable(field.choices)
    return [
        (value, tr(label) if fixed or label != value else label)
        for value, label in field.options(state, viewer)
    ]


def shown_fields(action: Action, viewer: Viewer, state: TableState[Any]) -> list[Field]:
    """The fields of an action's form the viewer's page shows.

    None when the viewer's role may not use the action at this table now (`Action.open_to`,
    as the page decides); a game-master-only field only on the game master's page.
    """
    if not action.open_to(state, viewer.role):
        return []
    return [f for f in action.fields if viewer.is_gm or not f.gm_only]


def live_choices(state: TableState[Any], viewer: Viewer) -> tuple[LiveList, ...]:
    """Every choice list read from the table on the viewer's page, as the table is now.

    Fields showing the same options share one list (most forms name the same characters).
    The lists depend on the table only through the game's `WebSystem.live_basis`, and on
    the viewer through its role, player and language: they are made once for each such
    key (the last `KEPT` keys are kept), so a roll that changes no list makes none again.

    Args:
        state: the table now.
        viewer: who reads the page (a spectator's page has no form: no list).

    Returns:
        The lists in the order of the page's forms; empty for a system without forms.
    """
    web = web_system(state.system.id)
    if web is None or viewer.role == "spectator":
        return ()
    key = (web.id, web.live_basis(state), viewer.role, viewer.player, viewer.lang)
    return kept_value(_KEPT, key, KEPT, lambda: _lists(web, state, viewer))


KEPT = 512
"""How many (basis, viewer) keys `live_choices` keeps the lists of."""

_KEPT: dict[Hashable, tuple[LiveList, ...]] = {}


def _lists(web: WebSystem, state: TableState[Any], viewer: Viewer) -> tuple[LiveList, ...]:
    from tablee.web.render import translator  # render draws these lists: it imports this module

    tr = translator(viewer.lang)
    grouped: dict[tuple[tuple[str, str], ...], list[str]] = {}
    for action in web.actions():
        for field in shown_fields(action, viewer, state):
            if field.kind == "choice" and callable(field.choices):
                options = tuple(field_choices(field, state, viewer, tr))
                grouped.setdefault(options, []).append(select_id(action, field))
    return tuple((tuple(ids), options) for options, ids in grouped.items())
