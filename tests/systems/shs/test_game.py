"""SHS table decisions: Protagonistes, counters, Tests, opposed, cooperation, simultaneous
Actions, the clock, options, refusals, the system object and the log lines.

Source: seed 003; rulings S-M1 to S-M9, S-N1, S-A2 to S-A15, S-T1 to S-T11.
"""

import pytest

from tablee.errors import InputError, NotFoundError, RuleError
from tablee.systems.shs import (
    SHS,
    Attempt,
    ShsState,
    decide_add_modifier,
    decide_advance_time,
    decide_cooperation,
    decide_counter,
    decide_create,
    decide_end_modifier,
    decide_kill,
    decide_long_action,
    decide_next_tour,
    decide_opposed,
    decide_options,
    decide_revive,
    decide_scene,
    decide_simultaneous,
    decide_test,
    describe,
    evolve,
    initial_state,
    plan_cooperation,
    plan_opposed,
    plan_simultaneous,
    plan_test,
    rolls_due,
)

HEROES = {
    # name: carrure, motricite, science, relationnel, sang_froid, expertises
    "Jake": (6, 6, 7, 7, 8, ["Sauter"]),
    "Sergueï": (5, 6, 7, 7, 8, []),
    "Natalia": (6, 5, 7, 7, 8, []),
    "Jaleel": (7, 7, 7, 6, 7, []),
    "Nella": (7, 7, 7, 7, 6, []),
}


def apply(state, decision):
    for fact in decision.facts:
        state = evolve(state, fact.kind, fact.payload)
    assert state == decision.after
    return state


def table(*names, options=None):
    state = initial_state({"players": ["Ana", "Bob"], "options": options or {}})
    for name in names or HEROES:
        c, m, s, r, f, expertises = HEROES[name]
        decision = decide_create(
            state,
            name=name,
            carrure=c,
            motricite=m,
            science=s,
            relationnel=r,
            sang_froid=f,
            expertises=expertises,
        )
        state = apply(state, decision)
    return state


def in_tour(state):
    state = apply(state, decide_scene(state, kind="rythmee"))
    return apply(state, decide_next_tour(state))


def line(decision, state=None):
    fact = decision.facts[0]
    return describe(fact.kind, fact.payload, state).render()


# --- the table and its Protagonistes (S-M9, S-N1, S-A11) -----------------------------


def test_initial_state_reads_players_and_options():
    state = initial_state({"players": ["Ana"], "options": {"opposed_tie": "reroll"}})
    assert state.players == ("Ana",)
    assert state.options.opposed_tie == "reroll"
    assert state.protagonists == {} and state.clock.tour == 0
    assert initial_state({}).players == ()


@pytest.mark.parametrize(
    "created",
    [
        {"players": ["Ana", "ana"]},
        {"players": ["gm"]},
        {"players": "Ana"},
        {"players": ["Ana"], "options": {"colour": "red"}},
        {"players": ["Ana"], "options": {"action_dice": "0"}},
    ],
)
def test_initial_state_refuses_bad_input(created):
    with pytest.raises(InputError):
        initial_state(created)


def test_create_derives_sante_and_stores_every_field():
    state = initial_state({"players": ["Ana"]})
    decision = decide_create(
        state,
        name=" Jake ",
        carrure=6,
        motricite=6,
        science=7,
        relationnel=7,
        sang_froid=8,
        expertises=["Sauter"],
        protection=2,
        air=30,
        owner="ana",
    )
    fact = decision.facts[0]
    assert fact.kind == "shs.protagonist_created" and fact.version == 1
    assert fact.payload == {
        "name": "Jake",
        "owner": "Ana",
        "carrure": 6,
        "motricite": 6,
        "science": 7,
        "relationnel": 7,
        "sang_froid": 8,
        "expertises": ["Sauter"],
        "protection": 2,
        "air": 30,
        "sante": 11,
        "sante_max": 11,
    }
    after = apply(state, decision)
    assert after.protagonists["Jake"].sante == 11
    assert after.owners == {"Jake": "Ana"}
    assert "Jake joins the film (played by Ana)" in line(decision)


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("carrure", 4, InputError),
        ("science", 9, InputError),
        ("sang_froid", "6", InputError),
        ("protection", -1, InputError),
        ("air", 10_001, InputError),
        ("name", "", InputError),
        ("owner", "Zed", NotFoundError),
        ("name", "JAKE", RuleError),
    ],
)
def test_create_refusals_name_the_field(field, value, error):
    state = table("Jake")
    inputs = dict(name="Lou", carrure=6, motricite=6, science=6, relationnel=6, sang_froid=6)
    inputs[field] = value
    with pytest.raises(error) as caught:
        decide_create(state, **inputs)
    if field in ("carrure", "science", "sang_froid", "protection", "air"):
        assert field in str(caught.value)
    assert state == table("Jake")


