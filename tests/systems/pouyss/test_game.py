"""Pouyss decisions, folding and checking: the cagnotte, obligations, options, soft limits, errors.

Commands are decided by the plugin (`POUYSS.decide`, with typed-in faces that must all be
used, as the table service does); their events are folded with `POUYSS.evolve`, which applies
the recorded outcome; `POUYSS.verify` decides a stored event again against a state.

Source: seed 000; rulings P-M1 to P-M8, P-A2 to P-A9.
"""

import pytest

from tablee.dice import SourceChance, TypedFaces
from tablee.errors import InputError, NotFoundError, RuleError
from tablee.systems.pouyss import MAX_DICE, initial_state
from tablee.systems.pouyss.commands import (
    EndSession,
    Opposed,
    Penalty,
    Reward,
    Roll,
    StartSession,
)
from tablee.systems.pouyss.plugin import POUYSS

PLAYERS = ["Simon", "Alice", "Chloé"]


def decide(state, command, faces=()):
    source = TypedFaces(faces)
    decision = POUYSS.decide(state, command, SourceChance(source))
    source.finish()
    return decision


def fold(state, decision):
    for fact in POUYSS.facts(decision):
        state = POUYSS.evolve(state, fact.kind, fact.payload)
    assert state == decision.after
    return state


def payload(decision):
    (event,) = decision.events
    return event.payload()


def move(decision):
    (event,) = decision.events
    return event.cagnotte


def new_table(options=None, players=PLAYERS):
    return initial_state({"players": list(players), "options": options or {}})


def start(state, **kwargs):
    return decide(state, StartSession(**kwargs))


def end(state):
    return decide(state, EndSession())


def in_session(cagnotte=None, options=None):
    state = new_table(options)
    return fold(state, start(state, cagnotte=cagnotte))


def roll(state, faces, **counts):
    return decide(state, Roll(player="Simon", **counts), faces)


def reward(state, amount, player=None):
    return decide(state, Reward(amount=amount, player=player))


def penalty(state, amount, player=None):
    return decide(state, Penalty(amount=amount, player=player))


def texts(warnings):
    return [w.render() for w in warnings]


# --- sessions (P-M5, P-A12) -------------------------------------------------------------


def test_session_starts_with_one_die_per_player():
    state = in_session()
    assert state.in_session
    assert state.session == 1
    assert state.cagnotte == len(PLAYERS)


def test_session_start_fact():
    decision = start(new_table())
    facts = POUYSS.facts(decision)
    assert [f.kind for f in facts] == ["pouyss.session_started"]
    assert facts[0].payload == {"session": 1, "cagnotte": 3, "carried_over": False}


def test_session_start_with_explicit_cagnotte():
    assert in_session(cagnotte=7).cagnotte == 7
    assert in_session(cagnotte=0).cagnotte == 0
    with pytest.raises(InputError, match="-1"):
        start(new_table(), cagnotte=-1)


def test_session_already_in_progress_is_refused():
    with pytest.raises(RuleError, match="already"):
        start(in_session())


def _after_first_session(options=None):
    state = in_session(options=options)
    state = fold(state, roll(state, [1, 2, 3], malus=2))  # 3 + 2 = 5
    return fold(state, end(state))


def test_carry_over_keeps_the_last_cagnotte():
    state = _after_first_session()
    assert not state.in_session
    assert state.cagnotte == 5
    kept = fold(state, start(state, carry_over=True))
    assert (kept.session, kept.cagnotte) == (2, 5)
    reset = fold(state, start(state))
    assert (reset.session, reset.cagnotte) == (2, 3)


def test_carry_over_option_is_the_default_when_set():
    state = _after_first_session({"carry_over": "true"})
    assert fold(state, start(state)).cagnotte == 5
    assert fold(state, start(state, carry_over=False)).cagnotte == 3


def test_carry_over_needs_a_previous_session():
    with pytest.raises(RuleError, match="P-M5"):
        start(new_table(), carry_over=True)


