"""Rolled decisions at a YBS table: tests with their follow-ups, and individual fights.

A test is stored as one fact for its first die (``ybs.test``: trait, assistants, forcing,
purpose, face) and one per follow-up, each right after it: ``ybs.reroll`` (s'entêter, one
face, 1 token), ``ybs.critical`` (the player buys a critical success, 1 token) and
``ybs.critical_failure`` (the GM's, 1 token to the player). Each follow-up resolves the whole
test again with `tablee.systems.ybs.rolls.resolve_test`, so the rules of Y-M3 are checked on
the whole sequence. Every token movement is listed in the fact (``moves``).

A test may serve an individual fight (Y-M6): ``gate`` (a Nintai test, Y-A9), ``attack`` (a
Choushi test on a target with a damage kind) or ``defend`` (a Choushi test against one
opponent, Y-A10). ``ybs.round_resolved`` then marks the damage of the round's attacks;
``ybs.retreat`` takes a character out of the fight; ``ybs.fight_ended`` closes it.

Event kinds (all version 1): ``ybs.test``, ``ybs.reroll``, ``ybs.critical``,
``ybs.critical_failure``, ``ybs.round_resolved``, ``ybs.retreat``, ``ybs.fight_ended``.

Source: seed 004, "Les tests", "Résolution d'un combat"; rulings Y-M3, Y-M4, Y-M6, Y-A2 to
Y-A11.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from tablee.errors import N_, InputError, Message, RuleError
from tablee.systems.base import JSON, Fact
from tablee.systems.common import whole
from tablee.systems.ybs.character import Character, Trait, trait_named
from tablee.systems.ybs.damage import Boxes, take_damage
from tablee.systems.ybs.fights import DamageKind, Defence, attack_damage, gate_reasons
from tablee.systems.ybs.log import joined
from tablee.systems.ybs.rolls import MAX_FORCE, TestResult, YbsTest, combined_trait, resolve_test
from tablee.systems.ybs.state import (
    Decision,
    FightRound,
    OpenTest,
    YbsState,
    box_json,
    character_named,
    decision_of,
    free_text,
    settled,
    with_boxes,
)
from tablee.systems.ybs.unmei import GM, TokenMove, moves_json

__all__ = [
    "PURPOSES",
    "decide_critical",
    "decide_critical_failure",
    "decide_fight_end",
    "decide_reroll",
    "decide_retreat",
    "decide_round",
    "decide_test",
    "fight_after",
    "plan_tokens",
]

_TESTS = ("ybs.test",)
"""The stored tests whose hidden results (a blind Nintai gate) a fight's refusal may tell."""

PURPOSES = ("plain", "gate", "attack", "defend")
"""What a test is for: an ordinary test, the Nintai gate, an attack, a defence (Y-M6)."""

P = Mapping[str, JSON]


def _result_json(result: TestResult) -> dict[str, JSON]:
    return {
        "natural": result.natural,
        "modified": result.modified,
        "success": result.success,
        "critical_success": result.critical_success,
        "critical_failure": result.critical_failure,
        "rerolls": result.rerolls,
    }


def _check_force(force: object) -> int:
    return whole(force, "force", 0, MAX_FORCE, rule="Y-M3")


def _assist_moves(
    state: YbsState, actor: str, player: str | None, assistants: Iterable[str]
) -> tuple[list[str], list[TokenMove]]:
    names: list[str] = []
    moves: list[TokenMove] = []
    for raw in assistants:
        name = character_named(state, raw)
        if name == actor or name in names:
            raise InputError(
                N_("{name} cannot assist twice or assist itself (rule Y-A6)"), name=name
            )
        giver = state.owners.get(name)
        if player is None or giver is None:
            raise RuleError(
                N_(
                    "{name} cannot assist {actor} with a token: GM characters hold none "
                    "(Y-A6, Y-A8)"
                ),
                name=name,
                actor=actor,
            )
        if giver == player:
            raise RuleError(
                N_("{name} is played by {player}, who also plays {actor}: no token to give (Y-A6)"),
                name=name,
                player=player,
                actor=actor,
            )
        names.append(name)
        moves.append(TokenMove(giver, player, 1, "assist"))
    return names, moves


