"""Gang fights and Ichika Bachika at the table: decisions, stored facts, damage to fighters.

The rules are in `tablee.systems.ybs.gang` (the race to a straight), `.straights`,
`.advisor` and `.ichika`; this module plays them at a table. A gang fight is started with
its fighters (the players' characters) and opponents (the GM's named characters, if any),
then thrown throw by throw, each side keeping some dice; the throw that ends it marks the
default damage (or the GM's amounts) on every fighter, with overflow. An unexpected
encounter reads the players' secret choices: Ichika Bachika throws 5 dice a side once and
hurts the losers (4 Uchimi, the 4th a Kega at 3 hit points), a gang fight starts for those
who chose it, or everyone flees.

Event kinds: ``ybs.gang_started``, ``ybs.gang_throw``, ``ybs.gang_side`` (one side's dice of a
throw, waiting for the other side's), ``ybs.gang_stopped``, ``ybs.encounter``.

A prostrate character fights in none of them: named, it is refused; drawn in by its
player's choice in an encounter, it stays out (Y-X4).

Source: seed 004, "Les combats de bande", "Ichika Bachika"; rulings Y-M7, Y-M8, Y-A12 to
Y-A18, Y-X4.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from tablee.dice import Trace, TraceStep
from tablee.errors import N_, InputError, Plural, RuleError
from tablee.systems.base import JSON, Fact
from tablee.systems.common import whole
from tablee.systems.ybs.damage import Boxes, take_damage
from tablee.systems.ybs.gang import (
    GangOptions,
    Keeps,
    dice_for_throw,
    hand_after,
    resolve_throw,
    start_gang_fight,
)
from tablee.systems.ybs.ichika import IchikaOptions, decide_encounter, resolve_ichika
from tablee.systems.ybs.state import (
    Decision,
    GangHalf,
    GangTable,
    YbsState,
    box_json,
    character_named,
    player_named,
    settled,
    with_boxes,
)
from tablee.systems.ybs.straights import GangSide
from tablee.systems.ybs.unmei import GM

__all__ = [
    "GangTable",
    "HalfOutcome",
    "current_gang",
    "decide_encounter_at_table",
    "decide_gang_side",
    "decide_gang_start",
    "decide_gang_stop",
    "decide_gang_throw",
    "gang_json",
    "side_named",
]


@dataclass(frozen=True)
class HalfOutcome:
    """What one side's dice of a throw show the side that threw them (its trace)."""

    trace: Trace


def side_named(value: object) -> GangSide | None:
    """A side from ``players`` or ``gm`` (None for None or ``none``).

    Raises:
        InputError: another value.
    """
    if value is None or value == "none":
        return None
    try:
        return GangSide(str(value).strip().lower())
    except ValueError:
        raise InputError(
            N_("{value!r} is not a side: players or gm (rule Y-M7)"), value=value
        ) from None


def _characters(state: YbsState, names: Iterable[str], taken: Sequence[str]) -> tuple[str, ...]:
    """The fighters named, each once and none prostrate.

    Raises:
        NotFoundError: an unknown character.
        InputError: a character named twice.
        RuleError: a prostrate character: it cannot fight (Y-M5, Y-X4).
    """
    found: list[str] = []
    for raw in names:
        name = character_named(state, raw)
        if name in found or name in taken:
            raise InputError(N_("{name} is named twice in this fight"), name=name)
        found.append(name)
    for name in found:
        if state.characters[name].prostrate:
            raise RuleError(
                N_(
                    "{name} is prostrate: a character on the ground cannot fight (rules Y-M5, Y-X4)"
                ),
                tip=N_("leave {name} out of the fight"),
                name=name,
            )
    return tuple(found)


