"""The enumeration half of the chance protocol: exact odds, simulation, absorbing chains.

Rule code written against `tablee.dice.Chance` is driven here without a random source:

* `exact` runs it once per possible roll (every multiset of faces, with its multiplicity,
  when the order does not matter; every sequence when it does) and returns a `Distribution`
  with exact integer weights;
* `simulate` runs it many times with a seeded source;
* `absorbing` runs one step of the rule code per state through `exact`, memoises the states
  and solves the absorbing Markov chain exactly with `Fraction` (`solve_absorbing` does the
  solving alone), for races with no bound on their length.

Kept apart from `tablee.dice.chance` (the protocol and the drivers of play) so that a roll
does not load it; `tablee.dice` and `tablee.dice.chance` give its names on first use.

Source: docs/architecture.md ("A mechanic", "One chance protocol"), after OpenSpiel's
chance nodes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb, lcm
from typing import Generic, TypeVar

from tablee.dice.chance import Chance, DiceRequest, SourceChance
from tablee.dice.distribution import Distribution, enumerate_rolls
from tablee.dice.sources import SeededSource
from tablee.errors import N_, InputError

__all__ = [
    "EXACT_BUDGET",
    "MAX_CHAIN_STATES",
    "Absorption",
    "End",
    "Next",
    "absorbing",
    "exact",
    "outcomes_of",
    "simulate",
    "solve_absorbing",
    "solve_exactly",
    "strongly_connected",
]

T = TypeVar("T", bound=Hashable)
S = TypeVar("S")
K = TypeVar("K", bound=Hashable)

EXACT_BUDGET = 250_000
"""Most rolls `exact` follows by default (each one runs the rule code once)."""
MAX_CHAIN_STATES = 200_000
"""Most states `absorbing` and `solve_absorbing` explore by default."""


# --- exact enumeration ---------------------------------------------------------------------


def _outcome_count(request: DiceRequest) -> int:
    distinct = len(set(request.die.faces))
    if request.ordered:
        return int(distinct**request.count)
    return comb(distinct + request.count - 1, request.count)


@lru_cache(maxsize=512)
def _outcomes(request: DiceRequest) -> tuple[tuple[tuple[int, ...], int], ...]:
    if request.ordered:
        values = sorted(Counter(request.die.faces).items())
        return tuple(
            (tuple(v for v, _ in combo), _product(m for _, m in combo))
            for combo in product(values, repeat=request.count)
        )
    merged: dict[tuple[int, ...], int] = {}
    for faces, weight in enumerate_rolls(request.die, request.count):
        merged[faces] = merged.get(faces, 0) + weight
    return tuple(merged.items())


def _product(values: Iterator[int]) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def outcomes_of(request: DiceRequest) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every way ``request`` can fall, with its weight (ordered rolls giving it).

    Args:
        request: the dice; a count from 0 to `tablee.dice.MAX_DICE_PER_REQUEST`.

    Returns:
        ``(faces, weight)`` pairs: sorted multisets when ``request.ordered`` is False, every
        sequence of face values when it is True; equal face values (the D+/- blanks) are
        merged, and the weights add up to ``sides ** count``.
    """
    if request.count < 0:
        raise InputError(
            N_("dice count {count!r} must be a whole number 0 or more"), count=request.count
        )
    return _outcomes(request)


class _Budget(Exception):
    """Raised inside a run when the enumeration passes its budget."""


class _Walker:
    """The chance handed to one run of `exact`: a fixed prefix, then first outcomes."""

    def __init__(self, prefix: Sequence[tuple[DiceRequest, int]], budget: int) -> None:
        self.prefix = prefix
        self.path: list[tuple[DiceRequest, int]] = []
        self.branches: list[int] = []  # depths where this run took a first outcome
        self.budget = budget
        self.numerator = 1
        self.denominator = 1

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        depth = len(self.path)
        if depth < len(self.prefix):
            asked, index = self.prefix[depth]
            if asked != request:
                raise RuntimeError(
                    f"a mechanic asked for {request} where an earlier run with the same "
                    f"faces asked for {asked}: its rule code is not deterministic"
                )
        else:
            if _outcome_count(request) > self.budget:
                raise _Budget
            index = 0
            self.branches.append(depth)
        faces, weight = outcomes_of(request)[index]
        self.path.append((request, index))
        self.numerator *= weight
        self.denominator *= request.die.sides**request.count
        return faces


