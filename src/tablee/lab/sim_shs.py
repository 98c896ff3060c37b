"""SHS in the lab: how many Protagonistes live through a film of Tests, simulated.

A film is ``tests`` Tests in a row, at the Difficulties given (repeated when fewer are
given). Each Test is faced by one living Protagoniste in turn, or by all of them
cooperating (S-M6). The table's own functions plan it: `plan_test` gives each roller's
Test with the table's modifiers, `Cooperation.tests` adds the cooperation's Bonus 1.
Nothing in a film reads a Test's faces, only whether it succeeds and what its option
costs, so each roller's success is drawn from the Test's exact distribution
(`success_distribution`, the odds the table shows before a roll, tested equal to the
Test as play resolves it) with one `tablee.dice.Sampler` draw instead of throwing its
dice, and the group's from `group_succeeds`; the same in distribution, and about ten
times less work. The price is `price_of` the Action, applied by `paid` (Se Surpasser's
NT, Se Sacrifier's death, S-M5). The text gives no damage rules, so what a failed Test
costs is the Réalisateur's call, under a named policy (Tablée's lab ruling S-X6 in
docs/rules/shs.md): a wound of ``damage`` Santé to each roller (`adjust_counter`, as the
Réalisateur's counter change does), with death at 0 Santé (`kill`), or the first roller's
death.

Source: seed 003, "Résoudre les Actions", "Options", "Coopération"; rulings S-M2, S-M5,
S-M6, S-A8, S-A10, S-A14; Tablée's S-X6.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, ClassVar, Literal

from tablee.dice import Sampler, SamplingChance, read_whole
from tablee.errors import N_, InputError
from tablee.lab.questions import LabContext, Question, Seed
from tablee.lab.results import Cell, Chart, Column, LabResult, Policy
from tablee.lab.runner import Tally, run_simulation
from tablee.systems.declare import Param
from tablee.systems.shs.actions import Price, price_of
from tablee.systems.shs.difficulty import Test
from tablee.systems.shs.game import ShsState, decide_create
from tablee.systems.shs.odds import success_distribution, success_probability
from tablee.systems.shs.options import ShsOptions
from tablee.systems.shs.planning import Attempt, paid
from tablee.systems.shs.play import plan_test
from tablee.systems.shs.protagonist import Protagonist, adjust_counter, kill
from tablee.systems.shs.situations import Cooperation, group_succeeds
from tablee.systems.shs.traits import Characteristic

__all__ = ["OPTION_POLICIES", "Film", "film_difficulties"]

OPTION_POLICIES: Mapping[str, str] = {
    "never": N_("no option, ever"),
    "surpass": N_("every roller Se Surpasse from the Difficulty set"),
    "sacrifice": N_("the first roller Se Sacrifie from the Difficulty set"),
}
"""The option policies compared, each a row of the result (S-M5)."""

Group = Literal["one", "together"]
Failure = Literal["wound", "kill_one"]

GROUP_POLICIES: Mapping[str, str] = {
    "one": N_("one living Protagoniste rolls each Test, in turn"),
    "together": N_("every living Protagoniste cooperates on each Test (S-M6)"),
}
FAILURE_POLICIES: Mapping[str, str] = {
    "wound": N_("a failed Test wounds each roller; the Réalisateur kills at 0 Santé"),
    "kill_one": N_("a failed Test: the Réalisateur kills the first roller"),
}
SURVIVORS = (
    N_("nobody survives"),
    N_("1 survives"),
    N_("2 survive"),
    N_("3 survive"),
    N_("4 survive"),
    N_("5 survive"),
    N_("6 survive"),
    N_("7 survive"),
    N_("8 survive"),
)
"""The label of the column of ``k`` survivors, 0 to 8 (the most Protagonistes a film takes)."""
KINDS = tuple(Characteristic)
"""The Caractéristique of the film's Test number ``n`` is ``KINDS[n % len(KINDS)]``."""
MAX_STEPS_KEPT = 100_000
"""Most planned Tests a film's trial keeps (a few hundred in the films measured)."""
FREE = Price(0, False)
"""The price of an Action with no option: nothing."""
EXPERTISE = "Survivre"
"""The Expertise every Protagoniste lists when ``expertise`` is on (it matches every Test)."""


