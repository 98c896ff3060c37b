"""Exact odds of SHS Actions against independent oracles, and a seeded live roller.

1. A brute force over every ordered roll (itertools.product), written here from the text,
   over the whole grid: thresholds 5..8, Expertise or not, net modifier -4..4, each option
   (none, Se Surpasser, Se Sacrifier), Difficulties 1..6. The action dice and the D+/- dice
   are enumerated apart and combined (they are independent); a joint product over both
   checks that combination where it is small.
2. `exact_grouped_distribution`: every roll resolved by the rule code itself.
3. icepool 2.1.3, with the text's rule written in its own terms.
4. A seeded run of the live roller, tested with a chi-square bound fixed in advance.
"""

import random
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import icepool
import pytest

from tablee.dice import D8, DPM, SeededSource
from tablee.systems.shs import (
    TEST,
    ActionRoll,
    Cooperation,
    OpposedAction,
    OpposedMechanic,
    ShsOptions,
    Side,
    Test,
    TestMechanic,
    cooperation_odds,
    cooperation_success_probability,
    exact_grouped_distribution,
    opposed_distribution,
    opposed_odds,
    ps_distribution,
    resolve_cooperation,
    roll_grouped,
    success_probability,
)

THRESHOLDS = range(5, 9)
NETS = range(-4, 5)
OPTIONS = ("none", "surpass", "sacrifice")
DIFFICULTIES = range(1, 7)
GRID = [(t, e, n, o) for t in THRESHOLDS for e in (False, True) for n in NETS for o in OPTIONS]


def _roll(threshold, expertise, net, option):
    return ActionRoll(
        threshold,
        expertise,
        bonus=max(net, 0),
        malus=max(-net, 0),
        surpass=option == "surpass",
        sacrifice=option == "sacrifice",
    )


def _test(threshold, expertise, net, option, difficulty):
    roll = _roll(threshold, expertise, net, option)
    return Test(
        threshold,
        difficulty,
        expertise=expertise,
        bonus=roll.bonus,
        malus=roll.malus,
        surpass=roll.surpass,
        sacrifice=roll.sacrifice,
    )


# --- the brute force, from the text -----------------------------------------------------


@cache
def _dice_counts(sides, threshold):
    """Three action dice: one PS per die showing the threshold or more."""
    return Counter(
        sum(f >= threshold for f in faces) for faces in product(range(1, sides + 1), repeat=3)
    )


@cache
def _dpm_counts(net):
    """|net| D+/- (faces +, +, -, -, blank, blank): '+' counts under a Bonus, '-' under a Malus."""
    faces = ("+", "+", "-", "-", "", "")
    counts = Counter()
    for roll in product(faces, repeat=abs(net)):
        counts[roll.count("+") if net > 0 else -roll.count("-")] += 1
    return counts


def _brute_force(threshold, expertise, net, option):
    """Signed PS total -> ordered rolls. An option is a Bonus 2 (S-A7); a sacrifice +2 PS."""
    sides = 10 if expertise else 8
    total_net = net + (2 if option != "none" else 0)
    extra = 2 if option == "sacrifice" else 0
    counts = Counter()
    for a, wa in _dice_counts(sides, threshold).items():
        for b, wb in _dpm_counts(total_net).items():
            counts[a + b + extra] += wa * wb
    return dict(counts)


def _joint_brute_force(threshold, expertise, net, option):
    """The same, as one product over every action face and every D+/- face at once."""
    sides = 10 if expertise else 8
    total_net = net + (2 if option != "none" else 0)
    counts = Counter()
    for faces in product(range(1, sides + 1), repeat=3):
        dice = sum(f >= threshold for f in faces)
        for signs in product((1, 1, -1, -1, 0, 0), repeat=abs(total_net)):
            counted = signs.count(1) if total_net > 0 else -signs.count(-1)
            counts[dice + counted + (2 if option == "sacrifice" else 0)] += 1
    return dict(counts)


@pytest.mark.parametrize(("threshold", "expertise", "net", "option"), GRID)
def test_exact_odds_equal_brute_force_over_the_grid(threshold, expertise, net, option):
    roll = _roll(threshold, expertise, net, option)
    brute = _brute_force(threshold, expertise, net, option)
    exact = ps_distribution(roll)
    assert dict(exact.weights) == brute
    total = sum(brute.values())
    for difficulty in DIFFICULTIES:
        test = _test(threshold, expertise, net, option, difficulty)
        hits = sum(w for ps, w in brute.items() if ps >= difficulty)
        assert success_probability(test) == Fraction(hits, total)


