"""Exact odds of the gang fight and of Ichika Bachika, as fractions, from the rule code.

* `straight_probability`, `best_straight_distribution`: one throw of ``n`` dice, its best
  straight read by `best_straight` (`tablee.dice.exact`).
* `side_odds`: one side alone playing a keep policy (the advisor's by default): each step
  of the chain is one `throw_side` of the rule code, solved by `tablee.dice.absorbing`:
  which straight it ends on, and the expected number of throws.
* `gang_fight_odds`: the race, with the rules of `tablee.systems.ybs.gang`. Both sides throw
  at the same time each round, every die on the first throw; afterwards each side keeps the
  advisor's choice (`tablee.systems.ybs.advisor`, which minimises that side's own expected
  throws and does not look at the opponent). The first side to show a straight wins;
  straights on the same throw are settled by `throw_result` (the best straight of each
  side, Y-A13, or all draws with ``higher_straight_wins`` off).
* `ichika_odds`: one throw each, settled by `resolve_ichika` (Y-A15, Y-A16).
* `encounter_odds`: what the players' secret choices lead to, with its odds.

The race is defined by the rule code: with ``accelerated=False``, `tablee.dice.absorbing`
runs `next_throw` (both sides' dice, `resolve_throw`) from each pair of advised keeps. That
enumerates both sides' dice together, which is slow; the default accelerator uses that the
two sides throw independently: each side's step (`throw_side`) is enumerated alone, and the
pairs are combined and settled by `throw_result`, then solved by
`tablee.dice.solve_absorbing`. Ichika Bachika is accelerated the same way (each side's
Zorome alone, then compared). The tests check each accelerator against the rule code.
The race's odds for 4 to 6 dice a side are also stored, solved once by
``scripts/gang_odds_table.py`` (`tablee.systems.ybs.gang_odds_table`), and read from there
by default; a test solves them again and compares.

Source: seed 004, "Les combats de bande", "Ichika Bachika"; rulings Y-M7, Y-M8, Y-A12,
Y-A13, Y-A15, Y-A16, Y-A18. The odds and the advised strategy are Tablée's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from tablee.dice import (
    D6,
    Absorption,
    Chance,
    DiceRequest,
    Distribution,
    End,
    Next,
    absorbing,
    exact,
    solve_absorbing,
)
from tablee.errors import N_, InputError
from tablee.systems.ybs.advisor import advised_keep, advised_keeps
from tablee.systems.ybs.gang import (
    GangFight,
    GangOptions,
    GangResult,
    dice_per_side,
    next_throw,
    throw_result,
    throw_side,
)
from tablee.systems.ybs.ichika import (
    ICHIKA_DICE,
    IchikaChoice,
    IchikaOptions,
    Zorome,
    decide_encounter,
    dice_for_ichika,
    resolve_ichika,
    zorome_of,
)
from tablee.systems.ybs.straights import GangSide, Straight, best_straight

__all__ = [
    "EncounterOdds",
    "Odds",
    "SideOdds",
    "best_straight_distribution",
    "encounter_odds",
    "gang_fight_odds",
    "ichika_odds",
    "odds_key",
    "side_odds",
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
    request = DiceRequest(D6, dice)

    def run(chance: Chance) -> int:
        straight = best_straight(chance.roll(request))
        return 0 if straight is None else int(straight)

    return exact(run)


def straight_probability(dice: int) -> Fraction:
    """Exact chance of at least one straight in one throw of ``dice`` d6 (1 to 8).

    Raises:
        InputError: a count outside 1..8.

    Source: seed 004; Y-M7.
    """
    return best_straight_distribution(dice).probability_where(lambda k: k != 0)


@dataclass(frozen=True)
class SideOdds:
    """One side alone, throwing until a straight with a keep policy.

    Attributes:
        straights: the straight it ends on -> probability (they add up to 1).
        expected_throws: the mean number of throws, the first and the last included.
    """

    straights: Mapping[Straight, Fraction]
    expected_throws: Fraction


def side_odds(dice: int, keep: Callable[[Hand], Hand] = advised_keep) -> SideOdds:
    """Exact odds of one side throwing until a straight, keeping ``keep(hand)`` each time.

    Each step of the chain is one `throw_side` of the rule code (every die on the first
    throw), enumerated by `tablee.dice.absorbing`; the states are the kept faces.

    Args:
        dice: the side's dice, 4 to 8.
        keep: the policy: the faces kept from a hand without a straight (a sub-multiset);
            the advisor's by default.

    Raises:
        InputError: a count outside 4..8, or a policy with which a straight never comes.

    Source: seed 004; Y-M7 steps 3-5, Y-A13, Y-A14.
    """
    _check_count(dice, 4, 8)

    def step(kept: Hand, chance: Chance) -> Next[Hand] | End[Straight]:
        hand, straight = throw_side(dice, kept, chance)
        return End(straight) if straight is not None else Next(tuple(sorted(keep(hand))))

    start: Hand = ()
    chain = absorbing(start, step)
    return SideOdds(dict(chain.outcomes), chain.expected_steps)


@cache
def _side_step(dice: int, kept: Hand) -> tuple[dict[Straight, Fraction], dict[Hand, Fraction]]:
    """One advised throw of one side: straight shown -> p, next advised keep -> p."""

    def run(chance: Chance) -> tuple[int, Hand]:
        hand, straight = throw_side(dice, kept, chance)
        return (int(straight), ()) if straight is not None else (0, advised_keep(hand))

    dist = exact(run)
    finish: dict[Straight, Fraction] = {}
    keeps: dict[Hand, Fraction] = {}
    for (straight, hand), p in dist.items():
        if straight:
            finish[Straight(straight)] = p
        else:
            keeps[hand] = p
    return finish, keeps


_Pair = tuple[Hand, Hand]
_WORD = {GangSide.PLAYERS: "win", GangSide.GM: "loss", None: "draw"}


def _word(result: GangResult | None) -> str:
    assert result is not None  # a straight was shown: the fight is over
    return _WORD[result.winner]


def _race(fight: GangFight) -> Absorption[str]:
    """The race from the first throw, each side's throws enumerated apart, then paired."""
    settled: dict[tuple[Straight | None, Straight | None], str] = {}

    def settle(players: Straight | None, gm: Straight | None) -> End[str]:
        if (players, gm) not in settled:
            settled[players, gm] = _word(throw_result(fight, 1, players, gm)[0])
        return End(settled[players, gm])

    def transitions(pair: _Pair) -> dict[Next[_Pair] | End[str], Fraction]:
        a_finish, a_keep = _side_step(fight.players_dice, pair[0])
        b_finish, b_keep = _side_step(fight.gm_dice, pair[1])
        a_open, b_open = sum(a_keep.values(), Fraction(0)), sum(b_keep.values(), Fraction(0))
        out: dict[Next[_Pair] | End[str], Fraction] = {}

        def add(target: Next[_Pair] | End[str], p: Fraction) -> None:
            out[target] = out.get(target, Fraction(0)) + p

        for x, px in a_finish.items():
            add(settle(x, None), px * b_open)
            for y, py in b_finish.items():
                add(settle(x, y), px * py)
        for y, py in b_finish.items():
            add(settle(None, y), a_open * py)
        for ka, pa in a_keep.items():
            for kb, pb in b_keep.items():
                add(Next((ka, kb)), pa * pb)
        return out

    start: _Pair = ((), ())
    return solve_absorbing(start, transitions)


