"""Pouyss in the lab: the cagnotte's economy over a session, simulated under named policies.

A session starts as the rules start one (`decide_start_session`: one die per player, P-M5);
the players then roll in turn, ``rolls`` times each. Before each roll the player asks for
bonus dice under a named policy (never more than the cagnotte holds: the rules refuse it,
P-M5), and the narrator sets a malus die under the narrator's policy (a d6 thrown through
the chance protocol decides it). The roll is resolved by `resolve_action_roll` and the
cagnotte accounted by `draw_and_refill` (bonus dice drawn first, malus dice put in after,
P-M1), the functions `decide_roll` runs in play.

Source: seed 000, "Cagnotte", "Remplir la cagnotte"; rulings P-M1, P-M5, P-M6, P-A2, P-A10.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Annotated, ClassVar, Literal

from tablee.dice import D6, Chance, DiceRequest
from tablee.errors import N_, InputError
from tablee.lab.questions import LabContext, Question, Seed
from tablee.lab.results import Cell, Chart, Column, LabResult, Policy
from tablee.lab.runner import Tally, run_simulation
from tablee.systems.declare import Param
from tablee.systems.pouyss.actions import ActionRoll, dice_for_action, resolve_action_roll
from tablee.systems.pouyss.cagnotte import draw_and_refill
from tablee.systems.pouyss.commands import StartSession
from tablee.systems.pouyss.decide import decide_start_session
from tablee.systems.pouyss.odds import action_distribution
from tablee.systems.pouyss.options import PouyssOptions
from tablee.systems.pouyss.state import PouyssState

SHARE = (0.0, 1.0)
"""The bounds of a share of a session's rolls (the interval of a mean of shares stays in them)."""

__all__ = ["BONUS_POLICIES", "MALUS_POLICIES", "CagnotteEconomy", "bonus_asked"]

BONUS_POLICIES: tuple[str, ...] = ("never", "cautious", "greedy")
"""The players' bonus policies, each a series of the result."""

MalusPolicy = Literal["none", "third", "half", "two_thirds"]

MALUS_POLICIES: Mapping[str, tuple[int, str]] = {
    "none": (0, N_("never set a malus die")),
    "third": (2, N_("one malus die when a d6 shows 1 or 2 (a third of the rolls)")),
    "half": (3, N_("one malus die when a d6 shows 1 to 3 (half of the rolls)")),
    "two_thirds": (4, N_("one malus die when a d6 shows 1 to 4 (two thirds of the rolls)")),
}
"""The narrator's malus policies: the highest d6 face that sets one malus die, and the label."""


def bonus_asked(policy: str, cagnotte: int, cautious_from: int, greedy_most: int) -> int:
    """Bonus dice a player asks for under ``policy`` with ``cagnotte`` dice in the pool.

    ``never``: none; ``cautious``: one when the pool holds at least ``cautious_from``;
    ``greedy``: ``greedy_most``, or all the pool holds if fewer. Never more than the pool
    holds (P-M5 refuses it).

    Raises:
        InputError: an unknown policy.
    """
    if policy == "never":
        return 0
    if policy == "cautious":
        return 1 if cagnotte >= max(cautious_from, 1) else 0
    if policy == "greedy":
        return min(greedy_most, cagnotte)
    raise InputError(N_("{policy!r} is not a bonus policy"), policy=policy)


_BINS = (("pool_1_2", 1, 2), ("pool_3_5", 3, 5), ("pool_6_up", 6, 10_000))
_TOP = _BINS[-1][1]  # from here on, every cagnotte falls in the last bin
_BIN_OF = tuple(
    next((i for i, (_, low, high) in enumerate(_BINS) if low <= held <= high), -1)
    for held in range(_TOP + 1)
)
"""The bin of a cagnotte of 0 to ``_TOP`` dice (-1: empty, in no bin)."""


