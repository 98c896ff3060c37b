"""What a YBS table answers: its queries, and the exact odds shown before rolling.

The sheets and tokens, the advisor's keep choices, the exact odds of ``tablee odds ybs
test|straight|gang-fight|ichika``, and before a roll the odds of a test (with the player's
tokens once forced and the table's reading of s'entêter), of a gang fight (the race before
its first throw, each keep choice after it) and of an encounter's secret choices.

Source: seed 004; rulings Y-M3, Y-M4, Y-M7, Y-M8, Y-A3, Y-A13, Y-A16.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tablee.dice import D6, parse_faces
from tablee.errors import N_, InputError, Message, Number, Plural
from tablee.systems.base import JSON
from tablee.systems.declare import Command, Query
from tablee.systems.plugin import Line, Odds, Report, Text
from tablee.systems.ybs import brawl_commands as B
from tablee.systems.ybs import brawls, play, views
from tablee.systems.ybs import commands as C
from tablee.systems.ybs import queries as Q
from tablee.systems.ybs.advisor import advise
from tablee.systems.ybs.character import trait_named
from tablee.systems.ybs.gang_odds import (
    best_straight_distribution,
    encounter_odds,
    gang_fight_odds,
    ichika_odds,
    straight_probability,
)
from tablee.systems.ybs.odds import odds_of_test
from tablee.systems.ybs.rolls import combined_trait
from tablee.systems.ybs.state import YbsState, character_json, character_named, player_named

if TYPE_CHECKING:  # the race advice loads when a gang fight asks for it
    from tablee.systems.ybs.race import RaceChoice

__all__ = ["answer", "odds_before"]


def answer(state: YbsState | None, query: Query) -> Report:
    """Characters, tokens, the advisor, or the exact odds of a test, a straight, a fight."""
    if isinstance(query, Q.TestOddsQuery | Q.StraightOddsQuery):
        return _odds_answer(query)
    if isinstance(query, Q.GangOddsQuery | Q.IchikaOddsQuery):
        return _race_answer(query)
    assert state is not None
    if isinstance(query, Q.ShowCharacters):
        names = (
            [character_named(state, query.character)] if query.character else list(state.characters)
        )
        lines = [line for n in names for line in views.character_lines(state, n)]
        if not lines:
            lines = [Line(Message(N_("No character yet.")))]
        return Report(tuple(lines), {"characters": {n: character_json(state, n) for n in names}})
    if isinstance(query, Q.ShowTokens):
        data: dict[str, JSON] = {
            "supply": state.ledger.supply,
            "tokens": views.tokens_json(state),
        }
        return Report((Line(views.tokens_line(state)),), data)
    assert isinstance(query, Q.AdviseGang)
    advised = views.gang_advice(state)
    doc: dict[str, JSON] = {
        "gang_fight": brawls.gang_json(state),
        "advice": {side: views.advice_json(a) for side, a in advised.items()},
        "hands": {side: list(a.ours) for side, a in advised.items()},
        "opponent": "race" if advised else None,
        "equilibrium": {side: a.equilibrium for side, a in advised.items()},
    }
    if not advised:
        none = Message(N_("No gang-fight throw to advise on: start one, or make its first throw."))
        return Report((Line(none),), doc)
    lines = [line for side, a in advised.items() for line in views.advice_lines(side, a)]
    return Report(tuple(lines), doc)


def _odds_answer(query: Q.TestOddsQuery | Q.StraightOddsQuery) -> Report:
    if isinstance(query, Q.StraightOddsQuery):
        p = straight_probability(query.count)
        dist = best_straight_distribution(query.count)
        labels = {0: "-", 1: "1-2-3-4", 2: "2-3-4-5", 3: "3-4-5-6"}
        rows = {labels[k]: dist.probability(k) for k in sorted(dist.weights)}
        title = Message(
            N_("Exact odds of a straight in one throw of {dice} dice"), dice=query.count
        )
        chances: tuple[tuple[Text, Fraction], ...] = (
            (Message(N_("a straight")), p),
            *((k, v) for k, v in rows.items() if k != "-"),
        )
        data: dict[str, JSON] = {
            "dice": query.count,
            "probability": views.fraction_text(p),
            "best_straight": {k: views.fraction_text(v) for k, v in rows.items()},
        }
        return Report((Line(title, "heading"), Line("", odds=Odds(chances))), data)
    odds = odds_of_test(query.trait, force=query.force, tokens=query.tokens, policy=query.stubborn)
    title = Message(
        N_("Exact odds of a test (trait {trait:+d}{forced}, {tokens} left, s'entêter: {stubborn})"),
        trait=query.trait,
        forced=views.forced_words(query.force),
        tokens=Plural("{n} token", "{n} tokens", query.tokens),
        stubborn=Message(views.STUBBORN_WORDS[query.stubborn]),
    )
    shown = views.test_odds(
        odds, trait=query.trait, force=query.force, tokens=query.tokens, policy=query.stubborn
    )
    expected = views.expected(N_("Expected rerolls: {value} ({fraction})"), odds.expected_rerolls)
    assert isinstance(shown.data, dict)
    doc = {
        "trait": query.trait,
        "force": query.force,
        "tokens": query.tokens,
        "stubborn": query.stubborn,
        **shown.data,
    }
    table = Odds(shown.rows)
    return Report((Line(title, "heading"), Line("", odds=table), Line(expected)), doc)


def _hands_answer(query: Q.GangOddsQuery) -> Report:
    """Every keep of ours with its exact race odds against their hand (Y-X9)."""
    if query.ours is None or query.theirs is None:
        raise InputError(N_("give both --ours and --theirs (each side's faces), or neither"))
    if query.players is not None or query.against is not None:
        raise InputError(N_("--dice and --against count dice from the start: not with --ours"))
    ours = _typed_hand(query.ours, "ours")
    theirs = _typed_hand(query.theirs, "theirs")
    higher = query.higher_straight_wins == "true"
    from tablee.systems.ybs.race import race_advice  # solved policies: only when asked

    advice = race_advice(ours, theirs, opponent=query.opponent, higher_straight_wins=higher)
    best = advice.best
    title = Message(
        N_("Exact race odds of each keep: ours {ours} against {theirs}, the other side {policy}"),
        ours=" ".join(str(f) for f in advice.ours),
        theirs=" ".join(str(f) for f in advice.theirs),
        policy=Message(OPPONENT_WORDS[advice.opponent if advice.equilibrium else "advisor"]),
    )
    keep = Message(
        N_("Best chance to win: keep {kept}, reroll {reroll} (the other side keeps {their_keep})"),
        kept=" ".join(str(f) for f in best.kept) or "-",
        reroll=best.rerolled,
        their_keep=" ".join(str(f) for f in advice.their_keep) or "-",
    )
    rows: tuple[tuple[Text, Fraction], ...] = (
        (Message(N_("win")), best.win),
        (Message(N_("tie")), best.draw),
        (Message(N_("loss")), best.loss),
    )
    lines = [Line(title, "heading"), Line(keep), Line("", odds=Odds(rows, best.win))]
    if advice.note is not None:
        lines.append(Line(Message(advice.note), "warning"))
    lines.append(
        Line(Message(N_("Every keep, best first (its chance to win, a tie counting half):")))
    )
    lines += views.race_choice_lines(advice.choices)
    data: dict[str, JSON] = {
        "ours": list(advice.ours),
        "theirs": list(advice.theirs),
        "opponent": advice.opponent,
        "higher_straight_wins": higher,
        "equilibrium": advice.equilibrium,
        "note": advice.note,
        "their_keep": list(advice.their_keep),
        "best": views.race_choice_json(best),
        "choices": [{**views.race_choice_json(c), "percent": _percents(c)} for c in advice.choices],
    }
    return Report(tuple(lines), data)


OPPONENT_WORDS = {
    "race": N_("race-optimal"),
    "advisor": N_("following the advisor"),
}
"""The opponent policies of ``tablee odds ybs gang-fight --ours --theirs``, in words."""


def _typed_hand(text: str, field: str) -> tuple[int, ...]:
    try:
        return parse_faces(text, D6)
    except InputError as exc:
        raise InputError(N_("--{flag}: {error} (rule Y-M7)"), flag=field, error=exc) from None


def _percents(choice: RaceChoice) -> dict[str, JSON]:
    """Win, tie and loss as percentages rounded to 2 places (the fractions are exact)."""
    return {
        "win": round(float(choice.win) * 100, 2),
        "tie": round(float(choice.draw) * 100, 2),
        "loss": round(float(choice.loss) * 100, 2),
    }


def _race_answer(query: Q.GangOddsQuery | Q.IchikaOddsQuery) -> Report:
    if isinstance(query, Q.GangOddsQuery):
        if query.ours is not None or query.theirs is not None:
            return _hands_answer(query)
        if query.players is None or query.against is None:
            raise InputError(
                N_("give --dice and --against (dice per side), or --ours and --theirs (faces)")
            )
        higher = query.higher_straight_wins == "true"
        odds = gang_fight_odds(query.players, query.against, higher_straight_wins=higher)
        title = Message(
            N_("Exact odds of a gang fight, {dice} dice against {against}, both sides advised"),
            dice=query.players,
            against=query.against,
        )
        head: dict[str, JSON] = {
            "dice": query.players,
            "against": query.against,
            "higher_straight_wins": higher,
        }
    else:
        odds = ichika_odds(tie=query.tie)
        title = Message(N_("Exact odds of Ichika Bachika, 5 dice a side"))
        head = {"dice": 5, "against": 5, "tie_rule": query.tie}
    shown = views.race_odds(odds)
    assert isinstance(shown.data, dict)
    expected = views.expected(N_("Expected throws: {value} ({fraction})"), odds.expected_throws)
    lines = (Line(title, "heading"), Line("", odds=Odds(shown.rows)), Line(expected))
    return Report(lines, {**head, **shown.data})


def odds_before(state: YbsState, command: Command) -> Odds | None:
    """Exact odds before rolling: a test's, a gang fight's, an encounter's (None: none).

    Their ``data`` (exact fractions as ``"p/q"``) is what the rolled event records: a test
    ``{"success", "critical", "natural_one", "expected_rerolls"}``; a gang fight's first
    throw ``{"win", "tie", "loss", "expected_throws"}``, a later one ``{"hand", "gm_hand",
    "choices": [{"side", "kept", "reroll", "straight", "expected_throws"}]}``; an encounter
    ``{"kind", "fighters", "win", "tie", "loss", "expected_throws"}``, or ``{"kind": "flee",
    "flee": "1/1"}`` when everyone flees.

    Raises:
        TableeError: a command the rules refuse now (no gang fight going on...).

    Source: Y-M3, Y-A3, Y-M7, Y-A13, Y-M8.
    """
    if isinstance(command, C.Test):
        return _test_odds(state, command)
    if isinstance(command, B.ThrowGang):
        return _throw_odds(state)
    if isinstance(command, B.Encounter):
        return _encounter_odds(state, command)
    return None


def _test_odds(state: YbsState, command: C.Test) -> Odds:
    name = character_named(state, command.character)
    hero = state.characters[name]
    value = hero.trait(trait_named(command.trait))
    if command.second_trait is not None or command.combine is not None:
        if command.second_trait is None or command.combine is None:
            raise InputError(
                N_("two traits need a way to combine them: average or limit (rule Y-A2)")
            )
        second = hero.trait(trait_named(command.second_trait))
        value = combined_trait(value, second, command.combine)
    held = play.plan_tokens(state, name)
    tokens = 0 if held is None else max(held + len(command.assistants) - command.force, 0)
    policy = "any" if state.options.stubborn == "repeat" else "once"
    odds = odds_of_test(
        value,
        force=command.force,
        tokens=tokens,
        policy=policy,
        stubborn_on=state.options.stubborn_on,
        gm_critical=held is None and state.options.gm_criticals,
    )
    return views.test_odds(odds, trait=value, force=command.force, tokens=tokens, policy=policy)


def _throw_odds(state: YbsState) -> Odds:
    fight = brawls.current_gang(state).fight
    if fight.throws == 0:
        odds = gang_fight_odds(
            fight.players_dice,
            fight.gm_dice,
            higher_straight_wins=state.options.higher_straight_wins,
        )
        note = Message(
            N_("the players' {dice} dice against {against}, both sides advised; {throws} throws"),
            dice=fight.players_dice,
            against=fight.gm_dice,
            throws=views.mean_text(odds.expected_throws),
        )
        return views.race_odds(odds, note)
    rows: list[tuple[Text, Any]] = []
    choices: list[JSON] = []
    for side, advised in views.gang_advice(state).items():
        alone = {c.kept: c for c in advise(advised.ours).choices}
        for choice in advised.choices:
            choices.append(
                {
                    "side": side,
                    "kept": list(choice.kept),
                    "reroll": choice.rerolled,
                    "straight": views.fraction_text(alone[choice.kept].straight_probability),
                    "expected_throws": views.fraction_text(alone[choice.kept].expected_throws),
                    "win": views.fraction_text(choice.win),
                    "tie": views.fraction_text(choice.draw),
                    "loss": views.fraction_text(choice.loss),
                }
            )
            label = Message(
                N_("{side}: keep {kept}, reroll {reroll} (tie {tie}, loss {loss})"),
                side=Message(views.SIDE_WORDS[side]),
                kept=" ".join(str(f) for f in choice.kept) or "-",
                reroll=choice.rerolled,
                tie=Number(choice.draw, 1, percent=True),
                loss=Number(choice.loss, 1, percent=True),
            )
            rows.append((label, choice.win))
    note = Message(
        N_(
            "each side's chance to win the fight for each keep choice, best first (its chance "
            "to win, a tie counting half), against the other side's race-optimal play "
            "(players {hand}, GM {gm_hand})"
        ),
        hand=" ".join(str(f) for f in fight.players_hand),
        gm_hand=" ".join(str(f) for f in fight.gm_hand),
    )
    data: dict[str, JSON] = {
        "hand": list(fight.players_hand),
        "gm_hand": list(fight.gm_hand),
        "choices": choices,
    }
    return Odds(tuple(rows), None, note, data)


def _encounter_odds(state: YbsState, command: B.Encounter) -> Odds:
    choices = {player_named(state, p): c for p, c in command.by_player().items()}
    found = encounter_odds(
        choices,
        outnumbered=brawls.side_named(command.outnumbered),
        outgunned=brawls.side_named(command.outgunned),
        mixed_disadvantages=state.options.mixed_disadvantages,
        higher_straight_wins=state.options.higher_straight_wins,
        tie=state.options.ichika_tie,
    )
    if found.odds is None:
        flee = Message(N_("everyone flees: no dice are thrown"))
        return Odds(((flee, Fraction(1)),), data={"kind": found.kind, "flee": "1/1"})
    kinds: dict[str, Text] = {
        "ichika_bachika": "Ichika Bachika",
        "gang_fight": Message(N_("a gang fight")),
    }
    note = Message(
        N_("{kind}: the players' chances, {fighters} fighting"),
        kind=kinds.get(found.kind, found.kind),
        fighters=", ".join(found.fighters),
    )
    shown = views.race_odds(found.odds, note)
    assert isinstance(shown.data, dict)
    data: dict[str, JSON] = {"kind": found.kind, "fighters": list(found.fighters), **shown.data}
    return replace(shown, data=data)
