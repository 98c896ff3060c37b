"""The YBS test: one d6 plus a trait, forcing destiny, s'entêter, critical results.

A test's inputs (`YbsTest`) hold the trait value (one trait, or two averaged or limited:
`combined_trait`), the tokens spent to force destiny (0 to 3), the tokens the actor still
holds once forced, the table's reading of s'entêter, and the two critical choices made after
the last die: the player buying a critical success back with a token, the GM granting a
critical failure (and a token). `resolve_test` takes every natural die thrown, the first and
each reroll, in order; each reroll costs one token. `TEST` is the first throw as a
`tablee.dice.Mechanic`; a reroll asks for one more d6 (`dice_for_reroll`).

Reading of the rulings (Y-M3): a natural 6 always succeeds, a natural 1 always fails, any
other natural n succeeds when the modified result is 4 or more, where the modified result is
``n + trait + forced`` on the first throw and ``n + trait`` on a reroll (forced tokens never
count again, Y-A3). Only the final die can be a critical (Y-A4, Y-A5).

Source: seed 004, "Les tests", "Les jetons Unmei"; rulings Y-M3, Y-N3, Y-A2 to Y-A6, Y-A8,
Y-X6.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from tablee.dice import D6, Chance, DiceRequest, Trace, TraceStep
from tablee.errors import N_, InputError, RuleError
from tablee.systems.common import whole
from tablee.systems.ybs.character import check_trait_value

__all__ = [
    "MAX_FORCE",
    "MAX_TOKENS",
    "SUCCESS_AT",
    "TEST",
    "Combine",
    "TestMechanic",
    "TestResult",
    "YbsTest",
    "check_reroll",
    "combined_trait",
    "critical_refusal",
    "dice_for_reroll",
    "play_test",
    "reroll_refusal",
    "resolve_test",
    "throw_test",
]

MAX_FORCE = 3
"""Most tokens spent to force destiny (Y-M3, Y-N2)."""
MAX_TOKENS = 1000
"""Most tokens one player may hold (Tablée's bound; the text sets none, Y-A7)."""
SUCCESS_AT = 4
"""A modified result of 4 or more succeeds (Y-N3)."""


class Combine(Enum):
    """How two traits that both apply make one value (Y-A2)."""

    AVERAGE = "average"
    LIMIT = "limit"


def combined_trait(first: int, second: int, how: Combine | str) -> int:
    """One value from two traits: their average rounded down, or the lower one.

    Rounding the average down gives the same results as keeping the half point, since dice
    are whole and success is 4 or more (Y-A2).

    Raises:
        InputError: a value outside -2..+2 or an unknown way of combining.

    Source: seed 004, "Les tests" step 1; Y-A2.
    """
    a = check_trait_value(first, what="first trait")
    b = check_trait_value(second, what="second trait")
    try:
        mode = Combine(how)
    except ValueError:
        raise InputError(
            N_("{value!r} is not a way to combine two traits (average | limit, rule Y-A2)"),
            value=how,
        ) from None
    return (a + b) // 2 if mode is Combine.AVERAGE else min(a, b)


@dataclass(frozen=True)
class YbsTest:
    """A test's inputs.

    Attributes:
        trait: the trait value used, -2..+2 (already combined when two apply).
        force: tokens spent to force destiny before the roll, 0..3 (already paid).
        tokens: tokens the actor holds once forced, 0..`MAX_TOKENS`: they pay for rerolls
            and a critical success. A GM character has none (Y-A8).
        stubborn: ``repeat`` (rerolls while tokens last), ``once`` (at most one) or ``never``.
        stubborn_on: ``any`` (after any natural 1..5) or ``one`` (only after a natural 1).
        critical: the player turns a final natural 6 into a critical success (1 token).
        critical_failure: the GM turns a final natural 1 into a critical failure.
        npc: a GM character: a critical failure gives no token (nobody holds one, Y-A8).
        gm_critical: a GM character may buy a critical success from the GM's bag (the
            house rule ``gm_criticals``, Y-X6); without it a GM character cannot.

    Raises:
        InputError: at construction, a value out of range, naming the field.

    Source: Y-M3, Y-M4, Y-A3 to Y-A6, Y-A8, Y-X6.
    """

    trait: int
    force: int = 0
    tokens: int = 0
    stubborn: str = "repeat"
    stubborn_on: str = "any"
    critical: bool = False
    critical_failure: bool = False
    npc: bool = False
    gm_critical: bool = False

    def __post_init__(self) -> None:
        check_trait_value(self.trait)
        for name, high in (("force", MAX_FORCE), ("tokens", MAX_TOKENS)):
            whole(getattr(self, name), name, 0, high, rule="Y-M3, Y-M4")
        if self.stubborn not in ("repeat", "once", "never"):
            raise InputError(
                N_("stubborn cannot be {value!r}: repeat | once | never (rule Y-A3)"),
                value=self.stubborn,
            )
        if self.stubborn_on not in ("any", "one"):
            raise InputError(
                N_("stubborn_on cannot be {value!r}: any | one (rule Y-A3)"),
                value=self.stubborn_on,
            )


@dataclass(frozen=True)
class TestResult:
    """A resolved test.

    Attributes:
        inputs: the test.
        faces: every natural die, the first then each reroll.
        natural: the final natural die (1..6).
        modified: the final modified result (natural + trait, + forced on the first throw).
        success: the test succeeds.
        critical_success: a natural 6 turned critical with a token (Y-A4).
        critical_failure: a natural 1 turned critical by the GM (Y-A5).
        rerolls: rerolls made (each paid with 1 token).
        tokens_paid: tokens the actor pays after the roll (rerolls and a critical success).
        token_gained: tokens the actor receives (1 for a critical failure, else 0).
        trace: the steps, for people.
    """

    inputs: YbsTest
    faces: tuple[int, ...]
    natural: int
    modified: int
    success: bool
    critical_success: bool
    critical_failure: bool
    rerolls: int
    tokens_paid: int
    token_gained: int
    trace: Trace

    __test__: ClassVar[bool] = False  # not a pytest test class


def reroll_refusal(test: YbsTest, faces: Sequence[int]) -> RuleError | None:
    """Why one more reroll after ``faces`` is refused, or None when the rules allow it.

    Args:
        test: the inputs (the table's reading of s'entêter, the tokens held).
        faces: the naturals thrown so far, the first then each reroll (1 or more).

    Returns:
        The refusal (a natural 6 has nothing to reroll; ``stubborn_on = one`` after a 2..5;
        the reroll limit of ``stubborn``; no token left), or None.

    Source: seed 004, "Les tests" step 6; Y-M3, Y-M4, Y-A3.
    """
    return _reroll_refusal(test, faces[-1], len(faces))


def check_reroll(test: YbsTest, before: int, number: int) -> None:
    """Refuse reroll ``number`` (1 for the first) after a natural ``before``."""
    refusal = _reroll_refusal(test, before, number)
    if refusal is not None:
        raise refusal


def _reroll_refusal(test: YbsTest, before: int, number: int) -> RuleError | None:
    if before == 6:
        return RuleError(
            N_("a natural 6 is always a success: there is nothing to reroll (rule Y-M3)")
        )
    if test.stubborn_on == "one" and before != 1:
        return RuleError(
            N_(
                "at this table s'entêter follows only a natural 1, not a {face} "
                "(option stubborn_on, Y-A3)"
            ),
            face=before,
        )
    if test.stubborn == "never" or (test.stubborn == "once" and number > 1):
        return RuleError(
            N_("only one reroll per test at this table (option stubborn, Y-A3)")
            if test.stubborn == "once"
            else N_("no reroll in this test (rule Y-A3)")
        )
    if number > test.tokens:
        return RuleError(
            _TOO_FEW[(bool(test.force), test.tokens == 1)], number=number, tokens=test.tokens
        )
    return None


_TOO_FEW = {
    (True, False): N_(
        "reroll {number} needs a token but only {tokens} were left after forcing "
        "destiny (rules Y-M3, Y-M4)"
    ),
    (True, True): N_(
        "reroll {number} needs a token but only {tokens} was left after forcing "
        "destiny (rules Y-M3, Y-M4)"
    ),
    (False, False): N_(
        "reroll {number} needs a token but only {tokens} were held at the roll (rules Y-M3, Y-M4)"
    ),
    (False, True): N_(
        "reroll {number} needs a token but only {tokens} was held at the roll (rules Y-M3, Y-M4)"
    ),
}
"""A reroll without a token, by (destiny forced, exactly one token): the verb agrees."""


def _outcome(test: YbsTest, natural: int, first: bool) -> tuple[int, bool, TraceStep]:
    forced = test.force if first else 0
    modified = natural + test.trait + forced
    if natural == 6:
        return modified, True, TraceStep(N_("natural 6: always a success"))
    if natural == 1:
        return modified, False, TraceStep(N_("natural 1: always a failure"))
    success = modified >= SUCCESS_AT
    if first and not forced:
        template = (
            N_("{natural} {trait:+d} trait = {modified}: success")
            if success
            else N_("{natural} {trait:+d} trait = {modified}: failure (4 needed)")
        )
        params = {"natural": natural, "trait": test.trait, "modified": modified}
        return modified, success, TraceStep(template, params)
    templates = {
        (True, True): N_("{natural} {trait:+d} trait {forced:+d} forced = {modified}: success"),
        (True, False): N_(
            "{natural} {trait:+d} trait {forced:+d} forced = {modified}: failure (4 needed)"
        ),
        (False, True): N_(
            "{natural} {trait:+d} trait = {modified} (forced tokens no longer count): success"
        ),
        (False, False): N_(
            "{natural} {trait:+d} trait = {modified} (forced tokens no longer count): failure"
        ),
    }
    params = {"natural": natural, "trait": test.trait, "forced": forced, "modified": modified}
    return modified, success, TraceStep(templates[first, success], params)


def resolve_test(test: YbsTest, faces: Sequence[int]) -> TestResult:
    """Resolve a test from every natural die thrown, first then rerolls.

    Args:
        test: the inputs.
        faces: the first die then one per reroll, each 1..6.

    Returns:
        The result with its trace.

    Raises:
        InputError: no face, or a face that is not 1..6.
        RuleError: a reroll the reading or the tokens do not allow (after a 6; a second one
            with ``once``; after a 2..5 with ``stubborn_on = one``; more than the tokens); a
            critical success without a final 6 or without a token left (Y-A4); a critical
            failure without a final 1 (Y-A5).

    Source: seed 004, "Les tests" steps 3 to 7; Y-M3, Y-N3, Y-A3, Y-A4, Y-A5.
    """
    if not faces:
        raise InputError(N_("a test needs at least one die (rule Y-M3)"))
    naturals = tuple(D6.check_face(f) for f in faces)
    steps: list[TraceStep] = []
    if test.force:
        steps.append(
            TraceStep(N_("destiny forced with {count} token(s): +{count}"), {"count": test.force})
        )
    modified, success = 0, False
    for number, natural in enumerate(naturals):
        if number:
            check_reroll(test, naturals[number - 1], number)
            steps.append(TraceStep(N_("s'entêter: 1 token, reroll {number}"), {"number": number}))
        modified, success, step = _outcome(test, natural, number == 0)
        steps.append(step)
    final, rerolls = naturals[-1], len(naturals) - 1
    if test.critical:
        refusal = critical_refusal(test, naturals)
        if refusal is not None:
            raise refusal
        steps.append(
            TraceStep(
                N_("critical success: 1 token from the GM's bag, back into it")
                if test.npc
                else N_("critical success: 1 token back to the GM")
            )
        )
    if test.critical_failure:
        if final != 1:
            raise RuleError(
                N_(
                    "only a final natural 1 can become a critical failure, not a {face} (rule Y-A5)"
                ),
                face=final,
            )
        steps.append(
            TraceStep(
                N_("critical failure decided by the GM, without a token for a GM character")
                if test.npc
                else N_("critical failure decided by the GM: 1 token to the player")
            )
        )
    return TestResult(
        inputs=test,
        faces=naturals,
        natural=final,
        modified=modified,
        success=success,
        critical_success=test.critical,
        critical_failure=test.critical_failure,
        rerolls=rerolls,
        tokens_paid=rerolls + int(test.critical and not test.npc),
        token_gained=int(test.critical_failure and not test.npc),
        trace=tuple(steps),
    )


def critical_refusal(test: YbsTest, faces: Sequence[int]) -> RuleError | None:
    """Why the player cannot buy a critical success after ``faces``, or None when they can.

    Args:
        test: the inputs (the tokens held once forced).
        faces: every natural thrown, the first then each reroll (1 or more).

    Returns:
        The refusal (the final die is not a 6, or no token is left after the rerolls; a GM
        character without the house rule ``gm_criticals``), or None. A GM character with it
        pays from the GM's bag, which the ledger checks (Y-X6).

    Source: seed 004, "Les tests" step 7; Y-M3, Y-A4, Y-A8, Y-X6.
    """
    final, left = faces[-1], test.tokens - (len(faces) - 1)
    if final != 6:
        return RuleError(
            N_("only a natural 6 can become a critical success, not a {face} (rule Y-M3)"),
            face=final,
        )
    if test.npc:
        if test.gm_critical:
            return None
        return RuleError(
            N_("a GM character holds no token to pay for a critical success (rule Y-A8)"),
            tip=N_("the house rule gm_criticals lets the GM's bag pay for it"),
        )
    if left < 1:
        return RuleError(
            N_("a critical success costs a token and none is left (rule Y-A4)"),
            tip=N_("tokens spent on forcing destiny or rerolls cannot pay for it"),
        )
    return None


def play_test(test: YbsTest, chance: Chance, reroll: Callable[[TestResult], bool]) -> TestResult:
    """Throw a test with ``chance``: the first die, then a reroll each time one is wanted.

    Args:
        test: the inputs.
        chance: where the dice come from (one d6 per request).
        reroll: the player's choice after each throw (given the result so far); a reroll
            is made only when the rules allow it (`reroll_refusal`).

    Returns:
        The result of every die thrown (`resolve_test`).

    Source: seed 004, "Les tests" steps 3 to 6; Y-M3, Y-A3.
    """
    result = throw_test(test, None, chance)
    while reroll(result) and reroll_refusal(test, result.faces) is None:
        result = throw_test(test, result, chance)
    return result


def throw_test(test: YbsTest, previous: TestResult | None, chance: Chance) -> TestResult:
    """Throw the next die of a test with ``chance`` and resolve every die so far.

    Args:
        test: the inputs.
        previous: the result before this die, or None for the first throw.
        chance: where the die comes from.

    Returns:
        `resolve_test` over the earlier dice and the new one.

    Raises:
        RuleError: a reroll the rules refuse (see `reroll_refusal`).

    Source: seed 004, "Les tests" steps 3 to 6; Y-M3, Y-A3.
    """
    if previous is None:
        return resolve_test(test, chance.roll(TEST.dice_for(test)))
    return resolve_test(test, (*previous.faces, *chance.roll(dice_for_reroll(previous))))


class TestMechanic:
    """The first throw of a test as a `tablee.dice.Mechanic` (one d6).

    Source: Y-M3.
    """

    __test__: ClassVar[bool] = False  # not a pytest test class

    def dice_for(self, inputs: YbsTest) -> DiceRequest:
        """One d6."""
        return DiceRequest(D6, 1)

    def resolve(self, inputs: YbsTest, faces: Sequence[int]) -> TestResult:
        """See `resolve_test`."""
        return resolve_test(inputs, faces)


TEST = TestMechanic()
"""The test mechanic (first throw only; rerolls ask for one more d6 each)."""


def dice_for_reroll(result: TestResult) -> DiceRequest:
    """The die a reroll needs: one d6 (the reroll is checked when resolved).

    Source: Y-M3 step 6.
    """
    return DiceRequest(D6, 1)