def test_end_session_needs_a_session():
    with pytest.raises(RuleError, match="P-M5"):
        end(new_table())


def test_roll_needs_a_session():
    with pytest.raises(RuleError, match="no session"):
        roll(new_table(), [4])


# --- rolls and the cagnotte (P-M1, P-M5, P-M6, P-A2, P-A3) ------------------------------


def test_roll_draws_bonus_and_deposits_malus():
    # P-T8: one bonus drawn (-1), the two removed malus dice deposited (+2).
    state = in_session()
    decision = roll(state, [1, 4, 5, 6], bonus=1, malus=2)
    assert move(decision).to_json() == {"before": 3, "drawn": 1, "deposited": 2, "after": 4}
    stored = payload(decision)
    assert (stored["value"], stored["level"], stored["success"]) == (4, "succes", True)
    assert fold(state, decision).cagnotte == 4


def test_bonus_with_empty_cagnotte_is_refused():
    state = in_session(cagnotte=0)
    with pytest.raises(RuleError, match="P-M5"):
        roll(state, [2, 5], bonus=1)
    assert state.cagnotte == 0
    assert fold(state, roll(state, [5])).cagnotte == 0  # a roll with no bonus is still fine


def test_imposed_bonus_with_empty_cagnotte_is_refused():
    with pytest.raises(RuleError, match="P-M6"):
        roll(in_session(cagnotte=0), [2, 5], imposed_bonus=1)


def test_imposed_dice_move_the_cagnotte_like_asked_ones():
    decision = roll(in_session(), [2, 5, 6, 1], imposed_bonus=1, malus=1, imposed_malus=1)
    assert move(decision).to_json() == {"before": 3, "drawn": 1, "deposited": 2, "after": 4}
    assert decision.outcome.value == 2


def test_malus_dice_cannot_pay_for_the_same_rolls_bonus():
    # P-A3: bonuses are drawn before the roll, maluses deposited after it.
    with pytest.raises(RuleError):
        roll(in_session(cagnotte=0), [1, 2, 3, 4, 5], bonus=1, malus=3)


def test_bonus_beyond_the_cagnotte_is_refused():
    state = in_session(cagnotte=2)
    with pytest.raises(RuleError, match="holds only 2"):
        roll(state, [1, 2, 3, 4], bonus=3)
    assert fold(state, roll(state, [1, 2, 3], bonus=2)).cagnotte == 0


def test_bonus_cap_option():
    state = in_session(cagnotte=10, options={"bonus_cap": "2"})
    with pytest.raises(RuleError, match="bonus_cap"):
        roll(state, [1, 2, 3, 4], bonus=3)
    with pytest.raises(RuleError, match="bonus_cap"):
        roll(state, [1, 2, 3, 4], bonus=1, imposed_bonus=1, double_bonus=True)
    assert move(roll(state, [1, 2, 3], bonus=2)).drawn == 2


def test_bonus_dice_return_option():
    state = in_session(options={"bonus_dice_return": "true"})
    decision = roll(state, [1, 2, 3, 6], bonus=2, malus=1)
    assert move(decision).to_json() == {"before": 3, "drawn": 2, "deposited": 3, "after": 4}
    with pytest.raises(RuleError):  # the dice must still be in the cagnotte to be drawn
        roll(in_session(cagnotte=1, options={"bonus_dice_return": "true"}), [1, 2, 3], bonus=2)


def test_double_bonus_needs_a_bonus():
    with pytest.raises(InputError, match="P-M3"):
        roll(in_session(), [3, 4], double_bonus=True)


def test_double_bonus_adds_one_die_and_warns_past_the_soft_limit():
    state = in_session(cagnotte=10)
    first = roll(state, [1, 2, 6], bonus=1, double_bonus=True)
    assert move(first).drawn == 2
    assert first.outcome.value == 6
    assert first.warnings == ()
    state = fold(state, first)
    second = roll(state, [1, 2, 6], bonus=1, double_bonus=True)
    assert any("double bonus" in t for t in texts(second.warnings))
    state = fold(state, second)
    state = fold(state, end(state))
    state = fold(state, start(state))
    assert roll(state, [1, 2, 6], bonus=1, double_bonus=True).warnings == ()


