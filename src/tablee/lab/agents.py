"""The agents game in the lab: an action's exact results, and a whole challenge's win chance.

Every figure comes from the game's exact odds (`tablee.systems.agents.odds`: the d6 of an
action driven through the chance protocol, and the challenge's absorbing chain) and, for a
challenge drawn by the scenario generator, from the generator's own d6s
(`challenge_distribution`). The opposition table's readings (``opposition_rows``,
``opposition_rounding``, ``opposition_minimum``) compared side by side are `Variant` s: each
variant's rows carry its name in the ``variant`` column, drawn as one series.

Source: seed ``002_59b03dd224c3b923.txt`` ("Résolution d'action", "Fin du challenge",
"Génération de challenge"); rulings G-M4 to G-M6, G-N2, G-N3, G-A1 to G-A5, G-A20.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, ClassVar, Literal

from tablee.errors import N_, InputError, Message, joined
from tablee.lab.questions import LabContext, Question
from tablee.lab.results import Cell, Chart, Column, LabResult, Variant
from tablee.systems.agents.actions import HIGHEST_MODIFIER, LOWEST_MODIFIER, Result, modifier_range
from tablee.systems.agents.agent import Reserve
from tablee.systems.agents.generator import (
    QUEST_WON_AT,
    ChallengeInputs,
    GeneratorOptions,
    challenge_distribution,
)
from tablee.systems.agents.odds import action_distribution, chain_states, challenge_win_probability
from tablee.systems.declare import Param

__all__ = ["MAX_AGENTS", "MAX_LAB_STATES", "Action", "ChallengeWin", "parse_reserves"]

MAX_AGENTS = 4
"""Most agents in a lab challenge."""
MAX_RESERVE = 9
"""Largest reserve of one agent in a lab challenge."""
MAX_LAB_STATES = 2_000_000
"""Most chain states one `ChallengeWin` table solves, all its chains together."""

_KINDS: Mapping[str, Reserve] = {
    "muscles": Reserve.MUSCLES,
    "sexe": Reserve.SEXE,
    "intelligence": Reserve.INTELLIGENCE,
}


@dataclass(frozen=True)
class Action(Question):
    """An action's exact results over its total modifier, for each challenge type.

    Rows: one per ``(kind, modifier)``, the modifiers each type's checklist can total
    (`modifier_range`: Muscles -2 to +3, Sexe 0 to +2, Intelligence -1 to +1). Measures
    (`action_distribution`): a critical, a success, a failure, a success or better, and the
    mean points the opposition and the agent's reserve lose.

    Source: seed 002, "Résolution d'action"; rulings G-M4, G-N2, G-A5, G-A6.
    """

    name: ClassVar[str] = "action"
    title: ClassVar[str] = N_("An action's results over its modifier")
    game: ClassVar[str] = "agents"
    rule: ClassVar[str] = "G-M4"

    kind: Annotated[
        Literal["each", "muscles", "sexe", "intelligence"],
        Param(N_("the challenge type: muscles, sexe, intelligence, or each"), rule="G-N2"),
    ] = "each"

    def answer(self, context: LabContext) -> LabResult:
        """Every row, exact."""
        kinds = tuple(_KINDS) if self.kind == "each" else (self.kind,)
        rows: list[dict[str, Cell]] = []
        for kind in kinds:
            low, high = modifier_range(_KINDS[kind])
            for modifier in range(low, high + 1):
                dist = action_distribution(modifier)
                rows.append(
                    {
                        "kind": kind,
                        "modifier": modifier,
                        "p_critical": dist.probability(Result.CRITICAL),
                        "p_success": dist.probability(Result.SUCCESS),
                        "p_failure": dist.probability(Result.FAILURE),
                        "p_ahead": 1 - dist.probability(Result.FAILURE),
                        "mean_opposition_loss": sum(
                            (p * r.opposition_loss for r, p in dist.items()), Fraction(0)
                        ),
                        "mean_reserve_loss": sum(
                            (p * r.reserve_loss for r, p in dist.items()), Fraction(0)
                        ),
                    }
                )
        columns = (
            Column("kind", N_("challenge type"), "input"),
            Column("modifier", N_("total modifier"), "input"),
            Column("p_critical", N_("critical"), percent=True),
            Column("p_success", N_("success"), percent=True),
            Column("p_failure", N_("failure"), percent=True),
            Column("p_ahead", N_("success or critical"), percent=True),
            Column("mean_opposition_loss", N_("mean points off the opposition")),
            Column("mean_reserve_loss", N_("mean points off the reserve")),
        )
        charts = (
            Chart(
                "lines",
                N_("Chance of a success or critical over the modifier"),
                x="modifier",
                value="p_ahead",
                series="kind",
            ),
            Chart(
                "lines",
                N_("Chance of a critical over the modifier"),
                x="modifier",
                value="p_critical",
                series="kind",
            ),
            Chart(
                "lines",
                N_("Mean points off the opposition per action"),
                x="modifier",
                value="mean_opposition_loss",
                series="kind",
            ),
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            notes=(N_("A modifier's results are the same in every challenge type (G-M4)."),),
        )


def parse_reserves(text: str) -> tuple[int, ...]:
    """Reserves written ``7,5,3``: 1 to `MAX_AGENTS` whole numbers, each 1 to `MAX_RESERVE`.

    Raises:
        InputError: an empty list, too many agents, or a value that is not a whole number in
            range (the value named).
    """
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not 1 <= len(parts) <= MAX_AGENTS:
        raise InputError(
            N_("give 1 to {maximum} reserves separated by commas, not {value!r}"),
            maximum=MAX_AGENTS,
            value=text,
        )
    reserves = []
    for part in parts:
        if not (part.isascii() and part.isdigit()) or not 1 <= int(part) <= MAX_RESERVE:
            raise InputError(
                N_("reserve {value!r} must be a whole number from 1 to {maximum}"),
                value=part,
                maximum=MAX_RESERVE,
            )
        reserves.append(int(part))
    return tuple(reserves)


_ROWS = {
    "shifted": N_("rows shifted (P <= 0, 1, 2, 3)"),
    "literal": N_("rows as written (P <= 1, 2, 3, 4)"),
}
_ROUNDING = {"floor": N_("half a d6 rounded down"), "up": N_("half a d6 rounded up")}
_MINIMUM = {"zero": N_("a score of 0 stays 0"), "one_per_agent": N_("at least 1 per agent")}


def _variant(rows: str, rounding: str, minimum: str, name: str) -> tuple[Variant, GeneratorOptions]:
    options = GeneratorOptions(rows, rounding, minimum)
    label = joined([Message(_ROWS[rows]), Message(_ROUNDING[rounding]), Message(_MINIMUM[minimum])])
    settings = {
        "opposition_rows": rows,
        "opposition_rounding": rounding,
        "opposition_minimum": minimum,
    }
    return Variant(name, label, settings), options


@dataclass(frozen=True)
class ChallengeWin(Question):
    """A whole challenge's exact win chance over the opposition and the party.

    The agents act in turn (G-A20), each with the same total modifier on every action,
    against one opposition, never conceding or abandoning (`challenge_win_probability`).
    A party of ``k`` is the first ``k`` agents of ``reserves``.

    * ``opposition = score``: rows ``(party, score)`` for scores 0 to ``max_score``.
    * ``opposition = generated``: rows ``(variant, party, progress)`` for progress indexes 0
      to 3 (below 0 is as 0 under every reading), the score drawn by the scenario
      generator for that party (`challenge_distribution`), under each compared reading of
      the opposition table: ``opposition_rows`` (G-A1), ``opposition_rounding`` (G-A3),
      both, or ``opposition_minimum`` (G-A2). Measures: the win chance, the mean score and
      the chance of a score of 0 (won at once).

    Raises:
        InputError: bad reserves, or chains of more than `MAX_LAB_STATES` states in all.

    Source: seed 002, "Résolution de challenge", "Génération de challenge"; rulings G-M4 to
    G-M6, G-N3, G-A1 to G-A4, G-A20.
    """

    name: ClassVar[str] = "challenge"
    title: ClassVar[str] = N_("A challenge's win chance over the opposition and the party")
    game: ClassVar[str] = "agents"
    rule: ClassVar[str] = "G-M5"

    reserves: Annotated[
        str,
        Param(
            N_(
                "each agent's reserve of the challenge's type, in turn order (1 to 4 agents, "
                "each 1 to 9)"
            ),
            placeholder="7,5,3",
            max_length=40,
        ),
    ] = "5,5,5"
    modifier: Annotated[
        int,
        Param(
            N_("every action's total modifier"),
            low=LOWEST_MODIFIER,
            high=HIGHEST_MODIFIER,
            rule="G-N2",
        ),
    ] = 0
    opposition: Annotated[
        Literal["score", "generated"],
        Param(N_("the opposition: over its score, or drawn by the generator"), rule="G-N3"),
    ] = "generated"
    max_score: Annotated[
        int, Param(N_("highest score shown (opposition score)"), low=0, high=30, rule="G-M2")
    ] = 15
    opposition_rows: Annotated[
        Literal["shifted", "literal"],
        Param(N_("rows of the opposition table (house rule opposition_rows)"), rule="G-A1"),
    ] = "shifted"
    opposition_rounding: Annotated[
        Literal["floor", "up"],
        Param(
            N_("half a d6 in the opposition table (house rule opposition_rounding)"), rule="G-A3"
        ),
    ] = "floor"
    opposition_minimum: Annotated[
        Literal["zero", "one_per_agent"],
        Param(N_("a generated score of 0 (house rule opposition_minimum)"), rule="G-A2"),
    ] = "zero"
    compare: Annotated[
        Literal[
            "none",
            "opposition_rows",
            "opposition_rounding",
            "rows_and_rounding",
            "opposition_minimum",
        ],
        Param(
            N_(
                "readings shown side by side (generated opposition): none, opposition_rows, "
                "opposition_rounding, rows_and_rounding or opposition_minimum"
            ),
            rule="G-A1",
        ),
    ] = "rows_and_rounding"

    def variants(self) -> tuple[tuple[Variant, GeneratorOptions], ...]:
        """The compared readings of the opposition table, each with its options."""
        rows, rounding, minimum = (
            self.opposition_rows,
            self.opposition_rounding,
            self.opposition_minimum,
        )
        if self.compare == "opposition_rows":
            return tuple(_variant(r, rounding, minimum, r) for r in ("shifted", "literal"))
        if self.compare == "opposition_rounding":
            return tuple(_variant(rows, u, minimum, u) for u in ("floor", "up"))
        if self.compare == "rows_and_rounding":
            return tuple(
                _variant(r, u, minimum, f"{r}_{u}")
                for r in ("shifted", "literal")
                for u in ("floor", "up")
            )
        if self.compare == "opposition_minimum":
            return tuple(_variant(rows, rounding, m, m) for m in ("zero", "one_per_agent"))
        return (_variant(rows, rounding, minimum, f"{rows}_{rounding}_{minimum}"),)

    def answer(self, context: LabContext) -> LabResult:
        """Every row, exact.

        Raises:
            InputError: bad reserves, or more than `MAX_LAB_STATES` chain states in all.
        """
        reserves = parse_reserves(self.reserves)
        if self.opposition == "score":
            return self._by_score(reserves)
        return self._generated(reserves)

    def _solver(
        self, reserves: Sequence[int], needed: Mapping[int, set[int]]
    ) -> dict[tuple[int, int], Fraction]:
        """The win chance of each ``(party, score)`` needed, within the states budget."""
        states = sum(chain_states(reserves[:k], s) for k, scores in needed.items() for s in scores)
        if states > MAX_LAB_STATES:
            raise InputError(
                N_("this table needs {count} chain states, more than the lab's {maximum}"),
                tip=N_("use smaller reserves, fewer agents or a lower score"),
                count=states,
                maximum=MAX_LAB_STATES,
            )
        return {
            (k, s): challenge_win_probability(reserves[:k], [self.modifier] * k, s)
            for k, scores in needed.items()
            for s in scores
        }

    def _by_score(self, reserves: tuple[int, ...]) -> LabResult:
        parties = range(1, len(reserves) + 1)
        wins = self._solver(reserves, {k: set(range(self.max_score + 1)) for k in parties})
        rows: list[dict[str, Cell]] = [
            {"party": k, "score": s, "p_win": wins[k, s]}
            for k in parties
            for s in range(self.max_score + 1)
        ]
        columns = (
            Column("party", N_("agents"), "input"),
            Column("score", N_("opposition score"), "input"),
            Column("p_win", N_("the agents win"), percent=True),
        )
        charts = (
            Chart(
                "lines",
                N_("Chance the agents win over the opposition score"),
                x="score",
                value="p_win",
                series="party",
            ),
            Chart(
                "heatmap",
                N_("Chance the agents win"),
                x="score",
                y="party",
                value="p_win",
            ),
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            notes=(N_("The opposition table's house rules change only a generated score."),),
        )

    def _generated(self, reserves: tuple[int, ...]) -> LabResult:
        variants = self.variants()
        parties = range(1, len(reserves) + 1)
        progresses = range(0, QUEST_WON_AT)
        scores = {
            (v.name, k, p): challenge_distribution(
                ChallengeInputs(p, k, options), key=lambda c: c.score
            )
            for v, options in variants
            for k in parties
            for p in progresses
        }
        needed: dict[int, set[int]] = {k: set() for k in parties}
        for (_, k, _), dist in scores.items():
            needed[k] |= set(dist.weights)
        wins = self._solver(reserves, needed)
        rows: list[dict[str, Cell]] = []
        for (name, k, p), dist in scores.items():
            rows.append(
                {
                    "variant": name,
                    "party": k,
                    "progress": p,
                    "p_win": sum((q * wins[k, s] for s, q in dist.items()), Fraction(0)),
                    "mean_score": sum((q * s for s, q in dist.items()), Fraction(0)),
                    "p_zero": dist.probability(0),
                }
            )
        compared = len(variants) > 1
        columns = (
            Column("variant", N_("opposition table"), "input"),
            Column("party", N_("agents"), "input"),
            Column("progress", N_("progress index"), "input"),
            Column("p_win", N_("the agents win"), percent=True),
            Column("mean_score", N_("mean opposition score")),
            Column("p_zero", N_("score 0: won at once"), percent=True),
        )
        charts = [
            Chart(
                "lines",
                N_("Chance {party} agents win over the progress index"),
                x="progress",
                value="p_win",
                series="variant",
                where={"party": k},
            )
            for k in parties
        ]
        charts.append(
            Chart(
                "heatmap",
                N_("Chance the agents win ({variant})"),
                x="progress",
                y="party",
                value="p_win",
                where={"variant": variants[0][0].name},
            )
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            variants=tuple(v for v, _ in variants) if compared else (),
            notes=(
                N_(
                    "The opposition score is drawn by the scenario generator for the party "
                    "at each progress index; a progress index below 0 reads as 0."
                ),
            ),
        )
