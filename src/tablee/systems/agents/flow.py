"""What the adventure needs next, for play without a game master.

`next_step` reads an agents table's state and says which decision comes next: draw the
quest, start a scene, draw its challenge, let the agent due act, name a winner, apply the
consequences, then the artefact contest. The command line's ``tablee agents play`` asks the
players for that step's answers, a scripted test feeds them, and either stores the decision;
stopping anywhere and calling `next_step` again resumes where the log stands.

Source: seed ``002_59b03dd224c3b923.txt`` ("Génération de scénario": "potentiellement de
jouer sans MJ"); rulings G-M5, G-M6, G-M9 to G-M12, G-A15 to G-A19.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tablee.systems.agents.challenge import next_actor, winner_candidates
from tablee.systems.agents.game import AgentsState
from tablee.systems.agents.quest import QuestStatus

__all__ = ["Step", "StepKind", "next_step"]


class StepKind(Enum):
    """The kinds of step of an adventure; the value is a stable id."""

    CREATE_AGENTS = "create_agents"
    DRAW_QUEST = "draw_quest"
    DRAW = "draw"
    START_SCENE = "start_scene"
    GENERATE = "generate"
    ACT = "act"
    NAME_WINNER = "name_winner"
    CONSEQUENCE = "consequence"
    START_CONTEST = "start_contest"
    CONTEST_CHALLENGE = "contest_challenge"
    SETTLE_BOUT = "settle_bout"
    DONE = "done"


@dataclass(frozen=True)
class Step:
    """The next step.

    Attributes:
        kind: what to decide.
        challenge: the challenge concerned (act, name_winner, consequence, settle_bout).
        agent: the agent due to act (act).
        candidates: the agents the fallback rule names (name_winner, G-A12).
        table: the table to draw from (draw): ``environments`` or ``boons``.
    """

    kind: StepKind
    challenge: int | None = None
    agent: str | None = None
    candidates: tuple[str, ...] = ()
    table: str | None = None


def _owed_draw(state: AgentsState) -> Step | None:
    """A draw the adventure still owes: where the agents arrive, or a boon (G-M9, G-A13)."""
    if state.scene == 0 and state.arrival is None:
        return Step(StepKind.DRAW, table="environments")
    if state.boons_owed > 0:
        return Step(StepKind.DRAW, table="boons")
    return None


def _scene_step(state: AgentsState) -> Step | None:
    """The scene's next action, then winner to name, then consequence (G-M5, G-M6, G-M10).

    Every won challenge of the scene has its winner named before any consequence applies:
    a consequence may accomplish the quest, and the other groups' wins still count (G-X1).
    """
    for number in state.scene_challenges:
        challenge = state.challenges[number]
        if challenge.is_open:
            return Step(StepKind.ACT, number, next_actor(challenge))
    unsettled = [n for n in state.scene_challenges if n not in state.settled]
    for number in unsettled:
        challenge = state.challenges[number]
        if challenge.outcome == "won" and challenge.winner is None and challenge.actions:
            return Step(StepKind.NAME_WINNER, number, candidates=winner_candidates(challenge))
    if unsettled:
        return Step(StepKind.CONSEQUENCE, unsettled[0])
    return None


def _quest_step(state: AgentsState) -> Step:
    step = _owed_draw(state) or _scene_step(state)
    if step is not None:
        return step
    if state.scene and not state.scene_challenges:
        return Step(StepKind.GENERATE)
    return Step(StepKind.START_SCENE)


def _contest_step(state: AgentsState) -> Step:
    if state.contest is None:
        # a boon still owed, then the scene's other groups, after the quest is won (G-X1)
        return _owed_draw(state) or _scene_step(state) or Step(StepKind.START_CONTEST)
    for number in state.bouts:
        if number in state.settled_bouts:
            continue
        challenge = state.challenges[number]
        if challenge.is_open:
            return Step(StepKind.ACT, number, next_actor(challenge))
        return Step(StepKind.SETTLE_BOUT, number)
    if state.contest.finished:
        return Step(StepKind.DONE)
    return Step(StepKind.CONTEST_CHALLENGE)


def next_step(state: AgentsState) -> Step:
    """The adventure's next step from the table's state.

    Returns:
        create_agents (no agent yet), draw_quest (no quest), then within the quest
        draw (where the agents arrive, before the first scene; a boon a consequence owes),
        start_scene / generate / act / name_winner (every won challenge of the scene) /
        consequence, then, once the quest is won, a boon still owed and the scene's other
        challenges (G-X1), then the contest's start_contest / contest_challenge / act /
        settle_bout, and done once the contest is finished or the quest failed or was
        abandoned.

    Source: G-M5, G-M6, G-M9 to G-M12; G-X1.
    """
    if not state.agents:
        return Step(StepKind.CREATE_AGENTS)
    if state.quest is None:
        return Step(StepKind.DRAW_QUEST)
    status = state.quest.status
    if status is QuestStatus.ONGOING:
        return _quest_step(state)
    if status is QuestStatus.WON:
        return _contest_step(state)
    return Step(StepKind.DONE)