def test_success_threshold_option():
    state = in_session(options={"success_threshold": "5"})
    assert payload(roll(state, [4]))["success"] is False
    assert payload(roll(state, [5]))["success"] is True
    assert payload(roll(in_session(), [3]))["success"] is False


# --- opposed rolls (P-M8, P-A9) ---------------------------------------------------------


def _opposed(state, counts, faces, **sides):
    if "passive_npc" not in sides:
        sides = {"passive": "Alice", **sides}
    sides = {"active": "Simon", **sides}
    names = ("active_bonus", "active_malus", "passive_bonus", "passive_malus")
    return decide(state, Opposed(**sides, **dict(zip(names, counts, strict=True))), faces)


def test_opposed_roll_accounts_from_the_rolls_point_of_view():
    # Ba=1, Ma=0, Bp=2, Mp=1: the roll has B = 1 + 1 = 2 and M = 0 + 2 = 2.
    state = in_session(cagnotte=5)
    decision = _opposed(state, (1, 0, 2, 1), [6, 5, 4, 2, 1])
    assert move(decision).to_json() == {"before": 5, "drawn": 2, "deposited": 2, "after": 5}
    stored = payload(decision)
    assert (stored["bonus"], stored["malus"], stored["value"]) == (2, 2, 4)
    assert (stored["passive_value"], stored["passive_level"]) == (3, "revers")
    assert fold(state, decision).cagnotte == 5


def test_opposed_roll_accounts_by_sides_when_chosen():
    # Each side pays its own bonuses (1 + 2) and returns its own maluses (0 + 1).
    state = in_session(cagnotte=5, options={"opposed_accounting": "sides"})
    decision = _opposed(state, (1, 0, 2, 1), [6, 5, 4, 2, 1])
    assert move(decision).to_json() == {"before": 5, "drawn": 3, "deposited": 1, "after": 3}


def test_passive_malus_cannot_become_a_bonus_with_an_empty_cagnotte():
    with pytest.raises(RuleError, match="P-M5"):
        _opposed(in_session(cagnotte=0), (0, 0, 0, 1), [3, 4])


def test_npc_cannot_be_active_against_a_player_character():
    # P-M8: the active side is always a player character; an opposed roll has no field for
    # an active non-player character, and a name that is not a player's is not found.
    with pytest.raises(NotFoundError, match="Le Rôdeur"):
        _opposed(in_session(), (0, 0, 0, 0), [3], active="Le Rôdeur")


def test_player_character_active_against_an_npc():
    decision = _opposed(in_session(), (0, 0, 0, 0), [5], passive_npc="Le Rôdeur")
    assert payload(decision)["passive"] == "Le Rôdeur"
    assert payload(decision)["passive_is_npc"] is True
    assert decision.outcome.passive_level.id == "defaite"


def test_the_passive_side_is_one_player_character_or_one_npc():
    with pytest.raises(InputError, match="P-M8"):
        _opposed(in_session(), (0, 0, 0, 0), [3], passive="Alice", passive_npc="Le Rôdeur")
    with pytest.raises(InputError, match="P-M8"):
        _opposed(in_session(), (0, 0, 0, 0), [3], passive=None)
    with pytest.raises(InputError, match="P-M8"):
        _opposed(in_session(), (0, 0, 0, 0), [3], passive_npc="alice")
    with pytest.raises(InputError, match="P-M8"):
        _opposed(in_session(), (0, 0, 0, 0), [3], passive="simon")


# --- rewards and penalties (P-M7, P-A7, P-A8) -------------------------------------------


