"""The mutable records the agents rules go through (`Course`, `QuestCourse`) keep the stored
records' behaviour on records built by hand, as the functions before them did."""

from __future__ import annotations

import dataclasses

from tablee.systems.agents.actions import Result
from tablee.systems.agents.agent import Reserve, create_agent
from tablee.systems.agents.challenge import (
    Challenge,
    Course,
    Opposition,
    Standing,
    act,
    next_actor,
    open_challenge,
)
from tablee.systems.agents.generator import DrawnChallenge, Relation, Source
from tablee.systems.agents.quest import apply_consequence, draw_quest, start_scene
from tablee.systems.agents.starters import starter_tables


def _two(turn: int) -> Challenge:
    active = {"A": Standing.ACTIVE, "B": Standing.ACTIVE}
    return Challenge(
        1, Reserve.MUSCLES, ("A", "B"), (Opposition("x", 3, 3),), active, {"A": 0, "B": 0}, turn
    )


def test_a_turn_out_of_range_wraps_round_the_agents() -> None:
    assert next_actor(_two(-1)) == "B"
    assert next_actor(_two(3)) == "B"
    moved, reserve, hit = act(_two(-1), "B", 2, Result.SUCCESS)
    assert (moved.oppositions[0].score, reserve, hit, moved.turn) == (2, 2, 0, 0)


def test_a_course_opened_from_values_matches_open_challenge() -> None:
    cases = [((3,), (2, 0)), ((0,), (2, 1)), ((2,), (0, 0)), ((0, 4), (1, 1))]
    for scores, reserves in cases:
        course = Course.opened(scores, reserves)
        stored = open_challenge(
            1,
            Reserve.SEXE,
            ["A", "B"],
            [(f"o{i}", s) for i, s in enumerate(scores)],
            dict(zip("AB", reserves, strict=True)),
        )
        assert course.outcome == stored.outcome, (scores, reserves)
        assert course.standing == [stored.standing[a] for a in "AB"]


def _quest(sangs: tuple[int, int], **changes: object) -> object:
    agents = [
        dataclasses.replace(create_agent(n, muscles=7, sexe=5, intelligence=3), sang=s)
        for n, s in zip("AB", sangs, strict=True)
    ]
    quest = draw_quest(agents, starter_tables("en").objectives, [1]).quest
    return dataclasses.replace(quest, **changes)


def _won_by_a(relation: Relation) -> DrawnChallenge:
    return DrawnChallenge(0, Source.CREATURES, relation, False, Reserve.MUSCLES, 3, 3, ("A",), ())


def test_a_consequence_bounds_the_involved_agents_sang_even_when_it_does_not_move() -> None:
    quest = _quest((4, 2))
    after = apply_consequence(quest, _won_by_a(Relation.NEUTRAL), won=True).quest  # type: ignore[arg-type]
    assert [a.sang for a in after.agents] == [3, 2]


def test_a_consequence_keeps_who_sits_out_as_stored_and_a_scene_start_recounts_it() -> None:
    quest = _quest((2, 2), sitting_out=frozenset({"Z"}))
    after = apply_consequence(quest, _won_by_a(Relation.NEUTRAL), won=True).quest  # type: ignore[arg-type]
    assert after.sitting_out == frozenset({"Z"})
    assert start_scene(quest).quest.sitting_out == frozenset()  # type: ignore[arg-type]
    resting = start_scene(_quest((0, 2))).quest  # type: ignore[arg-type]
    assert resting.sitting_out == frozenset({"A"})


def test_a_course_run_from_a_turn_out_of_range_starts_with_the_agent_due() -> None:
    class Faces:
        def roll(self, request: object) -> tuple[int, ...]:
            return (6,)  # every action a success

    for turn in (-3, -1, 5):
        course = Course(_two(turn))
        due = next_actor(_two(turn))
        reserves = [2, 2]
        course.run(reserves, Faces())  # type: ignore[arg-type]
        first = course.frozen()
        assert first.outcome == "won" and first.actions == 3
        assert due == "B"
        assert first.turn == 0  # B, A, B acted: A is next
