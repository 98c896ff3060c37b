"""Recovering reserve points: failing on purpose, conceding, abandoning.

Three ways give points back to a reserve (G-M8):

* failing on purpose a fairly hard action outside any challenge: +1 (G-M7);
* conceding a challenge before its first turn: the reserve back to its starting value (G-A9);
* abandoning a challenge in progress: the points left are doubled (G-A8).

With the table option ``reserve_cap = starting`` (the default, G-A8) no recovery takes a
reserve above its starting value; Tablée applies the same cap to the +1 of G-M7 (the text
calls it a recovery too). A reserve already above its start (``reserve_cap = none`` earlier)
is never lowered by a recovery.

Source: seed ``002_59b03dd224c3b923.txt`` ("Hors challenge", "Récupération des réserves");
rulings G-M7, G-M8, G-A8, G-A9.
"""

from __future__ import annotations

from tablee.systems.agents.agent import Agent, Reserve

__all__ = ["abandoned", "conceded", "failed_on_purpose", "recovered"]


def recovered(agent: Agent, reserve: Reserve, value: int, *, capped: bool) -> Agent:
    """The agent with ``reserve`` raised to ``value``, capped at its start when ``capped``.

    A recovery never lowers a reserve.

    Source: G-A8.
    """
    now = agent.reserve(reserve)
    if capped:
        value = min(value, max(now, agent.start(reserve)))
    return agent.with_reserve(reserve, max(now, value))


def failed_on_purpose(agent: Agent, reserve: Reserve, *, capped: bool = True) -> Agent:
    """+1 to a reserve for failing a fairly hard action on purpose outside challenges.

    Source: seed 002, "Hors challenge"; G-M7, G-M8 (cap: Tablée's reading of G-A8).
    """
    return recovered(agent, reserve, agent.reserve(reserve) + 1, capped=capped)


def conceded(agent: Agent, reserve: Reserve) -> Agent:
    """The reserve back to its starting value after conceding before the first turn.

    Source: G-M8, G-A9.
    """
    return recovered(agent, reserve, agent.start(reserve), capped=True)


def abandoned(agent: Agent, reserve: Reserve, *, capped: bool = True) -> Agent:
    """The points left doubled after abandoning a challenge in progress.

    Source: G-M8, G-A8.
    """
    return recovered(agent, reserve, 2 * agent.reserve(reserve), capped=capped)