def test_reward_adds_dice_and_warns_after_four_in_the_session():
    state = in_session()
    for amount in (2, 2):
        decision = reward(state, amount, "Alice")
        assert decision.warnings == ()
        state = fold(state, decision)
    assert state.cagnotte == 7
    fifth = reward(state, 1)
    assert any("5 reward dice" in t for t in texts(fifth.warnings))
    state = fold(state, fifth)
    state = fold(state, end(state))
    state = fold(state, start(state))
    assert reward(state, 1).warnings == ()


def test_reward_limit_scope_campaign_counts_across_sessions():
    state = in_session(options={"reward_limit_scope": "campaign"})
    state = fold(state, reward(state, 2))
    state = fold(state, reward(state, 2))
    state = fold(state, end(state))
    state = fold(state, start(state))
    assert any("campaign" in t for t in texts(reward(state, 1).warnings))


def test_reward_and_penalty_are_one_or_two_dice():
    for amount in (0, 3, True):
        with pytest.raises(InputError, match="P-M7"):
            reward(in_session(), amount)
        with pytest.raises(InputError, match="P-M7"):
            penalty(in_session(), amount)


def test_penalty_removes_dice():
    state = in_session()
    decision = penalty(state, 2, "Chloé")
    assert move(decision).to_json() == {"before": 3, "drawn": 2, "deposited": 0, "after": 1}
    assert fold(state, decision).cagnotte == 1


def test_penalty_clamps_at_zero():
    state = in_session(cagnotte=1)
    decision = penalty(state, 2)
    assert move(decision).to_json() == {"before": 1, "drawn": 1, "deposited": 0, "after": 0}
    assert any("it stops at 0" in t for t in texts(decision.warnings))
    assert fold(state, decision).cagnotte == 0


def test_penalty_floor_refuse_option():
    state = in_session(cagnotte=1, options={"penalty_floor": "refuse"})
    with pytest.raises(RuleError, match="P-A8"):
        penalty(state, 2)
    assert fold(state, penalty(state, 1)).cagnotte == 0


# --- malformed input --------------------------------------------------------------------


def test_unknown_player_is_not_found():
    state = in_session()
    with pytest.raises(NotFoundError, match="Bob"):
        decide(state, Roll(player="Bob"), [3])
    with pytest.raises(NotFoundError, match="Bob"):
        reward(state, 1, "Bob")
    with pytest.raises(NotFoundError, match="Bob"):
        _opposed(state, (0, 0, 0, 0), [3], passive="Bob")


def test_player_names_match_without_case():
    assert payload(decide(in_session(), Roll(player="simon"), [3]))["player"] == "Simon"


@pytest.mark.parametrize(
    ("counts", "faces"),
    [
        ({"bonus": -1}, [3]),
        ({"malus": -1}, [3]),
        # Each count alone: a sum could hide a negative one (the faces fit the sum).
        ({"bonus": -1, "imposed_bonus": 1}, [3]),
        ({"malus": 2, "imposed_malus": -1}, [3, 4]),
        ({"bonus": 1.5}, [3, 4]),
        ({"malus": "1"}, [3, 4]),
        ({"bonus": True}, [3, 4]),
    ],
)
def test_bad_counts_are_input_errors(counts, faces):
    with pytest.raises(InputError):
        roll(in_session(cagnotte=10), faces, **counts)


@pytest.mark.parametrize("faces", [[], [3, 4], [7], [0], [-1], [True], ["6"]])
def test_bad_faces_are_input_errors(faces):
    with pytest.raises(InputError):
        roll(in_session(), faces)


def test_pool_larger_than_max_dice_is_an_input_error():
    with pytest.raises(InputError, match=str(MAX_DICE)):
        roll(in_session(), [1] * (MAX_DICE + 1), malus=MAX_DICE)


