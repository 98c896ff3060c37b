"""Pouyss as one plugin: commands decided, events applied, reports, odds and panels as data.

Source: seed 000; rulings P-M1 to P-M8, P-A2 to P-A13.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from tablee.dice import D6, Chance, DiceRequest, TraceStep
from tablee.errors import N_, InputError, Message, Plural, RuleError, joined
from tablee.systems.base import JSON
from tablee.systems.declare import Query
from tablee.systems.options import stored_changes
from tablee.systems.plugin import Card, Decision, Game, Gauge, Line, Odds, Panel, Report, Text
from tablee.systems.pouyss import decide as rules
from tablee.systems.pouyss.actions import ActionResult, ActionRoll, OpposedResult, OpposedRoll
from tablee.systems.pouyss.commands import (
    COMMANDS,
    CorrectCagnotte,
    EndSession,
    OddsQuery,
    Opposed,
    Penalty,
    PouyssCommand,
    Reward,
    Roll,
    SetCharacter,
    ShowCharacters,
    StartSession,
)
from tablee.systems.pouyss.events import EVENTS, OpposedRolled, OptionsSet, PouyssEvent, Rolled
from tablee.systems.pouyss.levels import Level
from tablee.systems.pouyss.log import cagnotte_moved, pool_words
from tablee.systems.pouyss.odds import action_distribution
from tablee.systems.pouyss.options import OPTION_HELP, OPTION_LABELS, OPTION_WORDS
from tablee.systems.pouyss.state import PouyssState, apply, initial_state

__all__ = ["POUYSS", "Pouyss"]

Dist = Any


def _level_rows(dist: Dist) -> tuple[tuple[Text, Any], ...]:
    return tuple((f"{v} {Level(v).title}", dist.probability(v)) for v in range(6, 0, -1))


def _levels_json(dist: Dist) -> list[dict[str, JSON]]:
    return [
        {
            "outcome": Level(v).id,
            "value": v,
            "probability": _fraction(dist.probability(v)),
            "percent": round(float(dist.probability(v)) * 100, 4),
        }
        for v in range(6, 0, -1)
    ]


def _fraction(p: Any) -> str:
    return f"{p.numerator}/{p.denominator}"


def _odds(counts: ActionRoll, threshold: int, *, passive: bool = False) -> Odds:
    dist = action_distribution(counts)
    success = dist.probability_where(lambda v: v >= threshold)
    data: dict[str, JSON] = {
        "bonus": counts.bonus,
        "malus": counts.malus,
        "pool": counts.pool,
        "distribution": _levels_json(dist),
        "success": _fraction(success),
        "success_threshold": threshold,
    }
    if passive:
        data["passive_distribution"] = _levels_json(dist.map(lambda v: 7 - v))
    note = Message(N_("Success ({threshold} or more)"), threshold=threshold)
    return Odds(_level_rows(dist), success, note, data)


def _faces(values: tuple[int, ...]) -> str:
    return " ".join(str(f) for f in values) or "-"


def _cagnotte_lines(event: Rolled | OpposedRolled) -> list[Line]:
    """The cagnotte's move, naming only what moved; no line when nothing did."""
    return [Line(move) for move in cagnotte_moved(event.cagnotte)]


def _result_lines(head: Message, result: ActionResult, event: Rolled | OpposedRolled) -> list[Line]:
    dice = (
        Message(
            N_("Dice: {faces}   removed: {removed}"),
            faces=_faces(result.faces),
            removed=_faces(result.removed),
        )
        if result.removed
        else Message(N_("Dice: {faces}"), faces=_faces(result.faces))
    )
    return [
        Line(head, "heading"),
        Line(dice),
        Line(
            Message(N_("Result: {value} {level}"), value=result.value, level=result.level.title),
            "result",
        ),
        *_cagnotte_lines(event),
    ]


def _trace_lines(trace: tuple[TraceStep, ...]) -> list[Line]:
    return [Line(Message("  · {step}", step=_StepText(step))) for step in trace]


class _StepText(Message):
    """A trace step shown inside a line (translated with the line)."""

    def __init__(self, step: TraceStep) -> None:
        super().__init__(step.template, **step.params)


