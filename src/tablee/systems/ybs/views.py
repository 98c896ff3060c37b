"""What people read of a YBS table, as data: tokens, sheets, panels, advice and odds.

The plugin's reports, answers, odds and panels are built from these pieces: translatable
`tablee.errors.Message` objects and plain strings, never markup. Game terms stay as the game
writes them in every language (Unmei, Uchimi, Kega, the traits, s'entêter, Zorome).

Source: seed 004; rulings Y-M1, Y-M3 to Y-M9, Y-A3.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from tablee.dice import TraceStep
from tablee.errors import N_, Message, Number, Plural
from tablee.locale.numbers import is_short_fraction
from tablee.systems.base import JSON
from tablee.systems.plugin import Gauge, Line, Odds, Panel, Text
from tablee.systems.ybs.advisor import advise
from tablee.systems.ybs.brawls import gang_json
from tablee.systems.ybs.character import Trait
from tablee.systems.ybs.gang_odds import Odds as RaceOdds
from tablee.systems.ybs.log import joined
from tablee.systems.ybs.odds import TestOdds
from tablee.systems.ybs.state import YbsState, character_json

if TYPE_CHECKING:  # the race advice loads when a gang fight asks for it
    from tablee.systems.ybs.race import RaceAdvice, RaceChoice

__all__ = [
    "POLICY_WORDS",
    "SHOWN_CHOICES",
    "advice_json",
    "advice_lines",
    "box_alerts",
    "character_lines",
    "expected",
    "fraction_text",
    "gang_advice",
    "gang_hands",
    "mean_text",
    "panels",
    "race_choice_json",
    "race_choice_lines",
    "race_odds",
    "step_lines",
    "test_odds",
    "tokens_json",
    "tokens_line",
]

SHOWN_CHOICES = 6
"""Keep choices listed in text (JSON lists them all)."""

STUBBORN_WORDS = {
    "any": N_("after every failure, while tokens last"),
    "once": N_("once per test"),
    "never": N_("never"),
}
"""The reroll policies of ``tablee odds ybs test``, in words (Y-A3)."""

POLICY_WORDS = {
    "any": N_("after every failure while tokens last"),
    "once": N_("once"),
    "never": N_("never"),
}
"""When the player s'entête, in the odds' words (Y-A3)."""

SIDE_WORDS = {"players": N_("the players"), "gm": N_("the GM's side")}
"""Each side of a gang fight in words."""


class StepText(Message):
    """A trace step shown inside a line (translated with the line)."""

    def __init__(self, step: TraceStep) -> None:
        super().__init__(step.template, **step.params)


def step_lines(steps: Sequence[TraceStep], style: str = "") -> list[Line]:
    """Trace steps as lines (``  · step``), or warnings when ``style`` says so."""
    if style:
        return [Line(StepText(step), style) for step in steps]
    return [Line(Message("  · {step}", step=StepText(step))) for step in steps]


def fraction_text(value: Fraction) -> str:
    """An exact fraction as ``n/d`` (for JSON)."""
    return f"{value.numerator}/{value.denominator}"


def mean_text(value: Fraction, places: int = 3) -> Message:
    """An expected count: its decimals, then the exact fraction when short (``1.167 (7/6)``)."""
    if is_short_fraction(value):
        return Message(
            "{value} ({fraction})", value=Number(value, places), fraction=fraction_text(value)
        )
    return Message("{value}", value=Number(value, places))


def expected(template: str, value: Fraction) -> Message:
    """An expected count in a line: three decimals, then the exact fraction when short.

    Args:
        template: an `N_` template with ``{value}`` and ``{fraction}``.
        value: the expected count.
    """
    fraction: Text = fraction_text(value)
    if not is_short_fraction(value):
        fraction = Message(N_("exact fraction: see --json"))
    return Message(template, value=Number(value, 3), fraction=fraction)


def tokens_json(state: YbsState) -> dict[str, JSON]:
    """Every holder's Unmei tokens: ``{"gm": n, player: n...}``."""
    return {"gm": state.ledger.gm, **state.ledger.players}


def tokens_line(state: YbsState) -> Message:
    """``Unmei tokens: GM 95, A 3, B 2`` (``MJ`` in French)."""
    holders: list[Message | str] = [Message("{gm} {n}", gm=Message(N_("GM")), n=state.ledger.gm)]
    holders += [f"{p} {n}" for p, n in state.ledger.players.items()]
    return Message(N_("Unmei tokens: {holders}"), holders=joined(holders))


STATE_WORDS = {
    "emergency": N_("life in danger: call for help"),
    "prostrate": N_("prostrate"),
}
"""A character's state once every box is marked, in words (Y-M5)."""


