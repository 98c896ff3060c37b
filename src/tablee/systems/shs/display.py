"""What SHS shows beside a command's report, as data.

Exact odds before rolling, log lines, the traces under them, the resource panels and the
lines of ``table show``.

Source: seed 003; rulings S-M2 to S-M8, S-A3, S-A5, S-A15.
"""

from __future__ import annotations

from fractions import Fraction

from tablee.dice import TraceStep
from tablee.errors import N_, Message
from tablee.systems.base import JSON
from tablee.systems.declare import Command
from tablee.systems.event import Event
from tablee.systems.plugin import Gauge, Odds, Panel, Text
from tablee.systems.shs.actions import ActionRoll, resolve_action
from tablee.systems.shs.commands import Cooperate, Oppose, Simultaneous, TestCommand
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
from tablee.systems.shs.odds import (
    cooperation_odds,
    opposed_odds,
    ps_distribution,
    success_probability,
)
from tablee.systems.shs.opposed import OpposedAction, OpposedOutcome, net_across
from tablee.systems.shs.options import ShsOptions
from tablee.systems.shs.play import (
    Attempt,
    plan_cooperation,
    plan_opposed,
    plan_simultaneous_set,
    plan_test,
)
from tablee.systems.shs.reports import KINDS, clock_lines, hero_lines, modifier_text, ntr
from tablee.systems.shs.situations import Cooperation, situation_steps
from tablee.systems.shs.timing import clock_json
from tablee.systems.shs.traits import Characteristic, characteristic_named

__all__ = ["details", "line", "odds", "odds_record", "panels", "summary", "summary_lines"]


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _row(key: str, value: JSON, p: Fraction) -> dict[str, JSON]:
    return {key: value, "probability": _fraction(p), "percent": round(float(p) * 100, 4)}


def _step(step: TraceStep) -> Message:
    return Message(step.template, **step.params)


# --- odds before rolling ---------------------------------------------------------------------


def _colon(label: Message) -> Message:
    """An odds row's label followed by a colon, as the odds are read out."""
    return Message("{label}:", label=label)


def _test_odds(test: Test, options: ShsOptions) -> Odds:
    dist = ps_distribution(test, options)
    success = success_probability(test, options)
    values = sorted(dist.weights, reverse=True)
    rows = tuple((f"{v:>3} PS", dist.probability(v)) for v in values)
    data: dict[str, JSON] = {
        "distribution": [_row("value", v, dist.probability(v)) for v in values],
        "success": _fraction(success),
    }
    return Odds(rows, success, None, data)


_OUTCOME_LABELS = {
    "first": N_("{name} has more PS and wins"),
    "second": N_("{name} has more PS and wins"),
    "tie_first_holds": N_("a tie: {name} keeps the situation as it was"),
    "tie_second_holds": N_("a tie: {name} keeps the situation as it was"),
    "tie_neither": N_("a tie: neither side achieves its goal"),
    "tie_reroll": N_("a tie: roll again (house rule)"),
}


def _opposed_odds(state: ShsState, command: Oppose) -> Odds:
    first, second = command.attempts()
    changer = None if command.changer == "none" else command.changer
    plan = plan_opposed(state, first, second, changer)
    rows, data = _opposed_shown(state, plan, first, second)
    return Odds(tuple(rows), None, None, data)


def _opposed_shown(
    state: ShsState, plan: OpposedAction, first: Attempt, second: Attempt
) -> tuple[list[tuple[Text, Fraction]], dict[str, JSON]]:
    """An opposed Action's odds rows and data: each ending, who prevails, the PS margin."""
    found = opposed_odds(plan, state.options)
    names = {
        "first": protagonist_named(state, first.protagonist),
        "second": protagonist_named(state, second.protagonist),
    }
    order = list(OpposedOutcome)
    outcomes = sorted(
        ((o, found.outcomes.probability(o)) for o in found.outcomes.weights),
        key=lambda x: order.index(x[0]),
    )
    rows: list[tuple[Text, Fraction]] = []
    for outcome, p in outcomes:
        side = "first" if outcome.value in ("first", "tie_first_holds") else "second"
        rows.append((_colon(Message(_OUTCOME_LABELS[outcome.value], name=names[side])), p))
    for side in ("first", "second"):
        label = Message(N_("{name} prevails in all"), name=names[side])
        rows.append((_colon(label), found.prevails(side)))
    head = Message(
        N_("PS margin ({first} minus {second}):"), first=names["first"], second=names["second"]
    )
    for margin, p in reversed(list(found.margin.items())):
        rows.append((Message("{head} {margin}", head=head, margin=f"{margin:+d}"), p))
    data: dict[str, JSON] = {
        "first": _fraction(found.prevails("first")),
        "second": _fraction(found.prevails("second")),
        "outcomes": [_row("outcome", o.value, p) for o, p in outcomes],
        "margin": [_row("margin", m, p) for m, p in reversed(list(found.margin.items()))],
    }
    return rows, data


