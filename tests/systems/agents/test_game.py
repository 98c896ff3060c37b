"""The agents table's decisions: creation, challenges, turns, recovery, winners, replay.

Source: seed 002; rulings G-M1 to G-M8, G-A2, G-A4, G-A6 to G-A9, G-A12, G-A15, G-A20.
"""

import json

import pytest

from tablee.errors import InputError, NotFoundError, RuleError
from tablee.systems.agents import (
    AGENTS,
    Reserve,
    Standing,
    decide_abandon,
    decide_action,
    decide_agent,
    decide_challenge,
    decide_concede,
    decide_fail_on_purpose,
    decide_options,
    decide_winner,
    describe,
    evolve,
    initial_state,
    wins,
)


class Log:
    """A table driven by decisions, keeping every fact as JSON (like a store)."""

    def __init__(self, options=None):
        self.created = {"players": ["Ana", "Bo"], "options": options or {}}
        self.state = initial_state(self.created)
        self.facts = []

    def do(self, decide, **kwargs):
        decision = decide(self.state, **kwargs)
        self.state = decision.after
        self.facts += [(f.kind, json.loads(json.dumps(dict(f.payload)))) for f in decision.facts]
        return decision

    def refold(self, skip=()):
        state = initial_state(self.created)
        for index, (kind, payload) in enumerate(self.facts):
            if index not in skip:
                state = evolve(state, kind, payload)
        return state


@pytest.fixture
def log():
    log = Log()
    log.do(
        decide_agent,
        name="Vega",
        muscles=7,
        sexe=5,
        intelligence=3,
        owner="ana",
        organisation="Bureau 9",
        signature="a silver lighter",
    )
    log.do(decide_agent, name="Orso", muscles=3, sexe=7, intelligence=5, owner="Bo")
    return log


def test_creation_stores_the_agent_and_its_owner(log):
    vega = log.state.agents["Vega"]
    assert (vega.sang, vega.current, vega.starting) == (3, (7, 5, 3), (7, 5, 3))
    assert log.state.owners["Vega"] == "Ana"
    assert log.facts[0][1]["signature"] == "a silver lighter"
    assert log.refold() == log.state


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"name": "X", "muscles": 7, "sexe": 7, "intelligence": 3}, InputError),
        ({"name": "X", "muscles": 7, "sexe": 5, "intelligence": 3, "owner": "Zed"}, NotFoundError),
        ({"name": "vega", "muscles": 7, "sexe": 5, "intelligence": 3}, RuleError),
        ({"name": "", "muscles": 7, "sexe": 5, "intelligence": 3}, InputError),
    ],
)
def test_bad_creation_changes_nothing(log, kwargs, error):
    before = log.state
    with pytest.raises(error):
        decide_agent(log.state, **kwargs)
    assert log.state is before


def test_a_challenge_runs_in_turn_to_a_win_and_a_winner(log):
    log.do(decide_challenge, kind="Sexe", agents=["Orso", "Vega"], oppositions=[("the duke", 3)])
    with pytest.raises(RuleError, match="G-A20"):
        decide_action(log.state, challenge=1, agent="Vega", face=6)
    log.do(decide_action, challenge=1, agent="Orso", face=2)  # failure: Sexe 7 -> 6
    log.do(decide_action, challenge=1, agent="Vega", modifiers=["laugh"], face=6)  # critical
    assert log.state.challenges[1].oppositions[0].score == 1
    log.do(decide_action, challenge=1, agent="Orso", face=4)
    challenge = log.state.challenges[1]
    assert challenge.outcome == "won"
    assert log.state.agents["Orso"].current == (3, 6, 5)
    with pytest.raises(RuleError):
        decide_action(log.state, challenge=1, agent="Vega", face=4)
    log.do(decide_winner, challenge=1)  # fallback: Orso spent most
    assert log.state.challenges[1].winner == "Orso"
    assert wins(log.state) == {"Vega": 0, "Orso": 1}
    assert log.refold() == log.state
    with pytest.raises(RuleError):
        decide_winner(log.state, challenge=1, agent="Vega")


def test_free_turn_order_is_a_table_option():
    log = Log({"turn_order": "free"})
    log.do(decide_agent, name="Vega", muscles=7, sexe=5, intelligence=3)
    log.do(decide_agent, name="Orso", muscles=3, sexe=7, intelligence=5)
    log.do(decide_challenge, kind="muscles", agents=["Vega", "Orso"], oppositions=[("x", 2)])
    log.do(decide_action, challenge=1, agent="Orso", face=5)
    log.do(decide_action, challenge=1, agent="Orso", face=5)
    assert log.state.challenges[1].outcome == "won"


