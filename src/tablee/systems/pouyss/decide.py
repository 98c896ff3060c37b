"""How each Pouyss command is decided: the rules checked, the dice read, the events made.

Every ``decide_*`` function takes the current `PouyssState`, the declared command and, when
it rolls, the faces already thrown; it returns a `Decision`: the events to store (each
recording its outcome), the result to show, soft-limit warnings and the state after.

Source: seed 000 (whole); rulings P-M1 to P-M8, P-A2 to P-A13.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from tablee.dice import TraceStep
from tablee.errors import N_, InputError, RuleError
from tablee.systems.base import JSON, clean_name, name_key
from tablee.systems.common import player_named
from tablee.systems.event import Event
from tablee.systems.plugin import Decision
from tablee.systems.pouyss.actions import resolve_action_roll, resolve_opposed_roll
from tablee.systems.pouyss.cagnotte import (
    correct,
    draw_and_refill,
    opposed_cost,
    penalise,
    reward,
)
from tablee.systems.pouyss.commands import (
    CorrectCagnotte,
    Opposed,
    Penalty,
    Reward,
    Roll,
    SetCharacter,
    StartSession,
)
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
from tablee.systems.pouyss.odds import action_distribution
from tablee.systems.pouyss.options import PouyssOptions
from tablee.systems.pouyss.state import PouyssState, apply

__all__ = [
    "MAX_CAGNOTTE",
    "decide_character",
    "decide_correction",
    "decide_end_session",
    "decide_opposed",
    "decide_options",
    "decide_penalty",
    "decide_reward",
    "decide_roll",
    "decide_start_session",
    "odds_record",
]

MAX_CAGNOTTE = 10_000
"""Largest start value a narrator may set by hand (Tablée's limit, against typing mistakes)."""


def _decision(
    state: PouyssState,
    event: Event,
    *,
    actor: str | None = "gm",
    outcome: object = None,
    warnings: tuple[TraceStep, ...] = (),
) -> Decision[PouyssState]:
    return Decision((event,), apply(state, event), actor, "all", outcome, warnings)


def _player(state: PouyssState, name: str) -> str:
    return player_named(state.players, name)


def _require_session(state: PouyssState) -> int:
    if not state.in_session or state.cagnotte is None:
        raise RuleError(
            N_("no session is being played, so there is no cagnotte (rule P-M5)"),
            cli_tip=N_("start one with 'tablee pouyss session start'"),
        )
    return state.cagnotte


def decide_start_session(state: PouyssState, command: StartSession) -> Decision[PouyssState]:
    """Start a session and fill the cagnotte.

    Args:
        state: current state.
        command: ``carry_over`` keeps the last session's cagnotte (P-M5; None: the table
            option); ``cagnotte`` is a start value set by the narrator (0 or more),
            overriding both.

    Raises:
        RuleError: a session is already being played; carry-over with no previous session.
        InputError: a ``cagnotte`` out of 0 to `MAX_CAGNOTTE`.

    Source: P-M5, P-A12.
    """
    if state.in_session:
        raise RuleError(
            N_("session {session} is already being played"),
            session=state.session,
            cli_tip=N_("end it first with 'tablee pouyss session end'"),
        )
    carry_over, cagnotte = command.carry_over, command.cagnotte
    keep = state.options.carry_over if carry_over is None else carry_over
    if cagnotte is not None:
        if isinstance(cagnotte, bool) or not 0 <= cagnotte <= MAX_CAGNOTTE:
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
    return _decision(state, SessionStarted(state.session + 1, start, carried))


def decide_end_session(state: PouyssState) -> Decision[PouyssState]:
    """End the session being played; its cagnotte is kept for a campaign's next session.

    Raises:
        RuleError: no session is being played.

    Source: P-M5.
    """
    cagnotte = _require_session(state)
    return _decision(state, SessionEnded(state.session, cagnotte))


def odds_record(bonus: int, malus: int, threshold: int) -> dict[str, JSON]:
    """The exact odds shown before a roll, as stored in its event.

    Returns:
        ``{"levels": {value: "p/q"}, "success": "p/q", "threshold": t}`` for a roll with
        ``bonus`` and ``malus`` dice in all: a new dictionary at each call (its texts are
        worked out once per ``bonus, malus, threshold``, `_odds_texts`).

    Source: P-M1, P-A10.
    """
    levels, success = _odds_texts(bonus, malus, threshold)
    return {"levels": dict(levels), "success": success, "threshold": threshold}


@lru_cache(maxsize=1024)
def _odds_texts(bonus: int, malus: int, threshold: int) -> tuple[tuple[tuple[str, str], ...], str]:
    """The texts of `odds_record`: ``((value, "p/q") for 6 down to 1, success "p/q")``.

    A pure function of its three counts, kept for the counts a table rolls again and again
    (a roll's decision reads them every time; about 20 microseconds to work out).
    """
    from tablee.systems.pouyss.actions import ActionRoll

    dist = action_distribution(ActionRoll(bonus, malus))
    levels = tuple((str(v), dist.probability_text(v)) for v in range(6, 0, -1))
    return levels, dist.probability_text_where(lambda v: v >= threshold)


def decide_roll(state: PouyssState, command: Roll, faces: Sequence[int]) -> Decision[PouyssState]:
    """Decide an action roll: check the cagnotte, resolve the faces, account for the dice.

    Args:
        state: current state (a session must be in progress).
        command: who rolls; the bonus and malus dice asked for (0 or more); those imposed
            by the narrator (P-M6); an exceptional double bonus (one more die, needs a
            bonus; warned past the per-session soft limit, P-M3, P-A7); the reasons.
        faces: ``1 + all bonus + all malus`` d6 values.

    Raises:
        InputError: bad counts or faces, an unknown player, a double bonus with no bonus.
        RuleError: no session; more bonus dice than the cagnotte holds or the cap allows.

    Source: P-M1, P-M3, P-M5, P-M6, P-A2, P-A3, P-A6, P-A7.
    """
    name = _player(state, command.player)
    cagnotte = _require_session(state)
    _check_double(command.double_bonus, command.bonus + command.imposed_bonus)
    inputs = command.counts()
    _check_cap(state.options, inputs.bonus)
    result = resolve_action_roll(inputs, faces)
    move = draw_and_refill(
        cagnotte,
        inputs.bonus,
        inputs.malus,
        state.options,
        imposed_bonus=command.imposed_bonus,
    )
    warnings = _double_warning(state) if command.double_bonus else ()
    threshold = state.options.success_threshold
    event = Rolled(
        player=name,
        bonus=command.bonus,
        malus=command.malus,
        imposed_bonus=command.imposed_bonus,
        imposed_malus=command.imposed_malus,
        double_bonus=command.double_bonus,
        faces=result.faces,
        removed=result.removed,
        kept=result.kept,
        value=result.value,
        level=result.level.id,
        success=result.level.is_success(threshold),
        cagnotte=move,
        reasons=command.reasons,
        odds=odds_record(inputs.bonus, inputs.malus, threshold),
    )
    return _decision(state, event, actor=name, outcome=result, warnings=warnings)


def _check_double(double_bonus: bool, bonus: int) -> None:
    if double_bonus and bonus < 1:
        raise InputError(
            N_("a double bonus doubles one bonus: give at least one bonus (rule P-M3)")
        )


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
                    "advises about one per scenario"
                ),
                {"count": state.doubles + 1},
            ),
        )
    return ()


