"""Space Horror Stories in the lab: exact Tests, opposed Actions and cooperation.

Every figure comes from the game's exact odds (`tablee.systems.shs.odds`), themselves the
rule code driven over every roll (or its tested accelerator). House rules compared side by
side are `Variant` s: each variant's rows carry its name in the ``variant`` column, drawn as
one series.

Source: seed 003, "Résoudre les Actions", "Bonus et Malus", "Options", "Coopération",
"Protagoniste contre Protagoniste"; rulings S-M2 to S-M6, S-A1, S-A3, S-A5, S-A7, S-A13,
S-X4.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Annotated, Any, ClassVar, Literal, cast

from tablee.dice import Distribution
from tablee.errors import N_
from tablee.lab.questions import LabContext, Question
from tablee.lab.results import Cell, Chart, Column, LabResult, Variant
from tablee.systems.declare import Param
from tablee.systems.shs.actions import ActionRoll
from tablee.systems.shs.difficulty import Test
from tablee.systems.shs.odds import (
    cooperation_odds,
    opposed_odds,
    ps_distribution,
    success_probability,
)
from tablee.systems.shs.opposed import OpposedAction, Side, net_across
from tablee.systems.shs.options import ShsOptions
from tablee.systems.shs.situations import Cooperation

__all__ = ["Cooperate", "Ladder", "Opposed"]

THRESHOLDS = (5, 6, 7, 8)
"""The Caractéristique thresholds, best first (S-M9)."""
CHART_THRESHOLD = 6
"""The threshold of the charts that show one slice (6+, Bon)."""
FAN_DPM_CAP = 5
"""The D+/- cap a fan sheet uses, compared with no cap under ``compare = dpm_cap`` (S-A13)."""

_OPTION_FLAGS: Mapping[str, tuple[bool, bool]] = {
    "none": (False, False),
    "se_surpasser": (True, False),
    "se_sacrifier": (False, True),
}
"""Each option's ``(surpass, sacrifice)`` flags (S-M5)."""

_VARIANTS: Mapping[str, tuple[Variant, ...]] = {
    "option_bonus": (
        Variant(
            "net", N_("the option's 2 D+/- netted with the modifiers"), {"option_bonus": "net"}
        ),
        Variant("apart", N_("the option's 2 D+/- rolled on their own"), {"option_bonus": "apart"}),
    ),
    "dpm_cap": (
        Variant("no_cap", N_("no cap on D+/- dice"), {"dpm_cap": None}),
        Variant("cap_5", N_("at most 5 D+/- dice"), {"dpm_cap": FAN_DPM_CAP}),
    ),
    "opposed_tie": (
        Variant(
            "status_quo", N_("a tie: the side seeking change fails"), {"opposed_tie": "status_quo"}
        ),
        Variant("reroll", N_("a tie: roll again"), {"opposed_tie": "reroll"}),
    ),
    "negative_ps": (
        Variant("signed", N_("a total below 0 PS kept as it is"), {"negative_ps": "signed"}),
        Variant("zero", N_("a total below 0 PS counts as 0"), {"negative_ps": "zero"}),
    ),
    "opposed_modifiers": (
        Variant("apart", N_("each side nets its own modifiers"), {"opposed_modifiers": "apart"}),
        Variant(
            "difference",
            N_("the difference of the modifiers goes to one side"),
            {"opposed_modifiers": "difference"},
        ),
    ),
}
"""The readings each ``compare`` value sets side by side."""


def _variants(compare: str, base: ShsOptions) -> tuple[tuple[Variant, ShsOptions], ...]:
    """The compared variants with the options each runs under (the base for ``none``)."""
    if compare == "none":
        return ((Variant("table", N_("the options given")), base),)
    return tuple((v, replace(base, **cast(dict[str, Any], v.options))) for v in _VARIANTS[compare])


def _mean(dist: Distribution[int]) -> Fraction:
    """The mean of an integer distribution."""
    return Fraction(sum(k * w for k, w in dist.weights.items()), dist.total)


def _pin(
    where: dict[str, object], variants: Sequence[tuple[Variant, ShsOptions]]
) -> dict[str, object]:
    """``where`` with the first variant pinned when several are compared."""
    return {**where, "variant": variants[0][0].name} if len(variants) > 1 else where


def _split(modifier: int) -> tuple[int, int]:
    """A signed net modifier as ``(bonus, malus)``."""
    return max(modifier, 0), max(-modifier, 0)


