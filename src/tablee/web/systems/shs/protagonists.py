"""SHS Protagonistes and the film's clock in the web table: creation, counters, time.

A new Protagoniste (or several, imported from pasted sheets: `sheets`), its counters (Santé,
Protection, Air, NT) changed or set, death and revival, the clock (the next Tour, a new
Scène, time passing), temporary modifiers and long actions; then the resources at a glance:
the clock and each Protagoniste's counters, thresholds and Expertises.

Source: docs/web.md, "Space Horror Stories at the web table"; seed 003; rulings S-M8, S-M9, S-A9 to
S-A12, S-A15.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablee.errors import N_
from tablee.systems import shs
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.access import Viewer
from tablee.web.systems import (
    Action,
    ActionRequest,
    Field,
    Panel,
    Translate,
)
from tablee.web.systems.shs.reading import (
    BOTH,
    CHARACTERISTICS,
    TRAITS,
    every_protagonist,
    owners,
)
from tablee.web.systems.shs.sheets import SHEETS_MAX, import_sheets

__all__ = ["TABLE_ACTIONS", "resource_panels", "shs_next_tour"]


def _create(req: ActionRequest) -> Applied[Any]:
    owner = req.optional("owner")
    if not req.viewer.is_gm:
        req.acting_as(owner)
    thresholds = {t: shs.parse_threshold(req.text(t), what=t) for t in TRAITS}
    return req.execute(
        lambda s: shs.decide_create(
            s.game,
            name=req.text("name"),
            expertises=req.lines("expertises"),
            protection=req.number("protection"),
            air=req.number("air"),
            owner=owner,
            **thresholds,
        ),
        lambda d: d.facts,
    )


def _counter(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: shs.decide_counter(
            s.game,
            protagonist=req.text("who"),
            counter=req.text("counter"),
            delta=req.optional_number("delta"),
            value=req.optional_number("value"),
        ),
        lambda d: d.facts,
    )


def _life(req: ActionRequest) -> Applied[Any]:
    decide = shs.decide_revive if req.text("step") == "revive" else shs.decide_kill
    return req.execute(
        lambda s: decide(s.game, protagonist=req.text("who"), reason=req.text("reason")),
        lambda d: d.facts,
    )


def _clock(req: ActionRequest) -> Applied[Any]:
    step = req.text("step")
    if step == "tour":
        return req.execute(shs_next_tour, lambda d: d.facts)
    if step == "time":
        text = req.text("duration")
        return req.execute(
            lambda s: shs.decide_advance_time(s.game, duration=text), lambda d: d.facts
        )
    kind = "lente" if step == "lente" else "rythmee"
    return req.execute(lambda s: shs.decide_scene(s.game, kind=kind), lambda d: d.facts)


def shs_next_tour(state: TableState) -> Any:
    """The next Tour of the table's film (a decide function of the table's state)."""
    return shs.decide_next_tour(state.game)


def _modifier(req: ActionRequest) -> Applied[Any]:
    number = req.optional_number("number")
    if number is not None:
        return req.execute(
            lambda s: shs.decide_end_modifier(s.game, number=number), lambda d: d.facts
        )
    tours = req.optional_number("tours")
    duration: shs.Duration | str = (
        shs.Duration(tours=tours) if tours is not None else req.text("time")
    )
    return req.execute(
        lambda s: shs.decide_add_modifier(
            s.game,
            protagonist=req.text("who"),
            kind=req.text("kind", "bonus"),
            amount=req.number("amount"),
            duration=duration,
            label=req.text("label"),
            seq=s.last_seq + 1,  # the modifier's stable number, shown as #seq in the clock
        ),
        lambda d: d.facts,
    )


def _long_action(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: shs.decide_long_action(
            s.game, protagonist=req.text("who"), label=req.text("label"), tours=req.number("tours")
        ),
        lambda d: d.facts,
    )


# --- the forms -----------------------------------------------------------------------------------

TABLE_ACTIONS: tuple[Action, ...] = (
    Action(
        "protagoniste",
        N_("New Protagoniste"),
        (
            Field("name", N_("Name")),
            Field("owner", N_("Played by"), "choice", owners),
            *(Field(t, title, default="6+") for t, title in CHARACTERISTICS),
            Field("expertises", N_("Expertises (one per line)"), "lines"),
            Field("protection", N_("Protection"), "int", default="0"),
            Field("air", N_("Air"), "int", default="0"),
        ),
        _create,
        BOTH,
    ),
    Action(
        "protagoniste_import",
        N_("Import Protagonistes (JSON or TOML)"),
        (
            Field("format", N_("Format"), "choice", (("json", "JSON"), ("toml", "TOML")), "json"),
            Field("sheets", N_("The sheets, pasted"), "lines", max_length=SHEETS_MAX),
        ),
        import_sheets,
    ),
    Action(
        "counter",
        N_("Counters by hand"),
        (
            Field("who", N_("Protagoniste"), "choice", every_protagonist),
            Field(
                "counter",
                N_("Counter"),
                "choice",
                (("sante", "Santé"), ("protection", "Protection"), ("air", "Air"), ("nt", "NT")),
            ),
            Field("delta", N_("Change by (+2, -1)"), "int", default="", minimum=None),
            Field("value", N_("Or set to"), "int", default=""),
        ),
        _counter,
    ),
    Action(
        "life",
        N_("Death and revival"),
        (
            Field("who", N_("Protagoniste"), "choice", every_protagonist),
            Field(
                "step",
                N_("Decision"),
                "choice",
                (("kill", N_("dies")), ("revive", N_("lives again"))),
            ),
            Field("reason", N_("A note kept in the log")),
        ),
        _life,
    ),
    Action(
        "clock",
        N_("Scène, Tour, game time"),
        (
            Field(
                "step",
                N_("What happens"),
                "choice",
                (
                    ("rythmee", N_("a scène rythmée begins")),
                    ("lente", N_("a scène lente begins")),
                    ("tour", N_("the next Tour")),
                    ("time", N_("game time passes")),
                ),
            ),
            Field("duration", N_("Game time (30 min, 1 h)")),
        ),
        _clock,
    ),
    Action(
        "modifier",
        N_("Temporary Bonus or Malus"),
        (
            Field("who", N_("Protagoniste"), "choice", every_protagonist),
            Field("kind", N_("Kind"), "choice", (("bonus", "Bonus"), ("malus", "Malus"))),
            Field("amount", N_("Amount"), "int", default="1"),
            Field("tours", N_("Lasts Tours"), "int", default=""),
            Field("time", N_("Or lasts a game time (30 min)")),
            Field("label", N_("Why")),
            Field("number", N_("Or end modifier # (its number in the clock)"), "int", default=""),
        ),
        _modifier,
    ),
    Action(
        "long_action",
        N_("Long Action"),
        (
            Field("who", N_("Protagoniste"), "choice", every_protagonist),
            Field("label", N_("What is attempted")),
            Field("tours", N_("Tours"), "int", default="2"),
        ),
        _long_action,
    ),
)
"""The forms of Protagonistes, counters and the clock, in page order."""


# --- resources -----------------------------------------------------------------------------------


def resource_panels(state: TableState, viewer: Viewer, tr: Translate) -> Sequence[Panel]:
    """The clock, then each Protagoniste's counters (Santé as boxes), traits and Expertises.

    As ``tablee shs clock`` and ``tablee shs protagoniste show``: the Scène and its kind, the
    Tour, the game time, each modifier in force (its number, duration and why) and each long
    Action with the Tour it is rolled in; for each Protagoniste its player, Santé, Protection,
    Air, NT, the five Caractéristiques' thresholds and its Expertises.
    """
    clock = shs.clock_json(state.game.clock)
    kinds = {"rythmee": tr(N_("scène rythmée")), "lente": tr(N_("scène lente"))}
    scene = (
        f"{clock['scene']} ({kinds[clock['scene_kind']]})"
        if clock["scene_kind"] in kinds
        else tr(N_("No Scène yet"))
    )
    rows = [
        ("Scène", scene),
        ("Tour", str(clock["tour"])),
        (tr(N_("Game time")), shs.game_time(clock["seconds"])),
    ]
    heroes = state.game.protagonists
    for m in clock["modifiers"]:
        text = _modifier_text(m, tr)
        who = heroes.get(m["protagonist"])
        if who is not None and not who.alive:
            text += " " + tr(N_("(dead: applies to no roll)"))
        rows.append((f"#{m['number']}", text))
    rows += [
        (
            tr(N_("Long Action")),
            tr(N_("{name}: {label}, rolled in Tour {last}")).format(
                name=a["protagonist"], label=a["label"], last=a["last_tour"]
            ),
        )
        for a in clock["long_actions"]
    ]
    panels = [Panel(tr(N_("Clock")), rows)]
    for name in heroes:
        hero = shs.protagonist_json(state.game, name)
        traits = ", ".join(f"{title} {hero[t]}+" for t, title in CHARACTERISTICS)
        rows = [
            (tr(N_("Played by")), hero["owner"] or "Réalisateur"),
            ("Santé", f"{hero['sante']}/{hero['sante_max']}"),
            ("Protection", str(hero["protection"])),
            ("Air", str(hero["air"])),
            ("NT", str(hero["nt"])),
            ("Caractéristiques", traits),
        ]
        if hero["expertises"]:
            rows.append(("Expertises", ", ".join(hero["expertises"])))
        panels.append(
            Panel(
                name,
                rows,
                boxes=(int(hero["sante"]), int(hero["sante_max"])),
                muted=not hero["alive"],
            )
        )
    return panels


def _modifier_text(m: dict[str, Any], tr: Translate) -> str:
    duration = shs.Duration(tours=int(m["tours"]), seconds=int(m["seconds"]))
    kind = "Bonus" if m["kind"] == "bonus" else "Malus"
    text = tr(N_("{name}: {kind} ({duration}) of {amount}")).format(
        name=m["protagonist"], kind=kind, duration=str(duration), amount=m["amount"]
    )
    return text + (f" — {m['label']}" if m["label"] else "")
