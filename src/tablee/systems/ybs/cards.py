"""YBS rolls as cards of the log: a test's d6, a reroll, a gang-fight throw, an encounter.

A test or a reroll draws its one d6 and names its result (success, failure, critical
success, critical failure) with the modified result; its consequences are the Unmei
tokens it moved. A gang-fight throw draws each side's hand: the dice kept from the last
throw are ``held``, the four dice of a side's straight ``score``; its result is the winner,
a draw or the fight going on, and its consequences the Uchimi and Kega each fighter takes.
An encounter's Ichika Bachika draws both sides' five dice the same way.

Source: seed 004, "Les tests", "Les jetons Unmei", "Bagarre générale", "Rencontre
inattendue"; rulings Y-M3, Y-M4, Y-M7, Y-M8, Y-A3 to Y-A5, Y-A13.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from tablee.errors import N_, Message, Plural
from tablee.systems.base import JSON
from tablee.systems.plugin import Card, DiceGroup, Odds, Shown, Text, recorded_rows
from tablee.systems.ybs.brawl_events import Encountered, GangThrown
from tablee.systems.ybs.events import Rerolled, Tested
from tablee.systems.ybs.log import moves_message
from tablee.systems.ybs.views import SIDE_WORDS

__all__ = ["card", "hand_dice"]

YbsRolled = Tested | Rerolled | GangThrown | Encountered


def hand_dice(kept: Sequence[int], new: Sequence[int], straight: str | None) -> tuple[Shown, ...]:
    """A side's hand as drawn: the kept dice (``held``), then the new ones.

    The four faces of the side's straight (``"2-3-4-5"``) are marked ``scores``, once each;
    a held die of the straight stays ``held`` (it was kept for it).

    Source: Y-M7, Y-A13.
    """
    wanted = set()
    if straight:
        wanted = {int(f) for f in straight.split("-") if f.isdigit()}
    shown = []
    for face in kept:
        wanted.discard(face)
        shown.append(Shown("d6", face, "held"))
    for face in new:
        if face in wanted:
            wanted.discard(face)
            shown.append(Shown("d6", face, "scores"))
        else:
            shown.append(Shown("d6", face))
    return tuple(shown)


def _fraction(value: JSON) -> Fraction | None:
    return None if value is None else Fraction(str(value))


def _verdict(event: Tested | Rerolled) -> tuple[Message, str]:
    if event.critical_success:
        word, tone = N_("Critical success"), "critical"
    elif event.critical_failure:
        word, tone = N_("Critical failure"), "fumble"
    elif event.success:
        word, tone = N_("Success"), "success"
    else:
        word, tone = N_("Failure"), "failure"
    result = Message(
        N_("{verdict}: die {natural}, result {modified}"),
        verdict=Message(word),
        natural=event.natural,
        modified=event.modified,
    )
    return result, tone


def _tokens(moves: Any) -> tuple[Text, ...]:
    if not moves:
        return ()
    return (Message(N_("Unmei tokens: {moves}"), moves=moves_message(moves)),)


def _test(event: Tested) -> Card:
    result, tone = _verdict(event)
    odds = None
    if event.odds is not None:
        rows = recorded_rows(
            [
                (Message(N_("success")), event.odds.get("success")),
                (Message(N_("critical success")), event.odds.get("critical")),
                (Message(N_("final natural 1")), event.odds.get("natural_one")),
            ]
        )
        odds = Odds(rows, _fraction(event.odds.get("success")))
    face = event.faces[0] if event.faces else event.natural
    return Card(
        groups=(DiceGroup(event.character, (Shown("d6", face, "scores"),)),),
        result=result,
        tone=tone,
        odds=odds,
        consequences=_tokens(event.payload().get("moves")),
    )


def _reroll(event: Rerolled) -> Card:
    result, tone = _verdict(event)
    return Card(
        groups=(DiceGroup(event.character, (Shown("d6", event.face, "scores"),)),),
        result=result,
        tone=tone,
        consequences=_tokens(event.payload().get("moves")),
    )


def _damage(rows: Sequence[Any]) -> tuple[Text, ...]:
    """Each fighter's boxes crossed (Uchimi, then Kega), fighters with none left out."""
    shown: list[Text] = []
    for row in rows:
        if not isinstance(row, Mapping) or not (row.get("uchimi") or row.get("kega")):
            continue
        crossed: list[Message] = []
        if row.get("uchimi"):
            crossed.append(Plural("{n} Uchimi box", "{n} Uchimi boxes", int(row["uchimi"])))
        if row.get("kega"):
            crossed.append(Plural("{n} Kega box", "{n} Kega boxes", int(row["kega"])))
        boxes = crossed[0]
        if len(crossed) == 2:
            boxes = Message(N_("{first} and {then}"), first=crossed[0], then=crossed[1])
        shown.append(Message(N_("{name}: {boxes} crossed"), name=row.get("character"), boxes=boxes))
    return tuple(shown)


