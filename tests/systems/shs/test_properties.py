"""Properties of any sequence of pure SHS operations (Hypothesis).

A Protagoniste goes through random counter edits, Tests (with random options and faces),
deaths and revivals by hand; an operation the rules refuse (RuleError) or an out-of-range
value (InputError) leaves it as it was. After every step Santé stays within 0..max, NT,
Protection and Air are never negative, and a dead Protagoniste stays dead. The clock goes
through random Tours, game time and modifiers: what it holds is always in force, and
nothing outlives its duration.
"""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from tablee.errors import InputError, RuleError
from tablee.systems.shs import (
    COUNTERS,
    Characteristic,
    Clock,
    Duration,
    TemporaryModifier,
    add_modifier,
    adjust_counter,
    advance_time,
    after_action,
    create_protagonist,
    dice_for_action,
    kill,
    modifier_totals,
    next_tour,
    prepare_test,
    resolve_test,
    set_counter,
)

THRESHOLD = st.integers(5, 8)
COUNTER = st.sampled_from(COUNTERS)


def _faces(data, request):
    return data.draw(
        st.lists(st.sampled_from(request.die.faces), min_size=request.count, max_size=request.count)
    )


def _test(hero, data):
    test = prepare_test(
        hero,
        data.draw(st.sampled_from(list(Characteristic))),
        data.draw(st.integers(1, 6)),
        bonus=data.draw(st.integers(0, 4)),
        malus=data.draw(st.integers(0, 4)),
        surpass=data.draw(st.booleans()),
        sacrifice=data.draw(st.booleans()),
    )
    action, *dpm = dice_for_action(test.action)
    result = resolve_test(test, _faces(data, action), [f for r in dpm for f in _faces(data, r)])
    low = -test.malus
    high = 3 + test.bonus + 2 * (test.surpass or test.sacrifice) + 2 * test.sacrifice
    assert low <= result.ps <= high
    return after_action(hero, result.roll)


OPERATIONS = {
    "adjust": lambda hero, data: adjust_counter(
        hero, data.draw(COUNTER), data.draw(st.integers(-30, 30))
    ),
    "set": lambda hero, data: set_counter(hero, data.draw(COUNTER), data.draw(st.integers(-3, 15))),
    "test": _test,
    "kill": lambda hero, data: kill(hero),
}


@settings(max_examples=200, deadline=None)
@given(data=st.data(), thresholds=st.lists(THRESHOLD, min_size=5, max_size=5))
def test_counters_stay_within_bounds(data, thresholds):
    names = [c.value for c in Characteristic]
    hero = create_protagonist("Jake", **dict(zip(names, thresholds, strict=True)))
    was_dead = False
    for name in data.draw(st.lists(st.sampled_from(sorted(OPERATIONS)), max_size=40)):
        try:
            hero = OPERATIONS[name](hero, data)
        except (RuleError, InputError):
            continue
        assert 0 <= hero.sante <= hero.sante_max == 17 - hero.carrure
        assert hero.nt >= 0 and hero.protection >= 0 and hero.air >= 0
        assert not (was_dead and hero.alive)
        was_dead = not hero.alive


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_clock_modifiers_never_outlive_their_duration(data):
    clock = Clock()
    for _ in range(data.draw(st.integers(0, 40))):
        step = data.draw(st.sampled_from(["tour", "time", "add"]))
        if step == "tour":
            clock = next_tour(clock)
        elif step == "time":
            clock = advance_time(clock, data.draw(st.integers(1, 3600)))
        else:
            tours = data.draw(st.booleans())
            amount = data.draw(st.integers(1, 60 if not tours else 5))
            duration = Duration(tours=amount) if tours else Duration(seconds=amount * 60)
            kind = data.draw(st.sampled_from(["bonus", "malus"]))
            clock = add_modifier(clock, TemporaryModifier("Dalia", kind, 1, duration))
        for active in clock.modifiers:
            assert active.in_force(clock)
            duration = active.modifier.duration
            if duration.tours:
                assert clock.tour - active.tour <= duration.tours
            else:
                assert clock.seconds - active.seconds < duration.seconds
        bonus, malus = modifier_totals(clock, "Dalia")
        assert bonus + malus == len(clock.modifiers)


def test_a_replaced_counter_is_checked_again():
    hero = create_protagonist("Jake", carrure=8, motricite=5, science=5, relationnel=5,
                              sang_froid=5)  # fmt: skip
    try:
        replace(hero, sante=10)
    except InputError as error:
        assert "sante" in str(error)
    else:
        raise AssertionError("Santé 10 above the maximum 9 was accepted")
