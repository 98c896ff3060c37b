"""Recovering reserve points at the table: conceding, abandoning, failing on purpose.

Each ``decide_*`` function returns a `tablee.systems.agents.game.Decision` with one fact:
``agents.conceded``, ``agents.abandoned`` (version 2: it records the reserve before the
doubling), ``agents.failed_on_purpose``. The
arithmetic is in `tablee.systems.agents.reserves`, the challenge bookkeeping in
`tablee.systems.agents.challenge`.

Tablée's decision where the rulings are silent: failing on purpose (G-M7) is refused while
the agent is in the running in an open challenge ("outside any challenge").

Source: seed ``002_59b03dd224c3b923.txt`` ("Hors challenge", "Récupération des réserves");
rulings G-M7, G-M8, G-A8, G-A9, G-A15.
"""

from __future__ import annotations

from tablee.errors import N_, InputError, RuleError
from tablee.systems.agents.agent import reserve_named
from tablee.systems.agents.challenge import abandon, concede
from tablee.systems.agents.game import (
    AgentsState,
    Decision,
    actor_of,
    agent_named,
    challenge_numbered,
    one,
    open_challenges,
)
from tablee.systems.agents.reserves import abandoned, conceded, failed_on_purpose
from tablee.systems.base import JSON, Fact
from tablee.systems.common import replaced

__all__ = ["decide_abandon", "decide_concede", "decide_fail_on_purpose"]


def decide_concede(state: AgentsState, *, challenge: int, agent: str) -> Decision:
    """An agent gives a challenge up before its first turn: the reserve back in full (G-M8).

    Raises:
        NotFoundError: an unknown challenge or agent.
        RuleError: the challenge began, is over (unless lost at once before anyone acted)
            or its consequences are applied; the agent is not involved or already left.

    Source: G-M8, G-A9, G-A15.
    """
    current = challenge_numbered(state, challenge)
    name = agent_named(state, agent)
    if current.number in state.settled or current.number in state.settled_bouts:
        raise RuleError(
            N_("challenge {number} is settled: it is too late to concede it (rule G-M8)"),
            number=current.number,
        )
    moved = concede(current, name)
    hero = conceded(state.agents[name], current.kind)
    after = replaced(
        state,
        agents={**state.agents, name: hero},
        challenges={**state.challenges, current.number: moved},
    )
    payload: dict[str, JSON] = {
        "challenge": current.number,
        "agent": name,
        "kind": current.kind.value,
        "reserve": hero.reserve(current.kind),
        "ended": moved.outcome,
    }
    return one(Fact("agents.conceded", payload, actor=actor_of(state, name)), moved, after)


def decide_abandon(state: AgentsState, *, challenge: int, agent: str) -> Decision:
    """An agent leaves a challenge in progress: the points left doubled (G-M8, G-A8).

    Raises:
        NotFoundError: an unknown challenge or agent.
        RuleError: the challenge has not begun or is over; the agent is not in the running.

    Source: G-M8, G-A8, G-A15.
    """
    current = challenge_numbered(state, challenge)
    name = agent_named(state, agent)
    moved = abandon(current, name)
    capped = state.options.reserve_cap == "starting"
    hero = abandoned(state.agents[name], current.kind, capped=capped)
    after = replaced(
        state,
        agents={**state.agents, name: hero},
        challenges={**state.challenges, current.number: moved},
    )
    payload: dict[str, JSON] = {
        "challenge": current.number,
        "agent": name,
        "kind": current.kind.value,
        "reserve": hero.reserve(current.kind),
        "ended": moved.outcome,
        "before": state.agents[name].reserve(current.kind),
    }
    return one(Fact("agents.abandoned", payload, actor=actor_of(state, name)), moved, after)


def decide_fail_on_purpose(
    state: AgentsState, *, agent: str, reserve: str, reason: str = ""
) -> Decision:
    """An agent fails a fairly hard action on purpose outside challenges: +1 reserve (G-M7).

    Raises:
        InputError: a bad reserve or reason.
        NotFoundError: an unknown agent.
        RuleError: the agent is in the running in an open challenge (G-M7: outside any).

    Source: G-M7, G-M8 (cap: option ``reserve_cap``, G-A8).
    """
    name = agent_named(state, agent)
    which = reserve_named(reserve)
    if not isinstance(reason, str):
        raise InputError(N_("a reason must be text, not {value!r}"), value=reason)
    busy = [c.number for c in open_challenges(state, name) if name in c.running()]
    if busy:
        raise RuleError(
            N_(
                "{agent} is in challenge {number}: failing on purpose is for actions outside "
                "any challenge (rule G-M7)"
            ),
            tip=N_("abandon the challenge first, or fail on purpose once it is over"),
            agent=name,
            number=busy[0],
        )
    capped = state.options.reserve_cap == "starting"
    hero = failed_on_purpose(state.agents[name], which, capped=capped)
    after = replaced(state, agents={**state.agents, name: hero})
    payload: dict[str, JSON] = {
        "agent": name,
        "kind": which.value,
        "reason": reason.strip(),
        "reserve": hero.reserve(which),
        "before": state.agents[name].reserve(which),
    }
    return one(Fact("agents.failed_on_purpose", payload, actor=actor_of(state, name)), hero, after)