def exact(run: Callable[[Chance], T], *, budget: int = EXACT_BUDGET) -> Distribution[T]:
    """The exact distribution of what ``run`` returns, over every roll it may ask for.

    ``run`` is executed once per possible roll: the first execution takes the first outcome
    of each request and notes the others; each noted alternative is executed again from the
    start with the faces before it fixed. ``run`` must be deterministic given the faces (pure
    rule code) and must not keep state between executions.

    Args:
        run: the rule code, asking for its dice through the chance it is given; what it
            returns must be hashable (an outcome id, a count, a tuple).
        budget: the most executions (rolls) to follow, 1 or more.

    Returns:
        A `Distribution` whose integer weights are proportional to the probabilities: when
        every roll asks for the same dice, they count ordered rolls out of
        ``sides ** count`` (the product over requests).

    Raises:
        InputError: more than ``budget`` rolls to follow; whatever ``run`` raises.
    """
    leaves: list[tuple[T, int, int]] = []
    stack: list[tuple[tuple[DiceRequest, int], ...]] = [()]
    while stack:
        prefix = stack.pop()
        walker = _Walker(prefix, budget)
        try:
            value = run(walker)
        except _Budget:
            raise _too_many(budget) from None
        leaves.append((value, walker.numerator, walker.denominator))
        if len(leaves) + len(stack) > budget:
            raise _too_many(budget)
        for depth in reversed(walker.branches):
            request = walker.path[depth][0]
            head = tuple(walker.path[:depth])
            for index in range(len(outcomes_of(request)) - 1, 0, -1):
                stack.append((*head, (request, index)))
        if len(leaves) + len(stack) > budget:
            raise _too_many(budget)
    common = lcm(*(d for _, _, d in leaves))
    weights: dict[T, int] = {}
    for value, numerator, denominator in leaves:
        weights[value] = weights.get(value, 0) + numerator * (common // denominator)
    return Distribution(weights)


def _too_many(budget: int) -> InputError:
    return InputError(
        N_("these odds would follow more than {budget} rolls, too many to compute exactly"),
        tip=N_("use fewer dice or smaller values"),
        budget=budget,
    )


def simulate(run: Callable[[Chance], T], trials: int, seed: int) -> Distribution[T]:
    """How often ``run`` returns each value over ``trials`` runs with seeded dice.

    Args:
        run: the rule code, as for `exact`.
        trials: number of runs, 1 or more.
        seed: the seed of one `SeededSource` shared by all runs (the same seed gives the
            same counts).

    Returns:
        A `Distribution` whose weights are the counts (they add up to ``trials``).

    Raises:
        InputError: ``trials`` below 1; whatever ``run`` raises.
    """
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise InputError(N_("trials {value!r} must be a whole number 1 or more"), value=trials)
    chance = SourceChance(SeededSource(seed))
    counts: dict[T, int] = {}
    for _ in range(trials):
        value = run(chance)
        counts[value] = counts.get(value, 0) + 1
    return Distribution(counts)


# --- absorbing chains ----------------------------------------------------------------------


@dataclass(frozen=True)
class Next(Generic[S]):
    """A step's result: the chain goes on from ``state``."""

    state: S


@dataclass(frozen=True)
class End(Generic[T]):
    """A step's result: the chain ends with ``outcome``."""

    outcome: T


@dataclass(frozen=True)
class Absorption(Generic[T]):
    """Exact results of an absorbing chain from its start.

    Attributes:
        outcomes: each outcome -> the probability that the chain ends with it (they add up
            to 1).
        expected_steps: the mean number of steps until the end, the last one included.
        states: the number of states explored (not counting the ends).
    """

    outcomes: Mapping[T, Fraction]
    expected_steps: Fraction
    states: int

    def probability(self, outcome: T) -> Fraction:
        """The probability that the chain ends with ``outcome`` (0 when it never does)."""
        return self.outcomes.get(outcome, Fraction(0))

    def probability_where(self, predicate: Callable[[T], bool]) -> Fraction:
        """The probability that the chain ends with an outcome satisfying ``predicate``."""
        return sum((p for o, p in self.outcomes.items() if predicate(o)), Fraction(0))


def absorbing(
    start: S,
    step: Callable[[S, Chance], Next[S] | End[T]],
    *,
    key: Callable[[S], Hashable] | None = None,
    max_states: int = MAX_CHAIN_STATES,
    budget: int = EXACT_BUDGET,
) -> Absorption[T]:
    """Exact outcome probabilities and expected steps of a chain driven by rule code.

    Each state's step is enumerated with `exact`: ``step(state, chance)`` runs ONE step of
    the rule code (one throw) and returns `Next` with the state reached or `End` with an
    outcome. States are memoised by ``key`` and the chain is solved by `solve_absorbing`.

    Args:
        start: the state before the first step.
        step: one step of the rule code.
        key: what identifies a state for memoising (two states with the same key must
            behave alike); the state itself by default, which must then be hashable.
        max_states: the most states to explore.
        budget: the most rolls per step (see `exact`).

    Returns:
        The outcomes' probabilities and the expected number of steps.

    Raises:
        InputError: more than ``max_states`` states, a step past ``budget`` rolls, or a
            state from which the chain never ends; whatever ``step`` raises.
    """
    ident: Callable[[S], Hashable] = key if key is not None else _identity
    states: dict[Hashable, S] = {}

    def tagged(state: S) -> Callable[[Chance], tuple[int, Hashable]]:
        def run(chance: Chance) -> tuple[int, Hashable]:
            result = step(state, chance)
            if isinstance(result, End):
                return 1, result.outcome
            k = ident(result.state)
            states.setdefault(k, result.state)
            return 0, k

        return run

    def transitions(k: Hashable) -> dict[Next[Hashable] | End[T], Fraction]:
        dist = exact(tagged(states[k]), budget=budget)
        total = dist.total
        out: dict[Next[Hashable] | End[T], Fraction] = {}
        for (ended, value), weight in dist.weights.items():
            target: Next[Hashable] | End[T] = End(value) if ended else Next(value)  # type: ignore[arg-type]
            out[target] = Fraction(weight, total)
        return out

    first = ident(start)
    states[first] = start
    return solve_absorbing(first, transitions, max_states=max_states)


def solve_absorbing(
    start: K,
    transitions: Callable[[K], Mapping[Next[K] | End[T], Fraction]],
    *,
    max_states: int = MAX_CHAIN_STATES,
) -> Absorption[T]:
    """Solve an absorbing Markov chain exactly from its transition probabilities.

    The states reachable from ``start`` are explored, split into strongly connected
    components, and solved component by component from the ends back (a component of one
    state with a loop on itself is ``v = c / (1 - p)``; a larger one by Gaussian
    elimination with `Fraction`), so a chain that never goes back costs one pass.

    Args:
        start: the first state (hashable).
        transitions: a state -> `Next` (a state) or `End` (an outcome) -> probability,
            adding up to 1.
        max_states: the most states to explore.

    Returns:
        The outcomes' probabilities and the expected number of steps from ``start``.

    Raises:
        InputError: more than ``max_states`` states, or a state from which the chain never
            ends.
    """
    graph: dict[K, Mapping[Next[K] | End[T], Fraction]] = {}
    todo = [start]
    while todo:
        state = todo.pop()
        if state in graph:
            continue
        if len(graph) >= max_states:
            raise InputError(
                N_("these odds have more than {maximum} states, too many to compute exactly"),
                tip=N_("use fewer dice or smaller values"),
                maximum=max_states,
            )
        graph[state] = moves = transitions(state)
        todo.extend(t.state for t in moves if isinstance(t, Next) and t.state not in graph)
    ends: dict[T, int] = {}
    for moves in graph.values():
        for target in moves:
            if isinstance(target, End) and target.outcome not in ends:
                ends[target.outcome] = len(ends)
    values = _solve(graph, ends)
    row = values[start]
    outcomes = {o: row[i] for o, i in ends.items() if row[i]}
    return Absorption(outcomes, row[-1], len(graph))


def _components(graph: Mapping[K, Mapping[Next[K] | End[T], Fraction]]) -> list[list[K]]:
    """The chain's strongly connected components, each after every component it leads to."""
    return strongly_connected(graph, lambda node: _successors(graph, node))


def strongly_connected(nodes: Iterable[K], successors: Callable[[K], Iterable[K]]) -> list[list[K]]:
    """Strongly connected components of a graph, each after every component it leads to.

    Tarjan's algorithm, iterative (a chain of thousands of states needs no deep recursion).

    Args:
        nodes: every node (hashable), in the order to start from.
        successors: a node's successors; each must be hashable.

    Returns:
        The components, each a list of nodes; a component comes after every component
        reachable from it, so solving them in order finds every successor solved first.
    """
    index: dict[K, int] = {}
    low: dict[K, int] = {}
    on_stack: set[K] = set()
    stack: list[K] = []
    found: list[list[K]] = []
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[K, Iterator[K]]] = []
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work.append((root, iter(successors(root))))
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(successors(child))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                found.append(component)
    return found