def _standing(state: YbsState, names: list[str]) -> tuple[list[str], tuple[TraceStep, ...]]:
    """The characters of an encounter who can fight, and a notice for each one left out.

    A prostrate character drawn into an encounter by their player's choice stays out of it
    (Y-X4).

    Raises:
        RuleError: every one of them is prostrate.
    """
    standing = [n for n in names if not state.characters[n].prostrate]
    if names and not standing:
        raise RuleError(
            N_("{names}: on the ground, nobody on the players' side can fight (rules Y-M5, Y-X4)"),
            names=", ".join(names),
        )
    notices = tuple(
        TraceStep(N_("{name} is prostrate and stays out of the fight"), {"name": n})
        for n in names
        if n not in standing
    )
    return standing, notices


def _hurt(
    state: YbsState, names: Iterable[str], amounts: Mapping[str, tuple[int, int]]
) -> tuple[YbsState, list[JSON]]:
    heroes = dict(state.characters)
    damage: list[JSON] = []
    for name in names:
        uchimi, kega = amounts[name]
        hero = heroes[name]
        boxes = take_damage(
            Boxes(hero.hit_points, hero.uchimi, hero.kega, hero.emergency), uchimi=uchimi, kega=kega
        )
        heroes[name] = with_boxes(hero, boxes)
        damage.append(
            {"character": name, "uchimi": uchimi, "kega": kega, "boxes": box_json(heroes[name])}
        )
    return replace(state, characters=heroes), damage


def _amount(value: object, name: str, default: int) -> int:
    if value is None:
        return default
    return whole(value, name, 0, 20, rule="Y-M7")


def _gang_start(
    state: YbsState,
    fighters: Iterable[str],
    opponents: Iterable[str],
    outnumbered: object,
    outgunned: object,
    damage: Mapping[str, int | None],
) -> tuple[GangTable, dict[str, JSON]]:
    if state.gang is not None:
        raise RuleError(
            N_("a gang fight is already going on (rule Y-M7)"),
            cli_tip=N_("throw it to the end, or stop it with 'tablee ybs gang stop'"),
        )
    ours = _characters(state, fighters, ())
    if not ours:
        raise InputError(N_("a gang fight needs at least one fighter on the players' side"))
    theirs = _characters(state, opponents, ours)
    amounts = {
        "winner_uchimi": _amount(damage.get("winner_uchimi"), "winner_uchimi", 1),
        "loser_uchimi": _amount(damage.get("loser_uchimi"), "loser_uchimi", 3),
        "draw_uchimi": _amount(damage.get("draw_uchimi"), "draw_uchimi", 2),
    }
    options = GangOptions(
        state.options.higher_straight_wins, state.options.mixed_disadvantages, **amounts
    )
    low, guns = side_named(outnumbered), side_named(outgunned)
    fight = start_gang_fight(low, guns, options)
    payload: dict[str, JSON] = {
        "fighters": list(ours),
        "opponents": list(theirs),
        "outnumbered": None if low is None else low.value,
        "outgunned": None if guns is None else guns.value,
        **amounts,
        "players_dice": fight.players_dice,
        "gm_dice": fight.gm_dice,
    }
    return GangTable(fight, ours, theirs), payload


def decide_gang_start(
    state: YbsState,
    *,
    fighters: Iterable[str],
    opponents: Iterable[str] = (),
    outnumbered: str | None = None,
    outgunned: str | None = None,
    winner_uchimi: int | None = None,
    loser_uchimi: int | None = None,
    draw_uchimi: int | None = None,
) -> Decision:
    """Start a gang fight: dice per side from the two disadvantages (Y-M7, Y-A12).

    Args:
        state: current state.
        fighters: the players' side characters (1 or more).
        opponents: the GM's named characters (0 or more).
        outnumbered, outgunned: ``players``, ``gm`` or None.
        winner_uchimi, loser_uchimi, draw_uchimi: the GM's damage per fighter (0..20), None
            for the defaults 1, 3, 2.

    Raises:
        InputError: an unknown side or character, a character named twice, no fighter.
        RuleError: a gang fight is already going on; a prostrate fighter or opponent (Y-X4).

    Source: Y-M7, Y-N4, Y-A12, Y-T3, Y-X4.
    """
    state = settled(state)
    damage = {
        "winner_uchimi": winner_uchimi,
        "loser_uchimi": loser_uchimi,
        "draw_uchimi": draw_uchimi,
    }
    gang, payload = _gang_start(state, fighters, opponents, outnumbered, outgunned, damage)
    after = replace(state, gang=gang)
    return Decision((Fact("ybs.gang_started", payload, actor=GM),), gang, (), after)


