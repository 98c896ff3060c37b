"""Driving SHS mechanics through the chance protocol.

An SHS Action throws action dice and D+/- dice: `throw_action` asks a `tablee.dice.Chance`
for each group in turn (the requests of `dice_for_action`), and `play_action`, `play_test`,
`play_opposed` and `play_cooperation` throw and resolve with the rule functions. Live play
(the command line and the web table hand their dice as a chance), typed-in faces and the
exact odds (`tablee.dice.exact` over these functions, in `tablee.systems.shs.odds`) all run
this code.

The older flat-face helpers stay for mechanics written as ``dice_for`` + ``resolve``:
`roll_requests` asks a source for each group in order, `enumerate_requests` yields every
combination of rolls with its weight, and `exact_grouped_distribution` drives ``resolve``
through `tablee.dice.exact`.

Source: docs/architecture.md, "A mechanic" (one rule implementation serves live play, typed
faces and exact enumeration); seed 003, "Mini-glossaire" (two kinds of dice); S-M2, S-M4,
S-M6.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import product
from typing import Protocol, TypeVar

from tablee.dice import (
    Chance,
    DiceRequest,
    Distribution,
    RandomSource,
    enumerate_rolls,
    exact,
)
from tablee.systems.shs.actions import (
    DEFAULT_OPTIONS,
    ActionResult,
    ActionRoll,
    dice_for_action,
    resolve_action,
)
from tablee.systems.shs.difficulty import Test, TestResult, resolve_test
from tablee.systems.shs.opposed import OpposedAction, OpposedResult, resolve_opposed
from tablee.systems.shs.options import ShsOptions
from tablee.systems.shs.situations import Cooperation, CooperationResult, resolve_cooperation

__all__ = [
    "GroupedMechanic",
    "enumerate_requests",
    "exact_grouped_distribution",
    "play_action",
    "play_cooperation",
    "play_opposed",
    "play_test",
    "roll_grouped",
    "roll_requests",
    "throw_action",
]

I_contra = TypeVar("I_contra", contravariant=True)
O_co = TypeVar("O_co", covariant=True)
InT = TypeVar("InT")
OutT = TypeVar("OutT")
K = TypeVar("K", bound=Hashable)


class GroupedMechanic(Protocol[I_contra, O_co]):
    """A mechanic that asks for several groups of dice and resolves their faces flattened.

    Source: seed 003, "Mini-glossaire" (two kinds of dice); S-M2, S-M4.
    """

    def dice_for(self, inputs: I_contra) -> tuple[DiceRequest, ...]:
        """The groups of dice to roll, in order."""
        ...

    def resolve(self, inputs: I_contra, faces: Sequence[int]) -> O_co:
        """The outcome from every group's faces, concatenated in request order."""
        ...


def roll_requests(
    requests: Sequence[DiceRequest], source: RandomSource
) -> tuple[tuple[int, ...], ...]:
    """Roll each request with ``source``, in order.

    Args:
        requests: the groups (a count of 0 is asked for too, and gives no face).
        source: fair, seeded or typed-in faces (typed faces are taken in request order).

    Returns:
        One tuple of faces per request.

    Raises:
        InputError: the source cannot give those dice.

    Source: seed 003, "Mini-glossaire"; S-M2; docs/architecture.md, "A mechanic".
    """
    return tuple(source.roll(r.die, r.count) for r in requests)


def enumerate_requests(
    requests: Sequence[DiceRequest],
) -> Iterator[tuple[tuple[tuple[int, ...], ...], int]]:
    """Every combination of rolls of the requests, each group as a sorted multiset.

    Multisets of equal face values are merged (two D+/- blanks are one multiset), so the
    cost is the number of distinct multisets of values.

    Yields:
        ``(groups, weight)``: one sorted face tuple per request, and the number of ordered
        rolls giving it; the weights add up to the product of ``sides ** count``.

    Source: seed 003, "Mini-glossaire", S-N3; docs/architecture.md, "A mechanic".
    """
    each = [_merged(r) for r in requests]
    for combo in product(*each):
        weight = 1
        for _, w in combo:
            weight *= w
        yield tuple(faces for faces, _ in combo), weight