@dataclass(frozen=True)
class Ladder(Question):
    """The difficulty ladder: a Test's exact chance over threshold, Difficulty and modifier.

    Rows: one per ``(variant, option, die, threshold, modifier, difficulty)``: every
    threshold 5 to 8, D8 and D10 (without and with an Expertise), net modifiers
    ``-max_modifier`` (a Malus) to ``+max_modifier`` (a Bonus), Difficulties 1 to
    ``max_difficulty``, the options asked for, and each compared reading. Measures: the
    chance of success (`success_probability`) and the mean PS (`ps_distribution`).

    Source: seed 003; rulings S-M2, S-M3, S-M5, S-A1, S-A2, S-A7 (``option_bonus``), S-A13
    (``dpm_cap``).
    """

    name: ClassVar[str] = "ladder"
    title: ClassVar[str] = N_("Tests over threshold, Difficulty and modifier")
    game: ClassVar[str] = "shs"
    rule: ClassVar[str] = "S-M2"

    max_difficulty: Annotated[
        int, Param(N_("highest Difficulty shown"), low=1, high=8, rule="S-A4")
    ] = 4
    max_modifier: Annotated[
        int, Param(N_("largest net Bonus and Malus shown"), low=0, high=10, rule="S-M3")
    ] = 3
    option: Annotated[
        Literal["none", "se_surpasser", "se_sacrifier", "each"],
        Param(N_("the option used: none, se_surpasser, se_sacrifier or each of them"), rule="S-M5"),
    ] = "each"
    action_dice: Annotated[
        int,
        Param(N_("action dice per Action (house rule action_dice)"), low=1, high=10, rule="S-A1"),
    ] = 3
    option_bonus: Annotated[
        Literal["net", "apart"],
        Param(N_("the option's 2 D+/-: net or apart (house rule option_bonus)"), rule="S-A7"),
    ] = "net"
    compare: Annotated[
        Literal["none", "option_bonus", "dpm_cap"],
        Param(
            N_(
                "house rule shown side by side: none, option_bonus (net and apart) or dpm_cap "
                "(no cap and 5)"
            ),
            rule="S-A7",
        ),
    ] = "option_bonus"

    def answer(self, context: LabContext) -> LabResult:
        """Every row, exact."""
        base = ShsOptions(action_dice=self.action_dice, option_bonus=self.option_bonus)
        variants = _variants(self.compare, base)
        options = tuple(_OPTION_FLAGS) if self.option == "each" else (self.option,)
        compared = len(variants) > 1
        rows: list[dict[str, Cell]] = []
        for variant, table in variants:
            for option in options:
                surpass, sacrifice = _OPTION_FLAGS[option]
                for expertise in (False, True):
                    for threshold in THRESHOLDS:
                        for modifier in range(-self.max_modifier, self.max_modifier + 1):
                            bonus, malus = _split(modifier)
                            roll = ActionRoll(
                                threshold, expertise, bonus, malus, surpass, sacrifice
                            )
                            mean = _mean(ps_distribution(roll, table))
                            for difficulty in range(1, self.max_difficulty + 1):
                                test = Test(
                                    threshold,
                                    difficulty,
                                    expertise=expertise,
                                    bonus=bonus,
                                    malus=malus,
                                    surpass=surpass,
                                    sacrifice=sacrifice,
                                )
                                row: dict[str, Cell] = {"variant": variant.name} if compared else {}
                                row |= {
                                    "option": option,
                                    "die": roll.die.name.upper(),
                                    "threshold": threshold,
                                    "modifier": modifier,
                                    "difficulty": difficulty,
                                    "p_success": success_probability(test, table),
                                    "mean_ps": mean,
                                }
                                rows.append(row)
        columns = (
            *((Column("variant", N_("house rule"), "input"),) if compared else ()),
            Column("option", N_("option"), "input"),
            Column("die", N_("action die"), "input"),
            Column("threshold", N_("threshold"), "input"),
            Column("modifier", N_("net modifier"), "input"),
            Column("difficulty", N_("Difficulty"), "input"),
            Column("p_success", N_("success"), percent=True),
            Column("mean_ps", N_("mean PS")),
        )
        first = options[0]
        low = min(2, self.max_difficulty)
        charts: list[Chart] = [
            Chart(
                "heatmap",
                N_("Chance of success with {die}, no modifier"),
                x="difficulty",
                y="threshold",
                value="p_success",
                where=_pin({"die": die, "option": first, "modifier": 0}, variants),
            )
            for die in ("D8", "D10")
        ]
        charts.append(
            Chart(
                "heatmap",
                N_("Chance of success with {die}, threshold {threshold}"),
                x="modifier",
                y="difficulty",
                value="p_success",
                where=_pin({"die": "D8", "option": first, "threshold": CHART_THRESHOLD}, variants),
            )
        )
        charts.append(
            Chart(
                "lines",
                N_("Chance of success over the net modifier, {die}, threshold {threshold}"),
                x="modifier",
                value="p_success",
                series="difficulty",
                where=_pin({"die": "D8", "option": first, "threshold": CHART_THRESHOLD}, variants),
            )
        )
        if len(options) > 1:
            charts.append(
                Chart(
                    "lines",
                    N_("Each option, {die}, threshold {threshold}, Difficulty {difficulty}"),
                    x="modifier",
                    value="p_success",
                    series="option",
                    where=_pin(
                        {"die": "D8", "threshold": CHART_THRESHOLD, "difficulty": low}, variants
                    ),
                )
            )
        if compared:
            shown = "se_surpasser" if "se_surpasser" in options else first
            charts.append(
                Chart(
                    "lines",
                    N_(
                        "House rules side by side, {option}, {die}, threshold {threshold}, "
                        "Difficulty {difficulty}"
                    ),
                    x="modifier",
                    value="p_success",
                    series="variant",
                    where={
                        "die": "D8",
                        "option": shown,
                        "threshold": CHART_THRESHOLD,
                        "difficulty": low,
                    },
                )
            )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            variants=tuple(v for v, _ in variants) if compared else (),
            notes=(N_("A negative net modifier is a Malus, a positive one a Bonus (S-M3)."),),
        )


