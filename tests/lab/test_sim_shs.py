"""Survivors of an SHS film simulated in the lab: replay, exact lone survival, policies."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tablee.errors import InputError
from tablee.lab import question_named
from tablee.lab.questions import LabContext
from tablee.lab.results import Estimate
from tablee.lab.sim_shs import Film, film_difficulties


def test_registered_and_simulated() -> None:
    assert question_named("shs", "film") is Film and Film.simulated


def test_difficulties_repeat_in_order() -> None:
    assert film_difficulties("1,2 3", 7) == (1, 2, 3, 1, 2, 3, 1)
    for bad in ("", "0", "1,x", "21"):
        with pytest.raises(InputError):
            film_difficulties(bad, 3)


def test_the_same_seed_replays_with_one_or_two_workers() -> None:
    question = Film(protagonists=3, tests=4, trials=64, seed=9)
    assert (
        question.answer(LabContext(workers=1)).rows == question.answer(LabContext(workers=2)).rows
    )


def test_a_lone_protagoniste_survives_with_the_exact_chance() -> None:
    # one Protagoniste, 6+ on 3D8, Difficulties 1 then 2, killed by the first failure:
    # P(at least one of 3 dice >= 6) = 1 - (5/8)^3 = 387/512; P(at least two) = 81/256
    question = Film(
        protagonists=1, tests=2, difficulties="1,2", failure="kill_one", option_from=3, trials=3000
    )
    assert question.lone_survival("never", (1, 2)) == Fraction(387, 512) * Fraction(81, 256)
    rows = {r["option"]: r for r in question.answer(LabContext()).rows}
    for policy in ("never", "surpass", "sacrifice"):
        alive = rows[policy]["p_1"]
        assert isinstance(alive, Estimate) and alive.exact is not None
        assert alive.covers(alive.exact), policy


def test_se_sacrifier_always_kills() -> None:
    question = Film(protagonists=2, tests=2, difficulties="4", option_from=4, trials=50)
    sacrifice = next(r for r in question.answer(LabContext()).rows if r["option"] == "sacrifice")
    # together: the first roller Se Sacrifie on each Test; two Tests, two deaths (S-M5)
    assert isinstance(sacrifice["p_0"], Estimate) and sacrifice["p_0"].value == 1


def test_policies_are_listed_with_their_settings() -> None:
    result = Film(trials=5, failure="wound", damage=5).answer(LabContext())
    names = [p.name for p in result.policies]
    assert names == ["never", "surpass", "sacrifice", "group:together", "failure:wound"]
    assert result.policies[-1].settings == {"damage": 5}
    assert result.inputs["difficulties"] == "1,2,2,3"  # as given: the 8 Tests cycle through it


def test_a_stopped_run_keeps_its_first_chunk() -> None:
    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    result = Film(trials=64, tests=3).answer(LabContext(progress=stop))
    assert result.stopped and result.trials == 2
