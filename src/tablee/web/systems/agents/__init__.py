"""The agents game in the web table: the forms of ``tablee agents ...``, reserves and the quest.

Every handler calls the same ``decide_*`` function as the command line (``tablee agents``
and ``tablee agents play``) through the table service; the odds are
`tablee.systems.agents.action_distribution` (an action's critical, success and failure) and
`challenge_win_probability` (the agents bringing the target to 0), as ``tablee odds
agents``. Actions have one form per challenge type, so the type's checklist of modifiers is
a list of check boxes.

The game may be played without a game master (seed 002, "Génération de scénario"): the
steps of the scenario generator and the artefact contest are open to every player; the
resources say what the adventure needs next (`tablee.systems.agents.next_step`). A player
acts only for their own agents (decisions W-G1 to W-G6 of docs/web.md).

The forms live by theme: `challenges` (agents, challenges, actions, reserves, winners) and
`scenario` (the generator and the artefact contest), with `helpers` shared and `resources`
for the panels.

Source: docs/web.md, "The agents game at the web table"; seed 002; rulings G-M1 to G-M12, G-A2 to
G-A20.
"""

from __future__ import annotations

from collections.abc import Sequence

from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.web.access import Viewer
from tablee.web.systems import Action, Panel, Translate, WebSystem
from tablee.web.systems.agents.challenges import CHALLENGE_ACTIONS, action_details
from tablee.web.systems.agents.resources import resource_panels
from tablee.web.systems.agents.scenario import SCENARIO_ACTIONS

__all__ = ["WEB", "AgentsWeb"]

ACTIONS: tuple[Action, ...] = (*CHALLENGE_ACTIONS, *SCENARIO_ACTIONS)
"""Every form, in the order the page shows them."""


class AgentsWeb:
    """The agents module of the web table (see `tablee.web.systems.WebSystem`)."""

    id = "agents"
    title = "Agents"

    def actions(self) -> Sequence[Action]:
        """The forms: actions per type, reserves, agents, challenges, the generator, contest."""
        return ACTIONS

    def resources(self, state: TableState, viewer: Viewer, tr: Translate) -> Sequence[Panel]:
        """The quest and the next step, each open challenge, then each agent's reserves."""
        return resource_panels(state, viewer, tr)

    def details(self, event: StoredEvent, state: TableState, tr: Translate) -> Sequence[str]:
        """The trace of an action, resolved again from its stored face and modifier."""
        return action_details(event, state, tr)


WEB: WebSystem = AgentsWeb()
"""The module's `WebSystem` object."""
