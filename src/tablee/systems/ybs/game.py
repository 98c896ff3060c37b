"""A YBS table as state folded from facts: characters, tokens, boxes, evolution, options.

Every ``decide_*`` function takes the current `YbsState` and a command's inputs and returns a
`Decision`: the facts to store, the outcome to show, notices that never block, and the state
right after. Folding a stored fact (`tablee.systems.ybs.replay.evolve`) decides it again from
its inputs, so every rule is checked on every replay. Tests and fights are in
`tablee.systems.ybs.play`.

Every fact but a test's follow-ups (reroll, critical success, critical failure) closes the
test in progress: its follow-ups must come right after it.

Event kinds of this module (all version 1): ``ybs.character_created``,
``ybs.session_started``, ``ybs.session_ended``, ``ybs.attribute_invoked``,
``ybs.shichi_fukujin``, ``ybs.damage``, ``ybs.rest``, ``ybs.kega_healed``,
``ybs.star_awarded``, ``ybs.traits_transferred``, ``ybs.trauma``, ``ybs.options_set``.

Source: seed 004; rulings Y-M1, Y-M2, Y-M4, Y-M5, Y-M9, Y-A1, Y-A7, Y-A19 to Y-A22.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tablee.dice import TraceStep
from tablee.errors import N_, InputError, NotFoundError, RuleError
from tablee.systems.base import JSON, Fact, clean_name
from tablee.systems.common import DecisionOf, clean_players, find_name
from tablee.systems.common import player_named as _player_named
from tablee.systems.ybs.character import (
    MAX_TRAIT,
    Character,
    Trait,
    create_character,
    spread_warnings,
    trait_named,
)
from tablee.systems.ybs.damage import Boxes, heal_kega, rest, take_damage
from tablee.systems.ybs.evolution import MAX_AT_TWO, award_star, transfer, trauma
from tablee.systems.ybs.options import YbsOptions
from tablee.systems.ybs.unmei import (
    GM,
    SHICHI_FUKUJIN,
    Ledger,
    TokenMove,
    end_session_moves,
    moves_json,
    reason_text,
    start_session_moves,
)

__all__ = [
    "MAX_CHARACTERS",
    "MAX_PLAYERS",
    "Decision",
    "FightRound",
    "OpenTest",
    "YbsState",
    "box_json",
    "character_json",
    "character_named",
    "decide_attributes",
    "decide_create",
    "decide_damage",
    "decide_end_session",
    "decide_heal_kega",
    "decide_invoke",
    "decide_options",
    "decide_rest",
    "decide_shichi_fukujin",
    "decide_star",
    "decide_start_session",
    "decide_transfer",
    "decide_trauma",
    "free_text",
    "initial_state",
    "player_named",
    "settled",
    "with_boxes",
]

MAX_PLAYERS = 20
"""Most players at one table (Tablée's limit)."""
MAX_CHARACTERS = 50
"""Most characters at one table (Tablée's limit, against typing mistakes)."""


@dataclass(frozen=True)
class OpenTest:
    """The test whose follow-ups may still come (reroll, critical success or failure).

    Attributes:
        payload: the stored payload of the test as it now stands (faces so far included).
        tokens: the actor's tokens once forced, when the first die was thrown.
    """

    payload: Mapping[str, JSON]
    tokens: int


@dataclass(frozen=True)
class FightRound:
    """The individual fight in progress (Y-M6).

    Attributes:
        gates: a character -> its Nintai gate test succeeded, this round (Y-A9).
        attacks: an attacker -> ``{"target", "damage", "success", "critical"}``, this round.
        defences: a defender -> ``{"against", "success", "critical"}``, this round.
        retreated: characters out of this fight.
        round: the round's number, 1 or more.
    """

    gates: Mapping[str, bool] = field(default_factory=dict)
    attacks: Mapping[str, Mapping[str, JSON]] = field(default_factory=dict)
    defences: Mapping[str, Mapping[str, JSON]] = field(default_factory=dict)
    retreated: frozenset[str] = frozenset()
    round: int = 1


@dataclass(frozen=True)
class YbsState:
    """A YBS table's state.

    Attributes:
        players: the people at the table (the GM is not one), 0 to `MAX_PLAYERS`.
        options: the house rules.
        characters: each character by its stored name, in the order of creation.
        owners: a character's name -> its player (absent: a GM character, Y-A8).
        ledger: who holds the Unmei tokens (Y-M4).
        session: number of the current or last session, 0 before the first.
        in_session: a session is being played.
        test: the test in progress, or None.
        fight: the individual fight in progress.
        gang: the gang fight in progress (a `tablee.systems.ybs.brawls.GangTable`), or None.
    """

    players: tuple[str, ...] = ()
    options: YbsOptions = field(default_factory=YbsOptions)
    characters: Mapping[str, Character] = field(default_factory=dict)
    owners: Mapping[str, str] = field(default_factory=dict)
    ledger: Ledger = field(default_factory=lambda: Ledger(100, {}, 100))
    session: int = 0
    in_session: bool = False
    test: OpenTest | None = None
    fight: FightRound = field(default_factory=FightRound)
    gang: Any = None


class Decision(DecisionOf[YbsState]):
    """What a command decided.

    Attributes:
        facts: the facts to append (one for every YBS command).
        outcome: what to show (a result, a `Character`...), or None.
        warnings: notices shown but never blocking.
        after: the state once the facts are folded (what `evolve` returns for them).
    """


def initial_state(created: Mapping[str, JSON]) -> YbsState:
    """The state of a new table from its ``table.created`` payload: every token with the GM.

    Raises:
        InputError: a bad or repeated player name, an unknown option or value.

    Source: Y-M4; Y-A3, Y-A11, Y-A12, Y-A13, Y-A16 (the options).
    """
    options = YbsOptions.from_json(created.get("options") or {})
    players = clean_players(created.get("players"), maximum=MAX_PLAYERS)
    return YbsState(players, options, ledger=Ledger.new(options.token_supply, players))


def settled(state: YbsState) -> YbsState:
    """The state with the test in progress closed (any fact but a follow-up closes it)."""
    return state if state.test is None else replace(state, test=None)


def character_named(state: YbsState, name: object) -> str:
    """The stored name of a character, typed in any case.

    Raises:
        NotFoundError: no character has that name.
    """
    found = find_name(state.characters, name, N_("a character's name"))
    if found is None:
        raise NotFoundError(
            N_("no character named {name!r} at this table"),
            tip=N_("characters: {known}"),
            name=name,
            known=", ".join(state.characters) or "-",
        )
    return found


def player_named(state: YbsState, name: object) -> str:
    """The stored name of a player, typed in any case.

    Raises:
        NotFoundError: no player has that name.
    """
    return _player_named(state.players, name)


def free_text(value: object) -> str:
    """A free-text note, trimmed (may be empty).

    Raises:
        InputError: not text.
    """
    if not isinstance(value, str):
        raise InputError(N_("a note must be text, not {value!r}"), value=value)
    return value.strip()


def _decision(
    state: YbsState,
    kind: str,
    payload: Mapping[str, JSON],
    after: YbsState,
    outcome: Any = None,
    warnings: tuple[TraceStep, ...] = (),
    actor: str = GM,
) -> Decision:
    return Decision((Fact(kind, dict(payload), actor=actor),), outcome, warnings, after)


def _with_hero(state: YbsState, hero: Character) -> YbsState:
    return replace(state, characters={**state.characters, hero.name: hero})


def decide_create(
    state: YbsState,
    *,
    name: str,
    traits: Mapping[str, int],
    attributes: Iterable[str] = (),
    stars: Mapping[str, int] | None = None,
    uchimi: int = 0,
    kega: int = 0,
    owner: str | None = None,
) -> Decision:
    """Create a character (by command or from an imported sheet).

    Args:
        state: current state.
        name: unique at the table, ignoring case.
        traits: the six values, -2..+2, at most two at +2.
        attributes: free text, distinct.
        stars: stars already earned, 0..4 per trait.
        uchimi, kega: boxes already marked (an imported sheet).
        owner: the player, or None for a GM character (Y-A8).

    Returns:
        The decision; its outcome is the `Character`; a warning when the traits are not the
        default spread (Y-A21).

    Raises:
        InputError: a field out of range, naming it; an unknown owner; a third +2 trait.
        RuleError: the name is taken, or the table has `MAX_CHARACTERS`.

    Source: Y-M1, Y-M2, Y-M9, Y-N1, Y-A1, Y-A21.
    """
    state = settled(state)
    hero = create_character(name, traits, attributes=attributes, stars=stars)
    at_two = [t.title for t in Trait if hero.trait(t) >= MAX_TRAIT]
    if len(at_two) > MAX_AT_TWO:
        raise InputError(
            N_("at most two traits may be at +2, not {traits} (rule Y-M9)"),
            traits=", ".join(at_two),
        )
    hero = Character(hero.name, hero.traits, hero.attributes, hero.stars, uchimi, kega)
    if find_name(state.characters, hero.name, N_("a character's name")) is not None:
        raise RuleError(N_("a character named {name!r} already exists"), name=hero.name)
    if len(state.characters) >= MAX_CHARACTERS:
        raise RuleError(
            N_("this table already has the maximum of {maximum} characters"),
            maximum=MAX_CHARACTERS,
        )
    player = None if owner is None else player_named(state, owner)
    payload: dict[str, JSON] = {
        "name": hero.name,
        "owner": player,
        "traits": {t.value: hero.trait(t) for t in Trait},
        "attributes": list(hero.attributes),
        "stars": {t.value: hero.star_count(t) for t in Trait},
        "uchimi": hero.uchimi,
        "kega": hero.kega,
        "hit_points": hero.hit_points,
    }
    after = _with_hero(state, hero)
    if player is not None:
        after = replace(after, owners={**state.owners, hero.name: player})
    return _decision(
        state, "ybs.character_created", payload, after, hero, spread_warnings(hero.traits)
    )


def _moved(
    state: YbsState,
    kind: str,
    payload: dict[str, JSON],
    moves: tuple[TokenMove, ...],
    **changes: Any,
) -> Decision:
    ledger = state.ledger.apply(moves)
    payload["moves"] = moves_json(moves)
    after = replace(state, ledger=ledger, **changes)
    return _decision(state, kind, payload, after, moves)


def decide_start_session(state: YbsState) -> Decision:
    """Start a session: leftover tokens back to the GM, then 2 to each player.

    Raises:
        RuleError: a session is already being played; the GM's bag is too small.

    Source: Y-M4, Y-A7.
    """
    state = settled(state)
    if state.in_session:
        raise RuleError(
            N_("session {session} is already being played"),
            tip=N_("end it first with 'tablee ybs session end'"),
            session=state.session,
        )
    moves = start_session_moves(state.ledger)
    payload: dict[str, JSON] = {"session": state.session + 1}
    return _moved(
        state, "ybs.session_started", payload, moves, session=state.session + 1, in_session=True
    )


def decide_end_session(state: YbsState) -> Decision:
    """End the session: every unspent token goes back to the GM (no carry-over, Y-A7).

    Raises:
        RuleError: no session is being played.

    Source: Y-M4, Y-A7.
    """
    state = settled(state)
    if not state.in_session:
        raise RuleError(
            N_("no session is being played"), tip=N_("start one with 'tablee ybs session start'")
        )
    moves = end_session_moves(state.ledger)
    payload: dict[str, JSON] = {"session": state.session}
    return _moved(state, "ybs.session_ended", payload, moves, in_session=False)


def _owner(state: YbsState, name: str, why: str) -> str:
    owner = state.owners.get(name)
    if owner is None:
        raise RuleError(
            N_("{name} is a GM character: it holds no Unmei token ({why}, rule Y-A8)"),
            name=name,
            why=reason_text(why),
        )
    return owner


def decide_invoke(state: YbsState, *, character: str, attribute: str, note: str = "") -> Decision:
    """The GM invokes a character's attribute against it: 1 token to its player (Y-M2).

    Raises:
        NotFoundError: an unknown character or attribute.
        RuleError: a GM character; the GM's bag is empty.

    Source: seed 004, "Les attributs"; Y-M2, Y-M4.
    """
    state = settled(state)
    name = character_named(state, character)
    hero = state.characters[name]
    wanted = clean_name(attribute, what=N_("an attribute")).casefold()
    found = next((a for a in hero.attributes if a.casefold() == wanted), None)
    if found is None:
        raise NotFoundError(
            N_("{name} has no attribute {attribute!r}"),
            tip=N_("attributes: {known}"),
            name=name,
            attribute=attribute,
            known=", ".join(hero.attributes) or "-",
        )
    player = _owner(state, name, "invoke")
    payload: dict[str, JSON] = {"character": name, "attribute": found, "note": free_text(note)}
    return _moved(state, "ybs.attribute_invoked", payload, (TokenMove(GM, player, 1, "invoke"),))


def decide_shichi_fukujin(state: YbsState, *, player: str, proposal: str = "") -> Decision:
    """A player spends 7 tokens at once, the GM having approved the proposal (Y-M4).

    Raises:
        NotFoundError: an unknown player.
        RuleError: the player holds fewer than 7 tokens.

    Source: seed 004, "Les jetons Unmei"; Y-M4, Y-A7.
    """
    state = settled(state)
    who = player_named(state, player)
    move = TokenMove(who, GM, SHICHI_FUKUJIN, "shichi_fukujin")
    payload: dict[str, JSON] = {"player": who, "proposal": free_text(proposal)}
    return _moved(state, "ybs.shichi_fukujin", payload, (move,))


def _boxes(hero: Character) -> Boxes:
    return Boxes(hero.hit_points, hero.uchimi, hero.kega, hero.emergency)


def with_boxes(hero: Character, boxes: Boxes, notes: Iterable[str] = ()) -> Character:
    """The character with new boxes (and Kega notes added)."""
    return replace(
        hero,
        uchimi=boxes.uchimi,
        kega=boxes.kega,
        emergency=boxes.emergency,
        kega_notes=(*hero.kega_notes, *notes),
    )


def box_json(hero: Character) -> dict[str, JSON]:
    """A character's boxes: ``{hit_points, uchimi, kega, prostrate, emergency}``."""
    return {
        "hit_points": hero.hit_points,
        "uchimi": hero.uchimi,
        "kega": hero.kega,
        "prostrate": hero.prostrate,
        "emergency": hero.emergency,
    }


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
    boxes = take_damage(_boxes(hero), uchimi=uchimi, kega=kega)
    after = with_boxes(hero, boxes, [text] if text and kega else [])
    payload: dict[str, JSON] = {
        "character": name,
        "uchimi": uchimi,
        "kega": kega,
        "note": text,
        "boxes": box_json(after),
    }
    return _decision(state, "ybs.damage", payload, _with_hero(state, after), after)


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
    boxes, healed = rest(_boxes(hero), minutes)
    after = with_boxes(hero, boxes)
    payload: dict[str, JSON] = {
        "character": name,
        "minutes": minutes,
        "healed": healed,
        "boxes": box_json(after),
    }
    return _decision(state, "ybs.rest", payload, _with_hero(state, after), after)


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
    after = with_boxes(hero, heal_kega(_boxes(hero), count))
    payload: dict[str, JSON] = {
        "character": name,
        "count": count,
        "note": free_text(note),
        "boxes": box_json(after),
    }
    return _decision(state, "ybs.kega_healed", payload, _with_hero(state, after), after)


def decide_star(state: YbsState, *, character: str, trait: str) -> Decision:
    """A star for a trait used heavily; the fifth raises it (Y-M9, Y-A20).

    Raises:
        NotFoundError: an unknown character.
        InputError: an unknown trait.
        RuleError: the raise would make a third trait at +2.

    Source: Y-M9, Y-A20, Y-T12.
    """
    state = settled(state)
    name = character_named(state, character)
    chosen = trait_named(trait)
    outcome = award_star(state.characters[name], chosen)
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
            TraceStep(
                N_("{trait} is already at +2: the star is lost (Y-A20)"), {"trait": chosen.title}
            ),
        )
    return _decision(state, "ybs.star_awarded", payload, _with_hero(state, hero), outcome, warnings)