# --- counters, death and revival (S-A8 to S-A10) -------------------------------------


def test_counter_by_delta_stops_at_its_bounds_with_a_notice():
    state = table("Jake")
    decision = decide_counter(state, protagonist="jake", counter="Santé", delta=-20)
    assert decision.facts[0].payload == {
        "protagonist": "Jake",
        "counter": "sante",
        "delta": -20,
        "value": None,
        "before": 11,
        "after": 0,
    }
    assert len(decision.warnings) == 2
    assert "the Réalisateur decides" in decision.warnings[1].render()
    after = apply(state, decision)
    assert after.protagonists["Jake"].sante == 0 and after.protagonists["Jake"].alive
    assert line(decision, after) == "Jake: Santé -20, now 0"


def test_counter_set_by_value_and_nt_air_protection():
    state = table("Jake")
    for counter, value in (("nt", 3), ("AIR", 40), ("protection", 2), ("sante", 5)):
        state = apply(
            state, decide_counter(state, protagonist="Jake", counter=counter, value=value)
        )
    hero = state.protagonists["Jake"]
    assert (hero.nt, hero.air, hero.protection, hero.sante) == (3, 40, 2, 5)
    state = apply(state, decide_counter(state, protagonist="Jake", counter="sante", delta=+20))
    assert state.protagonists["Jake"].sante == 11


@pytest.mark.parametrize(
    ("inputs", "error"),
    [
        ({"counter": "sante", "value": 12}, InputError),  # above Santé max 11
        ({"counter": "nt", "value": -1}, InputError),
        ({"counter": "luck", "delta": 1}, InputError),
        ({"counter": "nt", "delta": 0}, InputError),
        ({"counter": "nt", "delta": 1, "value": 1}, InputError),
        ({"counter": "nt"}, InputError),
        ({"counter": "nt", "delta": 10_001}, InputError),
        ({"counter": "nt", "delta": 1, "protagonist": "Zed"}, NotFoundError),
    ],
)
def test_counter_refusals(inputs, error):
    state = table("Jake")
    with pytest.raises(error):
        decide_counter(state, **{"protagonist": "Jake", **inputs})


def test_kill_and_revive():
    state = table("Jake")
    state = apply(state, decide_kill(state, protagonist="Jake", reason="airlock"))
    assert not state.protagonists["Jake"].alive
    with pytest.raises(RuleError, match="already dead"):
        decide_kill(state, protagonist="Jake")
    revived = decide_revive(state, protagonist="jake")
    assert "lives again" in line(revived)
    state = apply(state, revived)
    assert state.protagonists["Jake"].alive
    with pytest.raises(RuleError):
        decide_revive(state, protagonist="Jake")


# --- Tests (S-M2, S-M5, S-A8; S-T1, S-T7, S-T8) -------------------------------------


def test_jake_jumps_with_his_expertise_s_t1():
    state = table("Jake")
    decision = decide_test(
        state,
        Attempt("Jake", "Motricité", 2, expertise="sauter"),
        action_faces=[2, 7, 8],
        dpm_faces=[],
    )
    p = decision.facts[0].payload
    assert decision.facts[0].kind == "shs.test"
    assert (p["die"], p["threshold"], p["expertise"], p["ps"], p["success"]) == (
        "d10",
        6,
        "Sauter",
        2,
        True,
    )
    assert p["action_faces"] == [2, 7, 8] and p["dpm_faces"] == [] and p["dice"] == [3]
    assert decision.outcome.success
    assert line(decision) == (
        "Jake rolls Test (Motricité, 2) (Expertise Sauter): D10 2, 7, 8: 2 PS, success"
    )


def test_serguei_surpasses_himself_nt_after_s_t7():
    state = table("Sergueï")
    attempt = Attempt("Sergueï", "carrure", 4, surpass=True)
    assert plan_test(state, attempt).surpass
    decision = decide_test(state, attempt, action_faces=[5, 8, 6], dpm_faces=[1, -1])
    p = decision.facts[0].payload
    assert (p["option"], p["ps"], p["success"], p["nt_gain"], p["dies"]) == (
        "se_surpasser",
        4,
        True,
        1,
        False,
    )
    assert state.protagonists["Sergueï"].nt == 0
    assert apply(state, decision).protagonists["Sergueï"].nt == 1
    assert line(decision).endswith("success; NT +1 (Se Surpasser)")


