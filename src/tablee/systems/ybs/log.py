"""One readable line per YBS event, as a translatable `Message` (no I/O, no catalog).

Game terms stay as the game writes them in every language: Unmei, Uchimi, Kega, the six
traits, s'entêter, Shichi Fukujin, Ichika Bachika, Zorome.

Source: seed 004; rulings Y-M2 to Y-M9; a log that reads as a transcript.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tablee.errors import N_, Message, Plural
from tablee.systems.base import JSON
from tablee.systems.options import changed_house_rules
from tablee.systems.ybs.options import YBS_OPTION_LABELS, YBS_OPTION_WORDS, YbsOptions
from tablee.systems.ybs.straights import GangSide
from tablee.systems.ybs.unmei import holder_text, reason_text

__all__ = ["describe", "joined", "moves_message", "moves_text"]

P = Mapping[str, JSON]
NOTHING = Message("")


def joined(parts: Sequence[Message | str], *, semicolons: bool = False) -> Message:
    """Parts joined by commas (or semicolons), ``-`` when there are none.

    The separator is a translated template, so French gets its space before ``;``.
    """
    if not parts:
        return Message("-")
    head: Message | str = parts[0]
    for part in parts[1:]:
        template = N_("{first}; {then}") if semicolons else N_("{first}, {then}")
        head = Message(template, first=head, then=part)
    return head if isinstance(head, Message) else Message("{part}", part=head)


def moves_message(moves: Any) -> Message:
    """Token movements in words: ``Alice → GM 2 (forcing destiny)``, comma separated.

    Holders and reasons are words, never the stored ids (``gm``, ``force``).

    Source: Y-M4.
    """
    return joined(
        [
            Message(
                N_("{giver} → {receiver} {count} ({reason})"),
                giver=holder_text(m["from"]),
                receiver=holder_text(m["to"]),
                count=m["count"],
                reason=reason_text(m["reason"]),
            )
            for m in moves or []
        ]
    )


def moves_text(moves: Any, translate: Callable[[str], str] = lambda s: s) -> str:
    """Token movements as text (see `moves_message`), ``-`` when none."""
    return moves_message(moves).render(translate)


def _tokens(p: P) -> Message:
    moves = p.get("moves") or []
    return Message(N_("; tokens: {moves}"), moves=moves_message(moves)) if moves else NOTHING


def _title(trait: JSON) -> str:
    return str(trait).capitalize()


def _verdict(p: P) -> Message:
    if p.get("critical_success"):
        return Message(N_("critical success"))
    if p.get("critical_failure"):
        return Message(N_("critical failure"))
    return Message(N_("success") if p.get("success") else N_("failure"))


_COMBINE = {"average": N_("average"), "limit": N_("the lower one")}
"""How two traits combine, in words (Y-A2)."""


def _test(p: P) -> Message:
    traits: Message | str = _title(p["trait"])
    if p.get("second_trait"):
        how = _COMBINE.get(str(p.get("combine")))
        traits = Message(
            N_("{first}/{second} ({how})"),
            first=traits,
            second=_title(p["second_trait"]),
            how=Message(how) if how else str(p.get("combine")),
        )
    purpose = {
        "gate": Message(N_(" (Nintai gate)")),
        "attack": Message(
            N_(" (attacks {target}, {damage})"),
            target=p.get("target"),
            damage=str(p.get("damage")).capitalize(),
        ),
        "defend": Message(N_(" (defends against {against})"), against=p.get("against")),
    }.get(str(p.get("purpose")), NOTHING)
    forced = Message(N_(", forces {count}"), count=p["force"]) if p.get("force") else NOTHING
    return Message(
        N_(
            "{name} tests {traits} {value:+d}{purpose}{forced}: die {natural}, result "
            "{modified}, {verdict}{tokens}"
        ),
        name=p["character"],
        traits=traits,
        value=int(p["value"]),
        purpose=purpose,
        forced=forced,
        natural=p["natural"],
        modified=p["modified"],
        verdict=_verdict(p),
        tokens=_tokens(p),
    )


def _reroll(p: P) -> Message:
    return Message(
        N_("{name} s'entête: die {natural}, result {modified}, {verdict}{tokens}"),
        name=p["character"],
        natural=p["natural"],
        modified=p["modified"],
        verdict=_verdict(p),
        tokens=_tokens(p),
    )


def _boxes(p: P) -> str:
    b = p.get("boxes") or {}
    if not isinstance(b, Mapping) or "uchimi" not in b:
        return ""
    return f"{b['uchimi']} Uchimi, {b['kega']} Kega / {b['hit_points']}"


def _damaged(p: P) -> Message:
    """Boxes marked by hand: the Uchimi, the Kega, each only when some were marked."""
    taken = [f"{p[k]} {k.capitalize()}" for k in ("uchimi", "kega") if p[k]]
    return Message(
        N_("{name} takes {damage}: {boxes}"),
        name=p["character"],
        damage=Message(N_("{first} and {then}"), first=taken[0], then=taken[1])
        if len(taken) == 2
        else "".join(taken),
        boxes=_boxes(p),
    )


def _attributes(p: P) -> Message:
    """Attributes gained (``+``) and lost (``-``), each side only when there are some."""
    changes = [
        f"{sign}{', '.join(p[key])}" for sign, key in (("+", "add"), ("-", "remove")) if p[key]
    ]
    if not changes:
        return Message(N_("{name}'s attributes stay as they were"), name=p["character"])
    return Message(
        N_("{name}'s attributes: {changes}"),
        name=p["character"],
        changes=joined(changes, semicolons=True),
    )


def _options(p: P) -> Message:
    return changed_house_rules(
        YbsOptions.from_json(p["options"]).to_json(),
        YbsOptions().to_json(),
        YBS_OPTION_LABELS,
        YBS_OPTION_WORDS,
    )


def _hit(h: Mapping[str, Any]) -> Message:
    if h.get("boxes"):
        return Message(
            N_("{attacker} → {target}: {boxes} {kind}"),
            attacker=h["attacker"],
            target=h["target"],
            boxes=h["boxes"],
            kind=str(h["kind"]).capitalize(),
        )
    return Message(
        N_("{attacker} → {target}: cancelled by the defence")
        if h.get("cancelled")
        else N_("{attacker} → {target}: missed"),
        attacker=h["attacker"],
        target=h["target"],
    )


def _round(p: P) -> Message:
    hits = [_hit(h) for h in p.get("hits") or [] if isinstance(h, Mapping)]
    if not hits:
        return Message(N_("fight round {round} resolved: no attack"), round=p["round"])
    return Message(
        N_("fight round {round} resolved: {hits}"),
        round=p["round"],
        hits=joined(hits, semicolons=True),
    )


def _side(value: JSON) -> Message:
    if value == "players":
        return Message(N_("the players"))
    if value == "gm":
        return Message(N_("the GM's side"))
    return Message(N_("nobody"))


def _damage(p: P) -> Message:
    """``; damage: Hiro +3 Uchimi; Ren +1 Kega``, each fighter's non-zero boxes; empty: none."""
    rows = []
    for d in p.get("damage") or []:
        boxes = [f"+{d[k]} {k.capitalize()}" for k in ("uchimi", "kega") if d[k]]
        if boxes:
            rows.append(f"{d['character']} {' '.join(boxes)}")
    if not rows:
        return NOTHING
    return Message(N_("; damage: {damage}"), damage=joined(rows, semicolons=True))