def odds_key(players_dice: int, gm_dice: int, higher_straight_wins: bool) -> str:
    """The key of a fight's odds in the stored table: ``"5:4:higher"`` or ``"5:4:draw"``."""
    return f"{players_dice}:{gm_dice}:{'higher' if higher_straight_wins else 'draw'}"


@cache
def _stored_odds() -> dict[str, Odds]:
    """The stored table (`tablee.systems.ybs.gang_odds_table`), read once."""
    import base64
    import json
    import zlib

    from tablee.systems.ybs.gang_odds_table import ODDS

    table = json.loads(zlib.decompress(base64.b64decode(ODDS)))
    return {key: Odds(*(Fraction(v) for v in values)) for key, values in table.items()}


def gang_fight_odds(
    players_dice: int,
    gm_dice: int,
    *,
    higher_straight_wins: bool = True,
    accelerated: bool = True,
    stored: bool = True,
) -> Odds:
    """Exact win / draw / loss of the players in a gang fight when both sides play advised.

    Args:
        players_dice: the players' dice, 4 to 6.
        gm_dice: the GM's dice, 4 to 6.
        higher_straight_wins: the Y-A13 option for straights shown on the same throw.
        accelerated: each side's throws enumerated apart (default); False runs
            `next_throw`, both sides' dice together, from every pair of advised keeps.
        stored: with ``accelerated``, the odds read from the table this function wrote once
            (`tablee.systems.ybs.gang_odds_table`, ``scripts/gang_odds_table.py``; a test
            checks it against a fresh solve); False solves the race again.

    Returns:
        The odds, with the expected number of throws (the minutes are that minus 1).

    Raises:
        InputError: a count outside 4..6.

    Source: seed 004; Y-M7, Y-A13, Y-A14 (the race as defined in this module's summary).
    """
    n, m = _check_count(players_dice, 4, 6), _check_count(gm_dice, 4, 6)
    if accelerated and stored:
        known = _stored_odds().get(odds_key(n, m, bool(higher_straight_wins)))
        if known is not None:
            return known
    fight = GangFight(n, m, GangOptions(higher_straight_wins=bool(higher_straight_wins)))
    race = _race(fight) if accelerated else _race_by_throws(fight)
    return Odds(
        race.probability("win"),
        race.probability("draw"),
        race.probability("loss"),
        race.expected_steps,
    )


