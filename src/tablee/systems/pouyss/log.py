"""One readable line per Pouyss event, as a translatable `Message` (no I/O, no catalog).

The table layer renders these lines for ``tablee table log`` and the Markdown transcript,
in the reader's or the table's language. The cagnotte shown is the value after the event
in the *current* fold of the log (so an undo further back is reflected), or the stored
value for an undone event. A part that would say nothing is left out: a roll names the bonus
and malus dice it had, and its removed faces only when malus dice removed some.

Source: docs/architecture.md, "The event log" (a readable transcript); seed 000; rulings P-M1
to P-M8.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tablee.errors import N_, Message, joined
from tablee.systems.base import JSON
from tablee.systems.options import changed_house_rules
from tablee.systems.pouyss.levels import Level
from tablee.systems.pouyss.options import OPTION_LABELS, OPTION_WORDS, PouyssOptions

if TYPE_CHECKING:
    from tablee.systems.pouyss.cagnotte import CagnotteMove

__all__ = ["describe"]

NOTHING = Message("")


def _faces(values: Sequence[Any]) -> str:
    return ", ".join(str(v) for v in values)


def _title(level_id: JSON) -> str:
    return Level[str(level_id).upper()].title


def _who(p: Mapping[str, JSON], reason_key: str = "reason") -> Message:
    player, reason = p.get("player"), p.get(reason_key)
    if player and reason:
        return Message(N_(" ({player}: {reason})"), player=player, reason=reason)
    if player or reason:
        return Message(" ({text})", text=player or reason)
    return NOTHING


def _extra_dice(bonus: int, malus: int) -> list[Message]:
    """The bonus and malus dice as counted words, each only when there are some."""
    dice = [Message(N_("{count} bonus"), count=bonus)] if bonus else []
    return dice + ([Message(N_("{count} malus"), count=malus)] if malus else [])


def _thrown(p: Mapping[str, JSON]) -> Message:
    """The faces thrown, then the faces removed when malus dice removed some."""
    faces = list(p["faces"])
    thrown = Message(
        N_("dice {faces}") if len(faces) > 1 else N_("die {faces}"), faces=_faces(faces)
    )
    if not p["removed"]:
        return thrown
    return Message(N_("{thrown}, removed {removed}"), thrown=thrown, removed=_faces(p["removed"]))


def pool_words(bonus: int, malus: int) -> Message:
    """A roll's dice in words, naming bonus and malus only when there are some.

    ``1 die``, ``1 + 2 bonus``, ``1 + 2 bonus + 1 malus`` (P-M1).
    """
    extra = _extra_dice(bonus, malus)
    if not extra:
        return Message(N_("1 die"))
    return Message(N_("1 + {dice}"), dice=joined(extra, "{first} + {rest}"))


def _roll(p: Mapping[str, JSON]) -> Message:
    bonus = int(p["bonus"]) + int(p["imposed_bonus"]) + int(bool(p["double_bonus"]))
    pool = pool_words(bonus, int(p["malus"]) + int(p["imposed_malus"]))
    return Message(
        N_("{player} rolls {pool}{notes}: {thrown}, result {value} {level}"),
        player=p["player"],
        pool=pool,
        notes=_imposed_notes(p),
        thrown=_thrown(p),
        value=p["value"],
        level=_title(p["level"]),
    )


def _notes(notes: list[Message]) -> Message:
    if not notes:
        return NOTHING
    return Message(" ({notes})", notes=joined(notes))


def _imposed_notes(p: Mapping[str, JSON]) -> Message:
    """A roll's notes: what the narrator imposed, the double bonus, the reasons.

    An opposed roll before version 3 recorded none of them.
    """
    notes = []
    imposed = _extra_dice(int(p.get("imposed_bonus") or 0), int(p.get("imposed_malus") or 0))
    if imposed:
        notes.append(Message(N_("imposed: {dice}"), dice=joined(imposed, "{first}, {rest}")))
    if p.get("double_bonus"):
        notes.append(Message(N_("with a double bonus")))
    reasons = p.get("reasons") or []
    if reasons:
        notes.append(Message(N_("because: {reasons}"), reasons=joined([str(r) for r in reasons])))
    return _notes(notes)


def _opposed(p: Mapping[str, JSON]) -> Message:
    notes = _imposed_notes(p)
    if notes is not NOTHING:
        return Message("{line}{notes}", line=_opposed_line(p), notes=notes)
    return _opposed_line(p)


def _opposed_line(p: Mapping[str, JSON]) -> Message:
    extra = _extra_dice(int(p["bonus"]), int(p["malus"]))
    on_roll = (
        Message(N_(" ({dice} on the roll)"), dice=joined(extra, "{first}, {rest}"))
        if extra
        else NOTHING
    )
    return Message(
        N_(
            "{active} against {passive}{on_roll}: {thrown}, {active} {value} {level}, "
            "{passive} {passive_value} {passive_level}"
        ),
        active=p["active"],
        passive=p["passive"],
        on_roll=on_roll,
        thrown=_thrown(p),
        value=p["value"],
        level=_title(p["level"]),
        passive_value=p["passive_value"],
        passive_level=_title(p["passive_level"]),
    )


def _character(p: Mapping[str, JSON]) -> Message:
    parts = []
    if p["advantages"]:
        parts.append(Message(N_("advantages {names}"), names=", ".join(p["advantages"])))
    if p["disadvantages"]:
        parts.append(Message(N_("disadvantages {names}"), names=", ".join(p["disadvantages"])))
    if not parts:
        return Message(
            N_("character of {player}: no advantage or disadvantage"), player=p["player"]
        )
    return Message(N_("character of {player}: {traits}"), player=p["player"], traits=joined(parts))


def _options(p: Mapping[str, JSON]) -> Message:
    return changed_house_rules(
        PouyssOptions.from_json(p["options"]).to_json(),
        PouyssOptions().to_json(),
        OPTION_LABELS,
        OPTION_WORDS,
    )


_HEADS = {
    "pouyss.roll": _roll,
    "pouyss.opposed": _opposed,
    "pouyss.session_started": lambda p: Message(
        N_("session {session} starts")
        if not p.get("carried_over")
        else N_("session {session} starts, cagnotte carried over"),
        session=p["session"],
    ),
    "pouyss.session_ended": lambda p: Message(N_("session {session} ends"), session=p["session"]),
    "pouyss.reward": lambda p: Message(
        N_("reward of {amount} for role-play{who}"), amount=p["amount"], who=_who(p)
    ),
    "pouyss.penalty": lambda p: Message(
        N_("penalty of {amount}{who}"), amount=p["amount"], who=_who(p)
    ),
    "pouyss.cagnotte_corrected": lambda p: Message(
        N_("the narrator corrects the cagnotte from {before} to {value} ({reason})"),
        before=_stored_before(p),
        value=p["value"],
        reason=p["reason"],
    ),
    "pouyss.character_set": _character,
    "pouyss.options_set": _options,
}


def describe(kind: str, payload: Mapping[str, JSON], after: Any = None) -> Message:
    """A line for one Pouyss event.

    Args:
        kind: the event kind (``pouyss.roll``...).
        payload: its payload (current version).
        after: the `PouyssState` right after the event in the current fold, or None for an
            undone event (then the stored cagnotte is shown).

    Returns:
        The line; an unknown kind gives the kind itself.
    """
    head = _HEADS.get(kind)
    if head is None:
        return Message("{kind}", kind=kind)
    cagnotte = after.cagnotte if after is not None else _stored_cagnotte(payload)
    if cagnotte is None or kind in ("pouyss.character_set", "pouyss.options_set"):
        return head(payload)
    return Message(N_("{line} · cagnotte {cagnotte}"), line=head(payload), cagnotte=cagnotte)


def _stored_before(payload: Mapping[str, JSON]) -> Any:
    move = payload.get("cagnotte")
    return move.get("before") if isinstance(move, dict) else "-"


def _stored_cagnotte(payload: Mapping[str, JSON]) -> Any:
    move = payload.get("cagnotte")
    return move.get("after") if isinstance(move, dict) else move


def cagnotte_moved(move: CagnotteMove) -> tuple[Message, ...]:
    """The cagnotte's move as a consequence, naming only what moved; none when nothing did."""
    moves = []
    if move.drawn:
        moves.append(Message(N_("−{drawn} drawn"), drawn=move.drawn))
    if move.deposited:
        moves.append(Message(N_("+{deposited} put back"), deposited=move.deposited))
    if not moves:
        return ()
    return (
        Message(
            N_("Cagnotte: {before} → {after} ({moves})"),
            before=move.before,
            after=move.after,
            moves=joined(moves, "{first}, {rest}"),
        ),
    )