def _zorome(zorome: JSON) -> Message:
    """`` (Zorome 4-4)``; nothing for a hand without one (stored as ``-``, or empty)."""
    return Message(" (Zorome {zorome})", zorome=zorome) if zorome not in ("", "-") else NOTHING


def _gang_started(p: P) -> Message:
    return Message(
        N_("gang fight: {fighters} ({dice}) against the GM's side ({gm_dice})"),
        fighters=", ".join(p["fighters"]),
        dice=Plural("{n} die", "{n} dice", int(p["players_dice"])),
        gm_dice=Plural("{n} die", "{n} dice", int(p["gm_dice"])),
    )


def _gang_side(p: P) -> Message:
    """One side's dice of a throw, its new faces unshown until the other side has thrown."""
    side = GangSide(str(p["side"]))
    return Message(
        N_("gang fight, throw {throw}: {side} has thrown, waiting for {other}"),
        throw=p["throw"],
        side=side.title,
        other=side.other.title,
    )


def _gang_throw(p: P) -> Message:
    hands = Message(
        N_("gang fight, throw {throw} (minute {minutes}): players {hand}, GM's side {gm_hand}"),
        throw=p["throw"],
        minutes=p["minutes"],
        hand=" ".join(str(f) for f in p["hand"]),
        gm_hand=" ".join(str(f) for f in p["gm_hand"]),
    )
    if p.get("winner") is None and not p.get("draw"):
        return hands
    if p.get("draw"):
        return Message(N_("{hands}; a draw{damage}"), hands=hands, damage=_damage(p))
    return Message(
        N_("{hands}; winner: {winner}{inglorious}{damage}"),
        hands=hands,
        winner=_side(p.get("winner")),
        inglorious=Message(N_(" (inglorious)")) if p.get("inglorious") else NOTHING,
        damage=_damage(p),
    )


def _encounter(p: P) -> Message:
    kind = p["kind"]
    if kind == "flee":
        return Message(N_("an unexpected encounter: everyone flees"))
    if kind == "gang_fight":
        return Message(
            N_("an unexpected encounter: a gang fight for {fighters}"),
            fighters=", ".join(p["fighters"]),
        )
    if p.get("reroll"):
        outcome = Message(N_("a complete tie: throw again"))
    elif p.get("draw"):
        outcome = Message(N_("a draw"))
    else:
        outcome = Message(N_("winner: {winner}"), winner=_side(p.get("winner")))
    return Message(
        N_(
            "Ichika Bachika! players {hand}{zorome}, GM's side {gm_hand}{gm_zorome}: "
            "{outcome}{damage}"
        ),
        hand=" ".join(str(f) for f in p["faces"]),
        zorome=_zorome(p["zorome"]),
        gm_hand=" ".join(str(f) for f in p["gm_faces"]),
        gm_zorome=_zorome(p["gm_zorome"]),
        outcome=outcome,
        damage=_damage(p),
    )


