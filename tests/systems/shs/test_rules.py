"""SHS rules: bad input refused with the value and the rule, cooperation, simultaneous
Actions, opposed ties, the clock, traces and options."""

import pytest

from tablee.dice import TypedFaces
from tablee.errors import InputError, RuleError
from tablee.systems.shs import (
    TEST,
    ActionRoll,
    Characteristic,
    Clock,
    Cooperation,
    Duration,
    OpposedAction,
    SceneKind,
    ShsOptions,
    Side,
    TemporaryModifier,
    Test,
    add_modifier,
    adjust_counter,
    advance_time,
    after_action,
    characteristic_named,
    create_protagonist,
    dice_for_action,
    difficulty_name,
    difficulty_named,
    kill,
    modifier_totals,
    modifiers_in_force,
    next_tour,
    notation_of,
    parse_dpm_face,
    parse_duration,
    parse_test_notation,
    parse_threshold,
    prepare_test,
    remove_modifier,
    resolve_action,
    resolve_cooperation,
    resolve_opposed,
    resolve_test,
    roll_grouped,
    rolls_due,
    set_counter,
    simultaneous_actions,
    start_long_action,
    start_scene,
    threshold_adjective,
)


def _hero(**changes):
    fields = dict(carrure=5, motricite=6, science=7, relationnel=8, sang_froid=6)
    fields.update(changes)
    fields.setdefault("expertises", ["Sauter", "Piloter"])
    return create_protagonist("Sergueï", **fields)


def _raises(kind, call, *words):
    with pytest.raises(kind) as caught:
        call()
    for word in words:
        assert word in str(caught.value), (word, str(caught.value))
    return caught.value


# --- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize("threshold", [4, 9, 0, -6, "6", 6.0, True, None])
def test_threshold_outside_5_to_8_is_refused(threshold):
    _raises(InputError, lambda: Test(threshold, 2), repr(threshold), "S-M9")
    _raises(InputError, lambda: ActionRoll(threshold), repr(threshold), "S-M9")


def test_threshold_as_the_text_writes_it():
    assert parse_threshold("6+") == parse_threshold(" 6 ") == parse_threshold(6) == 6
    _raises(InputError, lambda: parse_threshold("9+"), "9+", "S-M9")
    assert [threshold_adjective(t) for t in (8, 7, 6, 5)] == [
        "Mauvais",
        "Passable",
        "Bon",
        "Très bon",
    ]


@pytest.mark.parametrize("difficulty", [0, -1, "2", 1.5, False])
def test_difficulty_below_1_is_refused(difficulty):
    error = _raises(InputError, lambda: Test(6, difficulty), repr(difficulty), "S-A4")
    assert "trivial" in error.render()


def test_difficulty_names_are_only_the_texts():
    assert difficulty_named("Difficile") == 2
    assert difficulty_named("extreme") == difficulty_named("Extrême") == 4
    assert difficulty_named("3") == difficulty_named(3) == 3
    assert (difficulty_name(2), difficulty_name(4), difficulty_name(3)) == (
        "Difficile",
        "Extrême",
        None,
    )
    _raises(InputError, lambda: difficulty_named("Facile"), "Facile", "S-A4")
    _raises(InputError, lambda: difficulty_named(0), "0", "S-A4")


def test_two_options_on_one_action_are_refused():
    _raises(
        RuleError,
        lambda: Test(6, 2, surpass=True, sacrifice=True),
        "Se Surpasser",
        "Se Sacrifier",
        "S-M5",
    )
    hero = _hero()
    _raises(
        RuleError,
        lambda: prepare_test(hero, "Carrure", 4, surpass=True, sacrifice=True),
        "S-M5",
    )


def test_an_option_on_a_second_simultaneous_action_is_refused():
    actions = [Test(5, 1, surpass=True), Test(7, 1), Test(6, 1, sacrifice=True)]
    error = _raises(RuleError, lambda: simultaneous_actions(actions), "S-M5", "Se Sacrifier")
    assert error.params["number"] == 3 and error.params["first"] == 1
    assert simultaneous_actions(actions[:2])[0].option.value == "se_surpasser"