def _cooperation_odds(state: ShsState, command: Cooperate) -> Odds:
    members = command.attempts()
    tests = plan_cooperation(state, members)
    plain = Cooperation(tuple(t.with_modifiers(bonus=-1) for t in tests))  # Bonus 1 added again
    found = cooperation_odds(plain, state.options)
    names = [protagonist_named(state, m.protagonist) for m in members]
    rows: list[tuple[Text, Fraction]] = [
        (_colon(Message(N_("{name} reaches the Difficulty"), name=n)), p)
        for n, p in zip(names, found.members, strict=True)
    ]
    for count, p in found.successes.items():
        rows.append(
            (
                _colon(
                    ntr(
                        "{count} of {total} succeeds",
                        "{count} of {total} succeed",
                        count,
                        total=len(found.members),
                    )
                ),
                p,
            )
        )
    data: dict[str, JSON] = {
        "success": _fraction(found.group),
        "members": [
            {"protagonist": n, "success": _fraction(p)}
            for n, p in zip(names, found.members, strict=True)
        ],
        "successes": [_row("count", k, p) for k, p in found.successes.items()],
    }
    note = Message(N_("the group succeeds (at least one)"))
    return Odds(tuple(rows), found.group, note, data)


def _simultaneous_odds(state: ShsState, command: Simultaneous) -> Odds:
    """Each Action of the set: its Test's odds with the set's Malus (S-M7), then the opposed one's.

    The opposed Action carries the set's Malus on the acting side (S-X5).
    """
    attempts, opposed = command.attempts(), command.opposed_action()
    tests, fight = plan_simultaneous_set(state, attempts, command.trivial, opposed)
    each = [_test_odds(test, state.options) for test in tests]
    rows: list[tuple[Text, Fraction]] = []
    for number, (attempt, shown) in enumerate(zip(attempts, each, strict=True), start=1):
        label = Message(
            N_("Action {number} ({characteristic}) reaches the Difficulty"),
            number=number,
            characteristic=characteristic_named(attempt.characteristic).title,
        )
        assert shown.success is not None
        rows.append((_colon(label), shown.success))
    data: dict[str, JSON] = {"actions": [shown.data for shown in each]}
    if fight is not None and opposed is not None:
        fought, fight_data = _opposed_shown(state, fight, opposed.side, opposed.against)
        rows += fought
        data["opposed"] = fight_data
    return Odds(tuple(rows), None, None, data)


def odds(state: ShsState, command: Command) -> Odds | None:
    """The exact odds of a Test, an opposed Action, a cooperation or a simultaneous set.

    Shown before rolling; None for a command that rolls no dice.

    Raises:
        TableeError: a command the table refuses now (as deciding it would).
    """
    if isinstance(command, TestCommand):
        return _test_odds(plan_test(state, command.attempt()), state.options)
    if isinstance(command, Oppose):
        return _opposed_odds(state, command)
    if isinstance(command, Cooperate):
        return _cooperation_odds(state, command)
    if isinstance(command, Simultaneous):
        return _simultaneous_odds(state, command)
    return None


def _exact(data: JSON) -> JSON:
    """Odds data without its decimal percentages (the exact fractions stay)."""
    if isinstance(data, dict):
        return {k: _exact(v) for k, v in data.items() if k != "percent"}
    if isinstance(data, list):
        return [_exact(v) for v in data]
    return data


def odds_record(state: ShsState, command: Command) -> dict[str, JSON] | None:
    """The exact odds shown before a rolled command, as its event records them.

    Returns:
        `odds`'s data without the decimal percentages: every chance an exact ``"p/q"``
        string. A Test: ``{"distribution": [{"value", "probability"}], "success"}``; an
        opposed Action: ``{"first", "second", "outcomes": [{"outcome", "probability"}],
        "margin": [{"margin", "probability"}]}``; a cooperation: ``{"success", "members":
        [{"protagonist", "success"}], "successes": [{"count", "probability"}]}``; a
        simultaneous set: ``{"actions": [each Test's]}``, with ``"opposed"`` (an opposed
        Action's) when the set holds one (S-X5). None for a command without odds.

    Raises:
        TableeError: a command the table refuses now.

    Source: seed 003; S-M2 to S-M7, S-A5.
    """
    shown = odds(state, command)
    if shown is None:
        return None
    record = _exact(shown.data)
    assert isinstance(record, dict)
    return record


# --- the log, traces, panels -----------------------------------------------------------------


def line(event: Event, after: ShsState | None) -> Message:
    """The log line of an event (a counter read from the state right after it)."""
    return describe(event.kind, event.payload(), after)


def _roll_of(action: RolledAction) -> ActionRoll:
    """The roll of a stored Action: its own, temporary and situation's modifiers."""
    return ActionRoll(
        action.threshold,
        action.die == "d10",
        action.bonus + action.temporary_bonus + action.situation_bonus,
        action.malus + action.temporary_malus + action.situation_malus,
        action.option == "se_surpasser",
        action.option == "se_sacrifier",
    )