def _passive_name(state: PouyssState, command: Opposed, active: str) -> str:
    if command.passive is not None and command.passive_npc is not None:
        raise InputError(
            N_(
                "the passive side is a player character or a non-player character, not both "
                "(rule P-M8)"
            )
        )
    if command.passive is None and command.passive_npc is None:
        raise InputError(
            N_("name the passive side: a player character or a non-player character (rule P-M8)")
        )
    if command.passive_npc is not None:
        passive = clean_name(command.passive_npc, what=N_("a non-player character's name"))
        if any(name_key(p) == name_key(passive) for p in state.players):
            raise InputError(
                N_("{name} is a player at this table, not a non-player character (rule P-M8)"),
                cli_tip=N_("use --passive {name}"),
                name=passive,
            )
    else:
        passive = _player(state, command.passive or "")
    if name_key(passive) == name_key(active):
        raise InputError(
            N_("{name} cannot oppose themselves: an opposed roll needs two characters (rule P-M8)"),
            name=active,
        )
    return passive


def decide_opposed(
    state: PouyssState, command: Opposed, faces: Sequence[int]
) -> Decision[PouyssState]:
    """Decide an opposed roll: one roll by the active side, the passive side mirrored.

    The active side is always a player character (P-M8); the passive side is another
    player character (``passive``) or a non-player character (``passive_npc``). The
    narrator's imposed dice and the exceptional double bonus are checked as on an action
    roll and count as the active side's (P-X2).

    Args:
        state: current state (a session must be in progress).
        command: both sides and their bonus and malus dice; the dice imposed by the
            narrator on the roll (P-M6); a double bonus (one more die, needs an active-side
            bonus; warned past the per-session soft limit, P-M3, P-A7); the reasons.
        faces: the converted roll's ``1 + Ba + Ib + D + Mp + Ma + Im + Bp`` d6 values.

    Raises:
        InputError: bad counts or faces, an unknown player, both or neither passive sides,
            a double bonus with no active-side bonus.
        RuleError: no session; a bonus imposed on an empty cagnotte (P-M6); not enough dice
            in the cagnotte for the bonus dice this table's accounting draws (P-A9).

    Source: P-M3, P-M6, P-M8, P-A7, P-A9, P-A11, P-X2.
    """
    cagnotte = _require_session(state)
    active = _player(state, command.active)
    passive = _passive_name(state, command, active)
    _check_double(command.double_bonus, command.active_bonus + command.imposed_bonus)
    counts = command.counts()
    action = counts.as_action()
    _check_cap(state.options, action.bonus)
    result = resolve_opposed_roll(counts, faces)
    drawn, deposited = opposed_cost(counts, state.options)
    move = draw_and_refill(
        cagnotte, drawn, deposited, state.options, imposed_bonus=command.imposed_bonus
    )
    warnings = _double_warning(state) if command.double_bonus else ()
    threshold = state.options.success_threshold
    roll = result.roll
    event = OpposedRolled(
        active=active,
        passive=passive,
        passive_is_npc=command.passive_npc is not None,
        active_bonus=command.active_bonus,
        active_malus=command.active_malus,
        passive_bonus=counts.passive_bonus,
        passive_malus=counts.passive_malus,
        bonus=action.bonus,
        malus=action.malus,
        faces=roll.faces,
        removed=roll.removed,
        kept=roll.kept,
        value=roll.value,
        level=roll.level.id,
        success=roll.level.is_success(threshold),
        passive_value=result.passive_value,
        passive_level=result.passive_level.id,
        cagnotte=move,
        odds=odds_record(action.bonus, action.malus, threshold),
        imposed_bonus=command.imposed_bonus,
        imposed_malus=command.imposed_malus,
        double_bonus=command.double_bonus,
        reasons=command.reasons,
    )
    return _decision(state, event, actor=active, outcome=result, warnings=warnings)


