"""A game master's audit of the agents game: what the rules now decide and record.

Split groups whose first win ends the quest (G-X1), the first scene's environment (G-X2),
the organisation and signature object a new agent needs (G-X3), the draws the adventure
still owes after a pause, the modifiers the odds take (G-N2), and the records that let a
line say what really changed (a Sang gain or a doubling the cap held back).

Source: seed 002; docs/rules/agents.md (G-M1, G-M6, G-M8, G-M9, G-M10, G-M12, G-N2, G-A8,
G-A11, G-A17, G-X1 to G-X3).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tablee.dice import SourceChance, TypedFaces
from tablee.errors import InputError, RuleError
from tablee.systems.agents import (
    CHECKLISTS,
    HIGHEST_MODIFIER,
    LOWEST_MODIFIER,
    StepKind,
    modifier_range,
    next_step,
)
from tablee.systems.agents import commands as cmd
from tablee.systems.agents.events import Abandoned, ConsequenceApplied
from tablee.systems.agents.log import describe
from tablee.systems.agents.plugin import AGENTS_GAME
from tablee.systems.agents.reports import panels
from tablee.systems.declare import build_command
from tests.systems.agents.test_plugin import _counting, _log

ID = {"organisation": "Bureau 9", "signature": "a silver lighter"}


def _table(*players: str) -> Any:
    return AGENTS_GAME.initial_state({"players": list(players), "lang": "en", "options": {}})


def _run(state: Any, command: Any, *faces: int) -> Any:
    """The decision, each of its events decided again alone the same (as the verifier)."""
    dice = TypedFaces(faces)
    decision = AGENTS_GAME.decide(state, command, SourceChance(dice))
    dice.finish()
    for event in decision.events:
        assert AGENTS_GAME.redecide(state, event).events[0] == event
        state = AGENTS_GAME.apply(state, event)
    assert state == decision.after
    return decision


def _agents(*names: str) -> Any:
    state = _table("Ana")
    values = ((7, 5, 3), (3, 7, 5), (5, 3, 7))
    for name, (m, s, i) in zip(names, values, strict=False):
        made = cmd.CreateAgent(name_=name, muscles=m, sexe=s, intelligence=i, **ID)
        state = _run(state, made).after
    return state


def _won(state: Any, agents: tuple[str, ...], dice: tuple[int, ...], successes: int) -> Any:
    """A challenge drawn for ``agents`` (named opposition), won with ``successes`` 6s."""
    state = _run(state, cmd.Generate(agents=agents, opposition="the guards"), *dice).after
    number = max(state.challenges)
    for _ in range(successes):
        state = _run(state, cmd.Act(challenge=number), 6).after
    return state


def _at_index_3(*names: str, winners: tuple[str, str] = ("Vega", "Orso")) -> Any:
    """One scene each at index 0, 1 and 2, won: the first at once, then by ``winners``."""
    state = _run(_agents(*names), cmd.Quest(starter="en"), 1).after
    state = _run(state, cmd.Draw(kind="environments"), 1).after
    for successes, who in ((0, "Vega"), (1, winners[0]), (2, winners[1])):
        state = _run(state, cmd.NextScene()).after
        state = _won(state, (who,), (3, 1, 1, 1), successes)  # hostile, score 0/1/2
        number = max(state.challenges)
        if successes:
            state = _run(state, cmd.NameWinner(challenge=number)).after
        state = _run(state, cmd.Settle(challenge=number)).after
        state = _run(state, cmd.Draw(kind="boons"), 1).after
    assert state.quest.progress == 3
    return state


def test_a_split_scene_names_every_winner_before_a_consequence_ends_the_quest() -> None:
    """G-X1: the second group's win is named while the quest is on, and counts."""
    state = _run(_at_index_3("Vega", "Orso"), cmd.NextScene()).after
    state = _won(state, ("Vega",), (3, 1, 1), 3)  # index 3: hostile, score 3
    state = _won(state, ("Orso",), (3, 1, 1), 3)
    first, second = state.scene_challenges
    for number in (first, second):  # both winners before any consequence
        step = next_step(state)
        assert (step.kind, step.challenge) == (StepKind.NAME_WINNER, number)
        state = _run(state, cmd.NameWinner(challenge=number)).after
    assert (next_step(state).kind, next_step(state).challenge) == (StepKind.CONSEQUENCE, first)
    state = _run(state, cmd.Settle(challenge=first)).after
    assert state.quest.status.value == "won"
    assert (next_step(state).kind, next_step(state).table) == (StepKind.DRAW, "boons")
    state = _run(state, cmd.Draw(kind="boons"), 2).after
    assert (next_step(state).kind, next_step(state).challenge) == (StepKind.CONSEQUENCE, second)
    sang = {n: a.sang for n, a in state.agents.items()}
    (event,) = _run(state, cmd.Settle(challenge=second)).events
    state = AGENTS_GAME.apply(state, event)
    payload = event.payload()
    assert payload["late"] is True and payload["records"]["change"] == 0
    assert state.quest.progress == 4 and {n: a.sang for n, a in state.agents.items()} == sang
    assert state.quest.wins_by_name() == {"Vega": 2, "Orso": 2}  # the late win counts
    assert "only the win counts" in describe(event.kind, payload).render()
    assert next_step(state).kind is StepKind.START_CONTEST
    state = _run(state, cmd.ContestStart(favori="Orso")).after  # a tie: Orso may be favori
    assert state.contest.holder == "Orso"