def current_gang(state: YbsState) -> GangTable:
    """The gang fight in progress.

    Raises:
        RuleError: no gang fight is going on.

    Source: Y-M7.
    """
    gang = state.gang
    if not isinstance(gang, GangTable):
        raise RuleError(
            N_("no gang fight is going on (rule Y-M7)"),
            cli_tip=N_("start one with 'tablee ybs gang start --fighter NAME'"),
        )
    return gang


def decide_gang_throw(
    state: YbsState,
    *,
    keep: Sequence[int] = (),
    gm_keep: Sequence[int] = (),
    faces: Sequence[int],
    gm_faces: Sequence[int],
) -> Decision:
    """One throw of the gang fight; the throw that ends it marks the damage.

    Args:
        state: current state.
        keep, gm_keep: the faces each side keeps (empty on the first throw).
        faces, gm_faces: the new faces each side threw (as many as it rerolls).

    Returns:
        The decision; its outcome is the `tablee.systems.ybs.gang.ThrowOutcome`.

    Raises:
        RuleError: no gang fight going on.
        InputError: a keep naming dice that are not there, a keep on the first throw, faces of
            the wrong number or range.

    Source: Y-M7, Y-A13, Y-A14, Y-T5, Y-T6.
    """
    state = settled(state)
    gang = current_gang(state)
    keeps = Keeps(tuple(int(f) for f in keep), tuple(int(f) for f in gm_keep))
    fight, outcome = resolve_throw(gang.fight, keeps, (list(faces), list(gm_faces)))
    payload: dict[str, JSON] = {
        "throw": outcome.throw,
        "minutes": outcome.minutes,
        "keep": list(outcome.players_kept),
        "gm_keep": list(outcome.gm_kept),
        "faces": list(outcome.players_rolled),
        "gm_faces": list(outcome.gm_rolled),
        "hand": list(outcome.players_hand),
        "gm_hand": list(outcome.gm_hand),
        "straight": None if outcome.players_straight is None else outcome.players_straight.label,
        "gm_straight": None if outcome.gm_straight is None else outcome.gm_straight.label,
        "winner": None,
        "draw": False,
        "inglorious": False,
        "damage": [],
    }
    result = outcome.result
    if result is None:
        after = replace(state, gang=replace(gang, fight=fight, pending=None))
        return Decision((Fact("ybs.gang_throw", payload, actor=GM),), outcome, (), after)
    amounts = {n: (result.uchimi_for(GangSide.PLAYERS), 0) for n in gang.fighters}
    amounts |= {n: (result.uchimi_for(GangSide.GM), 0) for n in gang.opponents}
    after, damage = _hurt(state, [*gang.fighters, *gang.opponents], amounts)
    payload |= {
        "winner": None if result.winner is None else result.winner.value,
        "draw": result.draw,
        "inglorious": result.inglorious,
        "damage": damage,
    }
    after = replace(after, gang=None)
    return Decision((Fact("ybs.gang_throw", payload, actor=GM),), outcome, (), after)


