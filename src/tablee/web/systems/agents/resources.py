"""The agents game's resources at a glance in the web table: the quest, challenges, agents.

The next step the adventure needs (`tablee.systems.agents.next_step`), the quest's progress
index, status, scene and objective, the artefact's holder, each open challenge's oppositions
and agents with the checklist of each open challenge's type, then each agent's reserves,
Sang and challenges won.

Source: docs/web.md, "The agents game at the web table"; seed 002; rulings G-M1, G-M9 to G-M12,
G-A11, G-A13.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablee.errors import N_
from tablee.systems import agents
from tablee.table.projection import TableState
from tablee.web.access import Viewer
from tablee.web.systems import (
    Panel,
    Translate,
)

__all__ = ["checklist_panel", "resource_panels"]


# --- resources -----------------------------------------------------------------------------------

_STEPS = {
    "create_agents": N_("create the agents"),
    "draw_quest": N_("draw a quest"),
    "start_scene": N_("start the next scene"),
    "generate": N_("generate the scene's challenge"),
    "act": N_("{agent} acts in challenge {challenge}"),
    "name_winner": N_("name the winner of challenge {challenge}"),
    "consequence": N_("apply the consequences of challenge {challenge}"),
    "start_contest": N_("start the artefact contest"),
    "contest_challenge": N_("a challenge for the artefact, or close the contest"),
    "settle_bout": N_("settle contest challenge {challenge}"),
    "done": N_("the adventure is over"),
}
_STATUS = {
    "ongoing": N_("under way"),
    "won": N_("accomplished"),
    "failed": N_("failed"),
    "abandoned": N_("given up"),
}
"""A quest's status, as ``tablee agents show`` words it."""


def _next_text(game: Any, tr: Translate) -> str:
    step = agents.next_step(game)
    return tr(_STEPS[step.kind.value]).format(agent=step.agent or "", challenge=step.challenge)


def resource_panels(state: TableState, viewer: Viewer, tr: Translate) -> Sequence[Panel]:
    """The quest and the next step, each open challenge, then each agent's reserves."""
    game = state.game
    quest = agents.quest_json(game)
    rows = [(tr(N_("Next step")), _next_text(game, tr))]
    if quest is not None:
        objective = quest["objective"] or tr(N_("secret until the index reaches 1"))
        rows += [
            (tr(N_("Progress index")), str(quest["progress"])),
            (tr(N_("Quest")), tr(_STATUS.get(str(quest["status"]), str(quest["status"])))),
            (tr(N_("Scene")), str(quest["scene"])),
            (tr(N_("Objective")), str(objective)),
        ]
        contest = quest["contest"]
        if contest is not None:
            rows.append((tr(N_("Artefact held by")), str(contest["holder"])))
    panels = [Panel(tr(N_("Adventure")), rows)]
    open_now = list(agents.open_challenges(game))
    for challenge in open_now:
        doc = agents.challenge_json(challenge)
        c_rows = [(str(o["name"]), f"{o['score']}/{o['start']}") for o in doc["oppositions"]]
        c_rows += [
            (str(a["name"]), f"{tr(_standing(a['standing']))}, {a['spent']}") for a in doc["agents"]
        ]
        if doc["next"]:
            c_rows.append((tr(N_("Next to act")), str(doc["next"])))
        title = tr(N_("Challenge {number} ({kind})")).format(
            number=doc["number"], kind=challenge.kind.title
        )
        panels.append(Panel(title, c_rows))
    kinds = dict.fromkeys(challenge.kind for challenge in open_now)
    panels += [checklist_panel(kind, tr) for kind in kinds]
    for name in game.agents:
        doc = agents.agent_json(game, name)
        a_rows = [(tr(N_("Played by")), str(doc["owner"] or tr(N_("the game master"))))]
        a_rows += [(r.title, f"{doc[r.value]}/{doc['starting'][r.value]}") for r in agents.Reserve]
        a_rows += [("Sang", str(doc["sang"])), (tr(N_("Challenges won")), str(doc["wins"]))]
        if doc["organisation"]:
            a_rows.append((tr(N_("Organisation")), str(doc["organisation"])))
        panels.append(
            Panel(
                name,
                a_rows,
                boxes=(int(doc["sang"]), max(int(doc["sang"]), agents.STARTING_SANG)),
                muted=int(doc["sang"]) <= 0,
            )
        )
    return panels


def checklist_panel(kind: agents.Reserve, tr: Translate) -> Panel:
    """A challenge type's checklist, as ``tablee agents checklist --type KIND`` shows it.

    Each modifier's words and value (+1 or -1), then the modifiers that cannot be ticked
    together; the title gives the range of the total. Shown while a challenge of that type
    is open, next to the action form's check boxes.

    Source: seed 002; rulings G-N2, G-A6.
    """
    low, high = agents.modifier_range(kind)
    title = tr(N_("Checklist {kind} ({low:+d}..{high:+d})")).format(
        kind=kind.title, low=low, high=high
    )
    labels = {m.id: tr(m.label) for m in agents.CHECKLISTS[kind]}
    rows = [(labels[m.id], f"{m.value:+d}") for m in agents.CHECKLISTS[kind]]
    rows += [
        (" + ".join(labels[i] for i in sorted(g)), tr(N_("not together")))
        for g in agents.EXCLUSIVE[kind]
    ]
    return Panel(title, rows)


def _standing(value: object) -> str:
    return {
        "active": N_("active"),
        "out": N_("out"),
        "conceded": N_("conceded"),
        "abandoned": N_("abandoned"),
    }.get(str(value), str(value))