def test_a_challenge_left_unsettled_once_the_contest_began_stays_so() -> None:
    state = _run(_at_index_3("Vega", "Orso"), cmd.NextScene()).after
    state = _won(state, ("Vega",), (3, 1, 1), 3)
    state = _won(state, ("Orso",), (3, 1, 1), 3)
    first, second = state.scene_challenges
    state = _run(state, cmd.NameWinner(challenge=first)).after
    state = _run(state, cmd.NameWinner(challenge=second)).after
    state = _run(state, cmd.Settle(challenge=first)).after
    state = _run(state, cmd.ContestStart()).after  # by hand, before the second is settled
    with pytest.raises(RuleError, match="quest is over"):
        _run(state, cmd.Settle(challenge=second))
    assert next_step(state).kind is StepKind.CONTEST_CHALLENGE  # not asked for any more


def test_the_first_scene_is_where_the_agents_arrived_later_scenes_draw_anew() -> None:
    """G-X2: an environment source in the first scene is the arrival's environment."""
    state = _run(_agents("Vega"), cmd.Quest(starter="en"), 1).after
    assert (next_step(state).kind, next_step(state).table) == (StepKind.DRAW, "environments")
    (_label, step), *_ = panels(state)[0].rows  # the next step, at a glance
    assert step.render() == "draw from the environments table"
    state = _run(state, cmd.Draw(kind="creatures"), 2).after  # not where they arrive
    assert state.arrival is None
    arrived = _run(state, cmd.Draw(kind="environments"), 4)
    state = arrived.after
    assert state.arrival == arrived.outcome.entry.text
    assert next_step(state).kind is StepKind.START_SCENE
    state = _run(state, cmd.NextScene()).after
    decision = _run(state, cmd.Generate(), 1, 1, 1, 1)  # the environment, score 0: no draw
    (generated,) = decision.events
    assert generated.payload()["opposition"] == state.arrival
    state = _run(decision.after, cmd.Settle(challenge=1)).after
    state = _run(state, cmd.Draw(kind="boons"), 1).after
    state = _run(state, cmd.NextScene()).after
    drawn, generated = _run(state, cmd.Generate(), 1, 1, 1, 1, 7).events  # scene 2: a draw
    assert (drawn.payload()["table"], drawn.payload()["face"]) == ("environments", 7)
    assert generated.payload()["opposition"] == drawn.payload()["text"]


