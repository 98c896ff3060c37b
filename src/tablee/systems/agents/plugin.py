"""The agents game as one plugin: commands decided, events applied, reports, odds and panels.

Source: seed ``002_59b03dd224c3b923.txt``; docs/rules/agents.md (G-M1 to G-M12, G-N1 to
G-N4, G-A1 to G-A20, G-T1 to G-T4).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import ClassVar

from tablee.dice import Chance, is_whole_in_reach, read_whole
from tablee.errors import N_, InputError, Message
from tablee.systems.agents import reports
from tablee.systems.agents.actions import (
    CHECKLISTS,
    EXCLUSIVE,
    HIGHEST_MODIFIER,
    LOWEST_MODIFIER,
    ActionResult,
    ActionRoll,
    Result,
    declared_modifier,
    modifier_range,
    resolve_action,
)
from tablee.systems.agents.agent import Reserve, reserve_named
from tablee.systems.agents.commands import (
    AGENTS,
    COMMANDS,
    KINDS,
    LANGUAGES,
    Act,
    ActionOdds,
    AgentsCommand,
    ChallengeOdds,
    Checklist,
    ContestChallenge,
    CreateAgent,
    OpenChallenge,
    Show,
    Tables,
)
from tablee.systems.agents.decide import (
    RollOff,
    challenge_for,
    decide,
    decide_options,
    names,
    redecide_stored,
    the_agent,
)
from tablee.systems.agents.events import EVENTS, ActionTaken, AgentsEvent, QuestDrawn
from tablee.systems.agents.fold import apply
from tablee.systems.agents.game import AgentsState, agent_json, challenge_json, initial_state
from tablee.systems.agents.legacy import evolve as legacy_evolve
from tablee.systems.agents.log import RESULT_WORDS, describe
from tablee.systems.agents.odds import action_distribution, challenge_win_probability
from tablee.systems.agents.options import (
    AGENTS_OPTION_HELP,
    AGENTS_OPTION_LABELS,
    AGENTS_OPTION_WORDS,
)
from tablee.systems.agents.shown_odds import exact_text, race_of
from tablee.systems.agents.starters import LANGUAGES as TABLE_LANGUAGES
from tablee.systems.agents.starters import starter_tables
from tablee.systems.agents.tables import Table, TableKind, parse_table
from tablee.systems.base import JSON
from tablee.systems.common import find_name, whole
from tablee.systems.declare import Query
from tablee.systems.event import Event
from tablee.systems.plugin import Card, Decision, Game, Line, Odds, Panel, Report, Text

__all__ = ["AGENTS_GAME", "Agents"]

ADVENTURE = (
    "quest",
    "draw",
    "scene",
    "generate",
    "consequence",
    "give-up",
    "contest start",
    "contest challenge",
    "contest settle",
    "contest close",
)
"""The steps of the scenario generator and the contest: each reports its events' lines."""


def _numbers(text: str, what: str, *, plus: bool = False) -> list[int]:
    """``7,5,3`` as numbers (InputError naming the option and the value).

    ``plus``: a number may be written ``+N`` too (modifiers, which add or remove).
    """
    values = []
    for part in text.replace(" ", "").split(","):
        value = read_whole(part, plus=plus)
        if value is None or not is_whole_in_reach(value):
            raise InputError(
                N_("{what} {value!r}: expected whole numbers separated by commas, e.g. 7,5,3"),
                what=what,
                value=text[:60],
            )
        values.append(value)
    return values


def _events_report(decision: Decision[AgentsState]) -> Report:
    """A step's events, one line each, and their payloads as JSON."""
    lines = []
    for event in decision.events:
        lines.append(Line(describe(event.kind, event.payload(), decision.after)))
    if isinstance(decision.outcome, RollOff):
        lines.insert(0, _roll_off_line(decision.outcome))
    events: list[JSON] = [_shown_payload(e) for e in decision.events]
    return Report(tuple(lines), {"events": events})


def _shown_payload(event: Event) -> dict[str, JSON]:
    """An event as a report shows it: ``{"kind": stored kind, "payload": {...}}``.

    The payload is nested, as ``table log --json`` shows events, so that a payload's own
    ``kind`` (a challenge's or a reserve's type) never hides the event's. A quest's objective
    and its face stay out: the objective stays secret from everyone at the table until the
    index reaches 1 (G-M9), so a report (the command line's ``--json``, the JSON API) names
    neither it nor the face that drew it; the stored event keeps both, for the replay.
    """
    payload = event.payload()
    if isinstance(event, QuestDrawn):
        payload["objective"] = None
        payload["face"] = None
    return {"kind": event.kind, "payload": payload}


