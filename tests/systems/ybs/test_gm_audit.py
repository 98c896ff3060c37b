"""The rules behind a game master's audit of YBS: trauma sets and lifts, fight-test traits,
prostrate fighters, stars towards a third +2, GM criticals, Foundry actors read as sheets.

The values come from the text where it gives them: a trauma replaces a 0 or a +1 by -1 and
leaves a -2 (Y-T10); 3 Kega bring one trait's trauma (Y-M9); 5 stars raise a trait, never
to a third +2 (Y-M9); the Foundry fan system draws stars as 20 % of a picture each.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tablee.errors import InputError, RuleError
from tablee.systems import ybs as Y
from tablee.systems.event import read_event
from tablee.systems.ybs import events as E
from tablee.systems.ybs.events import EVENTS
from tablee.systems.ybs.evolution import lift_trauma, trauma
from tablee.systems.ybs.foundry import foundry_actors, sheet_from_foundry

KINDS = {cls.kind: cls for cls in EVENTS}
FOUNDRY = Path(__file__).parents[2] / "fixtures" / "foundry"
ZERO = dict.fromkeys((t.value for t in Y.Trait), 0)


def hero(traits: tuple[int, ...], kega: int) -> Y.Character:
    return Y.Character("Aki", traits, kega=kega)


# -- trauma ------------------------------------------------------------------------------------


def test_one_trauma_per_set_of_three_kega() -> None:
    six = hero((2, 1, 0, 0, 0, 0), kega=6)  # Choushi +2: six boxes, two sets of 3 Kega
    once = trauma(six, Y.Trait.KIYOUSA)
    twice = trauma(once, Y.Trait.CHISEI)
    assert (twice.trait("kiyousa"), twice.trait("chisei")) == (-1, -1)
    with pytest.raises(RuleError, match="Kiyousa, Chisei"):
        trauma(twice, Y.Trait.YUUBEN)
    with pytest.raises(RuleError, match="Kiyousa"):
        trauma(trauma(hero((0,) * 6, kega=3), Y.Trait.KIYOUSA), Y.Trait.NINTAI)


def test_a_trait_under_trauma_takes_no_second_one() -> None:
    six = trauma(hero((2, 1, 0, 0, 0, 0), kega=6), Y.Trait.KIYOUSA)
    with pytest.raises(RuleError, match="Kiyousa"):
        trauma(six, Y.Trait.KIYOUSA)


def test_lifting_gives_back_the_levels_the_trauma_took() -> None:
    plus_one = trauma(hero((0, 1, 0, 0, 0, 0), kega=3), Y.Trait.KIYOUSA)
    assert lift_trauma(plus_one, Y.Trait.KIYOUSA).trait("kiyousa") == 1
    minus_two = trauma(hero((0, 0, -2, 0, 0, 0), kega=3), Y.Trait.CHISEI)
    assert minus_two.trait("chisei") == -2  # Y-T10: a -2 stays -2
    assert lift_trauma(minus_two, Y.Trait.CHISEI).trait("chisei") == -2
    raised = Y.set_trait(plus_one, Y.Trait.KIYOUSA, 0)  # a level earned meanwhile
    assert lift_trauma(raised, Y.Trait.KIYOUSA).trait("kiyousa") == 2
    with pytest.raises(RuleError, match="Chisei"):
        lift_trauma(plus_one, Y.Trait.CHISEI)


def test_a_lift_never_makes_a_third_plus_two() -> None:
    wounded = trauma(hero((0, 2, 1, 2, 0, 0), kega=3), Y.Trait.KIYOUSA)
    both = Y.set_trait(wounded, Y.Trait.CHISEI, 2)
    with pytest.raises(RuleError, match=r"\+2"):
        lift_trauma(both, Y.Trait.KIYOUSA)


def test_a_trauma_on_choushi_and_its_lift_refit_the_boxes() -> None:
    wounded = trauma(hero((1, 0, 0, 0, 0, 0), kega=3), Y.Trait.CHOUSHI)
    assert (wounded.hit_points, wounded.kega) == (3, 3)
    lifted = lift_trauma(wounded, Y.Trait.CHOUSHI)
    assert (lifted.hit_points, lifted.kega, lifted.prostrate) == (5, 3, False)


def test_trauma_and_lift_apply_as_decided() -> None:
    state = Y.initial_state({"players": ["A"]})
    state = Y.decide_create(
        state, name="Aki", traits={**ZERO, "kiyousa": 1}, owner="A", kega=3
    ).after
    for decide in (
        lambda s: Y.decide_trauma(s, character="Aki", trait="kiyousa"),
        lambda s: Y.decide_lift_trauma(s, character="Aki", trait="kiyousa", note="healed"),
    ):
        decision = decide(state)
        (fact,) = decision.facts
        event = read_event(KINDS, fact.kind, fact.payload)
        assert Y.YBS.apply(state, event) == decision.after
        state = decision.after
    assert state.characters["Aki"].trait("kiyousa") == 1


# -- fight tests, gang fights, stars --------------------------------------------------------


def test_an_approved_fight_test_is_decided_again_with_the_approval() -> None:
    state = Y.initial_state({"players": ["A"]})
    for name, owner in (("Aki", "A"), ("Thug", None)):
        state = Y.decide_create(state, name=name, traits={**ZERO, "kiyousa": 1}, owner=owner).after
    with pytest.raises(RuleError, match="Choushi"):
        Y.decide_test(
            state, character="Aki", trait="kiyousa", purpose="attack", target="Thug", faces=[3]
        )
    decision = Y.decide_test(
        state,
        character="Aki",
        trait="kiyousa",
        purpose="attack",
        target="Thug",
        faces=[3],
        trait_approved=True,
    )
    event = read_event(KINDS, "ybs.test", decision.facts[0].payload)
    assert isinstance(event, E.Tested)
    command, faces = event.inputs()
    assert command.trait_approved and faces == (3,)  # type: ignore[attr-defined]
    plain = Y.decide_test(state, character="Aki", trait="kiyousa", faces=[3])
    command, _ = read_event(KINDS, "ybs.test", plain.facts[0].payload).inputs()  # type: ignore[attr-defined]
    assert not command.trait_approved


def test_a_prostrate_fighter_is_refused_by_name() -> None:
    state = Y.initial_state({"players": ["A"]})
    state = Y.decide_create(state, name="Aki", traits=ZERO, owner="A", uchimi=4).after
    with pytest.raises(RuleError, match="Aki is prostrate"):
        Y.decide_gang_start(state, fighters=["Aki"])


def test_stars_towards_a_third_plus_two_warn_and_the_fifth_is_refused() -> None:
    state = Y.initial_state({"players": ["A"]})
    traits = {**ZERO, "choushi": 2, "kiyousa": 2, "chisei": 1}
    state = Y.decide_create(state, name="Mika", traits=traits, owner="A").after
    for stars in range(1, 5):
        decision = Y.decide_star(state, character="Mika", trait="chisei")
        assert decision.warnings and decision.facts[0].payload["stars"] == stars
        state = decision.after
    with pytest.raises(RuleError, match="not recorded"):
        Y.decide_star(state, character="Mika", trait="chisei")
    quiet = Y.decide_star(state, character="Mika", trait="nintai")
    assert not quiet.warnings


# -- GM criticals ------------------------------------------------------------------------------


def test_a_gm_critical_needs_the_option_and_a_token_in_the_bag() -> None:
    npc = Y.YbsTest(1, npc=True, critical=True)
    with pytest.raises(RuleError, match="gm_criticals"):
        Y.resolve_test(npc, [6])
    paid = Y.resolve_test(Y.YbsTest(1, npc=True, critical=True, gm_critical=True), [6])
    assert paid.critical_success and paid.success
    with pytest.raises(RuleError, match="natural 6"):
        Y.resolve_test(Y.YbsTest(1, npc=True, critical=True, gm_critical=True), [5])
    assert Y.odds_of_test(0, gm_critical=True).critical == Y.odds_of_test(0).natural_one


def test_an_empty_bag_pays_no_gm_critical() -> None:
    state = Y.initial_state(
        {"players": ["A"], "options": {"gm_criticals": "true", "token_supply": "7"}}
    )
    state = Y.decide_create(state, name="Thug", traits=ZERO).after
    state = Y.decide_create(state, name="Aki", traits=ZERO, owner="A").after
    empty = replace(state, ledger=Y.Ledger(7, {"A": 7}, 0))
    tested = Y.decide_test(empty, character="Thug", trait="choushi", faces=[6]).after
    with pytest.raises(RuleError, match="bag"):
        Y.decide_critical(tested)


# -- Foundry actors ------------------------------------------------------------------------------


def actor(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FOUNDRY / f"fvtt-Actor-{name}.json").read_text("utf-8"))
    return data


def test_foundry_stars_are_steps_of_twenty() -> None:
    sheet, notes = sheet_from_foundry(actor("haruka"), player="A", where="haruka")
    assert sheet["stars"] == {**ZERO, "choushi": 2, "yuuben": 4, "chikaku": 1}
    assert (sheet["uchimi"], sheet["kega"], sheet["tokens"], sheet["owner"]) == (1, 1, 3, "A")
    assert len(notes) == 2  # an empty box beyond the hit points, an object left out


def test_only_foundry_actors_are_read_as_such() -> None:
    assert foundry_actors(json.dumps(actor("okabe"))) is not None
    assert foundry_actors(json.dumps([actor("okabe"), actor("haruka")])) is not None
    assert foundry_actors('{"name": "Rin", "traits": {"choushi": 1}}') is None
    assert foundry_actors('name = "Rin"') is None


def test_a_foundry_evo_of_a_hundred_asks_for_the_level_first() -> None:
    data = actor("haruka")
    data["system"]["traits"]["yuuben"]["evo"] = 100
    with pytest.raises(InputError, match=r"system\.traits\.yuuben\.evo"):
        sheet_from_foundry(data, player="A", where="haruka")


def test_a_character_created_version_one_reads_with_no_token_moved() -> None:
    payload = {
        "name": "Aki",
        "owner": "A",
        "traits": ZERO,
        "attributes": [],
        "stars": ZERO,
        "uchimi": 0,
        "kega": 0,
        "hit_points": 4,
    }
    upgraded = KINDS["ybs.character_created"].upgrade(payload, 1)
    assert upgraded == {**payload, "moves": []}
    assert read_event(KINDS, "ybs.character_created", upgraded).moves == ()  # type: ignore[attr-defined]


def test_house_rules_written_before_a_new_option_still_verify() -> None:
    state = Y.YBS.initial_state({"players": ["A"], "options": {}})
    written = Y.YBS.change_options(state, {"critical_boxes": "3"}).events[0].payload()
    older = {"options": {k: v for k, v in written["options"].items() if k != "gm_criticals"}}
    assert Y.YBS.verify(state, "ybs.options_set", older, "1")[1] is None
    assert Y.YBS.verify(state, "ybs.options_set", written, "1")[1] is None
    on = Y.YBS.change_options(state, {"gm_criticals": "true"}).events[0].payload()
    assert on["options"]["gm_criticals"] is True
    assert Y.YBS.verify(state, "ybs.options_set", on, "1")[1] is None