def _warnings(decision: Decision[PouyssState]) -> list[Line]:
    return [Line(_StepText(w), "warning") for w in decision.warnings]


def _imposed_lines(event: Rolled | OpposedRolled) -> list[Line]:
    """What the narrator imposed, the double bonus and the reasons, as a roll's report shows.

    Only what there is: ``imposed: 1 malus`` when no bonus was imposed.
    """
    notes = []
    imposed = []
    if event.imposed_bonus:
        imposed.append(Message(N_("{count} bonus"), count=event.imposed_bonus))
    if event.imposed_malus:
        imposed.append(Message(N_("{count} malus"), count=event.imposed_malus))
    if imposed:
        dice = joined(imposed, "{first}, {rest}")
        notes.append(Line(Message(N_("imposed: {dice}"), dice=dice)))
    if event.double_bonus:
        notes.append(Line(Message(N_("with a double bonus"))))
    if event.reasons:
        notes.append(Line(Message(N_("because: {reasons}"), reasons=joined(list(event.reasons)))))
    return notes


def _imposed_data(event: Rolled | OpposedRolled) -> dict[str, JSON]:
    return {
        "imposed_bonus": event.imposed_bonus,
        "imposed_malus": event.imposed_malus,
        "double_bonus": event.double_bonus,
        "reasons": list(event.reasons),
    }