def _successors(graph: Mapping[K, Mapping[Next[K] | End[T], Fraction]], node: K) -> Iterator[K]:
    return (t.state for t in graph[node] if isinstance(t, Next))


def _solve(
    graph: Mapping[K, Mapping[Next[K] | End[T], Fraction]], ends: Mapping[T, int]
) -> dict[K, list[Fraction]]:
    """Each state's row: the probability of each end (by index), then the expected steps."""
    width = len(ends) + 1
    solved: dict[K, list[Fraction]] = {}
    for component in _components(graph):
        members = {s: i for i, s in enumerate(component)}
        size = len(component)
        matrix = [[Fraction(int(i == j)) for j in range(size)] for i in range(size)]
        rhs = [[Fraction(0)] * (width - 1) + [Fraction(1)] for _ in range(size)]
        for i, state in enumerate(component):
            for target, p in graph[state].items():
                if isinstance(target, End):
                    rhs[i][ends[target.outcome]] += p
                elif target.state in members:
                    matrix[i][members[target.state]] -= p
                else:
                    known = solved[target.state]
                    rhs[i] = [a + p * b for a, b in zip(rhs[i], known, strict=True)]
        for state, row in zip(component, _eliminate(matrix, rhs, component[0]), strict=True):
            solved[state] = row
    return solved


