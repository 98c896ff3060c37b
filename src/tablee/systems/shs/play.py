"""Rolled decisions at an SHS table: a Test, an opposed Action, cooperation, a simultaneous set.

Each takes the dice faces already thrown (it never rolls) and stores, for every Action, its
inputs (Protagoniste, Caractéristique, Difficulty, Expertise, own bonus and malus, option,
faces), what the table gave it (threshold, die, temporary modifiers, the dice asked for) and
its results (PS at each step, success, NT gained, death). The ``plan_*`` functions give what
to roll before deciding: the core's `Test` or `OpposedAction` with the table's modifiers.

Temporary modifiers in force for a Protagoniste (S-M3) apply by themselves to every Action it
rolls: Tests, opposed Actions, cooperation and simultaneous sets. When a stored fact is
replayed (``expect`` given), what the table gave must be what it gives now, else RuleError:
this refuses an undo that would change a later roll.

Fact kinds: ``shs.test``, ``shs.opposed``, ``shs.cooperation``, ``shs.simultaneous`` (a set
of Tests and at most one opposed Action, S-X5); the plugin stores them at their current
versions (`tablee.systems.shs.events`), with the exact odds shown before the roll
(`tablee.systems.shs.display.odds_record`), which these functions leave out.

Source: seed 003, "Résoudre les Actions", "Options", "Coopération", "Actions simultanées",
"Protagoniste contre Protagoniste"; rulings S-M1 to S-M8, S-A2 to S-A8, S-A14, S-T6.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tablee.errors import N_, InputError
from tablee.systems.base import JSON, Fact
from tablee.systems.shs.clock import record_acted
from tablee.systems.shs.difficulty import Test, TestResult, resolve_test
from tablee.systems.shs.game import Decision, ShsState, actor_of, check_visibility, free_text
from tablee.systems.shs.opposed import (
    OpposedAction,
    OpposedResult,
    Side,
    net_across,
    resolve_opposed,
)
from tablee.systems.shs.planning import (
    Attempt,
    Faces,
    OpposedInSet,
    Planned,
    acted_again,
    action_json,
    as_test,
    context_of,
    due_long_action,
    expected_part,
    faces_pair,
    json_of_test,
    match_context,
    paid,
    plan_attempt,
    planned_test,
)
from tablee.systems.shs.situations import (
    Cooperation,
    CooperationResult,
    resolve_cooperation,
    simultaneous_set,
    with_situation,
)

__all__ = [
    "Attempt",
    "Faces",
    "OpposedInSet",
    "decide_cooperation",
    "decide_opposed",
    "decide_simultaneous",
    "decide_test",
    "plan_cooperation",
    "plan_opposed",
    "plan_simultaneous",
    "plan_simultaneous_set",
    "plan_test",
]

P = Mapping[str, JSON]


def _acted(
    state: ShsState, fact: Fact, outcome: object, heroes: dict[str, Any], names: list[str]
) -> Decision:
    """A rolled fact's decision: Protagonistes paid and marked as acting this Tour (S-X3).

    Those who had already rolled in this Tour get a notice (`acted_again`).
    """
    clock = record_acted(state.clock, names)
    after = replace(state, protagonists=heroes, clock=clock)
    return Decision((fact,), outcome, acted_again(state, names), after)


def plan_test(state: ShsState, attempt: Attempt) -> Test:
    """The Test to roll for an Attempt, with the temporary modifiers in force.

    Returns:
        The core's `Test`: `tablee.systems.shs.actions.dice_for_action` of its ``action``
        says which dice to throw.

    Raises:
        NotFoundError: an unknown Protagoniste or Expertise.
        InputError: a bad Caractéristique, Difficulty, bonus or malus (threshold, S-A4).
        RuleError: the Protagoniste is dead; both options at once (S-M5).

    Source: seed 003; S-M1, S-M2, S-M3, S-M5, S-A2, S-A4.
    """
    test = planned_test(state, attempt, test=True)[1]
    assert test is not None  # a Test was asked for
    return test


def decide_test(
    state: ShsState,
    attempt: Attempt,
    *,
    action_faces: Sequence[int],
    dpm_faces: Sequence[int],
    long_action: str | None = None,
    reason: str = "",
    visibility: str = "all",
    expect: P | None = None,
) -> Decision:
    """Decide a Test (S-M2): PS of the thrown faces against the Difficulty, and the price.

    Args:
        state: current state.
        attempt: the Protagoniste, Caractéristique, Difficulty, Expertise, modifiers, option.
        action_faces: the action dice thrown (see `plan_test`).
        dpm_faces: the D+/- dice thrown, in the core's group order.
        long_action: the label of this Protagoniste's Action over several Tours rolled now,
            in its last Tour (S-T6); it is then over.
        reason: free text kept in the log.
        visibility: who may see the fact.
        expect: the stored payload, when replaying.

    Returns:
        The decision; its outcome is the core's `TestResult`.

    Raises:
        InputError: as `plan_test`; faces of the wrong number or range; bad visibility.
        NotFoundError: an unknown Protagoniste, Expertise or long Action.
        RuleError: as `plan_test`; a long Action before its last Tour; on replay, a table
            that gives this Action other modifiers or dice than when it was rolled.

    Source: seed 003; S-M2, S-M3, S-M5, S-M8, S-A3, S-A8, S-T6.
    """
    visibility, reason = check_visibility(visibility), free_text(reason)
    planned = plan_attempt(state, attempt, test=True)
    test = as_test(planned, planned.roll)
    due = None if long_action is None else due_long_action(state, planned.name, long_action)
    match_context(expect, context_of(state, planned, test.action), planned.name)
    result = resolve_test(test, action_faces, dpm_faces, state.options)
    payload = {
        **json_of_test(state, planned, test, result),
        "long_action": None if due is None else due.label,
        "reason": reason,
    }
    clock = state.clock
    if due is not None:
        clock = replace(clock, long_actions=tuple(a for a in clock.long_actions if a != due))
    heroes = paid(state.protagonists, [(planned.name, result.roll)])
    notes = acted_again(state, [planned.name])
    after = replace(state, protagonists=heroes, clock=record_acted(clock, [planned.name]))
    fact = Fact("shs.test", payload, actor=actor_of(state, planned.name), visibility=visibility)
    return Decision((fact,), result, notes, after)


def _side(value: object) -> Side | None:
    if value is None or isinstance(value, Side):
        return value
    if value in ("first", "second"):
        return Side(value)
    raise InputError(
        N_("the side seeking change is first, second or none, not {value!r} (rule S-A5)"),
        value=value,
    )


def _two_sides(state: ShsState, first: Attempt, second: Attempt) -> tuple[Planned, Planned]:
    one, two = plan_attempt(state, first, test=False), plan_attempt(state, second, test=False)
    if one.name == two.name:
        raise InputError(
            N_(
                "{name} cannot oppose themselves: an opposed Action needs two Protagonistes "
                "(rule S-M4)"
            ),
            name=one.name,
        )
    return one, two


def _opposed_plan(
    state: ShsState, first: Attempt, second: Attempt, changer: object
) -> tuple[Planned, Planned, OpposedAction]:
    one, two = _two_sides(state, first, second)
    rolls = net_across(one.roll, two.roll, state.options)
    return one, two, OpposedAction(*rolls, _side(changer))


def _opposed_json(
    state: ShsState,
    sides: tuple[Planned, Planned],
    inputs: OpposedAction,
    result: OpposedResult,
    first_malus: int = 0,
) -> dict[str, JSON]:
    """An opposed Action as stored: both sides, the side seeking change, who prevails."""
    one, two = sides
    return {
        "first": action_json(state, one, inputs.first, result.first, (0, first_malus)),
        "second": action_json(state, two, inputs.second, result.second),
        "changer": None if inputs.changer is None else inputs.changer.value,
        "winner": None if result.winner is None else result.winner.value,
        "tie": result.tie,
        "reroll": result.reroll,
        "status_quo": result.status_quo,
    }


def plan_opposed(
    state: ShsState, first: Attempt, second: Attempt, changer: str | None = "first"
) -> OpposedAction:
    """The opposed Action to roll, each side with its own and temporary modifiers.

    Args:
        state: current state.
        first, second: the two Protagonistes' Attempts (no Difficulty).
        changer: ``first``, ``second`` (the side seeking change) or None (S-A5).

    Raises:
        InputError: the same Protagoniste twice, a Difficulty, a bad side or field.
        NotFoundError: an unknown Protagoniste or Expertise.
        RuleError: a dead Protagoniste; both options on one side.

    Source: seed 003; S-M1, S-M3, S-M4, S-A5, S-A6.
    """
    return _opposed_plan(state, first, second, changer)[2]


def decide_opposed(
    state: ShsState,
    first: Attempt,
    second: Attempt,
    *,
    first_faces: Faces,
    second_faces: Faces,
    changer: str | None = "first",
    reason: str = "",
    visibility: str = "all",
    expect: P | None = None,
) -> Decision:
    """Decide a Protagoniste against Protagoniste Action (S-M4): the more PS wins.

    Each side pays its own option's price (NT +1, death), also on a tie rolled again.

    Args:
        state: current state.
        first, second: the two Attempts (no Difficulty).
        first_faces, second_faces: each side's ``(action faces, D+/- faces)``.
        changer: the side seeking change, or None (ties, S-A5).
        reason: free text kept in the log.
        visibility: who may see the fact.
        expect: the stored payload, when replaying.

    Returns:
        The decision; its outcome is the core's `OpposedResult`.

    Raises:
        InputError, NotFoundError, RuleError: as `plan_opposed`; bad faces; on replay, a
            table that gives a side other modifiers or dice (RuleError).

    Source: seed 003; S-M3, S-M4, S-M5, S-A3, S-A5, S-A8, S-T9.
    """
    visibility, reason = check_visibility(visibility), free_text(reason)
    one, two, inputs = _opposed_plan(state, first, second, changer)
    match_context(expected_part(expect, "first"), context_of(state, one, inputs.first), one.name)
    match_context(expected_part(expect, "second"), context_of(state, two, inputs.second), two.name)
    result: OpposedResult = resolve_opposed(
        inputs, faces_pair(first_faces), faces_pair(second_faces), state.options
    )
    payload = {**_opposed_json(state, (one, two), inputs, result), "reason": reason}
    heroes = paid(state.protagonists, [(one.name, result.first), (two.name, result.second)])
    names = [one.name, two.name]
    fact = Fact("shs.opposed", payload, actor=actor_of(state, one.name), visibility=visibility)
    return _acted(state, fact, result, heroes, names)


def _distinct(planned: Sequence[Planned], template: str) -> None:
    names = [p.name for p in planned]
    for name in names:
        if names.count(name) > 1:
            raise InputError(template, name=name)


def _cooperation_plan(
    state: ShsState, members: Sequence[Attempt]
) -> tuple[list[Planned], Cooperation, tuple[Test, ...]]:
    planned = [plan_attempt(state, m, test=True) for m in members]
    _distinct(planned, N_("{name} appears twice among the cooperators (rule S-M6)"))
    cooperation = Cooperation(tuple(as_test(p, p.roll) for p in planned))
    return planned, cooperation, cooperation.tests(state.options)


def plan_cooperation(state: ShsState, members: Sequence[Attempt]) -> tuple[Test, ...]:
    """Each cooperator's Test to roll, with the cooperation's Bonus 1 and temporary modifiers.

    Raises:
        InputError: fewer than 2 cooperators, one twice, different Difficulties, a bad field.
        NotFoundError: an unknown Protagoniste or Expertise.
        RuleError: a dead cooperator; an option the table forbids when cooperating (S-A14).

    Source: seed 003, "Coopération"; S-M6, S-A14, S-T5.
    """
    return _cooperation_plan(state, members)[2]


def decide_cooperation(
    state: ShsState,
    members: Sequence[Attempt],
    *,
    faces: Sequence[Faces],
    reason: str = "",
    visibility: str = "all",
    expect: P | None = None,
) -> Decision:
    """Decide a cooperation (S-M6): each rolls with Bonus 1; one success is the group's.

    Args:
        state: current state.
        members: the cooperators' Attempts, 2 or more, one Difficulty.
        faces: per cooperator, ``(action faces, D+/- faces)`` for `plan_cooperation`'s Test.
        reason: free text kept in the log.
        visibility: who may see the fact.
        expect: the stored payload, when replaying.

    Returns:
        The decision; its outcome is the core's `CooperationResult`.

    Raises:
        InputError, NotFoundError, RuleError: as `plan_cooperation`; bad faces; on replay,
            a table that gives a cooperator other modifiers or dice (RuleError).

    Source: seed 003; S-M5, S-M6, S-A14, S-T5.
    """
    visibility, reason = check_visibility(visibility), free_text(reason)
    planned, cooperation, tests = _cooperation_plan(state, members)
    for index, (p, test) in enumerate(zip(planned, tests, strict=True)):
        match_context(
            expected_part(expect, "members", index), context_of(state, p, test.action), p.name
        )
    result: CooperationResult = resolve_cooperation(
        cooperation, [faces_pair(f) for f in faces], state.options
    )
    payload: dict[str, JSON] = {
        "members": [
            json_of_test(state, p, t, r, situation=(1, 0))
            for p, t, r in zip(planned, tests, result.results, strict=True)
        ],
        "success": result.success,
        "reason": reason,
    }
    heroes = paid(
        state.protagonists, [(p.name, r.roll) for p, r in zip(planned, result.results, strict=True)]
    )
    names = [p.name for p in planned]
    actor = actor_of(state, planned[0].name)
    fact = Fact("shs.cooperation", payload, actor=actor, visibility=visibility)
    return _acted(state, fact, result, heroes, names)


@dataclass(frozen=True)
class _SetPlan:
    """A simultaneous set checked against the table, with the set's Malus."""

    name: str
    planned: list[Planned]
    tests: tuple[Test, ...]
    sides: tuple[Planned, Planned] | None
    opposed: OpposedAction | None
    set_malus: int