def test_serguei_sacrifices_himself_and_never_acts_again_s_t8():
    state = table("Sergueï")
    decision = decide_test(
        state,
        Attempt("Sergueï", "carrure", 4, sacrifice=True),
        action_faces=[5, 8, 1],
        dpm_faces=[1, 0],
    )
    p = decision.facts[0].payload
    assert (p["sacrifice_ps"], p["ps"], p["success"], p["dies"]) == (2, 5, True, True)
    state = apply(state, decision)
    assert not state.protagonists["Sergueï"].alive
    with pytest.raises(RuleError, match="dead"):
        decide_test(state, Attempt("Sergueï", "carrure", 1), action_faces=[5, 5, 5], dpm_faces=[])
    with pytest.raises(RuleError, match="dead"):
        plan_test(state, Attempt("Sergueï", "carrure", 1))


@pytest.mark.parametrize(
    ("attempt", "error"),
    [
        (Attempt("Jake", "carrure", 0), InputError),  # S-A4
        (Attempt("Jake", "carrure", None), InputError),
        (Attempt("Jake", "luck", 1), InputError),
        (Attempt("Jake", "carrure", 1, bonus=-1), InputError),
        (Attempt("Jake", "carrure", 1, malus=51), InputError),
        (Attempt("Jake", "carrure", 1, surpass=True, sacrifice=True), RuleError),  # S-M5
        (Attempt("Jake", "carrure", 1, expertise="Tirer"), NotFoundError),  # S-A2
        (Attempt("Zed", "carrure", 1), NotFoundError),
    ],
)
def test_test_refusals_decide_nothing(attempt, error):
    state = table("Jake")
    with pytest.raises(error):
        decide_test(state, attempt, action_faces=[1, 1, 1], dpm_faces=[])
    assert state == table("Jake")


def test_test_refuses_wrong_faces_and_visibility():
    state = table("Jake")
    with pytest.raises(InputError):
        decide_test(state, Attempt("Jake", "carrure", 1), action_faces=[1, 1], dpm_faces=[])
    with pytest.raises(InputError):
        decide_test(state, Attempt("Jake", "carrure", 1), action_faces=[1, 1, 9], dpm_faces=[])
    with pytest.raises(InputError):
        decide_test(
            state, Attempt("Jake", "carrure", 1, bonus=1), action_faces=[1, 1, 1], dpm_faces=[]
        )
    with pytest.raises(InputError):
        decide_test(
            state,
            Attempt("Jake", "carrure", 1),
            action_faces=[1, 1, 1],
            dpm_faces=[],
            visibility="nobody",
        )


def test_visibility_and_actor():
    state = initial_state({"players": ["Ana"]})
    state = apply(
        state,
        decide_create(
            state,
            name="Jake",
            carrure=6,
            motricite=6,
            science=6,
            relationnel=6,
            sang_froid=6,
            owner="Ana",
        ),
    )
    decision = decide_test(
        state,
        Attempt("Jake", "carrure", 1),
        action_faces=[6, 1, 1],
        dpm_faces=[],
        visibility="gm",
        reason="the vent",
    )
    fact = decision.facts[0]
    assert (fact.actor, fact.visibility, fact.payload["reason"]) == ("Ana", "gm", "the vent")


# --- Protagoniste against Protagoniste (S-M4, S-A5, S-T9) ----------------------------


def test_jaleel_against_nella_s_t9():
    state = table("Jaleel", "Nella")
    first, second = Attempt("Jaleel", "relationnel"), Attempt("Nella", "sang_froid")
    assert plan_opposed(state, first, second).changer.value == "first"
    decision = decide_opposed(
        state, first, second, first_faces=([6, 1, 1], []), second_faces=([6, 6, 1], [])
    )
    p = decision.facts[0].payload
    assert decision.facts[0].kind == "shs.opposed"
    assert (p["first"]["ps"], p["second"]["ps"], p["winner"], p["status_quo"]) == (
        1,
        2,
        "second",
        True,
    )
    assert line(decision).endswith("Nella wins")