def test_a_dead_protagoniste_cannot_act():
    dead = kill(_hero())
    _raises(RuleError, lambda: prepare_test(dead, "Science", 2), "Sergueï", "S-A8")
    result = resolve_test(Test(5, 4), [5, 8, 1], [])
    _raises(RuleError, lambda: after_action(dead, result.roll), "Sergueï", "dead")


@pytest.mark.parametrize(
    ("field", "value"),
    [("carrure", 9), ("motricite", 4), ("science", "7"), ("relationnel", None), ("sang_froid", 0)],
)
def test_protagoniste_thresholds_name_the_field(field, value):
    _raises(InputError, lambda: _hero(**{field: value}), field, repr(value), "S-M9")


def test_protagoniste_counters_name_the_field():
    hero = _hero()
    _raises(InputError, lambda: set_counter(hero, "sante", 13), "sante", "13", "12")
    _raises(InputError, lambda: set_counter(hero, "nt", -1), "nt", "-1")
    _raises(InputError, lambda: set_counter(hero, "moral", 1), "moral")
    _raises(InputError, lambda: _hero(air=-5), "air", "-5")
    _raises(InputError, lambda: create_protagonist("", carrure=5, motricite=5, science=5,
                                                   relationnel=5, sang_froid=5))  # fmt: skip
    _raises(InputError, lambda: prepare_test(hero, "Charisme", 2), "Charisme", "S-M9")
    _raises(InputError, lambda: prepare_test(hero, "Motricité", 2, expertise="Courir"), "Courir")
    _raises(InputError, lambda: _hero(expertises=["Tirer", "tirer"]), "Tirer")


def test_faces_that_do_not_fit_are_refused():
    test = Test(6, 2, bonus=1)
    _raises(InputError, lambda: resolve_test(test, [1, 2], [0]), "3", "2")
    _raises(InputError, lambda: resolve_test(test, [1, 2, 9], [0]), "9", "a D8", "S-M2")
    # The dice as players name them, and the rule that asks for them; never "dpm".
    for call, words in (
        (
            lambda: resolve_test(test, [1, 2, 3], []),
            ("faces of +/- dice given: 0", "needs 1", "S-M3"),
        ),
        (lambda: resolve_test(test, [1, 2, 3], [2]), ("2 is not a face of a +/- die", "S-N3")),
        (lambda: resolve_test(test, [1, 2], [0]), ("D8 faces given: 2", "needs 3", "S-A1")),
        (lambda: parse_dpm_face(3), ("3 is not a face of a +/- die", "S-N3")),
        (lambda: parse_dpm_face("x"), ("'x' is not a face of a +/- die", "S-N3")),
    ):
        assert "dpm" not in str(_raises(InputError, call, *words))
    _raises(InputError, lambda: resolve_test(Test(6, 2, expertise=True), [10, 11, 1], []), "D10")
    _raises(InputError, lambda: parse_dpm_face("++"), "++", "S-N3")
    assert [parse_dpm_face(f) for f in ("+", "-", "−", "", "0", 1)] == [1, -1, -1, 0, 0, 1]
    source = TypedFaces([6, 7, 8, 1, 1])
    _raises(InputError, lambda: (roll_grouped(TEST, test, source), source.finish()), "5")


def test_modifier_counts_are_checked():
    _raises(InputError, lambda: Test(6, 2, bonus=-1), "bonus", "-1", "S-M3")
    _raises(InputError, lambda: Test(6, 2, malus=51), "malus", "51")
    _raises(InputError, lambda: Test(6, 2, expertise="yes"), "expertise")


def test_notation_round_trip_and_bad_notation():
    notation = parse_test_notation("test(sang froid, Difficile)")
    assert str(notation) == "Test (Sang-froid, 2)"
    assert characteristic_named("SANG-FROID") is Characteristic.SANG_FROID
    _raises(InputError, lambda: parse_test_notation("Test Science 3"), "Test Science 3", "S-M2")
    _raises(InputError, lambda: parse_test_notation("Test (Charme, 3)"), "Charme")
    _raises(InputError, lambda: notation_of(Test(6, 3)), "S-M2")


