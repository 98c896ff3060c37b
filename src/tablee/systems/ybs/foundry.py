"""Actors of the Foundry VTT fan system for YBS (``remedywu/yuigahama``), read as sheets.

Groups who played on Foundry VTT keep their characters there; its "Export Data" writes one
actor as JSON. This module reads such a text (no file: the command line reads it, the web
table receives it pasted) and turns each actor into Tablée's sheet
(`tablee.systems.ybs.character.sheet_from_mapping`), so the import then runs as for any
sheet. The mapping (Y-X7):

* ``type``: ``personnage`` (a player character) or ``pnj`` (a non-player character); the
  player comes from the command, never from Foundry (whose owners are its own user ids);
* ``system.traits.<trait>.value``: the trait, -2 to +2;
* ``system.traits.<trait>.evo``: the stars, as the fan system draws them: a share of the
  trait's picture uncovered, 20 (per cent) per star; 0 to 80 is 0 to 4 stars, and 100 (five
  stars, a level not yet taken) is refused, since Tablée raises the trait at the fifth;
* ``system.life.values``: one number per box, 0 empty, 1 an Uchimi (``/``), 2 a Kega
  (``X``); the number of boxes is Tablée's, 4 + Choushi (Y-A1): a marked box beyond it is
  refused, empty ones beyond it are dropped with a notice (``system.life.max`` is not read);
* ``system.token.value``: the Unmei tokens, which go from the GM's bag to the player;
* ``items`` of type ``attribut``: the attributes, by name; other items (objects) are left
  out with a notice. ``use`` (how often a trait was rolled), the descriptions, pictures and
  Foundry's own fields are not read.

Every field that cannot be read is refused, named by its path in the actor
(``system.traits.choushi.value``).

Source: seed 004; rulings Y-M1, Y-M4, Y-M5, Y-M9, Y-N1, Y-A1, Y-A8, Y-X7; the fan system's
data model (``template.json``, ``module/data/actor/common.js``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from tablee.dice import TraceStep
from tablee.errors import N_, InputError, Message, Plural
from tablee.systems.ybs.character import (
    MAX_STARS,
    MAX_TRAIT,
    MIN_TRAIT,
    Trait,
    sheet_from_mapping,
)

__all__ = ["ACTOR_TYPES", "EVO_PER_STAR", "foundry_actors", "sheet_from_foundry"]

ACTOR_TYPES = ("personnage", "pnj")
"""The fan system's kinds of actor: a player character, a non-player character."""
EVO_PER_STAR = 20
"""How much of a trait's picture one star uncovers, in per cent (five stars: 100)."""
_BOXES = {0: "empty", 1: "uchimi", 2: "kega"}
"""What each number of ``system.life.values`` marks."""


def foundry_actors(text: str) -> list[Mapping[str, Any]] | None:
    """The actors of a JSON text exported from Foundry (one, or a list), else None.

    An actor is an object with a ``system`` field, which Tablée's sheets never have; a text
    that is not JSON, or holds no actor, is left to Tablée's own sheet reader.

    Source: Y-X7.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # the sheet reader then says what is wrong
        return None
    items = data if isinstance(data, list) else [data]
    if any(isinstance(item, Mapping) and "system" in item for item in items):
        return list(items)
    return None


def _refused(where: str | Message, field: str, value: object, expected: str) -> InputError:
    return InputError(
        N_("{where}: the Foundry field {field} holds {value!r}, not {expected} (rule Y-X7)"),
        where=where,
        field=field,
        value=value,
        expected=Message(expected),
    )


def _node(data: object, key: str, path: str, where: str | Message) -> Mapping[str, Any]:
    """The object at ``key`` of ``data``, or an error naming ``path``."""
    value = data.get(key) if isinstance(data, Mapping) else None
    if value is None:
        raise InputError(
            N_("{where}: the Foundry field {field} is missing (rule Y-X7)"), where=where, field=path
        )
    if not isinstance(value, Mapping):
        raise _refused(where, path, value, N_("an object"))
    return value


def _whole(value: object, path: str, where: str | Message, low: int, high: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _refused(where, path, value, N_("a whole number"))
    if value < low or (high is not None and value > high):
        raise _refused(
            where,
            path,
            value,
            N_("a whole number from -2 to +2") if low == MIN_TRAIT else N_("0 or more"),
        )
    return value


def _stars(entry: Mapping[str, Any], path: str, where: str | Message) -> int:
    """The stars of one trait from its ``evo`` (0 to 80, in steps of 20)."""
    evo = entry.get("evo", 0)
    if evo == MAX_STARS * EVO_PER_STAR:
        raise InputError(
            N_(
                "{where}: the Foundry field {field} holds 100, five stars: the trait has a "
                "level to take first (rules Y-M9, Y-X7)"
            ),
            tip=N_("raise the trait and clear its stars in Foundry, or import it with 80"),
            where=where,
            field=path,
        )
    if (
        isinstance(evo, bool)
        or not isinstance(evo, int)
        or not 0 <= evo < MAX_STARS * EVO_PER_STAR
        or evo % EVO_PER_STAR
    ):
        raise _refused(where, path, evo, N_("0 to 80 in steps of 20, one per star"))
    return evo // EVO_PER_STAR


def _traits(
    system: Mapping[str, Any], where: str | Message
) -> tuple[dict[str, int], dict[str, int]]:
    """The six traits and their stars from ``system.traits``."""
    node = _node(system, "traits", "system.traits", where)
    known = {t.value for t in Trait}
    for key in node:
        if key not in known:
            raise InputError(
                N_("{where}: the Foundry field {field} is not one of the six traits (rule Y-M1)"),
                where=where,
                field=f"system.traits.{key}",
            )
    traits: dict[str, int] = {}
    stars: dict[str, int] = {}
    for trait in Trait:
        path = f"system.traits.{trait.value}"
        entry = _node(node, trait.value, path, where)
        traits[trait.value] = _whole(
            entry.get("value"), f"{path}.value", where, MIN_TRAIT, MAX_TRAIT
        )
        stars[trait.value] = _stars(entry, f"{path}.evo", where)
    return traits, stars


def _boxes(
    system: Mapping[str, Any], choushi: int, where: str | Message
) -> tuple[int, int, tuple[TraceStep, ...]]:
    """Uchimi and Kega from ``system.life.values``, on Tablée's ``4 + Choushi`` boxes."""
    life = system.get("life")
    values: object = (
        [] if life is None else _node(system, "life", "system.life", where).get("values", [])
    )
    if not isinstance(values, Sequence) or isinstance(values, str):
        raise _refused(where, "system.life.values", values, N_("a list of boxes"))
    hit_points = 4 + choushi
    marks: list[str] = []
    for index, value in enumerate(values):
        path = f"system.life.values[{index}]"
        if isinstance(value, bool) or not isinstance(value, int) or value not in _BOXES:
            raise _refused(where, path, value, N_("0 (empty), 1 (an Uchimi) or 2 (a Kega)"))
        if value and index >= hit_points:
            raise InputError(
                N_(
                    "{where}: the Foundry field {field} is marked, but Choushi {choushi:+d} "
                    "gives {hp} boxes (rules Y-N1, Y-A1, Y-X7)"
                ),
                tip=N_("clear that box in Foundry, or mark an earlier one instead"),
                where=where,
                field=path,
                choushi=choushi,
                hp=hit_points,
            )
        marks.append(_BOXES[value])
    dropped = len(values) - hit_points
    notes: tuple[TraceStep, ...] = ()
    if dropped > 0:
        notes = (
            TraceStep(
                N_("{boxes} beyond the {hp} hit points of Choushi {choushi:+d}: dropped"),
                {
                    "boxes": Plural("{n} empty box", "{n} empty boxes", dropped),
                    "hp": hit_points,
                    "choushi": choushi,
                },
            ),
        )
    return marks.count("uchimi"), marks.count("kega"), notes


