"""Race-optimal gang-fight advice: the keep that gives a side the best chance to WIN the race.

The advisor (`tablee.systems.ybs.advisor`) plays one side alone and minimises its expected
number of throws. A gang fight is a race, though: what a side wants is to show the first
straight, or the higher one when both come on the same throw and the ``higher_straight_wins``
option is on (off, simultaneous straights are a draw, Y-A13). This module scores every keep
by the exact chance to win, draw and lose against a stated policy of the other side, and
advises the keep maximising ``win + draw / 2`` (Tablée's ruling Y-X9, ``docs/rules/ybs.md``).

The model (Y-M7 steps 3-5, Y-A14). When keeps are chosen each side has ``n`` dice in front of
it and no straight yet. Both sides choose their keeps at the same time, then both reroll the
rest; a straight ends the fight. Only the SET of distinct faces in front of a side matters:
the straights it shows and what it can keep next. A state is the pair of face sets, written
as 6-bit masks (bit ``f - 1`` for face ``f``). A side's policy keeps a subset of its faces
(keeping a second copy of a face only fixes a die that could have been rerolled for nothing;
the tests check, by brute force over every multiset keep, that this loses nothing).

Opponent policies:

* ``"advisor"``: today's `advised_keep`, which does not look at our dice.
* ``"race"`` (the default): the race-optimal opponent. Starting from both sides playing the
  advisor, each side in turn is replaced by its best response to the other (with equal dice
  counts, one policy answering its own mirror image, which keeps the result symmetric), until
  neither side's choice changes anywhere: a pure stationary equilibrium, where each side's
  keep is a best response to the other's. If the iteration goes round in a cycle instead (or
  takes more than `MAX_ROUNDS` rounds), no pure equilibrium was found: the result says so
  (``equilibrium`` False with a note) and shows instead our best response to the advisor
  opponent.

Exactness. A best response is searched in floating point (value iteration, fast), then
checked EXACTLY: both policies are evaluated with `fractions.Fraction` (the chain of kept-set
pairs solved component by component, a loop on one pair as ``v = c / (1 - p)`` and a larger
component by Gaussian elimination), then every keep whose floating value comes within 1e-9 of
the chosen one is compared with exact fractions; an exactly better keep replaces the choice
and the search goes on. The win / draw / loss figures are therefore exact, and the advised
keep satisfies the Bellman optimality equation exactly against the opponent's policy.

Solutions are cached per ``(our dice, their dice, higher_straight_wins, opponent)``. The
search takes seconds to half a minute per game, too long for a table waiting for advice, so
the policies of every game of 4 to 6 dice a side are stored once in `race_table` (written by
``scripts/race_table.py`` from `solve`; a test checks them against a fresh search): loading
evaluates them exactly, in a fraction of a second.

Measured (``scripts/race_table.py``): with ``higher_straight_wins`` on, equal dice reach an
equilibrium and unequal dice cycle (the best responses alternate on a few states, as in
matching pennies); with the option off every game reaches one.

Source: seed 004, "Les combats de bande"; rulings Y-M7, Y-A13, Y-A14; Tablée's Y-X9 (the
advice maximises the chance to win the race against a stated opponent policy). The text
gives no strategy: the advice is Tablée's own.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Literal

from tablee.errors import N_, InputError, RuleError
from tablee.systems.ybs.advisor import advised_keep, sub_multisets
from tablee.systems.ybs.gang import GangFight, Keeps
from tablee.systems.ybs.straights import best_straight, check_faces

__all__ = [
    "MAX_ROUNDS",
    "NO_EQUILIBRIUM",
    "OPPONENTS",
    "Opponent",
    "RaceAdvice",
    "RaceChoice",
    "RaceOdds",
    "encode_policy",
    "race_advice",
    "race_keep",
    "race_keeps",
    "race_start_odds",
    "solve",
    "table_key",
]

Opponent = Literal["race", "advisor"]
OPPONENTS: tuple[Opponent, ...] = ("race", "advisor")
"""The opponent policies, the default first."""

MAX_ROUNDS = 40
"""The most best-response rounds before the search gives up on a pure equilibrium."""

Hand = tuple[int, ...]
Mask = int
State = tuple[Mask, Mask]  # (our face set, their face set)
Policy = dict[State, Mask]
Pair = tuple[Fraction, Fraction]  # (win, draw)

_WINDOWS = ((3, 0b111100), (2, 0b011110), (1, 0b001111))  # straight -> its faces' bits
_TOLERANCE = 1e-9  # keeps this close in floating point are compared exactly
_CONVERGED = 1e-13  # value iteration stops when no value moves more than this


def _best(mask: Mask) -> int:
    """The best straight in a face set: 0 for none, else its lowest face (Y-A13)."""
    for straight, bits in _WINDOWS:
        if mask & bits == bits:
            return straight
    return 0


def _mask(faces: Sequence[int]) -> Mask:
    out = 0
    for f in faces:
        out |= 1 << (f - 1)
    return out


def _faces(mask: Mask) -> Hand:
    return tuple(f for f in range(1, 7) if mask >> (f - 1) & 1)


def _size(mask: Mask) -> int:
    return bin(mask).count("1")


def _submasks(mask: Mask) -> Iterator[Mask]:
    """Every subset of ``mask``, the bigger ones with higher faces first."""
    subs = []
    sub = mask
    while True:
        subs.append(sub)
        if sub == 0:
            break
        sub = (sub - 1) & mask
    subs.sort(key=lambda s: (_size(s), s), reverse=True)
    return iter(subs)


@cache
def _open_sets(dice: int) -> tuple[Mask, ...]:
    """Every face set a side of ``dice`` dice can show without a straight."""
    return tuple(m for m in range(1, 64) if _size(m) <= dice and not _best(m))


@cache
def _shown(rerolled: int) -> tuple[tuple[Mask, Fraction], ...]:
    """The set of faces shown by ``rerolled`` dice, with its exact probability."""
    if rerolled == 0:
        return ((0, Fraction(1)),)
    total = 6**rerolled
    out = []
    for mask in range(1, 64):
        k = _size(mask)
        if k <= rerolled:
            onto = sum((-1) ** j * comb(k, j) * (k - j) ** rerolled for j in range(k + 1))
            out.append((mask, Fraction(onto, total)))
    return tuple(out)


@dataclass(frozen=True)
class _Step:
    """One throw of a side from a kept set: straights shown and open sets reached."""

    finish: tuple[tuple[int, Fraction], ...]  # straight (1..3) -> p
    finished: Fraction
    open: tuple[tuple[Mask, Fraction], ...]  # face set without a straight -> p
    finish_f: tuple[tuple[int, float], ...]
    finished_f: float
    open_f: tuple[tuple[Mask, float], ...]


@cache
def _step(kept: Mask, rerolled: int) -> _Step:
    finish: dict[int, Fraction] = {}
    reached: dict[Mask, Fraction] = {}
    for shown, p in _shown(rerolled):
        after = kept | shown
        straight = _best(after)
        target = finish if straight else reached
        key = straight if straight else after
        target[key] = target.get(key, Fraction(0)) + p
    done = sum(finish.values(), Fraction(0))
    return _Step(
        tuple(sorted(finish.items())),
        done,
        tuple(sorted(reached.items())),
        tuple((s, float(p)) for s, p in sorted(finish.items())),
        float(done),
        tuple((m, float(p)) for m, p in sorted(reached.items())),
    )


def _settle(ours: int, theirs: int, higher: bool) -> int:
    """1 we win, 0 a draw, -1 we lose, for straights shown on the same throw (0: none)."""
    if ours and not theirs:
        return 1
    if theirs and not ours:
        return -1
    if higher and ours != theirs:
        return 1 if ours > theirs else -1
    return 0


@cache
def _immediate(a: _Step, b: _Step, higher: bool) -> Pair:
    """Exact chance that this throw ends the fight with our win, and with a draw."""
    win = a.finished * (1 - b.finished)
    draw = Fraction(0)
    for s, p in a.finish:
        for t, q in b.finish:
            verdict = _settle(s, t, higher)
            if verdict > 0:
                win += p * q
            elif verdict == 0:
                draw += p * q
    return win, draw


@cache
def _immediate_f(a: _Step, b: _Step, higher: bool) -> float:
    win, draw = _immediate(a, b, higher)
    return float(win + draw / 2)


@dataclass(frozen=True)
class _Game:
    ours: int
    theirs: int
    higher: bool

    @property
    def states(self) -> list[State]:
        return [(s, t) for s in _open_sets(self.ours) for t in _open_sets(self.theirs)]

    def step_ours(self, kept: Mask) -> _Step:
        return _step(kept, self.ours - _size(kept))

    def step_theirs(self, kept: Mask) -> _Step:
        return _step(kept, self.theirs - _size(kept))

    @property
    def swapped(self) -> _Game:
        return _Game(self.theirs, self.ours, self.higher)


def _swap(policy: Mapping[State, Mask]) -> Policy:
    return {(t, s): k for (s, t), k in policy.items()}


# -- floating-point search ------------------------------------------------------------------


def _q_float(game: _Game, ka: Mask, kb: Mask, u: Mapping[Mask, float]) -> float:
    a = game.step_ours(ka)
    value = _immediate_f(a, game.step_theirs(kb), game.higher)
    for s2, p in a.open_f:
        value += p * u[s2]
    return value


def _u_float(game: _Game, kb: Mask, value: Mapping[State, float]) -> dict[Mask, float]:
    b = game.step_theirs(kb)
    return {s2: sum(q * value[s2, t2] for t2, q in b.open_f) for s2 in _open_sets(game.ours)}


def _best_response(
    game: _Game, theirs: Mapping[State, Mask], start: Policy, value: dict[State, float]
) -> tuple[Policy, dict[State, float]]:
    """Our floating-point best response to ``theirs`` by value iteration (warm started)."""
    policy = dict(start)
    while True:
        us = {kb: _u_float(game, kb, value) for kb in set(theirs.values())}
        scores: dict[tuple[Mask, Mask], float] = {}
        moved = 0.0
        fresh: dict[State, float] = {}
        for state in game.states:
            kb = theirs[state]
            u = us[kb]
            chosen = policy[state]
            best = -1.0
            for ka in (chosen, *_submasks(state[0])):
                if (ka, kb) not in scores:
                    scores[ka, kb] = _q_float(game, ka, kb, u)
                if scores[ka, kb] > best + _CONVERGED:
                    chosen, best = ka, scores[ka, kb]
            policy[state] = chosen
            fresh[state] = best
            moved = max(moved, abs(best - value[state]))
        value = fresh
        if moved < _CONVERGED:
            return policy, value


# -- exact evaluation -----------------------------------------------------------------------


def _evaluate(
    game: _Game, ours: Mapping[State, Mask], theirs: Mapping[State, Mask]
) -> dict[State, Pair]:
    """Exact (win, draw) from every state when both sides keep as their policies say.

    The chain runs on pairs of kept sets; it is solved component by component from the ends
    back (Tarjan's order), a component by Gaussian elimination with fractions.
    """
    graph: dict[State, tuple[Pair, dict[State, Fraction]]] = {}
    for state in game.states:
        node = (ours[state], theirs[state])
        if node in graph:
            continue
        a, b = game.step_ours(node[0]), game.step_theirs(node[1])
        moves: dict[State, Fraction] = {}
        for s2, p in a.open:
            for t2, q in b.open:
                nxt = (ours[s2, t2], theirs[s2, t2])
                moves[nxt] = moves.get(nxt, Fraction(0)) + p * q
        graph[node] = (_immediate(a, b, game.higher), moves)
    solved = _solve_chain(graph)
    return {state: solved[ours[state], theirs[state]] for state in game.states}


def _components(graph: Mapping[State, tuple[Pair, Mapping[State, Fraction]]]) -> list[list[State]]:
    """Strongly connected components, each after every component it leads to."""
    from tablee.dice.enumeration import strongly_connected  # only when a policy is solved

    return strongly_connected(graph, lambda node: graph[node][1])


def _solve_chain(graph: Mapping[State, tuple[Pair, Mapping[State, Fraction]]]) -> dict[State, Pair]:
    from tablee.dice.enumeration import solve_exactly  # only when a policy is solved

    solved: dict[State, Pair] = {}
    for component in _components(graph):
        members = {node: i for i, node in enumerate(component)}
        size = len(component)
        matrix: list[list[Fraction]] = []
        rhs: list[list[Fraction]] = []
        for i, node in enumerate(component):
            (win, draw), moves = graph[node]
            row = [Fraction(int(i == j)) for j in range(size)]
            for target, p in moves.items():
                if target in members:
                    row[members[target]] -= p
                else:
                    w, d = solved[target]
                    win += p * w
                    draw += p * d
            matrix.append(row)
            rhs.append([win, draw])
        for node, (win, draw) in zip(component, solve_exactly(matrix, rhs), strict=True):
            solved[node] = (win, draw)
    return solved


def _u_exact(game: _Game, kb: Mask, value: Mapping[State, Pair]) -> dict[Mask, Pair]:
    b = game.step_theirs(kb)
    out = {}
    for s2 in _open_sets(game.ours):
        win = draw = Fraction(0)
        for t2, q in b.open:
            w, d = value[s2, t2]
            win += q * w
            draw += q * d
        out[s2] = (win, draw)
    return out


def _q_exact(game: _Game, a: _Step, kb: Mask, u: Mapping[Mask, Pair]) -> Pair:
    win, draw = _immediate(a, game.step_theirs(kb), game.higher)
    for s2, p in a.open:
        w, d = u[s2]
        win += p * w
        draw += p * d
    return win, draw


def _score(pair: Pair) -> Fraction:
    return pair[0] + pair[1] / 2


def _exact_fix(
    game: _Game,
    ours: Policy,
    theirs: Mapping[State, Mask],
    value: Mapping[State, Pair],
    prefer: Mapping[State, Mask],
) -> int:
    """Settle our keeps with exact fractions; return how many changed.

    A keep EXACTLY worse than another is replaced by the best one; among exactly equal best
    keeps the one in ``prefer`` stays (so floating-point noise never moves a choice; any
    policy greedy for the exact values of a best response is one too, with the same values).
    """
    floats = {s: float(_score(v)) for s, v in value.items()}
    us_f = {kb: _u_float(game, kb, floats) for kb in set(theirs.values())}
    us: dict[Mask, dict[Mask, Pair]] = {}
    changed = 0
    for state in game.states:
        kb = theirs[state]
        chosen = ours[state]
        base = _q_float(game, chosen, kb, us_f[kb])
        close = [
            ka
            for ka in _submasks(state[0])
            if ka != chosen and _q_float(game, ka, kb, us_f[kb]) > base - _TOLERANCE
        ]
        if not close:
            continue
        if kb not in us:
            us[kb] = _u_exact(game, kb, value)
        scores = {
            ka: _score(_q_exact(game, game.step_ours(ka), kb, us[kb])) for ka in [chosen, *close]
        }
        top = max(scores.values())
        if scores[chosen] < top:
            chosen = next(ka for ka in close if scores[ka] == top)
        if prefer.get(state) in scores and scores[prefer[state]] == top:
            chosen = prefer[state]
        if chosen != ours[state]:
            ours[state] = chosen
            changed += 1
    return changed


# -- policies ---------------------------------------------------------------------------------


@cache
def _advisor_keep(dice: int, faces: Mask) -> Mask:
    """The advisor's keep for a face set (on a hand showing it, extra dice on its lowest face)."""
    shown = _faces(faces)
    hand = shown + (shown[0],) * (dice - len(shown))
    return _mask(advised_keep(hand))


def _advisor(game: _Game) -> tuple[Policy, Policy]:
    ours = {(s, t): _advisor_keep(game.ours, s) for s, t in game.states}
    theirs = {(s, t): _advisor_keep(game.theirs, t) for s, t in game.states}
    return ours, theirs


@dataclass(frozen=True)
class _Solved:
    ours: Policy
    theirs: Policy
    value: dict[State, Pair]
    equilibrium: bool
    rounds: int


def _respond(
    game: _Game, ours: Policy, theirs: Policy, start: Mapping[State, float] | None = None
) -> tuple[Policy, dict[State, Pair], int]:
    """Our exact best response to ``theirs``, from the keeps ``ours`` and values ``start``."""
    prefer = dict(ours)
    floats = dict(start) if start is not None else {s: 0.5 for s in game.states}
    rounds = 0
    while True:
        ours, floats = _best_response(game, theirs, ours, floats)
        value = _evaluate(game, ours, theirs)
        rounds += 1
        if not _exact_fix(game, ours, theirs, value, prefer):
            return ours, value, rounds
        floats = {s: float(_score(v)) for s, v in value.items()}


@cache
def _versus_advisor(game: _Game) -> _Solved:
    start, theirs = _advisor(game)
    ours, value, rounds = _respond(game, start, theirs)
    return _Solved(ours, theirs, value, True, rounds)


@cache
def _equilibrium(game: _Game) -> _Solved | None:
    """A pure equilibrium by best responses from the advisor (None: the search cycled)."""
    if game.ours > game.theirs:
        mirror = _equilibrium(game.swapped)
        if mirror is None:
            return None
        value = {(s, t): (1 - w - d, d) for (t, s), (w, d) in mirror.value.items()}
        return _Solved(_swap(mirror.theirs), _swap(mirror.ours), value, True, mirror.rounds)
    ours, theirs = _advisor(game)
    seen: set[tuple[tuple[Mask, ...], tuple[Mask, ...]]] = set()
    symmetric = game.ours == game.theirs
    warm: dict[State, float] | None = None
    warm_theirs: dict[State, float] | None = None
    for rounds in range(1, MAX_ROUNDS + 1):
        key = (tuple(ours[s] for s in game.states), tuple(theirs[s] for s in game.states))
        if key in seen:
            return None
        seen.add(key)
        if rounds == 1:  # the best response to the advisor, shared with `_versus_advisor`
            first = _versus_advisor(game)
            new_ours, value = dict(first.ours), first.value
        else:
            new_ours, value, _ = _respond(game, dict(ours), theirs, warm)
        warm = {s: float(_score(v)) for s, v in value.items()}
        if symmetric:
            new_theirs = _swap(new_ours)
        else:
            reply, seen_by_them, _ = _respond(
                game.swapped, _swap(theirs), _swap(new_ours), warm_theirs
            )
            warm_theirs = {s: float(_score(v)) for s, v in seen_by_them.items()}
            new_theirs = _swap(reply)
        if new_ours == ours and new_theirs == theirs:
            return _Solved(ours, theirs, value, True, rounds)
        ours, theirs = new_ours, new_theirs
    return None


def solve(ours: int, theirs: int, higher: bool, opponent: Opponent) -> _Solved:
    """Search and check the policies of one game from scratch (what `race_table` stores).

    Args:
        ours, theirs: dice per side, 4 to 6 (not checked here: the callers do).
        higher: the Y-A13 option.
        opponent: ``"race"`` (the equilibrium search, falling back to the best response to
            the advisor when it cycles) or ``"advisor"``.

    Returns:
        Both policies (state -> kept set), our exact (win, tie) from every state, whether
        an equilibrium was found, and the rounds it took. Seconds to half a minute.

    Source: Y-X9.
    """
    game = _Game(ours, theirs, higher)
    if opponent == "advisor":
        return _versus_advisor(game)
    found = _equilibrium(game)
    if found is None:
        fallback = _versus_advisor(game)
        return _Solved(fallback.ours, fallback.theirs, fallback.value, False, fallback.rounds)
    return found


def table_key(ours: int, theirs: int, higher: bool, opponent: Opponent) -> str:
    """The key of a solution in `race_table` (``"56-1-race"``)."""
    return f"{ours}{theirs}-{int(higher)}-{opponent}"


def encode_policy(solved: _Solved, ours: int, theirs: int, higher: bool) -> tuple[str, str]:
    """Both policies over the game's states, one character per keep (``"0"`` + mask)."""
    states = _Game(ours, theirs, higher).states
    return (
        "".join(chr(48 + solved.ours[s]) for s in states),
        "".join(chr(48 + solved.theirs[s]) for s in states),
    )


@cache
def _stored_table() -> dict[str, list[object]]:
    from tablee.systems.ybs.race_table import SOLUTIONS

    table: dict[str, list[object]] = json.loads(
        zlib.decompress(base64.b64decode(SOLUTIONS)).decode("ascii")
    )
    return table


@cache
def _solved(ours: int, theirs: int, higher: bool, opponent: Opponent) -> _Solved:
    """The policies of a game: from `race_table` when stored (then evaluated exactly)."""
    entry = _stored_table().get(table_key(ours, theirs, higher, opponent))
    if entry is None:
        return solve(ours, theirs, higher, opponent)
    mine, other, equilibrium, rounds = entry
    assert isinstance(mine, str) and isinstance(other, str) and isinstance(rounds, int)
    game = _Game(ours, theirs, higher)
    policy = {s: ord(c) - 48 for s, c in zip(game.states, mine, strict=True)}
    against = {s: ord(c) - 48 for s, c in zip(game.states, other, strict=True)}
    value = _evaluate(game, policy, against)
    return _Solved(policy, against, value, bool(equilibrium), rounds)


# -- the advice -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RaceChoice:
    """One keep and its exact odds of the race against the stated opponent.

    Attributes:
        kept: the faces kept, sorted (a sub-multiset of our hand).
        rerolled: how many dice are thrown again.
        win, draw, loss: exact probabilities adding up to 1, when we keep ``kept`` now and
            play race-optimal afterwards, against the opponent's policy.
    """

    kept: Hand
    rerolled: int
    win: Fraction
    draw: Fraction
    loss: Fraction

    @property
    def score(self) -> Fraction:
        """What the advice maximises: ``win + draw / 2`` (Y-X9)."""
        return self.win + self.draw / 2


@dataclass(frozen=True)
class RaceAdvice:
    """Every keep for our hand against their hand, best first (win, a tie counting half).

    Attributes:
        ours, theirs: both hands, sorted.
        opponent: the opponent's policy, ``"race"`` or ``"advisor"``.
        higher_straight_wins: the Y-A13 option.
        their_keep: what the opponent's policy keeps from their hand now.
        choices: every distinct sub-multiset of our hand, by ``win + draw / 2`` (higher
            first), the policy's own keep first among equals, then by win, then bigger keeps
            with higher faces.
        equilibrium: False when the race-optimal opponent was asked but the best-response
            search cycled: the figures are then against the advisor opponent (see ``note``).
        note: why the figures are against the advisor, or None.
    """

    ours: Hand
    theirs: Hand
    opponent: Opponent
    higher_straight_wins: bool
    their_keep: Hand
    choices: tuple[RaceChoice, ...]
    equilibrium: bool
    note: str | None

    @property
    def best(self) -> RaceChoice:
        """The advised keep."""
        return self.choices[0]


def _check_hand(faces: Sequence[int], what: str) -> tuple[Hand, Mask]:
    hand = check_faces(faces)
    if not 4 <= len(hand) <= 6:
        raise InputError(
            N_("{what}: a gang fight side has 4 to 6 dice, not {dice}"), what=what, dice=len(hand)
        )
    if best_straight(hand) is not None:
        raise RuleError(
            N_("the hand {hand} already holds a straight: the gang fight is over (Y-M7)"),
            hand=list(hand),
        )
    return hand, _mask(hand)


def _check_opponent(opponent: str) -> Opponent:
    if opponent == "race":
        return "race"
    if opponent == "advisor":
        return "advisor"
    raise InputError(
        N_("the opponent policy cannot be {value!r}: expected race or advisor (Y-X9)"),
        value=opponent,
    )


NO_EQUILIBRIUM = N_(
    "no pure equilibrium found (the best responses go round in a cycle): the odds shown are "
    "the best response to an opponent following the advisor"
)
"""The note of a result whose race-optimal opponent was not found (Y-X9)."""


def race_advice(
    ours: Sequence[int],
    theirs: Sequence[int],
    *,
    opponent: str = "race",
    higher_straight_wins: bool = True,
) -> RaceAdvice:
    """Every keep for our hand, with its exact win / draw / loss against their hand.

    Args:
        ours: our faces, 4 to 6 dice, no straight, any order.
        theirs: the other side's faces, 4 to 6 dice, no straight.
        opponent: their policy: ``"race"`` (race-optimal, default) or ``"advisor"``.
        higher_straight_wins: the Y-A13 option for straights on the same throw.

    Returns:
        The choices, the best chance to win first.

    Raises:
        InputError: a bad face, a count outside 4..6, an unknown opponent policy.
        RuleError: a hand already holding a straight (the fight is over).

    Source: seed 004; Y-M7 steps 4-5, Y-A13, Y-A14, Y-X9.
    """
    hand, s = _check_hand(ours, "ours")
    other, t = _check_hand(theirs, "theirs")
    policy = _check_opponent(opponent)
    higher = bool(higher_straight_wins)
    solved = _solved(len(hand), len(other), higher, policy)
    game = _Game(len(hand), len(other), higher)
    kb = solved.theirs[s, t]
    u = _u_exact(game, kb, solved.value)
    choices = []
    for kept in sub_multisets(hand):
        step = _step(_mask(kept), len(hand) - len(kept))
        win, draw = _q_exact(game, step, kb, u)
        choices.append(RaceChoice(kept, len(hand) - len(kept), win, draw, 1 - win - draw))
    best_keep = _faces(solved.ours[s, t])

    def order(c: RaceChoice) -> tuple[Fraction, bool, Fraction, int, tuple[int, ...]]:
        return (-c.score, c.kept != best_keep, -c.win, -len(c.kept), tuple(-f for f in c.kept))

    choices.sort(key=order)
    return RaceAdvice(
        hand,
        other,
        policy,
        higher,
        _faces(kb),
        tuple(choices),
        solved.equilibrium,
        None if solved.equilibrium else NO_EQUILIBRIUM,
    )


def race_keep(
    ours: Sequence[int],
    theirs: Sequence[int],
    *,
    opponent: str = "race",
    higher_straight_wins: bool = True,
) -> Hand:
    """The race-optimal keep for our hand against theirs (see `race_advice`)."""
    hand, s = _check_hand(ours, "ours")
    other, t = _check_hand(theirs, "theirs")
    solved = _solved(len(hand), len(other), bool(higher_straight_wins), _check_opponent(opponent))
    return _faces(solved.ours[s, t])


def race_keeps(state: GangFight, *, opponent: str = "race") -> Keeps:
    """Both sides' race-optimal keeps for the next throw of a fight (empty before the first).

    Each side's keep answers the other side's policy (``opponent``), with the fight's
    ``higher_straight_wins`` option.

    Raises:
        RuleError: the fight is over.

    Source: seed 004; Y-M7, Y-A13, Y-X9.
    """
    if state.finished:
        raise RuleError(N_("the gang fight is over: there is nothing to keep (Y-M7)"))
    if state.throws == 0:
        return Keeps()
    higher = state.options.higher_straight_wins
    players = race_keep(
        state.players_hand, state.gm_hand, opponent=opponent, higher_straight_wins=higher
    )
    gm = race_keep(
        state.gm_hand, state.players_hand, opponent=opponent, higher_straight_wins=higher
    )
    return Keeps(players, gm)


@dataclass(frozen=True)
class RaceOdds:
    """Exact odds of a whole fight from its first throw, seen from our side.

    Attributes:
        win, draw, loss: probabilities adding up to 1.
        equilibrium: False when the race-optimal opponent was asked but not found.
    """

    win: Fraction
    draw: Fraction
    loss: Fraction
    equilibrium: bool

    @property
    def score(self) -> Fraction:
        """``win + draw / 2``."""
        return self.win + self.draw / 2


def race_start_odds(
    ours: int,
    theirs: int,
    *,
    we_play: str = "race",
    opponent: str = "race",
    higher_straight_wins: bool = True,
) -> RaceOdds:
    """Exact odds of a fight from its first throw (every die thrown).

    Args:
        ours, theirs: dice per side, 4 to 6.
        we_play: ``"race"`` (our best response to the opponent) or ``"advisor"``.
        opponent: the other side's policy, ``"race"`` or ``"advisor"``.
        higher_straight_wins: the Y-A13 option.

    Raises:
        InputError: a count outside 4..6 or an unknown policy.

    Source: seed 004; Y-M7, Y-A13, Y-A14, Y-X9.
    """
    for dice in (ours, theirs):
        if isinstance(dice, bool) or not isinstance(dice, int) or not 4 <= dice <= 6:
            raise InputError(N_("a gang fight side has 4 to 6 dice, not {dice!r}"), dice=dice)
    mine, policy = _check_opponent(we_play), _check_opponent(opponent)
    higher = bool(higher_straight_wins)
    game = _Game(ours, theirs, higher)
    solved = _solved(ours, theirs, higher, policy)
    value = solved.value
    if mine == "advisor":
        value = _evaluate(game, _advisor(game)[0], solved.theirs)
    u = _u_exact(game, 0, value)
    win, draw = _q_exact(game, game.step_ours(0), 0, u)
    return RaceOdds(win, draw, 1 - win - draw, solved.equilibrium)