class Pouyss(Game[PouyssState, PouyssCommand, PouyssEvent]):
    """Système Pouyss: d6 pools with bonus and malus dice, the cagnotte, opposed rolls."""

    id: ClassVar[str] = "pouyss"
    title: ClassVar[str] = "Pouyss"
    rules_version: ClassVar[str] = "2"
    refuse_empty_penalty: ClassVar[bool] = True
    """Rules version 2 refuses a penalty on an empty cagnotte (P-X3); version 1 recorded it."""
    commands = COMMANDS
    event_classes = EVENTS
    option_help: ClassVar[Mapping[str, str]] = OPTION_HELP
    option_labels: ClassVar[Mapping[str, str]] = OPTION_LABELS
    option_words: ClassVar[Mapping[str, Mapping[str, str]]] = OPTION_WORDS
    state_type: ClassVar[type | None] = PouyssState
    group_titles: ClassVar[Mapping[str, str]] = {
        "session": N_("start or end a session"),
        "character": N_("advantages and disadvantages"),
    }

    def initial_state(self, created: Mapping[str, JSON]) -> PouyssState:
        """The state of a new table (P-M5, P-A12, P-A13)."""
        return initial_state(created)

    def decide(
        self, state: PouyssState, command: PouyssCommand, dice: Chance
    ) -> Decision[PouyssState]:
        """Decide a Pouyss command; a roll throws its d6 from ``dice`` first."""
        match command:
            case Roll():
                faces = dice.roll(DiceRequest(D6, command.counts().pool))
                return rules.decide_roll(state, command, faces)
            case Opposed():
                pool = command.counts().as_action().pool
                return rules.decide_opposed(state, command, dice.roll(DiceRequest(D6, pool)))
            case Reward():
                return rules.decide_reward(state, command)
            case Penalty():
                return rules.decide_penalty(state, command, refuse_empty=self.refuse_empty_penalty)
            case CorrectCagnotte():
                return rules.decide_correction(state, command)
            case StartSession():
                return rules.decide_start_session(state, command)
            case EndSession():
                return rules.decide_end_session(state)
            case SetCharacter():
                return rules.decide_character(state, command)
        raise InputError(N_("{name} is not a Pouyss command"), name=command.name)

    def apply(self, state: PouyssState, event: PouyssEvent) -> PouyssState:
        """The state after an event, from its recorded outcome."""
        return apply(state, event)

    def rules_of(self, version: str | None) -> Pouyss:
        """The rules that decided events of ``version``: 2 now, 1 (or None) before P-X3.

        Raises:
            RuleError: a version this release does not have the code of.
        """
        if version == self.rules_version:
            return self
        if version in (None, "1"):
            return POUYSS_1
        raise RuleError(
            N_("rules version {version!r} of {game} is unknown to this Tablée"),
            tip=N_("upgrade Tablée"),
            version=version,
            game=self.title,
        )

    def legacy_evolve(
        self, state: PouyssState, kind: str, payload: Mapping[str, JSON]
    ) -> PouyssState:
        """The fold of Tablée 0.1.0 (every event decided again), for its logs with undos."""
        from tablee.systems.pouyss.legacy import legacy_evolve  # only old logs need it

        return legacy_evolve(state, kind, payload)

    def change_options(
        self, state: PouyssState, changes: Mapping[str, str]
    ) -> Decision[PouyssState]:
        """Change the house rules from text values."""
        return rules.decide_options(state, changes)

    def redecide(self, state: PouyssState, event: PouyssEvent) -> Decision[PouyssState]:
        """Decide an event again from its recorded inputs (options from their values)."""
        if isinstance(event, OptionsSet):
            return rules.decide_options(state, stored_changes({"options": event.options}))
        return super().redecide(state, event)

    def line(self, event: PouyssEvent, after: PouyssState | None) -> Message:
        """The log line of an event, with the cagnotte after it."""
        from tablee.systems.pouyss.log import describe  # a roll's own report does not need it

        return describe(event.kind, event.payload(), after)

    def details(self, event: PouyssEvent) -> tuple[Text, ...]:
        """The trace of a roll, resolved again from its stored faces."""
        from tablee.systems.pouyss.actions import resolve_action_roll, resolve_opposed_roll

        if isinstance(event, Rolled):
            roll, faces = event.inputs()
            assert isinstance(roll, Roll)
            trace = resolve_action_roll(roll.counts(), faces).trace
        elif isinstance(event, OpposedRolled):
            opposed, faces = event.inputs()
            assert isinstance(opposed, Opposed)
            trace = resolve_opposed_roll(opposed.counts(), faces).trace
        else:
            return ()
        return tuple(_StepText(step) for step in trace)

    def card(self, event: PouyssEvent, after: PouyssState | None) -> Card | None:
        """A roll or an opposed roll as a card: its d6, the level, the odds, the cagnotte."""
        if not isinstance(event, Rolled | OpposedRolled):
            return None
        from tablee.systems.pouyss.cards import card

        return card(event)

    def report(self, command: PouyssCommand, decision: Decision[PouyssState]) -> Report:
        """What a decided Pouyss command shows."""
        event = decision.events[0]
        if isinstance(event, Rolled):
            return self._roll_report(event, decision)
        if isinstance(event, OpposedRolled):
            return self._opposed_report(event, decision)
        payload = event.payload()
        if isinstance(command, CorrectCagnotte):
            move = payload["cagnotte"]
            assert isinstance(move, dict)
            text = Message(
                N_("Cagnotte: {before} → {after} (corrected by the narrator: {reason})"),
                before=move["before"],
                after=move["after"],
                reason=payload["reason"],
            )
            data = {"kind": command.name, "value": command.value, **payload}
            return Report((Line(text),), data)
        if isinstance(command, Reward | Penalty):
            move = payload["cagnotte"]
            assert isinstance(move, dict)
            text = (
                Message(
                    N_("Cagnotte: {before} → {after} (+{count} for role-play)"),
                    before=move["before"],
                    after=move["after"],
                    count=move["deposited"],
                )
                if isinstance(command, Reward)
                else Message(
                    N_("Cagnotte: {before} → {after} (−{count} penalty)"),
                    before=move["before"],
                    after=move["after"],
                    count=move["drawn"],
                )
            )
            data = {
                "kind": command.name,
                "amount": command.amount,
                "cagnotte": move,
                "warnings": [w.render() for w in decision.warnings],
            }
            return Report((Line(text), *_warnings(decision)), data)
        if isinstance(command, StartSession | EndSession):
            template = (
                N_("Session {session} starts with {count} in the cagnotte.")
                if isinstance(command, StartSession)
                else N_("Session {session} ends with {count} in the cagnotte.")
            )
            count = Plural("{n} die", "{n} dice", int(str(payload["cagnotte"])))
            step = "start" if isinstance(command, StartSession) else "end"
            line = Line(Message(template, session=payload["session"], count=count))
            return Report((line,), {"action": step, **payload})
        if isinstance(command, SetCharacter):
            return self.answer(decision.after, ShowCharacters(player=command.player))
        return Report((Line(event.kind),), payload)

    def _roll_report(self, event: Rolled, decision: Decision[PouyssState]) -> Report:
        result = decision.outcome
        assert isinstance(result, ActionResult)
        bonus = event.bonus + event.imposed_bonus + int(event.double_bonus)
        malus = event.malus + event.imposed_malus
        head = Message(
            N_("{player} rolls {pool}"), player=event.player, pool=pool_words(bonus, malus)
        )
        lines = [
            *_result_lines(head, result, event),
            *_imposed_lines(event),
            *_trace_lines(result.trace),
            *_warnings(decision),
        ]
        data = {
            "player": event.player,
            "bonus": bonus,
            "malus": malus,
            **_imposed_data(event),
            **self._result_data(event, result),
        }
        return Report(tuple(lines), data, result.trace)

    def _result_data(self, event: Rolled | OpposedRolled, result: ActionResult) -> dict[str, JSON]:
        return {
            "dice": list(result.faces),
            "removed": list(result.removed),
            "kept": list(result.kept),
            "value": result.value,
            "level": result.level.id,
            "level_name": result.level.title,
            "success": event.success,
            "cagnotte": event.cagnotte.to_json(),
        }

    def _opposed_report(self, event: OpposedRolled, decision: Decision[PouyssState]) -> Report:
        outcome = decision.outcome
        assert isinstance(outcome, OpposedResult)
        head = Message(
            N_("{active} (active) against {passive} (passive)"),
            active=event.active,
            passive=event.passive,
        )
        built = Message(
            N_(
                "One roll for both sides: {active} brings bonus {active_bonus} and malus "
                "{active_malus}; {passive}'s bonus {passive_bonus} counts as malus on the roll "
                "and {passive}'s malus {passive_malus} as bonus, so the roll has bonus {bonus} "
                "and malus {malus}"
            ),
            active=event.active,
            passive=event.passive,
            active_bonus=event.active_bonus + event.imposed_bonus + int(event.double_bonus),
            active_malus=event.active_malus + event.imposed_malus,
            passive_bonus=event.passive_bonus,
            passive_malus=event.passive_malus,
            bonus=event.bonus,
            malus=event.malus,
        )
        mirror = Message(
            N_(
                "Passive side ({passive}): 7 − {value} = {passive_value} {level}, the mirror "
                "of the same roll"
            ),
            passive=event.passive,
            value=event.value,
            passive_value=outcome.passive_value,
            level=outcome.passive_level.title,
        )
        result_lines = _result_lines(head, outcome.roll, event)
        lines = [
            result_lines[0],
            Line(built),
            *result_lines[1:],
            *_imposed_lines(event),
            *_trace_lines(outcome.trace),
            Line(mirror, "result"),
            *_warnings(decision),
        ]
        data = {
            "active": event.active,
            "passive": event.passive,
            "bonus": event.bonus,
            "malus": event.malus,
            **_imposed_data(event),
            **self._result_data(event, outcome.roll),
            "passive_value": outcome.passive_value,
            "passive_level": outcome.passive_level.id,
        }
        return Report(tuple(lines), data, outcome.trace)

    def answer(self, state: PouyssState | None, query: Query) -> Report:
        """The characters, or the exact odds of a roll."""
        if isinstance(query, OddsQuery):
            return self._odds_report(query)
        assert isinstance(query, ShowCharacters) and state is not None
        wanted = query.player.casefold() if query.player else None
        doc: dict[str, JSON] = {
            p: {"advantages": list(c.advantages), "disadvantages": list(c.disadvantages)}
            for p, c in state.characters.items()
            if wanted is None or p.casefold() == wanted
        }
        lines: list[Line] = []
        for player, sheet in state.characters.items():
            if wanted is not None and player.casefold() != wanted:
                continue
            lines.append(Line(player, "heading"))
            lines.append(Line("  + " + (", ".join(sheet.advantages) or "-")))
            lines.append(Line("  − " + (", ".join(sheet.disadvantages) or "-")))
        if not lines:
            lines.append(Line(Message(N_("No character yet."))))
        return Report(tuple(lines), {"characters": doc})

    def _odds_report(self, query: OddsQuery) -> Report:
        counts = OpposedRoll(query.bonus, query.malus, query.passive_bonus, query.passive_malus)
        opposed = bool(query.passive_bonus or query.passive_malus)
        action = counts.as_action()
        odds = _odds(action, query.threshold, passive=opposed)
        head = (
            Message(
                N_("Exact odds: {dice} ({pool} dice)"),
                dice=pool_words(action.bonus, action.malus),
                pool=action.pool,
            )
            if action.pool > 1
            else Message(N_("Exact odds: {dice}"), dice=pool_words(0, 0))
        )
        lines = [Line(head, "heading"), Line("", odds=odds)]
        if opposed:
            mirrored = action_distribution(action).map(lambda v: 7 - v)
            lines += [Line(Message(N_("Passive side:")), odds=Odds(_level_rows(mirrored)))]
        assert isinstance(odds.data, dict)
        return Report(tuple(lines), odds.data)

    def odds(self, state: PouyssState | None, command: PouyssCommand) -> Odds | None:
        """The exact odds of a roll or an opposed roll's active side, before rolling."""
        threshold = state.options.success_threshold if state is not None else 4
        if isinstance(command, Roll):
            odds = _odds(command.counts(), threshold)
        elif isinstance(command, Opposed):
            odds = _odds(command.counts().as_action(), threshold)
        else:
            return None
        assert isinstance(odds.data, dict)
        return replace(odds, data=odds.data["distribution"])

    def panels(self, state: PouyssState) -> tuple[Panel, ...]:
        """The session and the cagnotte (a pile of dice), then each character's advantages."""
        status = Message(N_("in progress") if state.in_session else N_("not in progress"))
        rows: tuple[tuple[Text, Text], ...] = (
            (Message(N_("Session")), str(state.session)),
            (Message(N_("Status")), status),
        )
        if state.cagnotte is None:  # no session has set it yet
            rows += ((Message(N_("Cagnotte")), "-"),)
            gauges: tuple[Gauge, ...] = ()
        else:
            gauges = (Gauge(Message(N_("Cagnotte")), state.cagnotte, None, "dice"),)
        panels = [Panel(Message(N_("Table")), rows, gauges=gauges)]
        for player in state.players:
            sheet = state.characters.get(player)
            if sheet is not None:
                panels.append(
                    Panel(
                        player,
                        (
                            (Message(N_("Advantages")), ", ".join(sheet.advantages) or "-"),
                            (Message(N_("Disadvantages")), ", ".join(sheet.disadvantages) or "-"),
                        ),
                        brief=(),
                    )
                )
        return tuple(panels)

    def summary(self, state: PouyssState) -> dict[str, JSON]:
        """The cagnotte, the session and the house rules."""
        return {
            "cagnotte": state.cagnotte,
            "session": state.session,
            "in_session": state.in_session,
            "options": self.options_json(state),
        }

    def summary_lines(self, state: PouyssState) -> tuple[Text, ...]:
        """Status, cagnotte and house rules, for ``table show``."""
        status = (
            Message(N_("session {n} in progress"), n=state.session)
            if state.in_session
            else Message(N_("no session in progress"))
        )
        cagnotte = "-" if state.cagnotte is None else str(state.cagnotte)
        return (
            Message(N_("Status: {status}"), status=status),
            Message(N_("Cagnotte: {count}"), count=cagnotte),
            Message(N_("House rules:")),
            *(Message("  {rule}", rule=rule) for rule in self.house_rules(state)),
        )


class _PouyssRules1(Pouyss):
    """Rules version 1: a penalty on an empty cagnotte was recorded, removing nothing."""

    rules_version: ClassVar[str] = "1"
    refuse_empty_penalty: ClassVar[bool] = False


POUYSS = Pouyss()
"""The Pouyss plugin."""

POUYSS_1 = _PouyssRules1()
"""The Pouyss rules of version 1, deciding again the events they decided (`Pouyss.rules_of`)."""