def test_a_boon_owed_is_the_next_step_until_drawn_or_the_next_scene() -> None:
    state = _run(_agents("Vega"), cmd.Quest(starter="en"), 1).after
    state = _run(state, cmd.Draw(kind="environments"), 1).after
    state = _run(state, cmd.NextScene()).after
    state = _won(state, ("Vega",), (3, 1, 1, 1), 0)  # hostile, won at once: helps
    state = _run(state, cmd.Settle(challenge=1)).after
    assert state.boons_owed == 1
    assert (next_step(state).kind, next_step(state).table) == (StepKind.DRAW, "boons")
    drawn = _run(state, cmd.Draw(kind="boons"), 3).after
    assert drawn.boons_owed == 0 and next_step(drawn).kind is StepKind.START_SCENE
    skipped = _run(state, cmd.NextScene()).after  # a game master may leave it undrawn
    assert skipped.boons_owed == 0 and next_step(skipped).kind is StepKind.GENERATE


def test_a_new_agent_needs_an_organisation_and_a_signature_object() -> None:
    """G-X3 (G-M1: the player chooses both); a stored agent without them still checks."""
    state = _table("Ana")
    for missing in ("organisation", "signature"):
        bad = {**ID, missing: "  "}
        with pytest.raises(InputError, match="rule G-M1") as refused:
            _run(state, cmd.CreateAgent(name_="Vega", **bad))
        assert ("organisation" if missing == "organisation" else "signature object") in str(
            refused.value
        )
        with pytest.raises(InputError, match=f"{missing} is required"):
            build_command(cmd.CreateAgent, {"name": "Vega", **ID, missing: ""})
    stored = {
        "name": "Vega",
        "owner": None,
        "organisation": "",
        "signature": "",
        "muscles": 7,
        "sexe": 5,
        "intelligence": 3,
        "sang": 3,
    }
    after, changed = AGENTS_GAME.verify(state, "agents.agent_created", stored)
    assert changed is None and after.agents["Vega"].organisation == ""


def test_the_0_1_0_log_with_agents_lacking_both_verifies_event_by_event() -> None:
    log = _log("valadyn")
    assert any(
        e["kind"] == "agents.agent_created" and not e["payload"]["organisation"] for e in log
    )
    state = AGENTS_GAME.initial_state(log[0]["payload"])
    for stored in _counting(log):
        state, changed = AGENTS_GAME.verify(state, stored["kind"], stored["payload"])
        assert changed is None, stored["seq"]


def test_the_odds_of_an_action_take_the_modifiers_the_checklists_can_total() -> None:
    lows, highs = zip(*(modifier_range(kind) for kind in CHECKLISTS), strict=True)
    assert (LOWEST_MODIFIER, HIGHEST_MODIFIER) == (min(lows), max(highs)) == (-2, 3)
    for fine in ("-2", "3"):
        assert build_command(cmd.ActionOdds, {"modifier": fine}).modifier == int(fine)
    for bad in ("4", "-3"):
        with pytest.raises(InputError, match="G-N2"):
            build_command(cmd.ActionOdds, {"modifier": bad})
    odds = cmd.ChallengeOdds(reserves="7,5", score=3, modifiers="0,4")
    with pytest.raises(InputError, match="G-N2"):
        AGENTS_GAME.answer(None, odds)


def test_a_sang_gain_the_cap_held_back_is_not_shown_as_one() -> None:
    """G-A11: a benevolent win gives +1 Sang, at most 3; the line says who gained."""
    state = _run(_agents("Vega", "Orso"), cmd.Quest(starter="en"), 1).after
    state = _run(state, cmd.Draw(kind="environments"), 1).after
    state = _run(state, cmd.NextScene()).after
    state = _won(state, ("Vega", "Orso"), (3, 1, 1, 3), 2)  # hostile, score 2: both act
    state = _run(state, cmd.NameWinner(challenge=1, agent="Vega")).after
    state = _run(state, cmd.Settle(challenge=1)).after  # hostile win: no Sang change
    state = _run(state, cmd.Draw(kind="boons"), 1).after
    hurt = state.agents["Orso"].with_sang(2)
    state = replace(state, agents={**state.agents, "Orso": hurt})
    state = _run(state, cmd.NextScene()).after
    state = _won(state, ("Vega", "Orso"), (3, 5, 1, 1), 2)  # benevolent, score 2
    state = _run(state, cmd.NameWinner(challenge=2, agent="Orso")).after
    (event,) = _run(state, cmd.Settle(challenge=2)).events
    assert isinstance(event, ConsequenceApplied)
    assert event.before == {"Vega": 3, "Orso": 2}
    line = describe(event.kind, event.payload()).render()
    assert "Sang +1 for Orso" in line and "Sang already at its most for Vega" in line
    old = {**event.payload(), "before": None, "late": False}  # version 1, upgraded
    assert "Sang +1 for Vega, Orso" in describe(event.kind, old).render()
    assert AGENTS_GAME.verify(state, event.kind, old)[1] is None  # not recorded: not compared
    assert ConsequenceApplied.upgrade({"challenge": 2, "won": True, "records": {}}, 1) == {
        "challenge": 2,
        "won": True,
        "records": {},
        "before": None,
        "late": False,
    }


