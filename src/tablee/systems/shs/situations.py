"""Special situations: cooperation and simultaneous Actions.

Cooperation: each cooperating Protagoniste gets a Bonus of 1 and rolls a Test with their own
Caractéristique and Expertise against one shared Difficulty; the group succeeds when at
least one of them reaches it. Simultaneous Actions: a Protagoniste attempting k Actions at
once takes a Malus of k - 1 on every one of them; trivial Actions, which succeed without a
roll, still count towards k; at most one Action of the set may use an option. A set may hold
one opposed Action (Tablée's reading S-X5): the set's Malus goes on the acting Protagoniste's
side only, and that side's option counts among the set's.

Source: seed 003, "Coopération", "Actions simultanées", "Options"; rulings S-M5, S-M6,
S-M7, S-A14, S-T5, S-T10, S-T11, S-X5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from tablee.dice import LazyTrace, Trace, TraceStep
from tablee.errors import N_, InputError, Message, RuleError
from tablee.systems.common import whole
from tablee.systems.shs.actions import DEFAULT_OPTIONS, ActionResult, ActionRoll, Option
from tablee.systems.shs.difficulty import Test, TestResult, resolve_test
from tablee.systems.shs.options import ShsOptions

__all__ = [
    "MAX_SIMULTANEOUS",
    "Cooperation",
    "CooperationResult",
    "group_succeeds",
    "resolve_cooperation",
    "simultaneous_actions",
    "simultaneous_set",
    "situation_steps",
    "with_situation",
]

MAX_SIMULTANEOUS = 20
"""Most Actions (rolled and trivial) in one simultaneous set (Tablée's limit on input)."""

A = TypeVar("A", Test, ActionRoll)


def situation_steps(bonus: int, malus: int) -> tuple[TraceStep, ...]:
    """The steps naming the situation's modifiers on an Action, before its dice.

    Args:
        bonus: the cooperation's Bonus (1 for a cooperator, S-M6), else 0.
        malus: the simultaneous set's Malus (k - 1, S-M7), else 0.

    Returns:
        One step per modifier that is not 0, in that order; none when both are 0.

    Source: seed 003, "Coopération", "Actions simultanées"; S-M6, S-M7, S-T5, S-T10.
    """
    steps = []
    if bonus:
        steps.append(TraceStep(N_("cooperation: a Bonus of {bonus}"), {"bonus": bonus}))
    if malus:
        steps.append(
            TraceStep(N_("simultaneous Actions: a Malus of {malus} on each"), {"malus": malus})
        )
    return tuple(steps)


def with_situation(result: TestResult, *, bonus: int = 0, malus: int = 0) -> TestResult:
    """The Test's result with the situation's modifiers named first in its trace.

    Source: seed 003; S-M6, S-M7.
    """
    if not bonus and not malus:
        return result  # no step to add
    situated = partial(_situated, bonus, malus, result)
    return TestResult(result.roll, result.difficulty, result.success, situated)


def _situated(bonus: int, malus: int, result: TestResult | ActionResult) -> Trace:
    """The situation's steps, then the result's own (built when first read)."""
    return (*situation_steps(bonus, malus), *result.trace)


def simultaneous_actions(
    actions: Sequence[A], *, trivial: int = 0, options: ShsOptions = DEFAULT_OPTIONS
) -> tuple[A, ...]:
    """The rolled Actions of a simultaneous set, each with the set's extra Malus.

    Args:
        actions: the Actions that are rolled (Tests or opposed rolls), 1 or more.
        trivial: trivial Actions attempted at the same time, 0 or more; they succeed without
            a roll but count towards the malus unless ``trivial_actions_count`` is off.
        options: house rules.

    Returns:
        The same Actions in order, each with ``k - 1`` more malus, k the number counted.

    Raises:
        InputError: no rolled Action, a negative ``trivial``, or more than `MAX_SIMULTANEOUS`.
        RuleError: an option on a second Action of the set (S-M5).

    Source: seed 003; S-M5, S-M7, S-T10, S-T11.
    """
    whole(trivial, Message(N_("trivial Actions")), 0, rule="S-M7")
    if not actions or len(actions) + trivial > MAX_SIMULTANEOUS:
        raise InputError(
            N_("a simultaneous set needs 1 to {maximum} Actions, not {count} (rule S-M7)"),
            maximum=MAX_SIMULTANEOUS,
            count=len(actions) + trivial,
        )
    with_option = [i for i, a in enumerate(actions) if a.option is not Option.NONE]
    if len(with_option) > 1:
        raise RuleError(
            N_(
                "Action {number} of a simultaneous set uses {option}, but Action {first} "
                "already uses an option (rule S-M5: one option per set)"
            ),
            tip=N_("keep the option on one Action only"),
            number=with_option[1] + 1,
            option=actions[with_option[1]].option.title,
            first=with_option[0] + 1,
        )
    k = len(actions) + (trivial if options.trivial_actions_count else 0)
    return tuple(a.with_modifiers(malus=k - 1) for a in actions)


def simultaneous_set(
    tests: Sequence[Test],
    opposed: ActionRoll | None = None,
    *,
    trivial: int = 0,
    options: ShsOptions = DEFAULT_OPTIONS,
) -> tuple[tuple[Test, ...], ActionRoll | None, int]:
    """A simultaneous set of Tests and at most one opposed Action, with the set's Malus.

    The opposed Action counts as one Action of the set, numbered after the Tests; only the
    acting Protagoniste's side is given here, and only that side takes the set's Malus and
    counts for the one-option check (S-X5). The opponent's side is not part of the set.

    Args:
        tests: the set's Tests, in order (0 or more).
        opposed: the acting Protagoniste's side of an opposed Action in the set, or None.
        trivial: trivial Actions attempted at the same time (see `simultaneous_actions`).
        options: house rules.

    Returns:
        ``(tests, side, set_malus)``: the Tests and the side each with ``set_malus`` more
        malus, and ``set_malus`` = k - 1, k the number of Actions counted.

    Raises:
        InputError, RuleError: as `simultaneous_actions` (no rolled Action; an option on a
            second Action, the opposed side included).

    Source: seed 003, "Actions simultanées", "Options"; S-M5, S-M7, S-X5.
    """
    rolls = [t.action for t in tests] + ([] if opposed is None else [opposed])
    rolled = simultaneous_actions(rolls, trivial=trivial, options=options)
    set_malus = rolled[0].malus - rolls[0].malus
    side = None if opposed is None else opposed.with_modifiers(malus=set_malus)
    return tuple(t.with_modifiers(malus=set_malus) for t in tests), side, set_malus


@dataclass(frozen=True)
class Cooperation:
    """Protagonistes cooperating on one Action, each with their own Test.

    Attributes:
        members: each cooperator's Test *before* the cooperation bonus, 2 or more, all with
            the same Difficulty.

    Raises:
        InputError: fewer than 2 members, or different Difficulties.

    Source: seed 003; S-M6, S-A14.
    """

    members: tuple[Test, ...]

    def __post_init__(self) -> None:
        members = tuple(self.members)
        object.__setattr__(self, "members", members)
        if len(members) < 2 or not all(isinstance(m, Test) for m in members):
            raise InputError(
                N_("cooperation needs the Tests of 2 or more Protagonistes (rule S-M6)")
            )
        difficulties = sorted({m.difficulty for m in members})
        if len(difficulties) > 1:
            raise InputError(
                N_("cooperating Protagonistes share one Difficulty, not {values} (rule S-M6)"),
                values=", ".join(str(d) for d in difficulties),
            )

    @property
    def difficulty(self) -> int:
        """The shared Difficulty."""
        return self.members[0].difficulty

    def tests(self, options: ShsOptions = DEFAULT_OPTIONS) -> tuple[Test, ...]:
        """Each member's Test with the cooperation's Bonus 1.

        Raises:
            RuleError: a member uses an option while ``cooperation_options`` is off (S-A14).

        The Tests are kept for the last ``options`` asked about (the members never change).
        """
        last = self.__dict__.get("_tests")
        if last is not None and last[0] is options:
            return last[1]  # type: ignore[no-any-return]
        if not options.cooperation_options:
            for number, member in enumerate(self.members, start=1):
                if member.option is not Option.NONE:
                    raise RuleError(
                        N_(
                            "cooperator {number} uses {option}, but this table allows no "
                            "option when cooperating (option cooperation_options, S-A14)"
                        ),
                        number=number,
                        option=member.option.title,
                    )
        tests = tuple(m.with_modifiers(bonus=1) for m in self.members)
        self.__dict__["_tests"] = (options, tests)
        return tests


@dataclass(frozen=True)
class CooperationResult:
    """Outcome of a cooperation.

    Attributes:
        results: each member's Test result, in order.
        success: at least one member reached the Difficulty.
        trace: the steps (built when first read: `tablee.dice.LazyTrace`).

    Source: seed 003, "Coopération"; S-M6.
    """

    results: tuple[TestResult, ...]
    success: bool
    trace: LazyTrace = LazyTrace()  # noqa: RUF009 - a descriptor: reads give the Trace


def group_succeeds(successes: Sequence[bool]) -> bool:
    """Whether a cooperation succeeds from its members' outcomes: at least one reached it.

    Source: seed 003, "Coopération"; S-M6, S-T5.
    """
    return any(successes)


def resolve_cooperation(
    inputs: Cooperation,
    faces: Sequence[tuple[Sequence[int], Sequence[int]]],
    options: ShsOptions = DEFAULT_OPTIONS,
) -> CooperationResult:
    """Resolve a cooperation: every member rolls their Test with Bonus 1.

    Args:
        inputs: the members' Tests.
        faces: per member, in order, ``(action faces, D+/- faces)`` for the Test *with* the
            Bonus 1 (see `Cooperation.tests` and `tablee.systems.shs.actions.dice_for_action`).
        options: house rules.

    Raises:
        InputError: not one pair of faces per member, or faces that do not fit.
        RuleError: an option that the table forbids when cooperating.

    Source: seed 003; S-M6, S-A14, S-T5.
    """
    tests = inputs.tests(options)
    if len(faces) != len(tests):
        raise InputError(
            N_("{count} cooperators need {count} sets of faces, not {given}"),
            count=len(tests),
            given=len(faces),
        )
    results = tuple(
        with_situation(resolve_test(t, action, dpm, options), bonus=1)
        for t, (action, dpm) in zip(tests, faces, strict=True)
    )
    success = group_succeeds([r.success for r in results])
    return CooperationResult(results, success, partial(_cooperation_steps, results, success))


def _cooperation_steps(results: tuple[TestResult, ...], success: bool) -> Trace:
    """The steps of `resolve_cooperation` (built when first read)."""
    steps: list[TraceStep] = [TraceStep(N_("each cooperator gets a Bonus of 1"))]
    for number, result in enumerate(results, start=1):
        steps.append(TraceStep(N_("cooperator {number}:"), {"number": number}))
        steps.extend(result.trace)
    steps.append(
        TraceStep(
            N_("at least one cooperator succeeded: the group succeeds")
            if success
            else N_("no cooperator reached the Difficulty: the group fails")
        )
    )
    return tuple(steps)