def plan_tokens(state: YbsState, character: str) -> int | None:
    """The tokens of a character's player (None for a GM character): for odds shown first."""
    owner = state.owners.get(character_named(state, character))
    return None if owner is None else state.ledger.players.get(owner, 0)


_PURPOSE_WORDS = {
    "gate": N_("the Nintai gate"),
    "attack": N_("an attack"),
    "defend": N_("a defence"),
}
"""Each fight purpose in words, for messages (Y-M6)."""
_GATE_WORDS = {
    "armed_target": N_("the target bears a lethal or impressive weapon"),
    "half_boxes": N_("half the boxes or more are marked"),
    "kega": N_("at least one Kega"),
}
"""Each reason of the Nintai gate in words (`gate_reasons`, Y-A9)."""


def _purpose_checks(
    state: YbsState, actor: str, chosen: Trait, p: dict[str, JSON], approved: bool = False
) -> None:
    """Refuse a fight test the rules of Y-M6 and Y-A9 forbid now.

    A fight test uses its own trait alone (Nintai for the gate, Choushi otherwise) unless
    the GM approved another one or a pair (``approved``, Y-X3).
    """
    purpose = p["purpose"]
    fight = state.fight
    if purpose == "plain":
        return
    needed = Trait.NINTAI if purpose == "gate" else Trait.CHOUSHI
    if not approved and (chosen is not needed or p["second_trait"] is not None):
        raise RuleError(
            N_("{purpose} uses {trait} alone unless the GM approves another (rules Y-M6, Y-X3)"),
            cli_tip=N_("the GM approves another trait with --trait-approved"),
            purpose=Message(_PURPOSE_WORDS[str(purpose)]),
            trait=needed.title,
        )
    if actor in fight.retreated:
        raise RuleError(N_("{name} retreated from this fight (rule Y-M6)"), name=actor)
    if purpose == "gate":
        if actor in fight.gates:
            raise RuleError(
                N_("{name} already rolled the Nintai gate this round (Y-A9)"),
                secret_in=_TESTS,
                name=actor,
            )
        return
    named = p["target"] if purpose == "attack" else p["against"]
    if named is None:
        raise InputError(
            N_("an attack needs a target and a defence an opponent (rules Y-M6, Y-A10)")
        )
    other = character_named(state, named)
    if other == actor:
        raise InputError(N_("{name} cannot fight itself"), name=actor)
    if other in fight.retreated:
        raise RuleError(N_("{name} retreated from this fight (rule Y-M6)"), name=other)
    if purpose == "defend":
        p["against"] = other
        if actor in fight.defences:
            raise RuleError(
                N_("{name} already defended this round (rule Y-A10)"), secret_in=_TESTS, name=actor
            )
        return
    p["target"] = other
    if actor in fight.attacks:
        raise RuleError(
            N_("{name} already attacked this round (rule Y-M6)"), secret_in=_TESTS, name=actor
        )
    reasons = gate_reasons(state.characters[actor], target_armed=bool(p["target_armed"]))
    if reasons and not fight.gates.get(actor, False):
        raise RuleError(
            N_(
                "{name} must pass a Nintai test before attacking ({reasons}); on a failure, "
                "defend or retreat (rules Y-M6, Y-A9)"
            )
            if actor not in fight.gates
            else N_("{name} failed the Nintai gate this round: defend or retreat (rule Y-A9)"),
            cli_tip=N_("roll it with: tablee ybs test {name} --trait nintai --purpose gate"),
            secret_in=_TESTS,  # whether a hidden gate test failed
            name=actor,
            reasons=joined([Message(_GATE_WORDS.get(r, r)) for r in reasons]),
        )


