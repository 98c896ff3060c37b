"""YBS decisions that change a character's sheet: damage, rest, care and evolution.

Uchimi and Kega marked with overflow, rest and Kega healed by care, then evolution: a star
for a trait, lowering one trait to raise another, a trauma, and attributes gained or lost.
Each returns a `Decision`.

Event kinds of this module: ``ybs.damage``, ``ybs.rest``, ``ybs.kega_healed``,
``ybs.star_awarded`` (version 2), ``ybs.traits_transferred``, ``ybs.trauma``,
``ybs.trauma_lifted``, ``ybs.attributes_changed``.

Source: seed 004; rulings Y-M5, Y-M9, Y-A19, Y-A20, Y-A22, Y-X1, Y-X2, Y-X5.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from tablee.dice import TraceStep
from tablee.errors import N_, InputError, NotFoundError
from tablee.systems.base import JSON, clean_name
from tablee.systems.ybs.character import (
    Character,
    Trait,
    create_character,
    trait_named,
)
from tablee.systems.ybs.damage import heal_kega, rest, take_damage
from tablee.systems.ybs.evolution import award_star, lift_trauma, transfer, trauma
from tablee.systems.ybs.state import (
    Decision,
    YbsState,
    box_json,
    boxes_of,
    character_named,
    decision_of,
    free_text,
    settled,
    with_boxes,
    with_hero,
)

__all__ = [
    "decide_attributes",
    "decide_damage",
    "decide_heal_kega",
    "decide_lift_trauma",
    "decide_rest",
    "decide_star",
    "decide_transfer",
    "decide_trauma",
]


def decide_damage(
    state: YbsState, *, character: str, uchimi: int = 0, kega: int = 0, note: str = ""
) -> Decision:
    """Mark damage on a character, with overflow (Y-A19).

    Raises:
        InputError: a count out of range, or no damage at all.
        NotFoundError: an unknown character.

    Source: Y-M5, Y-A19, Y-A22.
    """
    state = settled(state)
    name = character_named(state, character)
    if uchimi == 0 and kega == 0:
        raise InputError(N_("no damage given: name some Uchimi or Kega (rule Y-M5)"))
    hero = state.characters[name]
    text = free_text(note)
    boxes = take_damage(boxes_of(hero), uchimi=uchimi, kega=kega)
    after = with_boxes(hero, boxes, [text] if text and kega else [])
    payload: dict[str, JSON] = {
        "character": name,
        "uchimi": uchimi,
        "kega": kega,
        "note": text,
        "boxes": box_json(after),
    }
    return decision_of(state, "ybs.damage", payload, with_hero(state, after), after)


def decide_rest(state: YbsState, *, character: str, minutes: int) -> Decision:
    """A character rests: each full 30 minutes heal the last Uchimi (Y-N6).

    Raises:
        InputError: minutes out of range.
        NotFoundError: an unknown character.

    Source: Y-M5, Y-N6, Y-T2.
    """
    state = settled(state)
    name = character_named(state, character)
    hero = state.characters[name]
    boxes, healed = rest(boxes_of(hero), minutes)
    after = with_boxes(hero, boxes)
    payload: dict[str, JSON] = {
        "character": name,
        "minutes": minutes,
        "healed": healed,
        "boxes": box_json(after),
    }
    return decision_of(state, "ybs.rest", payload, with_hero(state, after), after)


def decide_heal_kega(
    state: YbsState, *, character: str, count: int = 1, note: str = ""
) -> Decision:
    """Some Kega healed by care, as the GM narrates (Y-A22).

    Raises:
        InputError: more Kega than marked.
        NotFoundError: an unknown character.

    Source: Y-M5, Y-A22.
    """
    state = settled(state)
    name = character_named(state, character)
    hero = state.characters[name]
    after = with_boxes(hero, heal_kega(boxes_of(hero), count))
    payload: dict[str, JSON] = {
        "character": name,
        "count": count,
        "note": free_text(note),
        "boxes": box_json(after),
    }
    return decision_of(state, "ybs.kega_healed", payload, with_hero(state, after), after)


def decide_star(state: YbsState, *, character: str, trait: str, limited: bool = True) -> Decision:
    """A star for a trait used heavily; the fifth raises it (Y-M9, Y-A20).

    A star kept towards a raise that two traits at +2 will stop says so (a notice, Y-X5), as
    does one on a trait a trauma holds at -1 (``limited``: rules version 2 on, Y-X8).

    Raises:
        NotFoundError: an unknown character.
        InputError: an unknown trait.
        RuleError: the raise would make a third trait at +2, or raise a trait a trauma holds
            at -1 (the star is not recorded).

    Source: Y-M9, Y-A20, Y-T12, Y-X5, Y-X8.
    """
    state = settled(state)
    name = character_named(state, character)
    chosen = trait_named(trait)
    outcome = award_star(state.characters[name], chosen, limited=limited)
    hero = outcome.hero
    payload: dict[str, JSON] = {
        "character": name,
        "trait": chosen.value,
        "raised": outcome.raised,
        "wasted": outcome.wasted,
        "value": hero.trait(chosen),
        "stars": hero.star_count(chosen),
    }
    warnings: tuple[TraceStep, ...] = ()
    if outcome.wasted:
        warnings = (
            TraceStep(N_("{trait} is already at +2: the star is lost"), {"trait": chosen.title}),
        )
    elif outcome.limited:
        warnings = (
            TraceStep(
                N_(
                    "a trauma limits {trait} to -1: its fifth star will be refused while the "
                    "trauma lasts"
                ),
                {"trait": chosen.title},
            ),
        )
    elif outcome.blocked:
        warnings = (
            TraceStep(
                N_(
                    "{trait} cannot rise to +2 while {others} are at +2: its fifth star will "
                    "be refused unless one of them is lowered first"
                ),
                {"trait": chosen.title, "others": ", ".join(t.title for t in outcome.blocked)},
            ),
        )
    return decision_of(
        state, "ybs.star_awarded", payload, with_hero(state, hero), outcome, warnings
    )


def decide_transfer(
    state: YbsState, *, character: str, lower: str, raise_: str, limited: bool = True
) -> Decision:
    """Lower one trait by 1 and raise another by 1 (Y-M9, Y-A20).

    Raises:
        NotFoundError, InputError: an unknown character or trait; the same trait twice.
        RuleError: below -2, above +2, or a third trait at +2; with ``limited`` (rules
            version 2 on), raising a trait a trauma holds at -1 (Y-X8).

    Source: Y-M9, Y-A20, Y-X8.
    """
    state = settled(state)
    name = character_named(state, character)
    low, high = trait_named(lower), trait_named(raise_)
    hero = transfer(state.characters[name], low, high, limited=limited)
    payload: dict[str, JSON] = {
        "character": name,
        "lower": low.value,
        "raise": high.value,
        "traits": {t.value: hero.trait(t) for t in Trait},
        "boxes": box_json(hero),
    }
    return decision_of(state, "ybs.traits_transferred", payload, with_hero(state, hero), hero)


def decide_trauma(state: YbsState, *, character: str, trait: str, note: str = "") -> Decision:
    """Trauma after 3 Kega: a trait related to the wounds becomes -1 (Y-M9, Y-T10).

    One set of 3 Kega limits one trait (Y-X1).

    Raises:
        NotFoundError, InputError: an unknown character or trait.
        RuleError: fewer than 3 Kega, or fewer than 3 not yet counted by a trauma; a trait
            already under a trauma.

    Source: Y-M9, Y-A20, Y-T10, Y-X1.
    """
    return _trait_changed(state, "ybs.trauma", trauma, character, trait, note)


def decide_lift_trauma(state: YbsState, *, character: str, trait: str, note: str = "") -> Decision:
    """The GM lifts a trauma: the trait gets back the levels it took (Y-X2).

    Raises:
        NotFoundError, InputError: an unknown character or trait.
        RuleError: no trauma on that trait; a third trait at +2.

    Source: Y-M9 (a trauma may be temporary), Y-X2.
    """
    return _trait_changed(state, "ybs.trauma_lifted", lift_trauma, character, trait, note)


def _trait_changed(
    state: YbsState,
    kind: str,
    change: Callable[[Character, Trait], Character],
    character: str,
    trait: str,
    note: str,
) -> Decision:
    """A trait changed by ``change`` (a trauma, its lifting): the trait before and after."""
    state = settled(state)
    name = character_named(state, character)
    chosen = trait_named(trait)
    before = state.characters[name].trait(chosen)
    hero = change(state.characters[name], chosen)
    payload: dict[str, JSON] = {
        "character": name,
        "trait": chosen.value,
        "from": before,
        "value": hero.trait(chosen),
        "note": free_text(note),
        "boxes": box_json(hero),
    }
    return decision_of(state, kind, payload, with_hero(state, hero), hero)


def decide_attributes(
    state: YbsState, *, character: str, add: Iterable[str] = (), remove: Iterable[str] = ()
) -> Decision:
    """Attributes gained or lost after a scenario (Y-M9).

    Raises:
        NotFoundError: an unknown character, or an attribute to remove it does not have.
        InputError: a bad or repeated attribute; nothing to change.

    Source: Y-M2, Y-M9.
    """
    state = settled(state)
    name = character_named(state, character)
    hero = state.characters[name]
    added = [clean_name(a, what=N_("an attribute")) for a in add]
    removed = [clean_name(a, what=N_("an attribute")) for a in remove]
    if not added and not removed:
        raise InputError(N_("no attribute to add or remove"))
    kept = list(hero.attributes)
    for item in removed:
        match = next((a for a in kept if a.casefold() == item.casefold()), None)
        if match is None:
            raise NotFoundError(
                N_("{name} has no attribute {attribute!r}"),
                tip=N_("attributes: {known}"),
                name=name,
                attribute=item,
                known=", ".join(hero.attributes) or "-",
            )
        kept.remove(match)
    changed = create_character(
        name, {t.value: hero.trait(t) for t in Trait}, attributes=kept + added
    )
    after = replace(hero, attributes=changed.attributes)
    payload: dict[str, JSON] = {"character": name, "add": added, "remove": removed}
    return decision_of(state, "ybs.attributes_changed", payload, with_hero(state, after), after)
