"""Lab questions made for the tests of the lab's outputs: a simulated one and a stopped one.

They return fixed estimates (no rules are run): the tests check how any simulated result is
printed, drawn and written, whatever question gives it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, ClassVar

from tablee.errors import N_
from tablee.lab.questions import LabContext, Question
from tablee.lab.results import (
    Cell,
    Chart,
    Column,
    LabResult,
    Policy,
    Variant,
    mean_estimate,
    proportion_estimate,
)
from tablee.systems.declare import Param

SEEN: dict[str, object] = {}
"""What the last run was given (its context's workers)."""


@dataclass(frozen=True)
class Coin(Question):
    """A simulated coin: heads counted over ``trials`` tosses, per house rule and bet."""

    name: ClassVar[str] = "coin"
    title: ClassVar[str] = N_("Coin for the tests")
    game: ClassVar[str] = "pouyss"
    simulated: ClassVar[bool] = True

    trials: Annotated[int, Param(N_("trials"), low=1, high=100_000)] = 100
    seed: Annotated[int, Param(N_("seed"), low=0)] = 7
    stop: Annotated[bool, Param(N_("stop halfway"))] = False

    def answer(self, context: LabContext) -> LabResult:
        """Fixed counts: heads 40, 50, 60 per 100 trials, for the two house rules."""
        SEEN["workers"] = context.workers
        if context.progress is not None:
            context.progress(self.trials, self.trials)
        rows: list[dict[str, Cell]] = []
        for rule in ("literal", "up"):
            for bet in (1, 2, 3):
                heads = (3 + bet) * self.trials // 10
                rows.append(
                    {
                        "rule": rule,
                        "bet": bet,
                        "p_heads": proportion_estimate(heads, self.trials, Fraction(1, 2)),
                        "gain": mean_estimate(bet * heads, bet * bet * heads, self.trials),
                    }
                )
        if self.stop:
            rows = rows[:2]
        return LabResult(
            question=self.id,
            title=self.title,
            columns=(
                Column("rule", N_("house rule"), "input"),
                Column("bet", N_("bet"), "input"),
                Column("p_heads", N_("heads"), percent=True),
                Column("gain", N_("gain")),
            ),
            rows=tuple(rows),
            charts=(
                Chart("lines", N_("Heads"), x="bet", value="p_heads", series="rule"),
                Chart("bars", N_("Gain"), x="bet", value="gain", series="rule"),
            ),
            inputs={"trials": self.trials, "seed": self.seed, "stop": self.stop},
            policies=(Policy("greedy", N_("always bet"), {"at_most": 3}),),
            variants=(Variant("literal", N_("as written"), {}), Variant("up", N_("rounded up"))),
            seed=self.seed,
            trials=self.trials,
            exact=False,
            stopped=self.stop,
            notes=(N_("Made for the tests."),),
        )


@dataclass(frozen=True)
class Typed(Question):
    """A question whose text field's example value holds characters that HTML escapes."""

    name: ClassVar[str] = "typed"
    title: ClassVar[str] = N_("Typed faces for the tests")
    game: ClassVar[str] = "pouyss"

    faces: Annotated[str, Param(N_("faces"), placeholder='1 & <2>, "3" x')] = ""

    def answer(self, context: LabContext) -> LabResult:
        """Never run: only its form is drawn."""
        raise NotImplementedError