def test_opposed_tie_keeps_the_status_quo_or_asks_for_a_reroll():
    state = table("Jaleel", "Nella")
    args = (Attempt("Jaleel", "relationnel"), Attempt("Nella", "sang_froid"))
    faces = {"first_faces": ([6, 1, 1], []), "second_faces": ([6, 1, 1], [])}
    p = decide_opposed(state, *args, **faces).facts[0].payload
    assert (p["tie"], p["winner"], p["status_quo"]) == (True, "second", True)
    p = decide_opposed(state, *args, changer=None, **faces).facts[0].payload
    assert p["winner"] is None
    rerolled = table("Jaleel", "Nella", options={"opposed_tie": "reroll"})
    decision = decide_opposed(rerolled, *args, **faces)
    assert decision.facts[0].payload["reroll"] is True
    assert "roll again" in line(decision)


def test_opposed_refusals():
    state = table("Jaleel", "Nella")
    jaleel = Attempt("Jaleel", "relationnel")
    faces = {"first_faces": ([6, 1, 1], []), "second_faces": ([6, 1, 1], [])}
    with pytest.raises(InputError, match="themselves"):
        decide_opposed(state, jaleel, Attempt("jaleel", "carrure"), **faces)
    with pytest.raises(InputError, match="Difficulty"):
        decide_opposed(state, jaleel, Attempt("Nella", "carrure", 2), **faces)
    with pytest.raises(InputError):
        decide_opposed(state, jaleel, Attempt("Nella", "carrure"), changer="both", **faces)
    dead = apply(state, decide_kill(state, protagonist="Nella"))
    with pytest.raises(RuleError):
        decide_opposed(dead, jaleel, Attempt("Nella", "carrure"), **faces)


def test_each_side_pays_its_option():
    state = table("Jaleel", "Nella")
    decision = decide_opposed(
        state,
        Attempt("Jaleel", "relationnel", surpass=True),
        Attempt("Nella", "sang_froid", sacrifice=True),
        first_faces=([6, 1, 1], [1, 0]),
        second_faces=([1, 1, 1], [0, 0]),
    )
    after = apply(state, decision)
    assert after.protagonists["Jaleel"].nt == 1
    assert not after.protagonists["Nella"].alive


# --- cooperation (S-M6, S-A14, S-T5) -------------------------------------------------


def test_alfred_and_judith_force_the_door_s_t5():
    state = table("Jake", "Natalia")
    members = [Attempt("Jake", "carrure", 2), Attempt("Natalia", "carrure", 2)]
    assert [t.bonus for t in plan_cooperation(state, members)] == [1, 1]
    decision = decide_cooperation(state, members, faces=[([6, 1, 1], [0]), ([6, 6, 1], [0])])
    p = decision.facts[0].payload
    assert decision.facts[0].kind == "shs.cooperation"
    assert [m["success"] for m in p["members"]] == [False, True] and p["success"]
    assert p["members"][0]["dice"] == [3, 1]
    assert "the group succeeds" in line(decision)


def test_cooperation_refusals():
    state = table("Jake", "Natalia")
    faces = [([1, 1, 1], [0]), ([1, 1, 1], [0])]
    with pytest.raises(InputError):
        decide_cooperation(state, [Attempt("Jake", "carrure", 2)], faces=faces[:1])
    with pytest.raises(InputError, match="twice"):
        decide_cooperation(state, [Attempt("Jake", "carrure", 2)] * 2, faces=faces)
    with pytest.raises(InputError):
        decide_cooperation(
            state, [Attempt("Jake", "carrure", 2), Attempt("Natalia", "carrure", 3)], faces=faces
        )
    strict = table("Jake", "Natalia", options={"cooperation_options": "false"})
    with pytest.raises(RuleError, match="S-A14"):
        decide_cooperation(
            strict,
            [Attempt("Jake", "carrure", 2, surpass=True), Attempt("Natalia", "carrure", 2)],
            faces=[([1, 1, 1], [0, 0, 0]), ([1, 1, 1], [0])],
        )


# --- simultaneous Actions (S-M5, S-M7, S-T10, S-T11) ---------------------------------


def test_natalia_runs_and_hacks_s_t10_s_t11():
    state = table("Natalia")
    actions = [Attempt("Natalia", "motricite", 1), Attempt("Natalia", "science", 1)]
    assert [t.malus for t in plan_simultaneous(state, actions)] == [1, 1]
    decision = decide_simultaneous(state, actions, faces=[([6, 3, 1], [1]), ([4, 5, 7], [-1])])
    p = decision.facts[0].payload
    assert decision.facts[0].kind == "shs.simultaneous"
    assert p["set_malus"] == 1
    assert [(a["ps"], a["success"]) for a in p["actions"]] == [(1, True), (0, False)]
    assert "2 simultaneous Actions, Malus 1 each" in line(decision)