def decide_gang_side(
    state: YbsState, *, side: str, keep: Sequence[int] = (), faces: Sequence[int]
) -> Decision:
    """One side's dice of the next gang-fight throw, entered apart from the other side's.

    Both sides throw at once (Y-M7 steps 3-4). When each side enters its own dice (a player
    for the players' side, the GM for the GM's), the first side's dice wait, shown to nobody
    in the log, until the other side has thrown; the second side's dice then make the whole
    throw (`decide_gang_throw`), in whichever order the sides threw.

    Args:
        state: current state.
        side: ``players`` or ``gm``.
        keep: the faces that side keeps from its hand (empty on the first throw).
        faces: the new faces that side threw (as many as it rerolls).

    Returns:
        The first side: a ``ybs.gang_side`` fact, the fight waiting for the other side (its
        outcome the side's `tablee.systems.ybs.gang.ThrowOutcome`-like trace). The second
        side: the ``ybs.gang_throw`` of `decide_gang_throw`.

    Raises:
        RuleError: no gang fight going on; that side has already thrown this time.
        InputError: a bad side, a keep naming dice that are not there, a keep on the first
            throw, faces of the wrong number or range.

    Source: seed 004, "Les combats de bande"; Y-M7, Y-A14.
    """
    state = settled(state)
    gang = current_gang(state)
    thrown = side_named(side)
    if thrown is None:
        raise InputError(N_("{value!r} is not a side: players or gm (rule Y-M7)"), value=side)
    pending = gang.pending
    if pending is not None and pending.side == thrown.value:
        raise RuleError(
            N_("{side} has already thrown this time: the other side throws now (rule Y-M7)"),
            side=thrown.title,
        )
    kept = tuple(int(f) for f in keep)
    if pending is not None:
        other = (tuple(pending.keep), tuple(pending.faces))
        ours = (kept, tuple(faces))
        players, gm = (ours, other) if thrown is GangSide.PLAYERS else (other, ours)
        return decide_gang_throw(
            state, keep=players[0], gm_keep=gm[0], faces=players[1], gm_faces=gm[1]
        )
    keeps = Keeps(kept, ()) if thrown is GangSide.PLAYERS else Keeps((), kept)
    requests = dict(zip(GangSide, dice_for_throw(gang.fight, keeps), strict=True))
    rolled = tuple(int(f) for f in faces)
    if len(rolled) != requests[thrown].count:
        raise InputError(
            N_("{side} throws {dice} this time; faces given: {given} (Y-M7)"),
            side=thrown.title,
            dice=Plural("{n} die", "{n} dice", requests[thrown].count),
            given=len(rolled),
        )
    for face in rolled:
        requests[thrown].die.check_face(face)
    throw = gang.fight.throws + 1
    payload: dict[str, JSON] = {
        "throw": throw,
        "side": thrown.value,
        "keep": list(kept),
        "faces": list(rolled),
    }
    step = TraceStep(
        N_("throw {throw} (minute {minutes}): {side} keeps {kept}, throws {rolled}: {hand}"),
        {
            "throw": throw,
            "minutes": throw - 1,
            "side": thrown.title,
            "kept": list(kept),
            "rolled": list(rolled),
            "hand": list(hand_after(kept, rolled)),
        },
    )
    after = replace(state, gang=replace(gang, pending=GangHalf(thrown.value, kept, rolled)))
    waiting = TraceStep(N_("waiting for {side} to throw"), {"side": thrown.other.title})
    outcome = HalfOutcome((step, waiting))
    return Decision((Fact("ybs.gang_side", payload, actor=GM),), outcome, (), after)


def decide_gang_stop(state: YbsState, *, note: str = "") -> Decision:
    """The GM stops the gang fight in progress without a winner (no damage marked).

    Raises:
        RuleError: no gang fight going on.

    Source: Y-M7 (the GM adapts the fight to the story).
    """
    state = settled(state)
    gang = current_gang(state)
    payload: dict[str, JSON] = {"throws": gang.fight.throws, "note": str(note).strip()}
    return Decision(
        (Fact("ybs.gang_stopped", payload, actor=GM),), None, (), replace(state, gang=None)
    )


