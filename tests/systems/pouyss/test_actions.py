"""The action roll's result: the dice removed and kept, the level, and its trace."""

import pytest

from tablee.errors import InputError
from tablee.systems.pouyss.actions import (
    ActionRoll,
    OpposedRoll,
    dice_for_action,
    resolve_action_roll,
    resolve_opposed_roll,
)
from tablee.systems.pouyss.levels import Level


def test_one_bonus_and_one_malus_remove_the_highest_and_read_the_next():
    result = resolve_action_roll(ActionRoll(1, 1), (6, 3, 5))
    assert (result.removed, result.kept, result.value) == ((6,), (5, 3), 5)
    assert result.level is Level.VICTOIRE
    assert [step.render() for step in result.trace] == [
        "thrown (1 base + 1 bonus + 1 malus): 6, 3, 5",
        "removed for the malus, highest first: 6",
        "highest die left among 5, 3: 5, Victoire",
    ]
    assert result.trace is result.trace  # written once, on first reading


@pytest.mark.parametrize(
    ("roll", "faces", "first"),
    [
        (ActionRoll(), (2,), "thrown (1 die): 2"),
        (ActionRoll(2, 0), (1, 4, 4), "thrown (1 base + 2 bonus): 1, 4, 4"),
        (ActionRoll(0, 2), (6, 6, 1), "thrown (1 base + 2 malus): 6, 6, 1"),
    ],
)
def test_the_first_step_names_the_dice_thrown(roll, faces, first):
    result = resolve_action_roll(roll, faces)
    assert result.trace[0].render() == first
    assert len(result.trace) == (3 if roll.malus else 2)
    assert result.trace[0].params == {
        "pool": roll.pool,
        "bonus": roll.bonus,
        "malus": roll.malus,
        "faces": ", ".join(str(f) for f in faces),
    }


def test_the_opposed_trace_wraps_the_rolls():
    outcome = resolve_opposed_roll(OpposedRoll(0, 0, 1, 0), (5, 2))
    assert outcome.trace[1:-1] == outcome.roll.trace
    assert outcome.trace[-1].render() == "the passive side reads the mirror: 5, Victoire"


@pytest.mark.parametrize(
    ("bonus", "malus"), [(-1, 0), (0, -1), (True, 0), (0, 1.0), (60, 40), (99, 1)]
)
def test_bad_counts_are_refused(bonus, malus):
    with pytest.raises(InputError):
        ActionRoll(bonus, malus)


def test_the_largest_pool_is_allowed_and_asks_for_its_dice():
    assert dice_for_action(ActionRoll(60, 39)).count == 100
    assert dice_for_action(ActionRoll(0, 0)).count == 1


@pytest.mark.parametrize("faces", [(1, 7), (0, 3), (2, True), (2,), (1, 2, 3)])
def test_bad_faces_are_refused(faces):
    with pytest.raises(InputError):
        resolve_action_roll(ActionRoll(1, 0), faces)
