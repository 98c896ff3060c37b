"""Hypothesis: any sequence of agents commands through the table service keeps it sound.

A table on a temporary SQLite store receives random commands (challenges, actions with random
checklists and faces, concessions, abandons, failures on purpose, winners, undos). After every
command, refused or not: reserves, Sang and opposition scores are never negative, reserves
never exceed their cap, a refused command stored nothing, and the state equals a fresh fold of
the stored log; the quest's progress index stays within -(challenges drawn)..4.
"""

from __future__ import annotations

import random
import tempfile
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablee.errors import InputError, RuleError
from tablee.systems import agents
from tablee.systems_io.agents_tables import starter_tables
from tablee.table.projection import fold
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore

TABLES = starter_tables("en")
TEAM = {"Vega": (7, 5, 3), "Orso": (3, 7, 5), "Lune": (5, 3, 7)}
NAMES = list(TEAM)
MODS = [
    "escalate",
    "deescalate",
    "environment",
    "setup",
    "generic",
    "laugh",
    "situation",
    "complexity",
    "obvious",
    "bogus",
]

challenge = st.tuples(
    st.just("challenge"),
    st.sampled_from(["muscles", "sexe", "intelligence"]),
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True),
    st.lists(st.integers(0, 4), min_size=1, max_size=2),
)
action = st.tuples(
    st.just("action"),
    st.integers(1, 8),
    st.one_of(st.none(), st.none(), st.none(), st.sampled_from(NAMES)),  # None: the agent due
    st.one_of(st.none(), st.lists(st.sampled_from(MODS), max_size=3)),  # None: a valid tick
    st.one_of(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6), st.sampled_from([0, 7])),
    st.one_of(st.none(), st.none(), st.just(1), st.integers(0, 3)),
)
leave = st.tuples(
    st.sampled_from(["concede", "abandon"]), st.integers(1, 3), st.sampled_from(NAMES)
)
fail = st.tuples(st.just("fail"), st.sampled_from(NAMES), st.sampled_from(["muscles", "sexe"]))
winner = st.tuples(
    st.just("winner"), st.integers(1, 3), st.one_of(st.none(), st.sampled_from(NAMES))
)
undo = st.tuples(st.just("undo"), st.integers(0, 20))
scene = st.tuples(st.just("scene"))
generate = st.tuples(
    st.just("generate"),
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True),
    st.lists(st.integers(1, 6), min_size=4, max_size=4),
)
consequence = st.tuples(st.just("consequence"), st.integers(4, 12))
commands = st.lists(
    st.one_of(
        challenge,
        action,
        action,
        action,
        action,
        leave,
        fail,
        winner,
        undo,
        scene,
        generate,
        consequence,
    ),
    min_size=5,
    max_size=40,
)


def decider(command: tuple[Any, ...]) -> Any:
    kind = command[0]
    if kind == "challenge":
        _, which, who, scores = command
        return lambda s: agents.decide_challenge(
            s.game, kind=which, agents=who, oppositions=[(f"o{i}", x) for i, x in enumerate(scores)]
        )
    if kind == "action":
        _, number, who, mods, face, target = command

        def act(s: Any) -> Any:
            ch = s.game.challenges.get(number)
            agent = who or (ch and agents.next_actor(ch)) or "Vega"
            ticks = mods
            if ticks is None:
                ticks = [agents.CHECKLISTS[ch.kind][face % 2].id] if ch else []
            return agents.decide_action(
                s.game, challenge=number, agent=agent, modifiers=ticks, face=face, target=target
            )

        return act
    if kind == "concede":
        return lambda s: agents.decide_concede(s.game, challenge=command[1], agent=command[2])
    if kind == "abandon":
        return lambda s: agents.decide_abandon(s.game, challenge=command[1], agent=command[2])
    if kind == "scene":
        return lambda s: agents.decide_scene(s.game)
    if kind == "generate":
        _, who, faces = command

        def generate(s: Any) -> Any:
            quest = s.game.quest
            inputs = agents.ChallengeInputs(quest.progress if quest else 0, len(who))
            count = agents.CHALLENGE_GENERATOR.dice_for(inputs).count
            return agents.decide_generate(s.game, agents=who, faces=faces[:count])

        return generate
    if kind == "consequence":
        return lambda s: agents.decide_consequence(s.game, challenge=command[1])
    if kind == "fail":
        return lambda s: agents.decide_fail_on_purpose(s.game, agent=command[1], reserve=command[2])
    return lambda s: agents.decide_winner(s.game, challenge=command[1], agent=command[2])