def box_alerts(payload: Mapping[str, JSON]) -> list[Line]:
    """A warning line for each character an event leaves prostrate or with life in danger.

    Reads the boxes an event records: ``boxes`` for its ``character`` (damage, rest, care,
    evolution), ``boxes`` by name (a fight round), or each row of ``damage`` (a gang fight's
    end, Ichika Bachika). A character whose life is in danger is not also said prostrate.

    Source: Y-M5, Y-A19.
    """
    found: list[tuple[str, Mapping[str, JSON]]] = []
    boxes = payload.get("boxes")
    if isinstance(boxes, Mapping) and "prostrate" in boxes:
        found.append((str(payload.get("character")), boxes))
    elif isinstance(boxes, Mapping):
        found += [(str(n), b) for n, b in boxes.items() if isinstance(b, Mapping)]
    damage = payload.get("damage")
    for row in damage if isinstance(damage, list) else []:
        if isinstance(row, Mapping) and isinstance(row.get("boxes"), Mapping):
            found.append((str(row["character"]), row["boxes"]))
    lines: list[Line] = []
    for name, marked in found:
        word = "emergency" if marked.get("emergency") else "prostrate"
        if marked.get(word):
            state = Message(STATE_WORDS[word])
            lines.append(Line(Message(N_("{name}: {state}"), name=name, state=state), "warning"))
    return lines


def character_lines(state: YbsState, name: str) -> list[Line]:
    """A character for people: name and player, traits, boxes, traumas, attributes.

    The traits under a trauma are named (Y-X2).
    """
    doc = character_json(state, name)
    owner: Text = str(doc["owner"]) if doc["owner"] else Message(N_("GM character"))
    tokens: Text = ""
    if doc["tokens"] is not None:
        tokens = Message(", {tokens}", tokens=Message(N_("tokens: {n}"), n=doc["tokens"]))
    traits = ", ".join(
        f"{t.title} {int(doc['traits'][t.value]):+d}" + "*" * int(doc["stars"][t.value])
        for t in Trait
    )
    uchimi, kega, total = int(doc["uchimi"]), int(doc["kega"]), int(doc["hit_points"])
    boxes = "/" * uchimi + "X" * kega + "□" * (total - uchimi - kega)
    shown = Message("  {boxes}", boxes=Message(N_("Boxes: {boxes}"), boxes=boxes))
    style = ""
    if doc["emergency"] or doc["prostrate"]:
        what = N_("life in danger: call for help") if doc["emergency"] else N_("prostrate")
        shown, style = Message("{boxes} {state}", boxes=shown, state=Message(what)), "warning"
    lines = [
        Line(Message("{name} ({owner}{tokens})", name=name, owner=owner, tokens=tokens), "heading"),
        Line(f"  {traits}"),
        Line(shown, style),
    ]
    traumas = doc["traumas"]
    if isinstance(traumas, dict) and traumas:
        names = ", ".join(str(t).capitalize() for t in traumas)
        under = Message(N_("Under a trauma: {traits}"), traits=names)
        lines.append(Line(Message("  {under}", under=under)))
    if doc["attributes"]:
        attributes = ", ".join(str(a) for a in doc["attributes"])
        lines.append(
            Line(
                Message(
                    "  {attributes}", attributes=Message(N_("Attributes: {list}"), list=attributes)
                )
            )
        )
    return lines


# -- gang fights -----------------------------------------------------------------------------


def gang_hands(state: YbsState) -> dict[str, tuple[int, ...]]:
    """Each side's hand when a gang fight goes on and a throw has been made."""
    gang = state.gang
    if gang is None or gang.fight.throws == 0 or gang.fight.finished:
        return {}
    return {"players": gang.fight.players_hand, "gm": gang.fight.gm_hand}


def gang_advice(state: YbsState) -> dict[str, RaceAdvice]:
    """Each side's race-optimal keep choices against the other side's dice (Y-X9).

    Both hands are on the table, so each side is advised against the other's hand, the
    other side playing race-optimal, with the table's ``higher_straight_wins`` option.
    Empty when no gang-fight throw waits for keeps.
    """
    hands = gang_hands(state)
    if not hands:
        return {}
    from tablee.systems.ybs.race import race_advice  # solved policies: only while a fight waits

    higher = state.options.higher_straight_wins
    ours, theirs = hands["players"], hands["gm"]
    return {
        "players": race_advice(ours, theirs, higher_straight_wins=higher),
        "gm": race_advice(theirs, ours, higher_straight_wins=higher),
    }


def race_choice_json(choice: RaceChoice) -> dict[str, JSON]:
    """One keep's exact race odds as JSON (fractions as ``"p/q"``)."""
    return {
        "keep": list(choice.kept),
        "reroll": choice.rerolled,
        "win": fraction_text(choice.win),
        "tie": fraction_text(choice.draw),
        "loss": fraction_text(choice.loss),
        "score": fraction_text(choice.score),
    }