def test_out_of_action_at_reserve_zero_and_the_opposition_wins(log):
    log.do(decide_challenge, kind="intelligence", agents=["Vega"], oppositions=[("maze", 5)])
    for _ in range(3):
        log.do(decide_action, challenge=1, agent="Vega", face=1)
    challenge = log.state.challenges[1]
    assert challenge.standing["Vega"] is Standing.OUT
    assert challenge.outcome == "lost"
    assert log.state.agents["Vega"].reserve(Reserve.INTELLIGENCE) == 0
    with pytest.raises(RuleError):
        decide_winner(log.state, challenge=1)
    # a new Intelligence challenge finds her out at once: lost with no roll
    log.do(decide_challenge, kind="intelligence", agents=["Vega"], oppositions=[("riddle", 2)])
    assert log.state.challenges[2].outcome == "lost"


def test_a_score_of_zero_is_won_at_once(log):
    log.do(decide_challenge, kind="muscles", agents=["Vega"], oppositions=[("a door", 0)])
    assert log.state.challenges[1].outcome == "won"
    log.do(decide_winner, challenge=1, agent="vega")
    assert log.state.challenges[1].winner == "Vega"


def test_several_oppositions_need_a_target(log):
    log.do(
        decide_challenge,
        kind="muscles",
        agents=["Vega"],
        oppositions=[("army", 1), ("Grazator", 1)],
    )
    with pytest.raises(InputError, match="G-A7"):
        decide_action(log.state, challenge=1, agent="Vega", face=5)
    with pytest.raises(InputError):
        decide_action(log.state, challenge=1, agent="Vega", face=5, target=3)
    log.do(decide_action, challenge=1, agent="Vega", face=5, target=1)
    with pytest.raises(RuleError, match="G-A7"):
        decide_action(log.state, challenge=1, agent="Vega", face=5, target=1)
    log.do(decide_action, challenge=1, agent="Vega", face=5)  # only one left: no target needed
    assert log.state.challenges[1].outcome == "won"


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"modifiers": ["laugh"]}, InputError),
        ({"modifiers": ["escalate", "deescalate"]}, InputError),
        ({"face": 7}, InputError),
        ({"face": 0}, InputError),
        ({"agent": "Nobody"}, NotFoundError),
        ({"challenge": 9}, NotFoundError),
        ({"agent": "Orso"}, RuleError),
    ],
)
def test_bad_actions_change_nothing(log, kwargs, error):
    log.do(decide_challenge, kind="muscles", agents=["Vega"], oppositions=[("x", 3)])
    before = log.state
    args = {"challenge": 1, "agent": "Vega", "face": 4, **kwargs}
    with pytest.raises(error):
        decide_action(log.state, **args)
    assert log.state is before


def test_conceding_restores_and_abandoning_doubles(log):
    log.do(decide_challenge, kind="muscles", agents=["Vega", "Orso"], oppositions=[("x", 9)])
    log.do(decide_concede, challenge=1, agent="Orso")  # Muscles already full: stays 3
    assert log.state.challenges[1].standing["Orso"] is Standing.CONCEDED
    log.do(decide_action, challenge=1, agent="Vega", face=1)
    log.do(decide_action, challenge=1, agent="Vega", face=1)
    log.do(decide_action, challenge=1, agent="Vega", face=1)
    log.do(decide_action, challenge=1, agent="Vega", face=1)
    assert log.state.agents["Vega"].reserve(Reserve.MUSCLES) == 3
    with pytest.raises(RuleError, match="G-M8"):
        decide_concede(log.state, challenge=1, agent="Vega")
    log.do(decide_abandon, challenge=1, agent="Vega")
    assert log.state.agents["Vega"].reserve(Reserve.MUSCLES) == 6
    assert log.state.challenges[1].outcome == "lost"  # everyone conceded or abandoned
    assert log.refold() == log.state


def test_abandon_is_capped_at_the_start_unless_the_option_lifts_it():
    for cap, expected in (("starting", 7), ("none", 10)):
        log = Log({"reserve_cap": cap})
        log.do(decide_agent, name="Vega", muscles=7, sexe=5, intelligence=3)
        log.do(decide_challenge, kind="muscles", agents=["Vega"], oppositions=[("x", 9)])
        log.do(decide_action, challenge=1, agent="Vega", face=1)
        log.do(decide_action, challenge=1, agent="Vega", face=1)
        log.do(decide_abandon, challenge=1, agent="Vega")
        assert log.state.agents["Vega"].reserve(Reserve.MUSCLES) == expected


