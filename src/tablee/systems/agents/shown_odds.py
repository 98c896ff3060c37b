"""The exact odds shown before an action, and the record of them its event keeps.

Before an agent acts, Tablée shows the action's chances (a critical, a success, a failure,
from its total modifier) and the agents' chance to win the challenge: the agents still in
it act in turn from the one acting now, the others without modifier, against the targeted
opposition (else the weakest still standing), never conceding or abandoning. The
``agents.action`` event (version 2) records those odds as exact fractions, ``"p/q"``, so a
table keeps what its players were shown.

The challenge's chance is recorded when its chain has at most `RECORDED_WIN_STATES` states
(a few milliseconds to solve); a larger chain is recorded as None (not recorded), so that an
action, and every check of it on import or undo, stays cheap.

Source: G-M4, G-M5, G-A5, G-A20.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from tablee.dice import Distribution
from tablee.systems.agents.actions import Result
from tablee.systems.agents.challenge import Challenge, Standing
from tablee.systems.agents.game import AgentsState
from tablee.systems.agents.odds import (
    action_distribution,
    chain_states,
    challenge_win_probability,
)
from tablee.systems.base import JSON

__all__ = ["RECORDED_WIN_STATES", "Race", "exact_text", "odds_record", "race_of"]

RECORDED_WIN_STATES = 10_000
"""Most chain states of a challenge whose chance to win an action's event records."""


def exact_text(p: Fraction) -> str:
    """A probability as stored: ``"p/q"`` in lowest terms, ``"0/1"`` and ``"1/1"`` included."""
    return f"{p.numerator}/{p.denominator}"


@dataclass(frozen=True)
class Race:
    """What the agents' chance to win a challenge counts, from the action about to be made.

    Attributes:
        reserves: the reserves of the agents still in the challenge, in turn order from the
            one acting now (empty: nobody is left to act, the chance is not shown).
        modifiers: their total modifiers (the acting agent's, 0 for the others).
        score: the opposition's score the chance is counted against.
    """

    reserves: tuple[int, ...]
    modifiers: tuple[int, ...]
    score: int

    def win(self) -> Fraction | None:
        """The agents' exact chance to win, or None when nobody is left to act.

        Raises:
            InputError: a chain larger than `tablee.systems.agents.odds.MAX_CHAIN_STATES`.
        """
        if not self.reserves:
            return None
        return challenge_win_probability(self.reserves, self.modifiers, self.score)


def race_of(
    state: AgentsState, challenge: Challenge, agent: str, modifier: int, target: int | None
) -> Race:
    """The race the odds of an action count (see the module docstring).

    Args:
        state: the table before the action.
        challenge: the challenge acted in.
        agent: the acting agent.
        modifier: the action's total modifier.
        target: the targeted opposition's number from 1, or None (an out-of-range number
            counts as None).

    Source: G-M5, G-A20.
    """
    kind = challenge.kind
    running = [
        a
        for a in challenge.agents
        if challenge.standing[a] is Standing.ACTIVE and state.agents[a].reserve(kind) > 0
    ]
    if agent in running:  # the agents act in turn from this one (G-A20)
        start = running.index(agent)
        running = running[start:] + running[:start]
    if target is not None and 1 <= target <= len(challenge.oppositions):
        score = challenge.oppositions[target - 1].score
    else:
        score = min((o.score for o in challenge.oppositions if o.score > 0), default=0)
    return Race(
        tuple(state.agents[a].reserve(kind) for a in running),
        tuple(modifier if a == agent else 0 for a in running),
        score,
    )


def _results(dist: Distribution[Result]) -> dict[str, JSON]:
    return {r.value: exact_text(dist.probability(r)) for r in Result}


def odds_record(
    state: AgentsState, challenge: Challenge, agent: str, modifier: int, target: int | None
) -> dict[str, JSON]:
    """The odds shown before an action, as its event records them.

    Returns:
        ``{"results": {"critical": "p/q", "success": "p/q", "failure": "p/q"}, "win":
        "p/q" or None, "score": n}``: the action's results for its total modifier, the
        agents' chance to win the challenge (None when nobody is left to act or its chain
        has more than `RECORDED_WIN_STATES` states) and the score that chance is counted
        against.

    Source: G-M4, G-M5, G-A5, G-A20.
    """
    race = race_of(state, challenge, agent, modifier, target)
    win = None
    if race.reserves and chain_states(race.reserves, race.score) <= RECORDED_WIN_STATES:
        win = race.win()
    return {
        "results": _results(action_distribution(modifier)),
        "win": None if win is None else exact_text(win),
        "score": race.score,
    }
