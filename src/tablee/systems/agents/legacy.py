"""Folding stored agents facts into state by deciding each one again.

`evolve` takes a stored fact's *inputs* (who, which challenge, which modifiers, which face)
and runs the same ``decide_*`` function that produced it against the state the fold has
reached, so every rule is checked on every replay. Then it compares the stored payload with
the decided one: every field but the records must be equal, else InputError (the fact was
edited: a result its face does not give, a modifier total its ticks do not give). The records
(reserves and scores after, whether the challenge ended, the winner by the fallback rule) are
what was shown at the time; the state takes what the rules give now, so undoing an older
event changes what follows, and an undo that makes a later action impossible (an agent now
out, not due) is refused as a RuleError.

Source: architecture.md "The fold decides every event again"; rulings G-M1 to G-M12.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from tablee.errors import N_, InputError, Message
from tablee.systems.agents.adventure import (
    decide_consequence,
    decide_contest_challenge,
    decide_contest_close,
    decide_contest_settle,
    decide_contest_start,
    decide_draw,
    decide_generate,
    decide_quest,
    decide_quest_abandon,
    decide_scene,
    tables_from_json,
)
from tablee.systems.agents.game import (
    AgentsState,
    Decision,
    decide_action,
    decide_agent,
    decide_challenge,
    decide_options,
    decide_winner,
)
from tablee.systems.agents.recovery import decide_abandon, decide_concede, decide_fail_on_purpose
from tablee.systems.base import JSON
from tablee.systems.common import decide_again
from tablee.systems.options import stored_changes

__all__ = ["EVENT_VERSIONS", "RECORDS", "REDECIDE", "evolve"]

P = Mapping[str, JSON]
RECORDS = frozenset(
    {
        "reserve",
        "score",
        "ended",
        "winner",
        "records",
        "returned",
        "sitting_out",
        "holder",
        "odds",
        "before",
    }
)
"""Payload fields that record what was shown at the time, never compared on replay."""


def _options(state: AgentsState, p: P) -> Decision:
    return decide_options(state, stored_changes(p))


def _challenge(state: AgentsState, p: P) -> Decision:
    return decide_challenge(
        state,
        kind=p["kind"],
        agents=list(p["agents"]),
        oppositions=[(o["name"], o["score"]) for o in p["oppositions"]],
        label=p["label"],
    )


REDECIDE: dict[str, Callable[[AgentsState, P], Decision]] = {
    "agents.agent_created": lambda s, p: decide_agent(
        s,
        name=p["name"],
        muscles=p["muscles"],
        sexe=p["sexe"],
        intelligence=p["intelligence"],
        organisation=p["organisation"],
        signature=p["signature"],
        owner=p["owner"],
    ),
    "agents.challenge_opened": _challenge,
    "agents.action": lambda s, p: decide_action(
        s,
        challenge=p["challenge"],
        agent=p["agent"],
        modifiers=list(p["modifiers"]),
        face=p["face"],
        target=p["target"],
        declaration=p["declaration"],
    ),
    "agents.conceded": lambda s, p: decide_concede(s, challenge=p["challenge"], agent=p["agent"]),
    "agents.abandoned": lambda s, p: decide_abandon(s, challenge=p["challenge"], agent=p["agent"]),
    "agents.failed_on_purpose": lambda s, p: decide_fail_on_purpose(
        s, agent=p["agent"], reserve=p["kind"], reason=p["reason"]
    ),
    "agents.winner_named": lambda s, p: decide_winner(
        s, challenge=p["challenge"], agent=p["agent"]
    ),
    "agents.options_set": _options,
    "agents.quest_drawn": lambda s, p: decide_quest(
        s, tables=tables_from_json(p["tables"], p["source"]), source=p["source"], face=p["face"]
    ),
    "agents.table_drawn": lambda s, p: decide_draw(s, table=p["table"], face=p["face"]),
    "agents.scene_started": lambda s, p: decide_scene(s),
    "agents.challenge_generated": lambda s, p: decide_generate(
        s, agents=list(p["agents"]), faces=list(p["faces"]), opposition=p["opposition"]
    ),
    "agents.consequence_applied": lambda s, p: decide_consequence(s, challenge=p["challenge"]),
    "agents.quest_abandoned": lambda s, p: decide_quest_abandon(s),
    "agents.contest_started": lambda s, p: decide_contest_start(s, favori=p["favori"]),
    "agents.contest_challenge": lambda s, p: decide_contest_challenge(
        s,
        challengers=list(p["challengers"]),
        attribute=p["attribute"],
        wanting=list(p["wanting"]),
        allies=list(p["allies"]),
    ),
    "agents.contest_settled": lambda s, p: decide_contest_settle(
        s, challenge=p["challenge"], taker=p["taker"]
    ),
    "agents.contest_closed": lambda s, p: decide_contest_close(s, wanting=list(p["wanting"])),
}
"""Each stored kind -> how to decide it again from its payload's inputs."""

EVENT_VERSIONS: dict[str, int] = {kind: 1 for kind in REDECIDE} | {
    "agents.action": 2,
    "agents.abandoned": 2,
    "agents.consequence_applied": 2,
    "agents.failed_on_purpose": 2,
}
"""Current schema version of every agents event kind."""


def evolve(state: AgentsState, kind: str, payload: Mapping[str, JSON]) -> AgentsState:
    """Fold one stored fact into the state by deciding it again (pure).

    Args:
        state: the state the fold has reached.
        kind: the fact's kind (``agents.action``...).
        payload: its payload (current version).

    Returns:
        The state after the fact, as the rules give it now.

    Raises:
        RuleError: the fact cannot follow this state (an agent out acting, an unknown agent,
            an agent not due): refuses an undo that would break a later fact and an imported
            log that breaks a rule.
        InputError: an unknown kind, a missing or malformed field, or a stored result that
            differs from the decided one (an edited fact).

    Source: architecture.md "The fold decides every event again"; G-M1 to G-M12.
    """
    redecide = REDECIDE.get(kind)
    if redecide is None:
        raise InputError(N_("unknown agents event kind {kind!r}"), kind=kind)
    what = Message(N_("{kind} by {who}"), kind=kind, who=payload.get("agent") or "gm")
    return decide_again(redecide, state, payload, what, records=RECORDS)
