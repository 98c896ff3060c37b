"""Yuigahama Bad Seeds in the web table: the forms of ``tablee ybs ...``, tokens and boxes.

Every handler calls the same ``decide_*`` function as the command line through the table
service; the odds are `tablee.systems.ybs.odds_of_test` (a test), the advisor's
`tablee.systems.ybs.advisor.advise` (each keep choice of a gang-fight throw),
`tablee.systems.ybs.gang_odds.gang_fight_odds` and `encounter_odds`, as ``tablee odds ybs``.

Who may do what (decisions W-Y1 to W-Y9 of docs/web.md): a player acts only for the
characters they play and spends only their own tokens (creating them, testing with them,
their test's s'entêter and critical success, Shichi Fukujin, a retreat, a trait transfer,
the players' side of a gang-fight throw their character fights in); the GM does everything
else and may act for any character, as at the command line.

The forms live by theme: `trait_tests` (a test and its follow-ups), `tokens` (characters,
sessions, Unmei tokens), `fights` (damage, individual fights, evolution), `gang` (gang
fights, encounters), with `helpers` shared and `resources` for the panels.

Source: docs/web.md, "Yuigahama Bad Seeds at the web table"; seed 004; rulings Y-M1 to Y-M9, Y-A2 to
Y-A22.
"""

from __future__ import annotations

from collections.abc import Sequence

from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.web.access import Viewer
from tablee.web.systems import Action, Panel, Translate, WebSystem
from tablee.web.systems.ybs.fights import FIGHT_ACTIONS
from tablee.web.systems.ybs.gang import GANG_ACTIONS
from tablee.web.systems.ybs.helpers import SHEETS_MAX as SHEETS_MAX
from tablee.web.systems.ybs.resources import resource_panels
from tablee.web.systems.ybs.tokens import TOKEN_ACTIONS
from tablee.web.systems.ybs.trait_tests import TEST_ACTIONS, test_details

__all__ = ["WEB", "YbsWeb"]

ACTIONS: tuple[Action, ...] = (*TEST_ACTIONS, *TOKEN_ACTIONS, *FIGHT_ACTIONS, *GANG_ACTIONS)
"""Every form, in the order the page shows them."""


class YbsWeb:
    """The YBS module of the web table (see `tablee.web.systems.WebSystem`)."""

    id = "ybs"
    title = "Yuigahama Bad Seeds"

    def actions(self) -> Sequence[Action]:
        """The forms: tests and follow-ups, tokens, characters, damage, fights, evolution."""
        return ACTIONS

    def resources(self, state: TableState, viewer: Viewer, tr: Translate) -> Sequence[Panel]:
        """The session and every holder's Unmei tokens, the fights, then each character."""
        return resource_panels(state, viewer, tr)

    def details(self, event: StoredEvent, state: TableState, tr: Translate) -> Sequence[str]:
        """The trace of a test so far, resolved again from its stored faces."""
        return test_details(event, state, tr)


WEB: WebSystem = YbsWeb()
"""The module's `WebSystem` object."""
