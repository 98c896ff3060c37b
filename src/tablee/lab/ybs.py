"""Yuigahama Bad Seeds in the lab: exact tests, straights, Zorome and Ichika Bachika.

Every figure comes from the game's exact odds: `tablee.systems.ybs.odds.odds_of_test` (the
test's rule code driven one throw at a time) and `tablee.systems.ybs.gang_odds` (one throw
of the gang fight's or Ichika Bachika's dice). House rules compared side by side are
`Variant` s: each variant's rows carry its name in the ``variant`` column, drawn as one
series. The gang fight's race is another module's (`tablee.lab.ybs_race`).

Source: seed 004, "Les tests", "Les combats de bande", "Ichika Bachika"; rulings Y-M3, Y-M7,
Y-M8, Y-A3, Y-A4, Y-A5, Y-A13, Y-A15, Y-A16.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, ClassVar, Literal

from tablee.errors import N_, Message, joined
from tablee.lab.questions import LabContext, Question
from tablee.lab.results import Cell, Chart, Column, LabResult, Variant
from tablee.systems.declare import Param
from tablee.systems.ybs.gang_odds import (
    best_straight_distribution,
    ichika_odds,
    side_odds,
    zorome_distribution,
)
from tablee.systems.ybs.ichika import Zorome
from tablee.systems.ybs.odds import odds_of_test
from tablee.systems.ybs.rolls import MAX_FORCE
from tablee.systems.ybs.straights import Straight

__all__ = ["Ichika", "Straights", "Tests", "Zoromes", "shape_of"]

TRAITS = (-2, -1, 0, 1, 2)
"""Every trait value (Y-M1)."""
MAX_DICE = 8
"""Most dice one side throws in these tables (the odds' own bound)."""
ICHIKA_FROM = 2
"""Fewest dice a side throws in the Ichika Bachika table (one die never holds a set)."""
SOLO_FROM = 4
"""Fewest dice a side can make a straight with (Y-M7)."""

_POLICY = {"repeat": "any", "once": "once"}
"""The odds' reroll policy that plays each reading of s'entêter (Y-A3)."""

_STUBBORN_LABELS = {
    "repeat": N_("s'entêter as often as tokens last"),
    "once": N_("s'entêter once per test"),
}
_ON_LABELS = {
    "any": N_("after any natural 1 to 5"),
    "one": N_("after a natural 1 only"),
}


@dataclass(frozen=True)
class _Reading:
    """One reading of s'entêter run by `Tests`: its variant and the odds' arguments."""

    variant: Variant
    policy: str
    stubborn_on: str


def _reading(stubborn: str, on: str, name: str) -> _Reading:
    label = joined([Message(_STUBBORN_LABELS[stubborn]), Message(_ON_LABELS[on])])
    return _Reading(
        Variant(name, label, {"stubborn": stubborn, "stubborn_on": on}), _POLICY[stubborn], on
    )


@dataclass(frozen=True)
class Tests(Question):
    """A test's exact chances over trait, forced destiny and tokens, for each reading of s'entêter.

    Rows: one per ``(variant, trait, force, tokens)``: traits -2 to +2, 0 to 3 tokens spent
    to force destiny, 0 to ``max_tokens`` tokens held once forced, and each reading
    compared: ``stubborn`` (repeat or once), ``stubborn_on`` (after any natural 1 to 5, or a
    natural 1 only), or both; ``no_reroll`` adds a player who never s'entête. The player
    rerolls every failed throw the reading allows and buys every critical success it can.
    Measures (`odds_of_test`): success, critical success, a final natural 1, mean rerolls.

    Source: seed 004, "Les tests"; rulings Y-M3, Y-A3 (options ``stubborn``,
    ``stubborn_on``), Y-A4, Y-A5.
    """

    __test__: ClassVar[bool] = False  # not a pytest test class

    name: ClassVar[str] = "test"
    title: ClassVar[str] = N_("Tests over trait, forced destiny and tokens")
    game: ClassVar[str] = "ybs"
    rule: ClassVar[str] = "Y-M3"

    max_tokens: Annotated[
        int, Param(N_("most tokens held once forced"), low=0, high=10, rule="Y-M4")
    ] = 4
    stubborn: Annotated[
        Literal["repeat", "once"],
        Param(N_("s'entêter: repeat or once (house rule stubborn)"), rule="Y-A3"),
    ] = "repeat"
    stubborn_on: Annotated[
        Literal["any", "one"],
        Param(
            N_("s'entêter after any natural 1 to 5, or one only (house rule stubborn_on)"),
            rule="Y-A3",
        ),
    ] = "any"
    compare: Annotated[
        Literal["none", "stubborn", "stubborn_on", "both"],
        Param(N_("readings shown side by side: none, stubborn, stubborn_on or both"), rule="Y-A3"),
    ] = "stubborn"
    no_reroll: Annotated[
        bool,
        Param(
            N_("also show a player who never s'entête"),
            rule="Y-A3",
            negative="--hide-no-reroll",
        ),
    ] = True

    def readings(self) -> tuple[_Reading, ...]:
        """The readings compared, in order (each with its variant)."""
        pairs: list[tuple[str, str, str]]
        if self.compare == "stubborn":
            pairs = [(s, self.stubborn_on, s) for s in ("repeat", "once")]
        elif self.compare == "stubborn_on":
            pairs = [(self.stubborn, o, o) for o in ("any", "one")]
        elif self.compare == "both":
            pairs = [(s, o, f"{s}_{o}") for s in ("repeat", "once") for o in ("any", "one")]
        else:
            pairs = [(self.stubborn, self.stubborn_on, f"{self.stubborn}_{self.stubborn_on}")]
        found = [_reading(s, o, name) for s, o, name in pairs]
        if self.no_reroll:
            found.append(
                _Reading(Variant("never", N_("never s'entêter (no reroll)")), "never", "any")
            )
        return tuple(found)

    def answer(self, context: LabContext) -> LabResult:
        """Every row, exact."""
        readings = self.readings()
        rows: list[dict[str, Cell]] = []
        for reading in readings:
            for trait in TRAITS:
                for force in range(MAX_FORCE + 1):
                    for tokens in range(self.max_tokens + 1):
                        odds = odds_of_test(
                            trait,
                            force=force,
                            tokens=tokens,
                            policy=reading.policy,
                            stubborn_on=reading.stubborn_on,
                        )
                        rows.append(
                            {
                                "variant": reading.variant.name,
                                "trait": trait,
                                "force": force,
                                "tokens": tokens,
                                "p_success": odds.success,
                                "p_critical": odds.critical,
                                "p_natural_one": odds.natural_one,
                                "mean_rerolls": odds.expected_rerolls,
                            }
                        )
        columns = (
            Column("variant", N_("reading of s'entêter"), "input"),
            Column("trait", N_("trait"), "input"),
            Column("force", N_("tokens forcing destiny"), "input"),
            Column("tokens", N_("tokens held"), "input"),
            Column("p_success", N_("success"), percent=True),
            Column("p_critical", N_("critical success"), percent=True),
            Column("p_natural_one", N_("final natural 1"), percent=True),
            Column("mean_rerolls", N_("mean rerolls")),
        )
        charts = [
            Chart(
                "lines",
                N_("Chance of success over tokens held, trait {trait}, no forcing"),
                x="tokens",
                value="p_success",
                series="variant",
                where={"trait": trait, "force": 0},
            )
            for trait in TRAITS
        ]
        charts.append(
            Chart(
                "lines",
                N_("Mean rerolls over tokens held, trait {trait}, no forcing"),
                x="tokens",
                value="mean_rerolls",
                series="variant",
                where={"trait": 0, "force": 0},
            )
        )
        charts.append(
            Chart(
                "heatmap",
                N_("Chance of success with {tokens} tokens held ({variant})"),
                x="trait",
                y="force",
                value="p_success",
                where={"variant": readings[0].variant.name, "tokens": min(2, self.max_tokens)},
            )
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            variants=tuple(r.variant for r in readings) if len(readings) > 1 else (),
            notes=(
                N_(
                    "The player rerolls every failed throw the reading allows while tokens "
                    "last, and buys a critical success whenever a token is left (Y-A4)."
                ),
            ),
        )


_STRAIGHT_KEYS = {0: "p_none", 1: "p_low", 2: "p_middle", 3: "p_high"}


@dataclass(frozen=True)
class Straights(Question):
    """Straights of the gang fight: one throw's chances, and one side's throws to a straight.

    Rows: one per number of dice, 1 to ``max_dice``. Measures: the chance one throw shows a
    straight (`best_straight_distribution`), of each best straight (Y-A13), and with
    ``solo`` the mean throws one side alone needs to show one, keeping the advisor's dice
    (`side_odds`; 4 dice or more).

    Source: seed 004, "Les combats de bande"; rulings Y-M7, Y-A13, Y-A14, Y-T4.
    """

    name: ClassVar[str] = "straights"
    title: ClassVar[str] = N_("Straights by number of dice")
    game: ClassVar[str] = "ybs"
    rule: ClassVar[str] = "Y-M7"

    max_dice: Annotated[int, Param(N_("most dice shown"), low=1, high=MAX_DICE, rule="Y-M7")] = 6
    solo: Annotated[
        bool, Param(N_("also the mean throws one side alone needs (slower above 6 dice)"))
    ] = True

    def answer(self, context: LabContext) -> LabResult:
        """Every row, exact."""
        rows: list[dict[str, Cell]] = []
        for dice in range(1, self.max_dice + 1):
            dist = best_straight_distribution(dice)
            row: dict[str, Cell] = {"dice": dice}
            for key, column in _STRAIGHT_KEYS.items():
                row[column] = dist.probability(key)
            row["p_straight"] = dist.probability_where(lambda k: k != 0)
            row["mean_throws"] = (
                side_odds(dice).expected_throws if self.solo and dice >= SOLO_FROM else None
            )
            rows.append(row)
        columns = (
            Column("dice", N_("dice"), "input"),
            Column("p_none", N_("no straight"), percent=True),
            *(
                Column(_STRAIGHT_KEYS[int(s)], s.label, percent=True)
                for s in (Straight.LOW, Straight.MIDDLE, Straight.HIGH)
            ),
            Column("p_straight", N_("a straight"), percent=True),
            Column("mean_throws", N_("mean throws to a straight, alone")),
        )
        charts = (
            Chart("lines", N_("Chance of a straight in one throw"), x="dice", value="p_straight"),
            Chart("bars", N_("Chance the best straight is 3-4-5-6"), x="dice", value="p_high"),
            Chart("lines", N_("Mean throws to a straight, alone"), x="dice", value="mean_throws"),
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
        )


def shape_of(zorome: Zorome) -> str:
    """The sizes of a Zorome's sets, best first, as ``3+2`` (``-`` for no set)."""
    return "+".join(str(size) for size, _ in zorome.sets) or "-"


@dataclass(frozen=True)
class Zoromes(Question):
    """The Zorome of one throw: the chance of each shape of sets, by number of dice.

    Rows: one per ``(dice, shape)`` that can happen, dice 1 to ``max_dice``; a shape is the
    sizes of the hand's sets, best first (``2`` a pair, ``2+2`` two pairs, ``3+2`` a full
    house, ``-`` none), the shapes of one number of dice from the lowest rank to the highest
    (sizes first, Y-A15). Measure (`zorome_distribution`): its chance.

    Source: seed 004, "Ichika Bachika"; rulings Y-M8, Y-A15, Y-A16, Y-T7.
    """

    name: ClassVar[str] = "zorome"
    title: ClassVar[str] = N_("Zorome by number of dice")
    game: ClassVar[str] = "ybs"
    rule: ClassVar[str] = "Y-A15"

    max_dice: Annotated[int, Param(N_("most dice shown"), low=1, high=MAX_DICE, rule="Y-M8")] = 6

    def answer(self, context: LabContext) -> LabResult:
        """Every row, exact."""
        rows: list[dict[str, Cell]] = []
        for dice in range(1, self.max_dice + 1):
            dist = zorome_distribution(dice)
            sizes = sorted({tuple(size for size, _ in z.sets) for z in dist.weights})
            for shape in ("+".join(str(n) for n in ranked) or "-" for ranked in sizes):
                rows.append(
                    {
                        "dice": dice,
                        "shape": shape,
                        "p": sum((p for z, p in dist.items() if shape_of(z) == shape), Fraction(0)),
                    }
                )
        columns = (
            Column("dice", N_("dice"), "input"),
            Column("shape", N_("sets (sizes)"), "input"),
            Column("p", N_("chance"), percent=True),
        )
        charts = (
            Chart("bars", N_("Chance of each Zorome shape"), x="shape", value="p", series="dice"),
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
        )


_TIE_VARIANTS = {
    "draw": Variant("draw", N_("equal Zorome: a draw"), {"ichika_tie": "draw"}),
    "reroll": Variant("reroll", N_("equal Zorome: thrown again"), {"ichika_tie": "reroll"}),
}


@dataclass(frozen=True)
class Ichika(Question):
    """Ichika Bachika: the players' exact chances over both sides' dice, for each tie rule.

    Rows: one per ``(variant, players_dice, gm_dice)``, each 2 to ``max_dice`` (the text
    throws 5 a side; one die never holds a set, and one die against one never ends when a
    tie is thrown again); the variants are the readings of a complete tie (``ichika_tie``: a
    draw or thrown again). Measures (`ichika_odds`): win, draw, loss and the mean throws.

    Source: seed 004, "Ichika Bachika"; rulings Y-M8, Y-A15, Y-A16 (option ``ichika_tie``).
    """

    name: ClassVar[str] = "ichika"
    title: ClassVar[str] = N_("Ichika Bachika over both sides' dice")
    game: ClassVar[str] = "ybs"
    rule: ClassVar[str] = "Y-M8"

    max_dice: Annotated[
        int, Param(N_("most dice of each side shown"), low=2, high=MAX_DICE, rule="Y-M8")
    ] = 6
    tie: Annotated[
        Literal["draw", "reroll"],
        Param(N_("equal Zorome: draw or reroll (house rule ichika_tie)"), rule="Y-A16"),
    ] = "draw"
    compare: Annotated[
        Literal["none", "ichika_tie"],
        Param(N_("house rule shown side by side: none or ichika_tie"), rule="Y-A16"),
    ] = "ichika_tie"

    def answer(self, context: LabContext) -> LabResult:
        """Every row, exact."""
        ties = ("draw", "reroll") if self.compare == "ichika_tie" else (self.tie,)
        rows: list[dict[str, Cell]] = []
        for tie in ties:
            for players in range(ICHIKA_FROM, self.max_dice + 1):
                for gm in range(ICHIKA_FROM, self.max_dice + 1):
                    odds = ichika_odds(players, gm, tie=tie)
                    rows.append(
                        {
                            "variant": tie,
                            "players_dice": players,
                            "gm_dice": gm,
                            "p_win": odds.win,
                            "p_draw": odds.draw,
                            "p_loss": odds.loss,
                            "mean_throws": odds.expected_throws,
                        }
                    )
        columns = (
            Column("variant", N_("equal Zorome"), "input"),
            Column("players_dice", N_("the players' dice"), "input"),
            Column("gm_dice", N_("the GM's dice"), "input"),
            Column("p_win", N_("the players win"), percent=True),
            Column("p_draw", N_("draw"), percent=True),
            Column("p_loss", N_("the players lose"), percent=True),
            Column("mean_throws", N_("mean throws")),
        )
        charts = (
            Chart(
                "heatmap",
                N_("Chance the players win ({variant})"),
                x="players_dice",
                y="gm_dice",
                value="p_win",
                where={"variant": ties[0]},
            ),
            Chart(
                "lines",
                N_("Chance the players win against {gm_dice} dice"),
                x="players_dice",
                value="p_win",
                series="variant",
                where={"gm_dice": min(5, self.max_dice)},
            ),
        )
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            variants=tuple(_TIE_VARIANTS[t] for t in ties) if len(ties) > 1 else (),
        )