def fight_after(state: YbsState, p: P) -> FightRound:
    """The fight round with this test's current result recorded."""
    fight, actor, purpose = state.fight, str(p["character"]), p["purpose"]
    if purpose == "gate":
        return replace(fight, gates={**fight.gates, actor: bool(p["success"])})
    record = {"success": p["success"], "critical": p["critical_success"]}
    if purpose == "attack":
        record |= {"target": p["target"], "damage": p["damage"]}
        return replace(fight, attacks={**fight.attacks, actor: record})
    if purpose == "defend":
        record |= {"against": p["against"]}
        return replace(fight, defences={**fight.defences, actor: record})
    return fight


def decide_test(
    state: YbsState,
    *,
    character: str,
    trait: str,
    faces: Sequence[int],
    second_trait: str | None = None,
    combine: str | None = None,
    assistants: Iterable[str] = (),
    force: int = 0,
    purpose: str = "plain",
    target: str | None = None,
    damage: str = "uchimi",
    target_armed: bool = False,
    against: str | None = None,
    note: str = "",
    trait_approved: bool = False,
) -> Decision:
    """A test's first die, with its assistance and forced destiny (Y-M3 steps 1 to 5).

    Args:
        state: current state.
        character: the actor.
        trait: the trait the GM named.
        faces: the first natural die, as a one-element sequence.
        second_trait: a second trait that also applies (Y-A2), with ``combine``.
        combine: ``average`` or ``limit`` (Y-A2).
        assistants: characters assisting; each one's player gives 1 token (Y-A6).
        force: tokens spent to force destiny, 0..3 (paid to the GM before the roll).
        purpose: one of `PURPOSES`.
        target, damage, target_armed: an attack's target, damage kind and whether the
            target bears a lethal or impressive weapon (the Nintai gate, Y-A9).
        against: the opponent a defence is against (Y-A10).
        note: free text kept in the log.
        trait_approved: the GM approved another trait (or a pair) for a fight test (Y-X3).

    Returns:
        The decision; its outcome is the `TestResult` so far.

    Raises:
        InputError: an unknown trait or purpose, a bad face, forcing more than 3, a second
            trait without a way to combine.
        NotFoundError: an unknown character.
        RuleError: tokens missing (to assist or force), a GM character forcing destiny or
            being assisted (Y-A8), a prostrate character testing another trait than Nintai,
            a fight test breaking Y-M6 or Y-A9 (no gate passed, twice in a round...).

    Source: seed 004, "Les tests", "Résolution d'un combat"; Y-M3, Y-M6, Y-A2, Y-A6, Y-A8,
    Y-A9, Y-A10, Y-X3.
    """
    state = settled(state)
    actor = character_named(state, character)
    hero = state.characters[actor]
    player = state.owners.get(actor)
    chosen = trait_named(trait)
    value = hero.trait(chosen)
    second: Trait | None = None
    if second_trait is not None or combine is not None:
        if second_trait is None:
            raise InputError(
                N_("combining with {combine!r} needs a second trait (rule Y-A2)"),
                combine=combine,
            )
        if combine is None:
            raise InputError(
                N_("two traits need a way to combine them: average or limit (rule Y-A2)")
            )
        second = trait_named(second_trait)
        value = combined_trait(value, hero.trait(second), combine)
    if purpose not in PURPOSES:
        raise InputError(
            N_("test purpose {value!r}: {known}"), value=purpose, known=" | ".join(PURPOSES)
        )
    if hero.prostrate and chosen is not Trait.NINTAI:
        raise RuleError(
            N_("{name} is prostrate: only a Nintai test the GM allows is possible (rule Y-M5)"),
            name=actor,
        )
    forced = _check_force(force)
    if player is None and forced:
        raise RuleError(
            N_("{name} is a GM character: it holds no token to force destiny (rule Y-A8)"),
            name=actor,
        )
    names, moves = _assist_moves(state, actor, player, assistants)
    if forced:
        moves.append(TokenMove(str(player), GM, forced, "force"))
    ledger = state.ledger.apply(moves)
    tokens = 0 if player is None else ledger.players[player]
    p: dict[str, JSON] = {
        "character": actor,
        "player": player,
        "trait": chosen.value,
        "second_trait": None if second is None else second.value,
        "combine": None if second is None else str(combine),
        "value": value,
        "assistants": names,
        "force": forced,
        "purpose": purpose,
        "target": target if purpose == "attack" else None,
        "damage": DamageKind.named(damage).value if purpose == "attack" else None,
        "target_armed": bool(target_armed) if purpose == "attack" else False,
        "against": against if purpose == "defend" else None,
        "note": free_text(note),
    }
    _purpose_checks(state, actor, chosen, p, bool(trait_approved))
    if len(faces) != 1:
        raise InputError(
            N_("a test's first throw is one die, not {count} (rule Y-M3)"), count=len(faces)
        )
    test = _test_of(state, p, tokens)
    result = resolve_test(test, faces)
    p |= {"faces": list(result.faces), **_result_json(result), "moves": moves_json(moves)}
    return _after_test(replace(state, ledger=ledger), "ybs.test", p, p, tokens, result)


