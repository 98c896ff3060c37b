"""The pure YBS rules: characters, tests, tokens, damage, fights, evolution, options."""

import pytest

from tablee.errors import InputError, RuleError
from tablee.systems.ybs import (
    GM,
    Boxes,
    Character,
    Defence,
    Ledger,
    TokenMove,
    Trait,
    YbsOptions,
    YbsTest,
    attack_damage,
    award_star,
    combined_trait,
    create_character,
    gate_reasons,
    heal_kega,
    parse_sheets,
    refit,
    resolve_test,
    rest,
    set_trait,
    take_damage,
    transfer,
    trauma,
)

ZERO = dict.fromkeys((t.value for t in Trait), 0)


def hero(**traits):
    return create_character("Aki", {**ZERO, **traits})


# --- characters ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [3, -3, "1", True, 1.0])
def test_a_trait_outside_minus_two_plus_two_is_refused(value):
    with pytest.raises(
        InputError, match=r"^Chisei .* must be a whole number from -2 to 2 \(rule Y-M1\)"
    ):
        create_character("Aki", {**ZERO, "chisei": value})


def test_a_missing_or_unknown_trait_is_named():
    with pytest.raises(InputError, match="Nintai"):
        create_character("Aki", {k: v for k, v in ZERO.items() if k != "nintai"})
    with pytest.raises(InputError, match="force"):
        create_character("Aki", {**ZERO, "force": 1})


def test_hit_points_follow_choushi_from_minus_two_to_plus_two():
    assert [hero(choushi=c).hit_points for c in range(-2, 3)] == [2, 3, 4, 5, 6]


def test_boxes_never_exceed_hit_points():
    with pytest.raises(InputError, match="do not fit"):
        Character("Aki", (0,) * 6, uchimi=3, kega=2)


def test_sheets_from_json_and_toml_name_the_bad_field():
    sheets = parse_sheets(
        '{"characters": [{"name": "Aki", "player": "A", "traits": {"choushi": 1, "kiyousa": 1,'
        ' "chisei": 0, "yuuben": 0, "chikaku": -1, "nintai": 0}, "attributes": ["surfer"]}]}',
        toml=False,
        where="a.json",
    )
    assert sheets[0]["traits"]["choushi"] == 1 and sheets[0]["owner"] == "A"
    toml = (
        'name = "Bo"\nchoushi = 0\nkiyousa = 0\nchisei = 0\nyuuben = 0\nchikaku = 0\nnintai = 3\n'
    )
    with pytest.raises(InputError, match=r"b\.toml, character 1: Nintai 3 must be a whole number"):
        parse_sheets(toml, toml=True, where="b.toml")
    with pytest.raises(InputError, match="unknown field 'hp'"):
        parse_sheets('{"name": "C", "hp": 4}', toml=False, where="c.json")
    with pytest.raises(InputError, match="not valid"):
        parse_sheets("{", toml=False, where="d.json")


# --- tests ---------------------------------------------------------------------------------


def test_two_traits_average_rounds_down_or_limit_takes_the_lower():
    assert combined_trait(1, 0, "average") == 0
    assert combined_trait(-1, 0, "average") == -1
    assert combined_trait(2, -1, "limit") == -1
    with pytest.raises(InputError):
        combined_trait(1, 0, "sum")


def test_forcing_more_than_three_is_refused():
    with pytest.raises(InputError, match="force"):
        YbsTest(0, force=4)


def test_rerolls_follow_the_reading_and_the_tokens():
    with pytest.raises(RuleError, match="natural 6"):
        resolve_test(YbsTest(0, tokens=3), [6, 2])
    with pytest.raises(RuleError, match="only one reroll"):
        resolve_test(YbsTest(0, tokens=3, stubborn="once"), [1, 1, 2])
    with pytest.raises(RuleError, match="follows only a natural 1"):
        resolve_test(YbsTest(0, tokens=3, stubborn_on="one"), [2, 3])
    with pytest.raises(RuleError, match="needs a token"):
        resolve_test(YbsTest(0, tokens=1), [1, 1, 5])
    # any natural 1 to 5 may be rerolled, even a success (Y-A3)
    assert resolve_test(YbsTest(0, tokens=2), [5, 3]).success is False


def test_criticals_need_the_right_die_and_a_token():
    with pytest.raises(RuleError, match="natural 6"):
        resolve_test(YbsTest(0, tokens=1, critical=True), [5])
    with pytest.raises(RuleError, match="none is left"):
        resolve_test(YbsTest(0, force=1, tokens=0, critical=True), [6])
    with pytest.raises(RuleError, match="natural 1"):
        resolve_test(YbsTest(0, critical_failure=True), [2])
    # a critical failure is decided on the final die only (Y-A5)
    assert resolve_test(YbsTest(0, tokens=1, critical_failure=True), [6 - 5, 1]).token_gained == 1
    assert resolve_test(YbsTest(0, critical_failure=True, npc=True), [1]).token_gained == 0


