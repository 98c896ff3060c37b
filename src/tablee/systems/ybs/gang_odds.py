"""Exact odds of the gang fight and of Ichika Bachika, as fractions.

* `straight_probability`: a straight in one throw of ``n`` dice.
* `gang_fight_odds`: the race, with the rules of `tablee.systems.ybs.gang`. Both sides throw
  at the same time each round, every die on the first throw; afterwards each side keeps the
  advisor's choice (`tablee.systems.ybs.advisor`, which minimises that side's own expected
  throws and does not look at the opponent). The first side to show a straight wins;
  straights on the same throw are settled by the best straight of each side (Y-A13), or are
  all draws with ``higher_straight_wins`` off.
* `ichika_odds`: one throw each, better Zorome wins (Y-A15, Y-A16), by enumeration.
* `encounter_odds`: what the players' secret choices lead to, with its odds.

The race is solved exactly over pairs of advised keeps. Each side's chain of advised keeps
never returns to an earlier keep (see the advisor), so the pair chain is acyclic except for
a pair staying put, which is solved in closed form: with ``s`` the chance of staying put, a
value ``v = c + s v`` is ``c / (1 - s)``.

Source: seed 004, "Les combats de bande", "Ichika Bachika"; rulings Y-M7, Y-M8, Y-A12,
Y-A13, Y-A15, Y-A16, Y-A18. The odds and the advised strategy are Tablée's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from tablee.dice import D6, Distribution, enumerate_rolls
from tablee.errors import N_, InputError
from tablee.systems.ybs.advisor import chain_step
from tablee.systems.ybs.gang import dice_per_side
from tablee.systems.ybs.ichika import (
    ICHIKA_DICE,
    IchikaChoice,
    Zorome,
    decide_encounter,
    zorome_of,
)
from tablee.systems.ybs.straights import GangSide, Straight, best_straight

__all__ = [
    "EncounterOdds",
    "Odds",
    "best_straight_distribution",
    "encounter_odds",
    "gang_fight_odds",
    "ichika_odds",
    "straight_probability",
    "zorome_distribution",
]

Hand = tuple[int, ...]
ZERO, ONE = Fraction(0), Fraction(1)


@dataclass(frozen=True)
class Odds:
    """Exact chances seen from the players' side.

    Attributes:
        win, draw, loss: probabilities adding up to 1.
        expected_throws: the mean number of throws until the fight ends (1 for Ichika
            Bachika with draws; more with rerolled ties).
    """

    win: Fraction
    draw: Fraction
    loss: Fraction
    expected_throws: Fraction


def _check_count(dice: int, low: int, high: int) -> int:
    if isinstance(dice, bool) or not isinstance(dice, int) or not low <= dice <= high:
        raise InputError(
            N_("{dice!r} dice is outside {low}..{high} for these odds"),
            dice=dice,
            low=low,
            high=high,
        )
    return dice


def best_straight_distribution(dice: int) -> Distribution[int]:
    """Best straight shown by one throw of ``dice`` d6: 0 for none, else its lowest face.

    Args:
        dice: 1 to 8.

    Raises:
        InputError: a count outside 1..8.

    Source: seed 004; Y-M7, Y-A13.
    """
    _check_count(dice, 1, 8)
    weights: dict[int, int] = {}
    for faces, weight in enumerate_rolls(D6, dice):
        straight = best_straight(faces)
        key = 0 if straight is None else int(straight)
        weights[key] = weights.get(key, 0) + weight
    return Distribution(weights)


def straight_probability(dice: int) -> Fraction:
    """Exact chance of at least one straight in one throw of ``dice`` d6 (1 to 8).

    Raises:
        InputError: a count outside 1..8.

    Source: seed 004; Y-M7.
    """
    return best_straight_distribution(dice).probability_where(lambda k: k != 0)


def _pair_finish(
    a: Straight, b: Straight, higher_straight_wins: bool
) -> tuple[Fraction, Fraction, Fraction]:
    if higher_straight_wins and a != b:
        return (ONE, ZERO, ZERO) if a > b else (ZERO, ZERO, ONE)
    return ZERO, ONE, ZERO


@cache
def _race(
    n: int, m: int, a: Hand, b: Hand, higher: bool
) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(win, draw, loss, expected throws) from kept multisets ``a`` (players) and ``b``."""
    sa, sb = chain_step(n, a), chain_step(m, b)
    stay = sa.keep.get(a, ZERO) * sb.keep.get(b, ZERO)
    acc = [ZERO, ZERO, ZERO, ONE]
    a_done, b_done = sum(sa.finish.values(), ZERO), sum(sb.finish.values(), ZERO)
    acc[0] += a_done * (1 - b_done)
    acc[2] += b_done * (1 - a_done)
    for x, px in sa.finish.items():
        for y, py in sb.finish.items():
            for i, v in enumerate(_pair_finish(x, y, higher)):
                acc[i] += px * py * v
    for ka, pa in sa.keep.items():
        for kb, pb in sb.keep.items():
            if (ka, kb) == (a, b):
                continue
            sub = _race(n, m, ka, kb, higher)
            for i in range(4):
                acc[i] += pa * pb * sub[i]
    w, d, lo, t = (v / (1 - stay) for v in acc)
    return w, d, lo, t