def decide_reward(state: PouyssState, command: Reward) -> Decision[PouyssState]:
    """The narrator rewards role-play with 1 or 2 dice into the cagnotte.

    Warns (never blocks) once the reward dice in the option's scope pass the soft limit.

    Raises:
        InputError: ``amount`` not 1 or 2; an unknown player.
        RuleError: no session.

    Source: P-M7, P-A7.
    """
    cagnotte = _require_session(state)
    name = _player(state, command.player) if command.player else None
    move = reward(cagnotte, command.amount)
    total = state.rewards + command.amount
    warnings: tuple[TraceStep, ...] = ()
    if total > state.options.reward_soft_limit:
        template = (
            N_("warning: {total} reward dice this campaign, past the advised {limit}")
            if state.options.reward_limit_scope == "campaign"
            else N_("warning: {total} reward dice this session, past the advised {limit}")
        )
        warnings = (
            TraceStep(template, {"total": total, "limit": state.options.reward_soft_limit}),
        )
    event = Rewarded(name, command.amount, command.reason, move)
    return _decision(state, event, warnings=warnings)


def decide_penalty(
    state: PouyssState, command: Penalty, *, refuse_empty: bool = True
) -> Decision[PouyssState]:
    """The narrator removes 1 or 2 dice from the cagnotte for poor play; never below 0.

    Always carries the text's advice that talking is usually better (P-M7).

    Args:
        state: current state (a session must be in progress).
        command: 1 or 2 dice, the player concerned, why.
        refuse_empty: refuse a penalty on an empty cagnotte (P-X3, rules version 2);
            False decides as rules version 1 did, recording a penalty that removed nothing.

    Raises:
        InputError: ``amount`` not 1 or 2; an unknown player.
        RuleError: no session; an empty cagnotte (P-X3); ``penalty_floor=refuse`` and too
            few dice.

    Source: P-M7, P-A8, P-X3.
    """
    cagnotte = _require_session(state)
    name = _player(state, command.player) if command.player else None
    move = penalise(cagnotte, command.amount, state.options, refuse_empty=refuse_empty)
    warnings: tuple[TraceStep, ...] = (
        TraceStep(N_("note: the text advises talking with the player rather than removing dice")),
    )
    if move.drawn < command.amount:
        warnings += (
            TraceStep(N_("the cagnotte held only {held}: it stops at 0"), {"held": cagnotte}),
        )
    event = Penalised(name, command.amount, command.reason, move)
    return _decision(state, event, warnings=warnings)