def _ending(winner: str | None, draw: bool, inglorious: bool) -> tuple[Message, str]:
    if draw:
        return Message(N_("A draw")), "setback"
    if winner == "players":
        text = N_("The players win (inglorious)") if inglorious else N_("The players win")
        return Message(text), "success"
    if winner == "gm":
        text = N_("The GM's side wins (inglorious)") if inglorious else N_("The GM's side wins")
        return Message(text), "failure"
    return Message(N_("No straight yet: the fight goes on")), "neutral"


def _race_odds(record: Mapping[str, Any]) -> Odds:
    rows = recorded_rows(
        [
            (Message(N_("the players win")), record.get("win")),
            (Message(N_("a draw")), record.get("tie")),
            (Message(N_("the GM's side wins")), record.get("loss")),
        ]
    )
    return Odds(rows, _fraction(record.get("win")))


def _choice(choice: Mapping[str, Any]) -> Message:
    """A choice of dice as the odds name it: the dice kept, the dice thrown, each if any."""
    kept = " ".join(str(f) for f in choice.get("kept", []))
    reroll = int(choice.get("reroll") or 0)
    template = N_("{side}: keep {kept}, reroll {reroll}")
    if not kept:
        template = N_("{side}: reroll {reroll}")
    elif not reroll:
        template = N_("{side}: keep {kept}")
    return Message(
        template,
        side=Message(SIDE_WORDS.get(str(choice.get("side")), "")),
        kept=kept,
        reroll=reroll,
    )


def _gang(event: GangThrown) -> Card:
    result, tone = _ending(event.winner, event.draw, event.inglorious)
    if event.straight and event.gm_straight:
        result = Message(
            N_("{result} (straights: players {players}, GM's side {gm})"),
            result=result,
            players=event.straight,
            gm=event.gm_straight,
        )
    elif event.straight:
        result = Message(
            N_("{result} (the players' straight: {players})"),
            result=result,
            players=event.straight,
        )
    elif event.gm_straight:
        result = Message(
            N_("{result} (the GM's side's straight: {gm})"), result=result, gm=event.gm_straight
        )
    odds = None
    if event.odds is not None:
        if "win" in event.odds:
            odds = _race_odds(event.odds)
        else:
            rows = []
            for choice in event.odds.get("choices", []):
                rows.append((_choice(choice), choice.get("straight")))
            odds = Odds(recorded_rows(rows), note=Message(N_("chance of a straight this throw")))
    groups = (
        DiceGroup(
            Message(SIDE_WORDS["players"]), hand_dice(event.keep, event.faces, event.straight)
        ),
        DiceGroup(
            Message(SIDE_WORDS["gm"]), hand_dice(event.gm_keep, event.gm_faces, event.gm_straight)
        ),
    )
    return Card(groups, result, tone, odds, _damage(event.damage))


def _encounter(event: Encountered) -> Card | None:
    if not event.faces and not event.gm_faces:
        return None  # everyone fled, or a gang fight starts: no dice
    if event.reroll:
        result, tone = Message(N_("A complete tie: throw again")), "neutral"
    else:
        result, tone = _ending(event.winner, event.draw, False)
    odds = None
    if event.odds is not None and "win" in event.odds:
        odds = _race_odds(event.odds)
    groups = (
        DiceGroup(Message(SIDE_WORDS["players"]), tuple(Shown("d6", f) for f in event.faces)),
        DiceGroup(Message(SIDE_WORDS["gm"]), tuple(Shown("d6", f) for f in event.gm_faces)),
    )
    return Card(groups, result, tone, odds, _damage(event.damage))


def card(event: YbsRolled) -> Card | None:
    """The card of a test, a reroll, a gang-fight throw or an encounter (None: no dice)."""
    if isinstance(event, Tested):
        return _test(event)
    if isinstance(event, Rerolled):
        return _reroll(event)
    if isinstance(event, GangThrown):
        return _gang(event)
    return _encounter(event)
