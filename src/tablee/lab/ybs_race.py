"""Yuigahama Bad Seeds in the lab: how much the race-optimal advice wins over the advisor.

For each pair of dice counts, from the first throw of a gang fight, the exact chance to win
(win + tie / 2, and win, tie, loss) when our side plays the one-side advisor (fewest
expected throws) or race-optimal (the best response to the other side's policy), against
the other side playing race-optimal or the advisor.

Source: seed 004, "Les combats de bande"; rulings Y-M7, Y-A13, Y-A14, Y-X9
(`tablee.systems.ybs.race`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from tablee.errors import N_, InputError, Message
from tablee.lab.questions import LabContext, Question
from tablee.lab.results import Cell, Chart, Column, Label, LabResult, Policy
from tablee.systems.declare import Param
from tablee.systems.ybs.race import race_start_odds

__all__ = ["RaceAdvice"]

CYCLED = N_(
    "no race-optimal opponent exists in {fights} (the best responses go round in a cycle): "
    "those fights are shown against the advisor only"
)

_POLICIES = (
    Policy("advisor", N_("the advisor: fewest expected throws, the other side ignored")),
    Policy("race", N_("race-optimal: the best chance to win against the other side's policy")),
)


@dataclass(frozen=True)
class RaceAdvice(Question):
    """The chance to win a gang fight with the advisor's keeps or the race-optimal ones.

    Rows: one per ``(ours, theirs, opponent, policy)`` with ``min_dice <= ours, theirs <=
    max_dice``, opponent ``race`` and ``advisor``, policy ``advisor`` then ``race``;
    measures: the exact win, tie, loss and score (win + tie / 2) from the first throw, and
    ``gain``: the policy's score minus the advisor's in the same fight (0 for the advisor).
    A fight with no race-optimal opponent (the best responses go round in a cycle, Y-X9)
    has no rows against one: its rows are those against the advisor, and a note names it.

    Source: seed 004; rulings Y-M7, Y-A13, Y-A14, Y-X9.
    """

    name: ClassVar[str] = "race-advice"
    title: ClassVar[str] = N_("Gang fights: the advisor's keeps against race-optimal keeps")
    game: ClassVar[str] = "ybs"
    rule: ClassVar[str] = "Y-X9"

    min_dice: Annotated[
        int, Param(N_("fewest dice per side shown"), low=4, high=6, rule="Y-M7")
    ] = 4
    max_dice: Annotated[int, Param(N_("most dice per side shown"), low=4, high=6, rule="Y-M7")] = 6
    higher_straight_wins: Annotated[
        bool, Param(N_("the higher of two straights shown together wins"), rule="Y-A13")
    ] = True

    def answer(self, context: LabContext) -> LabResult:
        """Every row, exact (`race_start_odds`).

        Raises:
            InputError: ``min_dice`` above ``max_dice``.
        """
        if self.min_dice > self.max_dice:
            raise InputError(
                N_("min_dice {low} is above max_dice {high}"),
                low=self.min_dice,
                high=self.max_dice,
            )
        higher = self.higher_straight_wins
        counts = range(self.min_dice, self.max_dice + 1)
        rows: list[dict[str, Cell]] = []
        cycled: list[str] = []
        for ours in counts:
            for theirs in counts:
                fight = f"{ours}v{theirs}"
                for opponent in ("race", "advisor"):
                    played = {
                        policy: race_start_odds(
                            ours,
                            theirs,
                            we_play=policy,
                            opponent=opponent,
                            higher_straight_wins=higher,
                        )
                        for policy in ("advisor", "race")
                    }
                    if not all(odds.equilibrium for odds in played.values()):
                        cycled.append(fight)  # its figures are those against the advisor
                        continue
                    base = played["advisor"]
                    for policy, odds in played.items():
                        rows.append(
                            {
                                "fight": fight,
                                "opponent": opponent,
                                "policy": policy,
                                "win": odds.win,
                                "tie": odds.draw,
                                "loss": odds.loss,
                                "score": odds.score,
                                "gain": odds.score - base.score,
                            }
                        )
        columns = (
            Column("fight", N_("dice, ours v theirs"), "input"),
            Column("opponent", N_("the other side plays"), "input"),
            Column("policy", N_("we play"), "input"),
            Column("win", N_("win"), percent=True),
            Column("tie", N_("tie"), percent=True),
            Column("loss", N_("loss"), percent=True),
            Column("score", N_("win + tie / 2"), percent=True),
            Column("gain", N_("gain over the advisor"), percent=True),
        )
        charts = (
            Chart(
                "bars",
                N_("Chance to win (win + tie / 2) against a race-optimal opponent"),
                x="fight",
                value="score",
                series="policy",
                where={"opponent": "race"},
            ),
            Chart(
                "bars",
                N_("Chance to win (win + tie / 2) against the advisor"),
                x="fight",
                value="score",
                series="policy",
                where={"opponent": "advisor"},
            ),
        )
        notes: tuple[Label, ...] = ()
        if cycled:
            notes = (Message(CYCLED, fights=", ".join(dict.fromkeys(cycled))),)
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            policies=_POLICIES,
            notes=notes,
        )