@dataclass(frozen=True)
class _Session:
    """One trial: a session for every bonus policy and number of players (picklable)."""

    starts: tuple[tuple[int, int], ...]
    rolls: int
    cautious_from: int
    greedy_most: int
    malus_below: int
    options: PouyssOptions

    @cached_property
    def most(self) -> int:
        """The most dice the cagnotte can hold in a session: its start, one malus per roll."""
        return max(start + players * self.rolls for players, start in self.starts)

    @cached_property
    def asked(self) -> Mapping[str, tuple[int, ...]]:
        """Policy -> the bonus dice asked with 0 to `most` dice in the cagnotte (`bonus_asked`)."""
        return {
            policy: tuple(
                bonus_asked(policy, held, self.cautious_from, self.greedy_most)
                for held in range(self.most + 1)
            )
            for policy in BONUS_POLICIES
        }

    @cached_property
    def bin_of(self) -> tuple[int, ...]:
        """The bin (index in `_BINS`) of a cagnotte of 0 to `most` dice (-1: none)."""
        return tuple(_BIN_OF[min(held, _TOP)] for held in range(self.most + 1))

    @cached_property
    def inputs(self) -> tuple[tuple[tuple[ActionRoll, DiceRequest], ...], ...]:
        """``[bonus][malus]`` -> the roll's inputs and its dice, for every roll a session makes.

        Bonus 0 to the most any policy asks, malus 0 or 1.
        """
        return tuple(
            tuple((roll, dice_for_action(roll)) for roll in (ActionRoll(b, 0), ActionRoll(b, 1)))
            for b in range(max(self.greedy_most, 1) + 1)
        )

    def trial(self, chance: Chance, tally: Tally) -> None:
        options, threshold, below = self.options, self.options.success_threshold, self.malus_below
        d6 = DiceRequest(D6, 1)
        rolls, bin_of = self.inputs, self.bin_of
        for policy in BONUS_POLICIES:
            asked = self.asked[policy]
            for players, start in self.starts:
                key = f"{policy}:{players}"
                cagnotte, total = start, players * self.rolls
                empty = successes = pool_sum = 0
                bins = [0, 0, 0]
                for _ in range(total):
                    pool_sum += cagnotte
                    if cagnotte == 0:
                        empty += 1
                    else:
                        bins[bin_of[cagnotte]] += 1
                    bonus = asked[cagnotte]
                    malus = 1 if below and chance.roll(d6)[0] <= below else 0
                    inputs, request = rolls[bonus][malus]
                    if resolve_action_roll(inputs, chance.roll(request)).value >= threshold:
                        successes += 1
                    cagnotte = draw_and_refill(cagnotte, bonus, malus, options).after
                tally.add(f"{key}:empty_share", empty / total)
                if empty:
                    tally.count(f"{key}:ever_empty")
                tally.add(f"{key}:mean_pool", pool_sum / total)
                tally.add(f"{key}:success_share", successes / total)
                for (name, _, _), n in zip(_BINS, bins, strict=True):
                    tally.add(f"{key}:{name}", n / total)
                tally.add(f"{key}:end_pool", cagnotte)
                tally.see(f"{key}:end_pool", cagnotte)