def gang_fight_odds(players_dice: int, gm_dice: int, *, higher_straight_wins: bool = True) -> Odds:
    """Exact win / draw / loss of the players in a gang fight when both sides play advised.

    Args:
        players_dice: the players' dice, 4 to 6.
        gm_dice: the GM's dice, 4 to 6.
        higher_straight_wins: the Y-A13 option for straights shown on the same throw.

    Returns:
        The odds, with the expected number of throws (the minutes are that minus 1).

    Raises:
        InputError: a count outside 4..6.

    Source: seed 004; Y-M7, Y-A13, Y-A14 (the race as defined in this module's summary).
    """
    n, m = _check_count(players_dice, 4, 6), _check_count(gm_dice, 4, 6)
    w, d, lo, t = _race(n, m, (), (), bool(higher_straight_wins))
    return Odds(w, d, lo, t)


def zorome_distribution(dice: int = ICHIKA_DICE) -> Distribution[Zorome]:
    """The Zorome of one throw of ``dice`` d6 (1 to 8), with integer weights.

    Source: seed 004; Y-A15, Y-A16.
    """
    _check_count(dice, 1, 8)
    weights: dict[Zorome, int] = {}
    for faces, weight in enumerate_rolls(D6, dice):
        key = zorome_of(faces)
        weights[key] = weights.get(key, 0) + weight
    return Distribution(weights)


def ichika_odds(
    players_dice: int = ICHIKA_DICE, gm_dice: int = ICHIKA_DICE, *, tie: str = "draw"
) -> Odds:
    """Exact win / draw / loss of the players in Ichika Bachika.

    Args:
        players_dice, gm_dice: dice per side (the text uses 5; 1 to 8 accepted for study).
        tie: ``"draw"`` (a complete tie is a draw) or ``"reroll"`` (throw again until
            someone wins: no draw, and more throws on average).

    Raises:
        InputError: a count outside 1..8 or an unknown ``tie`` word.

    Source: seed 004; Y-M8, Y-A15, Y-A16.
    """
    if tie not in ("draw", "reroll"):
        raise InputError(N_("tie cannot be {value!r}: expected draw or reroll (Y-A16)"), value=tie)
    first, second = zorome_distribution(players_dice), zorome_distribution(gm_dice)
    win = draw = loss = 0
    for x, wx in first.weights.items():
        for y, wy in second.weights.items():
            if x > y:
                win += wx * wy
            elif x < y:
                loss += wx * wy
            else:
                draw += wx * wy
    total = first.total * second.total
    if tie == "reroll":
        decided = win + loss
        return Odds(Fraction(win, decided), ZERO, Fraction(loss, decided), Fraction(total, decided))
    return Odds(Fraction(win, total), Fraction(draw, total), Fraction(loss, total), ONE)


@dataclass(frozen=True)
class EncounterOdds:
    """What the secret choices lead to, and the players' odds there.

    Attributes:
        kind: ``"ichika_bachika"``, ``"gang_fight"`` or ``"flee"``.
        fighters: the players who fight.
        odds: the players' odds, or None when everybody flees.
    """

    kind: str
    fighters: tuple[str, ...]
    odds: Odds | None


def encounter_odds(
    choices: Mapping[str, IchikaChoice | str],
    *,
    outnumbered: GangSide | None = None,
    outgunned: GangSide | None = None,
    mixed_disadvantages: str = "cancel",
    higher_straight_wins: bool = True,
    tie: str = "draw",
) -> EncounterOdds:
    """The players' odds for their secret choices in an unexpected encounter.

    Args:
        choices: player name -> choice (see `decide_encounter`).
        outnumbered, outgunned: the gang fight's disadvantages (ignored by Ichika Bachika,
            which always throws 5 dice a side).
        mixed_disadvantages, higher_straight_wins: the gang fight's options (Y-A12, Y-A13).
        tie: Ichika Bachika's tie option (Y-A16).

    Raises:
        InputError: bad choices or options.

    Source: seed 004; Y-M8, Y-A18.
    """
    encounter = decide_encounter(choices)
    if encounter.kind == "flee":
        return EncounterOdds("flee", (), None)
    if encounter.kind == "ichika_bachika":
        return EncounterOdds(encounter.kind, encounter.fighters, ichika_odds(tie=tie))
    n, m = dice_per_side(outnumbered, outgunned, mixed_disadvantages=mixed_disadvantages)
    odds = gang_fight_odds(n, m, higher_straight_wins=higher_straight_wins)
    return EncounterOdds(encounter.kind, encounter.fighters, odds)