def _check(game: agents.AgentsState) -> None:
    quest = game.quest
    if quest is not None:  # an undo may void the quest's draw
        assert -len(game.generated) <= quest.progress <= agents.QUEST_WON_AT
        assert quest.progress < agents.QUEST_WON_AT or quest.status is agents.QuestStatus.WON
    assert len(game.settled) <= len(game.generated)
    for hero in game.agents.values():
        assert 0 <= hero.sang <= agents.MAX_SANG
        for now, start in zip(hero.current, hero.starting, strict=True):
            assert 0 <= now <= start  # default option: capped at the start
    for ch in game.challenges.values():
        assert all(o.score >= 0 for o in ch.oppositions)
        assert all(v >= 0 for v in ch.spent.values())
        if ch.is_open:
            assert any(o.score > 0 for o in ch.oppositions)
            assert ch.running()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commands)
def test_any_command_sequence_keeps_the_table_sound(sequence: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "a.sqlite3")
        try:
            service = TableService(store)
            name = f"t-{uuid.uuid4().hex[:8]}"
            service.create(system="agents", name=name, players=["P"], lang="en")
            for hero, (m, s, i) in TEAM.items():
                service.execute(
                    name,
                    lambda st_, h=hero, m=m, s=s, i=i: agents.decide_agent(
                        st_.game, name=h, muscles=m, sexe=s, intelligence=i
                    ),
                    lambda d: d.facts,
                )
            service.execute(
                name,
                lambda st_: agents.decide_quest(
                    st_.game, tables=TABLES, source="starter:en", face=1
                ),
                lambda d: d.facts,
            )
            for which, score in (("muscles", 4), ("sexe", 3), ("intelligence", 5)):
                service.execute(
                    name, decider(("challenge", which, NAMES, [score])), lambda d: d.facts
                )
            for command in sequence:
                before = store.load(service.info(name).id)
                try:
                    if command[0] == "undo":
                        applied = service.undo(name, seq=command[1] or None)
                    else:
                        applied = service.execute(name, decider(command), lambda d: d.facts)
                    assert applied.state == fold(store.load(applied.state.table_id))
                except (InputError, RuleError):
                    assert store.load(service.info(name).id) == before
                _check(service.state(name).game)
        finally:
            store.close()


def _sensible(game: agents.AgentsState, rng: random.Random) -> tuple[Any, ...]:
    """A command the adventure's next step calls for, with random faces and ticks."""
    step = agents.next_step(game)
    kind = step.kind
    if kind is agents.StepKind.START_SCENE:
        return ("scene",)
    if kind is agents.StepKind.GENERATE:
        present = [n for n in NAMES if n not in game.quest.sitting_out]
        return ("generate", present or NAMES[:1], [rng.randint(1, 6) for _ in range(4)])
    if kind is agents.StepKind.ACT:
        return ("action", step.challenge, step.agent, None, rng.randint(1, 6), None)
    if kind is agents.StepKind.NAME_WINNER:
        return ("winner", step.challenge, rng.choice([None, *step.candidates]))
    if kind is agents.StepKind.CONSEQUENCE:
        return ("consequence", step.challenge)
    return ("fail", rng.choice(NAMES), "sexe")


@pytest.mark.parametrize("seed", range(8))
def test_long_random_walks_through_the_service_keep_the_table_sound(seed: int) -> None:
    rng = random.Random(seed)
    junk = [
        ("action", 1, None, ["bogus"], 4, None),
        ("consequence", 99),
        ("concede", 4, "Vega"),
        ("abandon", 5, "Orso"),
        ("winner", 4, "Lune"),
        ("undo", 0),
    ]
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "w.sqlite3")
        try:
            service = TableService(store)
            service.create(system="agents", name="walk", players=["P"], lang="en")
            for hero, (m, s, i) in TEAM.items():
                service.execute(
                    "walk",
                    lambda st_, h=hero, m=m, s=s, i=i: agents.decide_agent(
                        st_.game, name=h, muscles=m, sexe=s, intelligence=i
                    ),
                    lambda d: d.facts,
                )
            service.execute(
                "walk",
                lambda st_: agents.decide_quest(st_.game, tables=TABLES, source="x", face=2),
                lambda d: d.facts,
            )
            for _ in range(150):
                game = service.state("walk").game
                if game.quest.status is not agents.QuestStatus.ONGOING:
                    break
                command = rng.choice(junk) if rng.random() < 0.2 else _sensible(game, rng)
                before = store.load(service.info("walk").id)
                try:
                    if command[0] == "undo":
                        service.undo("walk")
                    else:
                        service.execute("walk", decider(command), lambda d: d.facts)
                except (InputError, RuleError):
                    assert store.load(service.info("walk").id) == before
                _check(service.state("walk").game)
            assert fold(store.load(service.info("walk").id)).game == service.state("walk").game
        finally:
            store.close()
