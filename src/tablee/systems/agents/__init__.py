"""The agents game (seed 002, untitled; Tablée calls it ``agents``): the pure rules core.

Elite agents with Sang and three reserves (Muscles, Sexe, Intelligence) take on challenges
against oppositions with scores; each action is one d6 plus modifiers ticked from the
challenge type's checklist. Failures cost reserve points, which come back by failing on
purpose, conceding or abandoning. A scenario generator draws the challenges so a group can
play without a game master; the artefact goes to the favori after a contest.

Modules: `agent` (creation), `actions` (the checklist and the d6 mechanic), `challenge`
(oppositions, turns, end and winner), `reserves` (recovery arithmetic) and `recovery` (its
decisions), `odds` (exact odds of an action and of a whole challenge), `options` (house
rules), `game` (state and decisions), `replay` (`evolve` decides every stored fact again)
and `log` (one line per event). The scenario
generator: `generator` (drawing a challenge), `tables` (the replaceable random tables),
`quest` (index, consequences, Sang, scenes), `contest` (the artefact's books); `adventure`
stores their steps as facts and `flow` says what an adventure needs next.

Tablée's decisions where the rulings are silent are listed in the modules' docstrings and in
``docs/rules/agents.md``.

Source: seed ``002_59b03dd224c3b923.txt``; docs/rules/agents.md (G-M1 to G-M12, G-N1 to
G-N4, G-A1 to G-A20, G-T1 to G-T4).
"""

from __future__ import annotations

from typing import Any

from tablee.systems.agents.actions import (
    ACTION,
    CHECKLISTS,
    EXCLUSIVE,
    MAX_MODIFIER,
    ActionMechanic,
    ActionResult,
    ActionRoll,
    Modifier,
    Result,
    declared_modifier,
    modifier_range,
    play_action,
    resolve_action,
)
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
    quest_json,
    table_text,
    tables_from_json,
    tables_json,
)
from tablee.systems.agents.agent import (
    MAX_RESERVE,
    MAX_SANG,
    RESERVE_VALUES,
    STARTING_SANG,
    Agent,
    Reserve,
    create_agent,
    reserve_named,
)
from tablee.systems.agents.challenge import (
    MAX_OPPOSITIONS,
    MAX_SCORE,
    Challenge,
    Opposition,
    Standing,
    abandon,
    act,
    concede,
    mark_out,
    name_winner,
    next_actor,
    open_challenge,
    winner_candidates,
)
from tablee.systems.agents.contest import (
    Contest,
    ContestChallenge,
    ContestStart,
    ContestStep,
    close_contest,
    launch_challenge,
    next_challengers,
    opposition_for,
    settle_challenge,
    start_contest,
)
from tablee.systems.agents.flow import Step, StepKind, next_step
from tablee.systems.agents.game import (
    MAX_AGENTS,
    MAX_CHALLENGES,
    MAX_PLAYERS,
    AgentsState,
    Decision,
    actor_of,
    agent_json,
    agent_named,
    challenge_json,
    challenge_numbered,
    check_present,
    decide_action,
    decide_agent,
    decide_challenge,
    decide_options,
    decide_winner,
    initial_state,
    one,
    open_challenges,
    wins,
)
from tablee.systems.agents.generator import (
    CHALLENGE_GENERATOR,
    GENERATOR_OPTION_HELP,
    MAX_INVOLVED,
    QUEST_WON_AT,
    SHOWDOWN_AT,
    ChallengeGenerator,
    ChallengeInputs,
    GeneratedChallenge,
    GeneratorOptions,
    OppositionOptions,
    Relation,
    Source,
    challenge_distribution,
    opposition_score,
)
from tablee.systems.agents.generator import DEFAULT_OPTIONS as DEFAULT_GENERATOR_OPTIONS
from tablee.systems.agents.log import describe
from tablee.systems.agents.odds import (
    MAX_CHAIN_DEPTH,
    MAX_CHAIN_STATES,
    action_distribution,
    challenge_win_probability,
    result_weights,
)
from tablee.systems.agents.options import AGENTS_OPTION_HELP, AgentsOptions
from tablee.systems.agents.quest import (
    Consequence,
    Quest,
    QuestDraw,
    QuestStatus,
    SceneStart,
    abandon_quest,
    apply_consequence,
    check_involved,
    draw_quest,
    generate_challenge,
    quest_status,
    start_scene,
    with_agent,
)
from tablee.systems.agents.recovery import decide_abandon, decide_concede, decide_fail_on_purpose
from tablee.systems.agents.replay import EVENT_VERSIONS, evolve
from tablee.systems.agents.reserves import abandoned, conceded, failed_on_purpose, recovered
from tablee.systems.agents.tables import (
    MAX_SIDES,
    MAX_TEXT,
    TABLE_DRAW,
    Entry,
    GeneratorTables,
    Table,
    TableDraw,
    TableDrawer,
    TableKind,
    parse_table,
)
from tablee.systems.base import JSON, System
from tablee.systems.common import StandardSystem

