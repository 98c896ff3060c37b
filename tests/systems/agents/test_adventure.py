"""Whole adventures without a game master, through the decisions and `next_step`.

A seeded driver answers every step as a GM-less table would (everyone together, no
modifier, the fallback winner, nobody challenges the favori) and each fact is folded again by
`evolve`. Invariants hold after every step: the index stays in its bounds, reserves and Sang
are never negative, and the log folds to the same state.

Source: seed 002; rulings G-M9 to G-M12, G-A15 to G-A18.
"""

import json

import pytest

from tablee.dice import D6, SeededSource
from tablee.errors import InputError, RuleError
from tablee.systems.agents import (
    CHALLENGE_GENERATOR,
    ChallengeInputs,
    QuestStatus,
    StepKind,
    TableKind,
    decide_action,
    decide_agent,
    decide_challenge,
    decide_concede,
    decide_consequence,
    decide_contest_challenge,
    decide_contest_close,
    decide_contest_settle,
    decide_contest_start,
    decide_draw,
    decide_generate,
    decide_quest,
    decide_scene,
    decide_winner,
    evolve,
    initial_state,
    next_step,
)
from tablee.systems_io.agents_tables import starter_tables


class Table:
    def __init__(self):
        self.created = {"players": [], "options": {}}
        self.state = initial_state(self.created)
        self.facts = []

    def do(self, decide, **kwargs):
        decision = decide(self.state, **kwargs)
        assert len(decision.facts) == 1
        fact = decision.facts[0]
        self.facts.append((fact.kind, json.loads(json.dumps(dict(fact.payload)))))
        self.state = decision.after
        return decision

    def refold(self):
        state = initial_state(self.created)
        for kind, payload in self.facts:
            state = evolve(state, kind, payload)
        return state


def _check(state):
    if state.quest is not None:
        assert -len(state.generated) <= state.quest.progress <= 4
    for agent in state.agents.values():
        assert 0 <= agent.sang <= 3
        assert all(r >= 0 for r in agent.current)


def autoplay(table, seed, *, challengers=(), limit=400):
    dice = SeededSource(seed)
    tables = starter_tables("en")
    for _ in range(limit):
        step = next_step(table.state)
        game = table.state
        if step.kind is StepKind.DONE:
            return step
        if step.kind is StepKind.DRAW_QUEST:
            face = dice.roll(tables.objectives.die, 1)[0]
            table.do(decide_quest, tables=tables, source="starter:en", face=face)
        elif step.kind is StepKind.DRAW:
            die = tables.table(TableKind(step.table)).die
            table.do(decide_draw, table=step.table, face=dice.roll(die, 1)[0])
        elif step.kind is StepKind.START_SCENE:
            table.do(decide_scene)
        elif step.kind is StepKind.GENERATE:
            present = [n for n in game.agents if n not in game.quest.sitting_out]
            inputs = ChallengeInputs(game.quest.progress, len(present), game.options)
            faces = dice.roll(D6, CHALLENGE_GENERATOR.dice_for(inputs).count)
            table.do(decide_generate, agents=present, faces=faces)
        elif step.kind is StepKind.ACT:
            table.do(
                decide_action,
                challenge=step.challenge,
                agent=step.agent,
                face=dice.roll(D6, 1)[0],
            )
        elif step.kind is StepKind.NAME_WINNER:
            table.do(decide_winner, challenge=step.challenge, agent=step.candidates[0])
        elif step.kind is StepKind.CONSEQUENCE:
            result = table.do(decide_consequence, challenge=step.challenge).outcome
            if result.helped:
                table.do(decide_draw, table="boons", face=dice.roll(tables.boons.die, 1)[0])
        elif step.kind is StepKind.START_CONTEST:
            wins = game.quest.wins
            best = [a.name for a, w in zip(game.quest.agents, wins, strict=True) if w == max(wins)]
            table.do(decide_contest_start, favori=best[0])
        elif step.kind is StepKind.CONTEST_CHALLENGE:
            contest = game.contest
            wanting = [
                n for n in challengers if n != contest.holder and n not in contest.challenged
            ]
            if not wanting:
                table.do(decide_contest_close)
            else:
                from tablee.systems.agents import next_challengers

                first = next_challengers(contest, wanting)[0]
                table.do(
                    decide_contest_challenge,
                    challengers=[first],
                    attribute="muscles",
                    wanting=wanting,
                )
        elif step.kind is StepKind.SETTLE_BOUT:
            table.do(decide_contest_settle, challenge=step.challenge)
        else:
            raise AssertionError(step)
        _check(table.state)
    raise AssertionError("the adventure did not end")


def _team(table):
    for name, values in (("Vega", (7, 5, 3)), ("Orso", (3, 7, 5)), ("Lune", (5, 3, 7))):
        m, s, i = values
        table.do(decide_agent, name=name, muscles=m, sexe=s, intelligence=i)