def test_trivial_actions_count_towards_the_malus():
    state = table("Natalia")
    decision = decide_simultaneous(
        state, [Attempt("Natalia", "motricite", 1)], trivial=1, faces=[([5, 1, 1], [0])]
    )
    assert decision.facts[0].payload["set_malus"] == 1


def test_simultaneous_refusals():
    state = table("Natalia", "Jake")
    two = [([1, 1, 1], [0, 0, 0]), ([1, 1, 1], [0, 0, 0])]
    with pytest.raises(RuleError, match="one option per set"):
        decide_simultaneous(
            state,
            [
                Attempt("Natalia", "motricite", 1, surpass=True),
                Attempt("Natalia", "science", 1, sacrifice=True),
            ],
            faces=two,
        )
    with pytest.raises(InputError, match="one Protagoniste"):
        decide_simultaneous(
            state, [Attempt("Natalia", "motricite", 1), Attempt("Jake", "science", 1)], faces=two
        )
    with pytest.raises(InputError):
        decide_simultaneous(state, [Attempt("Natalia", "motricite", 1)] * 2, faces=two[:1])
    with pytest.raises(InputError):
        decide_simultaneous(state, [], faces=[])


# --- the clock (S-M3, S-M8, S-A15, S-T4, S-T6) ---------------------------------------


def test_scenes_and_tours():
    state = table("Jake")
    with pytest.raises(RuleError, match="scène rythmée"):
        decide_next_tour(state)
    lente = apply(state, decide_scene(state, kind="lente"))
    with pytest.raises(RuleError):
        decide_next_tour(lente)
    decision = decide_scene(lente, kind="rythmee")
    assert decision.facts[0].payload == {"kind": "rythmee", "scene": 2}
    assert line(decision) == "Scène 2 begins: a scène rythmée"
    state = apply(lente, decision)
    state = apply(state, decide_next_tour(state))
    assert (state.clock.scene, state.clock.tour) == (2, 1)
    with pytest.raises(InputError):
        decide_scene(state, kind="fast")


def test_a_temporary_malus_applies_by_itself_then_expires():
    state = in_tour(table("Jake"))
    state = apply(
        state,
        decide_add_modifier(
            state, protagonist="jake", kind="malus", amount=1, duration="2 Tours", label="dazed"
        ),
    )
    test = plan_test(state, Attempt("Jake", "carrure", 1))
    assert (test.malus, test.bonus) == (1, 0)
    decision = decide_test(
        state, Attempt("Jake", "carrure", 1), action_faces=[6, 1, 1], dpm_faces=[-1]
    )
    p = decision.facts[0].payload
    assert (p["malus"], p["temporary_malus"], p["dice"], p["ps"]) == (0, 1, [3, -1], 0)
    assert "temporary Malus 1" in line(decision)
    for _ in range(2):
        state = apply(state, decide_next_tour(state))
        assert plan_test(state, Attempt("Jake", "carrure", 1)).malus == 1
    decision = decide_next_tour(state)
    assert [m["label"] for m in decision.facts[0].payload["expired"]] == ["dazed"]
    state = apply(state, decision)
    assert plan_test(state, Attempt("Jake", "carrure", 1)).malus == 0


def test_modifier_refusals_and_ending_by_hand():
    state = table("Jake")
    with pytest.raises(NotFoundError):
        decide_add_modifier(state, protagonist="Zed", kind="malus", amount=1, duration="1 h")
    with pytest.raises(InputError):
        decide_add_modifier(state, protagonist="Jake", kind="curse", amount=1, duration="1 h")
    with pytest.raises(InputError):
        decide_add_modifier(state, protagonist="Jake", kind="bonus", amount=0, duration="1 h")
    with pytest.raises(InputError):
        decide_add_modifier(state, protagonist="Jake", kind="bonus", amount=1, duration="soon")
    state = apply(
        state,
        decide_add_modifier(state, protagonist="Jake", kind="bonus", amount=2, duration="1 h"),
    )
    assert plan_test(state, Attempt("Jake", "carrure", 1)).bonus == 2
    with pytest.raises(InputError):
        decide_end_modifier(state, number=2)
    ended = decide_end_modifier(state, number=1)
    assert "ends Jake's Bonus (1 h) of 2" in line(ended)
    assert apply(state, ended).clock.modifiers == ()


