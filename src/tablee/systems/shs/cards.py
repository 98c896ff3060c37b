"""SHS rolls as cards of the log: D8 or D10 action dice, D+/- dice, PS, success, the price.

Each Action's dice are drawn as thrown: an action die at or above the threshold ``scores``
(one PS), one below it is ``missed``; a D+/- face read by its group (a ``+`` of a Bonus, a
``−`` of a Malus) ``scores``, any other face is ``missed``. The die is the one the table
gave (a D10 when an Expertise matches perfectly, else a D8). The result is the success or
failure with the PS; the consequences are the price of an option (NT +1 for Se Surpasser,
death for Se Sacrifier).

Source: seed 003, "Résoudre les Actions", "Bonus et Malus", "Options", "Coopération",
"Actions simultanées", "Actions opposées"; rulings S-M2, S-M3, S-M5, S-M6, S-M7, S-A5.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from tablee.errors import N_, Message
from tablee.systems.base import JSON
from tablee.systems.plugin import Card, DiceGroup, Odds, Shown, Text, recorded_rows
from tablee.systems.shs.events import (
    CooperationRolled,
    OpposedRolled,
    RolledAction,
    SetOpposed,
    SimultaneousRolled,
    TestRolled,
)
from tablee.systems.shs.traits import Characteristic

__all__ = ["action_dice", "card"]


def action_dice(action: RolledAction) -> tuple[Shown, ...]:
    """An Action's dice as drawn: the action dice, then the D+/- dice, each marked.

    An action die ``scores`` at or above the threshold, else it is ``missed``; the D+/- dice
    are read by group (``action.dice[1:]``, each count signed: negative for a Malus), a
    face equal to its group's sign ``scores``, any other is ``missed``.

    Source: S-M2 steps 1 to 3, S-M3.
    """
    shown = [
        Shown(action.die, face, "scores" if face >= action.threshold else "missed")
        for face in action.action_faces
    ]
    faces = list(action.dpm_faces)
    start = 0
    for count in action.dice[1:]:
        sign = 1 if count > 0 else -1
        for face in faces[start : start + abs(count)]:
            shown.append(Shown("dpm", face, "scores" if face == sign else "missed"))
        start += abs(count)
    shown += [Shown("dpm", face, "missed") for face in faces[start:]]
    return tuple(shown)


def _label(action: RolledAction) -> Message:
    return Message(
        N_("{name} ({characteristic} {threshold}+)"),
        name=action.protagonist,
        characteristic=Characteristic(action.characteristic).title,
        threshold=action.threshold,
    )


def _price(action: RolledAction) -> list[Text]:
    if action.dies:
        return [Message(N_("{name} dies (Se Sacrifier)"), name=action.protagonist)]
    if action.nt_gain:
        return [
            Message(
                N_("{name}: NT +{gain} (Se Surpasser)"),
                name=action.protagonist,
                gain=action.nt_gain,
            )
        ]
    return []


def _verdict(success: bool | None, ps: int, difficulty: int | None) -> Message:
    template = N_("Success: {ps} PS against Difficulty {difficulty}")
    if not success:
        template = N_("Failure: {ps} PS against Difficulty {difficulty}")
    return Message(template, ps=ps, difficulty=difficulty)


def _fraction(value: JSON) -> Fraction | None:
    return None if value is None else Fraction(str(value))


def _test_odds(record: Mapping[str, Any]) -> Odds:
    rows = recorded_rows(
        [(f"{row['value']} PS", row["probability"]) for row in record.get("distribution", [])]
    )
    return Odds(rows, _fraction(record.get("success")))


def _tone(success: bool | None) -> str:
    return "success" if success else "failure"


def _test(event: TestRolled) -> Card:
    action = event.action
    odds = None if event.odds is None else _test_odds(event.odds)
    return Card(
        groups=(DiceGroup(_label(action), action_dice(action)),),
        result=_verdict(event.success, event.ps, event.difficulty),
        tone=_tone(event.success),
        odds=odds,
        consequences=tuple(_price(action)),
    )


def _prevails(event: OpposedRolled | SetOpposed) -> Message:
    """Who prevails in an opposed Action, with the PS; on a tie, who keeps the situation."""
    sides = {"first": event.first, "second": event.second}
    winner = sides.get(event.winner or "")
    if event.reroll:
        return Message(N_("A tie at {ps} PS: roll again"), ps=event.first.ps)
    if winner is None:
        return Message(N_("A tie at {ps} PS: nobody prevails"), ps=event.first.ps)
    if event.tie:
        return Message(
            N_("A tie at {ps} PS: {name} keeps the situation"),
            ps=event.first.ps,
            name=winner.protagonist,
        )
    loser = event.second if winner is event.first else event.first
    return Message(
        N_("{name} prevails, {ps} PS to {other}"),
        name=winner.protagonist,
        ps=winner.ps,
        other=loser.ps,
    )


def _opposed(event: OpposedRolled) -> Card:
    sides = {"first": event.first, "second": event.second}
    result = _prevails(event)
    odds = None
    if event.odds is not None:
        odds = Odds(
            recorded_rows(
                [
                    (Message(N_("{name} prevails"), name=side.protagonist), event.odds.get(key))
                    for key, side in sides.items()
                    if event.odds.get(key) is not None
                ]
            )
        )
    return Card(
        groups=tuple(DiceGroup(_label(a), action_dice(a)) for a in sides.values()),
        result=result,
        tone="neutral",
        odds=odds,
        consequences=tuple(_price(event.first) + _price(event.second)),
    )


def _cooperation(event: CooperationRolled) -> Card:
    members = event.members
    difficulty = members[0].difficulty if members else None
    succeeded = sum(1 for m in members if m.success)
    result = Message(
        N_("The group succeeds: {count} of {total} reach Difficulty {difficulty}")
        if event.success
        else N_("The group fails: {count} of {total} reach Difficulty {difficulty}"),
        count=succeeded,
        total=len(members),
        difficulty=difficulty,
    )
    odds = None
    if event.odds is not None:
        rows = recorded_rows(
            [
                (
                    Message(N_("{name} reaches the Difficulty"), name=m.get("protagonist")),
                    m.get("success"),
                )
                for m in event.odds.get("members", [])
            ]
        )
        odds = Odds(rows, _fraction(event.odds.get("success")))
    return Card(
        groups=tuple(DiceGroup(_label(m), action_dice(m)) for m in members),
        result=result,
        tone=_tone(event.success),
        odds=odds,
        consequences=tuple(p for m in members for p in _price(m)),
    )


def _simultaneous(event: SimultaneousRolled) -> Card:
    actions, fight = event.actions, event.opposed
    parts: list[Message] = [
        Message(
            N_("Action {number}: {verdict}"),
            number=number,
            verdict=_verdict(a.success, a.ps, a.difficulty),
        )
        for number, a in enumerate(actions, start=1)
    ]
    groups = [
        DiceGroup(
            Message(N_("Action {number}: {label}"), number=n, label=_label(a)), action_dice(a)
        )
        for n, a in enumerate(actions, start=1)
    ]
    won = sum(1 for a in actions if a.success)
    prices = [p for a in actions for p in _price(a)]
    if fight is not None:  # the opposed Action, numbered after the Tests (S-X5)
        number = len(actions) + 1
        parts.append(
            Message(N_("Action {number}: {verdict}"), number=number, verdict=_prevails(fight))
        )
        groups.append(
            DiceGroup(
                Message(N_("Action {number}: {label}"), number=number, label=_label(fight.first)),
                action_dice(fight.first),
            )
        )
        against = Message(N_("against it: {label}"), label=_label(fight.second))
        groups.append(DiceGroup(against, action_dice(fight.second)))
        won += fight.winner == "first"
        prices += _price(fight.first) + _price(fight.second)
    result: Message = parts[0] if parts else Message("-")
    for part in parts[1:]:
        result = Message(N_("{first}; {then}"), first=result, then=part)
    tone = "success" if won == len(parts) else "failure" if won == 0 else "setback"
    return Card(
        groups=tuple(groups),
        result=result,
        tone=tone,
        odds=_set_odds(event.odds, fight),
        consequences=tuple(prices),
    )


def _set_odds(record: Mapping[str, Any] | None, fight: SetOpposed | None) -> Odds | None:
    """A simultaneous set's recorded odds: each Test's success, who prevails in its opposed Action.

    Source: S-M7, S-X5.
    """
    if record is None:
        return None
    each: Sequence[Any] = record.get("actions", [])
    rows: list[tuple[Text, JSON]] = [
        (Message(N_("Action {number} succeeds"), number=n), item.get("success"))
        for n, item in enumerate(each, start=1)
    ]
    fought = record.get("opposed")
    if fight is not None and isinstance(fought, Mapping):
        for key, side in (("first", fight.first), ("second", fight.second)):
            rows.append((Message(N_("{name} prevails"), name=side.protagonist), fought.get(key)))
    return Odds(recorded_rows([(label, p) for label, p in rows if p is not None]))


def card(event: TestRolled | OpposedRolled | CooperationRolled | SimultaneousRolled) -> Card:
    """The card of a Test, an opposed Action, a cooperation or a simultaneous set."""
    if isinstance(event, TestRolled):
        return _test(event)
    if isinstance(event, OpposedRolled):
        return _opposed(event)
    if isinstance(event, CooperationRolled):
        return _cooperation(event)
    return _simultaneous(event)
