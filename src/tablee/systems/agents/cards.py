"""agents actions as cards of the log: the d6, the total, the result, what it cost.

An action draws its d6 (it ``scores``: the total is the die plus the modifiers ticked),
names its result (critical, success, failure) with the total (the face alone when no
modifier was ticked), and its consequences: the opposition's score lowered (by 2 on a
critical, 1 on a success) or the acting agent's reserve lowered by 1 on a failure, and the
challenge's end when it ends; and the odds shown before the roll when the action recorded
them (version 2 of ``agents.action``).

Source: seed 002, "Les défis", "Résoudre une action"; rulings G-M4, G-M5, G-A5.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from tablee.errors import N_, Message
from tablee.systems.agents.actions import Result
from tablee.systems.agents.agent import reserve_named
from tablee.systems.agents.events import ActionTaken
from tablee.systems.agents.log import total_of
from tablee.systems.base import JSON
from tablee.systems.plugin import Card, DiceGroup, Odds, Shown, Text, recorded_rows

__all__ = ["card"]

_VERDICTS = {
    "critical": (N_("Critical: {roll}"), "critical"),
    "success": (N_("Success: {roll}"), "success"),
    "failure": (N_("Failure: {roll}"), "failure"),
}


def _odds(record: Mapping[str, JSON] | None) -> Odds | None:
    """The odds an action recorded: ``{"results": {result: "p/q"}, "win": "p/q" | None}``.

    A row for each result, best first, then the agents' chance to win the challenge when it
    was recorded, as `tablee.systems.agents.plugin.Agents.odds` showed them; success counts
    a critical too (both lower the opposition).
    """
    results = None if record is None else record.get("results")
    if record is None or not isinstance(results, dict):
        return None
    labels = {
        "critical": Message(N_("critical (opposition -2)")),
        "success": Message(N_("success (opposition -1)")),
        "failure": Message(N_("failure (reserve -1)")),
    }
    pairs: list[tuple[Text, JSON]] = [(labels[k], results[k]) for k in labels if k in results]
    success = sum(
        (Fraction(str(results[k])) for k in ("critical", "success") if k in results), Fraction(0)
    )
    if record.get("win") is not None:
        pairs.append((Message(N_("the agents win the challenge")), record["win"]))
    return Odds(recorded_rows(pairs), success)


def card(event: ActionTaken) -> Card:
    """The card of an action in a challenge.

    Source: G-M4, G-M5.
    """
    template, tone = _VERDICTS.get(event.outcome, _VERDICTS["failure"])
    result = Message(template, roll=total_of(event.face, event.modifier, event.total))
    consequences: list[Text] = []
    loss = Result(event.outcome).opposition_loss if event.outcome in _VERDICTS else 0
    if loss:
        consequences.append(
            Message(
                N_("{opposition}: −{loss} → {score}"),
                opposition=event.opposition,
                loss=loss,
                score=event.score,
            )
        )
    else:
        consequences.append(
            Message(
                N_("{agent}'s {kind}: −1 → {reserve}"),
                agent=event.agent,
                kind=reserve_named(event.kind_).title,
                reserve=event.reserve,
            )
        )
    if event.ended == "won":
        consequences.append(
            Message(N_("challenge {number} won by the agents"), number=event.challenge)
        )
    elif event.ended == "lost":
        consequences.append(
            Message(N_("challenge {number} lost to the opposition"), number=event.challenge)
        )
    return Card(
        groups=(DiceGroup(event.agent, (Shown(event.die, event.face, "scores"),)),),
        result=result,
        tone=tone,
        odds=_odds(event.odds),
        consequences=tuple(consequences),
    )
