"""YBS resources at a glance in the web table: tokens, fights and each character's boxes.

The session and every holder's Unmei tokens, the gang fight and the individual fight going
on, then one panel per character: traits with their stars, Uchimi and Kega boxes (``/`` per
Uchimi, ``X`` per Kega), their state and attributes.

Source: docs/web.md, "Yuigahama Bad Seeds at the web table"; seed 004; rulings Y-M1, Y-M4 to Y-M7,
Y-A1, Y-A19.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablee.errors import N_
from tablee.systems import ybs
from tablee.table.projection import TableState
from tablee.web.access import Viewer
from tablee.web.systems import (
    Panel,
    Translate,
)
from tablee.web.systems.ybs.gang import gang_rows, throw_hidden
from tablee.web.systems.ybs.helpers import (
    TRAITS,
)

__all__ = ["resource_panels"]


# --- resources -----------------------------------------------------------------------------------


def _marks(doc: dict[str, Any]) -> tuple[str, ...]:
    """A character's boxes: ``/`` per Uchimi, ``X`` per Kega, then empty ones."""
    uchimi, kega, total = int(doc["uchimi"]), int(doc["kega"]), int(doc["hit_points"])
    return ("/",) * uchimi + ("X",) * kega + ("",) * max(total - uchimi - kega, 0)


def _traits_text(doc: dict[str, Any]) -> str:
    return ", ".join(
        f"{title} {int(doc['traits'][t]):+d}" + "★" * int(doc["stars"][t]) for t, title in TRAITS
    )


def resource_panels(state: TableState, viewer: Viewer, tr: Translate) -> Sequence[Panel]:
    """The session and every holder's Unmei tokens, the fights, then each character."""
    game = state.game
    status = tr(N_("in progress") if game.in_session else N_("not in progress"))
    rows = [
        (tr(N_("Session")), str(game.session)),
        (tr(N_("Status")), status),
        (tr(N_("Unmei tokens of the GM")), str(game.ledger.gm)),
    ]
    rows += [(p, str(n)) for p, n in game.ledger.players.items()]
    panels = [Panel(tr(N_("Table")), rows)]
    gang = ybs.gang_json(game)
    if gang is not None:
        hidden = throw_hidden(state, viewer)
        panels.append(Panel(tr(N_("Gang fight")), gang_rows(gang, tr, hidden)))
    fight = game.fight
    if fight.gates or fight.attacks or fight.defences or fight.retreated or fight.round > 1:
        fight_rows = [(tr(N_("Round")), str(fight.round))]
        fight_rows += [(a, "→ " + str(d["target"])) for a, d in fight.attacks.items()]
        fight_rows += [(d, "⛨ " + str(v["against"])) for d, v in fight.defences.items()]
        if fight.retreated:
            fight_rows.append((tr(N_("Retreated")), ", ".join(sorted(fight.retreated))))
        panels.append(Panel(tr(N_("Individual fight")), fight_rows))
    for name in game.characters:
        doc = ybs.character_json(game, name)
        hero_rows = [
            (tr(N_("Played by")), doc["owner"] or tr(N_("the GM"))),
            (tr(N_("Traits")), _traits_text(doc)),
            ("Uchimi / Kega", f"{doc['uchimi']} / {doc['kega']} ({doc['hit_points']})"),
        ]
        if doc["tokens"] is not None:
            hero_rows.insert(1, (tr(N_("Unmei tokens")), str(doc["tokens"])))
        if doc["emergency"]:
            hero_rows.append((tr(N_("State")), tr(N_("life in danger: call for help"))))
        elif doc["prostrate"]:
            hero_rows.append((tr(N_("State")), tr(N_("prostrate"))))
        if doc["attributes"]:
            hero_rows.append((tr(N_("Attributes")), ", ".join(doc["attributes"])))
        label = tr(N_("{uchimi} Uchimi, {kega} Kega, {free} free")).format(
            uchimi=doc["uchimi"],
            kega=doc["kega"],
            free=int(doc["hit_points"]) - int(doc["uchimi"]) - int(doc["kega"]),
        )
        panels.append(
            Panel(
                name,
                hero_rows,
                muted=bool(doc["prostrate"]),
                marks=_marks(doc),
                marks_label=label,
            )
        )
    return panels
