"""How a recorded YBS event changes a table's state, without deciding anything again.

`apply` folds one stored event from what it recorded: the token moves, the boxes after
damage, a test's result, a gang-fight throw's hands and damage. A table's log therefore opens
the same under any later release, whatever its rules then say; checking the rules again is
the verifier's work (`tablee.systems.plugin.Game.verify`).

One kind is applied with the help of a rule: a version-1 ``ybs.star_awarded`` that raised
Choushi did not record the character's boxes, which are then refitted to the new hit points
by the rule of Tablée 0.1.0 (`tablee.systems.ybs.evolution.set_trait`, Y-A1, Y-A20). A
trauma's levels are read from its payload (``from`` minus ``value``) and it counts 3 of the
character's Kega (Y-X1); a lifted one is removed (Y-X2).

Every event but a test's follow-ups closes the test in progress (its follow-ups must come
right after it).

Source: seed 004; rulings Y-M1 to Y-M9, Y-A1, Y-A19, Y-A20, Y-X1, Y-X2.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tablee.errors import N_, InputError, RuleError
from tablee.systems.base import JSON
from tablee.systems.event import Event
from tablee.systems.ybs.brawl_events import (
    Encountered,
    FightEnded,
    GangSideThrown,
    GangStarted,
    GangStopped,
    GangThrown,
    Retreated,
    RoundResolved,
)
from tablee.systems.ybs.brawls import GangTable
from tablee.systems.ybs.character import Character, Trait, trait_named
from tablee.systems.ybs.events import (
    AttributeInvoked,
    AttributesChanged,
    CharacterCreated,
    CriticalFailed,
    CriticalSucceeded,
    Damaged,
    KegaHealed,
    OptionsSet,
    Rerolled,
    Rested,
    SessionEnded,
    SessionStarted,
    ShichiFukujinCalled,
    StarAwarded,
    Tested,
    TraitsTransferred,
    TraumaLifted,
    TraumaSet,
)
from tablee.systems.ybs.evolution import set_trait, traumatised
from tablee.systems.ybs.gang import GangFight, GangOptions
from tablee.systems.ybs.options import YbsOptions
from tablee.systems.ybs.play import fight_after
from tablee.systems.ybs.state import FightRound, GangHalf, OpenTest, YbsState, settled

__all__ = ["apply"]

Doc = Mapping[str, JSON]


def _hero(state: YbsState, name: str) -> Character:
    hero = state.characters.get(name)
    if hero is None:
        raise RuleError(N_("no character named {name!r} at this table"), name=name)
    return hero


def _with(state: YbsState, *heroes: Character) -> YbsState:
    return replace(state, characters={**state.characters, **{h.name: h for h in heroes}})


def _boxed(hero: Character, boxes: Doc, notes: tuple[str, ...] = ()) -> Character:
    """The character with the recorded boxes and Kega notes added.

    Healed Kega are no longer counted by a trauma (Y-X1).
    """
    kega = int(boxes["kega"])
    return replace(
        hero,
        uchimi=int(boxes["uchimi"]),
        kega=kega,
        emergency=bool(boxes["emergency"]),
        kega_notes=(*hero.kega_notes, *notes),
        trauma_kega=min(hero.trauma_kega, kega),
    )


def _retrait(state: YbsState, name: str, values: Doc, boxes: Doc) -> YbsState:
    """The character with recorded traits and boxes, set together (they fit only together)."""
    hero = _hero(state, name)
    traits = tuple(int(values[t.value]) for t in Trait)
    kega = int(boxes["kega"])
    changed = Character(
        hero.name,
        traits,
        hero.attributes,
        hero.stars,
        int(boxes["uchimi"]),
        kega,
        bool(boxes["emergency"]),
        hero.kega_notes,
        hero.traumas,
        min(hero.trauma_kega, kega),
    )
    return _with(state, changed)


def _created(state: YbsState, event: CharacterCreated) -> YbsState:
    state = replace(state, ledger=state.ledger.apply(event.moves))
    hero = Character(
        event.name,
        tuple(int(event.traits[t.value]) for t in Trait),
        event.attributes,
        tuple(int(event.stars[t.value]) for t in Trait),
        event.uchimi,
        event.kega,
    )
    after = _with(state, hero)
    if event.owner is not None:
        after = replace(after, owners={**state.owners, event.name: event.owner})
    return after


def _star(state: YbsState, event: StarAwarded) -> YbsState:
    hero = _hero(state, event.character)
    trait = trait_named(event.trait)
    stars = list(hero.stars)
    stars[trait.index] = event.stars
    hero = replace(hero, stars=tuple(stars))
    if hero.trait(trait) == event.value:
        return _with(state, hero)
    if event.boxes is None:  # version 1: refitted by the rule that decided it
        return _with(state, set_trait(hero, trait, event.value))
    values = {t.value: hero.trait(t) for t in Trait} | {trait.value: event.value}
    return _retrait(_with(state, hero), hero.name, values, event.boxes)


def _trauma(state: YbsState, event: TraumaSet | TraumaLifted) -> YbsState:
    """A trauma set (its levels and 3 Kega counted, Y-X1) or lifted (Y-X2), as recorded."""
    hero = _hero(state, event.character)
    values = {t.value: hero.trait(t) for t in Trait} | {event.trait: event.value}
    after = _retrait(state, event.character, values, event.boxes)
    changed = after.characters[hero.name]
    trait = trait_named(event.trait)
    if isinstance(event, TraumaSet):
        return _with(after, traumatised(changed, trait, event.from_ - event.value))
    kept = {k: v for k, v in changed.traumas.items() if k != trait.value}
    return _with(after, replace(changed, traumas=kept))


def _attributes(state: YbsState, event: AttributesChanged) -> YbsState:
    hero = _hero(state, event.character)
    kept = list(hero.attributes)
    for item in event.remove:
        match = next((a for a in kept if a.casefold() == item.casefold()), None)
        if match is not None:
            kept.remove(match)
    return _with(state, replace(hero, attributes=(*kept, *event.add)))


def _test(state: YbsState, event: Tested) -> YbsState:
    ledger = state.ledger.apply(event.moves)
    tokens = 0 if event.player is None else ledger.players[event.player]
    payload = {k: v for k, v in event.payload().items() if k != "odds"}  # shown, not played
    return replace(
        state,
        ledger=ledger,
        test=OpenTest(payload, tokens),
        fight=fight_after(state, payload),
    )


def _follow_up(state: YbsState, event: Rerolled | CriticalSucceeded | CriticalFailed) -> YbsState:
    opened = state.test
    if opened is None:
        raise RuleError(N_("{kind} has no test in progress before it (rule Y-M3)"), kind=event.kind)
    faces = [int(f) for f in opened.payload["faces"]]
    if isinstance(event, Rerolled):
        faces.append(event.face)
    updated: dict[str, JSON] = {
        **opened.payload,
        "faces": faces,
        "natural": event.natural,
        "modified": event.modified,
        "success": event.success,
        "critical_success": event.critical_success,
        "critical_failure": event.critical_failure,
        "rerolls": event.rerolls,
    }
    return replace(
        state,
        ledger=state.ledger.apply(event.moves),
        test=OpenTest(updated, opened.tokens),
        fight=fight_after(state, updated),
    )


def _round(state: YbsState, event: RoundResolved) -> YbsState:
    hit = [_boxed(_hero(state, name), boxes) for name, boxes in event.boxes.items()]
    fight = FightRound(retreated=state.fight.retreated, round=state.fight.round + 1)
    return replace(_with(state, *hit), fight=fight)


def _damaged(state: YbsState, damage: tuple[Doc, ...]) -> YbsState:
    hurt = [_boxed(_hero(state, str(d["character"])), d["boxes"]) for d in damage]
    return _with(state, *hurt)


def gang_of(state: YbsState, start: Doc) -> GangTable:
    """The gang fight a ``ybs.gang_started`` payload (or an encounter's ``gang``) starts."""
    options = GangOptions(
        state.options.higher_straight_wins,
        state.options.mixed_disadvantages,
        int(start["winner_uchimi"]),
        int(start["loser_uchimi"]),
        int(start["draw_uchimi"]),
    )
    fight = GangFight(int(start["players_dice"]), int(start["gm_dice"]), options)
    return GangTable(fight, tuple(start["fighters"]), tuple(start["opponents"]))


def _thrown(state: YbsState, event: GangThrown) -> YbsState:
    gang = state.gang
    if not isinstance(gang, GangTable):
        raise RuleError(N_("no gang fight is going on (rule Y-M7)"))
    if event.ends:
        return replace(_damaged(state, event.damage), gang=None)
    fight = replace(gang.fight, throws=event.throw, players_hand=event.hand, gm_hand=event.gm_hand)
    return replace(state, gang=replace(gang, fight=fight, pending=None))


def _side_thrown(state: YbsState, event: GangSideThrown) -> YbsState:
    gang = state.gang
    if not isinstance(gang, GangTable):
        raise RuleError(N_("no gang fight is going on (rule Y-M7)"))
    half = GangHalf(event.side, tuple(event.keep), tuple(event.faces))
    return replace(state, gang=replace(gang, pending=half))


def _encountered(state: YbsState, event: Encountered) -> YbsState:
    if event.outcome == "gang_fight" and event.gang is not None:
        return replace(state, gang=gang_of(state, event.gang))
    if event.outcome == "ichika_bachika":
        return _damaged(state, event.damage)
    return state


def _moved(state: YbsState, event: Any, **changes: Any) -> YbsState:
    return replace(state, ledger=state.ledger.apply(event.moves), **changes)


def apply(state: YbsState, event: Event) -> YbsState:
    """The state after one event, from its recorded outcome (pure, never decides).

    Args:
        state: the state before.
        event: a YBS event (`tablee.systems.ybs.events`).

    Returns:
        The state after it.

    Raises:
        InputError: an event of another game.
        RuleError: an event that cannot follow this state (an unknown character, a
            follow-up with no test before it, a token its giver does not hold).

    Source: seed 004; Y-M1 to Y-M9.
    """
    if isinstance(event, Rerolled | CriticalSucceeded | CriticalFailed):
        return _follow_up(state, event)
    state = settled(state)
    match event:
        case CharacterCreated():
            return _created(state, event)
        case SessionStarted():
            return _moved(state, event, session=event.session, in_session=True)
        case SessionEnded():
            return _moved(state, event, in_session=False)
        case AttributeInvoked() | ShichiFukujinCalled():
            return _moved(state, event)
        case OptionsSet():
            options = YbsOptions.from_json(event.options)
            return replace(
                state, options=options, ledger=state.ledger.with_supply(options.token_supply)
            )
        case Damaged():
            hero = _hero(state, event.character)
            notes = (event.note,) if event.note and event.kega else ()
            return _with(state, _boxed(hero, event.boxes, notes))
        case Rested() | KegaHealed():
            return _with(state, _boxed(_hero(state, event.character), event.boxes))
        case StarAwarded():
            return _star(state, event)
        case TraitsTransferred():
            return _retrait(state, event.character, event.traits, event.boxes)
        case TraumaSet() | TraumaLifted():
            return _trauma(state, event)
        case AttributesChanged():
            return _attributes(state, event)
        case Tested():
            return _test(state, event)
        case RoundResolved():
            return _round(state, event)
        case Retreated():
            fight = replace(state.fight, retreated=state.fight.retreated | {event.character})
            return replace(state, fight=fight)
        case FightEnded():
            return replace(state, fight=FightRound())
        case GangStarted():
            return replace(state, gang=gang_of(state, event.payload()))
        case GangThrown():
            return _thrown(state, event)
        case GangSideThrown():
            return _side_thrown(state, event)
        case GangStopped():
            return replace(state, gang=None)
        case Encountered():
            return _encountered(state, event)
    raise InputError(N_("{kind} is not a Yuigahama Bad Seeds event"), kind=event.kind)
