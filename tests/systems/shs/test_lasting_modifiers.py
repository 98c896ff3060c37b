"""Lasting modifiers, compound durations, and Tours in a scène lente.

Source: seed 003, "Bonus et Malus" ("Durée"), "Durées"; rulings S-M3, S-M8, S-A15, S-T4,
S-X1, S-X2.
"""

import pytest

from tablee.dice import SeededSource, SourceChance
from tablee.errors import InputError
from tablee.systems.shs import (
    SHS,
    Attempt,
    decide_add_modifier,
    decide_advance_time,
    decide_end_modifier,
    decide_next_tour,
    decide_scene,
    plan_test,
)
from tablee.systems.shs.clock import Duration, parse_duration
from tablee.systems.shs.commands import AddModifier
from tablee.systems.shs.events import ModifierAdded
from tests.systems.shs.test_game import apply, in_tour, table


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("30 min", 1800),
        ("1 h", 3600),
        ("1 h 30 min", 5400),
        ("(1h30min)", 5400),
        ("2 jours", 172800),
        ("1 day 6 h", 108000),
        ("1 j", 86400),
    ],
)
def test_game_times_add_their_parts(text, seconds):
    assert parse_duration(text) == Duration(seconds=seconds)


def test_tours_stand_alone_and_a_day_prints_as_hours():
    assert parse_duration("2 Tours") == Duration(tours=2)
    with pytest.raises(InputError, match="mixes Tours"):
        parse_duration("1 Tour 30 s")
    with pytest.raises(InputError):
        parse_duration("1 h 30")
    assert str(Duration(seconds=5400)) == "1 h 30 min"
    assert str(Duration(seconds=86400)) == "24 h"


def test_a_lasting_malus_stays_until_ended_by_hand_s_x1():
    state = in_tour(table("Jake"))
    decision = decide_add_modifier(
        state, protagonist="Jake", kind="malus", amount=1, duration=Duration(), label="wound"
    )
    assert (decision.facts[0].payload["tours"], decision.facts[0].payload["seconds"]) == (0, 0)
    state = apply(state, decision)
    for _ in range(3):
        state = apply(state, decide_next_tour(state))
    state = apply(state, decide_scene(state, kind="lente"))
    state = apply(state, decide_advance_time(state, duration="100 jours"))
    assert plan_test(state, Attempt("Jake", "carrure", 1)).malus == 1
    number = state.clock.modifiers[0].number
    state = apply(state, decide_end_modifier(state, number=number))
    assert plan_test(state, Attempt("Jake", "carrure", 1)).malus == 0


def test_the_command_takes_exactly_one_duration_and_the_event_replays():
    with pytest.raises(InputError, match="lasting"):
        AddModifier(protagoniste="Jake", malus=1, tours=2, lasting=True).span()
    with pytest.raises(InputError):
        AddModifier(protagoniste="Jake", malus=1).span()
    state = table("Jake")
    command = AddModifier(protagoniste="Jake", bonus=2, lasting=True, label="armour")
    decision = SHS.decide(state, command, SourceChance(SeededSource(1)))
    (event,) = decision.events
    assert isinstance(event, ModifierAdded) and (event.tours, event.seconds) == (0, 0)
    assert event.inputs()[0] == command
    assert "lasting" in SHS.line(event, decision.after).render()


def test_a_modifier_in_tours_given_in_a_scene_lente_gets_a_notice_s_x2():
    state = table("Jake")
    state = apply(state, decide_scene(state, kind="lente"))
    decision = decide_add_modifier(
        state, protagonist="Jake", kind="malus", amount=1, duration="2 Tours"
    )
    assert any("do not run in a scène lente" in w.render() for w in decision.warnings)
    timed = decide_add_modifier(state, protagonist="Jake", kind="malus", amount=1, duration="1 h")
    assert not timed.warnings


def test_a_scene_lente_names_the_modifiers_counted_in_tours_s_x2():
    state = in_tour(table("Jake"))
    state = apply(
        state,
        decide_add_modifier(state, protagonist="Jake", kind="bonus", amount=1, duration="2 Tours"),
    )
    decision = decide_scene(state, kind="lente")
    assert [w.render() for w in decision.warnings] == [
        "Jake's Bonus of 1 counts Tours, which do not run in a scène lente: it stays in force "
        "until Tours pass it in a scène rythmée, or until it is ended by hand (modifier number 1)"
    ]