def _simultaneous_plan(
    state: ShsState,
    actions: Sequence[Attempt],
    trivial: int,
    opposed: OpposedInSet | None = None,
) -> _SetPlan:
    planned = [plan_attempt(state, a, test=True) for a in actions]
    sides = None if opposed is None else _two_sides(state, opposed.side, opposed.against)
    names = {p.name for p in planned} | ({sides[0].name} if sides else set())
    if len(names) > 1:
        raise InputError(
            N_("a simultaneous set is one Protagoniste's Actions, not {names}'s (rule S-M7)"),
            names=", ".join(sorted(names)),
        )
    tests, side, set_malus = simultaneous_set(
        [as_test(p, p.roll) for p in planned],
        None if sides is None else sides[0].roll,
        trivial=trivial,
        options=state.options,
    )
    inputs = None
    if sides is not None and side is not None and opposed is not None:
        rolls = net_across(side, sides[1].roll, state.options)
        inputs = OpposedAction(*rolls, _side(opposed.changer))
    name = planned[0].name if planned else sides[0].name if sides else ""
    return _SetPlan(name, planned, tests, sides, inputs, set_malus)


def plan_simultaneous(
    state: ShsState, actions: Sequence[Attempt], trivial: int = 0
) -> tuple[Test, ...]:
    """The Tests of one Protagoniste's simultaneous set, each with the set's Malus k - 1.

    Args:
        state: current state.
        actions: the rolled Actions, 1 or more, all by one Protagoniste.
        trivial: trivial Actions attempted at the same time (they count, S-M7).

    Raises:
        InputError: no Action, several Protagonistes, a bad count or field.
        NotFoundError: an unknown Protagoniste or Expertise.
        RuleError: a dead Protagoniste; an option on a second Action of the set (S-M5).

    Source: seed 003, "Actions simultanées"; S-M5, S-M7, S-T10, S-T11.
    """
    return _simultaneous_plan(state, actions, trivial).tests


