"""Tests: Actions against the Environment, written ``Test (Caractéristique, Difficulté)``.

A Test is an Action that does not oppose two Protagonistes. It succeeds when the PS total
(signed, S-A3) reaches its Difficulty, a whole number of at least 1 (S-A4). `TestMechanic`
resolves a Test from one flat face list, action dice first, then D+/- dice.

Source: seed 003, "Difficulté", "Notation de Test", "Options"; rulings S-M2, S-M5, S-A3,
S-A4, S-A8.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from tablee.dice import DiceRequest, LazyTrace, Trace, TraceStep
from tablee.errors import N_, Message
from tablee.systems.common import whole
from tablee.systems.shs.actions import (
    DEFAULT_OPTIONS,
    ActionResult,
    ActionRoll,
    Option,
    dice_for_action,
    resolve_action,
)
from tablee.systems.shs.options import ShsOptions
from tablee.systems.shs.traits import Characteristic, characteristic_named

__all__ = ["TEST", "Test", "TestMechanic", "TestResult", "check_difficulty", "resolve_test"]


def check_difficulty(value: object) -> int:
    """A Difficulty as a whole number of at least 1.

    Raises:
        InputError: anything else; for 0 or less, the tip says that an Action with nothing
            to reach is trivial and succeeds without a roll (S-M1).

    Source: seed 003, "Difficulté", "Résoudre les Actions" (trivial Actions); S-M1, S-A4.
    """
    return whole(
        value,
        Message(N_("Difficulty")),
        1,
        rule="S-A4",
        tip=N_(
            "an Action with nothing to reach is trivial: it succeeds without a roll (rule S-M1)"
        ),
    )


@dataclass(frozen=True)
class Test:
    """A Test: an Action against the Environment, written ``Test (Caractéristique, Difficulté)``.

    Attributes:
        threshold: the Caractéristique's threshold, 5 to 8.
        difficulty: PS needed, 1 or more (S-A4).
        characteristic: the Caractéristique used (for the notation), or None.
        expertise, bonus, malus, surpass, sacrifice: as in `ActionRoll`.

    Raises:
        InputError: a threshold outside 5..8, a difficulty below 1, an unknown Caractéristique.
        RuleError: both options on one Action (S-M5).

    Source: seed 003, "Notation de Test", "Difficulté"; S-M2, S-A4.
    """

    __test__: ClassVar[bool] = False  # not a pytest test class

    threshold: int
    difficulty: int
    characteristic: Characteristic | None = None
    expertise: bool = False
    bonus: int = 0
    malus: int = 0
    surpass: bool = False
    sacrifice: bool = False

    def __post_init__(self) -> None:
        if self.characteristic is not None and type(self.characteristic) is not Characteristic:
            object.__setattr__(self, "characteristic", characteristic_named(self.characteristic))
        if type(self.difficulty) is not int or self.difficulty < 1:
            check_difficulty(self.difficulty)
        roll = ActionRoll(  # checks the roll's own fields
            self.threshold, self.expertise, self.bonus, self.malus, self.surpass, self.sacrifice
        )
        self.__dict__["_action"] = roll  # the fields never change: built once

    @property
    def action(self) -> ActionRoll:
        """The roll of this Test (everything but the Difficulty), built once."""
        return self.__dict__["_action"]  # type: ignore[no-any-return]

    @property
    def option(self) -> Option:
        """The option used, if any."""
        return self.action.option

    def with_modifiers(self, *, bonus: int = 0, malus: int = 0) -> Test:
        """The same Test with extra bonus and malus (cooperation, simultaneous actions)."""
        if not bonus and not malus:
            return self
        return Test(
            self.threshold,
            self.difficulty,
            self.characteristic,
            self.expertise,
            self.bonus + bonus,
            self.malus + malus,
            self.surpass,
            self.sacrifice,
        )


@dataclass(frozen=True)
class TestResult:
    """Outcome of a Test.

    Attributes:
        roll: the Action's dice result (PS, side effects).
        difficulty: the Difficulty, 1 or more.
        success: ``roll.ps >= difficulty``.
        trace: the roll's steps and the comparison (built when first read:
            `tablee.dice.LazyTrace`).

    Source: seed 003, "Difficulté"; S-M2.
    """

    __test__: ClassVar[bool] = False

    roll: ActionResult
    difficulty: int
    success: bool
    trace: LazyTrace = LazyTrace()  # noqa: RUF009 - a descriptor: reads give the Trace

    @property
    def ps(self) -> int:
        """The PS total that counts."""
        return self.roll.ps


def resolve_test(
    inputs: Test,
    action_faces: Sequence[int],
    dpm_faces: Sequence[int],
    options: ShsOptions = DEFAULT_OPTIONS,
) -> TestResult:
    """Resolve a Test: count the PS, compare with the Difficulty.

    Args:
        inputs: the Test.
        action_faces: the action dice (see `resolve_action`).
        dpm_faces: the D+/- dice, in the order of `ActionRoll.dpm_groups`.
        options: house rules.

    Raises:
        InputError: the wrong number of faces, or a face the die cannot show.

    Source: seed 003; S-M2 step 5, S-M5, S-A3, S-A4, S-A8.
    """
    rolled = resolve_action(inputs.action, action_faces, dpm_faces, options)
    success = rolled.ps >= inputs.difficulty
    return TestResult(
        rolled, inputs.difficulty, success, partial(_test_steps, rolled, inputs.difficulty)
    )


def _test_steps(rolled: ActionResult, difficulty: int) -> Trace:
    """The steps of `resolve_test`: the roll's, then the comparison and its price."""
    success = rolled.ps >= difficulty
    template = (
        N_("{ps} PS against Difficulty {difficulty}: success")
        if success
        else N_("{ps} PS against Difficulty {difficulty}: failure")
    )
    steps = [*rolled.trace, TraceStep(template, {"ps": rolled.ps, "difficulty": difficulty})]
    if rolled.nt_gain:
        steps.append(TraceStep(N_("NT +1 once the Action is over (Se Surpasser)")))
    if rolled.dies:
        steps.append(TraceStep(N_("the Protagoniste dies (Se Sacrifier)")))
    return tuple(steps)


class TestMechanic:
    """A Test as a mechanic over one flat face list: action dice first, then D+/- dice.

    `dice_for` returns the requests of `dice_for_action`; `tablee.systems.shs.rolling` rolls
    them in that order with any source, or enumerates every roll of all of them.

    Args:
        options: the house rules used for every Test (the rulings' readings by default).

    Source: seed 003; S-M2; docs/architecture.md, "A mechanic".
    """

    __test__: ClassVar[bool] = False

    def __init__(self, options: ShsOptions = DEFAULT_OPTIONS) -> None:
        self.options = options

    def dice_for(self, inputs: Test) -> tuple[DiceRequest, ...]:
        """See `dice_for_action`."""
        return dice_for_action(inputs.action, self.options)

    def resolve(self, inputs: Test, faces: Sequence[int]) -> TestResult:
        """Resolve from ``options.action_dice`` action faces followed by the D+/- faces."""
        n = self.options.action_dice
        return resolve_test(inputs, faces[:n], faces[n:], self.options)


TEST = TestMechanic()
"""The Test mechanic with the rulings' readings (S-M2)."""
