"""The ``opposed_modifiers`` option: each side nets its own, or the difference to one side.

Source: seed 003, "Bonus et Malus"; rulings S-M3, S-M4, S-T3, S-X4.
"""

from fractions import Fraction

from tablee.systems.shs import Attempt, decide_opposed
from tablee.systems.shs.actions import ActionRoll
from tablee.systems.shs.odds import opposed_odds
from tablee.systems.shs.opposed import OpposedAction, net_across
from tablee.systems.shs.options import ShsOptions
from tests.systems.shs.test_game import table

APART, DIFFERENCE = ShsOptions(), ShsOptions(opposed_modifiers="difference")


def _first_prevails(first: ActionRoll, second: ActionRoll, options: ShsOptions) -> Fraction:
    return opposed_odds(OpposedAction(*net_across(first, second, options)), options).prevails(
        "first"
    )


def test_difference_puts_the_net_on_one_side():
    first, second = net_across(ActionRoll(6, bonus=3), ActionRoll(6, bonus=1, malus=0), DIFFERENCE)
    assert (first.bonus, first.malus, second.bonus, second.malus) == (2, 0, 0, 0)
    first, second = net_across(ActionRoll(6, surpass=True), ActionRoll(6, bonus=3), DIFFERENCE)
    assert (first.net_modifier(DIFFERENCE), second.net_modifier(DIFFERENCE)) == (0, 1)
    assert net_across(ActionRoll(6, bonus=3), ActionRoll(6, bonus=1), APART) == (
        ActionRoll(6, bonus=3),
        ActionRoll(6, bonus=1),
    )


def test_a_bonus_on_each_side_cancels_only_under_difference():
    # 6+ against 6+ on 3D8, the first side seeking change (it loses ties).
    even = _first_prevails(ActionRoll(6), ActionRoll(6), APART)
    assert even == Fraction(44235, 131072)
    both = (ActionRoll(6, bonus=1), ActionRoll(6, bonus=1))
    assert _first_prevails(*both, DIFFERENCE) == even
    assert _first_prevails(*both, APART) == Fraction(210587, 589824)
    three_two = (ActionRoll(6, bonus=3), ActionRoll(6, bonus=2))
    assert _first_prevails(*three_two, APART) == Fraction(4851655, 10616832)
    assert _first_prevails(*three_two, DIFFERENCE) == Fraction(175307, 393216)


def test_under_difference_a_bonus_for_one_is_a_malus_for_the_other_s_t3():
    # David behind barrels: Bonus 1 for him, or Malus 1 for Selma, with a Bonus 1 each too.
    for_david = _first_prevails(ActionRoll(7, bonus=1), ActionRoll(6, bonus=2), DIFFERENCE)
    on_selma = _first_prevails(ActionRoll(7, bonus=1, malus=1), ActionRoll(6, bonus=1), DIFFERENCE)
    assert for_david == on_selma
    apart_david = _first_prevails(ActionRoll(7, bonus=1), ActionRoll(6, bonus=2), APART)
    apart_selma = _first_prevails(ActionRoll(7, bonus=1, malus=1), ActionRoll(6, bonus=1), APART)
    assert apart_david != apart_selma


def test_the_table_rolls_and_stores_the_netted_dice():
    state = table("Jaleel", "Nella", options={"opposed_modifiers": "difference"})
    decision = decide_opposed(
        state,
        Attempt("Jaleel", "relationnel", bonus=2),
        Attempt("Nella", "sang_froid", bonus=1),
        first_faces=([6, 1, 1], [1]),
        second_faces=([6, 6, 1], []),
    )
    p = decision.facts[0].payload
    assert (p["first"]["bonus"], p["first"]["dice"], p["second"]["dice"]) == (2, [3, 1], [3])
    assert (p["first"]["ps"], p["second"]["ps"], p["winner"]) == (2, 2, "second")