def film_difficulties(text: str, tests: int) -> tuple[int, ...]:
    """The Difficulty of each of the film's ``tests`` Tests, the text's repeated in order.

    Args:
        text: whole numbers 1 to 20 separated by commas or spaces (``1,2,3,4``).
        tests: 1 or more.

    Raises:
        InputError: no Difficulty, or one that is not a whole number 1 to 20 (S-A4: a
            Difficulty of 0 or less is a trivial Action, never rolled).
    """
    values = []
    for piece in text.replace(",", " ").split():
        value = read_whole(piece, negative=False)
        if value is None or not 1 <= value <= 20:
            raise InputError(
                N_("{value!r} is not a Difficulty of 1 to 20 (rules S-M2, S-A4)"), value=piece
            )
        values.append(value)
    if not values:
        raise InputError(N_("give at least one Difficulty (rule S-M2)"))
    return tuple(values[i % len(values)] for i in range(tests))


Step = tuple[tuple[str, Sampler[bool], Price], ...]
"""One Test of a film, planned: each roller's name, the draw of their Test's success, and
the price of their Action."""


@lru_cache(maxsize=4096)
def success_sampler(test: Test, options: ShsOptions) -> Sampler[bool]:
    """The draw of a Test's success from its exact distribution (`success_distribution`).

    The distribution is the one the table shows before a roll, tested equal to the Test as
    play resolves it over every roll (S-M2); it is computed once per Test and options in a
    process.
    """
    return Sampler(success_distribution(test, options))


@dataclass(frozen=True)
class _FilmTrial:
    """One trial: the film played once per option policy (picklable, for the workers).

    ``steps`` keeps each planned Test (`Step`) by what planning reads (the option policy,
    the Caractéristique and Difficulty, the rollers as they stand): within a film the
    table's clock and options never change, so the same key plans the same Tests.
    """

    start: ShsState
    difficulties: tuple[int, ...]
    group: str
    failure: str
    damage: int
    expertise: bool
    option_from: int
    steps: dict[tuple[object, ...], Step] = field(default_factory=dict, compare=False, repr=False)

    def trial(self, chance: SamplingChance, tally: Tally) -> None:
        for policy in OPTION_POLICIES:
            self._film(policy, chance, tally)

    def _planned(
        self, policy: str, number: int, difficulty: int, rollers: list[Protagonist]
    ) -> Step:
        """Plan one Test for ``rollers`` as the table would (`plan_test`, `Cooperation`)."""
        hard = difficulty >= self.option_from
        expertise = EXPERTISE if self.expertise else None
        attempts = [
            Attempt(
                hero.name,
                KINDS[number % len(KINDS)],
                difficulty,
                expertise,
                surpass=policy == "surpass" and hard,
                sacrifice=policy == "sacrifice" and hard and i == 0,
            )
            for i, hero in enumerate(rollers)
        ]
        state = replace(self.start, protagonists={h.name: h for h in rollers})
        options = state.options
        tests = [plan_test(state, attempt) for attempt in attempts]
        if len(tests) > 1:  # each cooperator's Test with the cooperation's Bonus 1 (S-M6)
            tests = list(Cooperation(tuple(tests)).tests(options))
        return tuple(
            (hero.name, success_sampler(test, options), price_of(test.action))
            for hero, test in zip(rollers, tests, strict=True)
        )

    def _film(self, policy: str, chance: SamplingChance, tally: Tally) -> None:
        heroes = dict(self.start.protagonists)
        steps = self.steps
        turn, passed = 0, 0
        for number, difficulty in enumerate(self.difficulties):
            alive = [p for p in heroes.values() if p.alive]
            if not alive:
                break
            if self.group == "one" or len(alive) == 1:
                rollers = [alive[turn % len(alive)]]
                turn += 1
            else:
                rollers = alive
            key = (policy, number % len(KINDS), difficulty, *rollers)
            step = steps.get(key)
            if step is None:
                if len(steps) >= MAX_STEPS_KEPT:
                    steps.clear()  # a bound on memory; planning again costs only time
                step = steps[key] = self._planned(policy, number, difficulty, rollers)
            successes = [sampler.draw(chance) for _, sampler, _ in step]
            success = successes[0] if len(successes) == 1 else group_succeeds(successes)
            if any(price is not FREE for _, _, price in step):
                heroes = paid(heroes, [(name, price) for name, _, price in step])
            if success:
                passed += 1
                continue
            if self.failure == "kill_one":
                first = heroes[step[0][0]]
                if first.alive:
                    heroes[first.name] = kill(first)
                continue
            for name, _, _ in step:
                hero = heroes[name]
                if not hero.alive:
                    continue  # Se Sacrifier's death
                hero = adjust_counter(hero, "sante", -self.damage)
                heroes[name] = kill(hero) if hero.sante == 0 else hero
        survivors = sum(1 for p in heroes.values() if p.alive)
        tally.count(f"{policy}:survivors={survivors}")
        tally.add(f"{policy}:survivors", survivors)
        tally.add(f"{policy}:passed", passed)
        if passed == len(self.difficulties):
            tally.count(f"{policy}:all_passed")


