"""What the agents game shows, as data: agents, challenges, actions, the quest, the panels.

Every function returns `tablee.systems.plugin.Line`, `Panel` or `Report` values whose text
is a translatable `tablee.errors.Message` or a plain string (a name, a number); the
interfaces draw them. Game terms stay in French in every language: Sang, Muscles, Sexe,
Intelligence, favori.

Source: seed ``002_59b03dd224c3b923.txt``; rulings G-M1 to G-M12, G-N2, G-A6, G-A11.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tablee.errors import N_, Message, joined
from tablee.systems.agents.actions import CHECKLISTS, EXCLUSIVE, modifier_range
from tablee.systems.agents.adventure import quest_json
from tablee.systems.agents.agent import STARTING_SANG, Reserve, reserve_named
from tablee.systems.agents.challenge import Challenge
from tablee.systems.agents.flow import next_step
from tablee.systems.agents.game import AgentsState, agent_json, challenge_json, open_challenges
from tablee.systems.agents.log import RESULT_WORDS
from tablee.systems.agents.words import (
    OUTCOME_WORDS,
    QUEST_WORDS,
    STANDING_WORDS,
    TABLE_WORDS,
    word,
)
from tablee.systems.base import JSON
from tablee.systems.plugin import Gauge, Line, Panel, Text

__all__ = [
    "STEP_WORDS",
    "action_lines",
    "agent_lines",
    "challenge_lines",
    "checklist_panel",
    "listed",
    "panels",
    "quest_line",
    "roll_off_line",
    "summary",
    "summary_lines",
]

STEP_WORDS: Mapping[str, str] = {
    "create_agents": N_("create the agents"),
    "draw_quest": N_("draw a quest"),
    "draw": N_("draw from {table}"),
    "start_scene": N_("start the next scene"),
    "generate": N_("generate the scene's challenge"),
    "act": N_("{agent} acts in challenge {challenge}"),
    "name_winner": N_("name the winner of challenge {challenge}"),
    "consequence": N_("apply the consequences of challenge {challenge}"),
    "start_contest": N_("start the artefact contest"),
    "contest_challenge": N_("a challenge for the artefact, or close the contest"),
    "settle_bout": N_("settle contest challenge {challenge}"),
    "done": N_("the adventure is over"),
}
"""What the adventure needs next (`tablee.systems.agents.flow.StepKind`), in words."""


def listed(items: Sequence[Text], separator: str = ", ") -> Message:
    """Texts joined by a plain separator (a comma needs no translation)."""
    return joined(list(items), "{first}" + separator + "{rest}")


def roll_off_line(rounds: Sequence[Sequence[tuple[str, int]]]) -> Message:
    """A roll-off's rounds: each agent's d6, round after round (G-A12, G-A18)."""
    shown = listed([listed([f"{name} {face}" for name, face in r]) for r in rounds], "; ")
    return Message(N_("roll-off: {rolls}"), rolls=shown)


def _indented(text: Text) -> Message:
    return Message("  {text}", text=text)


def summary(state: AgentsState, options: dict[str, JSON]) -> dict[str, JSON]:
    """The agents, the challenges still open, the quest and the house rules, as JSON.

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
        "options": options,
    }


def agent_lines(name: str, doc: Mapping[str, Any]) -> list[Line]:
    """An agent's sheet: name and organisation, reserves now/start, Sang, object, wins."""
    head = f"{name} ({doc['organisation']})" if doc["organisation"] else name
    reserves = ", ".join(f"{r.title} {doc[r.value]}/{doc['starting'][r.value]}" for r in Reserve)
    lines = [Line(head, "heading"), Line(f"  {reserves}, Sang {doc['sang']}")]
    if doc["signature"]:
        lines.append(
            Line(_indented(Message(N_("signature object: {text}"), text=doc["signature"])))
        )
    lines.append(Line(_indented(Message(N_("challenges won: {count}"), count=doc["wins"]))))
    return lines