def _test_of(
    state: YbsState, p: P, tokens: int, *, critical: bool = False, critical_failure: bool = False
) -> YbsTest:
    return YbsTest(
        int(p["value"]),
        int(p["force"]),
        tokens,
        state.options.stubborn,
        state.options.stubborn_on,
        critical,
        critical_failure,
        npc=p["player"] is None,
        gm_critical=state.options.gm_criticals,
    )


def _after_test(
    state: YbsState,
    kind: str,
    payload: dict[str, JSON],
    test_payload: P,
    tokens: int,
    result: TestResult,
) -> Decision:
    after = replace(
        state,
        test=OpenTest(test_payload, tokens),
        fight=fight_after(state, test_payload),
    )
    fact = Fact(kind, payload, actor=str(test_payload["player"] or GM))
    return Decision((fact,), result, (), after)


_FOLLOW_UPS = {
    "ybs.reroll": Message(N_("s'entêter")),
    "ybs.critical": Message(N_("a critical success")),
    "ybs.critical_failure": Message(N_("a critical failure")),
}


def _open(state: YbsState, what: Message) -> OpenTest:
    if state.test is None:
        raise RuleError(
            N_("no test in progress for {what}: it must come right after the test (rule Y-M3)"),
            what=what,
        )
    return state.test


def _follow_up(
    state: YbsState,
    kind: str,
    *,
    face: int | None = None,
    critical: bool = False,
    critical_failure: bool = False,
) -> Decision:
    opened = _open(state, _FOLLOW_UPS[kind])
    base = dict(opened.payload)
    if base["critical_success"] or base["critical_failure"]:
        raise RuleError(N_("this test's critical result is already decided: it is over (Y-A5)"))
    faces = [int(f) for f in base["faces"]]
    if face is not None:
        faces.append(face)
    test = _test_of(
        state, base, opened.tokens, critical=critical, critical_failure=critical_failure
    )
    result = resolve_test(test, faces)
    player = base["player"]
    moves: list[TokenMove] = []
    if face is not None:
        moves.append(TokenMove(str(player), GM, 1, "stubborn"))
    if critical:  # a GM character's comes out of the GM's bag and back into it (Y-X6)
        moves.append(TokenMove(GM if player is None else str(player), GM, 1, "critical"))
    if critical_failure and player is not None:
        moves.append(TokenMove(GM, str(player), 1, "critical_failure"))
    ledger = state.ledger.apply(moves)
    updated = {**base, "faces": list(result.faces), **_result_json(result)}
    payload: dict[str, JSON] = {
        "character": base["character"],
        "face": face,
        **_result_json(result),
        "moves": moves_json(moves),
    }
    if face is None:
        del payload["face"]
    return _after_test(replace(state, ledger=ledger), kind, payload, updated, opened.tokens, result)


def decide_reroll(state: YbsState, *, faces: Sequence[int]) -> Decision:
    """S'entêter: 1 token for a reroll of the test in progress (Y-M3 step 6, Y-A3).

    Args:
        state: current state.
        faces: the rerolled die, as a one-element sequence.

    Raises:
        InputError: not one face 1..6.
        RuleError: no test in progress; a reroll the reading or the tokens forbid.

    Source: Y-M3, Y-A3.
    """
    if len(faces) != 1:
        raise InputError(N_("a reroll is one die, not {count} (rule Y-M3)"), count=len(faces))
    return _follow_up(state, "ybs.reroll", face=faces[0])