def advice_json(advice: RaceAdvice) -> list[JSON]:
    """Every keep choice for a hand, the best chance to win the race first, exactly.

    Each choice: ``keep``, ``reroll``, ``win``, ``tie``, ``loss`` and ``score`` (win + tie
    / 2, what the advice maximises), then the advisor's one-side figures
    ``straight_next_throw`` and ``expected_throws``.
    """
    alone = {c.kept: c for c in advise(advice.ours).choices}
    return [
        {
            **race_choice_json(c),
            "straight_next_throw": fraction_text(alone[c.kept].straight_probability),
            "expected_throws": fraction_text(alone[c.kept].expected_throws),
        }
        for c in advice.choices
    ]


def advice_lines(side: str, advice: RaceAdvice) -> list[Line]:
    """The race advice's first choices for one side, best first."""
    lines = [
        Line(
            Message(
                N_(
                    "Keep choices for {side} ({hand}) against {other}, best first (its chance "
                    "to win, a tie counting half):"
                ),
                side=Message(SIDE_WORDS[side]),
                hand=" ".join(str(f) for f in advice.ours),
                other=" ".join(str(f) for f in advice.theirs),
            )
        )
    ]
    lines += race_choice_lines(advice.choices)
    if advice.note is not None:
        lines.append(Line(Message(advice.note), "warning"))
    return lines


def race_choice_lines(choices: Sequence[RaceChoice]) -> list[Line]:
    """Keep choices with their chance to win, tie and lose, as percentages (some hidden)."""
    lines = []
    for choice in choices[:SHOWN_CHOICES]:
        row = Message(
            N_("keep {kept:<12} reroll {reroll}: win {win}, tie {tie}, loss {loss}"),
            kept=" ".join(str(f) for f in choice.kept) or "-",
            reroll=choice.rerolled,
            win=Number(choice.win, 1, percent=True),
            tie=Number(choice.draw, 1, percent=True),
            loss=Number(choice.loss, 1, percent=True),
        )
        lines.append(Line(Message("  {row}", row=row)))
    hidden = len(choices) - SHOWN_CHOICES
    if hidden > 0:
        more = Message(N_("… {count} more (all with --json)"), count=hidden)
        lines.append(Line(Message("  {more}", more=more)))
    return lines


def _gang_rows(state: YbsState, hidden: bool) -> tuple[tuple[Text, Text], ...]:
    gang = gang_json(state)
    assert gang is not None

    def hand(faces: JSON) -> Text:
        if hidden:
            return Message(N_("hidden"))
        return " ".join(str(f) for f in faces) or "-"

    return (
        (Message(N_("The players' fighters")), ", ".join(gang["fighters"])),
        (Message(N_("The GM's side")), ", ".join(gang["opponents"]) or "-"),
        (Message(N_("Dice")), f"{gang['players_dice']} / {gang['gm_dice']}"),
        (Message(N_("Throws")), str(gang["throws"])),
        (Message(N_("The players' dice")), hand(gang["players_hand"])),
        (Message(N_("The GM's dice")), hand(gang["gm_hand"])),
        (Message(N_("Minutes")), str(gang["minutes"])),
    )


# -- panels ----------------------------------------------------------------------------------


def _table_panel(state: YbsState) -> Panel:
    status = Message(N_("in progress") if state.in_session else N_("not in progress"))
    rows: list[tuple[Text, Text]] = [
        (Message(N_("Session")), str(state.session)),
        (Message(N_("Status")), status),
    ]
    gauges = [Gauge(Message(N_("Unmei tokens of the GM")), state.ledger.gm, None, "tokens")]
    gauges += [
        Gauge(Message(N_("Unmei tokens of {player}"), player=p), n, None, "tokens")
        for p, n in state.ledger.players.items()
    ]
    return Panel(Message(N_("Table")), tuple(rows), gauges=tuple(gauges))


def _gang_panel(state: YbsState) -> Panel:
    title = Message(N_("Gang fight"))
    shown = Panel(title, _gang_rows(state, hidden=False))
    if state.gang is None or state.gang.fight.throws == 0:
        return shown
    masked = Panel(title, _gang_rows(state, hidden=True))
    return Panel(title, shown.rows, follows=("ybs.gang_throw",), masked=masked)


def _fight_panel(state: YbsState) -> Panel | None:
    fight = state.fight
    if not (fight.gates or fight.attacks or fight.defences or fight.retreated or fight.round > 1):
        return None
    rows: list[tuple[Text, Text]] = [(Message(N_("Round")), str(fight.round))]
    rows += [(a, "→ " + str(d["target"])) for a, d in fight.attacks.items()]
    rows += [(d, "⛨ " + str(v["against"])) for d, v in fight.defences.items()]
    if fight.retreated:
        rows.append((Message(N_("Retreated")), ", ".join(sorted(fight.retreated))))
    return Panel(Message(N_("Individual fight")), tuple(rows))