def test_options_are_checked_and_parsed():
    options = ShsOptions().with_changes({"opposed_tie": "reroll", "dpm_cap": "5"})
    assert (options.opposed_tie, options.dpm_cap) == ("reroll", 5)
    assert ShsOptions.from_json(options.to_json()) == options
    assert ShsOptions().with_changes({"dpm_cap": "none"}).dpm_cap is None
    _raises(InputError, lambda: ShsOptions(action_dice=0), "action_dice", "0")
    _raises(InputError, lambda: ShsOptions().with_changes({"negative_ps": "x"}), "negative_ps")
    _raises(InputError, lambda: ShsOptions().with_changes({"bonus": "1"}), "bonus")
    _raises(InputError, lambda: ShsOptions().with_changes({"cooperation_options": "peut-être"}))


# --- the Action -------------------------------------------------------------------------


def test_signed_total_and_the_zero_option():
    # S-A3: 0 PS on the dice and two '-' under Malus 2: -2 PS, shown as 0 with negative_ps.
    test = Test(8, 1, malus=2)
    signed = resolve_test(test, [1, 2, 3], [-1, -1])
    assert (signed.roll.signed_ps, signed.ps, signed.success) == (-2, -2, False)
    zero = resolve_test(test, [1, 2, 3], [-1, -1], ShsOptions(negative_ps="zero"))
    assert (zero.roll.signed_ps, zero.ps) == (-2, 0)


def test_an_option_is_a_bonus_netted_with_the_maluses():
    # S-A7: Malus 3 and Se Surpasser give a net Malus 1.
    roll = ActionRoll(6, malus=3, surpass=True)
    assert roll.net_modifier() == -1
    assert [r.count for r in dice_for_action(roll)] == [3, 1]
    result = resolve_action(roll, [6, 6, 1], [-1])
    assert (result.ps, result.nt_gain) == (1, 1)


def test_dpm_cap_limits_the_net_modifier_dice():
    roll = ActionRoll(6, bonus=7)
    assert [r.count for r in dice_for_action(roll, ShsOptions(dpm_cap=5))] == [3, 5]
    assert [r.count for r in dice_for_action(roll)] == [3, 7]  # S-A13: no cap by default


def test_traces_render():
    results = [
        resolve_test(Test(5, 4, sacrifice=True, malus=1), [5, 8, 1], [1]),
        resolve_test(Test(8, 1, malus=2), [1, 2, 3], [-1, -1], ShsOptions(negative_ps="zero")),
        resolve_test(Test(6, 2, surpass=True), [1, 2, 3], [1, 0], ShsOptions(option_bonus="apart")),
    ]
    for result in results:
        text = [step.render() for step in result.trace]
        assert all(text) and "{" not in " ".join(text)
    assert "dies" in results[0].trace[-1].render()


# --- cooperation and simultaneous Actions ----------------------------------------------


def test_cooperation_gives_each_a_bonus_and_needs_one_success():
    coop = Cooperation((Test(6, 3), Test(7, 3, expertise=True)))
    assert [t.bonus for t in coop.tests()] == [1, 1]
    fail = resolve_cooperation(coop, [([6, 6, 1], [0]), ([7, 1, 1], [1])])
    assert not fail.success and [r.ps for r in fail.results] == [2, 2]
    win = resolve_cooperation(coop, [([6, 6, 1], [1]), ([1, 1, 1], [0])])
    assert win.success and [r.success for r in win.results] == [True, False]
    assert all("{" not in s.render() for s in win.trace)


def test_cooperation_rules():
    _raises(InputError, lambda: Cooperation((Test(6, 3),)), "S-M6")
    _raises(InputError, lambda: Cooperation((Test(6, 3), Test(6, 2))), "2, 3", "S-M6")
    coop = Cooperation((Test(6, 3, surpass=True), Test(6, 3, sacrifice=True)))
    assert len(coop.tests()) == 2  # S-A14: one option per Protagoniste is allowed
    no = ShsOptions(cooperation_options=False)
    _raises(RuleError, lambda: coop.tests(no), "S-A14", "Se Surpasser")
    _raises(InputError, lambda: resolve_cooperation(coop, [([1, 1, 1], [0, 0])]), "2")


def test_simultaneous_malus_counts_every_action():
    run, hack, shout = Test(5, 1), Test(7, 1), Test(8, 2, bonus=1)
    assert [t.malus for t in simultaneous_actions([run, hack])] == [1, 1]
    assert [t.malus for t in simultaneous_actions([run, hack, shout])] == [2, 2, 2]
    # A trivial Action (a bag grabbed while fleeing) still counts (S-M7).
    assert simultaneous_actions([run], trivial=1)[0].malus == 1
    off = ShsOptions(trivial_actions_count=False)
    assert simultaneous_actions([run], trivial=1, options=off)[0].malus == 0
    assert simultaneous_actions([ActionRoll(6)], trivial=2)[0].malus == 2
    _raises(InputError, lambda: simultaneous_actions([]), "S-M7")
    _raises(InputError, lambda: simultaneous_actions([run], trivial=-1), "-1", "S-M7")