def _race_by_throws(fight: GangFight) -> Absorption[str]:
    """The race with one `next_throw` of the rule code per step (both sides at once)."""

    def step(state: GangFight, chance: Chance) -> Next[GangFight] | End[str]:
        after, outcome = next_throw(state, advised_keeps(state), chance)
        return End(_word(outcome.result)) if after.finished else Next(after)

    def key(state: GangFight) -> object:
        return None if state.throws == 0 else advised_keeps(state)

    return absorbing(fight, step, key=key, budget=1_000_000)


def zorome_distribution(dice: int = ICHIKA_DICE) -> Distribution[Zorome]:
    """The Zorome of one throw of ``dice`` d6 (1 to 8), with integer weights.

    Source: seed 004; Y-A15, Y-A16.
    """
    _check_count(dice, 1, 8)
    request = DiceRequest(D6, dice)
    return exact(lambda chance: zorome_of(chance.roll(request)))


def ichika_odds(
    players_dice: int = ICHIKA_DICE,
    gm_dice: int = ICHIKA_DICE,
    *,
    tie: str = "draw",
    accelerated: bool = True,
) -> Odds:
    """Exact win / draw / loss of the players in Ichika Bachika.

    Args:
        players_dice, gm_dice: dice per side (the text uses 5; 1 to 8 accepted for study).
        tie: ``"draw"`` (a complete tie is a draw) or ``"reroll"`` (throw again until
            someone wins: no draw, and more throws on average).
        accelerated: each side's Zorome enumerated apart, then compared (default); False
            runs `resolve_ichika` over both sides' dice (5 a side only).

    Raises:
        InputError: a count outside 1..8, an unknown ``tie`` word, or ties rerolled when no
            throw can ever decide (one die a side: neither side can show a pair, so every
            throw ties and the rerolls never end).

    Source: seed 004; Y-M8, Y-A15, Y-A16.
    """
    if tie not in ("draw", "reroll"):
        raise InputError(N_("tie cannot be {value!r}: expected draw or reroll (Y-A16)"), value=tie)
    if not accelerated:
        return _ichika_by_rules(IchikaOptions(tie=tie))
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
        if not decided:
            raise InputError(
                N_(
                    "with {players} and {gm} dice every throw ties, so rerolling ties never "
                    "ends (Y-A16): give a side at least two dice"
                ),
                players=players_dice,
                gm=gm_dice,
            )
        return Odds(Fraction(win, decided), ZERO, Fraction(loss, decided), Fraction(total, decided))
    return Odds(Fraction(win, total), Fraction(draw, total), Fraction(loss, total), ONE)


def _ichika_by_rules(options: IchikaOptions) -> Odds:
    """Ichika Bachika with `resolve_ichika` over both sides' 5 dice (a tie rerolled or not)."""
    players, gm = dice_for_ichika()

    def step(state: None, chance: Chance) -> Next[None] | End[str]:
        outcome = resolve_ichika((chance.roll(players), chance.roll(gm)), options)
        return Next(None) if outcome.reroll else End(_WORD[outcome.winner])

    race = absorbing(None, step)
    return Odds(
        race.probability("win"),
        race.probability("draw"),
        race.probability("loss"),
        race.expected_steps,
    )


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
