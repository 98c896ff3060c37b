"""Survivors of an SHS film simulated in the lab: replay, exact lone survival, policies.

The lab draws each Test's success from its exact distribution; a film whose dice are
thrown through the table's decisions, as play throws them, must give the same figures.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest

from tablee.dice import Chance, DiceRequest, Sampler, SeededSource, SourceChance
from tablee.errors import InputError
from tablee.lab import question_named
from tablee.lab.questions import LabContext
from tablee.lab.results import Estimate
from tablee.lab.sim_shs import Film, _FilmTrial, film_difficulties
from tablee.systems.shs.counters import decide_counter, decide_kill
from tablee.systems.shs.odds import cooperation_success_probability
from tablee.systems.shs.planning import Attempt, paid
from tablee.systems.shs.play import plan_test
from tablee.systems.shs.rolling import play_cooperation, play_test
from tablee.systems.shs.situations import Cooperation
from tablee.systems.shs.traits import Characteristic


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


def _thrown_film(question: Film, policy: str, chance: Chance) -> int:
    """A film played by throwing every Test's dice through the table's own decisions.

    The way the lab played a film before it drew each Test's success from its exact
    distribution: `plan_test`, `play_test` or `play_cooperation`, `paid`, `decide_counter`
    and `decide_kill` on the whole state. Returns the survivors.
    """
    state, turn = question.cast(), 0
    kinds = tuple(Characteristic)
    difficulties = film_difficulties(question.difficulties, question.tests)
    for number, difficulty in enumerate(difficulties):
        alive = [n for n, p in state.protagonists.items() if p.alive]
        if not alive:
            break
        if question.group == "one" or len(alive) == 1:
            rollers = [alive[turn % len(alive)]]
            turn += 1
        else:
            rollers = alive
        hard = difficulty >= question.option_from
        tests = [
            plan_test(
                state,
                Attempt(
                    name,
                    kinds[number % len(kinds)],
                    difficulty,
                    "Survivre" if question.expertise else None,
                    surpass=policy == "surpass" and hard,
                    sacrifice=policy == "sacrifice" and hard and i == 0,
                ),
            )
            for i, name in enumerate(rollers)
        ]
        if len(tests) == 1:
            alone = play_test(tests[0], chance, state.options)
            success, rolls = alone.success, [alone.roll]
        else:
            together = play_cooperation(Cooperation(tuple(tests)), chance, state.options)
            success, rolls = together.success, [r.roll for r in together.results]
        heroes = paid(state.protagonists, list(zip(rollers, rolls, strict=True)))
        state = replace(state, protagonists=heroes)
        if success:
            continue
        if question.failure == "kill_one":
            if state.protagonists[rollers[0]].alive:
                state = decide_kill(state, protagonist=rollers[0]).after
            continue
        for name in rollers:
            if state.protagonists[name].alive:
                state = decide_counter(
                    state, protagonist=name, counter="sante", delta=-question.damage
                ).after
                if state.protagonists[name].sante == 0:
                    state = decide_kill(state, protagonist=name).after
    return sum(1 for p in state.protagonists.values() if p.alive)


def test_a_planned_test_draws_with_the_exact_chance_of_the_cooperation() -> None:
    question = Film(protagonists=3, threshold=7, expertise=True)
    state = question.cast()
    trial = _FilmTrial(state, (3,), "together", "wound", 4, True, 3)
    heroes = list(state.protagonists.values())
    for policy in ("never", "surpass", "sacrifice"):
        step = trial._planned(policy, 0, 3, heroes)
        tests = tuple(
            plan_test(
                state,
                Attempt(
                    hero.name,
                    Characteristic.CARRURE,
                    3,
                    "Survivre",
                    surpass=policy == "surpass",
                    sacrifice=policy == "sacrifice" and i == 0,
                ),
            )
            for i, hero in enumerate(heroes)
        )
        fail = Fraction(1)
        for _, sampler, _ in step:
            fail *= _drawn_chance(sampler, False)
        assert 1 - fail == cooperation_success_probability(Cooperation(tests), state.options)
        assert [(p.nt_gain, p.dies) for _, _, p in step] == [
            (int(policy == "surpass"), policy == "sacrifice" and i == 0) for i in range(3)
        ]


def _drawn_chance(sampler: Sampler[bool], outcome: bool) -> Fraction:
    """The share of the values below the sampler's total that draw ``outcome``."""

    class Every:
        value = -1

        def roll(self, request: DiceRequest) -> tuple[int, ...]:
            raise AssertionError("a draw throws no dice")

        def below(self, n: int) -> int:
            self.value += 1
            return self.value

    every = Every()
    hits = sum(sampler.draw(every) is outcome for _ in range(sampler.total))
    return Fraction(hits, sampler.total)


@pytest.mark.slow
@pytest.mark.parametrize(
    "settings",
    [
        {"protagonists": 3, "tests": 6, "group": "together", "failure": "wound"},
        {"protagonists": 2, "tests": 5, "group": "one", "failure": "kill_one", "expertise": True},
    ],
)
def test_drawn_films_agree_with_films_whose_dice_are_thrown(settings: dict[str, object]) -> None:
    trials = 1500
    question = Film(trials=trials, seed=4, **settings)  # type: ignore[arg-type]
    rows = {r["option"]: r for r in question.answer(LabContext()).rows}
    chance = SourceChance(SeededSource(11))
    for policy in ("never", "surpass", "sacrifice"):
        thrown = [_thrown_film(question, policy, chance) for _ in range(trials)]
        mean = sum(thrown) / trials
        variance = sum((x - mean) ** 2 for x in thrown) / (trials - 1)
        drawn = rows[policy]["survivors"]
        assert isinstance(drawn, Estimate)
        drawn_error = (drawn.high - drawn.low) / (2 * 1.96)
        error = math.sqrt(variance / trials + drawn_error**2)
        assert abs(drawn.value - mean) <= 3.5 * error + 1e-9, (policy, drawn.value, mean)
