"""Pouyss in the lab: exact level distributions across bonus and malus dice.

Source: seed 000 ("Effet des bonus", "Effet des malus"); rulings P-M1, P-A10.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, ClassVar

from tablee.errors import N_
from tablee.lab.questions import LabContext, Question
from tablee.lab.results import Cell, Chart, Column, LabResult
from tablee.systems.declare import Param
from tablee.systems.pouyss.actions import ActionRoll
from tablee.systems.pouyss.levels import Level
from tablee.systems.pouyss.odds import action_distribution

__all__ = ["Levels"]


@dataclass(frozen=True)
class Levels(Question):
    """The exact distribution of an action roll's level, for every bonus and malus count.

    Rows: one per ``(bonus, malus)`` with ``0 <= bonus <= max_bonus`` and
    ``0 <= malus <= max_malus``; measures: the probability of each of the six levels, of a
    success (a level of ``threshold`` or more, P-A10) and the mean die value.

    Source: seed 000; rulings P-M1 (the result is the highest die once the malus dice have
    removed the highest), P-A10 (the success threshold).
    """

    name: ClassVar[str] = "levels"
    title: ClassVar[str] = N_("Levels over bonus and malus dice")
    game: ClassVar[str] = "pouyss"
    rule: ClassVar[str] = "P-M1"

    max_bonus: Annotated[int, Param(N_("most bonus dice shown"), low=0, high=12)] = 5
    max_malus: Annotated[int, Param(N_("most malus dice shown"), low=0, high=12)] = 5
    threshold: Annotated[
        int, Param(N_("lowest die value that succeeds"), low=1, high=6, rule="P-A10")
    ] = 4

    def answer(self, context: LabContext) -> LabResult:
        """Every ``(bonus, malus)`` row, exact (a closed form, `action_distribution`)."""
        rows: list[dict[str, Cell]] = []
        for bonus in range(self.max_bonus + 1):
            for malus in range(self.max_malus + 1):
                dist = action_distribution(ActionRoll(bonus=bonus, malus=malus))
                row: dict[str, Cell] = {"bonus": bonus, "malus": malus}
                for level in Level:
                    row[f"p_{level.id}"] = dist.probability(level.value)
                row["p_success"] = dist.probability_where(lambda v: v >= self.threshold)
                row["mean"] = Fraction(sum(v * w for v, w in dist.weights.items()), dist.total)
                rows.append(row)
        columns = (
            Column("bonus", N_("bonus dice"), "input"),
            Column("malus", N_("malus dice"), "input"),
            *(Column(f"p_{level.id}", level.title, percent=True) for level in Level),
            Column("p_success", N_("success"), percent=True),
            Column("mean", N_("mean die value")),
        )
        charts = (
            Chart("heatmap", N_("Chance of a success"), x="bonus", y="malus", value="p_success"),
            Chart("heatmap", N_("Chance of a Triomphe"), x="bonus", y="malus", value="p_triomphe"),
            Chart("heatmap", N_("Chance of a Désastre"), x="bonus", y="malus", value="p_desastre"),
            Chart("lines", N_("Mean die value"), x="bonus", value="mean", series="malus"),
        )
        return LabResult(
            question=self.id,
            title=self.title,
            columns=columns,
            rows=tuple(rows),
            charts=charts,
            inputs={
                "max_bonus": self.max_bonus,
                "max_malus": self.max_malus,
                "threshold": self.threshold,
            },
        )