def _trace(action: RolledAction, options: ShsOptions, roll: ActionRoll | None = None) -> list[Text]:
    """The steps of one stored Action resolved again, or none when they disagree."""
    bonus, malus = action.situation_bonus, action.situation_malus
    roll = roll or _roll_of(action)
    try:
        result = resolve_action(roll, action.action_faces, action.dpm_faces, options)
    except ValueError:
        return []
    if result.ps != action.ps:
        return []
    steps = (*situation_steps(bonus, malus), *result.trace)
    return [_step(step) for step in steps]


def details(event: Event, after: ShsState | None) -> tuple[Text, ...]:
    """The trace of each rolled Action, resolved again from its stored faces.

    The options are those right after the event (the defaults without a state); a trace is
    shown only when resolving again gives the stored PS.
    """
    options = after.options if after is not None else ShsOptions()
    parts: list[tuple[str | None, RolledAction]]
    match event:
        case TestRolled():
            parts = [(None, event.action)]
        case OpposedRolled():
            parts = [(a.protagonist, a) for a in (event.first, event.second)]
        case CooperationRolled():  # each cooperator rolls with a Bonus 1 (S-M6)
            parts = [(a.protagonist, a) for a in event.members]
        case SimultaneousRolled():  # Malus k - 1 on each Action of the set (S-M7, S-X5)
            parts = [(characteristic_named(a.characteristic).title, a) for a in event.actions]
            if event.opposed is not None:
                parts += [(a.protagonist, a) for a in (event.opposed.first, event.opposed.second)]
        case _:
            return ()
    rolls = [_roll_of(a) for _, a in parts]
    opposed = isinstance(event, OpposedRolled) or (
        isinstance(event, SimultaneousRolled) and event.opposed is not None
    )
    if opposed:  # netted across the sides as the table says (S-X4)
        rolls[-2:] = net_across(rolls[-2], rolls[-1], options)
    lines: list[Text] = []
    for (head, action), roll in zip(parts, rolls, strict=True):
        steps = _trace(action, options, roll)
        if head is not None and steps:
            lines.append(head)
        lines += steps
    return tuple(lines)


def panels(state: ShsState) -> tuple[Panel, ...]:
    """The clock, then each Protagoniste's counters (Santé as boxes), traits and Expertises."""
    clock = clock_json(state.clock)
    scene: Text = (
        Message(
            "{scene} ({kind})", scene=clock["scene"], kind=Message(KINDS[str(clock["scene_kind"])])
        )
        if clock["scene_kind"] in KINDS
        else Message(N_("No Scène yet"))
    )
    rows: list[tuple[Text, Text]] = [
        ("Scène", scene),
        ("Tour", str(clock["tour"])),
        (Message(N_("Game time")), game_time(int(clock["seconds"]))),
    ]
    for m in clock["modifiers"]:
        text: Text = modifier_text(m)
        who = state.protagonists.get(m["protagonist"])
        if who is not None and not who.alive:
            text = Message(
                "{text} {dead}", text=text, dead=Message(N_("(dead: applies to no roll)"))
            )
        rows.append((f"#{m['number']}", text))
    for a in clock["long_actions"]:
        rows.append(
            (
                Message(N_("Long Action")),
                Message(
                    N_("{name}: {label}, rolled in Tour {last}"),
                    name=a["protagonist"],
                    label=a["label"],
                    last=a["last_tour"],
                ),
            )
        )
    shown = [Panel(Message(N_("Clock")), tuple(rows))]
    for name in state.protagonists:
        hero = protagonist_json(state, name)
        thresholds: tuple[tuple[Text, Text], ...] = tuple(
            (c.title, f"{hero[c.value]}+") for c in Characteristic
        )
        owner: Text = str(hero["owner"]) if hero["owner"] else "Réalisateur"
        hero_rows: list[tuple[Text, Text]] = [
            (Message(N_("Played by")), owner),
            ("Protection", str(hero["protection"])),
        ]
        if hero["expertises"]:
            hero_rows.append(("Expertises", ", ".join(hero["expertises"])))
        gauges = (
            Gauge("Santé", int(hero["sante"]), int(hero["sante_max"]), "bar", brief=True),
            Gauge("Air", int(hero["air"]), None, "tokens", brief=True),
            Gauge("NT", int(hero["nt"]), None, "cards", brief=True),
        )
        shown.append(
            Panel(
                name,
                tuple(hero_rows),
                gauges=gauges,
                muted=not hero["alive"],
                brief=(),
                cells=thresholds,
            )
        )
    return tuple(shown)


def summary(state: ShsState, options: dict[str, JSON]) -> dict[str, JSON]:
    """What ``table show --json`` adds: the Protagonistes, the clock, the house rules."""
    return {
        "protagonistes": {name: protagonist_json(state, name) for name in state.protagonists},
        "clock": clock_json(state.clock),
        "options": options,
    }


def summary_lines(state: ShsState) -> tuple[Text, ...]:
    """The clock, then each Protagoniste, for ``table show``."""
    lines = clock_lines(clock_json(state.clock))
    for name in state.protagonists:
        lines += hero_lines(name, protagonist_json(state, name))
    return tuple(line.text for line in lines)
