"""House rules as players read them: a label and a value in words, in every language."""

from __future__ import annotations

import pytest

from tablee.locale import translation
from tablee.systems import system_named
from tablee.systems.options import changed_house_rules, house_rule_lines
from tablee.systems.plugin import Game


def _fr(text: object) -> str:
    return text.render(translation("fr").gettext)  # type: ignore[attr-defined,no-any-return]


def test_values_read_as_words() -> None:
    lines = house_rule_lines(
        {"cap": None, "on": True, "off": False, "count": 3, "mode": "cancel", "other": "x"},
        {"cap": "Bonus dice per roll", "on": "Bonus dice go back to the cagnotte"},
        {"mode": {"cancel": "they cancel out (5 dice each)"}},
    )
    assert [str(line) for line in lines] == [
        "Bonus dice per roll: no limit",
        "Bonus dice go back to the cagnotte: yes",
        "off: no",
        "count: 3",
        "mode: they cancel out (5 dice each)",
        "other: x",
    ]
    assert _fr(lines[0]) == "Dés de bonus par jet : sans limite"
    assert _fr(lines[1]) == "Les dés de bonus retournent dans la cagnotte : oui"


def test_a_change_names_only_what_differs_from_the_defaults() -> None:
    labels = {"a": "Bonus dice per roll", "b": "Lowest successful value"}
    assert str(changed_house_rules({"a": 2, "b": 4}, {"a": None, "b": 4}, labels)) == (
        "house rules: Bonus dice per roll: 2"
    )
    both = changed_house_rules({"a": 2, "b": 5}, {"a": None, "b": 4}, labels)
    assert _fr(both) == "règles maison : Dés de bonus par jet : 2 ; Plus petite valeur réussie : 5"
    assert str(changed_house_rules({"a": None}, {"a": None}, labels)) == (
        "house rules back to the defaults"
    )


@pytest.mark.parametrize("game_id", ["pouyss", "shs", "ybs", "agents"])
def test_every_option_has_a_label_and_every_choice_its_words(game_id: str) -> None:
    game = system_named(game_id)
    assert isinstance(game, Game)
    assert set(game.option_labels) == set(game.option_help)
    assert set(game.option_words) <= set(game.option_help)
    french = translation("fr").gettext
    for label in game.option_labels.values():
        assert french(label) != label or label == "S'entêter"