def _items(
    actor: Mapping[str, Any], where: str | Message
) -> tuple[list[str], tuple[TraceStep, ...]]:
    """The attributes (items of type ``attribut``) and a notice naming the other items."""
    items = actor.get("items") or []
    if not isinstance(items, list):
        raise _refused(where, "items", items, N_("a list of items"))
    attributes: list[str] = []
    others: list[str] = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
            raise _refused(where, f"items[{index}]", item, N_("an item with a name"))
        (attributes if item.get("type") == "attribut" else others).append(item["name"])
    notes: tuple[TraceStep, ...] = ()
    if others:
        notes = (
            TraceStep(
                N_("not imported (Tablée keeps no objects): {items}"), {"items": ", ".join(others)}
            ),
        )
    return attributes, notes


def sheet_from_foundry(
    actor: Mapping[str, Any], *, player: str | None, where: str | Message
) -> tuple[dict[str, Any], tuple[TraceStep, ...]]:
    """Tablée's sheet from one Foundry actor, and notices of what was left out.

    Args:
        actor: the actor as Foundry exports it (parsed JSON).
        player: who plays it at this table, or None for a GM character.
        where: where it came from, for messages (``the sheets, character 1``).

    Returns:
        The sheet as `tablee.systems.ybs.character.sheet_from_mapping` returns it (with the
        player as ``owner`` and the ``tokens`` it brings), and the notices: empty boxes
        beyond the hit points, items that are not attributes.

    Raises:
        InputError: a field that cannot be read, named by its path in the actor: an
            unknown ``type``, a trait missing or out of range, stars that are not 0 to 80
            in steps of 20, a box that is not 0, 1 or 2 or is marked beyond the hit points,
            tokens below 0, tokens for a character without a player.

    Source: Y-M1, Y-M4, Y-M5, Y-M9, Y-N1, Y-A1, Y-A8, Y-X7.
    """
    kind = actor.get("type")
    if kind not in ACTOR_TYPES:
        raise _refused(where, "type", kind, N_("personnage or pnj"))
    system = _node(actor, "system", "system", where)
    traits, stars = _traits(system, where)
    uchimi, kega, box_notes = _boxes(system, traits["choushi"], where)
    token = system.get("token")
    tokens = 0
    if token is not None:
        node = _node(system, "token", "system.token", where)
        tokens = _whole(node.get("value", 0), "system.token.value", where, 0, None)
    if tokens and player is None:
        raise InputError(
            N_(
                "{where}: the Foundry field {field} holds {tokens} Unmei tokens, but no "
                "player is named and a GM character holds none (rules Y-A8, Y-X7)"
            ),
            tip=N_("name the player who plays it"),
            cli_tip=N_("name the player with --player"),
            where=where,
            field="system.token.value",
            tokens=tokens,
        )
    attributes, item_notes = _items(actor, where)
    sheet: dict[str, Any] = {
        "name": actor.get("name"),
        "traits": traits,
        "attributes": attributes,
        "stars": stars,
        "uchimi": uchimi,
        "kega": kega,
        "tokens": tokens,
    }
    if player is not None:
        sheet["player"] = player
    return sheet_from_mapping(sheet, where=where), (*box_notes, *item_notes)
