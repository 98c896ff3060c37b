"""Pouyss rolls as cards of the log: the d6 thrown, the removed ones, the level, the cagnotte.

A roll's dice are drawn in the order thrown: the highest faces taken away by its malus
dice are ``removed``, the die whose value gives the level ``scores`` (the highest face
left). The result is named by its level, coloured by it (six tones, Triomphe to Désastre),
and the consequence is the cagnotte's move: the dice drawn, the dice put back, each only
when there were some (a roll without bonus or malus dice moves nothing and says nothing).

Source: seed 000, "Résultats", "Bonus et malus" (the worked example: 1, 4, 5, 6 with two
malus dice: the 5 and the 6 removed, the 4 gives a Succès), "Cagnotte", "Jets
comparatifs"; rulings P-M1, P-M2, P-M8, P-A10, P-A11.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction

from tablee.errors import N_, Message
from tablee.systems.base import JSON
from tablee.systems.plugin import Card, DiceGroup, Odds, Shown, Text, recorded_rows
from tablee.systems.pouyss.events import OpposedRolled, Rolled
from tablee.systems.pouyss.levels import Level
from tablee.systems.pouyss.log import cagnotte_moved

__all__ = ["TONE_OF_LEVEL", "card", "marked_dice"]

TONE_OF_LEVEL = {
    Level.TRIOMPHE: "critical",
    Level.VICTOIRE: "great",
    Level.SUCCES: "success",
    Level.REVERS: "setback",
    Level.DEFAITE: "failure",
    Level.DESASTRE: "fumble",
}
"""The tone of each level (`tablee.systems.plugin.TONES`), best first."""


def marked_dice(faces: tuple[int, ...], removed: tuple[int, ...], value: int) -> tuple[Shown, ...]:
    """The d6 of a roll in the order thrown, the removed ones and the one read marked.

    Args:
        faces: every face thrown (1 to 6).
        removed: the faces the malus dice took away (a sub-multiset of ``faces``).
        value: the value read (the highest face left).

    Returns:
        One `Shown` per face: ``removed`` for each face taken away (the later of equal
        faces first, as a reader strikes them), ``scores`` for the first face left equal to
        ``value``, ``""`` for the others.

    Source: seed 000, "Bonus et malus"; P-M1.
    """
    to_remove = Counter(removed)
    marks = [""] * len(faces)
    for index in range(len(faces) - 1, -1, -1):
        if to_remove[faces[index]] > 0:
            to_remove[faces[index]] -= 1
            marks[index] = "removed"
    for index, face in enumerate(faces):
        if marks[index] == "" and face == value:
            marks[index] = "scores"
            break
    return tuple(Shown("d6", face, mark) for face, mark in zip(faces, marks, strict=True))


def _odds(record: Mapping[str, JSON] | None) -> Odds | None:
    """The odds a roll recorded (``{"levels": {value: "p/q"}, "success", "threshold"}``)."""
    if record is None:
        return None
    levels = record.get("levels")
    if not isinstance(levels, dict):
        return None
    rows = recorded_rows(
        [(f"{v} {Level(v).title}", levels[str(v)]) for v in range(6, 0, -1) if str(v) in levels]
    )
    success = record.get("success")
    note = Message(N_("Success ({threshold} or more)"), threshold=record.get("threshold", 4))
    return Odds(rows, Fraction(str(success)) if success is not None else None, note)


def _level(value: int) -> Message:
    return Message("{value} {level}", value=value, level=Level(value).title)


def card(event: Rolled | OpposedRolled) -> Card:
    """The card of an action roll or an opposed roll.

    An opposed roll's result names both sides' levels (the passive side's mirrors the
    active side's, P-A11); its tone is the active side's level.
    """
    dice = marked_dice(event.faces, event.removed, event.value)
    level = Level(event.value)
    if isinstance(event, Rolled):
        group = DiceGroup(event.player, dice)
        result: Text = _level(event.value)
    else:
        group = DiceGroup(event.active, dice)
        result = Message(
            N_("{active}: {level}; {passive}: {passive_level}"),
            active=event.active,
            level=_level(event.value),
            passive=event.passive,
            passive_level=_level(event.passive_value),
        )
    return Card(
        groups=(group,),
        result=result,
        tone=TONE_OF_LEVEL[level],
        odds=_odds(event.odds),
        consequences=cagnotte_moved(event.cagnotte),
    )
