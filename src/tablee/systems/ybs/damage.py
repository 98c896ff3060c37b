"""Hit point boxes: Uchimi and Kega, overflow, prostration, emergency, rest.

Boxes are interchangeable, so a character's boxes are two counts (Y-A19):

* a new Uchimi fills a free box, else turns one "/" into "X";
* a new Kega fills a free box, else turns one "/" into "X";
* once every box is "X", any further damage sets the emergency state (life in danger).

Every box marked: the character is prostrate (Y-M5). Rest removes Uchimi, the most recent
first, 30 minutes each (Y-N6); Kega never heal by rest (hospital care, Y-A22).

Source: seed 004, "Points de vie et dégâts"; rulings Y-M5, Y-N6, Y-A19, Y-A22, Y-T2.
"""

from __future__ import annotations

from dataclasses import dataclass

from tablee.errors import N_, InputError, Message
from tablee.systems.common import whole

__all__ = [
    "MAX_DAMAGE",
    "MINUTES_PER_UCHIMI",
    "Boxes",
    "heal_kega",
    "refit",
    "rest",
    "rest_minutes",
    "take_damage",
]

MINUTES_PER_UCHIMI = 30
"""Minutes of rest that heal one Uchimi (Y-N6)."""
MAX_DAMAGE = 100
"""Most boxes of damage in one blow (Tablée's bound against typing mistakes)."""


@dataclass(frozen=True)
class Boxes:
    """A character's hit point boxes.

    Attributes:
        hp: boxes in all (2 to 6).
        uchimi: boxes marked "/".
        kega: boxes marked "X"; ``uchimi + kega <= hp``.
        emergency: damage went on once every box was "X".
    """

    hp: int
    uchimi: int = 0
    kega: int = 0
    emergency: bool = False

    @property
    def free(self) -> int:
        """Boxes not marked."""
        return self.hp - self.uchimi - self.kega

    @property
    def prostrate(self) -> bool:
        """Every box marked (Y-M5)."""
        return self.free == 0


def _count(value: object, what: str, low: int = 0) -> int:
    return whole(value, Message(what), low, MAX_DAMAGE, rule="Y-M5")


def _one(boxes: Boxes, kega: bool) -> Boxes:
    if boxes.free:
        if kega:
            return Boxes(boxes.hp, boxes.uchimi, boxes.kega + 1, boxes.emergency)
        return Boxes(boxes.hp, boxes.uchimi + 1, boxes.kega, boxes.emergency)
    if boxes.uchimi:
        return Boxes(boxes.hp, boxes.uchimi - 1, boxes.kega + 1, boxes.emergency)
    return Boxes(boxes.hp, boxes.uchimi, boxes.kega, True)


def take_damage(boxes: Boxes, *, uchimi: int = 0, kega: int = 0) -> Boxes:
    """The boxes after some Uchimi then some Kega, with overflow.

    Args:
        boxes: before.
        uchimi: light blows, 0..`MAX_DAMAGE`.
        kega: wounds, 0..`MAX_DAMAGE`.

    Raises:
        InputError: a count out of range.

    Source: Y-M5, Y-A19, Y-T8, Y-T9.
    """
    for _ in range(_count(uchimi, "Uchimi")):
        boxes = _one(boxes, kega=False)
    for _ in range(_count(kega, "Kega")):
        boxes = _one(boxes, kega=True)
    return boxes


def rest_minutes(uchimi: int) -> int:
    """Minutes of rest to heal ``uchimi`` Uchimi: 30 each (Y-N6, Y-T2)."""
    return MINUTES_PER_UCHIMI * uchimi


def rest(boxes: Boxes, minutes: int) -> tuple[Boxes, int]:
    """The boxes after resting, and the Uchimi healed.

    Each full 30 minutes heal one Uchimi, the most recent first; a part of 30 minutes heals
    nothing (Tablée's reading: the text counts whole half-hours). Kega stay; the emergency
    state ends when a box is no longer "X".

    Raises:
        InputError: minutes not 0..10 000.

    Source: Y-M5, Y-N6, Y-T2.
    """
    whole(minutes, Message(N_("minutes of rest")), 0, 10_000, rule="Y-N6")
    healed = min(boxes.uchimi, minutes // MINUTES_PER_UCHIMI)
    return Boxes(boxes.hp, boxes.uchimi - healed, boxes.kega, boxes.emergency), healed


def heal_kega(boxes: Boxes, count: int = 1) -> Boxes:
    """The boxes once some Kega are healed (by care, narrated; Y-A22).

    Raises:
        InputError: a count below 1 or above the Kega marked.

    Source: Y-M5, Y-A22.
    """
    _count(count, N_("Kega to heal"), 1)
    if count > boxes.kega:
        raise InputError(
            N_("{count} Kega to heal but only {kega} marked (rule Y-A22)"),
            count=count,
            kega=boxes.kega,
        )
    left = boxes.kega - count
    return Boxes(boxes.hp, boxes.uchimi, left, boxes.emergency and left == boxes.hp)


def refit(boxes: Boxes, hp: int) -> Boxes:
    """The marks carried over to a new number of boxes (Choushi changed).

    Empty boxes go first; the marks are then placed again as damage is (the Uchimi first, then
    the Kega, which turn a "/" into "X" when no box is free), so a Kega is never lost and the
    life is in danger only when the Kega alone outnumber the boxes (Y-A1, Y-A20).

    Source: Y-A1, Y-A19, Y-A20.
    """
    fresh = Boxes(hp, 0, 0, boxes.emergency)
    return take_damage(fresh, kega=boxes.kega, uchimi=boxes.uchimi)
