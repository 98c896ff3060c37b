"""The chance protocol: adapters, recording and replay, exact enumeration, simulation, chains.

Every expected value here is computed independently: a literal brute force over
``itertools.product`` of faces, or a probability worked out by hand in the comment.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from tablee.dice import (
    D6,
    D8,
    DPM,
    Chance,
    DiceRequest,
    End,
    FairSource,
    Next,
    Recorder,
    SeededSource,
    SourceChance,
    TypedFaces,
    absorbing,
    exact,
    exact_distribution,
    outcomes_of,
    simulate,
    solve_absorbing,
)
from tablee.errors import InputError
from tablee.systems.agents.actions import ACTION, ActionRoll


def _brute(die_faces: tuple[int, ...], count: int, key: object) -> dict[object, Fraction]:
    counts: Counter[object] = Counter()
    for faces in product(die_faces, repeat=count):
        counts[key(faces)] += 1  # type: ignore[operator]
    total = len(die_faces) ** count
    return {k: Fraction(v, total) for k, v in counts.items()}


def _probabilities(dist: object) -> dict[object, Fraction]:
    return dict(dist.items())  # type: ignore[attr-defined]


@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize(("die", "count"), [(D6, 0), (D6, 1), (D6, 3), (DPM, 4), (D8, 2)])
def test_outcomes_weights_add_up_to_every_ordered_roll(die, count, ordered) -> None:
    found = outcomes_of(DiceRequest(die, count, ordered))
    assert sum(w for _, w in found) == die.sides**count
    assert len({faces for faces, _ in found}) == len(found)
    if not ordered:
        assert all(list(faces) == sorted(faces) for faces, _ in found)
    brute = Counter(
        faces if ordered else tuple(sorted(faces)) for faces in product(die.faces, repeat=count)
    )
    assert dict(found) == dict(brute)


def test_exact_single_request_matches_brute_force() -> None:
    def run(chance: Chance) -> int:
        return max(chance.roll(DiceRequest(D6, 3)))

    dist = exact(run)
    assert dist.total == 6**3
    assert _probabilities(dist) == _brute(D6.faces, 3, max)


def test_exact_ordered_rule_sees_every_sequence() -> None:
    def first_beats_last(chance: Chance) -> bool:
        faces = chance.roll(DiceRequest(D6, 2, ordered=True))
        return faces[0] > faces[1]

    # 15 of the 36 ordered pairs have the first die higher
    assert exact(first_beats_last).probability(True) == Fraction(15, 36)


def test_exact_follows_requests_that_depend_on_earlier_faces() -> None:
    def reroll_ones(chance: Chance) -> int:
        first = chance.roll(DiceRequest(D6, 1))[0]
        if first == 1:
            return chance.roll(DiceRequest(D6, 2))[0] + 10  # a different request after a 1
        return first

    dist = exact(reroll_ones)
    # a 1 then two dice whose lowest is k: (1/6) * P(min of 2d6 = k)
    for k in range(1, 7):
        low = Fraction((7 - k) ** 2 - (6 - k) ** 2, 36)
        assert dist.probability(k + 10) == Fraction(1, 6) * low
    for face in range(2, 7):
        assert dist.probability(face) == Fraction(1, 6)


def test_exact_distribution_of_a_mechanic_is_unchanged() -> None:
    dist = exact_distribution(ACTION, ActionRoll(1), lambda r: r.result.value)
    assert dist.total == 6
    assert dist.weights == {"failure": 2, "success": 3, "critical": 1}  # faces 1-2, 3-5, 6


def test_exact_budget_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="more than 100 rolls"):
        exact(
            lambda chance: (
                chance.roll(DiceRequest(D6, 1, ordered=True))[0]
                + sum(chance.roll(DiceRequest(D6, 3, ordered=True)))
            ),
            budget=100,
        )
    with pytest.raises(InputError, match="more than 1000 rolls"):
        exact(lambda chance: chance.roll(DiceRequest(D6, 90)), budget=1000)


def test_exact_refuses_rule_code_that_is_not_deterministic() -> None:
    calls = []

    def moody(chance: Chance) -> int:
        calls.append(1)
        chance.roll(DiceRequest(D6, 1))
        return chance.roll(DiceRequest(D6, len(calls) % 2 + 1))[0]

    with pytest.raises(RuntimeError, match="not deterministic"):
        exact(moody)


def test_sources_drive_the_same_code() -> None:
    request = DiceRequest(D6, 3)
    assert SourceChance(TypedFaces("6 1 4")).roll(request) == (6, 1, 4)
    assert SourceChance(SeededSource(5)).roll(request) == SeededSource(5).roll(D6, 3)
    assert all(1 <= f <= 6 for f in SourceChance(FairSource()).roll(request))


def test_recorder_records_and_replays_for_a_retry() -> None:
    recorder = Recorder(SourceChance(SeededSource(11)))
    first = recorder.roll(DiceRequest(D6, 2))
    second = recorder.roll(DiceRequest(DPM, 1))
    assert recorder.faces == first + second
    assert [r.request for r in recorder.rolls] == [DiceRequest(D6, 2), DiceRequest(DPM, 1)]
    replay = recorder.replay()
    assert replay.roll(DiceRequest(D6, 2)) == first
    assert replay.roll(DiceRequest(DPM, 1)) == second
    replay.finish()


def test_replay_refuses_other_dice_more_dice_or_fewer() -> None:
    recorder = Recorder(SourceChance(SeededSource(1)))
    recorder.roll(DiceRequest(D6, 2))
    with pytest.raises(InputError, match="asks for 3 d6 at roll 1, but 2 d6 were rolled"):
        recorder.replay().roll(DiceRequest(D6, 3))
    with pytest.raises(InputError, match="asks for 2 d8"):
        recorder.replay().roll(DiceRequest(D8, 2))
    replay = recorder.replay()
    replay.roll(DiceRequest(D6, 2))
    with pytest.raises(InputError, match="more than the 1 rolls recorded"):
        replay.roll(DiceRequest(D6, 1))
    with pytest.raises(InputError, match="used 0 of the 1 rolls"):
        recorder.replay().finish()


def test_simulation_agrees_with_exact_within_a_fixed_bound() -> None:
    def run(chance: Chance) -> int:
        return sum(chance.roll(DiceRequest(D6, 2)))

    trials = 20_000
    counts = simulate(run, trials, seed=2026)
    assert counts.total == trials and counts == simulate(run, trials, seed=2026)
    odds = exact(run)
    for total in range(2, 13):
        # 5 standard deviations of a frequency over 20,000 trials: 5 / (2 * sqrt(20,000)) < 0.018
        frequency = Fraction(counts.weights.get(total, 0), trials)
        assert abs(frequency - odds.probability(total)) < Fraction(18, 1000)
    with pytest.raises(InputError):
        simulate(run, 0, seed=1)


def test_absorbing_chain_throw_until_a_six() -> None:
    # throw one d6 until a 6: geometric, 6 throws on average; the face before it is fixed
    def step(state: int, chance: Chance) -> Next[int] | End[str]:
        face = chance.roll(DiceRequest(D6, 1))[0]
        return End("six") if face == 6 else Next(state + 1 if state < 2 else state)

    result = absorbing(0, step)
    assert result.outcomes == {"six": 1}
    assert result.expected_steps == 6
    assert result.states == 3


def test_absorbing_race_with_cycles_matches_hand_solution() -> None:
    # a walk on 0..3 with d6: 1-2 down, 3-4 stay, 5-6 up; 0 loses, 3 wins; start at 1.
    # From 1: p1 = 1/2 p2, p2 = 1/2 p1 + 1/2 (win) -> p1 = 1/3 (by symmetry of the walk).
    def step(state: int, chance: Chance) -> Next[int] | End[str]:
        face = chance.roll(DiceRequest(D6, 1))[0]
        moved = state - 1 if face <= 2 else state + 1 if face >= 5 else state
        if moved == 0:
            return End("lose")
        return End("win") if moved == 3 else Next(moved)

    result = absorbing(1, step)
    assert result.probability("win") == Fraction(1, 3)
    assert result.probability("lose") == Fraction(2, 3)
    # expected steps: e1 = 1 + 1/3 e1 + 1/3 e2, e2 = 1 + 1/3 e1 + 1/3 e2 -> e1 = e2 = 3
    assert result.expected_steps == 3


def test_solve_absorbing_refuses_a_chain_that_never_ends() -> None:
    def moves(state: int) -> dict[Next[int] | End[str], Fraction]:
        return {Next(1 - state): Fraction(1)}

    with pytest.raises(InputError, match="never ends"):
        solve_absorbing(0, moves)
    with pytest.raises(InputError, match="more than 5 states"):
        solve_absorbing(0, lambda s: {Next(s + 1): Fraction(1)}, max_states=5)