def plan_simultaneous_set(
    state: ShsState,
    actions: Sequence[Attempt],
    trivial: int = 0,
    opposed: OpposedInSet | None = None,
) -> tuple[tuple[Test, ...], OpposedAction | None]:
    """What a simultaneous set rolls: its Tests, then its opposed Action, if any (S-X5).

    The opposed Action counts as one Action of the set (after the Tests): the set's
    Protagoniste's side takes the set's Malus k - 1 and counts for the one-option check;
    the opponent's side keeps its own and temporary modifiers. The sides are then netted
    across as the table says (``opposed_modifiers``, S-X4).

    Args:
        state: current state.
        actions: the set's Tests' Attempts (0 or more when there is an opposed Action).
        trivial: trivial Actions attempted at the same time (they count, S-M7).
        opposed: the opposed Action in the set, or None.

    Returns:
        ``(tests, opposed)``: each Test with the set's Malus, and the `OpposedAction` to
        roll (first side: the set's Protagoniste), or None.

    Raises:
        InputError: no Action at all, several Protagonistes in the set, an opponent who is
            the set's Protagoniste, a bad count, side or field.
        NotFoundError: an unknown Protagoniste or Expertise.
        RuleError: a dead Protagoniste; an option on a second Action of the set, the
            opposed side included (S-M5).

    Source: seed 003, "Actions simultanées", "Protagoniste contre Protagoniste"; S-M4, S-M5,
    S-M7, S-A5, S-X4, S-X5.
    """
    plan = _simultaneous_plan(state, actions, trivial, opposed)
    return plan.tests, plan.opposed


