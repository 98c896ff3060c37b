"""Folding SHS facts by deciding them again: tampering, undo, expiry by the clock, long
Actions, and Hypothesis invariants over random command sequences.

Source: docs/architecture.md, "The event log"; seed 003; rulings S-M1 to S-M8, S-A8 to S-A15,
S-T4, S-T6.
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablee.errors import InputError, NotFoundError, RuleError, StorageError, TableeError
from tablee.systems.shs import (
    COUNTERS,
    Attempt,
    Characteristic,
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
    dice_for_action,
    evolve,
    initial_state,
    plan_cooperation,
    plan_opposed,
    plan_simultaneous,
    plan_test,
)


class Log:
    """A table driven by decisions, keeping every fact (as JSON, like a store)."""

    def __init__(self, options=None):
        self.created = {"players": ["Ana"], "options": options or {}}
        self.state = initial_state(self.created)
        self.facts = []

    def do(self, decide, *args, **kwargs):
        decision = decide(self.state, *args, **kwargs)
        for fact in decision.facts:
            payload = json.loads(json.dumps(fact.payload))
            self.state = evolve(self.state, fact.kind, payload)
            self.facts.append((fact.kind, payload))
        assert self.state == decision.after
        return decision

    @property
    def next_seq(self):
        """The seq the next fact would be stored at (``table.created`` is seq 1)."""
        return len(self.facts) + 2

    def fold(self, skip=()):
        state = initial_state(self.created)
        for index, (kind, payload) in enumerate(self.facts):
            if index not in skip:
                state = evolve(state, kind, payload)
        return state

    def hero(self, name, c=6, m=6, s=6, r=6, f=6, expertises=()):
        return self.do(
            decide_create,
            name=name,
            carrure=c,
            motricite=m,
            science=s,
            relationnel=r,
            sang_froid=f,
            expertises=expertises,
        )


def log_with_everything():
    log = Log()
    log.hero("Jake", expertises=["Sauter"])
    log.hero("Nella")
    log.do(decide_scene, kind="rythmee")
    log.do(decide_next_tour)
    log.do(decide_add_modifier, protagonist="Jake", kind="malus", amount=1, duration="2 Tours")
    log.do(
        decide_test,
        Attempt("Jake", "motricite", 2, expertise="Sauter"),
        action_faces=[2, 7, 8],
        dpm_faces=[-1],
    )
    log.do(
        decide_opposed,
        Attempt("Jake", "carrure"),
        Attempt("Nella", "carrure", surpass=True),
        first_faces=([6, 6, 1], [0]),
        second_faces=([6, 1, 1], [1, 1]),
    )
    log.do(
        decide_cooperation,
        [Attempt("Jake", "science", 2), Attempt("Nella", "science", 2)],
        faces=[([6, 1, 1], []), ([6, 6, 1], [1])],
    )
    log.do(
        decide_simultaneous,
        [Attempt("Nella", "motricite", 1), Attempt("Nella", "science", 1)],
        faces=[([6, 3, 1], [1]), ([4, 5, 7], [-1])],
    )
    log.do(decide_counter, protagonist="Nella", counter="sante", delta=-3)
    log.do(decide_counter, protagonist="Nella", counter="air", value=20)
    log.do(decide_long_action, protagonist="Nella", label="hack", tours=1)
    log.do(
        decide_test,
        Attempt("Nella", "science", 1),
        action_faces=[6, 1, 1],
        dpm_faces=[],
        long_action="hack",
    )
    log.do(decide_advance_time, duration="10 min")
    log.do(decide_add_modifier, protagonist="Nella", kind="bonus", amount=1, duration="1 h")
    log.do(decide_end_modifier, number=2)
    log.do(decide_kill, protagonist="Nella")
    log.do(decide_revive, protagonist="Nella")
    log.do(decide_options, {"negative_ps": "zero"})
    return log


def test_every_kind_folds_again_from_json():
    log = log_with_everything()
    assert {kind for kind, _ in log.facts} == set(_kinds())
    assert log.fold() == log.state


def _kinds():
    from tablee.systems.shs import EVENT_VERSIONS

    return EVENT_VERSIONS


# --- tampering: the stored results must be what the inputs give ------------------------


def _tampered(log, index, change):
    kind, payload = log.facts[index]
    payload = json.loads(json.dumps(payload))
    change(payload)
    log.facts[index] = (kind, payload)
    return log


def _index(log, kind, nth=0):
    return [i for i, (k, _) in enumerate(log.facts) if k == kind][nth]


@pytest.mark.parametrize(
    ("kind", "change", "field"),
    [
        ("shs.test", lambda p: p.update(ps=3), "ps"),
        ("shs.test", lambda p: p.update(success=not p["success"]), "success"),
        ("shs.test", lambda p: p.update(action_faces=[2, 7, 1]), "dice_ps"),
        ("shs.test", lambda p: p.update(dice_ps=3), "dice_ps"),
        ("shs.opposed", lambda p: p.update(winner="first"), "winner"),
        ("shs.opposed", lambda p: p["second"].update(nt_gain=0), "second.nt_gain"),
        ("shs.cooperation", lambda p: p["members"][1].update(ps=0), "members.1.ps"),
        ("shs.simultaneous", lambda p: p.update(set_malus=0), "set_malus"),
        ("shs.protagonist_created", lambda p: p.update(sante=12), "sante"),
        ("shs.protagonist_created", lambda p: p.update(extra=1), "extra"),
    ],
)
def test_replay_refuses_a_tampered_fact(kind, change, field):
    log = log_with_everything()
    _tampered(log, _index(log, kind), change)
    with pytest.raises(InputError, match=f"stored {field} ") as caught:
        log.fold()
    assert not isinstance(caught.value, NotFoundError)


def test_a_stored_ps_its_faces_do_not_give_is_refused():
    log = Log()
    log.hero("Jake")
    log.do(decide_test, Attempt("Jake", "carrure", 2), action_faces=[6, 1, 1], dpm_faces=[])
    _tampered(log, 1, lambda p: p.update(ps=2, dice_ps=2, signed_ps=2, success=True))
    with pytest.raises(InputError, match=r"shs\.test by Jake: the stored dice_ps 2"):
        log.fold()


def test_records_are_not_compared():
    log = log_with_everything()
    _tampered(log, _index(log, "shs.counter_changed"), lambda p: p.update(before=1, after=1))
    _tampered(log, _index(log, "shs.tour_started"), lambda p: p.update(tour=9, due=[]))
    assert log.fold() == log.state


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        ("shs.unknown", {}),
        ("shs.test", {}),
        ("shs.counter_changed", {"protagonist": "Jake"}),
        ("shs.options_set", {"options": {"colour": "red"}}),
        ("shs.test", {**log_with_everything().facts[5][1], "option": "fly"}),
    ],
)
def test_malformed_facts_are_input_errors(kind, payload):
    state = log_with_everything().state
    with pytest.raises(InputError):
        evolve(state, kind, payload)


# --- undo: folding without an earlier fact -------------------------------------------


def test_undoing_a_modifier_a_later_test_used_is_a_rule_error():
    log = log_with_everything()
    with pytest.raises(RuleError, match="temporary_malus 1"):
        log.fold(skip={_index(log, "shs.modifier_added")})


def test_undoing_a_creation_is_a_rule_error_for_later_facts():
    log = log_with_everything()
    with pytest.raises(RuleError, match="no Protagoniste named"):
        log.fold(skip={_index(log, "shs.protagonist_created", 1)})


def test_undoing_a_death_breaks_the_revival():
    log = log_with_everything()
    with pytest.raises(RuleError, match="alive"):
        log.fold(skip={_index(log, "shs.protagonist_killed")})


def test_undoing_an_options_change_that_changes_the_dice_is_a_rule_error():
    log = Log()
    log.hero("Jake")
    log.do(decide_options, {"action_dice": "2"})
    log.do(decide_test, Attempt("Jake", "carrure", 1), action_faces=[6, 1], dpm_faces=[])
    with pytest.raises(RuleError, match="dice"):
        log.fold(skip={1})


def test_undoing_an_earlier_change_recomputes_the_later_one():
    log = Log()
    log.hero("Jake")  # Santé 11
    log.do(decide_counter, protagonist="Jake", counter="sante", delta=-5)
    log.do(decide_counter, protagonist="Jake", counter="sante", delta=-8)
    assert log.state.protagonists["Jake"].sante == 0
    assert log.fold(skip={1}).protagonists["Jake"].sante == 3


def test_ending_a_modifier_that_moved_is_a_rule_error():
    log = Log()
    log.hero("Jake")
    log.do(decide_add_modifier, protagonist="Jake", kind="malus", amount=1, duration="1 h")
    log.do(decide_add_modifier, protagonist="Jake", kind="bonus", amount=2, duration="1 h")
    log.do(decide_end_modifier, number=2)
    with pytest.raises(RuleError, match="not the one"):
        log.fold(skip={1})


def test_undoing_an_earlier_modifier_leaves_a_later_number_alone():
    log = Log()
    log.hero("Jake")
    first = log.next_seq
    log.do(decide_add_modifier, protagonist="Jake", kind="malus", amount=1, duration="1 h",
           seq=first)  # fmt: skip
    second = log.next_seq
    log.do(decide_add_modifier, protagonist="Jake", kind="bonus", amount=2, duration="1 h",
           seq=second)  # fmt: skip
    assert [m.number for m in log.state.clock.modifiers] == [first, second] == [3, 4]
    ended = log.do(decide_end_modifier, number=second)
    assert ended.facts[0].payload["modifier"]["kind"] == "bonus"
    assert ended.facts[0].version == 2
    assert [m.number for m in log.state.clock.modifiers] == [first]
    undone = log.fold(skip={1})  # the malus undone: the bonus is still number 4, and ended
    assert undone.clock.modifiers == ()
    with pytest.raises(NotFoundError, match=r"number 4; in force: #3 Jake: Malus \(1 h\) 1"):
        decide_end_modifier(log.state, number=second)


def test_a_seq_that_does_not_follow_the_numbers_in_force_is_refused():
    log = Log()
    log.hero("Jake")
    log.do(decide_add_modifier, protagonist="Jake", kind="malus", amount=1, duration="1 h",
           seq=5)  # fmt: skip
    for seq in (5, 4, 1, True):
        with pytest.raises(InputError):
            decide_add_modifier(
                log.state, protagonist="Jake", kind="bonus", amount=1, duration="1 h", seq=seq
            )
    kind, payload = log.facts[-1]
    with pytest.raises(InputError, match="seq"):
        evolve(log.fold(skip={1}), kind, {**payload, "seq": 1})


def _stored(kind, version, payload, seq):
    from datetime import UTC, datetime

    from tablee.table.events import StoredEvent

    when = datetime(2026, 1, 1, tzinfo=UTC)
    return StoredEvent("t", seq, kind, version, "gm", "all", payload, when)


def test_a_version_1_log_still_replays_and_numbers_its_modifiers():
    """Facts stored before modifiers had stable numbers: ended by their place in force."""
    from tablee.table.projection import fold

    log = Log()
    log.hero("Jake")
    log.do(decide_add_modifier, protagonist="Jake", kind="malus", amount=1, duration="1 h")
    log.do(decide_add_modifier, protagonist="Jake", kind="bonus", amount=2, duration="2 h")
    log.do(decide_add_modifier, protagonist="Jake", kind="bonus", amount=1, duration="3 h")
    log.do(decide_end_modifier, number=2)  # version 1 stored this as place 2 in force
    old = []
    for kind, payload in log.facts:
        if kind == "shs.modifier_added":
            old.append((kind, 1, {k: v for k, v in payload.items() if k != "seq"}))
        elif kind == "shs.modifier_ended":
            old.append((kind, 1, {"number": 2, "modifier": payload["modifier"]}))
        else:
            old.append((kind, 1, payload))
    created = {"system": "shs", "name": "old", "players": ["Ana"], "lang": "en", "options": {}}
    events = [_stored("table.created", 1, created, 1)]
    events += [_stored(k, v, p, seq) for seq, (k, v, p) in enumerate(old, start=2)]
    state = fold(events)
    # The log keeps the events as written; the fold reads them at the current version.
    assert [e.schema_version for e in state.events[2:]] == [1, 1, 1, 1]
    assert state.payload_of(state.events[-1]) == {
        "number": None,
        "position": 2,
        "modifier": log.facts[-1][1]["modifier"],
    }
    clock = state.game.clock
    assert [(m.modifier.kind, m.modifier.amount, m.number) for m in clock.modifiers] == [
        ("malus", 1, 1),
        ("bonus", 1, 3),
    ]
    assert state.game == log.state
    # A version-1 end whose place no longer holds the same modifier is refused on replay.
    moved = [*events[:3], *events[4:]]  # the 2 h bonus never added: place 2 is the 3 h one
    moved = [_stored(e.kind, e.schema_version, e.payload, n) for n, e in enumerate(moved, 1)]
    with pytest.raises(StorageError, match="not the one"):
        fold(moved)


# --- the clock: S-T4 and S-T6 --------------------------------------------------------


def test_dalia_enrik_janus_modifiers_expire_by_themselves_s_t4():
    log = Log()
    for name in ("Dalia", "Enrik", "Janus"):
        log.hero(name)
    log.do(decide_scene, kind="rythmee")
    log.do(decide_next_tour)
    for name, duration in (("Dalia", "2 Tours"), ("Enrik", "30 min"), ("Janus", "1 h")):
        log.do(decide_add_modifier, protagonist=name, kind="malus", amount=1, duration=duration)

    def maluses():
        heroes = log.state.protagonists
        return {n: plan_test(log.state, Attempt(n, "carrure", 1)).malus for n in heroes}

    assert maluses() == {"Dalia": 1, "Enrik": 1, "Janus": 1}
    log.do(decide_next_tour)
    log.do(decide_next_tour)  # Tour 3: Dalia's 2 Tours after Tour 1 still run
    log.do(decide_advance_time, duration="29 min")
    assert maluses() == {"Dalia": 1, "Enrik": 1, "Janus": 1}
    over = log.do(decide_next_tour)  # Tour 4
    assert [m["protagonist"] for m in over.facts[0].payload["expired"]] == ["Dalia"]
    over = log.do(decide_advance_time, duration="1 min")  # 30 min
    assert [m["protagonist"] for m in over.facts[0].payload["expired"]] == ["Enrik"]
    assert maluses() == {"Dalia": 0, "Enrik": 0, "Janus": 1}
    log.do(decide_advance_time, duration="30 min")  # 1 h
    assert maluses() == {"Dalia": 0, "Enrik": 0, "Janus": 0}
    assert log.state.clock.modifiers == ()
    assert log.fold() == log.state


def test_louisa_hacks_the_airlock_rolled_in_its_last_tour_s_t6():
    log = Log()
    log.hero("Louisa", s=5)
    log.do(decide_scene, kind="rythmee")
    log.do(decide_next_tour)
    started = log.do(decide_long_action, protagonist="Louisa", label="hack the airlock", tours=3)
    assert started.facts[0].payload["last_tour"] == 3
    hack = Attempt("Louisa", "science", 2)
    for tour in (1, 2):
        assert log.state.clock.tour == tour
        with pytest.raises(RuleError, match="only in its last Tour"):
            log.do(
                decide_test,
                hack,
                action_faces=[5, 5, 1],
                dpm_faces=[],
                long_action="hack the airlock",
            )
        due = log.do(decide_next_tour)
    assert [a["label"] for a in due.facts[0].payload["due"]] == ["hack the airlock"]
    assert due.warnings and "roll its Test now" in due.warnings[0].render()
    rolled = log.do(
        decide_test, hack, action_faces=[5, 5, 1], dpm_faces=[], long_action="Hack The Airlock"
    )
    assert rolled.facts[0].payload["long_action"] == "hack the airlock"
    assert rolled.outcome.success
    assert log.state.clock.long_actions == ()
    assert log.fold() == log.state
    with pytest.raises(RuleError):  # undoing the Tour 3 start: the roll is no longer due
        log.fold(skip={len(log.facts) - 2})


def test_a_long_action_not_rolled_lapses():
    log = Log()
    log.hero("Louisa")
    log.do(decide_scene, kind="rythmee")
    log.do(decide_next_tour)
    log.do(decide_long_action, protagonist="Louisa", label="hack", tours=1)
    lapsed = log.do(decide_next_tour)
    assert [a["label"] for a in lapsed.facts[0].payload["lapsed"]] == ["hack"]
    assert log.state.clock.long_actions == ()


# --- invariants over random command sequences (Hypothesis) ---------------------------

NAMES = ["Dalia", "Enrik", "Janus"]
CHARACTERISTICS = [c.value for c in Characteristic]


def _faces(data, test):
    action, *dpm = dice_for_action(test.action if hasattr(test, "action") else test)

    def draw(request):
        faces = st.sampled_from(request.die.faces)
        return data.draw(st.lists(faces, min_size=request.count, max_size=request.count))

    return draw(action), [f for r in dpm for f in draw(r)]


def _attempt(data, test=True):
    """Mostly valid inputs, sometimes not: unknown name, Difficulty 0, both options."""
    option = data.draw(st.sampled_from(["none"] * 6 + ["surpass", "sacrifice", "both"]))
    return Attempt(
        data.draw(st.sampled_from([*NAMES * 4, "Zed"])),
        data.draw(st.sampled_from(CHARACTERISTICS)),
        data.draw(st.sampled_from([1, 1, 2, 2, 3, 4, 0])) if test else None,
        data.draw(st.sampled_from([None, None, None, "Tirer"])),
        data.draw(st.integers(0, 3)),
        data.draw(st.integers(0, 3)),
        option in ("surpass", "both"),
        option in ("sacrifice", "both"),
    )


def _rolled(data, state):
    """A rolled command: (names involved, decide function, args, kwargs), faces thrown."""
    kind = data.draw(st.sampled_from(["test", "opposed", "cooperation", "simultaneous"]))
    if kind == "test":
        attempt = _attempt(data)
        test = plan_test(state, attempt)
        action_faces, dpm_faces = _faces(data, test)
        kwargs = {"action_faces": action_faces, "dpm_faces": dpm_faces}
        return [attempt], decide_test, (attempt,), kwargs
    if kind == "opposed":
        pair = data.draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True))
        first, second = (
            Attempt(**{**_attempt(data, test=False).__dict__, "protagonist": name}) for name in pair
        )
        inputs = plan_opposed(state, first, second)
        return (
            [first, second],
            decide_opposed,
            (first, second),
            {
                "first_faces": _faces(data, inputs.first),
                "second_faces": _faces(data, inputs.second),
            },
        )
    if kind == "cooperation":
        names = data.draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=3, unique=True))
        difficulty = data.draw(st.integers(1, 3))
        members = [
            Attempt(**{**_attempt(data).__dict__, "protagonist": name, "difficulty": difficulty})
            for name in names
        ]
        tests = plan_cooperation(state, members)
        return members, decide_cooperation, (members,), {"faces": [_faces(data, t) for t in tests]}
    who = data.draw(st.sampled_from(NAMES))
    actions = [
        Attempt(**{**_attempt(data).__dict__, "protagonist": who})
        for _ in range(data.draw(st.integers(1, 3)))
    ]
    trivial = data.draw(st.integers(0, 2))
    tests = plan_simultaneous(state, actions, trivial)
    faces = [_faces(data, t) for t in tests]
    return actions, decide_simultaneous, (actions,), {"faces": faces, "trivial": trivial}


def _other(data, state):
    name = data.draw(st.sampled_from([*NAMES * 4, "Zed"]))
    step = data.draw(
        st.sampled_from(
            ["create"] * 3
            + ["counter"] * 3
            + [
                "kill",
                "revive",
                "scene",
                "tour",
                "tour",
                "time",
                "modifier",
                "modifier",
                "end",
                "long",
                "options",
            ]
        )
    )
    if step == "create":
        return decide_create(
            state,
            name=name,
            carrure=data.draw(st.integers(4, 9)),
            motricite=6,
            science=7,
            relationnel=5,
            sang_froid=8,
            expertises=data.draw(st.sampled_from([[], ["Tirer"]])),
        )
    if step == "counter":
        counter = data.draw(st.sampled_from(COUNTERS))
        if data.draw(st.booleans()):
            return decide_counter(
                state, protagonist=name, counter=counter, delta=data.draw(st.integers(-15, 15))
            )
        return decide_counter(
            state, protagonist=name, counter=counter, value=data.draw(st.integers(-1, 14))
        )
    if step in ("kill", "revive"):
        return (decide_kill if step == "kill" else decide_revive)(state, protagonist=name)
    if step == "scene":
        return decide_scene(state, kind=data.draw(st.sampled_from(["rythmee", "lente"])))
    if step == "tour":
        return decide_next_tour(state)
    if step == "time":
        return decide_advance_time(state, duration=data.draw(st.integers(60, 4000)))
    if step == "modifier":
        duration = data.draw(st.sampled_from(["1 Tour", "2 Tours", "30 min", "1 h"]))
        return decide_add_modifier(
            state,
            protagonist=name,
            duration=duration,
            kind=data.draw(st.sampled_from(["bonus", "malus"])),
            amount=data.draw(st.integers(1, 2)),
        )
    if step == "end":
        return decide_end_modifier(state, number=data.draw(st.integers(0, 3)))
    if step == "long":
        return decide_long_action(
            state, protagonist=name, label="hack", tours=data.draw(st.integers(1, 3))
        )
    change = data.draw(
        st.sampled_from(
            [
                {"negative_ps": "zero"},
                {"option_bonus": "apart"},
                {"dpm_cap": "1"},
                {"action_dice": "2"},
                {"x": "1"},
            ]
        )
    )
    return decide_options(state, change)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_random_commands_keep_the_invariants_and_fold_again(data):
    state = initial_state({"players": ["Ana"]})
    facts = []
    for _ in range(data.draw(st.integers(1, 30))):
        dead_actor = False
        try:
            if len(state.protagonists) > 1 and data.draw(st.integers(0, 2)):
                attempts, decide, args, kwargs = _rolled(data, state)
                heroes = [state.protagonists.get(a.protagonist) for a in attempts]
                dead_actor = any(h is not None and not h.alive for h in heroes)
                decision = decide(state, *args, **kwargs)
            else:
                decision = _other(data, state)
        except TableeError:
            continue
        assert not dead_actor, "a dead Protagoniste acted"
        for fact in decision.facts:
            state = evolve(state, fact.kind, json.loads(json.dumps(fact.payload)))
            facts.append(fact)
        assert state == decision.after
        for hero in state.protagonists.values():
            assert 0 <= hero.sante <= hero.sante_max
            assert hero.nt >= 0 and hero.air >= 0 and hero.protection >= 0
    folded = initial_state({"players": ["Ana"]})
    for fact in facts:
        folded = evolve(folded, fact.kind, fact.payload)
    assert folded == state


def test_every_fact_has_a_log_line_with_or_without_the_state():
    log = log_with_everything()
    state = initial_state(log.created)
    for kind, payload in log.facts:
        state = evolve(state, kind, payload)
        for after in (state, None):
            text = describe(kind, payload, after).render()
            assert text and "{" not in text and not text.startswith("shs.")
