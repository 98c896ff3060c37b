"""The SHS odds' accelerators equal the rule code driven through the chance protocol.

With ``accelerated=False`` each odds function runs `play_test` (or `play_action`,
`play_opposed`, `play_cooperation`), the code live play throws and resolves with, through
`tablee.dice.exact`. The default convolution must give exactly the same distribution over a
grid of inputs and house rules. The live command line drives the same `throw_action`.
"""

from __future__ import annotations

import pytest

from tablee.dice import DiceRequest, Recorder, SeededSource, SourceChance
from tablee.systems.shs import (
    ActionRoll,
    Cooperation,
    OpposedAction,
    ShsOptions,
    Side,
    Test,
    cooperation_odds,
    cooperation_success_probability,
    dice_for_action,
    opposed_distribution,
    opposed_odds,
    play_test,
    ps_distribution,
    resolve_test,
    success_distribution,
    success_probability,
)

HOUSE_RULES = [
    ShsOptions(action_dice=2),
    ShsOptions(action_dice=2, option_bonus="apart"),
    ShsOptions(action_dice=2, negative_ps="zero", dpm_cap=2),
    ShsOptions(action_dice=1, option_bonus="apart", negative_ps="zero"),
]
ROLLS = [
    ActionRoll(t, e, bonus=max(n, 0), malus=max(-n, 0), surpass=o == "s", sacrifice=o == "x")
    for t in (5, 6, 8)
    for e in (False, True)
    for n in (-3, -1, 0, 2)
    for o in ("", "s", "x")
]


@pytest.mark.parametrize("options", HOUSE_RULES)
def test_ps_convolution_equals_the_rule_code_over_the_grid(options: ShsOptions) -> None:
    for roll in ROLLS:
        fast = ps_distribution(roll, options)
        slow = ps_distribution(roll, options, accelerated=False)
        assert fast.weights == slow.weights, roll  # same weights: ordered rolls counted


@pytest.mark.parametrize(
    "test",
    [Test(6, 2, bonus=1), Test(7, 1, malus=2), Test(5, 3, expertise=True, surpass=True)],
)
def test_success_with_the_rulings_readings_equals_the_rule_code(test: Test) -> None:
    assert success_distribution(test) == success_distribution(test, accelerated=False)
    for difficulty in range(1, 6):
        harder = Test(test.threshold, difficulty, expertise=test.expertise, bonus=test.bonus)
        assert success_probability(harder) == success_probability(harder, accelerated=False)


@pytest.mark.parametrize("changer", [Side.FIRST, Side.SECOND, None])
@pytest.mark.parametrize("tie", ["status_quo", "reroll"])
def test_opposed_odds_equal_the_rule_code(changer: Side | None, tie: str) -> None:
    options = ShsOptions(action_dice=1, opposed_tie=tie)
    for first, second in [
        (ActionRoll(6, bonus=1), ActionRoll(7, malus=1)),
        (ActionRoll(5, expertise=True), ActionRoll(5, sacrifice=True)),
    ]:
        inputs = OpposedAction(first, second, changer)
        fast, slow = opposed_odds(inputs, options), opposed_odds(inputs, options, accelerated=False)
        assert fast.outcomes == slow.outcomes and fast.margin == slow.margin
        assert opposed_distribution(inputs, options) == opposed_distribution(
            inputs, options, accelerated=False
        )


def test_cooperation_odds_equal_the_rule_code() -> None:
    options = ShsOptions(action_dice=1)
    for members in [
        (Test(6, 1), Test(7, 1, expertise=True)),
        (Test(6, 2), Test(8, 2, malus=1), Test(5, 2)),
    ]:
        together = Cooperation(members)
        fast = cooperation_odds(together, options)
        slow = cooperation_odds(together, options, accelerated=False)
        assert fast.members == slow.members and fast.group == slow.group
        assert fast.successes == slow.successes
        assert cooperation_success_probability(
            together, options
        ) == cooperation_success_probability(together, options, accelerated=False)


def test_live_play_asks_the_dice_the_odds_enumerate() -> None:
    test = Test(6, 2, bonus=2, surpass=True)
    options = ShsOptions(option_bonus="apart")
    recorder = Recorder(SourceChance(SeededSource(3)))
    result = play_test(test, recorder, options)
    assert [r.request for r in recorder.rolls] == [
        DiceRequest(d.die, d.count) for d in dice_for_action(test.action, options)
    ]
    action, dpm = recorder.rolls[0].faces, recorder.faces[len(recorder.rolls[0].faces) :]
    assert resolve_test(test, action, dpm, options) == result