def decide_transfer(state: YbsState, *, character: str, lower: str, raise_: str) -> Decision:
    """Lower one trait by 1 and raise another by 1 (Y-M9, Y-A20).

    Raises:
        NotFoundError, InputError: an unknown character or trait; the same trait twice.
        RuleError: below -2, above +2, or a third trait at +2.

    Source: Y-M9, Y-A20.
    """
    state = settled(state)
    name = character_named(state, character)
    low, high = trait_named(lower), trait_named(raise_)
    hero = transfer(state.characters[name], low, high)
    payload: dict[str, JSON] = {
        "character": name,
        "lower": low.value,
        "raise": high.value,
        "traits": {t.value: hero.trait(t) for t in Trait},
        "boxes": box_json(hero),
    }
    return _decision(state, "ybs.traits_transferred", payload, _with_hero(state, hero), hero)


def decide_trauma(state: YbsState, *, character: str, trait: str, note: str = "") -> Decision:
    """Trauma after 3 Kega: a trait related to the wounds becomes -1 (Y-M9, Y-T10).

    Raises:
        NotFoundError, InputError: an unknown character or trait.
        RuleError: fewer than 3 Kega.

    Source: Y-M9, Y-A20, Y-T10.
    """
    state = settled(state)
    name = character_named(state, character)
    chosen = trait_named(trait)
    before = state.characters[name].trait(chosen)
    hero = trauma(state.characters[name], chosen)
    payload: dict[str, JSON] = {
        "character": name,
        "trait": chosen.value,
        "from": before,
        "value": hero.trait(chosen),
        "note": free_text(note),
        "boxes": box_json(hero),
    }
    return _decision(state, "ybs.trauma", payload, _with_hero(state, hero), hero)


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
    return _decision(state, "ybs.attributes_changed", payload, _with_hero(state, after), after)


