"""Exact odds of the agents game: one action, and a whole challenge as a Markov chain.

An action's result depends only on its total modifier: its distribution is found by driving
`tablee.systems.agents.actions.play_action` (the d6 and `resolve_action`) through
`tablee.dice.exact`.

A challenge against one opposition, played by agents who act in turn with fixed modifiers
and never concede or abandon, is an absorbing Markov chain on (opposition score, the agents'
reserves, whose turn). Its definition is the rule code: `tablee.dice.absorbing` runs one
action per state (`next_actor`, `play_action`, `act` from
`tablee.systems.agents.challenge`, as live play does) and solves the chain exactly. Every
action lowers the score or one reserve, so the chain has no cycle; the default accelerator
is a memoised recursion over the same chain with `Fraction`, tested equal to the rule code
over a grid. The chance the agents win is exact, never sampled.

Source: seed ``002_59b03dd224c3b923.txt`` ("Résolution d'action", "Fin du challenge");
rulings G-M4, G-M5, G-M6, G-A4, G-A5, G-A20.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from tablee.dice import Chance, Distribution, End, Next, absorbing, exact
from tablee.errors import N_, InputError, Message
from tablee.systems.agents.actions import ActionRoll, Result, play_action
from tablee.systems.agents.agent import Reserve
from tablee.systems.agents.challenge import Challenge, act, next_actor, open_challenge

__all__ = [
    "MAX_CHAIN_DEPTH",
    "MAX_CHAIN_STATES",
    "action_distribution",
    "chain_states",
    "challenge_win_probability",
    "result_weights",
]

MAX_CHAIN_STATES = 2_000_000
"""Largest number of chain states Tablée agrees to explore for one question."""
MAX_CHAIN_DEPTH = 250
"""Largest score plus reserves (the longest possible challenge, in actions) explored."""


def action_distribution(modifier: int) -> Distribution[Result]:
    """Exact distribution of an action's result for a total modifier.

    Args:
        modifier: -`MAX_MODIFIER` to +`MAX_MODIFIER`.

    Returns:
        Result -> number of d6 faces (out of 6) giving it.

    Raises:
        InputError: a modifier out of range.

    Source: G-M4, G-A5.
    """
    roll = ActionRoll(modifier)
    return exact(lambda chance: play_action(roll, chance).result)


@lru_cache(maxsize=64)
def result_weights(modifier: int) -> tuple[int, int, int]:
    """Faces (out of 6) giving a critical, a success and a failure for a total modifier.

    Source: G-M4, G-A5.
    """
    dist = action_distribution(modifier)
    return (
        dist.weights.get(Result.CRITICAL, 0),
        dist.weights.get(Result.SUCCESS, 0),
        dist.weights.get(Result.FAILURE, 0),
    )


def _check(reserves: Sequence[int], modifiers: Sequence[int], score: int) -> None:
    if not reserves or len(reserves) != len(modifiers):
        raise InputError(
            N_("give one modifier per agent: {reserves} reserves, {modifiers} modifiers"),
            reserves=len(reserves),
            modifiers=len(modifiers),
        )
    named = [(N_("reserve"), r) for r in reserves] + [(N_("opposition score"), score)]
    for what, value in named:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InputError(
                N_("{what} {value!r} must be a whole number 0 or more"),
                what=Message(what),
                value=value,
            )
    for m in modifiers:
        ActionRoll(m)
    if score + sum(reserves) > MAX_CHAIN_DEPTH:
        raise InputError(
            N_("score and reserves add up to {count}, more than {maximum} actions to follow"),
            count=score + sum(reserves),
            maximum=MAX_CHAIN_DEPTH,
        )
    states = chain_states(reserves, score)
    if states > MAX_CHAIN_STATES:
        raise InputError(
            N_("this challenge has too many states to compute exactly ({count})"),
            tip=N_("use smaller reserves or score (at most {maximum} states)"),
            count=states,
            maximum=MAX_CHAIN_STATES,
        )


def chain_states(reserves: Sequence[int], score: int) -> int:
    """How many states the chain of a challenge can have: every score, reserve and turn.

    Args:
        reserves: each agent's reserve, 0 or more.
        score: the opposition's score, 0 or more.

    Returns:
        ``(score + 1) * (r1 + 1) * ... * (rn + 1) * n``, the bound `challenge_win_probability`
        checks against `MAX_CHAIN_STATES`.
    """
    states = score + 1
    for r in reserves:
        states *= r + 1
    return states * len(reserves)


def challenge_win_probability(
    reserves: Sequence[int], modifiers: Sequence[int], score: int, *, accelerated: bool = True
) -> Fraction:
    """Exact chance that the agents bring one opposition to 0 before all are out.

    The agents act in the listed order (G-A20), each with the same total modifier on every
    action; an agent at reserve 0 is out and skipped (G-M4); the opposition never acts
    (G-A19). A score of 0 is a win at once (G-A2).

    Args:
        reserves: each agent's current reserve of the challenge's type, 0 or more.
        modifiers: each agent's total modifier, in the same order.
        score: the opposition's score, 0 or more.
        accelerated: the memoised recursion (default); False drives the rule code
            (`next_actor`, `play_action`, `act`) through `tablee.dice.absorbing`.

    Returns:
        The probability, a `Fraction`.

    Raises:
        InputError: lengths that differ, a negative value, a modifier out of range, or a
            chain larger than `MAX_CHAIN_STATES`.

    Source: G-M4, G-M5, G-M6, G-A2, G-A4, G-A5, G-A19, G-A20.
    """
    _check(reserves, modifiers, score)
    if not accelerated:
        return _challenge_by_rules(tuple(reserves), tuple(modifiers), score)
    weights = tuple(result_weights(m) for m in modifiers)
    return _win(weights, score, tuple(reserves), 0)


@lru_cache(maxsize=1 << 16)
def _win(
    weights: tuple[tuple[int, int, int], ...], left: int, pools: tuple[int, ...], turn: int
) -> Fraction:
    """The chance of a win from one state of the chain, remembered across calls.

    Every action of a challenge asks about a state its earlier actions' chains went
    through (the same agents' weights, fewer points left), so one memo serves them all;
    it keeps the last 65,536 states.
    """
    if left <= 0:
        return Fraction(1)
    count = len(weights)
    order = [(turn + k) % count for k in range(count)]
    actor = next((i for i in order if pools[i] > 0), None)
    if actor is None:
        return Fraction(0)
    crit, hit, miss = weights[actor]
    following = (actor + 1) % count
    total = Fraction(0)
    if crit:
        total += crit * _win(weights, left - 2, pools, following)
    if hit:
        total += hit * _win(weights, left - 1, pools, following)
    if miss:
        drained = (*pools[:actor], pools[actor] - 1, *pools[actor + 1 :])
        total += miss * _win(weights, left, drained, following)
    return total / 6


_State = tuple[Challenge, tuple[int, ...]]


def _challenge_by_rules(
    reserves: tuple[int, ...], modifiers: tuple[int, ...], score: int
) -> Fraction:
    """The chance to win, with one action of the rule code per step of the chain."""
    names = tuple(f"agent {i + 1}" for i in range(len(reserves)))
    start = open_challenge(
        1, Reserve.MUSCLES, names, [("opposition", score)], dict(zip(names, reserves, strict=True))
    )
    if start.outcome is not None:
        return Fraction(int(start.outcome == "won"))

    def step(state: _State, chance: Chance) -> Next[_State] | End[bool]:
        challenge, pools = state
        agent = next_actor(challenge)
        assert agent is not None  # an open challenge always has someone to act
        i = names.index(agent)
        result = play_action(ActionRoll(modifiers[i]), chance).result
        moved, after, _ = act(challenge, agent, pools[i], result)
        if moved.outcome is not None:
            return End(moved.outcome == "won")
        return Next((moved, (*pools[:i], after, *pools[i + 1 :])))

    def key(state: _State) -> tuple[object, ...]:
        challenge, pools = state
        scores = tuple(o.score for o in challenge.oppositions)
        standing = tuple(challenge.standing[a].value for a in names)
        return scores, pools, challenge.turn, standing

    chain = absorbing((start, reserves), step, key=key, max_states=MAX_CHAIN_STATES)
    return chain.probability(True)