def _merged(request: DiceRequest) -> list[tuple[tuple[int, ...], int]]:
    """Rolls of one request, with repeated face values (the D+/- blanks...) merged."""
    weights: dict[tuple[int, ...], int] = {}
    for faces, weight in enumerate_rolls(request.die, request.count):
        weights[faces] = weights.get(faces, 0) + weight
    return list(weights.items())


def roll_grouped(mechanic: GroupedMechanic[InT, OutT], inputs: InT, source: RandomSource) -> OutT:
    """Roll the groups a mechanic asks for with ``source`` and resolve them.

    Raises:
        InputError: the source cannot give those dice.

    Source: S-M2, S-M4 (seed 003); docs/architecture.md, "A mechanic".
    """
    groups = roll_requests(mechanic.dice_for(inputs), source)
    return mechanic.resolve(inputs, [f for g in groups for f in g])


def exact_grouped_distribution(
    mechanic: GroupedMechanic[InT, OutT], inputs: InT, key: Callable[[OutT], K]
) -> Distribution[K]:
    """Exact distribution of ``key(outcome)`` by resolving every combination of rolls.

    Returns:
        A `Distribution` whose weights add up to the product of ``sides ** count``.

    Source: seed 003; S-M2, S-M4; docs/architecture.md, "A mechanic".
    """
    requests = mechanic.dice_for(inputs)

    def run(chance: Chance) -> K:
        return key(mechanic.resolve(inputs, [f for r in requests for f in chance.roll(r)]))

    return exact(run)


# --- the chance protocol -------------------------------------------------------------------


def throw_action(
    inputs: ActionRoll, chance: Chance, options: ShsOptions = DEFAULT_OPTIONS
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Throw one Action's dice: the action dice, then each group of D+/- dice.

    Args:
        inputs: the roll (threshold, Expertise, bonus, malus, option).
        chance: where the faces come from, asked once per request of `dice_for_action`.
        options: house rules (number of action dice, option dice, cap).

    Returns:
        ``(action faces, D+/- faces)``, the D+/- groups concatenated in request order.

    Raises:
        InputError: the chance cannot give those dice.

    Source: seed 003; S-M2 steps 1 and 3, S-A1, S-A2, S-A7, S-A13.
    """
    first, *rest = dice_for_action(inputs, options)
    action = chance.roll(first)
    return action, tuple(f for r in rest for f in chance.roll(r))


def play_action(
    inputs: ActionRoll, chance: Chance, options: ShsOptions = DEFAULT_OPTIONS
) -> ActionResult:
    """Throw an Action's dice with ``chance`` and count its PS (`resolve_action`).

    Source: seed 003; S-M2 steps 1 to 4, S-A3, S-A7.
    """
    return resolve_action(inputs, *throw_action(inputs, chance, options), options)


def play_test(inputs: Test, chance: Chance, options: ShsOptions = DEFAULT_OPTIONS) -> TestResult:
    """Throw a Test's dice with ``chance`` and resolve it (`resolve_test`).

    Source: seed 003; S-M2 step 5, S-A4.
    """
    return resolve_test(inputs, *throw_action(inputs.action, chance, options), options)


def play_opposed(
    inputs: OpposedAction, chance: Chance, options: ShsOptions = DEFAULT_OPTIONS
) -> OpposedResult:
    """Throw both sides' dice (the first side's, then the second's) and resolve.

    Source: seed 003; S-M4, S-A3, S-A5.
    """
    first = throw_action(inputs.first, chance, options)
    second = throw_action(inputs.second, chance, options)
    return resolve_opposed(inputs, first, second, options)


def play_cooperation(
    inputs: Cooperation, chance: Chance, options: ShsOptions = DEFAULT_OPTIONS
) -> CooperationResult:
    """Throw every cooperator's Test dice, with the Bonus 1, in order, and resolve.

    Raises:
        RuleError: an option the table forbids when cooperating (S-A14).

    Source: seed 003; S-M6, S-A14.
    """
    faces = [throw_action(t.action, chance, options) for t in inputs.tests(options)]
    return resolve_cooperation(inputs, faces, options)