__all__ = [
    "ACTION",
    "AGENTS",
    "AGENTS_OPTION_HELP",
    "CHALLENGE_GENERATOR",
    "CHECKLISTS",
    "DEFAULT_GENERATOR_OPTIONS",
    "EVENT_VERSIONS",
    "EXCLUSIVE",
    "GENERATOR_OPTION_HELP",
    "MAX_AGENTS",
    "MAX_CHAIN_DEPTH",
    "MAX_CHAIN_STATES",
    "MAX_CHALLENGES",
    "MAX_INVOLVED",
    "MAX_MODIFIER",
    "MAX_OPPOSITIONS",
    "MAX_PLAYERS",
    "MAX_RESERVE",
    "MAX_SANG",
    "MAX_SCORE",
    "MAX_SIDES",
    "MAX_TEXT",
    "QUEST_WON_AT",
    "RESERVE_VALUES",
    "SHOWDOWN_AT",
    "STARTING_SANG",
    "TABLE_DRAW",
    "ActionMechanic",
    "ActionResult",
    "ActionRoll",
    "Agent",
    "AgentsOptions",
    "AgentsState",
    "Challenge",
    "ChallengeGenerator",
    "ChallengeInputs",
    "Consequence",
    "Contest",
    "ContestChallenge",
    "ContestStart",
    "ContestStep",
    "Decision",
    "Entry",
    "GeneratedChallenge",
    "GeneratorOptions",
    "GeneratorTables",
    "Modifier",
    "Opposition",
    "OppositionOptions",
    "Quest",
    "QuestDraw",
    "QuestStatus",
    "Relation",
    "Reserve",
    "Result",
    "SceneStart",
    "Source",
    "Standing",
    "Step",
    "StepKind",
    "Table",
    "TableDraw",
    "TableDrawer",
    "TableKind",
    "abandon",
    "abandon_quest",
    "abandoned",
    "act",
    "action_distribution",
    "actor_of",
    "agent_json",
    "agent_named",
    "apply_consequence",
    "challenge_distribution",
    "challenge_json",
    "challenge_numbered",
    "challenge_win_probability",
    "check_involved",
    "check_present",
    "close_contest",
    "concede",
    "conceded",
    "create_agent",
    "decide_abandon",
    "decide_action",
    "decide_agent",
    "decide_challenge",
    "decide_concede",
    "decide_consequence",
    "decide_contest_challenge",
    "decide_contest_close",
    "decide_contest_settle",
    "decide_contest_start",
    "decide_draw",
    "decide_fail_on_purpose",
    "decide_generate",
    "decide_options",
    "decide_quest",
    "decide_quest_abandon",
    "decide_scene",
    "decide_winner",
    "declared_modifier",
    "describe",
    "draw_quest",
    "evolve",
    "failed_on_purpose",
    "generate_challenge",
    "initial_state",
    "launch_challenge",
    "mark_out",
    "modifier_range",
    "name_winner",
    "next_actor",
    "next_challengers",
    "next_step",
    "one",
    "open_challenge",
    "open_challenges",
    "opposition_for",
    "opposition_score",
    "parse_table",
    "play_action",
    "quest_json",
    "quest_status",
    "recovered",
    "reserve_named",
    "resolve_action",
    "result_weights",
    "settle_challenge",
    "start_contest",
    "start_scene",
    "table_text",
    "tables_from_json",
    "tables_json",
    "winner_candidates",
    "wins",
    "with_agent",
]


class _Agents(StandardSystem):
    """The agents game as a `tablee.systems.base.System`.

    Source: seed 002; docs/rules/agents.md.
    """

    def summary(self, state: Any) -> dict[str, JSON]:
        """The agents, the challenges still open, and the house rules.

        Returns:
            ``{"agents": {name: {owner, organisation, signature, sang, muscles, sexe,
            intelligence, starting, wins}}, "challenges": [open challenges],
            "quest": {progress, objective once revealed, status, scene, sitting_out, wins,
            unsettled, contest} or None, "options": {...}}``.
        """
        return {
            "agents": {name: agent_json(state, name) for name in state.agents},
            "challenges": [challenge_json(c) for c in open_challenges(state)],
            "quest": quest_json(state),
            "options": self.options_json(state),
        }


AGENTS = _Agents(
    id="agents",
    event_versions=EVENT_VERSIONS,
    option_help=AGENTS_OPTION_HELP,
    initial_state=initial_state,
    evolve=evolve,
    describe=describe,
    decide_options=decide_options,
)
"""The agents system object for the table layer (registered by `tablee.systems`)."""
_AGENTS_IS_A_SYSTEM: System = AGENTS
