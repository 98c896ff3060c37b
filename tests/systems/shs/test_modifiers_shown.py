"""The netting of bonuses and maluses and the situation's modifiers, shown and stored.

Source: seed 003, "Bonus et Malus", "Coopération", "Actions simultanées"; rulings S-M3,
S-M6, S-M7, S-T2, S-T5, S-T10, S-T11.
"""

from tablee.systems.shs import Attempt, decide_cooperation, decide_simultaneous
from tablee.systems.shs.actions import ActionRoll, dice_for_action, resolve_action
from tablee.systems.shs.events import CooperationRolled, SimultaneousRolled
from tests.systems.shs.test_game import table


def _steps(result):
    return [step.render() for step in result.trace]


def test_bonus_3_and_malus_2_net_to_a_bonus_1_s_t2():
    roll = ActionRoll(6, bonus=3, malus=2)
    assert [r.count for r in dice_for_action(roll)][1:] == [1]
    result = resolve_action(roll, [6, 1, 1], [1])
    assert "Bonus 3 − Malus 2: a net Bonus of 1" in _steps(result)
    assert result.signed_ps == 2


def test_netting_to_a_malus_and_to_nothing_is_shown():
    malus = resolve_action(ActionRoll(6, bonus=1, malus=3), [6, 1, 1], [-1, 0])
    assert "Bonus 1 − Malus 3: a net Malus of 2" in _steps(malus)
    even = resolve_action(ActionRoll(6, bonus=2, malus=2), [6, 1, 1], [])
    assert "Bonus 2 − Malus 2: they cancel out, no D+/-" in _steps(even)


def test_an_option_bonus_counts_in_the_netting():
    result = resolve_action(ActionRoll(5, malus=1, surpass=True), [5, 8, 6], [1])
    assert "Bonus 2 − Malus 1: a net Bonus of 1" in _steps(result)


def test_a_single_kind_shows_no_netting():
    result = resolve_action(ActionRoll(6, bonus=1), [6, 1, 1], [1])
    assert not any("−" in step for step in _steps(result))


def test_a_cooperator_stores_and_shows_the_cooperation_bonus_s_t5():
    state = table("Jake", "Natalia")
    members = [Attempt("Jake", "carrure", 2), Attempt("Natalia", "carrure", 2, malus=2)]
    decision = decide_cooperation(state, members, faces=[([6, 1, 1], [1]), ([6, 6, 1], [-1])])
    stored = decision.facts[0].payload["members"]
    assert [(m["bonus"], m.get("situation_bonus")) for m in stored] == [(0, 1), (0, 1)]
    traces = [[s.render() for s in r.trace] for r in decision.outcome.results]
    assert traces[0][0] == "cooperation: a Bonus of 1"
    assert "Bonus 1 − Malus 2: a net Malus of 1" in traces[1]


def test_a_simultaneous_set_stores_its_malus_on_each_action_s_t10():
    state = table("Natalia")
    actions = [Attempt("Natalia", "motricite", 1), Attempt("Natalia", "science", 1)]
    decision = decide_simultaneous(state, actions, faces=[([6, 3, 1], [1]), ([4, 5, 7], [-1])])
    stored = decision.facts[0].payload["actions"]
    assert [a["situation_malus"] for a in stored] == [1, 1]
    assert [a["ps"] for a in stored] == [1, 0]
    assert decision.outcome[0].trace[0].render() == "simultaneous Actions: a Malus of 1 on each"


def test_version_2_cooperation_and_simultaneous_payloads_upgrade():
    member = {"protagonist": "Jake", "bonus": 0}
    cooperation = CooperationRolled.upgrade({"members": [member, member]}, 2)
    assert [m["situation_bonus"] for m in cooperation["members"]] == [1, 1]
    simultaneous = SimultaneousRolled.upgrade({"set_malus": 2, "actions": [member]}, 2)
    assert simultaneous["actions"] == [{**member, "situation_malus": 2}]
    alone = SimultaneousRolled.upgrade({"set_malus": 0, "actions": [member]}, 2)
    assert alone["actions"] == [member]
