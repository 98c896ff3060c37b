"""The state of a YBS table, the decision a command returns, and the views shared by them.

`YbsState` is what the facts of a table fold into (players, house rules, characters and their
owners, the Unmei ledger, the session, the test and the fights in progress); `Decision` is
what every ``decide_*`` function returns. Here too: the state of a new table, names typed
in any case, free-text notes, a character's boxes and its sheet as JSON.

Source: seed 004; rulings Y-M1, Y-M4, Y-M5, Y-M6, Y-M9, Y-A8, Y-A9.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tablee.dice import TraceStep
from tablee.errors import N_, InputError, NotFoundError
from tablee.systems.base import JSON, Fact
from tablee.systems.common import DecisionOf, clean_players, find_name
from tablee.systems.common import player_named as _player_named
from tablee.systems.ybs.character import (
    Character,
    Trait,
)
from tablee.systems.ybs.damage import Boxes
from tablee.systems.ybs.gang import GangFight
from tablee.systems.ybs.options import YbsOptions
from tablee.systems.ybs.unmei import (
    GM,
    Ledger,
)

__all__ = [
    "MAX_CHARACTERS",
    "MAX_PLAYERS",
    "Decision",
    "FightRound",
    "GangHalf",
    "GangTable",
    "OpenTest",
    "YbsState",
    "box_json",
    "boxes_of",
    "character_json",
    "character_named",
    "decision_of",
    "free_text",
    "initial_state",
    "player_named",
    "settled",
    "with_boxes",
    "with_hero",
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
class GangHalf:
    """One side's dice of the next gang-fight throw, thrown before the other side's.

    Both sides throw at once (Y-M7 steps 3-4); at a table where each side enters its own
    dice, the first side to throw waits here until the other side has thrown too.

    Attributes:
        side: ``players`` or ``gm``.
        keep: the faces that side kept from its last hand (empty on the first throw).
        faces: the new faces it threw.
    """

    side: str
    keep: tuple[int, ...]
    faces: tuple[int, ...]


@dataclass(frozen=True)
class GangTable:
    """The gang fight in progress at a table.

    Attributes:
        fight: the race's state (dice, hands, throws).
        fighters: the players' side characters, who take its damage.
        opponents: the GM's named characters, who take the other side's damage.
        pending: one side's dice of the next throw, waiting for the other side's, or None.
    """

    fight: GangFight
    fighters: tuple[str, ...]
    opponents: tuple[str, ...]
    pending: GangHalf | None = None


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
        gang: the gang fight in progress, or None.
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
    gang: GangTable | None = None


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


def decision_of(
    state: YbsState,
    kind: str,
    payload: Mapping[str, JSON],
    after: YbsState,
    outcome: Any = None,
    warnings: tuple[TraceStep, ...] = (),
    actor: str = GM,
) -> Decision:
    """A decision of one fact of ``kind`` with ``payload``, leading to ``after``.

    Args:
        state: the state decided against (unused; kept for the callers' symmetry).
        kind: the fact's kind (``ybs.damage``...).
        payload: the fact's payload.
        after: the state once the fact is folded.
        outcome: what to show, or None.
        warnings: notices that never block.
        actor: who the fact is stored for (the GM by default).
    """
    return Decision((Fact(kind, dict(payload), actor=actor),), outcome, warnings, after)


def with_hero(state: YbsState, hero: Character) -> YbsState:
    """The state with one character replaced by ``hero`` (same name)."""
    return replace(state, characters={**state.characters, hero.name: hero})


def boxes_of(hero: Character) -> Boxes:
    """A character's hit-point boxes (hit points, Uchimi, Kega, emergency)."""
    return Boxes(hero.hit_points, hero.uchimi, hero.kega, hero.emergency)


def with_boxes(hero: Character, boxes: Boxes, notes: Iterable[str] = ()) -> Character:
    """The character with new boxes (and Kega notes added).

    Healed Kega take their count by a trauma with them, so new Kega count afresh (Y-X1).
    """
    return replace(
        hero,
        uchimi=boxes.uchimi,
        kega=boxes.kega,
        emergency=boxes.emergency,
        kega_notes=(*hero.kega_notes, *notes),
        trauma_kega=min(hero.trauma_kega, boxes.kega),
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


def character_json(state: YbsState, name: str) -> dict[str, JSON]:
    """A character's sheet as JSON, with its player and its player's tokens.

    ``traumas`` maps each trait under a trauma to the levels it took (Y-X1, Y-X2).

    Source: Y-M1, Y-M4, Y-M5, Y-M9, Y-X2.
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
        "traumas": dict(hero.traumas),
    }