def decide_options(state: YbsState, changes: Mapping[str, str]) -> Decision:
    """Change the table's house rules from text values.

    Raises:
        InputError: an unknown option or a bad value, naming both.
        RuleError: a token supply smaller than the players' tokens.

    Source: Y-A3, Y-A11, Y-A12, Y-A13, Y-A16, Y-M4.
    """
    state = settled(state)
    options = state.options.with_changes(changes)
    ledger = state.ledger.with_supply(options.token_supply)
    fact = Fact("ybs.options_set", {"options": options.to_json()}, actor=GM)
    return Decision((fact,), options, (), replace(state, options=options, ledger=ledger))


def character_json(state: YbsState, name: str) -> dict[str, JSON]:
    """A character's sheet as JSON, with its player and its player's tokens.

    Source: Y-M1, Y-M4, Y-M5, Y-M9.
    """
    hero = state.characters[name]
    owner = state.owners.get(name)
    return {
        "owner": owner,
        "tokens": None if owner is None else state.ledger.players.get(owner, 0),
        "traits": {t.value: hero.trait(t) for t in Trait},
        "stars": {t.value: hero.star_count(t) for t in Trait},
        "attributes": list(hero.attributes),
        **box_json(hero),
        "kega_notes": list(hero.kega_notes),
    }