def _roll_off_line(off: RollOff) -> Line:
    return Line(reports.roll_off_line(off.rounds), "muted")


def _table_json(table: Table) -> dict[str, JSON]:
    return {
        "source": table.source,
        "die": table.die.name,
        "entries": [{"low": e.low, "high": e.high, "text": e.text} for e in table.entries],
    }


class Agents(Game[AgentsState, AgentsCommand, AgentsEvent]):
    """The agents game (seed 002): challenges, reserves, the scenario generator, the artefact."""

    id: ClassVar[str] = "agents"
    title: ClassVar[str] = "Agents"
    rules_version: ClassVar[str] = "1"
    commands = COMMANDS
    event_classes = EVENTS
    option_help: ClassVar[Mapping[str, str]] = AGENTS_OPTION_HELP
    option_labels: ClassVar[Mapping[str, str]] = AGENTS_OPTION_LABELS
    option_words: ClassVar[Mapping[str, Mapping[str, str]]] = AGENTS_OPTION_WORDS
    state_type: ClassVar[type | None] = AgentsState
    state_version: ClassVar[int] = 2
    recorded_only: ClassVar[tuple[str, ...]] = ("odds", "before")

    def initial_state(self, created: Mapping[str, JSON]) -> AgentsState:
        """The state of a new table (G-A2, G-A8, G-A20 for its options)."""
        return initial_state(created)

    def decide(
        self, state: AgentsState, command: AgentsCommand, dice: Chance
    ) -> Decision[AgentsState]:
        """Decide an agents command, throwing its dice from ``dice``."""
        return decide(state, command, dice)

    def apply(self, state: AgentsState, event: AgentsEvent) -> AgentsState:
        """The state after an event, from its recorded outcome."""
        return apply(state, event)

    def legacy_evolve(
        self, state: AgentsState, kind: str, payload: Mapping[str, JSON]
    ) -> AgentsState:
        """The fold of Tablée 0.1.0 (every event decided again), for its logs with undos."""
        return legacy_evolve(state, kind, payload)

    def change_options(
        self, state: AgentsState, changes: Mapping[str, str]
    ) -> Decision[AgentsState]:
        """Change the house rules from text values."""
        return decide_options(state, changes)

    def redecide(self, state: AgentsState, event: AgentsEvent) -> Decision[AgentsState]:
        """Decide an event again from its recorded inputs.

        The house rules, a quest and a drawn challenge are decided from what they stored.
        """
        again = redecide_stored(state, event)
        return again if again is not None else super().redecide(state, event)

    # -- who acts -----------------------------------------------------------------------

    def choices(self, state: AgentsState, source: str) -> tuple[str, ...]:
        """The players, the agents, the challenge types (their ids) or the tables' languages."""
        if source == AGENTS:
            return tuple(state.agents)
        if source == KINDS:
            return tuple(r.value for r in Reserve)
        if source == LANGUAGES:
            return TABLE_LANGUAGES
        return super().choices(state, source)

    def owner(self, state: AgentsState, name: str) -> str | None:
        """The player named so, or the player who plays the agent named so (None: the GM)."""
        player = super().owner(state, name)
        if player is not None:
            return player
        try:
            agent = find_name(state.agents, name, N_("an agent's name"))
        except InputError:
            return None
        return None if agent is None else state.owners.get(agent)

    def acting(self, state: AgentsState, command: AgentsCommand) -> tuple[str, ...]:
        """The agent who acts (the one due when none is named), or every challenger."""
        if isinstance(command, Act):
            current = challenge_for(state, command.challenge, command.agent)
            return (the_agent(state, current, command.agent),)
        if isinstance(command, ContestChallenge):
            return tuple(names(state, command.challengers))
        return super().acting(state, command)

    # -- what people read -----------------------------------------------------------------

    def line(self, event: AgentsEvent, after: AgentsState | None) -> Message:
        """The log line of an event."""
        return describe(event.kind, event.payload(), after)

    def details(self, event: AgentsEvent) -> tuple[Text, ...]:
        """The trace of an action, resolved again from its stored face and modifier."""
        if not isinstance(event, ActionTaken):
            return ()
        try:
            result = resolve_action(ActionRoll(event.modifier), [event.face])
        except InputError:
            return ()
        return tuple(Message(step.template, **step.params) for step in result.trace)

    def card(self, event: AgentsEvent, after: AgentsState | None) -> Card | None:
        """An action in a challenge as a card: its d6, the result, what it cost."""
        from tablee.systems.agents import cards  # only the web log draws cards
        from tablee.systems.agents.events import ActionTaken

        return cards.card(event) if isinstance(event, ActionTaken) else None

    def report(self, command: AgentsCommand, decision: Decision[AgentsState]) -> Report:
        """What a decided agents command shows."""
        after = decision.after
        event = decision.events[0]
        if isinstance(command, CreateAgent):
            name = event.payload()["name"]
            assert isinstance(name, str)
            doc = agent_json(after, name)
            lines = [Line(Message(N_("Agent {name} created."), name=name))]
            return Report(
                (*lines, *reports.agent_lines(name, doc)), {"agent": {"name": name, **doc}}
            )
        if isinstance(command, OpenChallenge):
            doc = challenge_json(after.challenges[decision.outcome.number])
            return Report(tuple(reports.challenge_lines(doc)), {"challenge": doc})
        if isinstance(event, ActionTaken):
            return self._action_report(event, decision)
        if command.name in ADVENTURE:
            return _events_report(decision)
        lines = [Line(describe(event.kind, event.payload(), after))]
        if isinstance(decision.outcome, RollOff):
            lines.insert(0, _roll_off_line(decision.outcome))
        return Report(tuple(lines), event.payload())

    def _action_report(self, event: ActionTaken, decision: Decision[AgentsState]) -> Report:
        after = decision.after
        sheet = agent_json(after, event.agent)
        doc: dict[str, JSON] = {
            "challenge": event.challenge,
            "agent": event.agent,
            "kind": event.kind_,
            "declaration": event.declaration,
            "modifiers": list(event.modifiers),
            "die": event.die,
            "face": event.face,
            "modifier": event.modifier,
            "result": event.total,
            "outcome": event.outcome,
            "opposition": event.opposition,
            "score": event.score,
            "reserve": event.reserve,
            "reserves": {r.value: sheet[r.value] for r in Reserve},
            "ended": event.ended,
            "state": challenge_json(after.challenges[event.challenge]),
        }
        result = decision.outcome
        trace = result.trace if isinstance(result, ActionResult) else ()
        return Report(tuple(reports.action_lines(doc, trace)), doc, trace)

    def answer(self, state: AgentsState | None, query: Query) -> Report:
        """The table at a glance, a checklist, generator tables, or the exact odds."""
        if isinstance(query, Show):
            assert state is not None
            doc = self.summary(state)
            lines = reports.summary_lines(state) or [Line(Message(N_("No agent yet.")))]
            return Report(tuple(lines), doc)
        if isinstance(query, Checklist):
            return self._checklist(query)
        if isinstance(query, Tables):
            return self._tables(query, state)
        if isinstance(query, ActionOdds):
            return self._action_odds(query.modifier)
        assert isinstance(query, ChallengeOdds)
        return self._challenge_odds(query)

    def _checklist(self, query: Checklist) -> Report:
        kinds = [reserve_named(query.kind)] if query.kind else list(Reserve)
        lines: list[Line] = []
        for kind in kinds:
            low, high = modifier_range(kind)
            lines.append(Line(f"{kind.title} ({low:+d}..{high:+d})", "heading"))
            for m in CHECKLISTS[kind]:
                lines.append(
                    Line(
                        Message(
                            "  {id:<12} {value:+d}  {label}",
                            id=m.id,
                            value=m.value,
                            label=Message(m.label),
                        )
                    )
                )
            for group in EXCLUSIVE[kind]:
                together = Message(N_("not together: {ids}"), ids=" + ".join(sorted(group)))
                lines.append(Line(Message("  {text}", text=together)))
        data: dict[str, JSON] = {
            k.value: {
                "modifiers": [
                    {"id": m.id, "value": m.value, "label": m.label} for m in CHECKLISTS[k]
                ],
                "exclusive": [sorted(g) for g in EXCLUSIVE[k]],
                "range": list(modifier_range(k)),
            }
            for k in kinds
        }
        return Report(tuple(lines), data)

    def _tables(self, query: Tables, state: AgentsState | None) -> Report:
        if query.file is not None:
            found = [parse_table(query.file, "FILE")]
        else:
            lang = query.starter or (state.lang if state is not None else "en")
            tables = starter_tables(lang)
            found = [tables.table(k) for k in TableKind]
        lines: list[Line] = []
        for table in found:
            lines.append(
                Line(
                    Message(N_("{source} ({die}): valid"), source=table.source, die=table.die.name),
                    "heading",
                )
            )
            if query.entries:
                for e in table.entries:
                    faces = str(e.low) if e.low == e.high else f"{e.low}-{e.high}"
                    lines.append(Line(f"  {faces:>5} | {e.text}"))
        return Report(tuple(lines), {"tables": [_table_json(t) for t in found]})

    def _action_odds(self, modifier: int) -> Report:
        dist = action_distribution(modifier)
        rows = tuple((Message(RESULT_WORDS[r.value]), dist.probability(r)) for r in Result)
        head = Message(N_("Exact odds of an action, modifier {modifier:+d}"), modifier=modifier)
        data: dict[str, JSON] = {
            "modifier": modifier,
            "distribution": {r.value: exact_text(dist.probability(r)) for r in Result},
        }
        return Report((Line(head, "heading"), Line("", odds=Odds(rows))), data)

    def _challenge_odds(self, query: ChallengeOdds) -> Report:
        reserves = _numbers(query.reserves, "--reserves")
        modifiers = (
            _numbers(query.modifiers, "--modifiers", plus=True)
            if query.modifiers
            else [0] * len(reserves)
        )
        for modifier in modifiers:  # a total the checklists can give (G-N2, G-A6)
            whole(modifier, "--modifiers", LOWEST_MODIFIER, HIGHEST_MODIFIER, rule="G-N2")
        win = challenge_win_probability(reserves, modifiers, query.score)
        note = Message(
            N_(
                "Agents with reserves {reserves} and modifiers {modifiers} against a score of "
                "{score}: they win"
            ),
            reserves=", ".join(map(str, reserves)),
            modifiers=", ".join(f"{m:+d}" for m in modifiers),
            score=query.score,
        )
        data: dict[str, JSON] = {
            "reserves": reserves,
            "modifiers": modifiers,
            "score": query.score,
            "win": exact_text(win),
            "lose": exact_text(1 - win),
        }
        return Report((Line("", odds=Odds((), win, note)),), data)

    def odds(self, state: AgentsState | None, command: AgentsCommand) -> Odds | None:
        """An action's critical, success and failure, and the agents' chance to win.

        The challenge's chance counts the agents acting in turn from the one acting now, the
        others without modifier, against the targeted opposition (else the weakest still
        standing), never conceding or abandoning.

        Source: G-M4, G-M5, G-A5, G-A20.
        """
        if not isinstance(command, Act) or state is None:
            return None
        challenge = challenge_for(state, command.challenge, command.agent)
        kind = challenge.kind
        agent = the_agent(state, challenge, command.agent)
        _ids, total = declared_modifier(kind, command.modifiers)
        dist = action_distribution(total)
        rows: list[tuple[Text, Fraction]] = [
            (Message(N_("critical (opposition -2)")), dist.probability(Result.CRITICAL)),
            (Message(N_("success (opposition -1)")), dist.probability(Result.SUCCESS)),
            (Message(N_("failure (reserve -1)")), dist.probability(Result.FAILURE)),
        ]
        race = race_of(state, challenge, agent, total, command.target)
        score = race.score
        win = race.win()
        if win is not None:
            rows.append((Message(N_("the agents win the challenge")), win))
        note = Message(
            N_(
                "no failure, modifier {modifier:+d}; the challenge's odds count the others' "
                "actions without modifier, against a score of {score}"
            ),
            modifier=total,
            score=score,
        )
        success = dist.probability_where(lambda r: r is not Result.FAILURE)
        data: dict[str, JSON] = {r.value: exact_text(dist.probability(r)) for r in Result}
        return Odds(tuple(rows), success, note, data)

    def succeeded(self, event: AgentsEvent) -> bool | None:
        """Whether an action succeeded (a critical or a success), as its odds count it."""
        if isinstance(event, ActionTaken):
            return event.outcome != Result.FAILURE.value
        return super().succeeded(event)

    def panels(self, state: AgentsState) -> tuple[Panel, ...]:
        """The adventure, each open challenge and its checklist, each agent."""
        return reports.panels(state)

    def summary(self, state: AgentsState) -> dict[str, JSON]:
        """The agents, the open challenges, the quest and the house rules."""
        return reports.summary(state, self.options_json(state))

    def summary_lines(self, state: AgentsState) -> tuple[Text, ...]:
        """Each agent, each open challenge and the quest, for ``table show``."""
        return tuple(line.text for line in reports.summary_lines(state))


AGENTS_GAME = Agents()
"""The agents plugin."""