# --- tokens --------------------------------------------------------------------------------


def test_the_ledger_conserves_tokens_and_refuses_a_short_giver():
    ledger = Ledger.new(10, ["A", "B"]).apply([TokenMove(GM, "A", 2, "session_start")])
    assert ledger.gm + sum(ledger.players.values()) == 10
    with pytest.raises(RuleError, match="Shichi Fukujin needs 7"):
        ledger.apply([TokenMove("A", GM, 7, "shichi_fukujin")])
    with pytest.raises(RuleError, match="bag"):
        ledger.apply([TokenMove(GM, "B", 9, "invoke")])


# --- damage --------------------------------------------------------------------------------


def test_overflow_turns_slashes_into_crosses_then_emergency():
    boxes = take_damage(Boxes(3), uchimi=3)
    assert boxes.prostrate and (boxes.uchimi, boxes.kega) == (3, 0)
    boxes = take_damage(boxes, kega=1)
    assert (boxes.uchimi, boxes.kega) == (2, 1)
    boxes = take_damage(boxes, uchimi=2)
    assert (boxes.uchimi, boxes.kega, boxes.emergency) == (0, 3, False)
    assert take_damage(boxes, uchimi=1).emergency


def test_rest_heals_uchimi_only_by_whole_half_hours():
    boxes = take_damage(Boxes(4), uchimi=2, kega=1)
    assert rest(boxes, 59) == (Boxes(4, 1, 1), 1)
    assert rest(boxes, 600) == (Boxes(4, 0, 1), 2)
    assert heal_kega(boxes).kega == 0
    with pytest.raises(InputError):
        heal_kega(boxes, 2)


def test_losing_boxes_never_heals():
    assert refit(Boxes(5, 3, 2), 4) == Boxes(4, 2, 2)
    assert refit(Boxes(5, 0, 5), 4).emergency


# --- fights --------------------------------------------------------------------------------


def test_the_nintai_gate():
    fresh = hero(choushi=1)
    assert gate_reasons(fresh, target_armed=False) == ()
    assert gate_reasons(fresh, target_armed=True) == ("armed_target",)
    hurt = Character("B", (1, 0, 0, 0, 0, 0), uchimi=2, kega=1)  # 3 of 5 boxes
    assert gate_reasons(hurt, target_armed=False) == ("half_boxes", "kega")
    assert gate_reasons(Character("C", (1, 0, 0, 0, 0, 0), uchimi=2), target_armed=False) == ()


def test_attack_damage_and_the_defence():
    assert attack_damage(success=True, critical=False, defence=None) == 1
    assert attack_damage(success=True, critical=True, defence=None) == 2
    assert attack_damage(success=True, critical=False, defence=Defence(True)) == 0
    assert attack_damage(success=True, critical=True, defence=Defence(True)) == 2
    assert attack_damage(success=True, critical=True, defence=Defence(True, True)) == 0
    assert attack_damage(success=False, critical=False, defence=None) == 0


# --- evolution -----------------------------------------------------------------------------


def test_a_third_trait_at_plus_two_is_refused():
    two = set_trait(set_trait(hero(chisei=1), Trait.CHOUSHI, 2), Trait.NINTAI, 2)
    with pytest.raises(RuleError, match="at most two"):
        transfer(two, Trait.KIYOUSA, Trait.CHISEI)
    for _ in range(4):
        two = award_star(two, Trait.CHISEI).hero
    with pytest.raises(RuleError, match="at most two"):
        award_star(two, Trait.CHISEI)
    assert award_star(two, Trait.CHOUSHI).wasted


def test_transfers_stay_within_the_scale_and_refit_boxes():
    with pytest.raises(RuleError, match="-2"):
        transfer(hero(chisei=-2), Trait.CHISEI, Trait.NINTAI)
    with pytest.raises(InputError):
        transfer(hero(), Trait.CHISEI, Trait.CHISEI)
    moved = transfer(hero(), Trait.CHOUSHI, Trait.NINTAI)
    assert (moved.trait(Trait.CHOUSHI), moved.hit_points, moved.trait(Trait.NINTAI)) == (-1, 3, 1)


def test_trauma_needs_three_kega_and_leaves_minus_two():
    with pytest.raises(RuleError, match="3"):
        trauma(Character("A", (0,) * 6, kega=2), Trait.CHISEI)
    assert trauma(Character("A", (0, 0, -2, 0, 0, 0), kega=3), Trait.CHISEI).trait("chisei") == -2


def test_options_parse_text_and_refuse_bad_values():
    options = YbsOptions().with_changes({"stubborn": "once", "critical_boxes": "3"})
    assert (options.stubborn, options.critical_boxes) == ("once", 3)
    for bad in ({"stubborn": "twice"}, {"critical_boxes": "9"}, {"nope": "1"}):
        with pytest.raises(InputError):
            YbsOptions().with_changes(bad)
