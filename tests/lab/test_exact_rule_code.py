"""The lab's exact tables against each game's rule code driven over every roll.

The lab calls each game's exact odds with their defaults (a closed form, or an accelerator
tested equal to the rule code); here a sample of rows is computed again with the rule code
itself: resolving every roll (`tablee.dice.exact_distribution`) or ``accelerated=False``.
"""

import pytest

from tablee.dice import exact_distribution
from tablee.lab.agents import ChallengeWin
from tablee.lab.pouyss import Opposed as PouyssOpposed
from tablee.lab.pouyss import Success
from tablee.lab.questions import LabContext
from tablee.lab.shs import Ladder
from tablee.lab.ybs import Ichika
from tablee.systems.agents.odds import challenge_win_probability
from tablee.systems.pouyss.actions import ACTION, OPPOSED, ActionRoll, OpposedRoll
from tablee.systems.shs.difficulty import Test
from tablee.systems.shs.odds import success_probability
from tablee.systems.shs.options import ShsOptions
from tablee.systems.ybs.gang_odds import ichika_odds


def test_pouyss_rows_equal_resolving_every_roll() -> None:
    for row in Success(max_bonus=2, max_malus=2).answer(LabContext()).rows:
        roll = ActionRoll(row["bonus"], row["malus"])
        dist = exact_distribution(ACTION, roll, key=lambda r: r.level.is_success(row["threshold"]))
        assert row["p_success"] == dist.probability(True), row
    for row in PouyssOpposed(max_bonus=2, active_malus=1).answer(LabContext()).rows:
        roll = OpposedRoll(row["active_bonus"], 1, row["passive_bonus"], 0)
        dist = exact_distribution(OPPOSED, roll, key=lambda r: r.passive_level.is_success(4))
        assert row["p_passive_success"] == dist.probability(True), row


def test_shs_ladder_rows_equal_the_rule_code() -> None:
    result = Ladder(max_difficulty=3, max_modifier=1).answer(LabContext())
    flags = {"none": (False, False), "se_surpasser": (True, False), "se_sacrifier": (False, True)}
    for row in result.rows:
        if (row["threshold"], row["die"], row["difficulty"]) != (6, "D8", 2):
            continue  # a sample: the rule code enumerates every roll
        surpass, sacrifice = flags[row["option"]]
        bonus, malus = max(row["modifier"], 0), max(-row["modifier"], 0)
        test = Test(
            6, row["difficulty"], bonus=bonus, malus=malus, surpass=surpass, sacrifice=sacrifice
        )
        options = ShsOptions(option_bonus=row["variant"])
        assert row["p_success"] == success_probability(test, options, accelerated=False), row


def test_agents_challenge_rows_equal_the_rule_code() -> None:
    result = ChallengeWin(reserves="2,1", modifier=1, opposition="score", max_score=4).answer(
        LabContext()
    )
    for row in result.rows:
        reserves = (2, 1)[: row["party"]]
        expected = challenge_win_probability(
            reserves, [1] * len(reserves), row["score"], accelerated=False
        )
        assert row["p_win"] == expected, row


@pytest.mark.slow
def test_ybs_ichika_five_a_side_equals_the_rule_code() -> None:
    rows = {
        (r["variant"], r["players_dice"], r["gm_dice"]): r
        for r in Ichika(max_dice=5).answer(LabContext()).rows
    }
    for tie in ("draw", "reroll"):
        odds = ichika_odds(tie=tie, accelerated=False)
        row = rows[tie, 5, 5]
        assert (row["p_win"], row["p_draw"], row["p_loss"]) == (odds.win, odds.draw, odds.loss)
        assert row["mean_throws"] == odds.expected_throws