@dataclass(frozen=True)
class Opposed(Question):
    """Two Protagonistes opposed: who prevails, over both thresholds and the first's modifier.

    Rows: one per ``(variant, first_threshold, second_threshold, modifier)``, each threshold
    5 to 8, the first side's net modifier ``-max_modifier`` to ``+max_modifier`` (the second
    side has none); the sides' modifiers are netted as the table's option says
    (`net_across`, S-X4). Measures (`opposed_odds`): the chance each side prevails (a win on
    PS, or holding the situation on a tie), of a tie, and the mean PS margin.

    Source: seed 003, "Protagoniste contre Protagoniste"; rulings S-M3, S-M4, S-A3
    (``negative_ps``), S-A5 (``opposed_tie``), S-X4 (``opposed_modifiers``).
    """

    name: ClassVar[str] = "opposed"
    title: ClassVar[str] = N_("Opposed Actions over both thresholds")
    game: ClassVar[str] = "shs"
    rule: ClassVar[str] = "S-M4"

    max_modifier: Annotated[
        int, Param(N_("largest net Bonus and Malus of the first side"), low=0, high=10, rule="S-M3")
    ] = 3
    first_expertise: Annotated[bool, Param(N_("the first side has an Expertise (D10)"))] = False
    second_expertise: Annotated[bool, Param(N_("the second side has an Expertise (D10)"))] = False
    changer: Annotated[
        Literal["first", "second", "none"],
        Param(N_("the side seeking change: first, second or none (ties)"), rule="S-A5"),
    ] = "first"
    compare: Annotated[
        Literal["none", "opposed_tie", "negative_ps", "opposed_modifiers"],
        Param(
            N_(
                "house rule shown side by side: none, opposed_tie, negative_ps or opposed_modifiers"
            ),
            rule="S-A5",
        ),
    ] = "negative_ps"

    def answer(self, context: LabContext) -> LabResult:
        """Every row, exact."""
        variants = _variants(self.compare, ShsOptions())
        compared = len(variants) > 1
        changer = None if self.changer == "none" else Side(self.changer)
        rows: list[dict[str, Cell]] = []
        for variant, table in variants:
            for one in THRESHOLDS:
                for two in THRESHOLDS:
                    for modifier in range(-self.max_modifier, self.max_modifier + 1):
                        bonus, malus = _split(modifier)
                        first = ActionRoll(one, self.first_expertise, bonus, malus)
                        second = ActionRoll(two, self.second_expertise)
                        action = OpposedAction(*net_across(first, second, table), changer)
                        odds = opposed_odds(action, table)
                        row: dict[str, Cell] = {"variant": variant.name} if compared else {}
                        row |= {
                            "first_threshold": one,
                            "second_threshold": two,
                            "modifier": modifier,
                            "p_first": odds.prevails("first"),
                            "p_second": odds.prevails("second"),
                            "p_tie": odds.outcomes.probability_where(lambda o: o.tie),
                            "mean_margin": _mean(odds.margin),
                        }
                        rows.append(row)
        columns = (
            *((Column("variant", N_("house rule"), "input"),) if compared else ()),
            Column("first_threshold", N_("first side's threshold"), "input"),
            Column("second_threshold", N_("second side's threshold"), "input"),
            Column("modifier", N_("first side's net modifier"), "input"),
            Column("p_first", N_("first side prevails"), percent=True),
            Column("p_second", N_("second side prevails"), percent=True),
            Column("p_tie", N_("equal PS"), percent=True),
            Column("mean_margin", N_("mean PS margin (first minus second)")),
        )
        charts = [
            Chart(
                "heatmap",
                N_("Chance the first side prevails, no modifier"),
                x="first_threshold",
                y="second_threshold",
                value="p_first",
                where=_pin({"modifier": 0}, variants),
            ),
            Chart(
                "lines",
                N_("Chance the first side prevails over its modifier, both at {first_threshold}"),
                x="modifier",
                value="p_first",
                series="variant" if compared else "",
                where={"first_threshold": CHART_THRESHOLD, "second_threshold": CHART_THRESHOLD},
            ),
            Chart(
                "lines",
                N_(
                    "Chance the second side prevails over the first's modifier, both at "
                    "{first_threshold}"
                ),
                x="modifier",
                value="p_second",
                series="variant" if compared else "",
                where={"first_threshold": CHART_THRESHOLD, "second_threshold": CHART_THRESHOLD},
            ),
        ]
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            variants=tuple(v for v, _ in variants) if compared else (),
            notes=(
                N_(
                    "Equal PS is a tie. When one side seeks change it fails on a tie (S-A5), "
                    "so a tie is also counted as the other side prevailing; when neither side "
                    "seeks change, a tie is neither side's."
                ),
                N_(
                    "With signed totals (S-A3) a Malus of one side moves the margin as the "
                    "same Bonus of the other does: the two readings of opposed_modifiers "
                    "give the same chances."
                ),
            ),
        )


