"""Shared parts of the agents forms: choice lists, who a form acts for, chains and roll-offs.

The reserve and starting-value choices, the agents and challenges a viewer may pick, who a
form may act for (W-G1: a player acts only for the agents they play), names typed one per line
or separated by commas, one decision chained from several, and the fair roll-off (a d6 each,
ties roll again) that names a winner when the rules leave a tie.

Source: docs/web.md, "The agents game at the web table"; seed 002; rulings G-A12, G-A18; docs/web.md
W-G1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tablee.dice import D6, FairSource
from tablee.errors import N_
from tablee.systems import agents
from tablee.table.projection import TableState
from tablee.web.access import Viewer
from tablee.web.systems import (
    GM_AND_PLAYERS,
    GM_ONLY,
    ActionRequest,
    acting_for,
    every,
    every_or_none,
    owned,
    owner_choices,
)

__all__ = [
    "BOTH",
    "RESERVES",
    "VALUES",
    "acting_for_agent",
    "all_challenges",
    "chain",
    "every_agent_or_none",
    "open_of",
    "own_agents",
    "owners",
    "roll_off",
    "typed_names",
]

_GM = GM_ONLY
BOTH = GM_AND_PLAYERS
RESERVES = tuple((r.value, r.title) for r in agents.Reserve)
VALUES = (("7", "7"), ("5", "5"), ("3", "3"))
_ROLL_OFF_LIMIT = 100
"""Most rounds of a roll-off before giving up (each round ties with chance below 1)."""


# --- choices -------------------------------------------------------------------------------------


own_agents = owned("agents")
"""The agents the viewer plays (every agent for the game master)."""
_every = every("agents")
every_agent_or_none = every_or_none("agents")
owners = owner_choices(N_("the game master"))


def _challenge_label(challenge: Any) -> str:
    scores = ", ".join(f"{o.name} {o.score}" for o in challenge.oppositions)
    label = f" {challenge.label}" if challenge.label else ""
    return f"{challenge.number}. {challenge.kind.title}{label} ({scores})"


def open_of(kind: Any) -> Callable[[TableState, Viewer], list[tuple[str, str]]]:
    """The choices of the open challenges of one type (``kind``), for a form field."""

    def choices(state: TableState, viewer: Viewer) -> list[tuple[str, str]]:
        found = agents.open_challenges(state.game)
        return [(str(c.number), _challenge_label(c)) for c in found if c.kind is kind]

    return choices


def _open(state: TableState, viewer: Viewer) -> list[tuple[str, str]]:
    return [(str(c.number), _challenge_label(c)) for c in agents.open_challenges(state.game)]


def all_challenges(state: TableState, viewer: Viewer) -> list[tuple[str, str]]:
    """The choices of every challenge of the table, open or not, after an empty one."""
    return [("", "-"), *((str(n), _challenge_label(c)) for n, c in state.game.challenges.items())]


# --- helpers -------------------------------------------------------------------------------------


def acting_for_agent(req: ActionRequest, agent: str) -> str:
    """The agent's stored name; a player may act only for an agent they play (W-G1)."""
    game = req.state.game
    name: str = agents.agent_named(game, agent)
    acting_for(req, game.owners.get(name))
    return name


def typed_names(req: ActionRequest, field: str) -> list[str]:
    """Names one per line or separated by commas."""
    return [n.strip() for line in req.lines(field) for n in line.split(",") if n.strip()]


def chain(*steps: Callable[[Any], Any]) -> Callable[[TableState], Any]:
    """One decision made of several, each on the state the previous one leaves."""

    def decide(state: TableState) -> Any:
        game = state.game
        facts: list[Any] = []
        outcome: Any = None
        for step in steps:
            decision = step(game)
            facts += decision.facts
            outcome, game = decision.outcome, decision.after
        return agents.Decision(tuple(facts), outcome, (), game)

    return decide


def roll_off(candidates: Sequence[str]) -> str:
    """A d6 each, the highest wins, ties roll again (G-A12, G-A18), on the fair source."""
    tied = list(candidates)
    source = FairSource()
    for _ in range(_ROLL_OFF_LIMIT):
        if len(tied) <= 1:
            break
        rolls = {n: source.roll(D6, 1)[0] for n in tied}
        best = max(rolls.values())
        tied = [n for n in tied if rolls[n] == best]
    return tied[0]
