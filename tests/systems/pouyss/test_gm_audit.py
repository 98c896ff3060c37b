"""A game master's audit of Pouyss: correcting the cagnotte, obligations and the double bonus
on opposed rolls, a penalty on an empty cagnotte.

Source: seed 000, "Cagnotte", "Obligations", "Qualité d'interprétation", "Jets
comparatifs"; rulings P-M3, P-M5 to P-M8, P-A7, P-A9; Tablée's P-X1 to P-X3
(docs/rules/pouyss.md).
"""

import pytest

from tablee.errors import InputError, RuleError
from tablee.systems.declare import Who, fields_of
from tablee.systems.pouyss.commands import CorrectCagnotte, Opposed, Roll
from tablee.systems.pouyss.events import OpposedRolled
from tablee.systems.pouyss.plugin import POUYSS

from .test_game import (
    decide,
    fold,
    in_session,
    move,
    new_table,
    payload,
    penalty,
    reward,
    roll,
    texts,
)


def correct(state, value, reason="counted the dice on the table"):
    return decide(state, CorrectCagnotte(value=value, reason=reason))


def opposed(state, faces, **fields):
    return decide(state, Opposed(active="Simon", passive_npc="Le Rôdeur", **fields), faces)


# --- the narrator's correction (P-X1) ----------------------------------------------------


def test_a_correction_sets_the_cagnotte_and_records_why():
    state = in_session(cagnotte=4)
    up = correct(state, 6)
    assert move(up).to_json() == {"before": 4, "drawn": 0, "deposited": 2, "after": 6}
    assert payload(up)["reason"] == "counted the dice on the table"
    state = fold(state, up)
    down = correct(state, 1)
    assert move(down).to_json() == {"before": 6, "drawn": 5, "deposited": 0, "after": 1}
    assert fold(state, down).cagnotte == 1


def test_a_correction_is_no_reward_and_counts_towards_no_soft_limit():
    state = fold(in_session(cagnotte=0), correct(in_session(cagnotte=0), 9))
    assert state.rewards == 0
    for amount in (2, 2):
        decision = reward(state, amount)
        assert decision.warnings == ()
        state = fold(state, decision)
    assert any("5 reward dice" in t for t in texts(reward(state, 1).warnings))


def test_a_correction_needs_a_reason_a_session_and_a_change():
    with pytest.raises(InputError, match="P-X1"):
        correct(in_session(cagnotte=2), 3, reason="  ")
    with pytest.raises(RuleError, match="P-X1"):
        correct(in_session(cagnotte=2), 2)
    with pytest.raises(RuleError, match="no session"):
        correct(new_table(), 3)
    with pytest.raises(InputError, match="0 to 10000"):
        correct(in_session(cagnotte=2), -1)


def test_only_the_game_master_corrects_the_cagnotte():
    assert CorrectCagnotte.who is Who.GM
    specs = {spec.name: spec for spec in fields_of(CorrectCagnotte)}
    assert specs["reason"].required and specs["value"].required


def test_a_stored_correction_checks_again():
    state = in_session(cagnotte=4)
    (fact,) = POUYSS.facts(correct(state, 7))
    assert POUYSS.verify(state, fact.kind, fact.payload, POUYSS.rules_version) == (
        fold(state, correct(state, 7)),
        None,
    )


# --- obligations and the double bonus on an opposed roll (P-M6, P-M3, P-X2) -------------


def test_imposed_dice_on_an_opposed_roll_move_the_cagnotte_as_the_text_example_does():
    # P-T8's dice and counts as an opposed roll: the narrator imposes the one bonus, the
    # passive side's two bonuses are two malus dice; 6 and 5 removed, 4 Succès for the active
    # side and its mirror 3 Revers for the passive one; the cagnotte −1 then +2.
    state = in_session(cagnotte=4)
    decision = opposed(state, [1, 4, 5, 6], imposed_bonus=1, passive_bonus=2)
    stored = payload(decision)
    assert (stored["bonus"], stored["malus"], stored["removed"]) == (1, 2, [6, 5])
    assert (stored["value"], stored["level"], stored["passive_level"]) == (4, "succes", "revers")
    assert (stored["imposed_bonus"], stored["active_bonus"]) == (1, 0)
    assert move(decision).to_json() == {"before": 4, "drawn": 1, "deposited": 2, "after": 5}


