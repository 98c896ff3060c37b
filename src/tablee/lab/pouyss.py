"""Pouyss in the lab: exact levels, successes and opposed rolls across bonus and malus dice.

Source: seed 000 ("Effet des bonus", "Effet des malus", "Jets comparatifs"); rulings P-M1,
P-M8, P-A10, P-A11.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, ClassVar, Literal

from tablee.errors import N_
from tablee.lab.questions import LabContext, Question
from tablee.lab.results import Cell, Chart, Column, LabResult
from tablee.systems.declare import Param
from tablee.systems.pouyss.actions import ActionRoll, OpposedRoll
from tablee.systems.pouyss.levels import Level
from tablee.systems.pouyss.odds import (
    action_distribution,
    opposed_distribution,
    passive_distribution,
)

__all__ = ["Levels", "Opposed", "Success"]


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
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
        )


_THRESHOLDS = tuple(range(1, 7))


@dataclass(frozen=True)
class Success(Question):
    """The exact chance of a success for each success threshold, over bonus and malus dice.

    Rows: one per ``(threshold, bonus, malus)``: every threshold 1 to 6 when ``compare`` is
    ``success_threshold`` (the house rule of P-A10, side by side), else ``threshold`` alone;
    ``0 <= bonus <= max_bonus``, ``0 <= malus <= max_malus``. Measures: the chance of a
    value of ``threshold`` or more (`action_distribution`) and of a Triomphe.

    Source: seed 000; rulings P-M1, P-A10 (the success threshold, option
    ``success_threshold``).
    """

    name: ClassVar[str] = "success"
    title: ClassVar[str] = N_("Success over bonus and malus dice, by threshold")
    game: ClassVar[str] = "pouyss"
    rule: ClassVar[str] = "P-A10"

    max_bonus: Annotated[int, Param(N_("most bonus dice shown"), low=0, high=12)] = 5
    max_malus: Annotated[int, Param(N_("most malus dice shown"), low=0, high=12)] = 5
    threshold: Annotated[
        int, Param(N_("lowest die value that succeeds"), low=1, high=6, rule="P-A10")
    ] = 4
    compare: Annotated[
        Literal["none", "success_threshold"],
        Param(
            N_("house rule shown side by side: none, or every success threshold 1 to 6"),
            rule="P-A10",
        ),
    ] = "success_threshold"

    def answer(self, context: LabContext) -> LabResult:
        """Every ``(threshold, bonus, malus)`` row, exact."""
        thresholds = _THRESHOLDS if self.compare == "success_threshold" else (self.threshold,)
        rows: list[dict[str, Cell]] = []
        for threshold in thresholds:
            for bonus in range(self.max_bonus + 1):
                for malus in range(self.max_malus + 1):
                    dist = action_distribution(ActionRoll(bonus=bonus, malus=malus))
                    rows.append(
                        {
                            "threshold": threshold,
                            "bonus": bonus,
                            "malus": malus,
                            "p_success": sum(
                                (p for v, p in dist.items() if Level(v).is_success(threshold)),
                                Fraction(0),
                            ),
                            "p_triomphe": dist.probability(Level.TRIOMPHE.value),
                        }
                    )
        columns = (
            Column("threshold", N_("success threshold"), "input"),
            Column("bonus", N_("bonus dice"), "input"),
            Column("malus", N_("malus dice"), "input"),
            Column("p_success", N_("success"), percent=True),
            Column("p_triomphe", "Triomphe", percent=True),
        )
        charts = (
            Chart(
                "lines",
                N_("Chance of a success over bonus dice (no malus)"),
                x="bonus",
                value="p_success",
                series="threshold",
                where={"malus": 0},
            ),
            Chart(
                "lines",
                N_("Chance of a success over malus dice (no bonus)"),
                x="malus",
                value="p_success",
                series="threshold",
                where={"bonus": 0},
            ),
            Chart(
                "heatmap",
                N_("Chance of a success, threshold {threshold}"),
                x="bonus",
                y="malus",
                value="p_success",
                where={"threshold": self.threshold},
            ),
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            notes=(
                N_(
                    "The success threshold is a house rule (success_threshold, P-A10): "
                    "each threshold is drawn as its own line."
                ),
            ),
        )


@dataclass(frozen=True)
class Opposed(Question):
    """The exact odds of an opposed roll, over the active and the passive side's bonus dice.

    Rows: one per ``(active_bonus, passive_bonus)``, each 0 to ``max_bonus``, with the
    active and passive malus dice given. The passive side's bonus dice are malus dice on the
    roll and its malus dice are bonus dice (P-M8); the passive side reads ``7 - value``
    (P-A11). Measures: each side's chance of a value of ``threshold`` or more
    (`opposed_distribution`, `passive_distribution`), the active side's Triomphe and
    Désastre.

    Source: seed 000, "Jets comparatifs"; rulings P-M8, P-A10, P-A11.
    """

    name: ClassVar[str] = "opposed"
    title: ClassVar[str] = N_("Opposed rolls over both sides' bonus dice")
    game: ClassVar[str] = "pouyss"
    rule: ClassVar[str] = "P-M8"

    max_bonus: Annotated[int, Param(N_("most bonus dice of each side"), low=0, high=12)] = 4
    active_malus: Annotated[int, Param(N_("the active side's malus dice"), low=0, high=12)] = 0
    passive_malus: Annotated[int, Param(N_("the passive side's malus dice"), low=0, high=12)] = 0
    threshold: Annotated[
        int, Param(N_("lowest die value that succeeds"), low=1, high=6, rule="P-A10")
    ] = 4

    def answer(self, context: LabContext) -> LabResult:
        """Every ``(active_bonus, passive_bonus)`` row, exact."""
        rows: list[dict[str, Cell]] = []
        for active in range(self.max_bonus + 1):
            for passive in range(self.max_bonus + 1):
                roll = OpposedRoll(active, self.active_malus, passive, self.passive_malus)
                mine = opposed_distribution(roll)
                theirs = passive_distribution(roll)
                rows.append(
                    {
                        "active_bonus": active,
                        "passive_bonus": passive,
                        "p_active_success": mine.probability_where(
                            lambda v: Level(v).is_success(self.threshold)
                        ),
                        "p_passive_success": theirs.probability_where(
                            lambda v: Level(v).is_success(self.threshold)
                        ),
                        "p_triomphe": mine.probability(Level.TRIOMPHE.value),
                        "p_desastre": mine.probability(Level.DESASTRE.value),
                    }
                )
        columns = (
            Column("active_bonus", N_("active side's bonus dice"), "input"),
            Column("passive_bonus", N_("passive side's bonus dice"), "input"),
            Column("p_active_success", N_("active side succeeds"), percent=True),
            Column("p_passive_success", N_("passive side succeeds"), percent=True),
            Column("p_triomphe", N_("active Triomphe"), percent=True),
            Column("p_desastre", N_("active Désastre"), percent=True),
        )
        charts = (
            Chart(
                "heatmap",
                N_("Chance the active side succeeds"),
                x="active_bonus",
                y="passive_bonus",
                value="p_active_success",
            ),
            Chart(
                "lines",
                N_("Chance the active side succeeds over its bonus dice"),
                x="active_bonus",
                value="p_active_success",
                series="passive_bonus",
            ),
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
        )
