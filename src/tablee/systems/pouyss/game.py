"""A Pouyss table as state folded from facts, and the decisions that produce those facts.

Every ``decide_*`` function takes the current `PouyssState` and a command's inputs (with the
dice faces already thrown, when the command rolls) and returns a `Decision`: the facts to
store, the outcome to show, the cagnotte move and soft-limit warnings. Folding stored facts
back into state (`tablee.systems.pouyss.replay.evolve`) decides each one again from its
inputs, so every rule is checked on every replay.

Event kinds (all version 1): ``pouyss.session_started``, ``pouyss.session_ended``,
``pouyss.roll``, ``pouyss.opposed``, ``pouyss.reward``, ``pouyss.penalty``,
``pouyss.character_set``, ``pouyss.options_set``.

Source: seed 000 (whole); rulings P-M1 to P-M8, P-A2 to P-A13.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tablee.dice import TraceStep
from tablee.errors import N_, InputError, RuleError
from tablee.systems.base import JSON, Fact, clean_name, name_key
from tablee.systems.common import clean_players, player_named
from tablee.systems.pouyss.actions import (
    ActionResult,
    ActionRoll,
    OpposedRoll,
    _check_count,
    resolve_action_roll,
    resolve_opposed_roll,
)
from tablee.systems.pouyss.cagnotte import (
    CagnotteMove,
    draw_and_refill,
    opposed_cost,
    penalise,
    reward,
)
from tablee.systems.pouyss.options import PouyssOptions

__all__ = [
    "Character",
    "Decision",
    "PouyssState",
    "decide_character",
    "decide_end_session",
    "decide_opposed",
    "decide_options",
    "decide_penalty",
    "decide_reward",
    "decide_roll",
    "decide_start_session",
    "initial_state",
]

MAX_PLAYERS = 20
MAX_CAGNOTTE = 10_000
"""Largest start value a narrator may set by hand (Tablée's limit, against typing mistakes)."""


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


@dataclass(frozen=True)
class Decision:
    """What a command decided.

    Attributes:
        facts: to append, in order.
        outcome: what to show (a result object or None).
        warnings: soft-limit notices, shown but never blocking (P-A7).
        move: the cagnotte change, when there is one.
    """

    facts: tuple[Fact, ...]
    outcome: Any = None
    warnings: tuple[TraceStep, ...] = ()
    move: CagnotteMove | None = None


def _players(raw: object) -> tuple[str, ...]:
    if not isinstance(raw, list | tuple) or not raw:
        raise InputError(N_("a Pouyss table needs at least one player (rule P-M5)"))
    return clean_players(raw, maximum=MAX_PLAYERS)


def initial_state(created: Mapping[str, JSON]) -> PouyssState:
    """The state of a new table from its ``table.created`` payload.

    Args:
        created: ``{"players": [...], "options": {...}}`` (other keys ignored).

    Raises:
        InputError: no player, a bad or repeated name, an unknown option or value.

    Source: P-M5, P-A12 (only players count for the cagnotte), P-A13.
    """
    options = PouyssOptions.from_json(created.get("options") or {})
    return PouyssState(players=_players(created.get("players")), options=options)


def _player(state: PouyssState, name: str) -> str:
    return player_named(state.players, name)


def _require_session(state: PouyssState) -> int:
    if not state.in_session or state.cagnotte is None:
        raise RuleError(
            N_("no session is being played, so there is no cagnotte (rule P-M5)"),
            tip=N_("start one with 'tablee pouyss session start'"),
        )
    return state.cagnotte


def decide_start_session(
    state: PouyssState, *, carry_over: bool | None = None, cagnotte: int | None = None
) -> Decision:
    """Start a session and fill the cagnotte.

    Args:
        state: current state.
        carry_over: keep the last session's cagnotte (P-M5); None uses the table option.
        cagnotte: a start value set by the narrator (0 or more), overriding both.

    Raises:
        RuleError: a session is already being played; carry-over with no previous session.
        InputError: a negative ``cagnotte``.

    Source: P-M5, P-A12.
    """
    if state.in_session:
        raise RuleError(
            N_("session {session} is already being played"),
            session=state.session,
            tip=N_("end it first with 'tablee pouyss session end'"),
        )
    keep = state.options.carry_over if carry_over is None else carry_over
    if cagnotte is not None:
        if (
            isinstance(cagnotte, bool)
            or not isinstance(cagnotte, int)
            or not 0 <= cagnotte <= MAX_CAGNOTTE
        ):
            raise InputError(
                N_("a cagnotte of {value!r}: it must be 0 to {maximum}"),
                value=cagnotte,
                maximum=MAX_CAGNOTTE,
            )
        start, carried = cagnotte, False
    elif keep and state.cagnotte is not None:
        start, carried = state.cagnotte, True
    elif keep and carry_over:
        raise RuleError(
            N_("there is no previous session to carry the cagnotte over from (rule P-M5)")
        )
    else:
        start, carried = len(state.players), False
    payload = {"session": state.session + 1, "cagnotte": start, "carried_over": carried}
    return Decision((Fact("pouyss.session_started", payload, actor="gm"),))


def decide_end_session(state: PouyssState) -> Decision:
    """End the session being played; its cagnotte is kept for a campaign's next session.

    Raises:
        RuleError: no session is being played.

    Source: P-M5.
    """
    cagnotte = _require_session(state)
    payload = {"session": state.session, "cagnotte": cagnotte}
    return Decision((Fact("pouyss.session_ended", payload, actor="gm"),))


def decide_roll(
    state: PouyssState,
    *,
    player: str,
    bonus: int = 0,
    malus: int = 0,
    imposed_bonus: int = 0,
    imposed_malus: int = 0,
    double_bonus: bool = False,
    faces: Sequence[int],
    reasons: Sequence[str] = (),
    visibility: str = "all",
) -> Decision:
    """Decide an action roll: check the cagnotte, resolve the faces, account for the dice.

    Args:
        state: current state (a session must be in progress).
        player: who rolls.
        bonus, malus: dice asked for by the player, 0 or more.
        imposed_bonus, imposed_malus: dice imposed by the narrator, 0 or more (P-M6).
        double_bonus: one bonus advantage is exceptional and gives two dice (one more die);
            needs at least one bonus; warned past the per-session soft limit (P-M3, P-A7).
        faces: ``1 + all bonus + all malus`` d6 values.
        reasons: free-text justifications (advantages, disadvantages, circumstances).
        visibility: who may see the roll.

    Raises:
        InputError: bad counts or faces, an unknown player, a double bonus with no bonus.
        RuleError: no session; more bonus dice than the cagnotte holds or the cap allows.

    Source: P-M1, P-M3, P-M5, P-M6, P-A2, P-A3, P-A6, P-A7.
    """
    name = _player(state, player)
    cagnotte = _require_session(state)
    _check_count("bonus", bonus)  # each count alone: a sum could hide a negative one
    _check_count("malus", malus)
    _check_count("imposed bonus", imposed_bonus)
    _check_count("imposed malus", imposed_malus)
    if not isinstance(double_bonus, bool):
        raise InputError(
            N_("double bonus must be true or false, not {value!r}"), value=double_bonus
        )
    if double_bonus and bonus + imposed_bonus < 1:
        raise InputError(
            N_("a double bonus doubles one bonus: give at least one bonus (rule P-M3)")
        )
    inputs = ActionRoll(bonus + imposed_bonus + int(double_bonus), malus + imposed_malus)
    _check_cap(state.options, inputs.bonus)
    result = resolve_action_roll(inputs, faces)
    move = draw_and_refill(
        cagnotte, inputs.bonus, inputs.malus, state.options, imposed_bonus=imposed_bonus
    )
    warnings = _double_warning(state) if double_bonus else ()
    payload: dict[str, JSON] = {
        "player": name,
        "bonus": bonus,
        "malus": malus,
        "imposed_bonus": imposed_bonus,
        "imposed_malus": imposed_malus,
        "double_bonus": double_bonus,
        **_result_json(result, state.options),
        "cagnotte": move.to_json(),
        "reasons": list(reasons),
    }
    fact = Fact("pouyss.roll", payload, actor=name, visibility=visibility)
    return Decision((fact,), result, warnings, move)


def _check_cap(options: PouyssOptions, bonus: int) -> None:
    if options.bonus_cap is not None and bonus > options.bonus_cap:
        raise RuleError(
            N_(
                "{bonus} bonus dice is more than this table's cap of {cap} (option bonus_cap, "
                "rule P-A6)"
            ),
            bonus=bonus,
            cap=options.bonus_cap,
        )


def _double_warning(state: PouyssState) -> tuple[TraceStep, ...]:
    if state.doubles + 1 > state.options.double_bonus_soft_limit:
        return (
            TraceStep(
                N_(
                    "warning: double bonus number {count} this session; the text "
                    "advises about one per scenario (P-M3, P-A7)"
                ),
                {"count": state.doubles + 1},
            ),
        )
    return ()


def _result_json(result: ActionResult, options: PouyssOptions) -> dict[str, JSON]:
    return {
        "faces": list(result.faces),
        "removed": list(result.removed),
        "kept": list(result.kept),
        "value": result.value,
        "level": result.level.id,
        "success": result.level.is_success(options.success_threshold),
    }


def decide_opposed(
    state: PouyssState,
    *,
    active: str,
    passive: str,
    passive_is_npc: bool = False,
    active_is_npc: bool = False,
    counts: OpposedRoll,
    faces: Sequence[int],
    visibility: str = "all",
) -> Decision:
    """Decide an opposed roll: one roll by the active side, the passive side mirrored.

    Args:
        state: current state (a session must be in progress).
        active, passive: the two sides; a player name, or an NPC's name when flagged.
        passive_is_npc, active_is_npc: the side is a non-player character (free name).
        counts: both sides' bonus and malus dice.
        faces: the converted roll's ``1 + Ba + Mp + Ma + Bp`` d6 values.
        visibility: who may see the roll.

    Raises:
        InputError: bad counts or faces, an unknown player, two NPCs.
        RuleError: an NPC active against a player character (P-M8); not enough dice in the
            cagnotte for the bonus dice this table's accounting draws (P-A9).

    Source: P-M8, P-A9, P-A11.
    """
    cagnotte = _require_session(state)
    if active_is_npc and passive_is_npc:
        raise InputError(N_("an opposed roll needs at least one player character (rule P-M8)"))
    if active_is_npc:
        raise RuleError(
            N_(
                "{npc} is a non-player character: against a player character the player "
                "character is always the active side (rule P-M8)"
            ),
            tip=N_("swap the sides: make {pc} active"),
            npc=active,
            pc=passive,
        )
    active_name = _player(state, active)
    if passive_is_npc:
        passive_name = clean_name(passive, what=N_("a non-player character's name"))
        if any(name_key(p) == name_key(passive_name) for p in state.players):
            raise InputError(
                N_("{name} is a player at this table, not a non-player character (rule P-M8)"),
                tip=N_("use --passive {name}"),
                name=passive_name,
            )
    else:
        passive_name = _player(state, passive)
    if name_key(passive_name) == name_key(active_name):
        raise InputError(
            N_("{name} cannot oppose themselves: an opposed roll needs two characters (rule P-M8)"),
            name=active_name,
        )
    _check_cap(state.options, counts.as_action().bonus)
    result = resolve_opposed_roll(counts, faces)
    drawn, deposited = opposed_cost(counts, state.options)
    move = draw_and_refill(cagnotte, drawn, deposited, state.options)
    payload: dict[str, JSON] = {
        "active": active_name,
        "passive": passive_name,
        "passive_is_npc": passive_is_npc,
        "active_bonus": counts.active_bonus,
        "active_malus": counts.active_malus,
        "passive_bonus": counts.passive_bonus,
        "passive_malus": counts.passive_malus,
        "bonus": counts.as_action().bonus,
        "malus": counts.as_action().malus,
        **_result_json(result.roll, state.options),
        "passive_value": result.passive_value,
        "passive_level": result.passive_level.id,
        "cagnotte": move.to_json(),
    }
    fact = Fact("pouyss.opposed", payload, actor=active_name, visibility=visibility)
    return Decision((fact,), result, (), move)


def decide_reward(
    state: PouyssState, *, amount: int, player: str | None = None, reason: str = ""
) -> Decision:
    """The narrator rewards role-play with 1 or 2 dice into the cagnotte.

    Warns (never blocks) once the reward dice in the option's scope pass the soft limit.

    Raises:
        InputError: ``amount`` not 1 or 2; an unknown player.
        RuleError: no session.

    Source: P-M7, P-A7.
    """
    cagnotte = _require_session(state)
    name = _player(state, player) if player else None
    move = reward(cagnotte, amount)
    total = state.rewards + amount
    warnings: tuple[TraceStep, ...] = ()
    if total > state.options.reward_soft_limit:
        template = (
            N_("warning: {total} reward dice this campaign, past the advised {limit} (P-M7, P-A7)")
            if state.options.reward_limit_scope == "campaign"
            else N_(
                "warning: {total} reward dice this session, past the advised {limit} (P-M7, P-A7)"
            )
        )
        warnings = (
            TraceStep(template, {"total": total, "limit": state.options.reward_soft_limit}),
        )
    payload = {"player": name, "amount": amount, "reason": reason, "cagnotte": move.to_json()}
    return Decision((Fact("pouyss.reward", payload, actor="gm"),), None, warnings, move)


def decide_penalty(
    state: PouyssState, *, amount: int, player: str | None = None, reason: str = ""
) -> Decision:
    """The narrator removes 1 or 2 dice from the cagnotte for poor play; never below 0.

    Always carries the text's advice that talking is usually better (P-M7).

    Raises:
        InputError: ``amount`` not 1 or 2; an unknown player.
        RuleError: no session; ``penalty_floor=refuse`` and too few dice.

    Source: P-M7, P-A8.
    """
    cagnotte = _require_session(state)
    name = _player(state, player) if player else None
    move = penalise(cagnotte, amount, state.options)
    warnings: tuple[TraceStep, ...] = (
        TraceStep(
            N_("note: the text advises talking with the player rather than removing dice (P-M7)")
        ),
    )
    if move.drawn < amount:
        warnings += (
            TraceStep(
                N_("the cagnotte held only {held}: it stops at 0 (P-A8)"), {"held": cagnotte}
            ),
        )
    payload = {"player": name, "amount": amount, "reason": reason, "cagnotte": move.to_json()}
    return Decision((Fact("pouyss.penalty", payload, actor="gm"),), None, warnings, move)


def decide_character(
    state: PouyssState, *, player: str, advantages: Sequence[str], disadvantages: Sequence[str]
) -> Decision:
    """Set a player's character: free-text advantages and disadvantages (P-A13).

    Raises:
        InputError: an unknown player or an empty entry.

    Source: P-A13, P-M3, P-M4.
    """
    name = _player(state, player)
    for entry in (*advantages, *disadvantages):
        if not entry.strip():
            raise InputError(N_("an advantage or disadvantage cannot be empty (rule P-A13)"))
    payload = {
        "player": name,
        "advantages": [a.strip() for a in advantages],
        "disadvantages": [d.strip() for d in disadvantages],
    }
    return Decision((Fact("pouyss.character_set", payload, actor="gm"),))


def decide_options(state: PouyssState, changes: Mapping[str, str]) -> Decision:
    """Change the table's house rules.

    Raises:
        InputError: an unknown option or a bad value.

    Source: P-A2, P-A6 to P-A10, P-M5.
    """
    options = state.options.with_changes(changes)
    return Decision((Fact("pouyss.options_set", {"options": options.to_json()}, actor="gm"),))
