"""SHS lab tables against the text's worked examples and icepool.

icepool's own reading of S-M2: three action dice each counting 1 PS at the threshold or
above; ``|N|`` D+/- (two "+", two "−", two blank faces) adding their "+" for a Bonus or
removing their "−" for a Malus; an option's Bonus 2 netted in (``net``) or rolled on its own
(``apart``, S-A7); Se Sacrifier adds 2 PS.
"""

from fractions import Fraction

import icepool

from tablee.lab.questions import LabContext
from tablee.lab.shs import Cooperate, Ladder, Opposed

DPM = icepool.Die([1, 1, -1, -1, 0, 0])
PLUS = DPM.map(lambda f: int(f == 1))
MINUS = DPM.map(lambda f: int(f == -1))


def _ps(threshold: int, d10: bool, modifier: int, option: str, reading: str = "net") -> icepool.Die:
    die = icepool.d10 if d10 else icepool.d8
    ps = 3 @ (die >= threshold)
    net = modifier + (2 if option != "none" and reading == "net" else 0)
    if option != "none" and reading == "apart":
        ps = ps + 2 @ PLUS
    if net > 0:
        ps = ps + net @ PLUS
    elif net < 0:
        ps = ps - (-net) @ MINUS
    if option == "se_sacrifier":
        ps = ps + 2
    return ps


def _p(die: icepool.Die) -> Fraction:
    return Fraction(die.quantity(True), die.denominator())


def test_ladder_equals_icepool_under_both_readings_of_the_option_bonus() -> None:
    result = Ladder(max_difficulty=5, max_modifier=3).answer(LabContext())
    assert {v.name for v in result.variants} == {"net", "apart"}
    for row in result.rows:
        ps = _ps(
            row["threshold"], row["die"] == "D10", row["modifier"], row["option"], row["variant"]
        )
        assert row["p_success"] == _p(ps >= row["difficulty"]), row
        assert row["mean_ps"] == Fraction(ps.mean()), row


def _row(result, **where):
    found = [r for r in result.rows if all(r[k] == v for k, v in where.items())]
    assert len(found) == 1, where
    return found[0]


def test_ladder_worked_examples() -> None:
    result = Ladder(compare="none").answer(LabContext())
    # S-T1: Jake, Motricité 6+ with Expertise (3D10), Difficulty 2: each D10 hits on 5 of
    # 10 faces, so 2 or 3 hits out of 3 is 4/8.
    jake = _row(result, option="none", die="D10", threshold=6, modifier=0, difficulty=2)
    assert jake["p_success"] == Fraction(1, 2)
    # S-T7: Sergueï, Carrure 5+, Difficulty 4 (Extrême): without an option 3 PS at most, no
    # chance at all; with Se Surpasser, 3 hits and a "+", or 2 hits and two "+".
    alone = _row(result, option="none", die="D8", threshold=5, modifier=0, difficulty=4)
    assert alone["p_success"] == 0
    surpass = _row(result, option="se_surpasser", die="D8", threshold=5, modifier=0, difficulty=4)
    assert surpass["p_success"] == Fraction(1, 8) * Fraction(5, 9) + Fraction(3, 8) * Fraction(1, 9)
    # S-T10: Natalia, Motricité 5+, Difficulty 1 with Malus 1.
    natalia = _row(result, option="none", die="D8", threshold=5, modifier=-1, difficulty=1)
    assert natalia["p_success"] == _p(_ps(5, False, -1, "none") >= 1)


def test_dpm_cap_changes_only_rows_above_the_cap() -> None:
    result = Ladder(max_modifier=6, max_difficulty=3, compare="dpm_cap").answer(LabContext())
    by = {}
    for row in result.rows:
        key = tuple(row[k] for k in ("option", "die", "threshold", "modifier", "difficulty"))
        by.setdefault(key, {})[row["variant"]] = row["p_success"]
    differ = 0
    for (option, _die, _t, modifier, _d), pair in by.items():
        net = modifier + (2 if option != "none" else 0)
        if abs(net) <= 5:
            assert pair["no_cap"] == pair["cap_5"]
        elif pair["no_cap"] != pair["cap_5"]:
            differ += 1
    assert differ > 0


def _opposed_icepool(one, two, modifier, reading):
    first = _ps(one, False, modifier if reading != "difference" or modifier > 0 else 0, "none")
    second_bonus = -modifier if reading == "difference" and modifier < 0 else 0
    second = _ps(two, False, second_bonus, "none")
    if reading == "zero":
        first, second = first.map(lambda v: max(v, 0)), second.map(lambda v: max(v, 0))
    return first, second


def test_opposed_equals_icepool_for_each_reading() -> None:
    for compare, readings in (
        ("opposed_modifiers", ("apart", "difference")),
        ("negative_ps", ("signed", "zero")),
        ("opposed_tie", ("status_quo", "reroll")),
    ):
        result = Opposed(max_modifier=2, compare=compare).answer(LabContext())
        assert tuple(v.name for v in result.variants) == readings
        for row in result.rows:
            first, second = _opposed_icepool(
                row["first_threshold"], row["second_threshold"], row["modifier"], row["variant"]
            )
            wins = _p(first > second)
            tie = _p(first == second)
            assert row["p_tie"] == tie, row
            if row["variant"] == "reroll":
                assert (row["p_first"], row["p_second"]) == (wins, 1 - wins - tie), row
            else:
                # S-A5: the first side seeks the change, so a tie keeps the status quo.
                assert (row["p_first"], row["p_second"]) == (wins, 1 - wins), row
            assert row["mean_margin"] == Fraction(first.mean()) - Fraction(second.mean())


def test_opposed_readings_of_the_modifiers_agree_on_signed_totals() -> None:
    # S-M3, S-A3: with signed totals a "−" off one side moves the margin as a "+" on the
    # other does, so netting the difference changes nothing but the dice thrown.
    result = Opposed(max_modifier=2, compare="opposed_modifiers").answer(LabContext())
    pairs = {}
    for row in result.rows:
        key = (row["first_threshold"], row["second_threshold"], row["modifier"])
        pairs.setdefault(key, {})[row["variant"]] = row["p_first"]
    for (_one, _two, modifier), pair in pairs.items():
        assert pair["apart"] == pair["difference"], modifier


def test_cooperation_is_one_minus_every_member_failing_with_bonus_one() -> None:
    # S-M6, S-T5: each cooperator rolls with Bonus 1; one success is the group's.
    result = Cooperate(max_members=4, max_difficulty=3).answer(LabContext())
    for row in result.rows:
        if row["members"] == 1:
            member = _p(_ps(row["threshold"], False, 0, "none") >= row["difficulty"])
            assert row["p_group"] == member
            continue
        member = _p(_ps(row["threshold"], False, 1, "none") >= row["difficulty"])
        assert row["p_group"] == 1 - (1 - member) ** row["members"], row
        assert row["mean_successes"] == row["members"] * member


def test_ladder_follows_the_number_of_action_dice() -> None:
    # S-A1 as a house rule: one action die at 5+ on a D8 succeeds on 4 faces of 8.
    result = Ladder(max_difficulty=2, max_modifier=0, option="none", action_dice=1).answer(
        LabContext()
    )
    row = _row(result, variant="net", die="D8", threshold=5, modifier=0, difficulty=1)
    assert row["p_success"] == Fraction(1, 2) and row["mean_ps"] == Fraction(1, 2)
    assert (
        _row(result, variant="net", die="D8", threshold=5, modifier=0, difficulty=2)["p_success"]
        == 0
    )