SMALL = [(t, e, n, o) for t, e, n, o in GRID if abs(n + (2 if o != "none" else 0)) <= 2]


@pytest.mark.parametrize(("threshold", "expertise", "net", "option"), SMALL[::3])
def test_joint_product_equals_the_separate_products(threshold, expertise, net, option):
    assert _joint_brute_force(threshold, expertise, net, option) == _brute_force(
        threshold, expertise, net, option
    )


@pytest.mark.parametrize(("threshold", "expertise", "net", "option"), GRID[::2])
def test_exact_odds_equal_resolving_every_roll(threshold, expertise, net, option):
    test = _test(threshold, expertise, net, option, 1)
    resolved = exact_grouped_distribution(TEST, test, key=lambda r: r.roll.ps)
    assert dict(resolved.weights) == dict(ps_distribution(test).weights)


# --- icepool ----------------------------------------------------------------------------


def _icepool_ps(threshold, expertise, net, option):
    die = icepool.d10 if expertise else icepool.d8
    total_net = net + (2 if option != "none" else 0)
    dpm = icepool.Die([1, 1, -1, -1, 0, 0])
    counted = dpm.map(lambda f: 1 if f == (1 if total_net > 0 else -1) else 0)
    ps = 3 @ (die >= threshold)
    if total_net > 0:
        ps = ps + abs(total_net) @ counted
    elif total_net < 0:
        ps = ps - abs(total_net) @ counted
    if option == "sacrifice":
        ps = ps + 2
    return ps


def test_exact_odds_equal_icepool_over_the_grid():
    for threshold, expertise, net, option in GRID:
        theirs = _icepool_ps(threshold, expertise, net, option)
        ours = ps_distribution(_roll(threshold, expertise, net, option))
        denominator = theirs.denominator()
        assert dict(ours.items()) == {
            ps: Fraction(q, denominator) for ps, q in theirs.items() if q
        }, (threshold, expertise, net, option)
        for difficulty in DIFFICULTIES:
            test = _test(threshold, expertise, net, option, difficulty)
            expected = Fraction((theirs >= difficulty).probability(True))
            assert success_probability(test) == expected


# --- house-rule options -----------------------------------------------------------------

VARIANTS = {
    "apart": ShsOptions(option_bonus="apart"),
    "cap1": ShsOptions(dpm_cap=1),
    "zero": ShsOptions(negative_ps="zero"),
    "2dice": ShsOptions(action_dice=2),
    "mixed": ShsOptions(action_dice=1, option_bonus="apart", dpm_cap=2, negative_ps="zero"),
}


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
@pytest.mark.parametrize(("net", "option"), [(n, o) for n in (-3, -1, 0, 2) for o in OPTIONS])
def test_house_rules_odds_equal_resolving_every_roll(options, net, option):
    for threshold, expertise in ((5, False), (7, True)):
        test = _test(threshold, expertise, net, option, 2)
        resolved = exact_grouped_distribution(TestMechanic(options), test, lambda r: r.roll.ps)
        assert dict(resolved.weights) == dict(ps_distribution(test, options).weights)


def test_option_apart_reads_the_option_dice_as_a_bonus_under_a_malus():
    # Malus 2 with Se Surpasser: netted, N = 0 (no D+/-); apart, 2 bonus dice + 2 malus dice.
    roll = ActionRoll(6, malus=2, surpass=True)
    assert roll.dpm_groups() == ()
    apart = roll.dpm_groups(ShsOptions(option_bonus="apart"))
    assert [(g.count, g.sign) for g in apart] == [(2, 1), (2, -1)]


# --- opposed Actions and cooperation ----------------------------------------------------


def _opposed_brute_force(first, second, changer, tie):
    counts = Counter()
    for a, wa in _brute_force(*first).items():
        for b, wb in _brute_force(*second).items():
            if a != b:
                key = "first" if a > b else "second"
            elif tie == "reroll":
                key = "reroll"
            else:  # S-A5: the side seeking change fails; with no such side, nobody wins
                key = {"first": "second", "second": "first", None: "none"}[changer]
            counts[key] += wa * wb
    return dict(counts)


SIDES = [(6, False, 0, "none"), (5, True, -2, "none"), (8, False, 1, "surpass")]


@pytest.mark.parametrize("tie", ["status_quo", "reroll"])
@pytest.mark.parametrize("changer", ["first", "second", None])
def test_opposed_odds_equal_brute_force(changer, tie):
    options = ShsOptions(opposed_tie=tie)
    for first in SIDES:
        for second in SIDES:
            inputs = OpposedAction(_roll(*first), _roll(*second), changer and Side(changer))
            expected = _opposed_brute_force(first, second, changer, tie)
            assert dict(opposed_distribution(inputs, options).weights) == expected