@pytest.mark.parametrize(("failures", "line"), [(1, "doubled, but capped at 5"), (3, "to 4")])
def test_an_abandon_says_when_the_cap_held_the_doubling_back(failures: int, line: str) -> None:
    """G-A8: the points left doubled, capped at the starting value by default."""
    state = _agents("Vega")
    opened = cmd.OpenChallenge(kind="sexe", agents=("Vega",), oppositions=("the duke:9",))
    state = _run(state, opened).after
    for _ in range(failures):
        state = _run(state, cmd.Act(), 1).after
    (event,) = _run(state, cmd.Abandon(agent="Vega")).events
    assert isinstance(event, Abandoned) and event.before == 5 - failures
    assert line in describe(event.kind, event.payload()).render()
    old = {**event.payload(), "before": None}  # version 1: the plain line
    assert "doubled to" in describe(event.kind, old).render()
    assert AGENTS_GAME.verify(state, event.kind, old)[1] is None
    assert Abandoned.upgrade({"challenge": 1}, 1) == {"challenge": 1, "before": None}


def test_one_agent_still_wanting_to_challenge_reads_in_the_singular() -> None:
    state = _at_index_3("Vega", "Orso", "Lune", winners=("Vega", "Vega"))
    state = _run(state, cmd.NextScene()).after
    state = _won(state, ("Vega",), (3, 1, 1), 3)
    state = _run(state, cmd.NameWinner(challenge=max(state.challenges))).after
    state = _run(state, cmd.Settle(challenge=max(state.challenges))).after
    state = _run(state, cmd.ContestStart()).after
    with pytest.raises(RuleError) as one:
        _run(state, cmd.ContestClose(wanting=("Lune",)))
    assert "Lune still wants to challenge Vega" in str(one.value)
    with pytest.raises(RuleError) as two:
        _run(state, cmd.ContestClose(wanting=("Lune", "Orso")))
    assert "still want to challenge Vega" in str(two.value)


def test_a_group_still_playing_when_the_quest_is_won_plays_on_before_the_contest() -> None:
    """G-X1, by hand: one group's consequences applied while the other still plays."""
    state = _run(_at_index_3("Vega", "Orso"), cmd.NextScene()).after
    state = _won(state, ("Vega",), (3, 1, 1), 3)
    state = _won(state, ("Orso",), (3, 1, 1), 1)  # 1 of 3: still open
    first, second = state.scene_challenges
    state = _run(state, cmd.NameWinner(challenge=first)).after
    state = _run(state, cmd.Settle(challenge=first)).after
    state = _run(state, cmd.Draw(kind="boons"), 1).after
    assert state.quest.status.value == "won"
    step = next_step(state)
    assert (step.kind, step.challenge, step.agent) == (StepKind.ACT, second, "Orso")
    for _ in range(2):
        state = _run(state, cmd.Act(challenge=second), 6).after
    assert next_step(state).kind is StepKind.NAME_WINNER
    state = _run(state, cmd.NameWinner(challenge=second)).after
    state = _run(state, cmd.Settle(challenge=second)).after
    assert state.quest.wins_by_name() == {"Vega": 2, "Orso": 2}
    assert next_step(state).kind is StepKind.START_CONTEST
