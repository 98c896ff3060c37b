"""The gang-fight advisor: which dice to keep to reach a straight in the fewest throws.

One side's play is a Markov decision process. A state is the multiset of faces in front of
the side (``n`` dice, no straight yet); an action keeps a sub-multiset and rerolls the rest;
the cost is one throw; a straight ends the process. The advisor solves it exactly for each
``n`` by policy iteration with `fractions.Fraction`: each policy is evaluated by solving its
linear system exactly (Gaussian elimination), then improved greedily, until no keep is
strictly better anywhere. The final values therefore satisfy the Bellman equation exactly,
which makes them the optimal expected numbers of throws.

Among keeps with the same expected number of throws the advisor prefers the higher chance
of a straight on the next throw, then higher faces (a higher straight wins simultaneous
straights, Y-A13). Because every hand can keep what was kept before, this order never lets
the advised keeps go round in a cycle: the chain of advised keeps only moves down the order
(or stays put), which `gang_odds` relies on.

The advisor plays one side alone: it minimises the side's own expected throws and ignores
the opponent's dice (Tablée's ruling for the advisor and for the race odds, see
`gang_odds`).

Source: seed 004, "Les combats de bande"; rulings Y-M7, Y-A13, Y-A14. The advice is
Tablée's own (the text gives no strategy).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product

from tablee.dice import D6, enumerate_rolls
from tablee.errors import N_, InputError, RuleError
from tablee.systems.ybs.gang import GangFight, Keeps
from tablee.systems.ybs.straights import Straight, best_straight, check_faces

__all__ = [
    "MAX_ADVISED_DICE",
    "Advice",
    "ChainStep",
    "KeepChoice",
    "advise",
    "advised_keep",
    "advised_keeps",
    "chain_step",
    "expected_throws",
    "sub_multisets",
]

MAX_ADVISED_DICE = 8
"""The most dice the advisor solves for (a gang fight uses 4 to 6; 8 takes a few seconds)."""

Hand = tuple[int, ...]


def sub_multisets(hand: Sequence[int]) -> tuple[Hand, ...]:
    """Every distinct sub-multiset of ``hand`` (from empty to the whole hand), sorted.

    Raises:
        InputError: a value that is not a d6 face.
    """
    counts = sorted(Counter(check_faces(hand)).items())
    ranges = [range(c + 1) for _, c in counts]
    subs = {
        tuple(f for (f, _), k in zip(counts, pick, strict=True) for _ in range(k))
        for pick in product(*ranges)
    }
    return tuple(sorted(subs, key=lambda s: (len(s), s)))


def _check_dice(dice: int) -> int:
    if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= MAX_ADVISED_DICE:
        raise InputError(
            N_("the advisor handles 4 to {maximum} dice, not {dice!r}"),
            maximum=MAX_ADVISED_DICE,
            dice=dice,
        )
    if dice < 4:
        raise InputError(N_("{dice} dice can never show a 4-die straight (Y-M7)"), dice=dice)
    return dice


@cache
def _outcomes(n: int, kept: Hand) -> tuple[tuple[Hand, Fraction], ...]:
    """Hands after keeping ``kept`` and rerolling the rest, with their probabilities."""
    rerolled = n - len(kept)
    total = 6**rerolled
    return tuple(
        (tuple(sorted(kept + faces)), Fraction(weight, total))
        for faces, weight in enumerate_rolls(D6, rerolled)
    )


@cache
def _next_straight_probability(n: int, kept: Hand) -> Fraction:
    return sum(
        (p for hand, p in _outcomes(n, kept) if best_straight(hand) is not None), Fraction(0)
    )


def _tie_key(kept: Hand) -> tuple[int, ...]:
    return tuple(-f for f in sorted(kept, reverse=True))


def _evaluate(n: int, policy: dict[Hand, Hand]) -> dict[Hand, Fraction]:
    """Expected throws W(K) for every keep K the policy uses, solved exactly."""
    from tablee.dice.enumeration import solve_exactly  # only when the advice is solved

    keeps = sorted(set(policy.values()))
    index = {k: i for i, k in enumerate(keeps)}
    matrix = [[Fraction(int(i == j)) for j in range(len(keeps))] for i in range(len(keeps))]
    for k in keeps:
        for hand, p in _outcomes(n, k):
            if hand in policy:
                matrix[index[k]][index[policy[hand]]] -= p
    values = [x for (x,) in solve_exactly(matrix, [[Fraction(1)] for _ in keeps])]
    return dict(zip(keeps, values, strict=True))


def _initial_keep(hand: Hand) -> Hand:
    """Distinct faces of the straight window holding most of them (higher window on ties)."""
    present = set(hand)
    window = max(Straight, key=lambda s: (len(present & set(s.faces)), int(s)))
    return tuple(sorted(present & set(window.faces)))


@dataclass(frozen=True)
class _Solution:
    hand_value: dict[Hand, Fraction]  # expected throws from each hand (0 with a straight)
    keep_value: dict[Hand, Fraction]  # expected throws after keeping K (K of 0..n dice)
    policy: dict[Hand, Hand]  # the advised keep for each hand without a straight


@cache
def _solve(n: int) -> _Solution:
    hands = [h for h in combinations_with_replacement(range(1, 7), n)]
    open_hands = [h for h in hands if best_straight(h) is None]
    policy = {h: _initial_keep(h) for h in open_hands}
    while True:
        used = _evaluate(n, policy)
        hand_value = {h: Fraction(0) for h in hands}
        hand_value.update({h: used[policy[h]] for h in open_hands})
        keep_value = {
            k: 1 + sum((p * hand_value[h] for h, p in _outcomes(n, k)), Fraction(0))
            for size in range(n + 1)
            for k in combinations_with_replacement(range(1, 7), size)
        }
        changed = False
        for h in open_hands:
            best = min(sub_multisets(h), key=lambda k: keep_value[k])
            if keep_value[best] < keep_value[policy[h]]:
                policy[h], changed = best, True
        if not changed:
            break
    final = {h: min(sub_multisets(h), key=_order(n, keep_value)) for h in open_hands}
    return _Solution(hand_value, keep_value, final)


_OrderKey = tuple[Fraction, Fraction, tuple[int, ...]]


def _order(n: int, keep_value: dict[Hand, Fraction]) -> Callable[[Hand], _OrderKey]:
    """The advisor's total order on keeps: expected throws, next-throw chance, high faces."""

    def key(k: Hand) -> _OrderKey:
        return keep_value[k], -_next_straight_probability(n, k), _tie_key(k)

    return key