@pytest.mark.parametrize("changer", [Side.FIRST, None])
def test_opposed_odds_equal_resolving_every_roll(changer):
    # Two action dice a side (option action_dice) keeps the enumeration small.
    options = ShsOptions(action_dice=2)
    inputs = OpposedAction(ActionRoll(6, bonus=1), ActionRoll(7, malus=1), changer)
    resolved = exact_grouped_distribution(
        OpposedMechanic(options), inputs, lambda r: r.winner.value if r.winner else "none"
    )
    assert resolved == opposed_distribution(inputs, options)
    assert resolved.total == 8**4 * 6**2


def _opposed_ending(first_ps, second_ps, changer, tie):
    """How an opposed Action ends, written here from S-M4 and S-A5."""
    if first_ps != second_ps:
        return "first" if first_ps > second_ps else "second"
    if tie == "reroll":
        return "tie_reroll"
    return {"first": "tie_second_holds", "second": "tie_first_holds", None: "tie_neither"}[changer]


@pytest.mark.parametrize("tie", ["status_quo", "reroll"])
@pytest.mark.parametrize("changer", ["first", "second", None])
def test_opposed_endings_and_margin_equal_brute_force(changer, tie):
    options = ShsOptions(opposed_tie=tie)
    for first in SIDES:
        for second in SIDES:
            inputs = OpposedAction(_roll(*first), _roll(*second), changer and Side(changer))
            endings, margin = Counter(), Counter()
            for a, wa in _brute_force(*first).items():
                for b, wb in _brute_force(*second).items():
                    endings[_opposed_ending(a, b, changer, tie)] += wa * wb
                    margin[a - b] += wa * wb
            odds = opposed_odds(inputs, options)
            assert {o.value: w for o, w in odds.outcomes.weights.items()} == dict(endings)
            assert dict(odds.margin.weights) == dict(margin)
            assert odds.outcomes.total == odds.margin.total == sum(endings.values())


@pytest.mark.parametrize("changer", [Side.FIRST, Side.SECOND, None])
def test_opposed_endings_equal_resolving_every_roll(changer):
    options = ShsOptions(action_dice=2)
    inputs = OpposedAction(ActionRoll(6, bonus=1), ActionRoll(7, malus=1), changer)

    def ending(result):
        if result.reroll:
            return "tie_reroll"
        if result.winner is None:
            return "tie_neither"
        return f"tie_{result.winner.value}_holds" if result.tie else result.winner.value

    resolved = exact_grouped_distribution(OpposedMechanic(options), inputs, ending)
    odds = opposed_odds(inputs, options)
    assert resolved == odds.outcomes.map(lambda o: o.value)
    margins = exact_grouped_distribution(
        OpposedMechanic(options), inputs, lambda r: r.first.ps - r.second.ps
    )
    assert margins == odds.margin


def test_cooperation_odds_equal_resolving_every_roll():
    # One action die each (option action_dice), each cooperator with the Bonus 1 (1 D+/-).
    options = ShsOptions(action_dice=1)
    members = Cooperation((Test(6, 1), Test(7, 1, expertise=True), Test(8, 1, malus=1)))
    tests = members.tests(options)
    counts, group = Counter(), Counter()
    dice = [
        [(a, d) for a in range(1, (10 if t.expertise else 8) + 1) for d in DPM.faces]
        if t.bonus != t.malus
        else [(a, None) for a in range(1, (10 if t.expertise else 8) + 1)]
        for t in tests
    ]
    for roll in product(*dice):
        faces = [([a], [] if d is None else [d]) for a, d in roll]
        result = resolve_cooperation(members, faces, options)
        counts[sum(r.success for r in result.results)] += 1
        group[result.success] += 1
    odds = cooperation_odds(members, options)
    assert dict(odds.successes.weights) == dict(counts)
    assert odds.group == Fraction(group[True], sum(group.values()))
    assert odds.group == cooperation_success_probability(members, options)
    for test, p in zip(tests, odds.members, strict=True):
        assert p == success_probability(test, options)


