"""Evolution between scenarios: stars, level-ups, transfers and trauma.

* A star goes to a trait used heavily; the fifth raises it one level and the stars start
  again (Y-A20). Stars on a trait at +2 are lost (Y-A20).
* No trait above +2, at most two traits at +2 (Y-M9); a transfer lowers one trait by 1 and
  raises another by 1 under the same limits, never below -2 (Y-A20).
* Trauma: a character with 3 Kega sets a trait related to the wounds to -1, whatever it was
  (0 and +1 alike), a -2 staying -2 (Y-M9, Y-A20, Y-T10). One set of 3 Kega limits one
  trait: a second trauma needs 3 Kega no trauma has counted yet, and a trait under a
  trauma takes no second one (Y-X1).
* A trauma may be temporary: the GM lifts it, and the trait gets back the levels the trauma
  took, on top of what it gained or lost since, never above +2 nor to a third +2; the Kega
  stay counted (Y-X2).
* The fifth star that would make a third trait at +2 is refused and not recorded; the
  stars before it are kept, with a notice that the fifth will be refused (Y-X5).
* Hit points follow Choushi; marks are refitted (`tablee.systems.ybs.damage.refit`).

Source: seed 004, "Et l'évolution, alors ?"; rulings Y-M9, Y-A1, Y-A20, Y-T10, Y-T12, Y-X1,
Y-X2, Y-X5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tablee.errors import N_, InputError, RuleError
from tablee.systems.ybs.character import (
    MAX_STARS,
    MAX_TRAIT,
    MIN_TRAIT,
    Character,
    Trait,
    trait_named,
)
from tablee.systems.ybs.damage import Boxes, refit

__all__ = [
    "MAX_AT_TWO",
    "TRAUMA_KEGA",
    "TRAUMA_LIMIT",
    "StarOutcome",
    "award_star",
    "check_plus_two",
    "held_by_trauma",
    "lift_trauma",
    "plus_two_blockers",
    "set_trait",
    "transfer",
    "trauma",
    "traumatised",
]

MAX_AT_TWO = 2
"""Most traits at +2 (Y-M9)."""
TRAUMA_KEGA = 3
"""Kega that bring trauma (Y-M9)."""

TRAUMA_LIMIT = -1
"""The highest a trait under a trauma may be while the trauma lasts (Y-M9, Y-X8)."""


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
        hero.traumas,
        min(hero.trauma_kega, boxes.kega),
    )


@dataclass(frozen=True)
class StarOutcome:
    """What a star did.

    Attributes:
        hero: the character after it.
        raised: the trait went up one level (the fifth star).
        wasted: the trait was already at +2: the star is lost (Y-A20).
        blocked: the traits at +2 that will stop this trait's fifth star (the star is kept;
            empty when the fifth may raise it, Y-X5).
        limited: a trauma limits the trait at -1, so its fifth star will be refused while the
            trauma lasts (the star is kept, Y-X8).
    """

    hero: Character
    raised: bool
    wasted: bool
    blocked: tuple[Trait, ...] = ()
    limited: bool = False


def _trauma_limit(hero: Character, trait: Trait, what: str) -> RuleError:
    return RuleError(
        what,
        tip=N_("the game master may lift the trauma first"),
        trait=trait.title,
        name=hero.name,
    )


def held_by_trauma(hero: Character, trait: Trait) -> bool:
    """Whether a trauma keeps ``trait`` from rising one level now (it is at -1 or more).

    Source: Y-M9 ("limit to -1"), Y-X8.
    """
    return trait.value in hero.traumas and hero.trait(trait) >= TRAUMA_LIMIT


def plus_two_blockers(hero: Character, trait: Trait) -> tuple[Trait, ...]:
    """The two other traits at +2 that stop ``trait`` from rising to +2, or none.

    Source: Y-M9, Y-X5.
    """
    if hero.trait(trait) != MAX_TRAIT - 1:
        return ()
    others = tuple(t for t in Trait if t is not trait and hero.trait(t) >= MAX_TRAIT)
    return others if len(others) >= MAX_AT_TWO else ()


def award_star(hero: Character, trait: Trait, *, limited: bool = True) -> StarOutcome:
    """Give a trait a star; the fifth raises it one level.

    A star towards a raise that would make a third trait at +2 is kept, and says which
    traits stand in the way (``blocked``); the fifth such star is refused (Y-X5). Likewise a
    star on a trait a trauma holds at -1 is kept, saying so (``limited``), and the fifth is
    refused while the trauma lasts (Y-X8).

    Args:
        hero: the character.
        trait: the trait used heavily.
        limited: a trauma limits its trait at -1 (rules version 2 on; version 1 let the
            fifth star raise it).

    Raises:
        RuleError: the fifth star would make a third trait at +2, or raise a trait a trauma
            holds at -1: it is not recorded (Y-M9, Y-X5, Y-X8).

    Source: Y-M9, Y-A20, Y-T12, Y-X5, Y-X8.
    """
    value = hero.trait(trait)
    if value >= MAX_TRAIT:
        return StarOutcome(hero, raised=False, wasted=True)
    stars = list(hero.stars)
    stars[trait.index] += 1
    blocked = plus_two_blockers(hero, trait)
    held = limited and held_by_trauma(hero, trait)
    if stars[trait.index] < MAX_STARS:
        kept = replace(hero, stars=tuple(stars))
        return StarOutcome(kept, raised=False, wasted=False, blocked=blocked, limited=held)
    if held:
        raise _trauma_limit(
            hero,
            trait,
            N_(
                "a trauma limits {name}'s {trait} to -1: its fifth star cannot raise it while "
                "the trauma lasts, so the star is not recorded (rules Y-M9, Y-X8)"
            ),
        )
    if blocked:
        raise RuleError(
            N_(
                "a fifth star would raise {trait} to +2 beside {others}: at most two traits "
                "may be at +2, so the star is not recorded (rules Y-M9, Y-X5)"
            ),
            tip=N_("lower one of them first with a transfer"),
            trait=trait.title,
            others=", ".join(t.title for t in blocked),
        )
    traits = list(hero.traits)
    traits[trait.index] = value + 1
    check_plus_two(traits)
    stars[trait.index] = 0
    raised = set_trait(replace(hero, stars=tuple(stars)), trait, value + 1)
    return StarOutcome(raised, raised=True, wasted=False)


def transfer(hero: Character, lower: Trait, raise_: Trait, *, limited: bool = True) -> Character:
    """Lower one trait by 1 and raise another by 1.

    Args:
        hero: the character.
        lower, raise_: the traits.
        limited: a trauma limits its trait at -1 (rules version 2 on, Y-X8).

    Raises:
        InputError: the same trait twice.
        RuleError: the lowered trait is at -2, the raised one at +2, or a third +2; with
            ``limited``, the raised one is held at -1 by a trauma (Y-X8).

    Source: Y-M9, Y-A20, Y-X8.
    """
    if lower is raise_:
        raise InputError(N_("a transfer needs two different traits (rule Y-M9)"))
    if limited and held_by_trauma(hero, raise_):
        raise _trauma_limit(
            hero,
            raise_,
            N_(
                "a trauma limits {name}'s {trait} to -1: no transfer raises it while the "
                "trauma lasts (rules Y-M9, Y-X8)"
            ),
        )
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

    The 3 Kega are counted: another trauma needs 3 Kega no trauma has counted yet (healed
    Kega free their count), and a trait under a trauma takes no second one (Y-X1).

    Raises:
        RuleError: fewer than 3 Kega marked, or fewer than 3 not yet counted by a trauma;
            the trait is already under a trauma.

    Source: Y-M9, Y-A20, Y-T10, Y-X1.
    """
    if hero.kega < TRAUMA_KEGA:
        raise RuleError(
            N_("{name} has {kega} Kega: trauma comes with 3 (rule Y-M9)"),
            name=hero.name,
            kega=hero.kega,
        )
    if trait.value in hero.traumas:
        raise RuleError(
            N_("{trait} is already limited by a trauma (rule Y-X1)"),
            tip=N_("the GM may lift it first"),
            trait=trait.title,
        )
    if hero.fresh_kega < TRAUMA_KEGA:
        traits = ", ".join(trait_named(t).title for t in hero.traumas)
        raise RuleError(
            N_(
                "{name}'s {kega} Kega already brought the trauma on {traits}: one set of "
                "3 Kega limits one trait (rule Y-X1)"
            )
            if traits
            else N_(
                "{name}'s {kega} Kega already brought a trauma: one set of 3 Kega limits "
                "one trait (rule Y-X1)"
            ),
            name=hero.name,
            kega=hero.kega,
            traits=traits,
        )
    value = hero.trait(trait)
    limited = set_trait(hero, trait, min(value, -1))
    return traumatised(limited, trait, value - limited.trait(trait))