def decide_critical(state: YbsState) -> Decision:
    """The player turns the test's natural 6 into a critical success for 1 token (Y-A4).

    A GM character may do it only with the house rule ``gm_criticals``: the token is the
    GM's, taken from the bag and put back, so the bag must hold one (Y-A8, Y-X6).

    Raises:
        RuleError: no test in progress; no final 6; no token left; a GM character without
            the house rule; an empty bag.

    Source: Y-M3 step 7, Y-A4, Y-A8, Y-X6.
    """
    return _follow_up(state, "ybs.critical", critical=True)


def decide_critical_failure(state: YbsState) -> Decision:
    """The GM turns the test's final natural 1 into a critical failure: 1 token to the player.

    Raises:
        RuleError: no test in progress; no final 1; the GM's bag is empty.

    Source: Y-M3 step 7, Y-M4, Y-A5.
    """
    return _follow_up(state, "ybs.critical_failure", critical_failure=True)


def decide_round(state: YbsState) -> Decision:
    """Mark the damage of the round's attacks and start the next round (Y-M6 step 3, 4).

    Each successful attack marks 1 box of its kind (``critical_boxes`` for a critical
    success) unless its target defended against this attacker and succeeded (a critical
    attack only by a critical defence).

    Raises:
        RuleError: no attack and no defence this round.

    Source: Y-M6, Y-A10, Y-A11.
    """
    state = settled(state)
    fight = state.fight
    if not fight.attacks and not fight.defences and not fight.gates:
        raise RuleError(N_("no test in this fight round yet (rule Y-M6)"))
    heroes = dict(state.characters)
    hits: list[JSON] = []
    for attacker, attack in fight.attacks.items():
        target = str(attack["target"])
        shield = fight.defences.get(target)
        defence = None
        if shield is not None and shield["against"] == attacker:
            defence = Defence(bool(shield["success"]), bool(shield["critical"]))
        boxes = attack_damage(
            success=bool(attack["success"]),
            critical=bool(attack["critical"]),
            defence=defence,
            critical_boxes=state.options.critical_boxes,
        )
        kind = str(attack["damage"])
        if boxes and target in heroes:
            hero = heroes[target]
            marked = take_damage(_boxes_of(hero), **{kind: boxes})
            heroes[target] = with_boxes(hero, marked)
        hits.append(
            {
                "attacker": attacker,
                "target": target,
                "kind": kind,
                "boxes": boxes,
                "cancelled": defence is not None and defence.success and not boxes,
            }
        )
    payload: dict[str, JSON] = {
        "round": fight.round,
        "hits": hits,
        "boxes": {n: box_json(heroes[n]) for n in sorted({str(h["target"]) for h in hits})},
    }
    after = replace(
        state, characters=heroes, fight=FightRound(retreated=fight.retreated, round=fight.round + 1)
    )
    return decision_of(state, "ybs.round_resolved", payload, after, hits)


def _boxes_of(hero: Character) -> Boxes:
    return Boxes(hero.hit_points, hero.uchimi, hero.kega, hero.emergency)


def decide_retreat(state: YbsState, *, character: str) -> Decision:
    """A character retreats: no damage, out of this fight (Y-M6 step 1).

    Raises:
        RuleError: it already retreated.

    Source: Y-M6, Y-A9.
    """
    state = settled(state)
    name = character_named(state, character)
    if name in state.fight.retreated:
        raise RuleError(N_("{name} already retreated from this fight"), name=name)
    fight = replace(state.fight, retreated=state.fight.retreated | {name})
    return decision_of(state, "ybs.retreat", {"character": name}, replace(state, fight=fight))


def decide_fight_end(state: YbsState) -> Decision:
    """Close the individual fight: rounds and retreats are forgotten.

    Source: Y-M6.
    """
    state = settled(state)
    payload: dict[str, JSON] = {"rounds": state.fight.round - 1}
    return decision_of(state, "ybs.fight_ended", payload, replace(state, fight=FightRound()))
