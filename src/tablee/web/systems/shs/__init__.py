"""Space Horror Stories in the web table: the forms of ``tablee shs ...``, the counters.

Every handler calls the same ``plan_*``/``decide_*`` functions as the command line through
the table service. A player acts only for the Protagonistes they play: their Tests and
simultaneous Actions, the first side of an opposed Action (the other side then takes no
option or Expertise unless it is theirs too), and the Protagonistes they create. The
Réalisateur (game master) does everything, including the clock and cooperation.

The forms live by theme: `actions` (the rolled Actions and their traces) and `protagonists`
(Protagonistes, counters, the clock, the panels), with `reading` for the shared form
reading.

Source: docs/web.md, "Space Horror Stories at the web table"; seed 003; rulings S-M2 to S-M9, S-A1
to S-A15.
"""

from __future__ import annotations

from collections.abc import Sequence

from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.web.access import Viewer
from tablee.web.systems import Action, Panel, Translate, WebSystem
from tablee.web.systems.shs.actions import ROLLED_ACTIONS, action_details
from tablee.web.systems.shs.protagonists import TABLE_ACTIONS, resource_panels
from tablee.web.systems.shs.protagonists import shs_next_tour as shs_next_tour

__all__ = ["WEB", "ShsWeb"]

ACTIONS: tuple[Action, ...] = (*ROLLED_ACTIONS, *TABLE_ACTIONS)
"""Every form, in the order the page shows them."""


class ShsWeb:
    """The SHS module of the web table (see `tablee.web.systems.WebSystem`)."""

    id = "shs"
    title = "Space Horror Stories"

    def actions(self) -> Sequence[Action]:
        """The forms: Tests and Actions, Protagonistes, counters, the clock."""
        return ACTIONS

    def resources(self, state: TableState, viewer: Viewer, tr: Translate) -> Sequence[Panel]:
        """The clock, then each Protagoniste's Santé (as boxes), Protection, Air and NT."""
        return resource_panels(state, viewer, tr)

    def details(self, event: StoredEvent, state: TableState, tr: Translate) -> Sequence[str]:
        """The trace of each rolled Action, resolved again from its stored faces.

        The options in force are those right after the event; a trace is shown only when
        resolving again gives the stored PS (else the log line alone says what happened).
        """
        return action_details(event, state, tr)


WEB: WebSystem = ShsWeb()
"""The module's `WebSystem` object."""
