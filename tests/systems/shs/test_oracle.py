"""The text's worked examples (tests/oracle/shs/examples.toml), replayed through the rules.

Rolled examples are resolved by the pure resolver, by the grouped driver with typed-in faces,
and checked against the exact odds (the outcome must be possible). Protagoniste examples also
go through `prepare_test` and `after_action`.
"""

import tomllib
from pathlib import Path

import pytest

from tablee.dice import TypedFaces
from tablee.systems.shs import (
    OPPOSED,
    TEST,
    ActionRoll,
    Characteristic,
    Clock,
    Cooperation,
    OpposedAction,
    Side,
    TemporaryModifier,
    Test,
    add_modifier,
    advance_time,
    after_action,
    create_protagonist,
    dice_for_action,
    difficulty_named,
    modifiers_in_force,
    next_tour,
    notation_of,
    opposed_distribution,
    parse_dpm_face,
    parse_duration,
    parse_test_notation,
    prepare_test,
    ps_distribution,
    resolve_cooperation,
    resolve_opposed,
    resolve_test,
    roll_grouped,
    rolls_due,
    simultaneous_actions,
    start_long_action,
    starting_sante,
    success_probability,
)

ORACLE = Path(__file__).parents[2] / "oracle" / "shs" / "examples.toml"
EXAMPLES = tomllib.loads(ORACLE.read_text(encoding="utf-8"))["example"]


def _test(inputs):
    fields = dict(inputs)
    fields["difficulty"] = difficulty_named(fields["difficulty"])
    return Test(**fields)


def _faces(faces):
    return list(faces["action"]), [parse_dpm_face(f) for f in faces["dpm"]]


def _typed(test, action, dpm):
    source = TypedFaces([*action, *dpm])
    result = roll_grouped(TEST, test, source)
    source.finish()
    return result


def _check_roll(result, expected):
    for key in ("dice_ps", "dpm_ps", "ps"):
        assert getattr(result.roll, key) == expected[key], key
    assert result.success == expected["success"]


def _kind_test(example):
    test, expected = _test(example["inputs"]), example["expected"]
    action, dpm = _faces(example["faces"])
    actions_req, dpm_req = dice_for_action(test.action)  # the rulings' options: two requests
    assert actions_req.die.name == expected["die"]
    assert (actions_req.count, dpm_req.count) == (3, expected["dpm_count"])
    groups = test.action.dpm_groups()
    assert [g.sign for g in groups] == ([expected["dpm_sign"]] if expected["dpm_sign"] else [])
    for result in (resolve_test(test, action, dpm), _typed(test, action, dpm)):
        _check_roll(result, expected)
        assert (result.roll.nt_gain, result.roll.dies) == (expected["nt_gain"], expected["dies"])
    assert ps_distribution(test).probability(expected["ps"]) > 0
    thresholds = {c.value: 6 for c in Characteristic} | {test.characteristic.value: test.threshold}
    hero = create_protagonist("Héros", **thresholds, expertises=["Sauter"])
    prepared = prepare_test(
        hero,
        test.characteristic.title,
        test.difficulty,
        expertise="sauter" if test.expertise else None,
        surpass=test.surpass,
        sacrifice=test.sacrifice,
    )
    assert prepared == test
    after = after_action(hero, resolve_test(prepared, action, dpm).roll)
    assert (after.nt, after.alive) == (expected["nt_gain"], not expected["dies"])
    if "max_ps_without_option" in expected:
        bare = Test(test.threshold, test.difficulty)
        assert max(ps_distribution(bare).weights) == expected["max_ps_without_option"]
        assert success_probability(bare) == 0
        assert success_probability(test) > 0


def _kind_modifiers(example):
    roll, expected = ActionRoll(6, **example["inputs"]), example["expected"]
    assert roll.net_modifier() == expected["net"]
    (group,) = roll.dpm_groups()
    assert (group.count, group.sign) == (expected["dpm_count"], expected["dpm_sign"])


def _kind_equivalence(example):
    bonus, malus = example["inputs"]["target_bonus"], example["inputs"]["shooter_malus"]
    for shooter in range(5, 9):
        for target in range(5, 9):
            with_bonus = OpposedAction(ActionRoll(shooter), ActionRoll(target, bonus=bonus))
            with_malus = OpposedAction(ActionRoll(shooter, malus=malus), ActionRoll(target))
            same = opposed_distribution(with_bonus) == opposed_distribution(with_malus)
            assert same == example["expected"]["same_odds"]