_HEADS: dict[str, Callable[[P], Message]] = {
    "ybs.character_created": lambda p: Message(
        N_("{name} joins the table{owner}: {traits}; {hp}"),
        name=p["name"],
        owner=Message(N_(" (played by {player})"), player=p["owner"])
        if p.get("owner")
        else NOTHING,
        traits=", ".join(f"{_title(k)} {int(v):+d}" for k, v in dict(p["traits"]).items()),
        hp=Plural("{n} hit point", "{n} hit points", int(p["hit_points"])),
    ),
    "ybs.session_started": lambda p: Message(
        N_("session {session} starts: 2 Unmei tokens to each player{tokens}"),
        session=p["session"],
        tokens=_tokens(p),
    ),
    "ybs.session_ended": lambda p: Message(
        N_("session {session} ends: unspent tokens go back to the GM{tokens}"),
        session=p["session"],
        tokens=_tokens(p),
    ),
    "ybs.attribute_invoked": lambda p: Message(
        N_("the GM invokes {name}'s attribute {attribute}{tokens}"),
        name=p["character"],
        attribute=p["attribute"],
        tokens=_tokens(p),
    ),
    "ybs.shichi_fukujin": lambda p: Message(
        N_("{player} calls the Shichi Fukujin: {proposal}{tokens}")
        if p["proposal"]
        else N_("{player} calls the Shichi Fukujin{tokens}"),
        player=p["player"],
        proposal=p["proposal"],
        tokens=_tokens(p),
    ),
    "ybs.damage": _damaged,
    "ybs.rest": lambda p: Message(
        N_("{name} rests {minutes} min and heals {healed} Uchimi: {boxes}")
        if p["healed"]
        else N_("{name} rests {minutes} min: {boxes}"),
        name=p["character"],
        minutes=p["minutes"],
        healed=p["healed"],
        boxes=_boxes(p),
    ),
    "ybs.kega_healed": lambda p: Message(
        N_("{name}: {count} Kega healed: {boxes}"),
        name=p["character"],
        count=p["count"],
        boxes=_boxes(p),
    ),
    "ybs.star_awarded": lambda p: Message(
        N_("{name} earns a star on {trait}: now {value:+d}, {stars}"),
        name=p["character"],
        trait=_title(p["trait"]),
        value=int(p["value"]),
        stars=Plural("{n} star", "{n} stars", int(p["stars"])),
    ),
    "ybs.traits_transferred": lambda p: Message(
        N_("{name} transfers a level from {lower} to {raised}"),
        name=p["character"],
        lower=_title(p["lower"]),
        raised=_title(p["raise"]),
    ),
    "ybs.trauma": lambda p: Message(
        N_("{name}'s trauma: {trait} goes from {before:+d} to {value:+d}"),
        name=p["character"],
        trait=_title(p["trait"]),
        before=int(p["from"]),
        value=int(p["value"]),
    ),
    "ybs.trauma_lifted": lambda p: Message(
        N_("{name}'s trauma is lifted: {trait} goes from {before:+d} to {value:+d}"),
        name=p["character"],
        trait=_title(p["trait"]),
        before=int(p["from"]),
        value=int(p["value"]),
    ),
    "ybs.attributes_changed": _attributes,
    "ybs.options_set": _options,
    "ybs.test": _test,
    "ybs.reroll": _reroll,
    "ybs.critical": lambda p: Message(
        N_("{name} turns the 6 into a critical success{tokens}"),
        name=p["character"],
        tokens=_tokens(p),
    ),
    "ybs.critical_failure": lambda p: Message(
        N_("the GM turns {name}'s 1 into a critical failure{tokens}"),
        name=p["character"],
        tokens=_tokens(p),
    ),
    "ybs.round_resolved": _round,
    "ybs.retreat": lambda p: Message(N_("{name} retreats from the fight"), name=p["character"]),
    "ybs.fight_ended": lambda p: Message(N_("the fight is over")),
    "ybs.gang_started": _gang_started,
    "ybs.gang_throw": _gang_throw,
    "ybs.gang_side": _gang_side,
    "ybs.gang_stopped": lambda p: Message(N_("the GM stops the gang fight")),
    "ybs.encounter": _encounter,
}


def describe(kind: str, payload: Mapping[str, JSON], after: Any = None) -> Message:
    """A line for one YBS event.

    Args:
        kind: the event kind (``ybs.test``...).
        payload: its payload (current version).
        after: the state right after the event, or None (unused: the payload says it all).

    Returns:
        The line; an unknown kind gives the kind itself.

    Source: seed 004; Y-M2 to Y-M9.
    """
    head = _HEADS.get(kind)
    return Message("{kind}", kind=kind) if head is None else head(payload)
