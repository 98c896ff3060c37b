"""Individual fights: the Nintai gate and the damage of one attack (Y-M6).

A round: each combatant declares an attack (on one target), a defence (against one
opponent) or a retreat. An attacker who must pass the Nintai gate (`gate_reasons`) needs a
successful Nintai test first, else may only defend or retreat (Y-A9). Every attacker and
defender makes a Choushi test. `attack_damage` gives the boxes one attack marks: 1 of the
weapon's kind on a success, ``critical_boxes`` (default 2, Y-A11) on a critical success, none
when the target defended against this attacker and succeeded (a critical success only by a
critical success, Y-M6 step 3). A defence cancels only the damage of the opponent it names
(Y-A10). GM characters roll without tokens (Y-A8).

Source: seed 004, "Résolution d'un combat"; rulings Y-M6, Y-A8 to Y-A11.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tablee.errors import N_, InputError
from tablee.systems.ybs.character import Character

__all__ = ["DamageKind", "Declaration", "Defence", "attack_damage", "gate_reasons"]


class Declaration(Enum):
    """What a combatant declares for the round (Y-M6 step 1)."""

    ATTACK = "attack"
    DEFEND = "defend"
    RETREAT = "retreat"


class DamageKind(Enum):
    """The kind of box a weapon marks (Y-A11): fists Uchimi, a knife may give Kega."""

    UCHIMI = "uchimi"
    KEGA = "kega"

    @classmethod
    def named(cls, value: object) -> DamageKind:
        """The kind from ``uchimi`` or ``kega``.

        Raises:
            InputError: another value.
        """
        try:
            return cls(str(value).strip().lower())
        except ValueError:
            raise InputError(
                N_("damage kind {value!r}: uchimi or kega (rule Y-A11)"), value=value
            ) from None


@dataclass(frozen=True)
class Defence:
    """The target's defence against this attacker.

    Attributes:
        success: the defender's Choushi test succeeded.
        critical: it was a critical success.
    """

    success: bool
    critical: bool = False


def gate_reasons(attacker: Character, *, target_armed: bool) -> tuple[str, ...]:
    """Why an attacker must pass a Nintai test first; empty when the gate does not apply.

    Reasons: ``armed_target`` (a lethal or impressive weapon), ``half_boxes`` (marked boxes
    times 2 reach the hit points, "/" and "X" alike), ``kega`` (at least one Kega).

    Source: seed 004, "Résolution d'un combat" step 2; Y-M6, Y-A9.
    """
    reasons = []
    if target_armed:
        reasons.append("armed_target")
    if attacker.marked * 2 >= attacker.hit_points:
        reasons.append("half_boxes")
    if attacker.kega:
        reasons.append("kega")
    return tuple(reasons)


def attack_damage(
    *, success: bool, critical: bool, defence: Defence | None, critical_boxes: int = 2
) -> int:
    """Boxes one attack marks on its target.

    Args:
        success: the attacker's Choushi test succeeded.
        critical: it was a critical success.
        defence: the target's defence against this attacker, or None.
        critical_boxes: boxes of a critical attack (option, Y-A11).

    Returns:
        0 when the attack missed or was cancelled, else 1 (or ``critical_boxes``).

    Source: Y-M6 step 3, Y-A10, Y-A11.
    """
    if not success:
        return 0
    if defence is not None and defence.success and (defence.critical or not critical):
        return 0
    return critical_boxes if critical else 1