@dataclass(frozen=True)
class KeepChoice:
    """One way to play the next throw.

    Attributes:
        kept: the faces kept, sorted (a sub-multiset of the hand).
        rerolled: how many dice are thrown again.
        straight_probability: exact chance that the next throw shows a straight.
        expected_throws: exact expected number of throws until a straight, counting the next
            one, when playing the advisor's keeps afterwards.
    """

    kept: Hand
    rerolled: int
    straight_probability: Fraction
    expected_throws: Fraction


@dataclass(frozen=True)
class Advice:
    """Every keep choice for a hand, best first.

    Attributes:
        hand: the faces in front of the side, sorted.
        choices: every distinct sub-multiset to keep, ordered by expected throws, then by
            chance of a straight next throw (higher first), then higher faces.
        best: the first choice, which minimises the expected number of throws.
    """

    hand: Hand
    choices: tuple[KeepChoice, ...]

    @property
    def best(self) -> KeepChoice:
        """The advised keep."""
        return self.choices[0]


def advise(hand: Sequence[int]) -> Advice:
    """Every keep choice for the dice in front of a side, with exact odds.

    Args:
        hand: the side's faces (4 to `MAX_ADVISED_DICE` dice), any order.

    Returns:
        The choices, best first.

    Raises:
        InputError: a bad face, or a number of dice outside 4..`MAX_ADVISED_DICE` (fewer
            than 4 dice can never show a straight).
        RuleError: the hand already holds a straight (the fight is over).

    Source: seed 004; Y-M7 step 4, Y-A14 (keeping every die is allowed).
    """
    sorted_hand = check_faces(hand)
    n = _check_dice(len(sorted_hand))
    if best_straight(sorted_hand) is not None:
        raise RuleError(
            N_("the hand {hand} already holds a straight: the gang fight is over (Y-M7)"),
            hand=list(sorted_hand),
        )
    solution = _solve(n)
    order = _order(n, solution.keep_value)
    kept = sorted(sub_multisets(sorted_hand), key=order)
    choices = tuple(
        KeepChoice(k, n - len(k), _next_straight_probability(n, k), solution.keep_value[k])
        for k in kept
    )
    return Advice(sorted_hand, choices)


def advised_keep(hand: Sequence[int]) -> Hand:
    """The advised keep for a hand without a straight (see `advise`)."""
    sorted_hand = check_faces(hand)
    n = _check_dice(len(sorted_hand))
    kept = _solve(n).policy.get(sorted_hand)  # the hands without a straight
    if kept is not None:
        return kept
    if best_straight(sorted_hand) is not None:
        return advise(sorted_hand).hand  # raises the RuleError
    return _solve(n).policy[sorted_hand]


def advised_keeps(state: GangFight) -> Keeps:
    """Both sides' advised keeps for the next throw of a fight (empty before the first).

    Raises:
        RuleError: the fight is over.

    Source: seed 004; Y-M7.
    """
    if state.finished:
        raise RuleError(N_("the gang fight is over: there is nothing to keep (Y-M7)"))
    if state.throws == 0:
        return Keeps()
    return Keeps(advised_keep(state.players_hand), advised_keep(state.gm_hand))


def expected_throws(dice: int) -> Fraction:
    """Exact expected number of throws to a straight from the first throw, playing advised.

    Args:
        dice: the side's dice, 4 to `MAX_ADVISED_DICE`.

    Raises:
        InputError: a bad number of dice, or fewer than 4 (no straight is possible).
    """
    return _solve(_check_dice(dice)).keep_value[()]


@dataclass(frozen=True)
class ChainStep:
    """Where one advised throw leads from a kept multiset.

    Attributes:
        finish: best straight shown -> probability (the side is done).
        keep: the next advised keep -> probability (no straight yet).
    """

    finish: dict[Straight, Fraction]
    keep: dict[Hand, Fraction]


@cache
def chain_step(dice: int, kept: Hand) -> ChainStep:
    """The advised chain from ``kept``: throw the other dice, then keep what is advised.

    Args:
        dice: the side's dice (4 to `MAX_ADVISED_DICE`).
        kept: the faces kept before the throw (``()`` for the first throw).

    Raises:
        InputError: a bad number of dice or more kept faces than dice.
    """
    if len(kept) > _check_dice(dice):
        raise InputError(
            N_("{kept} keeps more faces than the side's {dice} dice"), kept=list(kept), dice=dice
        )
    policy = _solve(dice).policy
    finish: dict[Straight, Fraction] = {}
    keep: dict[Hand, Fraction] = {}
    for hand, p in _outcomes(dice, check_faces(kept)):
        straight = best_straight(hand)
        if straight is not None:
            finish[straight] = finish.get(straight, Fraction(0)) + p
        else:
            keep[policy[hand]] = keep.get(policy[hand], Fraction(0)) + p
    return ChainStep(finish, keep)
