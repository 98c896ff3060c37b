"""Exact odds of a YBS test against an independent brute force, icepool and the live roller.

The brute force plays every sequence of faces long enough for every reroll the policy may
ask for, with its own few lines of rules (not `resolve_test`); icepool checks the tests
without a reroll; a seeded run of the live roller stays within a bound fixed in advance.
"""

from fractions import Fraction
from itertools import product
from math import sqrt

import icepool
import pytest

from tablee.dice import D6, SeededSource, exact, exact_distribution
from tablee.errors import InputError
from tablee.systems.ybs import (
    TEST,
    YbsTest,
    critical_refusal,
    odds_of_test,
    play_test,
    resolve_test,
)


def _brute(trait, force, tokens, policy, stubborn_on="any"):
    rerolls = {"any": tokens, "once": min(1, tokens), "never": 0}[policy]
    length = 1 + rerolls
    success = critical = one = spent = 0
    for seq in product(range(1, 7), repeat=length):

        def ok(n, first):
            return n == 6 or (n != 1 and n + trait + (force if first else 0) >= 4)

        i = 0
        while (
            i < rerolls
            and not ok(seq[i], i == 0)
            and seq[i] != 6
            and (stubborn_on == "any" or seq[i] == 1)
        ):
            i += 1
        n = seq[i]
        success += ok(n, i == 0)
        critical += n == 6 and tokens - i >= 1
        one += n == 1
        spent += i
    total = 6**length
    return tuple(Fraction(v, total) for v in (success, critical, one, spent))


@pytest.mark.parametrize("policy", ["any", "once", "never"])
@pytest.mark.parametrize("stubborn_on", ["any", "one"])
def test_exact_odds_equal_the_brute_force(policy, stubborn_on):
    for trait in range(-2, 3):
        for force in range(4):
            for tokens in range(4):
                odds = odds_of_test(
                    trait, force=force, tokens=tokens, policy=policy, stubborn_on=stubborn_on
                )
                got = (odds.success, odds.critical, odds.natural_one, odds.expected_rerolls)
                assert got == _brute(trait, force, tokens, policy, stubborn_on), (trait, force)


def test_one_throw_odds_equal_icepool_and_the_enumeration():
    for trait in range(-2, 3):
        for force in range(4):
            die = icepool.d6.map(
                lambda n, t=trait, f=force: int(n == 6 or (n != 1 and n + t + f >= 4))
            )
            expected = Fraction(die.quantity(1), die.denominator())
            odds = odds_of_test(trait, force=force, tokens=0, policy="never")
            assert odds.success == expected
            dist = exact_distribution(TEST, YbsTest(trait, force), key=lambda r: r.success)
            assert dist.probability(True) == expected


def test_known_values():
    # trait 0, no token: success on 4, 5, 6
    assert odds_of_test(0).success == Fraction(1, 2)
    # trait +2 forced 3: only a natural 1 fails, and no token is left for a critical
    odds = odds_of_test(2, force=3, tokens=0)
    assert (odds.success, odds.critical) == (Fraction(5, 6), 0)
    # two tokens, reroll any failure: 1/2 + 1/2 * 3/4
    assert odds_of_test(0, tokens=2).success == Fraction(7, 8)


def test_bad_odds_input_is_refused():
    for kwargs in ({"force": 4}, {"policy": "always"}, {"tokens": 101}, {"tokens": -1}):
        with pytest.raises(InputError):
            odds_of_test(0, **kwargs)


def _live(test, source, policy):
    faces = [source.roll(D6, 1)[0]]
    while True:
        result = resolve_test(test, faces)
        again = not result.success and result.natural != 6 and result.rerolls < test.tokens
        if again and (policy == "any" or result.rerolls == 0):
            faces.append(source.roll(D6, 1)[0])
            continue
        return result


def test_live_roller_agrees_with_the_exact_odds():
    source, runs = SeededSource(20261129), 20_000
    test = YbsTest(-1, 1, 2)
    hits = sum(_live(test, source, "any").success for _ in range(runs))
    p = float(odds_of_test(-1, force=1, tokens=2, policy="any").success)
    bound = 5 * sqrt(p * (1 - p) / runs)  # fixed in advance: five standard errors
    assert abs(hits / runs - p) < bound


@pytest.mark.parametrize("trait", [-2, 0, 1])
@pytest.mark.parametrize("force", [0, 2])
@pytest.mark.parametrize("tokens", [0, 1, 3])
@pytest.mark.parametrize(("policy", "stubborn"), [("any", "repeat"), ("once", "once")])
@pytest.mark.parametrize("stubborn_on", ["any", "one"])
def test_chain_of_throws_equals_every_whole_test_played(
    trait, force, tokens, policy, stubborn, stubborn_on
):
    # The odds memoise the chain on the number of rerolls; here every whole test is played
    # by play_test (reroll every failure the rules allow) and enumerated without memo.
    test = YbsTest(trait, force, tokens, stubborn, stubborn_on)

    def run(chance):
        result = play_test(test, chance, lambda r: not r.success)
        critical = critical_refusal(test, result.faces) is None
        return result.success, critical, result.natural == 1, result.rerolls

    whole = exact(run)
    odds = odds_of_test(trait, force=force, tokens=tokens, policy=policy, stubborn_on=stubborn_on)
    assert odds.success == whole.probability_where(lambda k: k[0])
    assert odds.critical == whole.probability_where(lambda k: k[1])
    assert odds.natural_one == whole.probability_where(lambda k: k[2])
    assert odds.expected_rerolls == sum((p * k[3] for k, p in whole.items()), Fraction(0))


@pytest.mark.parametrize(
    ("force", "english", "french"),
    [
        (0, "trait +1, 2 tokens left", "trait +1, il reste 2 jetons"),
        (2, "trait +1, forced 2, 2 tokens left", "trait +1, destin forcé 2, il reste 2 jetons"),
    ],
)
def test_an_odds_note_names_forced_destiny_only_when_tokens_force_it(
    force: int, english: str, french: str
) -> None:
    from tablee.locale import translation
    from tablee.systems.ybs.odds import odds_of_test
    from tablee.systems.ybs.views import test_odds

    odds = odds_of_test(1, force=force, tokens=2, policy="any")
    note = test_odds(odds, trait=1, force=force, tokens=2, policy="any").note
    assert note is not None and not isinstance(note, str)
    assert note.render(translation("en").gettext).startswith(english + ",")
    assert note.render(translation("fr").gettext).startswith(french + ",")
