"""`tablee.systems.common.whole`: the one check of a whole number the rules use."""

from __future__ import annotations

import pytest

from tablee.errors import N_, InputError, Message
from tablee.locale import translation
from tablee.systems.common import whole


@pytest.mark.parametrize(
    ("value", "low", "high"), [(0, 0, 3), (3, 0, 3), (-2, -2, 2), (7, 1, None)]
)
def test_values_within_the_bounds_come_back(value: int, low: int, high: int | None) -> None:
    assert whole(value, "tokens", low, high, rule="Y-M4") == value


def test_no_bounds_takes_any_whole_number() -> None:
    assert whole(-40, "progress", rule="G-M9") == -40


@pytest.mark.parametrize("value", [True, False, 1.0, "1", None, 4, -1])
def test_anything_else_is_refused_naming_the_value_the_bounds_and_the_rule(value: object) -> None:
    with pytest.raises(InputError) as caught:
        whole(value, "tokens", 0, 3, rule="Y-M4")
    assert str(caught.value) == f"tokens {value!r} must be a whole number from 0 to 3 (rule Y-M4)"


def test_a_lowest_value_alone_and_several_rules() -> None:
    with pytest.raises(InputError) as caught:
        whole(0, "gm_dice", 1, rule="Y-M3, Y-M4")
    assert str(caught.value) == "gm_dice 0 must be a whole number 1 or more (rules Y-M3, Y-M4)"
    with pytest.raises(InputError) as caught:
        whole("x", "seq", rule="S-A15")
    assert str(caught.value) == "seq 'x' must be a whole number (rule S-A15)"


def test_a_translated_name_and_the_tip_in_french() -> None:
    with pytest.raises(InputError) as caught:
        whole(0, Message(N_("Difficulty")), 1, rule="S-A4", tip=N_("the change"))
    french = translation("fr").gettext
    assert caught.value.render(french, tip=False) == (
        "la Difficulté 0 doit être un nombre entier de 1 ou plus (règle S-A4)"
    )
    assert caught.value.tip == "the change"


def test_a_highest_value_needs_a_lowest() -> None:
    with pytest.raises(TypeError):
        whole(1, "x", None, 3, rule="S-M8")
