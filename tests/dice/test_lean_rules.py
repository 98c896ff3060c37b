"""The rules core's lean paths give what the plain paths gave.

A seeded source draws the faces `random.Random.randrange` would; an outcome's trace built
when first read is the one given up front (equal, printed, pickled alike) and built once;
`replaced` is `dataclasses.replace` for plain dataclasses and falls back to it otherwise;
an SHS Test builds its roll once and checks its fields as before.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass, replace
from functools import partial

import pytest

from tablee.dice import D6, D8, DPM, LazyTrace, SeededSource, Trace, TraceStep
from tablee.errors import InputError, RuleError
from tablee.systems.common import replaced
from tablee.systems.shs.actions import ActionRoll, resolve_action
from tablee.systems.shs.difficulty import Test, resolve_test


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3])
def test_seeded_faces_are_the_generators_randrange(seed: int) -> None:
    source, rng = SeededSource(seed), random.Random(seed)
    for die, count in [(D6, 1), (D8, 3), (DPM, 2), (D6, 0), (D8, 5), (D6, 1)]:
        expected = tuple(die.faces[rng.randrange(len(die.faces))] for _ in range(count))
        assert source.roll(die, count) == expected


def test_seeded_source_still_checks_the_count() -> None:
    with pytest.raises(InputError):
        SeededSource(1).roll(D6, -1)
    with pytest.raises(InputError):
        SeededSource(1).roll(D6, True)  # type: ignore[arg-type]


STEPS: Trace = (TraceStep("one {n}", {"n": 1}), TraceStep("two"))
built: list[int] = []


def _steps() -> Trace:
    built.append(1)
    return STEPS


@dataclass(frozen=True)
class _Outcome:
    value: int
    trace: LazyTrace = LazyTrace()  # noqa: RUF009 - the descriptor under test


def test_a_lazy_trace_reads_compares_and_prints_as_the_steps() -> None:
    built.clear()
    lazy, eager = _Outcome(3, partial(_steps)), _Outcome(3, STEPS)
    assert built == []
    assert lazy.trace == STEPS
    assert lazy == eager and repr(lazy) == repr(eager)
    assert lazy.trace is lazy.trace
    assert built == [1]  # built once
    assert _Outcome(4).trace == ()


def test_a_lazy_trace_pickles_unread_and_read() -> None:
    unread = _Outcome(5, partial(_steps))
    assert pickle.loads(pickle.dumps(unread)).trace == STEPS
    assert pickle.loads(pickle.dumps(unread)) == _Outcome(5, STEPS)


def test_a_test_result_trace_is_the_worked_example_steps() -> None:
    # 6+ threshold, Bonus 1: D8 faces 6, 2, 8 give 2 PS, the D+/- "+" one more: 3 PS vs 3.
    result = resolve_test(Test(6, 3, bonus=1), [6, 2, 8], [1])
    assert result.success and result.ps == 3
    assert [s.render() for s in result.trace] == [
        "3 d8 against 6+: 6, 2, 8, 2 PS",
        "1 D+/- counting each '+': + give +1 PS",
        "total: 3 PS",
        "3 PS against Difficulty 3: success",
    ]
    assert replace(result, trace=result.trace) == result


@dataclass(frozen=True)
class _Plain:
    a: int
    b: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("negative")


def test_replaced_is_replace() -> None:
    plain = _Plain(1, (2,))
    assert replaced(plain, a=5) == replace(plain, a=5) == _Plain(5, (2,))
    assert plain == _Plain(1, (2,))
    with pytest.raises(TypeError):
        replaced(plain, c=1)
    with pytest.raises(ValueError, match="negative"):
        replaced(_Checked(1), a=-1)  # a checked class goes through its checks


def test_a_test_builds_its_roll_once_and_still_checks_it() -> None:
    test = Test(6, 2, surpass=True)
    assert test.action is test.action
    assert test.action == ActionRoll(6, surpass=True)
    assert test.with_modifiers() is test
    assert test.with_modifiers(bonus=1).action == ActionRoll(6, bonus=1, surpass=True)
    with pytest.raises(RuleError):
        Test(6, 2, surpass=True, sacrifice=True)
    with pytest.raises(InputError):
        Test(9, 2)
    with pytest.raises(InputError):
        Test(6, 2, bonus=True)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        resolve_action(ActionRoll(6), [6, 2, 9], [])


def test_replaced_goes_through_replace_for_a_lazy_trace() -> None:
    built.clear()
    outcome = replaced(_Outcome(1, STEPS), trace=partial(_steps))
    assert outcome.trace == STEPS and built == [1]


def test_a_protagonists_counter_change_is_replace() -> None:
    from tablee.systems.shs.protagonist import (
        adjust_counter,
        create_protagonist,
        kill,
        set_counter,
    )

    hero = create_protagonist(
        "Émile",
        carrure=7,
        motricite=6,
        science=5,
        relationnel=8,
        sang_froid=6,
        expertises=["Survivre"],
    )
    assert adjust_counter(hero, "sante", -4) == replace(hero, sante=hero.sante - 4)
    assert adjust_counter(hero, "sante", -40).sante == 0
    assert set_counter(hero, "nt", 3) == replace(hero, nt=3)
    assert kill(hero) == replace(hero, alive=False) and hero.alive
    with pytest.raises(InputError):
        set_counter(hero, "nt", -1)
