"""Evolution between scenarios: stars, level-ups, transfers and trauma.

* A star goes to a trait used heavily; the fifth raises it one level and the stars start
  again (Y-A20). Stars on a trait at +2 are lost (Y-A20).
* No trait above +2, at most two traits at +2 (Y-M9); a transfer lowers one trait by 1 and
  raises another by 1 under the same limits, never below -2 (Y-A20).
* Trauma: a character with 3 Kega sets a trait related to the wounds to -1, whatever it was
  (0 and +1 alike), a -2 staying -2 (Y-M9, Y-A20, Y-T10).
* Hit points follow Choushi; marks are refitted (`tablee.systems.ybs.damage.refit`).

Source: seed 004, "Et l'évolution, alors ?"; rulings Y-M9, Y-A1, Y-A20, Y-T10, Y-T12.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tablee.errors import N_, InputError, RuleError
from tablee.systems.ybs.character import MAX_STARS, MAX_TRAIT, MIN_TRAIT, Character, Trait
from tablee.systems.ybs.damage import Boxes, refit

__all__ = [
    "MAX_AT_TWO",
    "TRAUMA_KEGA",
    "StarOutcome",
    "award_star",
    "check_plus_two",
    "set_trait",
    "transfer",
    "trauma",
]

MAX_AT_TWO = 2
"""Most traits at +2 (Y-M9)."""
TRAUMA_KEGA = 3
"""Kega that bring trauma (Y-M9)."""


def check_plus_two(traits: Sequence[int], *, trait: Trait | None = None) -> None:
    """Refuse a third trait at +2.

    Raises:
        RuleError: more than two traits at +2, naming them.

    Source: Y-M9, Y-A20.
    """
    at_two = [t.title for t, v in zip(Trait, traits, strict=True) if v >= MAX_TRAIT]
    if len(at_two) > MAX_AT_TWO:
        raise RuleError(
            N_("at most two traits may be at +2, not {traits} (rule Y-M9)"),
            tip=N_("lower one first with a transfer"),
            traits=", ".join(at_two),
        )


def set_trait(hero: Character, trait: Trait, value: int) -> Character:
    """The character with a trait changed, its boxes refitted when Choushi changes.

    Source: Y-A1, Y-A20.
    """
    traits = list(hero.traits)
    traits[trait.index] = value
    if trait is not Trait.CHOUSHI:
        return replace(hero, traits=tuple(traits))
    boxes = refit(Boxes(hero.hit_points, hero.uchimi, hero.kega, hero.emergency), 4 + value)
    # Choushi and the marks change together, so the character is never checked half-done
    return Character(
        hero.name,
        tuple(traits),
        hero.attributes,
        hero.stars,
        boxes.uchimi,
        boxes.kega,
        boxes.emergency,
        hero.kega_notes,
    )


@dataclass(frozen=True)
class StarOutcome:
    """What a star did.

    Attributes:
        hero: the character after it.
        raised: the trait went up one level (the fifth star).
        wasted: the trait was already at +2: the star is lost (Y-A20).
    """

    hero: Character
    raised: bool
    wasted: bool


def award_star(hero: Character, trait: Trait) -> StarOutcome:
    """Give a trait a star; the fifth raises it one level.

    Raises:
        RuleError: the fifth star would make a third trait at +2 (Y-M9).

    Source: Y-M9, Y-A20, Y-T12.
    """
    value = hero.trait(trait)
    if value >= MAX_TRAIT:
        return StarOutcome(hero, raised=False, wasted=True)
    stars = list(hero.stars)
    stars[trait.index] += 1
    if stars[trait.index] < MAX_STARS:
        return StarOutcome(replace(hero, stars=tuple(stars)), raised=False, wasted=False)
    traits = list(hero.traits)
    traits[trait.index] = value + 1
    check_plus_two(traits)
    stars[trait.index] = 0
    raised = set_trait(replace(hero, stars=tuple(stars)), trait, value + 1)
    return StarOutcome(raised, raised=True, wasted=False)


def transfer(hero: Character, lower: Trait, raise_: Trait) -> Character:
    """Lower one trait by 1 and raise another by 1.

    Raises:
        InputError: the same trait twice.
        RuleError: the lowered trait is at -2, the raised one at +2, or a third +2.

    Source: Y-M9, Y-A20.
    """
    if lower is raise_:
        raise InputError(N_("a transfer needs two different traits (rule Y-M9)"))
    if hero.trait(lower) <= MIN_TRAIT:
        raise RuleError(
            N_("{trait} is at -2 and cannot be lowered (rule Y-A20)"), trait=lower.title
        )
    if hero.trait(raise_) >= MAX_TRAIT:
        raise RuleError(N_("{trait} is at +2 and cannot be raised (rule Y-M9)"), trait=raise_.title)
    traits = list(hero.traits)
    traits[lower.index] -= 1
    traits[raise_.index] += 1
    check_plus_two(traits)
    hero = set_trait(hero, lower, hero.trait(lower) - 1)
    return set_trait(hero, raise_, hero.trait(raise_) + 1)


def trauma(hero: Character, trait: Trait) -> Character:
    """Set a trait related to the wounds to -1 after 3 Kega (a -2 stays -2).

    Raises:
        RuleError: fewer than 3 Kega marked.

    Source: Y-M9, Y-A20, Y-T10.
    """
    if hero.kega < TRAUMA_KEGA:
        raise RuleError(
            N_("{name} has {kega} Kega: trauma comes with 3 (rule Y-M9)"),
            name=hero.name,
            kega=hero.kega,
        )
    return set_trait(hero, trait, min(hero.trait(trait), -1))