def test_opposed_bad_counts_are_input_errors():
    with pytest.raises(InputError):
        _opposed(in_session(), (0, 0, -1, 0), [3])


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("bonus_cap", "lots"),
        ("success_threshold", "7"),
        ("penalty_floor", "maybe"),
        ("bonus_dice_return", "perhaps"),
        ("opposed_accounting", "both"),
        ("reward_soft_limit", "-1"),
        ("no_such_option", "1"),
    ],
)
def test_option_errors_name_the_option_and_value(name, value):
    with pytest.raises(InputError) as caught:
        POUYSS.change_options(in_session(), {name: value})
    assert name in str(caught.value)
    if name != "no_such_option":
        assert value in str(caught.value)
    with pytest.raises(InputError, match=name):
        new_table({name: value})


def test_options_change_through_a_fact():
    state = in_session()
    state = fold(state, POUYSS.change_options(state, {"bonus_cap": "1", "penalty_floor": "refuse"}))
    assert (state.options.bonus_cap, state.options.penalty_floor) == (1, "refuse")
    state = fold(state, POUYSS.change_options(state, {"bonus_cap": "none"}))
    assert state.options.bonus_cap is None


@pytest.mark.parametrize("players", [[], ["gm"], ["Ana", "ana"], [""], ["A,B"]])
def test_bad_player_lists_are_refused(players):
    with pytest.raises(InputError):
        initial_state({"players": players})


# --- folding applies the record; checking decides again ------------------------------


def test_verify_refuses_a_draw_larger_than_the_cagnotte():
    # What protects an undo and an import: a later roll's draw must still fit once an earlier
    # event is gone.
    rich = in_session(cagnotte=3)
    (fact,) = POUYSS.facts(roll(rich, [1, 2, 3], bonus=2))
    poor = in_session(cagnotte=1)
    with pytest.raises(RuleError, match="P-M5"):
        POUYSS.verify(poor, fact.kind, fact.payload)
    after, changed = POUYSS.verify(rich, fact.kind, fact.payload)
    assert (after.cagnotte, changed) == (1, None)


def test_evolve_applies_the_recorded_outcome_without_deciding_again():
    rich = in_session(cagnotte=3)
    (fact,) = POUYSS.facts(roll(rich, [1, 2, 3], bonus=2))
    assert POUYSS.evolve(rich, fact.kind, fact.payload).cagnotte == 1
    # Folding never decides: the record is applied even where the rules would refuse it.
    assert POUYSS.evolve(in_session(cagnotte=1), fact.kind, fact.payload).cagnotte == 1


def test_verify_refuses_a_roll_outside_a_session():
    state = in_session()
    (fact,) = POUYSS.facts(roll(state, [4]))
    ended = fold(state, end(state))
    with pytest.raises(RuleError, match="no session"):
        POUYSS.verify(ended, fact.kind, fact.payload)


def test_verify_reports_a_stored_result_its_dice_do_not_give():
    state = in_session()
    (fact,) = POUYSS.facts(roll(state, [1, 4, 5, 6], bonus=1, malus=2))
    forged = {**fact.payload, "value": 6, "level": "triomphe"}
    _, changed = POUYSS.verify(state, fact.kind, forged)
    assert changed == fact.payload


def test_verify_compares_recorded_odds_and_leaves_out_odds_not_recorded():
    state = in_session()
    (fact,) = POUYSS.facts(roll(state, [1, 4, 5, 6], bonus=1, malus=2))
    assert fact.payload["odds"] is not None
    forged = {**fact.payload, "odds": {**fact.payload["odds"], "success": "1/1"}}
    assert POUYSS.verify(state, fact.kind, forged)[1] == fact.payload
    old = {**fact.payload, "odds": None}  # version 1, upgraded: the odds were not recorded
    assert POUYSS.verify(state, fact.kind, old)[1] is None
    _, changed = POUYSS.verify(state, fact.kind, {**old, "value": 6, "level": "triomphe"})
    assert changed == old  # a revision keeps the odds not recorded


def test_evolve_refuses_an_unknown_kind():
    with pytest.raises(InputError, match=r"pouyss\.teleport"):
        POUYSS.evolve(in_session(), "pouyss.teleport", {})
