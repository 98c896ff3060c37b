"""Two Actions by one Protagoniste in one Tour: detected, with a notice (S-X3).

Source: seed 003, "Temporalité des Actions", "Actions simultanées"; rulings S-M7, S-M8,
S-X3, S-T10.
"""

from tablee.dice import SeededSource, SourceChance
from tablee.systems.shs import (
    SHS,
    Attempt,
    commands,
    decide_next_tour,
    decide_opposed,
    decide_scene,
    decide_simultaneous,
    decide_test,
)
from tests.systems.shs.test_game import apply, in_tour, table

FACES = {"action_faces": [6, 3, 1], "dpm_faces": []}


def _notices(decision):
    return [w.render() for w in decision.warnings]


def test_a_second_test_in_the_same_tour_gets_a_notice_s_x3():
    state = in_tour(table("Natalia", "Jake"))
    first = decide_test(state, Attempt("Natalia", "motricite", 1), **FACES)
    assert not first.warnings
    state = apply(state, first)
    assert state.clock.acted == ("Natalia",)
    other = decide_test(state, Attempt("Jake", "motricite", 1), **FACES)
    assert not other.warnings
    second = decide_test(state, Attempt("Natalia", "science", 1), **FACES)
    assert _notices(second) == [
        "Natalia has already rolled an Action in Tour 1: Actions in one Tour are simultaneous, "
        "and each beyond the first gives a Malus of 1 to all of them, which this roll did not "
        "count; roll such Actions together as simultaneous Actions"
    ]


def test_a_new_tour_or_scene_clears_who_acted():
    state = in_tour(table("Natalia"))
    state = apply(state, decide_test(state, Attempt("Natalia", "motricite", 1), **FACES))
    next_tour = apply(state, decide_next_tour(state))
    assert next_tour.clock.acted == ()
    assert not decide_test(next_tour, Attempt("Natalia", "motricite", 1), **FACES).warnings
    lente = apply(state, decide_scene(state, kind="lente"))
    assert lente.clock.acted == ()
    lente = apply(lente, decide_test(lente, Attempt("Natalia", "motricite", 1), **FACES))
    assert lente.clock.acted == ()


def test_a_simultaneous_set_then_an_opposed_roll_in_the_same_tour():
    state = in_tour(table("Natalia", "Jake"))
    actions = [Attempt("Natalia", "motricite", 1), Attempt("Natalia", "science", 1)]
    decision = decide_simultaneous(state, actions, faces=[([6, 3, 1], [1]), ([4, 5, 7], [-1])])
    assert not decision.warnings
    state = apply(state, decision)
    opposed = decide_opposed(
        state,
        Attempt("Jake", "relationnel"),
        Attempt("Natalia", "relationnel"),
        first_faces=([1, 1, 1], []),
        second_faces=([1, 1, 1], []),
    )
    assert [n.split(" ")[0] for n in _notices(opposed)] == ["Natalia"]


def test_the_plugin_folds_who_acted_like_the_decision():
    state = in_tour(table("Natalia"))
    command = commands.TestCommand(
        protagoniste="Natalia", characteristic="motricite", difficulty="1"
    )
    decision = SHS.decide(state, command, SourceChance(SeededSource(3)))
    (event,) = decision.events
    assert SHS.apply(state, event) == decision.after
    assert decision.after.clock.acted == ("Natalia",)
    again = SHS.decide(decision.after, command, SourceChance(SeededSource(4)))
    assert again.warnings
