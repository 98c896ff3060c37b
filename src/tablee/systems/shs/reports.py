"""What SHS shows of a command or a query, as data: its report or its answer.

The plugin (`tablee.systems.shs.plugin`) hands these to the interfaces, which draw them as
text, HTML or JSON; odds before rolling, log lines and panels are in
`tablee.systems.shs.display`. Game terms stay in French in every language (Santé, NT, PS, D+/-,
Scène, Tour...); the rest are `N_` messages translated when shown.

Source: seed 003; rulings S-M2 to S-M9, S-A3, S-A5, S-A10, S-A15, S-T6.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from tablee.dice import TraceStep
from tablee.errors import N_, InputError, Message, Plural
from tablee.systems.base import JSON
from tablee.systems.declare import Command, Query
from tablee.systems.plugin import Decision, Line, Odds, Report, Text
from tablee.systems.shs.actions import ActionRoll, dpm_symbol
from tablee.systems.shs.clock import Duration, duration_text
from tablee.systems.shs.commands import (
    AddModifier,
    ClockQuery,
    CreateProtagonist,
    EditCounters,
    EndModifier,
    ImportProtagonists,
    Kill,
    NextTour,
    OddsQuery,
    Revive,
    ShowProtagonists,
    StartLongAction,
    StartScene,
    TimeAdvance,
)
from tablee.systems.shs.counters import COUNTER_TITLES
from tablee.systems.shs.difficulty import Test
from tablee.systems.shs.events import (
    CooperationRolled,
    OpposedRolled,
    RolledAction,
    SimultaneousRolled,
    TestRolled,
)
from tablee.systems.shs.game import ShsState, protagonist_json, protagonist_named
from tablee.systems.shs.log import describe, game_time
from tablee.systems.shs.notation import TestNotation, difficulty_name
from tablee.systems.shs.odds import (
    cooperation_success_probability,
    opposed_odds,
    ps_distribution,
    success_probability,
)
from tablee.systems.shs.opposed import OpposedAction, OpposedResult, net_across
from tablee.systems.shs.options import ShsOptions
from tablee.systems.shs.situations import Cooperation
from tablee.systems.shs.timing import clock_json
from tablee.systems.shs.traits import Characteristic, characteristic_named

__all__ = ["answer", "clock_lines", "hero_lines", "modifier_text", "ntr", "report"]

KINDS = {"rythmee": N_("scène rythmée"), "lente": N_("scène lente")}
OPTION_TITLES = {"se_surpasser": "Se Surpasser", "se_sacrifier": "Se Sacrifier"}


class _Counted(Plural):
    """A message whose form follows a count, with other fields besides the count."""

    def __init__(self, singular: str, plural: str, n: int, **params: object) -> None:
        super().__init__(singular, plural, n)
        self.extra = params

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        """The message in the language of ``translate``, its form chosen by the count."""
        chosen = self.form(translate)
        values = {
            k: v.render(translate) if isinstance(v, Message) else v for k, v in self.extra.items()
        }
        return chosen.format(**values)


def ntr(singular: str, plural: str, n: int, **params: object) -> Message:
    """A message in the singular or plural form of ``n`` (``count`` is ``n`` by default)."""
    return _Counted(singular, plural, n, **{"count": n, **params})


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _row(key: str, value: JSON, p: Fraction) -> dict[str, JSON]:
    return {key: value, "probability": _fraction(p), "percent": round(float(p) * 100, 4)}


def _step(step: TraceStep) -> Message:
    return Message(step.template, **step.params)


def _trace_lines(trace: Sequence[TraceStep]) -> list[Line]:
    return [Line(Message("  · {step}", step=_step(step))) for step in trace]


def _warning_lines(decision: Decision[ShsState]) -> list[Line]:
    return [Line(_step(w), "warning") for w in decision.warnings]


# --- Protagonistes ---------------------------------------------------------------------------


def hero_lines(name: str, hero: Mapping[str, Any]) -> list[Line]:
    """A Protagoniste for people: name and player, thresholds, counters, Expertises."""
    owner: Text = hero["owner"] or Message(N_("Réalisateur"))
    head = Message("{name} ({owner})", name=name, owner=owner)
    if not hero["alive"]:
        head = Message("{head} {dead}", head=head, dead=Message(N_("(dead)")))
    traits = ", ".join(f"{c.title} {hero[c.value]}+" for c in Characteristic)
    counters = Message(
        N_("Santé {sante}/{max}, Protection {protection}, Air {air}, NT {nt}"),
        sante=hero["sante"],
        max=hero["sante_max"],
        protection=hero["protection"],
        air=hero["air"],
        nt=hero["nt"],
    )
    lines = [Line(head, "heading"), Line(f"  {traits}"), Line(Message("  {c}", c=counters))]
    if hero["expertises"]:
        listed = Message(N_("Expertises: {list}"), list=", ".join(hero["expertises"]))
        lines.append(Line(Message("  {e}", e=listed)))
    return lines


def _hero_doc(state: ShsState, name: str) -> dict[str, JSON]:
    return {"name": name, **protagonist_json(state, name)}


def _created(command: Command, decision: Decision[ShsState]) -> Report:
    after = decision.after
    if isinstance(command, ImportProtagonists):
        names = [str(e.payload()["name"]) for e in decision.events]
        text = Message(
            N_("Protagonistes imported ({count}): {names}"),
            count=len(names),
            names=", ".join(names),
        )
        return Report((Line(text),), {"protagonistes": [_hero_doc(after, n) for n in names]})
    name = str(decision.events[0].payload()["name"])
    doc = _hero_doc(after, name)
    head = Line(Message(N_("Protagoniste {name} created."), name=name))
    return Report((head, *hero_lines(name, doc)), {"protagoniste": doc})


def _edited(decision: Decision[ShsState]) -> Report:
    payloads = [e.payload() for e in decision.events]
    name = str(payloads[-1]["protagonist"])
    changes = [{k: p[k] for k in ("counter", "before", "after")} for p in payloads]
    lines = [
        Line(
            Message(
                N_("{name}: {counter} {before} → {after}"),
                name=name,
                counter=COUNTER_TITLES[str(c["counter"])],
                before=c["before"],
                after=c["after"],
            )
        )
        for c in changes
    ]
    data = {"protagoniste": _hero_doc(decision.after, name), "changes": changes}
    return Report((*lines, *_warning_lines(decision)), data)


def _life(command: Command, decision: Decision[ShsState]) -> Report:
    name = str(decision.events[0].payload()["protagonist"])
    template = N_("{name} is dead.") if isinstance(command, Kill) else N_("{name} lives again.")
    return Report(
        (Line(Message(template, name=name)),), {"protagoniste": _hero_doc(decision.after, name)}
    )


def _show(state: ShsState, query: ShowProtagonists) -> Report:
    names = list(state.protagonists)
    if query.protagonist is not None:
        names = [protagonist_named(state, query.protagonist)]
    docs = {n: protagonist_json(state, n) for n in names}
    lines = [line for n, doc in docs.items() for line in hero_lines(n, doc)]
    if not lines:
        lines = [Line(Message(N_("No Protagoniste yet.")))]
    return Report(tuple(lines), {"protagonistes": docs})


# --- rolled Actions --------------------------------------------------------------------------


def _dpm_text(faces: Sequence[int]) -> Text:
    return " ".join(dpm_symbol(int(f)) for f in faces) or Message(N_("none"))


def _action_lines(action: RolledAction, trace: Sequence[TraceStep], head: Text) -> list[Line]:
    """One rolled Action for people: head, dice, D+/- dice, modifiers, trace, price paid."""
    lines = [
        Line(head, "heading"),
        Line(
            Message(
                N_("Action dice ({die}, {threshold}+): {faces}"),
                die=action.die,
                threshold=action.threshold,
                faces=" ".join(str(f) for f in action.action_faces),
            )
        ),
        Line(Message(N_("D+/- dice: {faces}"), faces=_dpm_text(action.dpm_faces))),
    ]
    if action.temporary_bonus or action.temporary_malus:
        lines.append(
            Line(
                Message(
                    N_("Temporary modifiers in force: Bonus {bonus}, Malus {malus}"),
                    bonus=action.temporary_bonus,
                    malus=action.temporary_malus,
                )
            )
        )
    lines += _trace_lines(trace)
    if action.nt_gain:
        text = Message(N_("{name}: NT +{gain}"), name=action.protagonist, gain=action.nt_gain)
        lines.append(Line(text, "warning"))
    if action.dies:
        lines.append(Line(Message(N_("{name} dies."), name=action.protagonist), "warning"))
    return lines


def _test_head(action: RolledAction) -> Message:
    difficulty = int(action.difficulty or 0)
    notation = str(TestNotation(characteristic_named(action.characteristic), difficulty))
    head = Message(N_("{name}: {test}"), name=action.protagonist, test=notation)
    named = difficulty_name(difficulty)
    if named:
        head = Message("{head} ({named})", head=head, named=named)
    if action.expertise:
        expertise = Message(N_("Expertise {name}"), name=action.expertise)
        head = Message("{head} · {expertise}", head=head, expertise=expertise)
    if action.option in OPTION_TITLES:
        head = Message("{head} · {option}", head=head, option=OPTION_TITLES[action.option])
    return head


def _outcome(success: bool) -> Message:
    return Message(N_("success") if success else N_("failure"))


def _ps_line(action: RolledAction) -> Line:
    return Line(
        Message(
            N_("{ps} PS against Difficulty {difficulty}: {outcome}"),
            ps=action.ps,
            difficulty=action.difficulty,
            outcome=_outcome(bool(action.success)),
        ),
        "result",
    )


def _test_json(action: RolledAction, trace: Sequence[TraceStep]) -> dict[str, JSON]:
    difficulty = int(action.difficulty or 0)
    return {
        **action.to_json(),
        "notation": str(TestNotation(characteristic_named(action.characteristic), difficulty)),
        "difficulty_name": difficulty_name(difficulty),
        "trace": [step.render() for step in trace],
    }


def _after(state: ShsState, name: str) -> dict[str, JSON]:
    hero = state.protagonists[name]
    return {"nt": hero.nt, "alive": hero.alive}


def _tested(event: TestRolled, decision: Decision[ShsState]) -> Report:
    result = decision.outcome
    action = event.action
    lines = [*_action_lines(action, result.trace, _test_head(action)), _ps_line(action)]
    test = _test_json(action, ())
    del test["trace"]
    data = {**event.payload(), **test, **_after(decision.after, event.protagonist)}
    return Report(tuple(lines), data, tuple(result.trace))


def verdict(payload: Mapping[str, Any]) -> Message:
    """Who prevails in an opposed Action and, on a tie, who keeps what (S-A3, S-A5)."""
    winner, ps = payload["winner"], payload["first"]["ps"]
    if payload["reroll"]:
        return Message(N_("A tie at {ps} PS: roll again (house rule)."), ps=ps)
    if winner is None:
        return Message(
            N_("A tie at {ps} PS: neither side achieves its goal, the situation stays as it was."),
            ps=ps,
        )
    if payload["tie"]:
        changer = "second" if winner == "first" else "first"
        return Message(
            N_(
                "A tie at {ps} PS: {changer} sought the change and does not get it; {holder} "
                "keeps the situation as it was."
            ),
            ps=ps,
            changer=payload[changer]["protagonist"],
            holder=payload[winner]["protagonist"],
        )
    return Message(N_("{name} prevails."), name=payload[winner]["protagonist"])


def _opposed_lines(
    first: RolledAction, second: RolledAction, result: OpposedResult, payload: Mapping[str, Any]
) -> list[Line]:
    """Both sides of an opposed Action for people, then who prevails."""
    lines: list[Line] = []
    for action, part in ((first, result.first), (second, result.second)):
        title = characteristic_named(action.characteristic).title
        head = f"{action.protagonist} ({title}): {action.ps} PS"
        lines += _action_lines(action, part.trace, head)
    lines.append(Line(verdict(payload), "result"))
    return lines


def _opposed(event: OpposedRolled, decision: Decision[ShsState]) -> Report:
    result = decision.outcome
    payload = event.payload()
    lines = _opposed_lines(event.first, event.second, result, payload)
    return Report(tuple(lines), payload, tuple(result.trace))


def _cooperated(event: CooperationRolled, decision: Decision[ShsState]) -> Report:
    result = decision.outcome
    difficulty = event.members[0].difficulty if event.members else None
    lines: list[Line] = []
    members = []
    for action, part in zip(event.members, result.results, strict=True):
        lines += _action_lines(action, part.trace, _test_head(action))
        members.append(
            {**_test_json(action, part.trace), **_after(decision.after, action.protagonist)}
        )
    text = Message(
        N_("Cooperation (Difficulty {difficulty}): {outcome}"),
        difficulty=difficulty,
        outcome=_outcome(event.success),
    )
    lines.append(Line(text, "result"))
    data = {**event.payload(), "difficulty": difficulty, "members": members}
    return Report(tuple(lines), data)


def _simultaneous(event: SimultaneousRolled, decision: Decision[ShsState]) -> Report:
    results = decision.outcome[: len(event.actions)]
    fight = event.opposed
    count = len(event.actions) + (fight is not None) + event.trivial
    head = ntr(
        "{name}: {count} simultaneous Action, Malus {malus}",
        "{name}: {count} simultaneous Actions, Malus {malus} on each",
        count,
        name=event.protagonist,
        malus=event.set_malus,
    )
    lines = [Line(head, "heading")]
    for action, result in zip(event.actions, results, strict=True):
        lines += _action_lines(action, result.trace, _test_head(action))
        lines.append(_ps_line(action))
    data = {
        **event.payload(),
        "actions": [_test_json(a, r.trace) for a, r in zip(event.actions, results, strict=True)],
        **_after(decision.after, event.protagonist),
    }
    if fight is not None:  # the set's opposed Action, after its Tests (S-X5)
        fought: OpposedResult = decision.outcome[-1]
        payload = fight.to_json()
        lines += _opposed_lines(fight.first, fight.second, fought, payload)
        data["opposed"] = {
            **payload,
            "trace": [step.render() for step in fought.trace],
            "opponent": _after(decision.after, fight.second.protagonist),
        }
    return Report(tuple(lines), data)


# --- the clock -------------------------------------------------------------------------------


def modifier_text(m: Mapping[str, Any]) -> Message:
    """A temporary modifier: who, Bonus or Malus, how long, how much, why."""
    duration = Duration(tours=int(m["tours"]), seconds=int(m["seconds"]))
    text = Message(
        N_("{name}: {kind} ({duration}) of {amount}"),
        kind="Bonus" if m["kind"] == "bonus" else "Malus",
        duration=duration_text(duration),
        amount=m["amount"],
        name=m["protagonist"],
    )
    return Message("{text} — {label}", text=text, label=m["label"]) if m.get("label") else text


def clock_lines(clock: Mapping[str, Any]) -> list[Line]:
    """The clock for people: Scène, Tour, game time, modifiers, long Actions."""
    scene: Text = (
        Message(
            N_("Scène {scene} ({kind})"),
            scene=clock["scene"],
            kind=Message(KINDS[clock["scene_kind"]]),
        )
        if clock["scene_kind"]
        else Message(N_("No Scène yet"))
    )
    lines = [
        Line(
            Message(
                N_("{scene}, Tour {tour}, game time {time}"),
                scene=scene,
                tour=clock["tour"],
                time=game_time(clock["seconds"]),
            )
        )
    ]
    for m in clock["modifiers"]:
        text = Message("  #{number} {modifier}", number=m["number"], modifier=modifier_text(m))
        if m.get("protagonist_alive") is False:
            text = Message(
                "{text} {dead}", text=text, dead=Message(N_("(dead: applies to no roll)"))
            )
        lines.append(Line(text))
    for action in clock["long_actions"]:
        text = Message(
            N_("{name}: {label}, rolled in Tour {last}"),
            name=action["protagonist"],
            label=action["label"],
            last=action["last_tour"],
        )
        lines.append(Line(Message("  {text}", text=text)))
    return lines


def _expired(payload: Mapping[str, Any]) -> list[Line]:
    return [
        Line(Message(N_("Expired: {modifier}"), modifier=modifier_text(m)))
        for m in payload.get("expired", [])
    ]


def _clocked(command: Command, decision: Decision[ShsState]) -> Report:
    p = decision.events[-1].payload()
    clock = clock_json(decision.after.clock)
    extra: list[Line] = []
    if isinstance(command, StartScene):
        head = Message(
            N_("Scène {scene} begins: {kind}."),
            scene=p["scene"],
            kind=Message(KINDS[str(p["kind"])]),
        )
    elif isinstance(command, NextTour):
        head = Message(N_("Tour {tour} begins."), tour=p["tour"])
        lapsed = [
            Line(Message(N_("Lapsed: {name}'s {label}"), name=x["protagonist"], label=x["label"]))
            for x in p["lapsed"]
        ]
        extra = _expired(p) + lapsed
    elif isinstance(command, TimeAdvance):
        head = Message(
            N_("Game time +{duration}: {total}."),
            duration=game_time(int(p["seconds"])),
            total=game_time(int(p["total"])),
        )
        extra = _expired(p)
    elif isinstance(command, AddModifier):
        number = p["seq"] if p["seq"] is not None else decision.after.clock.modifiers[-1].number
        head = Message(
            N_("Modifier #{number}: {modifier}"), number=number, modifier=modifier_text(p)
        )
        return Report((Line(head),), {"number": number, **p, "clock": clock})
    elif isinstance(command, EndModifier):
        head = Message(
            N_("Modifier #{number} ended: {modifier}"),
            number=p["number"],
            modifier=modifier_text(p["modifier"]),
        )
    else:
        head = Message(
            N_("{name} starts {label}: Tours {start} to {last}, rolled in Tour {last}."),
            name=p["protagonist"],
            label=p["label"],
            start=p["started"],
            last=p["last_tour"],
        )
    lines = [Line(head), *extra, *_warning_lines(decision)]
    return Report(tuple(lines), {**p, "clock": clock})


def _clock(state: ShsState) -> Report:
    clock = clock_json(state.clock)
    for m in clock["modifiers"]:
        hero = state.protagonists.get(str(m["protagonist"]))
        m["protagonist_alive"] = hero is None or hero.alive
    return Report(tuple(clock_lines(clock)), {"clock": clock})


# --- reports and answers ---------------------------------------------------------------------


def report(command: Command, decision: Decision[ShsState]) -> Report:
    """What a decided SHS command shows (its ``--json`` data keeps 0.1.0's keys)."""
    event = decision.events[0]
    match event:
        case TestRolled():
            return _tested(event, decision)
        case OpposedRolled():
            return _opposed(event, decision)
        case CooperationRolled():
            return _cooperated(event, decision)
        case SimultaneousRolled():
            return _simultaneous(event, decision)
    if isinstance(command, CreateProtagonist | ImportProtagonists):
        return _created(command, decision)
    if isinstance(command, EditCounters):
        return _edited(decision)
    if isinstance(command, Kill | Revive):
        return _life(command, decision)
    if isinstance(command, StartScene | NextTour | TimeAdvance | AddModifier | EndModifier):
        return _clocked(command, decision)
    if isinstance(command, StartLongAction):
        return _clocked(command, decision)
    return Report((Line(describe(event.kind, event.payload(), decision.after)),), event.payload())


def answer(state: ShsState | None, query: Query) -> Report:
    """The Protagonistes, the clock, or the exact odds of a Test."""
    if isinstance(query, OddsQuery):
        return _odds_report(query, state.options if state is not None else ShsOptions())
    assert state is not None
    if isinstance(query, ClockQuery):
        return _clock(state)
    assert isinstance(query, ShowProtagonists)
    return _show(state, query)


def _odds_report(query: OddsQuery, options: ShsOptions) -> Report:
    """The exact odds the query asks for, under ``options`` (a table's, or the defaults).

    A Test by default; ``simultaneous`` k adds the set's Malus k - 1 (S-M7);
    ``cooperators`` n rolls n alike Tests with Bonus 1 each (S-M6); ``against`` opposes a
    second Protagoniste (S-M4, with ``opposed_modifiers``, S-X4).

    Raises:
        InputError: cooperators without a Difficulty, or with an opposed Action.

    Source: seed 003; S-M2, S-M4, S-M6, S-M7, S-X4.
    """
    surpass, sacrifice = query.option == "surpasser", query.option == "sacrifier"
    malus = query.malus + query.simultaneous - 1
    roll = ActionRoll(query.threshold, query.expertise, query.bonus, malus, surpass, sacrifice)
    if query.cooperators > 1 and (query.difficulty is None or query.against is not None):
        raise InputError(
            N_("cooperators share a Difficulty and oppose no one (rule S-M6)"),
            cli_tip=N_("give --difficulty D and no --against"),
        )
    if query.cooperators > 1:
        roll = roll.with_modifiers(bonus=1)
    dist = ps_distribution(roll, options)
    values = sorted(dist.weights, reverse=True)
    difficulty = query.difficulty
    success = None
    if difficulty is not None:
        test = Test(
            roll.threshold, difficulty, None, roll.expertise, roll.bonus, roll.malus,
            surpass, sacrifice,
        )  # fmt: skip
        success = success_probability(test, options)

    def outcome(v: int) -> str:
        if difficulty is None:
            return "ps"
        return "success" if v >= difficulty else "failure"

    data: dict[str, JSON] = {
        "threshold": query.threshold,
        "expertise": query.expertise,
        "bonus": query.bonus,
        "malus": query.malus,
        "option": query.option or "none",
        "difficulty": difficulty,
        "distribution": [
            {"outcome": outcome(v), "value": v, **_row("", 0, dist.probability(v))} for v in values
        ],
    }
    for row in data["distribution"]:
        del row[""]
    if success is not None:
        data["success"] = _fraction(success)
    rows: list[tuple[Text, Fraction]] = [(f"{v:>3} PS", dist.probability(v)) for v in values]
    if query.simultaneous > 1:
        data["simultaneous"] = {"actions": query.simultaneous, "set_malus": query.simultaneous - 1}
    if query.cooperators > 1 and difficulty is not None:
        member = Test(
            query.threshold, difficulty, None, query.expertise, query.bonus, malus,
            surpass, sacrifice,
        )  # fmt: skip
        cooperation = Cooperation((member,) * query.cooperators)
        group = cooperation_success_probability(cooperation, options)
        data["cooperation"] = {"cooperators": query.cooperators, "group": _fraction(group)}
        label = Message(N_("The group succeeds (at least one of {count})"), count=query.cooperators)
        rows.append((label, group))
    if query.against is not None:
        other = ActionRoll(
            query.against, query.against_expertise, query.against_bonus, query.against_malus
        )
        found = opposed_odds(OpposedAction(*net_across(roll, other, options)), options)
        data["opposed"] = {
            "first": _fraction(found.prevails("first")),
            "second": _fraction(found.prevails("second")),
        }
        rows.append((Message(N_("This side prevails (it loses ties)")), found.prevails("first")))
        rows.append((Message(N_("The other side prevails")), found.prevails("second")))
    note = (
        None
        if difficulty is None
        else Message(N_("Success (Difficulty {difficulty})"), difficulty=difficulty)
    )
    table = Odds(tuple(rows), success, note)
    title = Line(Message(N_("Exact odds of the PS total")), "heading")
    return Report((title, Line("", odds=table)), data)