@dataclass(frozen=True)
class CagnotteEconomy(Question):
    """The cagnotte over a session, by number of players, for each players' bonus policy.

    Rows: one per bonus policy (``never``, ``cautious``, ``greedy``) and number of players
    (``min_players`` to ``max_players``). Measures (each an estimate with its 95% interval,
    one session being one trial): the share of rolls that find the cagnotte empty, the
    chance that a session ever finds it empty, the mean cagnotte at a roll, the shares of
    rolls that find 1-2, 3-5 and 6 or more dice in it, the share of successful rolls
    (P-A10), and the cagnotte at the session's end (mean, 10th percentile, median, 90th
    percentile).

    Raises (from `answer`):
        InputError: ``min_players`` above ``max_players``.

    Source: seed 000; P-M1, P-M5, P-M6, P-A2, P-A10.
    """

    name: ClassVar[str] = "economy"
    title: ClassVar[str] = N_("The cagnotte's economy over a session")
    game: ClassVar[str] = "pouyss"
    rule: ClassVar[str] = "P-M5"
    simulated: ClassVar[bool] = True

    min_players: Annotated[int, Param(N_("fewest players"), low=1, high=20, rule="P-M5")] = 2
    max_players: Annotated[int, Param(N_("most players"), low=1, high=20, rule="P-M5")] = 6
    rolls: Annotated[int, Param(N_("rolls per player in a session"), low=1, high=100)] = 8
    cautious_from: Annotated[
        int,
        Param(
            N_("cautious players ask one bonus die from this many in the cagnotte"), low=1, high=20
        ),
    ] = 3
    greedy_most: Annotated[
        int,
        Param(
            N_("greedy players ask this many bonus dice (fewer if the cagnotte is short)"),
            low=1,
            high=12,
        ),
    ] = 3
    gm_malus: Annotated[
        MalusPolicy,
        Param(
            N_("when the narrator sets a malus die"),
            option_labels=tuple((k, v[1]) for k, v in MALUS_POLICIES.items()),
        ),
    ] = "third"
    bonus_dice_return: Annotated[
        bool, Param(N_("bonus dice go back to the cagnotte after the roll"), rule="P-A2")
    ] = False
    threshold: Annotated[
        int, Param(N_("lowest die value that succeeds"), low=1, high=6, rule="P-A10")
    ] = 4
    trials: Annotated[int, Param(N_("sessions simulated per row"), low=1, high=100_000)] = 1000
    seed: Seed = 1

    def policies(self) -> tuple[Policy, ...]:
        """Every policy the simulated choices follow, with its settings."""
        below, label = MALUS_POLICIES[self.gm_malus]
        return (
            Policy("never", N_("never ask a bonus die")),
            Policy(
                "cautious",
                N_("ask one bonus die when the cagnotte holds at least the number set"),
                {"cautious_from": self.cautious_from},
            ),
            Policy(
                "greedy",
                N_("ask the number set, or every die in the cagnotte if it holds fewer"),
                {"greedy_most": self.greedy_most},
            ),
            Policy(f"gm:{self.gm_malus}", label, {"malus_when_d6_at_most": below}),
        )

    def never_success(self) -> Fraction:
        """The exact chance that a roll with no bonus die succeeds, under the malus policy.

        No bonus die: one die, or two with the malus die (the lower one counts), the malus
        set with the chance of its d6 (P-M1, P-A10; `action_distribution`).
        """
        below = MALUS_POLICIES[self.gm_malus][0]
        chance = Fraction(0)
        for malus, weight in ((0, Fraction(6 - below, 6)), (1, Fraction(below, 6))):
            dist = action_distribution(ActionRoll(0, malus))
            chance += weight * dist.probability_where(lambda v: v >= self.threshold)
        return chance

    def answer(self, context: LabContext) -> LabResult:
        """Simulate ``trials`` sessions per row (see the class)."""
        if self.min_players > self.max_players:
            raise InputError(
                N_("the fewest players ({low}) must not be more than the most ({high})"),
                low=self.min_players,
                high=self.max_players,
            )
        options = PouyssOptions(
            bonus_dice_return=self.bonus_dice_return, success_threshold=self.threshold
        )
        starts = []
        for players in range(self.min_players, self.max_players + 1):
            state = PouyssState(tuple(f"P{i}" for i in range(1, players + 1)), options)
            started = decide_start_session(state, StartSession()).after.cagnotte
            assert started is not None  # a session started holds a cagnotte
            starts.append((players, started))
        simulation = _Session(
            tuple(starts),
            self.rolls,
            self.cautious_from,
            self.greedy_most,
            MALUS_POLICIES[self.gm_malus][0],
            options,
        )
        run = run_simulation(
            simulation, self.trials, self.seed, workers=context.workers, progress=context.progress
        )
        tally = run.tally
        rows: list[dict[str, Cell]] = []
        for policy in BONUS_POLICIES:
            for players, start in starts:
                key = f"{policy}:{players}"
                row: dict[str, Cell] = {"policy": policy, "players": players, "start": start}
                row["p_empty_roll"] = tally.mean(f"{key}:empty_share", within=SHARE)
                row["p_session_empty"] = tally.proportion(f"{key}:ever_empty")
                row["mean_pool"] = tally.mean(f"{key}:mean_pool")
                for name, _, _ in _BINS:
                    row[name] = tally.mean(f"{key}:{name}", within=SHARE)
                row["p_success"] = tally.mean(
                    f"{key}:success_share",
                    self.never_success() if policy == "never" else None,
                    within=SHARE,
                )
                row["end_mean"] = tally.mean(f"{key}:end_pool")
                row["end_p10"] = tally.quantile(f"{key}:end_pool", 0.1)
                row["end_median"] = tally.quantile(f"{key}:end_pool", 0.5)
                row["end_p90"] = tally.quantile(f"{key}:end_pool", 0.9)
                rows.append(row)
        columns = (
            Column("policy", N_("bonus policy"), "input"),
            Column("players", N_("players"), "input"),
            Column("start", N_("cagnotte at the start"), "input"),
            Column("p_empty_roll", N_("rolls finding it empty"), percent=True),
            Column("p_session_empty", N_("sessions where it runs dry"), percent=True),
            Column("mean_pool", N_("mean cagnotte at a roll")),
            Column("pool_1_2", N_("rolls finding 1-2 dice"), percent=True),
            Column("pool_3_5", N_("rolls finding 3-5 dice"), percent=True),
            Column("pool_6_up", N_("rolls finding 6 or more"), percent=True),
            Column("p_success", N_("successful rolls"), percent=True),
            Column("end_mean", N_("mean cagnotte at the end")),
            Column("end_p10", N_("cagnotte at the end, 10th percentile")),
            Column("end_median", N_("cagnotte at the end, median")),
            Column("end_p90", N_("cagnotte at the end, 90th percentile")),
        )
        charts = (
            Chart(
                "lines",
                N_("Sessions where the cagnotte runs dry"),
                x="players",
                value="p_session_empty",
                series="policy",
            ),
            Chart(
                "lines",
                N_("Rolls finding the cagnotte empty"),
                x="players",
                value="p_empty_roll",
                series="policy",
            ),
            Chart(
                "lines",
                N_("Mean cagnotte at a roll"),
                x="players",
                value="mean_pool",
                series="policy",
            ),
            Chart("bars", N_("Successful rolls"), x="players", value="p_success", series="policy"),
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            policies=self.policies(),
            notes=(
                N_("A session is one trial: shares of rolls are averaged over sessions."),
                N_("Players roll in turn; no rewards, penalties or opposed rolls are simulated."),
            ),
            run=run,
        )