def solve_exactly(
    matrix: Sequence[Sequence[Fraction]], rhs: Sequence[Sequence[Fraction]]
) -> list[list[Fraction]]:
    """Solve ``matrix @ X = rhs`` exactly, by Gauss-Jordan elimination over `Fraction`.

    Args:
        matrix: n rows of n entries.
        rhs: n rows, each of the k right-hand sides' entries for that row (k >= 1).

    Returns:
        X: n rows of k entries.

    Raises:
        ValueError: the matrix is singular.
    """
    size = len(matrix)
    rows = [[*m, *r] for m, r in zip(matrix, rhs, strict=True)]
    for col in range(size):
        pivot = next((r for r in range(col, size) if rows[r][col] != 0), None)
        if pivot is None:
            raise ValueError("singular matrix")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [v / head for v in rows[col]]
        for r in range(size):
            factor = rows[r][col]
            if r != col and factor != 0:
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [row[size:] for row in rows]


def _eliminate(
    matrix: list[list[Fraction]], rhs: list[list[Fraction]], sample: object
) -> list[list[Fraction]]:
    """`solve_exactly`, refusing a chain that never ends (a singular matrix)."""
    try:
        return solve_exactly(matrix, rhs)
    except ValueError:
        raise _endless(sample) from None


def _endless(sample: object) -> InputError:
    return InputError(
        N_("from state {state} the chain never ends: these odds have no answer"),
        state=repr(sample),
    )


def _identity(state: object) -> Hashable:
    """The state itself, as its own key."""
    return state