def traumatised(hero: Character, trait: Trait, taken: int) -> Character:
    """The character with a trauma recorded on ``trait`` (``taken`` levels) and 3 Kega counted.

    The trait itself is already set (`set_trait`); the fold of a stored trauma calls this
    too, with the levels its payload records (Y-X1).

    Source: Y-M9, Y-X1, Y-X2.
    """
    counted = min(min(hero.trauma_kega, hero.kega) + TRAUMA_KEGA, hero.kega)
    traumas = {**hero.traumas, trait.value: max(taken, 0)}
    return replace(hero, traumas=traumas, trauma_kega=counted)


def lift_trauma(hero: Character, trait: Trait) -> Character:
    """The GM lifts a trauma: the trait gets back the levels it took, at most +2.

    The levels come back on top of what the trait gained or lost since the trauma; the Kega
    that brought it stay counted, so they bring no other trauma (Y-X2).

    Raises:
        RuleError: no trauma on that trait; the lift would make a third trait at +2.

    Source: Y-M9 (a trauma may be temporary), Y-X2.
    """
    taken = hero.traumas.get(trait.value)
    if taken is None:
        raise RuleError(
            N_("{name} has no trauma on {trait} to lift (rule Y-X2)"),
            name=hero.name,
            trait=trait.title,
        )
    value = min(hero.trait(trait) + taken, MAX_TRAIT)
    traits = list(hero.traits)
    traits[trait.index] = value
    check_plus_two(traits)
    kept = {k: v for k, v in hero.traumas.items() if k != trait.value}
    return set_trait(replace(hero, traumas=kept), trait, value)