def _kind_durations(example):
    clock = Clock()
    for raw in example["inputs"]["modifiers"]:
        fields = {**raw, "duration": parse_duration(raw["duration"])}
        clock = add_modifier(clock, TemporaryModifier(**fields))
    expected = example["expected"]
    for name, last in expected["last_tour_in_force"].items():
        ticking = clock
        for _ in range(last):
            ticking = next_tour(ticking)
            assert modifiers_in_force(ticking, name)
        assert not modifiers_in_force(next_tour(ticking), name)
    for name, seconds in expected["seconds_to_expire"].items():
        assert modifiers_in_force(advance_time(clock, seconds - 1), name)
        assert not modifiers_in_force(advance_time(clock, seconds), name)


def _kind_cooperation(example):
    members = Cooperation(tuple(_test(m) for m in example["inputs"]["members"]))
    expected = example["expected"]
    assert all(
        t.bonus == m.bonus + expected["bonus_each"]
        for t, m in zip(members.tests(), members.members, strict=True)
    )
    result = resolve_cooperation(members, [_faces(f) for f in example["faces"]])
    assert [r.success for r in result.results] == expected["successes"]
    assert result.success == expected["success"]


def _kind_long_action(example):
    inputs = example["inputs"]
    clock = Clock()
    for _ in range(inputs["start_tour"]):
        clock = next_tour(clock)
    clock = start_long_action(clock, "Louisa", "hack the airlock", inputs["tours"])
    due = []
    for _ in range(6):
        if rolls_due(clock):
            due.append(clock.tour)
        clock = next_tour(clock)
    assert due == example["expected"]["due_in_tours"]
    assert clock.long_actions == ()


def _kind_opposed(example):
    inputs, expected = example["inputs"], example["expected"]
    opposed = OpposedAction(
        ActionRoll(**inputs["first"]), ActionRoll(**inputs["second"]), Side(inputs["changer"])
    )
    first, second = _faces(example["faces"]["first"]), _faces(example["faces"]["second"])
    source = TypedFaces([*first[0], *first[1], *second[0], *second[1]])
    for result in (resolve_opposed(opposed, first, second), roll_grouped(OPPOSED, opposed, source)):
        assert (result.first.ps, result.second.ps) == (expected["first_ps"], expected["second_ps"])
        assert result.winner is Side(expected["winner"])
        assert result.status_quo == expected["status_quo"]


def _kind_simultaneous(example):
    inputs, expected = example["inputs"], example["expected"]
    tests = simultaneous_actions([_test(a) for a in inputs["actions"]], trivial=inputs["trivial"])
    test = tests[inputs["roll"]]
    assert test.malus == expected["malus"]
    action, dpm = _faces(example["faces"])
    for result in (resolve_test(test, action, dpm), _typed(test, action, dpm)):
        _check_roll(result, expected)


def _kind_notation(example):
    inputs = example["inputs"]
    test = Test(6, inputs["difficulty"], inputs["characteristic"])
    assert str(notation_of(test)) == example["expected"]["text"]
    assert parse_test_notation(example["expected"]["text"]) == notation_of(test)


def _kind_sante(example):
    sante = [starting_sante(c) for c in example["inputs"]["carrure"]]
    assert sante == example["expected"]["sante"]
    for carrure, expected in zip(example["inputs"]["carrure"], sante, strict=True):
        hero = create_protagonist(
            "Jake", carrure=carrure, motricite=6, science=6, relationnel=6, sang_froid=6
        )
        assert hero.sante == hero.sante_max == expected


KINDS = {
    "test": _kind_test,
    "modifiers": _kind_modifiers,
    "equivalence": _kind_equivalence,
    "durations": _kind_durations,
    "cooperation": _kind_cooperation,
    "long_action": _kind_long_action,
    "opposed": _kind_opposed,
    "simultaneous": _kind_simultaneous,
    "notation": _kind_notation,
    "sante": _kind_sante,
}


def test_every_ruling_example_is_in_the_oracle():
    assert [e["id"] for e in EXAMPLES] == [f"S-T{n}" for n in range(1, 14)]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_worked_example(example):
    KINDS[example["kind"]](example)