def test_a_bonus_on_one_side_is_a_malus_on_the_other():
    # S-M3: exactly equivalent while nothing cancels (the text's example, S-T3).
    for t1 in THRESHOLDS:
        for t2 in THRESHOLDS:
            a = OpposedAction(ActionRoll(t1, bonus=2), ActionRoll(t2))
            b = OpposedAction(ActionRoll(t1, bonus=1), ActionRoll(t2, malus=1))
            assert opposed_distribution(a) == opposed_distribution(b)
    # Not when modifiers on both sides would cancel across sides: each side keeps its own.
    both = OpposedAction(ActionRoll(6, bonus=1), ActionRoll(6, bonus=1))
    none = OpposedAction(ActionRoll(6), ActionRoll(6))
    assert opposed_distribution(both) != opposed_distribution(none)


def test_cooperation_probability_is_one_minus_every_member_failing():
    members = Cooperation((Test(6, 2), Test(7, 2, expertise=True), Test(8, 2, malus=1)))
    fail = Fraction(1)
    for threshold, expertise, net in ((6, False, 1), (7, True, 1), (8, False, 0)):
        brute = _brute_force(threshold, expertise, net, "none")
        fail *= Fraction(sum(w for ps, w in brute.items() if ps < 2), sum(brute.values()))
    assert cooperation_success_probability(members) == 1 - fail


def test_hand_computed_odds():
    # Sergueï (S-T7): 5+ on 3D8 never makes 4 PS alone.
    assert success_probability(Test(5, 4)) == 0
    # Se Surpasser: p(3 PS) = 1/8 with at least one '+' (5/9), or p(2 PS) = 3/8 with two '+' (1/9).
    surpass = Fraction(1, 8) * Fraction(5, 9) + Fraction(3, 8) * Fraction(1, 9)
    assert success_probability(Test(5, 4, surpass=True)) == surpass == Fraction(1, 9)
    # Se Sacrifier (S-T8): 2 PS on the dice already suffice, or 1 PS and at least one '+'.
    p2 = Fraction(1, 2)
    at_least_2 = 3 * p2**3 + p2**3
    exactly_1 = 3 * p2**3
    expected = at_least_2 + exactly_1 * Fraction(5, 9) + p2**3 * Fraction(1, 9)
    assert success_probability(Test(5, 4, sacrifice=True)) == expected


# --- the live roller --------------------------------------------------------------------

ROLLS = 10_000
# 0.999 quantiles of chi-square by degrees of freedom (standard tables, fixed in advance).
CRITICAL_0999 = {
    1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322, 8: 26.124,
}  # fmt: skip
LIVE = [
    (Test(6, 2, expertise=True, bonus=1), 11),
    (Test(5, 4, surpass=True), 12),
    (Test(7, 1, malus=2), 13),
    (Test(8, 3, sacrifice=True, bonus=1, malus=2), 14),
]


def _chi_square(test, source):
    observed = Counter(roll_grouped(TEST, test, source).ps for _ in range(ROLLS))
    exact = ps_distribution(test)
    cells, obs, exp = [], 0, 0
    for ps in sorted(exact.weights):  # merge neighbours until each cell expects 5 or more
        obs += observed[ps]
        exp += exact.probability(ps) * ROLLS
        if exp >= 5:
            cells.append((obs, exp))
            obs, exp = 0, 0
    if exp:
        last_obs, last_exp = cells.pop()
        cells.append((last_obs + obs, last_exp + exp))
    assert sum(observed.values()) == ROLLS and set(observed) <= set(exact.weights)
    return float(sum((o - e) ** 2 / e for o, e in cells)), len(cells) - 1


@pytest.mark.parametrize(("test", "seed"), LIVE, ids=[str(s) for _, s in LIVE])
def test_seeded_roller_fits_exact_odds(test, seed):
    statistic, df = _chi_square(test, SeededSource(seed))
    assert df >= 2
    assert statistic < CRITICAL_0999[df]


class _LowActionDice:
    """A biased source: action dice never show their highest face; D+/- are fair."""

    def __init__(self, seed):
        self._rng = random.Random(seed)

    def roll(self, die, count):
        top = die.sides - 1 if die is not DPM else die.sides
        return tuple(die.faces[self._rng.randrange(top)] for _ in range(count))


@pytest.mark.parametrize(("test", "seed"), LIVE, ids=[str(s) for _, s in LIVE])
def test_biased_source_fails_the_same_statistic(test, seed):
    statistic, df = _chi_square(test, _LowActionDice(seed))
    assert statistic > CRITICAL_0999[df]


def test_biased_source_is_biased_only_on_action_dice():
    source = _LowActionDice(1)
    assert max(source.roll(D8, 1000)) == 7
    assert set(source.roll(DPM, 1000)) == {-1, 0, 1}