def test_a_bonus_cannot_be_imposed_on_an_opposed_roll_with_an_empty_cagnotte():
    with pytest.raises(RuleError, match=r"cannot impose a bonus.*P-M6"):
        opposed(in_session(cagnotte=0), [3, 4], imposed_bonus=1)
    # An imposed malus needs no die from the cagnotte.
    decision = opposed(in_session(cagnotte=0), [3, 4], imposed_malus=1)
    assert move(decision).to_json() == {"before": 0, "drawn": 0, "deposited": 1, "after": 1}


def test_imposed_dice_are_the_active_sides_when_each_side_pays_its_own():
    # opposed_accounting=sides: the imposed bonus is drawn and the imposed malus put back
    # with the active side's own dice; the passive bonus is drawn as the passive side's.
    state = in_session(cagnotte=5, options={"opposed_accounting": "sides"})
    decision = opposed(state, [1, 2, 3, 4], imposed_bonus=1, imposed_malus=1, passive_bonus=1)
    assert move(decision).to_json() == {"before": 5, "drawn": 2, "deposited": 1, "after": 4}


def test_the_imposed_fields_of_an_opposed_roll_are_the_game_masters_as_on_a_roll():
    def imposed(command: type) -> dict[str, tuple[bool, str]]:
        return {
            spec.name: (spec.param.gm_only, spec.param.group)
            for spec in fields_of(command)
            if spec.name.startswith("imposed_")
        }

    assert imposed(Opposed) == imposed(Roll)
    assert all(gm_only and group for gm_only, group in imposed(Opposed).values())


def test_a_double_bonus_on_an_opposed_roll_needs_an_active_bonus():
    with pytest.raises(InputError, match="P-M3"):
        opposed(in_session(), [1, 2, 3], passive_malus=1, double_bonus=True)


def test_a_double_bonus_on_an_opposed_roll_adds_a_die_and_counts_towards_the_soft_limit():
    state = in_session(cagnotte=6)
    first = roll(state, [1, 2, 6], bonus=1, double_bonus=True)
    state = fold(state, first)
    second = opposed(state, [1, 2, 3], active_bonus=1, double_bonus=True, reasons=("fog",))
    stored = payload(second)
    assert (stored["bonus"], stored["double_bonus"], stored["reasons"]) == (2, True, ["fog"])
    assert move(second).drawn == 2
    assert any("double bonus" in t for t in texts(second.warnings))
    assert fold(state, second).doubles == 2


def test_an_opposed_roll_with_imposed_dice_checks_again():
    state = in_session(cagnotte=4)
    decision = opposed(
        state, [1, 4, 5, 6], active_bonus=1, imposed_malus=1, passive_bonus=1, reasons=("fog",)
    )
    (fact,) = POUYSS.facts(decision)
    assert POUYSS.verify(state, fact.kind, fact.payload, POUYSS.rules_version)[1] is None


def test_an_opposed_roll_of_version_1_or_2_opens_with_nothing_imposed():
    stored = payload(opposed(in_session(), [2, 5], active_bonus=1))
    added = ("imposed_bonus", "imposed_malus", "double_bonus", "reasons")
    v2 = {k: v for k, v in stored.items() if k not in added}
    v1 = {k: v for k, v in v2.items() if k != "odds"}
    assert OpposedRolled.version == 3
    for old, version in ((v1, 1), (v2, 2)):
        event = OpposedRolled.from_payload(OpposedRolled.upgrade(old, version))
        assert (event.imposed_bonus, event.imposed_malus, event.double_bonus) == (0, 0, False)
        assert (event.reasons, event.value, event.bonus) == ((), 5, 1)


# --- a penalty on an empty cagnotte (P-X3) ------------------------------------------------


def test_a_penalty_on_an_empty_cagnotte_is_refused():
    with pytest.raises(RuleError, match="P-X3") as refused:
        penalty(in_session(cagnotte=0), 1)
    assert "talk with the player" in str(refused.value.tip)
    # A penalty larger than what is left still removes what is there (P-A8).
    assert move(penalty(in_session(cagnotte=1), 2)).drawn == 1


def test_a_penalty_on_an_empty_cagnotte_recorded_by_rules_version_1_still_checks():
    empty = in_session(cagnotte=0)
    stored = {
        "player": None,
        "amount": 1,
        "reason": "",
        "cagnotte": {"before": 0, "drawn": 0, "deposited": 0, "after": 0},
    }
    for version in ("1", None):
        after, changed = POUYSS.verify(empty, "pouyss.penalty", stored, version)
        assert (after.cagnotte, changed) == (0, None)
    assert POUYSS.rules_version == "2"
    with pytest.raises(RuleError, match="P-X3"):
        POUYSS.verify(empty, "pouyss.penalty", stored, "2")
    with pytest.raises(RuleError, match="unknown"):
        POUYSS.rules_of("3")