def decide_correction(state: PouyssState, command: CorrectCagnotte) -> Decision[PouyssState]:
    """The narrator corrects the cagnotte to the count it should hold, with a reason.

    A correction is neither a reward nor a penalty: it counts towards no soft limit and
    carries no advice (P-X1).

    Raises:
        InputError: a blank reason; a value out of 0 to `MAX_CAGNOTTE`.
        RuleError: no session; the cagnotte already holds that value.

    Source: P-M5, P-X1.
    """
    cagnotte = _require_session(state)
    move = correct(cagnotte, command.value, command.reason)
    return _decision(state, CagnotteCorrected(command.value, command.reason.strip(), move))


def decide_character(state: PouyssState, command: SetCharacter) -> Decision[PouyssState]:
    """Set a player's character: free-text advantages and disadvantages (P-A13).

    Raises:
        InputError: an unknown player or an empty entry.

    Source: P-A13, P-M3, P-M4.
    """
    name = _player(state, command.player)
    for entry in (*command.advantages, *command.disadvantages):
        if not entry.strip():
            raise InputError(N_("an advantage or disadvantage cannot be empty (rule P-A13)"))
    event = CharacterSet(
        name,
        tuple(a.strip() for a in command.advantages),
        tuple(d.strip() for d in command.disadvantages),
    )
    return _decision(state, event)


def decide_options(state: PouyssState, changes: Mapping[str, str]) -> Decision[PouyssState]:
    """Change the table's house rules.

    Raises:
        InputError: an unknown option or a bad value.

    Source: P-A2, P-A6 to P-A10, P-M5.
    """
    options = state.options.with_changes(changes)
    return _decision(state, OptionsSet(options.to_json()))