def test_game_time_advances_and_refuses_tours():
    state = table("Jake")
    decision = decide_advance_time(state, duration="90 min")
    assert decision.facts[0].payload == {"seconds": 5400, "total": 5400, "expired": []}
    assert line(decision) == "game time advances by 1 h 30 min (1 h 30 min in all)"
    with pytest.raises(InputError):
        decide_advance_time(state, duration="2 Tours")
    with pytest.raises(InputError):
        decide_advance_time(state, duration=0)


def test_a_long_action_running_when_a_scene_lente_begins_falls_due_there():
    state = in_tour(table("Jake"))
    state = apply(state, decide_long_action(state, protagonist="Jake", label="hack", tours=3))
    early = Attempt("Jake", "science", 1)
    with pytest.raises(RuleError, match="last Tour"):
        decide_test(state, early, action_faces=[7, 1, 1], dpm_faces=[], long_action="hack")
    calm = decide_scene(state, kind="lente")
    assert [w.render() for w in calm.warnings] == [
        "Jake's hack counts Tours, which stop in a scène lente: its last seconds pass in the "
        "calm, so roll its Test now"
    ]
    state = apply(state, calm)
    assert [a.label for a in rolls_due(state.clock)] == ["hack"]
    rolled = decide_test(state, early, action_faces=[7, 1, 1], dpm_faces=[], long_action="hack")
    assert rolled.facts[0].payload["long_action"] == "hack"
    assert apply(state, rolled).clock.long_actions == ()
    with pytest.raises(RuleError, match="estimates how long an Action takes") as caught:
        decide_long_action(state, protagonist="Jake", label="repair", tours=2)
    assert "advance game time" in caught.value.render()


def test_long_action_refusals():
    state = table("Jake")
    with pytest.raises(RuleError):
        decide_long_action(state, protagonist="Jake", label="hack", tours=3)
    state = in_tour(state)
    with pytest.raises(InputError):
        decide_long_action(state, protagonist="Jake", label="hack", tours=0)
    state = apply(state, decide_long_action(state, protagonist="Jake", label="hack", tours=3))
    with pytest.raises(RuleError, match="already"):
        decide_long_action(state, protagonist="jake", label="HACK", tours=2)
    with pytest.raises(NotFoundError):
        decide_test(
            state,
            Attempt("Jake", "science", 1),
            action_faces=[1, 1, 1],
            dpm_faces=[],
            long_action="fly",
        )
    dead = apply(state, decide_kill(state, protagonist="Jake"))
    with pytest.raises(RuleError):
        decide_long_action(dead, protagonist="Jake", label="run", tours=2)


# --- options and the system object ---------------------------------------------------


def test_options_change():
    state = table("Jake")
    decision = decide_options(state, {"negative_ps": "zero", "dpm_cap": "5"})
    assert decision.facts[0].kind == "shs.options_set"
    after = apply(state, decision)
    assert (after.options.negative_ps, after.options.dpm_cap) == ("zero", 5)
    assert line(decision) == "house rules: A total below 0 PS: counts as 0; D+/- per roll: 5"
    with pytest.raises(InputError):
        decide_options(state, {"dice": "3"})


def test_the_system_object():
    state = in_tour(table("Jake"))
    state = apply(
        state,
        decide_add_modifier(state, protagonist="Jake", kind="malus", amount=1, duration="2 Tours"),
    )
    assert SHS.id == "shs"
    assert set(SHS.option_help) == set(SHS.options_json(state))
    assert set(SHS.option_labels) == set(SHS.option_help)
    assert SHS.event_versions["shs.test"] == 2 and len(SHS.event_versions) == 15
    assert all(kind.startswith("shs.") for kind in SHS.event_versions)
    assert isinstance(SHS.initial_state({"players": []}), ShsState)
    summary = SHS.summary(state)
    assert set(summary) == {"protagonistes", "clock", "options"}
    assert summary["protagonistes"]["Jake"]["sante"] == 11
    assert summary["clock"]["tour"] == 1 and summary["clock"]["modifiers"][0]["number"] == 1
    facts = SHS.decide_options(state, {"action_dice": "4"})
    assert SHS.evolve(state, facts[0].kind, facts[0].payload).options.action_dice == 4
    with pytest.raises(InputError, match=r"shs\.unknown"):
        SHS.describe("shs.unknown", {}, None)