def _character_panel(state: YbsState, name: str) -> Panel:
    doc = character_json(state, name)
    uchimi, kega, total = int(doc["uchimi"]), int(doc["kega"]), int(doc["hit_points"])
    traits: tuple[tuple[Text, Text], ...] = tuple(
        (t.title, f"{int(doc['traits'][t.value]):+d}" + " ★" * int(doc["stars"][t.value]))
        for t in Trait
    )
    owner: Text = str(doc["owner"]) if doc["owner"] else Message(N_("the GM"))
    free = max(total - uchimi - kega, 0)
    hits = Gauge(
        "Uchimi / Kega",
        free,
        total,
        "boxes",
        brief=True,
        marks=("/",) * uchimi + ("X",) * kega + ("",) * free,
        said=f"{uchimi} / {kega} ({total})",
        described=Message(
            N_("{uchimi} Uchimi, {kega} Kega, {free} free"), uchimi=uchimi, kega=kega, free=free
        ),
    )
    gauges: tuple[Gauge, ...] = (hits,)
    if doc["tokens"] is not None:  # a folded sheet shows: tokens, hits, state
        tokens = Gauge(Message(N_("Unmei tokens")), int(doc["tokens"]), None, "tokens", True)
        gauges = (tokens, hits)
    rows: list[tuple[Text, Text]] = [(Message(N_("Played by")), owner)]
    brief: tuple[int, ...] = ()
    if doc["emergency"]:
        rows.append((Message(N_("State")), Message(N_("life in danger: call for help"))))
        brief = (len(rows) - 1,)
    elif doc["prostrate"]:
        rows.append((Message(N_("State")), Message(N_("prostrate"))))
        brief = (len(rows) - 1,)
    if doc["attributes"]:
        rows.append((Message(N_("Attributes")), ", ".join(str(a) for a in doc["attributes"])))
    return Panel(
        name,
        tuple(rows),
        gauges=gauges,
        muted=bool(doc["prostrate"]),
        brief=brief,
        cells=traits,
    )


def panels(state: YbsState) -> tuple[Panel, ...]:
    """The session and every holder's tokens, the fights, then each character's sheet.

    A gang fight's hands are shown only to who may see its last throw (``follows``).
    """
    found = [_table_panel(state)]
    if state.gang is not None:
        found.append(_gang_panel(state))
    fight = _fight_panel(state)
    if fight is not None:
        found.append(fight)
    found += [_character_panel(state, name) for name in state.characters]
    return tuple(found)


# -- odds ------------------------------------------------------------------------------------


def forced_words(force: int) -> Message:
    """``, forced 2`` when tokens force destiny; nothing when none do (Y-M3)."""
    return Message(N_(", forced {force}"), force=force) if force else Message("")


def test_odds(odds: TestOdds, *, trait: int, force: int, tokens: int, policy: str) -> Odds:
    """A test's chances to show before rolling, with their exact values as data."""
    rows: tuple[tuple[Text, Fraction], ...] = (
        (Message(N_("success")), odds.success),
        (Message(N_("critical success")), odds.critical),
        (Message(N_("final natural 1")), odds.natural_one),
    )
    note = Message(
        N_(
            "trait {trait:+d}{forced}, {tokens} left, s'entêter: {policy}; "
            "expected rerolls {rerolls}"
        ),
        trait=trait,
        forced=forced_words(force),
        tokens=Plural("{n} token", "{n} tokens", tokens),
        policy=Message(POLICY_WORDS[policy]),
        rerolls=mean_text(odds.expected_rerolls),
    )
    data: dict[str, JSON] = {
        "success": fraction_text(odds.success),
        "critical": fraction_text(odds.critical),
        "natural_one": fraction_text(odds.natural_one),
        "expected_rerolls": fraction_text(odds.expected_rerolls),
    }
    return Odds(rows, odds.success, note, data)


def race_odds(odds: RaceOdds, note: Message | None = None) -> Odds:
    """The players' win, draw and loss, with their exact values as data."""
    rows: tuple[tuple[Text, Fraction], ...] = (
        (Message(N_("win")), odds.win),
        (Message(N_("tie")), odds.draw),
        (Message(N_("loss")), odds.loss),
    )
    data: dict[str, JSON] = {
        "win": fraction_text(odds.win),
        "tie": fraction_text(odds.draw),
        "loss": fraction_text(odds.loss),
        "expected_throws": fraction_text(odds.expected_throws),
    }
    return Odds(rows, odds.win, note, data)