def test_conceding_after_losses_elsewhere_restores_in_full(log):
    log.do(decide_challenge, kind="sexe", agents=["Vega"], oppositions=[("a", 9)])
    log.do(decide_action, challenge=1, agent="Vega", face=1)
    log.do(decide_abandon, challenge=1, agent="Vega")  # 4 doubled, capped at 5
    assert log.state.agents["Vega"].reserve(Reserve.SEXE) == 5
    log.do(decide_challenge, kind="sexe", agents=["Vega"], oppositions=[("b", 9)])
    log.do(decide_action, challenge=2, agent="Vega", face=1)
    log.do(decide_action, challenge=2, agent="Vega", face=1)
    log.do(decide_abandon, challenge=2, agent="Vega")
    assert log.state.agents["Vega"].reserve(Reserve.SEXE) == 5
    log.do(decide_challenge, kind="sexe", agents=["Vega"], oppositions=[("c", 9)])
    with pytest.raises(RuleError, match="G-M8"):
        decide_abandon(log.state, challenge=3, agent="Vega")


def test_failing_on_purpose_outside_challenges(log):
    log.do(decide_challenge, kind="intelligence", agents=["Vega"], oppositions=[("x", 9)])
    log.do(decide_action, challenge=1, agent="Vega", face=1)
    with pytest.raises(RuleError, match="G-M7"):
        decide_fail_on_purpose(log.state, agent="Vega", reserve="intelligence")
    log.do(decide_abandon, challenge=1, agent="Vega")  # 2 doubled, capped at 3
    log.do(decide_challenge, kind="intelligence", agents=["Vega"], oppositions=[("y", 9)])
    log.do(decide_action, challenge=2, agent="Vega", face=1)
    log.do(decide_action, challenge=2, agent="Vega", face=1)
    log.do(decide_action, challenge=2, agent="Vega", face=1)  # out: the challenge is lost
    log.do(decide_fail_on_purpose, agent="Vega", reserve="Intelligence", reason="a lock")
    assert log.state.agents["Vega"].reserve(Reserve.INTELLIGENCE) == 1
    for _ in range(4):
        log.do(decide_fail_on_purpose, agent="Vega", reserve="intelligence")
    assert log.state.agents["Vega"].reserve(Reserve.INTELLIGENCE) == 3  # capped (G-A8)
    assert log.refold() == log.state


def test_winner_ties_ask_the_table(log):
    log.do(decide_challenge, kind="sexe", agents=["Vega", "Orso"], oppositions=[("x", 2)])
    log.do(decide_action, challenge=1, agent="Vega", face=5)
    log.do(decide_action, challenge=1, agent="Orso", face=5)
    with pytest.raises(RuleError, match="G-A12"):
        decide_winner(log.state, challenge=1)
    log.do(decide_winner, challenge=1, agent="Orso")
    assert log.state.challenges[1].winner == "Orso"


def test_edited_facts_are_refused_on_replay(log):
    log.do(decide_challenge, kind="sexe", agents=["Vega"], oppositions=[("x", 2)])
    log.do(decide_action, challenge=1, agent="Vega", face=5)
    kind, payload = log.facts[-1]
    for field, value in (("outcome", "critical"), ("total", 9), ("modifier", 2)):
        edited = dict(payload, **{field: value})
        state = log.refold(skip={len(log.facts) - 1})
        with pytest.raises(InputError, match=field):
            evolve(state, kind, edited)
    with pytest.raises(InputError):
        evolve(log.state, "agents.nonsense", {})


def test_undoing_an_earlier_action_breaks_a_later_turn(log):
    log.do(decide_challenge, kind="sexe", agents=["Vega", "Orso"], oppositions=[("x", 5)])
    log.do(decide_action, challenge=1, agent="Vega", face=5)
    log.do(decide_action, challenge=1, agent="Orso", face=5)
    with pytest.raises(RuleError, match="G-A20"):
        log.refold(skip={3})


def test_options_and_the_system_object(log):
    log.do(decide_options, changes={"reserve_cap": "none"})
    assert log.state.options.reserve_cap == "none"
    with pytest.raises(InputError):
        decide_options(log.state, {"reserve_cap": "maybe"})
    with pytest.raises(InputError):
        decide_options(log.state, {"nope": "1"})
    summary = AGENTS.summary(log.state)
    assert summary["agents"]["Vega"]["muscles"] == 7
    assert summary["options"]["reserve_cap"] == "none"
    for kind, payload in log.facts:
        assert str(describe(kind, payload))


def test_sang_zero_sits_out(log):
    from dataclasses import replace

    hurt = replace(
        log.state, agents={**log.state.agents, "Vega": log.state.agents["Vega"].with_sang(0)}
    )
    with pytest.raises(RuleError, match="G-A16"):
        decide_challenge(hurt, kind="sexe", agents=["Vega"], oppositions=[("x", 1)])