@dataclass(frozen=True)
class Film(Question):
    """Survivors of a film of Tests, for each option policy (never, Se Surpasser, Se Sacrifier).

    Rows: one per option policy (`OPTION_POLICIES`). Measures (each an estimate with its 95%
    interval, a film being one trial): the chance that 0, 1, ... ``protagonists``
    Protagonistes survive, the mean number of survivors, the mean number of Tests passed and
    the chance that every Test is passed. Every Protagoniste has the same threshold in
    every Caractéristique; with ``expertise`` each lists an Expertise that matches every
    Test (3D10, S-A1).

    Raises (from `answer`):
        InputError: a Difficulty that is not 1 to 20.

    Source: seed 003; S-M2, S-M5, S-M6, S-A8, S-A14; Tablée's S-X6 (the cost of a failed
    Test in the lab).
    """

    name: ClassVar[str] = "film"
    title: ClassVar[str] = N_("Survivors of a film of Tests")
    game: ClassVar[str] = "shs"
    rule: ClassVar[str] = "S-X6"
    simulated: ClassVar[bool] = True

    protagonists: Annotated[int, Param(N_("Protagonistes at the start"), low=1, high=8)] = 4
    threshold: Annotated[
        int, Param(N_("every Caractéristique's threshold"), low=5, high=8, rule="S-M9")
    ] = 6
    expertise: Annotated[bool, Param(N_("an Expertise matches every Test (3D10)"), rule="S-A1")] = (
        False
    )
    tests: Annotated[int, Param(N_("Tests in the film"), low=1, high=40)] = 8
    difficulties: Annotated[
        str,
        Param(
            N_("the Tests' Difficulties, in order, repeated"),
            placeholder="1,2,2,3",
            max_length=200,
            rule="S-M2",
        ),
    ] = "1,2,2,3"
    group: Annotated[
        Group,
        Param(N_("who faces each Test"), option_labels=tuple(GROUP_POLICIES.items())),
    ] = "together"
    option_from: Annotated[
        int, Param(N_("the lowest Difficulty for which an option is used"), low=1, high=20)
    ] = 3
    failure: Annotated[
        Failure,
        Param(
            N_("what a failed Test costs (the Réalisateur's call)"),
            option_labels=tuple(FAILURE_POLICIES.items()),
            rule="S-X6",
        ),
    ] = "wound"
    damage: Annotated[
        int, Param(N_("Santé a failed Test takes from each roller"), low=1, high=12, rule="S-X6")
    ] = 4
    trials: Annotated[int, Param(N_("films simulated per policy"), low=1, high=50_000)] = 2000
    seed: Seed = 1

    def cast(self) -> ShsState:
        """The table at the film's start: the Protagonistes created by the rules (S-N1)."""
        state = ShsState()
        t = self.threshold
        for i in range(1, self.protagonists + 1):
            state = decide_create(
                state,
                name=f"P{i}",
                carrure=t,
                motricite=t,
                science=t,
                relationnel=t,
                sang_froid=t,
                expertises=(EXPERTISE,) if self.expertise else (),
            ).after
        return state

    def policies(self) -> tuple[Policy, ...]:
        """Every policy the simulated choices follow, with its settings."""
        return (
            *(
                Policy(name, label, {"option_from": self.option_from} if name != "never" else {})
                for name, label in OPTION_POLICIES.items()
            ),
            Policy(f"group:{self.group}", GROUP_POLICIES[self.group]),
            Policy(
                f"failure:{self.failure}",
                FAILURE_POLICIES[self.failure],
                {"damage": self.damage} if self.failure == "wound" else {},
            ),
        )

    def lone_survival(self, policy: str, difficulties: tuple[int, ...]) -> Fraction | None:
        """The exact chance that a lone Protagoniste survives, when the film allows one.

        With one Protagoniste and ``failure=kill_one`` the film is a chain of Tests the
        Protagoniste lives through only by passing every one (and never Se Sacrifiant):
        the product of the Tests' exact chances (`success_probability`, S-M2). None for
        any other film.
        """
        if self.protagonists != 1 or self.failure != "kill_one":
            return None
        if policy == "sacrifice" and max(difficulties) >= self.option_from:
            return Fraction(0)
        state, chance = self.cast(), Fraction(1)
        for number, difficulty in enumerate(difficulties):
            attempt = Attempt(
                "P1",
                tuple(Characteristic)[number % len(Characteristic)],
                difficulty,
                EXPERTISE if self.expertise else None,
                surpass=policy == "surpass" and difficulty >= self.option_from,
            )
            chance *= success_probability(plan_test(state, attempt), state.options)
        return chance

    def answer(self, context: LabContext) -> LabResult:
        """Simulate ``trials`` films per option policy (see the class)."""
        difficulties = film_difficulties(self.difficulties, self.tests)
        simulation = _FilmTrial(
            self.cast(),
            difficulties,
            self.group,
            self.failure,
            self.damage,
            self.expertise,
            self.option_from,
        )
        run = run_simulation(
            simulation, self.trials, self.seed, workers=context.workers, progress=context.progress
        )
        tally = run.tally
        rows: list[dict[str, Cell]] = []
        for policy in OPTION_POLICIES:
            row: dict[str, Cell] = {"option": policy}
            lone = self.lone_survival(policy, difficulties)
            for k in range(self.protagonists + 1):
                exact = None if lone is None else (lone if k == 1 else 1 - lone)
                row[f"p_{k}"] = tally.proportion(f"{policy}:survivors={k}", exact=exact)
            row["survivors"] = tally.mean(f"{policy}:survivors", lone)
            row["passed"] = tally.mean(f"{policy}:passed")
            row["p_all_passed"] = tally.proportion(f"{policy}:all_passed")
            rows.append(row)
        columns = (
            Column("option", N_("option policy"), "input"),
            *(Column(f"p_{k}", SURVIVORS[k], percent=True) for k in range(self.protagonists + 1)),
            Column("survivors", N_("mean survivors")),
            Column("passed", N_("mean Tests passed")),
            Column("p_all_passed", N_("every Test passed"), percent=True),
        )
        charts = (
            Chart("bars", N_("Mean survivors by option policy"), x="option", value="survivors"),
            Chart("bars", N_("Every Test passed"), x="option", value="p_all_passed"),
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            policies=self.policies(),
            notes=(
                N_("The text has no damage rules: a failed Test's cost is a lab policy (S-X6)."),
            ),
            run=run,
        )