def decide_encounter_at_table(
    state: YbsState,
    *,
    choices: Mapping[str, str],
    opponents: Iterable[str] = (),
    faces: Sequence[int] = (),
    gm_faces: Sequence[int] = (),
    outnumbered: str | None = None,
    outgunned: str | None = None,
) -> Decision:
    """An unexpected encounter: the players' secret choices, then the strike if called.

    Ichika Bachika if any player calls it: every choosing player's characters fight, each side
    throws 5 dice once (``faces``, ``gm_faces``), the losers take 4 Uchimi each (a Kega for
    the 4th at 3 hit points), a complete tie is a draw (2 Uchimi each) or, with the option
    ``ichika_tie = reroll``, nothing: the GM runs the encounter again. Otherwise a gang fight
    starts for the characters of those who chose it (no faces), or everyone flees. A
    prostrate character of a choosing player stays out, with a notice (Y-X4); a prostrate
    opponent named by the GM is refused.

    Args:
        state: current state.
        choices: player -> ``flee``, ``gang_fight`` or ``ichika_bachika``.
        opponents: the GM's named characters in the fight.
        faces, gm_faces: 5 faces a side for Ichika Bachika, none otherwise.
        outnumbered, outgunned: the disadvantages, for a gang fight.

    Raises:
        InputError: an unknown player, character or choice; faces given without a strike or
            missing for one.
        RuleError: a gang fight is already going on (Tablée's decision: one fight at a time).

    Source: Y-M8, Y-A15 to Y-A18, Y-T7 to Y-T9, Y-X4.
    """
    state = settled(state)
    if state.gang is not None:
        raise RuleError(
            N_("a gang fight is already going on (rule Y-M7)"),
            cli_tip=N_("throw it to the end, or stop it with 'tablee ybs gang stop'"),
        )
    read = {player_named(state, p): c for p, c in choices.items()}
    encounter = decide_encounter(read)
    drawn = [c for c, owner in state.owners.items() if owner in encounter.fighters]
    fighters, notices = _standing(state, drawn)
    payload: dict[str, JSON] = {
        "choices": dict(read),
        "kind": encounter.kind,
        "fighters": fighters,
        "opponents": list(opponents),
        "outnumbered": outnumbered,
        "outgunned": outgunned,
        "faces": list(faces),
        "gm_faces": list(gm_faces),
    }
    if encounter.kind != "ichika_bachika":
        if faces or gm_faces:
            raise InputError(N_("no Ichika Bachika was called: no dice are thrown (rule Y-M8)"))
        if encounter.kind == "flee":
            return Decision((Fact("ybs.encounter", payload, actor=GM),), encounter, (), state)
        gang, start = _gang_start(state, fighters, opponents, outnumbered, outgunned, {})
        payload["gang"] = start
        after = replace(state, gang=gang)
        return Decision((Fact("ybs.encounter", payload, actor=GM),), encounter, notices, after)
    ours = _characters(state, fighters, ())
    theirs = _characters(state, opponents, ours)
    payload["opponents"] = list(theirs)
    outcome = resolve_ichika((faces, gm_faces), IchikaOptions(tie=state.options.ichika_tie))
    amounts = {
        n: outcome.damage_for(GangSide.PLAYERS, state.characters[n].hit_points) for n in ours
    }
    amounts |= {n: outcome.damage_for(GangSide.GM, state.characters[n].hit_points) for n in theirs}
    after, damage = _hurt(state, [*ours, *theirs], amounts)
    payload |= {
        "winner": None if outcome.winner is None else outcome.winner.value,
        "draw": outcome.draw,
        "reroll": outcome.reroll,
        "zorome": outcome.players_zorome.label,
        "gm_zorome": outcome.gm_zorome.label,
        "damage": damage,
    }
    return Decision((Fact("ybs.encounter", payload, actor=GM),), outcome, notices, after)


def gang_json(state: YbsState) -> dict[str, JSON] | None:
    """The gang fight in progress as JSON, or None."""
    gang = state.gang
    if not isinstance(gang, GangTable):
        return None
    return {
        "fighters": list(gang.fighters),
        "opponents": list(gang.opponents),
        **gang.fight.to_json(),
        "minutes": gang.fight.minutes,
    }
