"""YBS decisions of the table: new characters, sessions, Unmei tokens and house rules.

Creating a character (with the spread's notices), starting and ending a session (the tokens
handed out and taken back), invoking an attribute (1 token to its player), Shichi Fukujin
(7 tokens to rewrite a scene) and changing the house rules. Each returns a `Decision`.

Event kinds of this module (all version 1 but ``ybs.character_created``, version 2 with the
tokens an imported sheet brings): ``ybs.character_created``, ``ybs.session_started``,
``ybs.session_ended``, ``ybs.attribute_invoked``, ``ybs.shichi_fukujin``, ``ybs.options_set``.

Source: seed 004; rulings Y-M1, Y-M2, Y-M4, Y-A1, Y-A7, Y-A21, Y-X7.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from tablee.errors import N_, InputError, Message, NotFoundError, RuleError
from tablee.systems.base import JSON, Fact, clean_name
from tablee.systems.common import find_name, whole
from tablee.systems.ybs.character import (
    MAX_TRAIT,
    Character,
    Trait,
    create_character,
    spread_warnings,
)
from tablee.systems.ybs.evolution import MAX_AT_TWO
from tablee.systems.ybs.rolls import MAX_TOKENS
from tablee.systems.ybs.state import (
    MAX_CHARACTERS,
    Decision,
    YbsState,
    character_named,
    decision_of,
    free_text,
    player_named,
    settled,
    with_hero,
)
from tablee.systems.ybs.unmei import (
    GM,
    SHICHI_FUKUJIN,
    TokenMove,
    end_session_moves,
    moves_json,
    reason_text,
    start_session_moves,
)

__all__ = [
    "decide_create",
    "decide_end_session",
    "decide_invoke",
    "decide_options",
    "decide_shichi_fukujin",
    "decide_start_session",
]


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
    tokens: int = 0,
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
        tokens: Unmei tokens an imported sheet brings, 0..`MAX_TOKENS`: they go from the GM's
            bag to its player (Y-X7).

    Returns:
        The decision; its outcome is the `Character`; a warning when the traits are not the
        default spread (Y-A21).

    Raises:
        InputError: a field out of range, naming it; an unknown owner; a third +2 trait;
            tokens for a GM character.
        RuleError: the name is taken, or the table has `MAX_CHARACTERS`; the GM's bag holds
            fewer tokens than the sheet brings.

    Source: Y-M1, Y-M2, Y-M4, Y-M9, Y-N1, Y-A1, Y-A8, Y-A21, Y-X7.
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
    brought = whole(tokens, Message(N_("Unmei tokens")), 0, MAX_TOKENS, rule="Y-M4")
    if brought and player is None:
        raise InputError(
            N_("{name} is a GM character: it holds no Unmei tokens, not {tokens} (rule Y-A8)"),
            tip=N_("name the player who brings them"),
            name=hero.name,
            tokens=brought,
        )
    moves = (TokenMove(GM, player, brought, "import"),) if player and brought else ()
    payload: dict[str, JSON] = {
        "name": hero.name,
        "owner": player,
        "traits": {t.value: hero.trait(t) for t in Trait},
        "attributes": list(hero.attributes),
        "stars": {t.value: hero.star_count(t) for t in Trait},
        "uchimi": hero.uchimi,
        "kega": hero.kega,
        "hit_points": hero.hit_points,
        "moves": moves_json(moves),
    }
    after = replace(with_hero(state, hero), ledger=state.ledger.apply(moves))
    if player is not None:
        after = replace(after, owners={**state.owners, hero.name: player})
    return decision_of(
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
    return decision_of(state, kind, payload, after, moves)


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
            cli_tip=N_("end it first with 'tablee ybs session end'"),
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
            N_("no session is being played"),
            cli_tip=N_("start one with 'tablee ybs session start'"),
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