# --- opposed Actions --------------------------------------------------------------------

ONE_PS, TWO_PS = ([6, 1, 1], []), ([6, 6, 1], [])


def test_opposed_tie_keeps_the_status_quo():
    inputs = OpposedAction(ActionRoll(6), ActionRoll(6), Side.FIRST)
    tie = resolve_opposed(inputs, ONE_PS, ONE_PS)
    assert (tie.tie, tie.winner, tie.status_quo, tie.reroll) == (True, Side.SECOND, True, False)
    second_changes = OpposedAction(ActionRoll(6), ActionRoll(6), Side.SECOND)
    assert resolve_opposed(second_changes, ONE_PS, ONE_PS).winner is Side.FIRST
    symmetric = resolve_opposed(OpposedAction(ActionRoll(6), ActionRoll(6), None), TWO_PS, TWO_PS)
    assert (symmetric.winner, symmetric.status_quo) == (None, True)
    for result in (tie, symmetric):
        assert "situation" in result.trace[-1].render()
        assert "S-A5" not in result.trace[-1].render()


def test_opposed_tie_reroll_option_and_plain_wins():
    inputs = OpposedAction(ActionRoll(6), ActionRoll(6))
    reroll = resolve_opposed(inputs, ONE_PS, ONE_PS, ShsOptions(opposed_tie="reroll"))
    assert (reroll.reroll, reroll.winner) == (True, None)
    win = resolve_opposed(inputs, TWO_PS, ONE_PS)
    assert (win.winner, win.status_quo, win.tie) == (Side.FIRST, False, False)


def test_opposed_negative_totals():
    # S-A3: -1 against 0 is a loss when signed, a tie when totals stop at 0.
    inputs = OpposedAction(ActionRoll(8, malus=1), ActionRoll(8), Side.SECOND)
    low = ([1, 1, 1], [-1])
    assert resolve_opposed(inputs, low, ([1, 1, 1], [])).winner is Side.SECOND
    zero = resolve_opposed(inputs, low, ([1, 1, 1], []), ShsOptions(negative_ps="zero"))
    assert zero.tie and zero.winner is Side.FIRST


# --- the clock --------------------------------------------------------------------------


def _malus(target, duration, amount=1):
    return TemporaryModifier(target, "malus", amount, parse_duration(duration))


def test_tour_modifiers_expire_by_themselves():
    clock = next_tour(start_scene(Clock(), SceneKind.RYTHMEE))
    clock = add_modifier(clock, _malus("Dalia", "(2 Tours)"))
    clock = add_modifier(clock, TemporaryModifier("Dalia", "bonus", 2, Duration(tours=1)))
    assert modifier_totals(clock, "dalia") == (2, 1)
    clock = next_tour(clock)
    assert modifier_totals(clock, "Dalia") == (2, 1)
    clock = next_tour(clock)
    assert modifier_totals(clock, "Dalia") == (0, 1)
    clock = next_tour(clock)
    assert modifier_totals(clock, "Dalia") == (0, 0) and clock.modifiers == ()


def test_game_time_modifiers_expire_by_themselves():
    clock = add_modifier(Clock(), _malus("Enrik", "30 min"))
    clock = add_modifier(clock, _malus("Janus", "1 heure", 2))
    clock = advance_time(clock, 20 * 60)
    assert [m.target for m in modifiers_in_force(clock)] == ["Enrik", "Janus"]
    clock = advance_time(clock, parse_duration("10 minutes"))
    assert [m.target for m in modifiers_in_force(clock)] == ["Janus"]
    for _ in range(100):
        clock = next_tour(clock)  # Tours add no game time
    assert modifier_totals(clock, "Janus") == (0, 2)
    assert advance_time(clock, 1800).modifiers == ()
    assert remove_modifier(clock, 2).modifiers == ()  # S-A15: the Réalisateur may end it
    _raises(InputError, lambda: remove_modifier(clock, 1), "1")  # Enrik's #1 is over
    assert "in force: #2 Janus" in str(_raises(InputError, lambda: remove_modifier(clock, 1)))