def decide_simultaneous(
    state: ShsState,
    actions: Sequence[Attempt],
    *,
    faces: Sequence[Faces],
    trivial: int = 0,
    opposed: OpposedInSet | None = None,
    opposed_faces: tuple[Faces, Faces] | None = None,
    reason: str = "",
    visibility: str = "all",
    expect: P | None = None,
) -> Decision:
    """Decide a set of simultaneous Actions (S-M7): every Action with the extra Malus.

    A set may hold one opposed Action (S-X5), rolled after the Tests: the set's
    Protagoniste's side takes the set's Malus, the opponent rolls as in any opposed Action,
    and the higher total prevails (ties: S-A5). The opponent pays their own option's price
    and is marked as acting in this Tour too (S-X3).

    Args:
        state: current state.
        actions: the rolled Tests, all by one Protagoniste.
        faces: per Test, ``(action faces, D+/- faces)`` for `plan_simultaneous_set`'s Test.
        trivial: trivial Actions attempted at the same time, 0 or more.
        opposed: the opposed Action in the set, or None.
        opposed_faces: with ``opposed``, each side's ``(action faces, D+/- faces)``: the
            set's Protagoniste's, then the opponent's.
        reason: free text kept in the log.
        visibility: who may see the fact.
        expect: the stored payload, when replaying.

    Returns:
        The decision; its outcome is each Action's result in order: the core's `TestResult`
        of each Test, then the `OpposedResult` of the opposed Action, if any.

    Raises:
        InputError, NotFoundError, RuleError: as `plan_simultaneous_set`; not one pair of
            faces per Test, or opposed faces missing or given without an opposed Action; on
            replay, a table that gives an Action other modifiers (RuleError).

    Source: seed 003; S-M4, S-M5, S-M7, S-A5, S-T10, S-T11, S-X5.
    """
    visibility, reason = check_visibility(visibility), free_text(reason)
    plan = _simultaneous_plan(state, actions, trivial, opposed)
    planned, tests, set_malus = plan.planned, plan.tests, plan.set_malus
    if (plan.opposed is None) != (opposed_faces is None):
        raise InputError(
            N_(
                "an opposed Action in a simultaneous set needs both sides' faces, and faces "
                "for it need that Action (rule S-X5)"
            )
        )
    for index, (p, test) in enumerate(zip(planned, tests, strict=True)):
        match_context(
            expected_part(expect, "actions", index), context_of(state, p, test.action), p.name
        )
    if len(faces) != len(tests):
        raise InputError(
            N_("{count} simultaneous Actions need {count} sets of faces, not {given}"),
            count=len(tests),
            given=len(faces),
        )
    results = tuple(
        with_situation(resolve_test(t, *faces_pair(f), state.options), malus=set_malus)
        for t, f in zip(tests, faces, strict=True)
    )
    name = plan.name
    payload: dict[str, JSON] = {
        "protagonist": name,
        "trivial": trivial,
        "set_malus": set_malus,
        "actions": [
            json_of_test(state, p, t, r, situation=(0, set_malus))
            for p, t, r in zip(planned, tests, results, strict=True)
        ],
        "opposed": None,
        "reason": reason,
    }
    prices = [(name, r.roll) for r in results]
    outcome: tuple[TestResult | OpposedResult, ...] = results
    names = [name]
    if plan.sides is not None and plan.opposed is not None and opposed_faces is not None:
        one, two = plan.sides
        stored = expected_part(expect, "opposed")
        match_context(
            expected_part(stored, "first"), context_of(state, one, plan.opposed.first), one.name
        )
        match_context(
            expected_part(stored, "second"), context_of(state, two, plan.opposed.second), two.name
        )
        first_faces, second_faces = opposed_faces
        fought = resolve_opposed(
            plan.opposed,
            faces_pair(first_faces),
            faces_pair(second_faces),
            state.options,
            first_malus=set_malus,
        )
        payload["opposed"] = _opposed_json(state, plan.sides, plan.opposed, fought, set_malus)
        prices += [(one.name, fought.first), (two.name, fought.second)]
        outcome = (*results, fought)
        names.append(two.name)
    heroes = paid(state.protagonists, prices)
    fact = Fact("shs.simultaneous", payload, actor=actor_of(state, name), visibility=visibility)
    return _acted(state, fact, outcome, heroes, names)