def challenge_lines(doc: Mapping[str, Any]) -> list[Line]:
    """A challenge: type and label, oppositions' scores, agents' standings, whose turn."""
    title: Text = Message(
        N_("Challenge {number} ({kind})"),
        number=doc["number"],
        kind=reserve_named(doc["kind"]).title,
    )
    if doc["label"]:
        title = Message("{title} {label}", title=title, label=doc["label"])
    lines = [Line(title, "heading")]
    for index, o in enumerate(doc["oppositions"], start=1):
        score = Message(
            N_("{name}: {score}/{start}"), name=o["name"], score=o["score"], start=o["start"]
        )
        lines.append(Line(Message("  {index}. {score}", index=index, score=score)))
    agents = listed(
        [
            Message(
                "{name} ({standing}, {spent})",
                name=a["name"],
                standing=word(STANDING_WORDS, a["standing"]),
                spent=a["spent"],
            )
            for a in doc["agents"]
        ]
    )
    lines.append(
        Line(_indented(Message(N_("agents (standing, points spent): {agents}"), agents=agents)))
    )
    if doc["outcome"] is None:
        lines.append(Line(_indented(Message(N_("next to act: {agent}"), agent=doc["next"]))))
    else:
        over = Message(N_("over: {outcome}"), outcome=word(OUTCOME_WORDS, doc["outcome"]))
        lines.append(Line(_indented(over)))
    return lines


def quest_line(quest: Mapping[str, Any]) -> Message:
    """The quest in one line: index, status, objective once revealed."""
    objective = quest["objective"] or Message(N_("secret until the index reaches 1"))
    return Message(
        N_("Quest: progress index {progress}, {status}; objective: {objective}"),
        progress=quest["progress"],
        status=word(QUEST_WORDS, quest["status"]),
        objective=objective,
    )


def summary_lines(state: AgentsState) -> list[Line]:
    """Each agent's sheet, each open challenge, the quest (``show`` and ``table show``)."""
    lines: list[Line] = []
    for name in state.agents:
        lines += agent_lines(name, agent_json(state, name))
    for challenge in open_challenges(state):
        lines += challenge_lines(challenge_json(challenge))
    quest = quest_json(state)
    if quest is not None:
        lines.append(Line(quest_line(quest)))
    return lines


_OUTCOME_STYLE = {"critical": "result", "success": "result", "failure": "warning"}


def action_lines(doc: Mapping[str, Any], trace: Sequence[Any]) -> list[Line]:
    """An action: who acts where, its trace, its result, the score and reserve, the end."""
    lines = [
        Line(
            Message(
                N_("{agent} acts in challenge {number}"),
                agent=doc["agent"],
                number=doc["challenge"],
            ),
            "heading",
        )
    ]
    lines += [Line(Message("  · {step}", step=Message(s.template, **s.params))) for s in trace]
    outcome = str(doc["outcome"])
    lines.append(Line(Message(RESULT_WORDS[outcome]), _OUTCOME_STYLE[outcome]))
    lines.append(
        Line(
            Message(
                N_("{opposition}: score {score}; {agent}'s {kind}: {reserve}"),
                opposition=doc["opposition"],
                score=doc["score"],
                agent=doc["agent"],
                kind=str(doc["kind"]).capitalize(),
                reserve=doc["reserve"],
            )
        )
    )
    state = doc["state"]
    if state["outcome"] == "won":
        lines.append(Line(Message(N_("The agents win the challenge.")), "result"))
    elif state["outcome"] == "lost":
        lines.append(Line(Message(N_("The opposition wins the challenge.")), "warning"))
    elif state["next"]:
        lines.append(Line(Message(N_("next to act: {agent}"), agent=state["next"])))
    return lines


