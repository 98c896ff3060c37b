"""A Pouyss table's state, and how a recorded event changes it.

`apply` folds one stored event into the state from what the event recorded (the cagnotte's
move, the session started, the character set), without deciding anything again: a table's
log opens the same under any later release.

Source: seed 000; rulings P-M3, P-M5, P-A7, P-A12, P-A13.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from tablee.errors import N_, InputError
from tablee.systems.base import JSON
from tablee.systems.common import clean_players
from tablee.systems.event import Event
from tablee.systems.pouyss.events import (
    CagnotteCorrected,
    CharacterSet,
    OpposedRolled,
    OptionsSet,
    Penalised,
    Rewarded,
    Rolled,
    SessionEnded,
    SessionStarted,
)
from tablee.systems.pouyss.options import PouyssOptions

__all__ = ["MAX_PLAYERS", "Character", "PouyssState", "apply", "initial_state"]

MAX_PLAYERS = 20


@dataclass(frozen=True)
class Character:
    """A character as free-text lists of advantages and disadvantages (P-A13)."""

    advantages: tuple[str, ...] = ()
    disadvantages: tuple[str, ...] = ()


@dataclass(frozen=True)
class PouyssState:
    """A Pouyss table's state.

    Attributes:
        players: the interprètes' names (the narrator is not one), 1 to 20.
        options: the house rules.
        cagnotte: dice in the pool (0 or more), None before the first session.
        session: number of the current or last session, 0 before the first.
        in_session: whether a session is being played.
        rewards: reward dice given in the reward limit's scope (P-A7).
        doubles: exceptional double bonuses granted this session (P-M3).
        characters: player -> `Character`.
    """

    players: tuple[str, ...]
    options: PouyssOptions = field(default_factory=PouyssOptions)
    cagnotte: int | None = None
    session: int = 0
    in_session: bool = False
    rewards: int = 0
    doubles: int = 0
    characters: Mapping[str, Character] = field(default_factory=dict)


def initial_state(created: Mapping[str, JSON]) -> PouyssState:
    """The state of a new table from its ``table.created`` payload.

    Args:
        created: ``{"players": [...], "options": {...}}`` (other keys ignored).

    Raises:
        InputError: no player, a bad or repeated name, an unknown option or value.

    Source: P-M5, P-A12 (only players count for the cagnotte), P-A13.
    """
    options = PouyssOptions.from_json(created.get("options") or {})
    raw = created.get("players")
    if not isinstance(raw, list | tuple) or not raw:
        raise InputError(N_("a Pouyss table needs at least one player (rule P-M5)"))
    return PouyssState(players=clean_players(raw, maximum=MAX_PLAYERS), options=options)


def apply(state: PouyssState, event: Event) -> PouyssState:
    """The state after one event, from its recorded outcome (pure, never decides).

    Args:
        state: the state before.
        event: a Pouyss event (`tablee.systems.pouyss.events`).

    Returns:
        The state after it.

    Raises:
        InputError: an event of another game.

    Source: P-M5 (sessions), P-M7 and P-A7 (rewards counted), P-M3 (doubles counted, in
    opposed rolls too, P-X2), P-X1 (a correction moves the cagnotte and counts as no reward).
    """
    match event:
        case SessionStarted():
            scope = state.options.reward_limit_scope
            return replace(
                state,
                cagnotte=event.cagnotte,
                session=event.session,
                in_session=True,
                rewards=state.rewards if scope == "campaign" else 0,
                doubles=0,
            )
        case SessionEnded():
            return replace(state, in_session=False)
        case Rolled() | OpposedRolled():
            doubles = state.doubles + int(event.double_bonus)
            return replace(state, cagnotte=event.cagnotte.after, doubles=doubles)
        case Penalised() | CagnotteCorrected():
            return replace(state, cagnotte=event.cagnotte.after)
        case Rewarded():
            return replace(
                state, cagnotte=event.cagnotte.after, rewards=state.rewards + event.amount
            )
        case CharacterSet():
            character = Character(event.advantages, event.disadvantages)
            return replace(state, characters={**state.characters, event.player: character})
        case OptionsSet():
            return replace(state, options=PouyssOptions.from_json(event.options))
    raise InputError(N_("{kind} is not a Pouyss event"), kind=event.kind)
