"""Exact odds of SHS Actions: the rule code driven over every roll, and a faster convolution.

Each odds function is defined by the rule code: with ``accelerated=False`` it runs
`tablee.systems.shs.rolling.play_test` (or `play_action`, `play_opposed`,
`play_cooperation`), the functions live play throws and resolves with, through
`tablee.dice.exact`, over every roll. By default it uses an accelerator that gives the same
exact weights much faster (the tests check that the two agree over a grid of inputs and
house rules). The accelerator rests on the groups of dice of an Action being independent:

* the action dice: each of n dice (D8 or D10, s sides) succeeds on ``s - T + 1`` faces, so
  the number of ordered rolls with k PS is ``C(n, k) * (s - T + 1) ** k * (T - 1) ** (n - k)``;
* each group of m D+/- dice read as a Bonus (or a Malus): two faces of six count, so j
  counted faces happen in ``C(m, j) * 2 ** j * 4 ** (m - j)`` ordered rolls, giving +j (or -j);
* Se Sacrifier adds a constant 2.

The PS total is the sum, so its weights are the convolution of the groups' weights (integer
counts; probabilities are `Fraction`). The tests prove these equal to the rule code driven
through the chance protocol, to a brute force, and to icepool.

Source: seed 003, "Résoudre les Actions", "Bonus et Malus"; rulings S-M2 to S-M6, S-N3,
S-A1, S-A3, S-A5, S-A7, S-A13.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from tablee.dice import DPM, Chance, Distribution, exact
from tablee.systems.shs.actions import DEFAULT_OPTIONS, ActionRoll
from tablee.systems.shs.difficulty import Test
from tablee.systems.shs.opposed import OpposedAction, OpposedOutcome, settle_opposed
from tablee.systems.shs.options import ShsOptions
from tablee.systems.shs.rolling import play_action, play_cooperation, play_opposed, play_test
from tablee.systems.shs.situations import Cooperation, group_succeeds

__all__ = [
    "CooperationOdds",
    "OpposedOdds",
    "action_dice_distribution",
    "cooperation_odds",
    "cooperation_success_probability",
    "dpm_distribution",
    "opposed_distribution",
    "opposed_odds",
    "ps_distribution",
    "success_distribution",
    "success_probability",
]


@lru_cache(maxsize=1024)
def _action_dice_weights(sides: int, threshold: int, count: int) -> tuple[tuple[int, int], ...]:
    hits, misses = sides - threshold + 1, threshold - 1
    return tuple((k, comb(count, k) * hits**k * misses ** (count - k)) for k in range(count + 1))


def action_dice_distribution(
    threshold: int, expertise: bool = False, count: int = 3
) -> Distribution[int]:
    """Exact distribution of the PS from the action dice alone.

    Args:
        threshold: 5 to 8.
        expertise: D10 instead of D8.
        count: number of action dice, 1 or more (3 by S-A1).

    Returns:
        PS (0 to count) -> ordered rolls out of ``sides ** count``.

    Source: seed 003; S-M2 steps 1-2, S-A1, S-A2.
    """
    die = ActionRoll(threshold, expertise).die
    return Distribution(dict(_action_dice_weights(die.sides, threshold, count)))


def dpm_distribution(count: int, sign: int) -> Distribution[int]:
    """Exact distribution of the PS from ``count`` D+/- dice read with ``sign``.

    Args:
        count: 0 or more dice.
        sign: ``+1`` (a Bonus: "+" faces add) or ``-1`` (a Malus: "−" faces remove).

    Returns:
        ``sign * j`` -> ordered rolls out of ``6 ** count``.

    Source: seed 003; S-M3 ("Effet"), S-N3.
    """
    counted = DPM.faces.count(sign)
    other = DPM.sides - counted
    return Distribution(
        {sign * j: comb(count, j) * counted**j * other ** (count - j) for j in range(count + 1)}
    )


def _convolve(a: Distribution[int], b: Distribution[int]) -> Distribution[int]:
    out: dict[int, int] = {}
    for x, wx in a.weights.items():
        for y, wy in b.weights.items():
            out[x + y] = out.get(x + y, 0) + wx * wy
    return Distribution(out)


def ps_distribution(
    inputs: ActionRoll | Test, options: ShsOptions = DEFAULT_OPTIONS, *, accelerated: bool = True
) -> Distribution[int]:
    """Exact distribution of the PS total that counts for one Action.

    Args:
        inputs: the roll (or a Test, whose Difficulty is ignored here).
        options: house rules (number of dice, option dice, cap, negative totals).
        accelerated: the convolution (default); False runs `play_action` over every roll.

    Returns:
        PS -> ordered rolls, out of ``sides ** action_dice * 6 ** dpm_dice``. The total is
        signed (S-A3) unless ``negative_ps = zero``.

    Source: seed 003; S-M2 steps 1-4, S-A3, S-A7, S-A13.
    """
    roll = inputs.action if isinstance(inputs, Test) else inputs
    if not accelerated:
        return exact(lambda chance: play_action(roll, chance, options).ps)
    total = action_dice_distribution(roll.threshold, roll.expertise, options.action_dice)
    for group in roll.dpm_groups(options):
        total = _convolve(total, dpm_distribution(group.count, group.sign))
    if roll.sacrifice:
        total = total.map(lambda ps: ps + 2)
    if options.negative_ps == "zero":
        total = total.map(lambda ps: max(ps, 0))
    return total


def success_distribution(
    inputs: Test, options: ShsOptions = DEFAULT_OPTIONS, *, accelerated: bool = True
) -> Distribution[bool]:
    """Exact distribution of a Test's success (True) or failure (False).

    Args:
        inputs: the Test.
        options: house rules.
        accelerated: from `ps_distribution` (default); False runs `play_test`, the Test as
            live play resolves it, over every roll.

    Source: seed 003; S-M2 step 5.
    """
    if not accelerated:
        return exact(lambda chance: play_test(inputs, chance, options).success)
    return ps_distribution(inputs, options).map(lambda ps: ps >= inputs.difficulty)


def success_probability(
    inputs: Test, options: ShsOptions = DEFAULT_OPTIONS, *, accelerated: bool = True
) -> Fraction:
    """Exact probability that a Test succeeds (0 to 1); see `success_distribution`.

    Source: seed 003; S-M2 step 5.
    """
    return success_distribution(inputs, options, accelerated=accelerated).probability(True)


@dataclass(frozen=True)
class OpposedOdds:
    """The exact odds of an opposed Action, before rolling.

    Attributes:
        outcomes: how it ends (`OpposedOutcome`: a win on more PS for either side, or a tie
            and who keeps the situation) -> ordered rolls of all the dice of both sides.
        margin: the first side's PS minus the second side's (the totals that count, S-A3)
            -> ordered rolls, out of the same total.

    Source: seed 003; S-M4, S-A3, S-A5.
    """

    outcomes: Distribution[OpposedOutcome]
    margin: Distribution[int]

    def prevails(self, side: str) -> Fraction:
        """The chance that ``first`` or ``second`` prevails, on PS or by holding on a tie."""
        return self.outcomes.probability_where(
            lambda o: o.winner is not None and o.winner.value == side
        )


def opposed_odds(
    inputs: OpposedAction, options: ShsOptions = DEFAULT_OPTIONS, *, accelerated: bool = True
) -> OpposedOdds:
    """Exact odds of an opposed Action: each way it can end, and the PS margin.

    Args:
        inputs: both sides.
        options: house rules.
        accelerated: each pair of PS totals from `ps_distribution` settled by
            `tablee.systems.shs.opposed.settle_opposed`, the function that settles a rolled
            Action (default); False runs `play_opposed` over every roll of both sides.

    Source: seed 003; S-M4, S-A3, S-A5.
    """
    if not accelerated:

        def run(chance: Chance) -> tuple[OpposedOutcome, int]:
            result = play_opposed(inputs, chance, options)
            return result.outcome, result.first.ps - result.second.ps

        both = exact(run)
        return OpposedOdds(both.map(lambda k: k[0]), both.map(lambda k: k[1]))
    first = ps_distribution(inputs.first, options)
    second = ps_distribution(inputs.second, options)
    outcomes: dict[OpposedOutcome, int] = {}
    margin: dict[int, int] = {}
    for a, wa in first.weights.items():
        for b, wb in second.weights.items():
            key = settle_opposed(inputs, a, b, options)
            outcomes[key] = outcomes.get(key, 0) + wa * wb
            margin[a - b] = margin.get(a - b, 0) + wa * wb
    return OpposedOdds(Distribution(outcomes), Distribution(margin))


def opposed_distribution(
    inputs: OpposedAction, options: ShsOptions = DEFAULT_OPTIONS, *, accelerated: bool = True
) -> Distribution[str]:
    """Exact distribution of who prevails in an opposed Action.

    Returns:
        ``"first"``, ``"second"``, ``"none"`` (a tie that neither side wins) or ``"reroll"``
        (a tie under ``opposed_tie = reroll``) -> ordered rolls of all four groups.

    Source: seed 003; S-M4, S-A3, S-A5.
    """

    def prevailing(outcome: OpposedOutcome) -> str:
        if outcome.winner is not None:
            return outcome.winner.value
        return "reroll" if outcome is OpposedOutcome.TIE_REROLL else "none"

    return opposed_odds(inputs, options, accelerated=accelerated).outcomes.map(prevailing)


@dataclass(frozen=True)
class CooperationOdds:
    """The exact odds of a cooperation, before rolling.

    Attributes:
        members: each cooperator's chance to reach the Difficulty, with the Bonus 1, in order.
        successes: how many cooperators reach it (0 to the number of members) -> ordered
            rolls of every cooperator's dice.
        group: the chance that the group succeeds (at least one reaches it, S-M6).

    Source: seed 003; S-M6, S-A14.
    """

    members: tuple[Fraction, ...]
    successes: Distribution[int]
    group: Fraction


def cooperation_odds(
    inputs: Cooperation, options: ShsOptions = DEFAULT_OPTIONS, *, accelerated: bool = True
) -> CooperationOdds:
    """Exact odds of a cooperation: each member's chance, the number of successes, the group's.

    Accelerated (the default), the members roll independently, so the number of successes
    is the convolution of their success distributions, and the group's chance applies
    `tablee.systems.shs.situations.group_succeeds`, the rule of a rolled cooperation, to
    each count. With ``accelerated=False``, `play_cooperation` runs over every roll of
    every member.

    Raises:
        RuleError: an option the table forbids when cooperating (S-A14).

    Source: seed 003; S-M6, S-A14, S-T5.
    """
    tests = inputs.tests(options)
    if not accelerated:

        def run(chance: Chance) -> tuple[tuple[bool, ...], bool]:
            result = play_cooperation(inputs, chance, options)
            return tuple(r.success for r in result.results), result.success

        every = exact(run)
        members = tuple(
            every.probability_where(lambda k, i=i: k[0][i])  # type: ignore[misc]
            for i in range(len(tests))
        )
        successes = every.map(lambda k: sum(k[0]))
        return CooperationOdds(members, successes, every.probability_where(lambda k: k[1]))
    members = tuple(success_probability(t, options) for t in tests)
    counts = Distribution({0: 1})
    for test in tests:
        member = success_distribution(test, options).map(int)
        counts = _convolve(counts, member)
    n = len(tests)
    group = counts.probability_where(lambda k: group_succeeds([True] * k + [False] * (n - k)))
    return CooperationOdds(members, counts, group)


def cooperation_success_probability(
    inputs: Cooperation, options: ShsOptions = DEFAULT_OPTIONS, *, accelerated: bool = True
) -> Fraction:
    """Exact probability that at least one cooperator reaches the Difficulty.

    Accelerated (the default), every cooperator rolls independently, so this is
    ``1 - prod(1 - p_i)``; with ``accelerated=False``, `cooperation_odds` drives the rule
    code over every roll.

    Raises:
        RuleError: an option the table forbids when cooperating (S-A14).

    Source: seed 003; S-M6, S-A14.
    """
    if not accelerated:
        return cooperation_odds(inputs, options, accelerated=False).group
    fail = Fraction(1)
    for test in inputs.tests(options):
        fail *= 1 - success_probability(test, options)
    return 1 - fail