@dataclass(frozen=True)
class Cooperate(Question):
    """Cooperation: the group's exact chance over the number of cooperators, threshold, Difficulty.

    Rows: one per ``(members, threshold, difficulty)``; ``members`` 1 is one Protagoniste
    alone, without the cooperation's Bonus 1 (the baseline); 2 to ``max_members``
    cooperate, each with the same threshold, Expertise and option, each with Bonus 1, and
    the group succeeds when at least one reaches the Difficulty (`cooperation_odds`).
    Measures: the group's chance and the mean number of members who reach it.

    Source: seed 003, "Coopération"; rulings S-M6, S-A14, S-T5.
    """

    name: ClassVar[str] = "cooperation"
    title: ClassVar[str] = N_("Cooperation over the number of cooperators")
    game: ClassVar[str] = "shs"
    rule: ClassVar[str] = "S-M6"

    max_members: Annotated[int, Param(N_("most cooperators shown"), low=2, high=6, rule="S-M6")] = 4
    max_difficulty: Annotated[
        int, Param(N_("highest Difficulty shown"), low=1, high=8, rule="S-A4")
    ] = 4
    expertise: Annotated[bool, Param(N_("every cooperator has an Expertise (D10)"))] = False
    option: Annotated[
        Literal["none", "se_surpasser", "se_sacrifier"],
        Param(N_("the option every cooperator uses"), rule="S-A14"),
    ] = "none"

    def answer(self, context: LabContext) -> LabResult:
        """Every row, exact."""
        surpass, sacrifice = _OPTION_FLAGS[self.option]
        rows: list[dict[str, Cell]] = []
        for members in range(1, self.max_members + 1):
            for threshold in THRESHOLDS:
                for difficulty in range(1, self.max_difficulty + 1):
                    test = Test(
                        threshold,
                        difficulty,
                        expertise=self.expertise,
                        surpass=surpass,
                        sacrifice=sacrifice,
                    )
                    if members == 1:
                        p = success_probability(test)
                        mean = p
                    else:
                        odds = cooperation_odds(Cooperation((test,) * members))
                        p, mean = odds.group, _mean(odds.successes)
                    rows.append(
                        {
                            "members": members,
                            "threshold": threshold,
                            "difficulty": difficulty,
                            "p_group": p,
                            "mean_successes": mean,
                        }
                    )
        columns = (
            Column("members", N_("cooperators (1: alone)"), "input"),
            Column("threshold", N_("threshold"), "input"),
            Column("difficulty", N_("Difficulty"), "input"),
            Column("p_group", N_("the group succeeds"), percent=True),
            Column("mean_successes", N_("mean members reaching the Difficulty")),
        )
        charts = (
            Chart(
                "lines",
                N_("Chance the group succeeds, Difficulty {difficulty}"),
                x="members",
                value="p_group",
                series="threshold",
                where={"difficulty": min(2, self.max_difficulty)},
            ),
            Chart(
                "heatmap",
                N_("Chance the group succeeds, threshold {threshold}"),
                x="members",
                y="difficulty",
                value="p_group",
                where={"threshold": CHART_THRESHOLD},
            ),
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
        )