def checklist_panel(kind: Reserve) -> Panel:
    """A challenge type's checklist: each modifier's words and value, what excludes what.

    Source: G-N2, G-A6.
    """
    low, high = modifier_range(kind)
    title = Message(
        N_("Checklist {kind} ({low:+d}..{high:+d})"), kind=kind.title, low=low, high=high
    )
    labels = {m.id: Message(m.label) for m in CHECKLISTS[kind]}
    rows: list[tuple[Text, Text]] = [(labels[m.id], f"{m.value:+d}") for m in CHECKLISTS[kind]]
    rows += [
        (listed([labels[i] for i in sorted(group)], " + "), Message(N_("not together")))
        for group in EXCLUSIVE[kind]
    ]
    return Panel(title, tuple(rows), brief=())  # folded: read when needed


def _challenge_panel(challenge: Challenge) -> Panel:
    doc = challenge_json(challenge)
    rows: list[tuple[Text, Text]] = [
        (str(o["name"]), f"{o['score']}/{o['start']}") for o in doc["oppositions"]
    ]
    rows += [
        (
            str(a["name"]),
            Message(
                "{standing}, {spent}",
                standing=word(STANDING_WORDS, a["standing"]),
                spent=a["spent"],
            ),
        )
        for a in doc["agents"]
    ]
    if doc["next"]:
        rows.append((Message(N_("Next to act")), str(doc["next"])))
    title = Message(
        N_("Challenge {number} ({kind})"), number=doc["number"], kind=challenge.kind.title
    )
    return Panel(title, tuple(rows))


def panels(state: AgentsState) -> tuple[Panel, ...]:
    """The panels at a glance: the adventure, the open challenges, the agents.

    The next step, the quest and the artefact's holder; each open challenge, with its
    type's checklist; then each agent's reserves (as bars), Sang (as tokens) and challenges won.

    Source: G-M1, G-M9 to G-M12, G-N2, G-A11.
    """
    step = next_step(state)
    table: Text = word(TABLE_WORDS, step.table) if step.table else ""
    next_text = Message(
        STEP_WORDS[step.kind.value], agent=step.agent or "", challenge=step.challenge, table=table
    )
    rows: list[tuple[Text, Text]] = [(Message(N_("Next step")), next_text)]
    quest = quest_json(state)
    if quest is not None:
        objective = quest["objective"] or Message(N_("secret until the index reaches 1"))
        rows += [
            (Message(N_("Progress index")), str(quest["progress"])),
            (Message(N_("Quest")), word(QUEST_WORDS, quest["status"])),
            (Message(N_("Scene")), str(quest["scene"])),
            (Message(N_("Objective")), objective),
        ]
        contest = quest["contest"]
        if contest is not None:
            rows.append((Message(N_("Artefact held by")), str(contest["holder"])))
    found = [Panel(Message(N_("Adventure")), tuple(rows))]
    open_now = open_challenges(state)
    found += [_challenge_panel(c) for c in open_now]
    found += [checklist_panel(kind) for kind in dict.fromkeys(c.kind for c in open_now)]
    for name in state.agents:
        doc = agent_json(state, name)
        owner: Text = str(doc["owner"]) if doc["owner"] else Message(N_("the game master"))
        a_rows: list[tuple[Text, Text]] = [(Message(N_("Played by")), owner)]
        a_rows += [(Message(N_("Challenges won")), str(doc["wins"]))]
        if doc["organisation"]:
            a_rows.append((Message(N_("Organisation")), str(doc["organisation"])))
        sang = int(doc["sang"])
        reserves = tuple(
            Gauge(r.title, int(doc[r.value]), int(doc["starting"][r.value]), "bar", brief=True)
            for r in Reserve
        )
        found.append(
            Panel(
                name,
                tuple(a_rows),
                gauges=(*reserves, Gauge("Sang", sang, max(sang, STARTING_SANG), "tokens", True)),
                muted=sang <= 0,
                brief=(),
            )
        )
    return tuple(found)