@pytest.mark.parametrize("seed", range(12))
def test_whole_adventures_end_and_replay(seed):
    table = Table()
    assert next_step(table.state).kind is StepKind.CREATE_AGENTS
    _team(table)
    autoplay(table, seed, challengers=("Orso", "Lune", "Vega"))
    state = table.state
    assert state.quest.status in (QuestStatus.WON, QuestStatus.FAILED)
    if state.quest.status is QuestStatus.WON:
        assert state.quest.progress == 4
        assert state.contest.finished
    else:
        assert all(a.sang == 0 for a in state.agents.values())
    assert table.refold() == state


def test_some_seed_wins_and_some_seed_fails():
    statuses = set()
    for seed in range(12):
        table = Table()
        _team(table)
        autoplay(table, seed)
        statuses.add(table.state.quest.status)
    assert statuses == {QuestStatus.WON, QuestStatus.FAILED}


def _start(seed=3):
    table = Table()
    _team(table)
    table.do(decide_quest, tables=starter_tables("fr"), source="starter:fr", face=4)
    return table


def test_the_objective_is_drawn_secret_and_the_table_text_replays():
    table = _start()
    assert table.state.quest.progress == 0
    assert not table.state.quest.objective_revealed
    kind, payload = table.facts[-1]
    assert kind == "agents.quest_drawn"
    assert "@die d10" in payload["tables"]["objectives"]
    assert table.refold() == table.state
    with pytest.raises(RuleError, match="G-M9"):
        decide_quest(table.state, tables=starter_tables("fr"), source="x", face=1)


def test_steps_out_of_order_are_refused():
    table = _start()
    with pytest.raises(RuleError):
        decide_generate(table.state, agents=["Vega"], faces=[1, 1, 1, 1])
    table.do(decide_scene)
    with pytest.raises(InputError):
        decide_generate(table.state, agents=["Vega"], faces=[1, 1, 1])  # 4 dice at index 0
    table.do(decide_generate, agents=["Vega", "Orso"], faces=[1, 1, 1, 6])  # score 3*2
    with pytest.raises(RuleError):
        decide_scene(table.state)  # the challenge is not settled
    with pytest.raises(RuleError):
        decide_consequence(table.state, challenge=1)  # still open
    with pytest.raises(InputError):
        decide_draw(table.state, table="weather", face=1)


def test_a_free_win_needs_no_winner_and_moves_the_index():
    table = _start()
    table.do(decide_scene)
    # environment, hostile, Muscles, d6 1 -> floor(1/2) = 0 at index 0: won at once (G-A2)
    table.do(decide_generate, agents=["Vega"], faces=[1, 1, 1, 1])
    assert table.state.challenges[1].outcome == "won"
    assert next_step(table.state).kind is StepKind.CONSEQUENCE
    table.do(decide_consequence, challenge=1)
    assert table.state.quest.progress == 1
    assert table.state.quest.objective_revealed
    assert table.refold() == table.state


def test_sitting_out_at_sang_zero():
    table = _start()
    for _ in range(3):
        table.do(decide_scene)
        # environment, hostile, Intelligence, score (3+0)*1 = 3 at index <= 0
        table.do(decide_generate, agents=["Lune"], faces=[1, 1, 6, 6])
        number = len(table.state.challenges)
        table.do(decide_concede, challenge=number, agent="Lune")
        table.do(decide_consequence, challenge=number)
    assert table.state.agents["Lune"].sang == 0
    table.do(decide_scene)
    assert "Lune" in table.state.quest.sitting_out
    with pytest.raises(RuleError, match="G-A16"):
        decide_generate(table.state, agents=["Lune"], faces=[1, 1, 6, 6])
    table.do(decide_generate, agents=["Vega"], faces=[1, 1, 1, 1])
    table.do(decide_consequence, challenge=len(table.state.challenges))
    table.do(decide_scene)
    assert table.state.agents["Lune"].sang == 1
    assert table.refold() == table.state


def test_an_agent_sitting_out_cannot_act_in_an_older_challenge():
    table = _start()
    table.do(decide_challenge, kind="sexe", agents=["Lune"], oppositions=[("a sphinx", 5)])
    for _ in range(3):
        table.do(decide_scene)
        table.do(decide_generate, agents=["Lune"], faces=[1, 1, 6, 6])
        number = len(table.state.challenges)
        table.do(decide_concede, challenge=number, agent="Lune")
        table.do(decide_consequence, challenge=number)
    table.do(decide_scene)
    before = table.state
    with pytest.raises(RuleError, match="G-A16"):
        decide_action(table.state, challenge=1, agent="Lune", face=6)
    assert table.state is before