def test_a_modifier_keeps_its_number_when_an_earlier_one_expires():
    clock = next_tour(start_scene(Clock(), SceneKind.RYTHMEE))
    clock = add_modifier(clock, _malus("Dalia", "(1 Tour)"), 7)
    clock = add_modifier(clock, _malus("Enrik", "(3 Tours)"), 9)
    clock = add_modifier(clock, _malus("Janus", "1 h"))  # without a seq: after the highest
    assert [m.number for m in clock.modifiers] == [7, 9, 10]
    clock = next_tour(next_tour(clock))  # Dalia's is over; the others keep their numbers
    assert [(m.modifier.target, m.number) for m in clock.modifiers] == [("Enrik", 9), ("Janus", 10)]
    clock = remove_modifier(clock, 10)
    assert [m.modifier.target for m in clock.modifiers] == ["Enrik"]
    message = str(_raises(InputError, lambda: remove_modifier(clock, 7), "number 7"))
    assert "#9 Enrik" in message and "S-A15" in message
    for number in (9, 3, True, "9"):  # not above the highest in force, or not a number
        _raises(InputError, lambda n=number: add_modifier(clock, _malus("Dalia", "1 h"), n), "")


def test_durations_and_scenes():
    assert [str(parse_duration(t)) for t in ("2 Tours", "1 tour", "30 min", "1 h", "45 s")] == [
        "2 Tours",
        "1 Tour",
        "30 min",
        "1 h",
        "45 s",
    ]
    _raises(InputError, lambda: parse_duration("deux tours"), "deux tours", "S-M3")
    _raises(InputError, lambda: parse_duration("0 min"), "0")
    _raises(InputError, lambda: Duration(tours=1, seconds=1), "S-M3")
    _raises(InputError, lambda: advance_time(Clock(), Duration(tours=2)), "2 Tours", "S-M8")
    _raises(InputError, lambda: start_scene(Clock(), "calme"), "calme", "S-M8")
    _raises(InputError, lambda: TemporaryModifier("Dalia", "penalty", 1, Duration(tours=1)))
    clock = start_scene(start_scene(Clock(), "rythmee"), SceneKind.LENTE)
    assert (clock.scene, clock.scene_kind.title) == (2, "Scène lente")


def test_long_action_is_rolled_in_its_last_tour():
    _raises(RuleError, lambda: start_long_action(Clock(), "Louisa", "sas", 3), "S-M8")
    clock = next_tour(next_tour(Clock()))
    clock = start_long_action(clock, "Louisa", "sas", 1)
    assert [a.actor for a in rolls_due(clock)] == ["Louisa"]  # a one-Tour Action: this Tour
    clock = start_long_action(next_tour(clock), "Louisa", "sas", 2)
    assert rolls_due(clock) == ()
    assert [a.last_tour for a in rolls_due(next_tour(clock))] == [4]
    assert next_tour(next_tour(clock)).long_actions == ()


# --- the Protagoniste -------------------------------------------------------------------


def test_protagoniste_after_the_options():
    hero = _hero()
    assert (hero.sante, hero.sante_max, hero.nt, hero.alive) == (12, 12, 0, True)
    test = prepare_test(hero, Characteristic.CARRURE, 4, surpass=True)
    hero = after_action(hero, resolve_test(test, [5, 8, 6], [1, -1]).roll)
    assert (hero.nt, hero.alive) == (1, True)
    test = prepare_test(hero, "carrure", 4, sacrifice=True)
    hero = after_action(hero, resolve_test(test, [1, 1, 1], [0, 0]).roll)
    assert (hero.nt, hero.alive) == (1, False)  # S-A8: dead even on a failure


def test_counters_adjust_within_bounds():
    hero = _hero(carrure=8)
    assert adjust_counter(hero, "sante", -20).sante == 0
    assert adjust_counter(adjust_counter(hero, "sante", -5), "sante", 99).sante == 9
    assert adjust_counter(hero, "nt", -3).nt == 0
    assert set_counter(hero, "air", 30).air == 30
    assert prepare_test(hero, "Motricité", 2, expertise="sauter").expertise
