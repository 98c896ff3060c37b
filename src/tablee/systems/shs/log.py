"""One readable line per SHS event, as a translatable `Message` (no I/O, no catalog).

The table layer renders these lines for the log and the transcript in the reader's or the
table's language. Game terms stay in French in every language: Santé, Air, NT, PS, D+/-,
Bonus, Malus, Se Surpasser, Se Sacrifier, Réalisateur, Protagoniste, Scène, Tour, scène
rythmée, scène lente, and the Caractéristiques. A counter's value is taken from the state
right after the event in the current fold when there is one (so an undo further back is
reflected), else from the stored record.

Source: seed 003; rulings S-M2 to S-M8, S-A5; a log that reads as a transcript.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tablee.errors import N_, Message, Plural, joined
from tablee.systems.base import JSON
from tablee.systems.options import changed_house_rules
from tablee.systems.shs.actions import Option, dpm_symbol
from tablee.systems.shs.clock import compound_time
from tablee.systems.shs.counters import COUNTER_TITLES
from tablee.systems.shs.options import SHS_OPTION_LABELS, SHS_OPTION_WORDS, ShsOptions
from tablee.systems.shs.traits import Characteristic

__all__ = ["describe", "game_time"]

P = Mapping[str, JSON]
NOTHING = Message("")


def game_time(seconds: int) -> str:
    """Game time as the text writes it: ``45 s``, ``30 min``, ``1 h 30 min``, ``0 s``."""
    return compound_time(seconds)


def _joined(items: Sequence[Message | str], separator: str | None = None) -> Message:
    """Items joined by a translated semicolon (`joined`), or by a plain ``separator``."""
    if separator is None:
        return joined(items)
    fields = {f"n{i}": item for i, item in enumerate(items)}
    return Message(separator.join("{" + key + "}" for key in fields), **fields)


def _reason(p: P) -> Message:
    reason = p.get("reason") or p.get("label")
    return Message(" ({text})", text=reason) if reason else NOTHING


def _duration(tours: JSON, seconds: JSON) -> Message | str:
    if tours:
        return Plural("{n} Tour", "{n} Tours", int(tours))
    if not seconds:
        return Message(N_("lasting"))
    return game_time(int(seconds))


def _modifier(m: P) -> Message:
    kind = "Bonus" if m["kind"] == "bonus" else "Malus"
    return Message(
        N_("{name}: {kind} ({duration}) {amount}"),
        name=m["protagonist"],
        kind=kind,
        duration=_duration(m["tours"], m["seconds"]),
        amount=m["amount"],
    )


def _notes(p: P) -> Message:
    notes: list[Message | str] = []
    if p.get("expertise"):
        notes.append(Message(N_("Expertise {expertise}"), expertise=p["expertise"]))
    for key, template in (
        ("bonus", N_("Bonus {amount}")),
        ("malus", N_("Malus {amount}")),
        ("temporary_bonus", N_("temporary Bonus {amount}")),
        ("temporary_malus", N_("temporary Malus {amount}")),
    ):
        if p.get(key):
            notes.append(Message(template, amount=p[key]))
    option = Option(p["option"])
    if option is not Option.NONE:
        notes.append(option.title)
    if p.get("long_action"):
        notes.append(Message(N_("last Tour of {label}"), label=p["long_action"]))
    return Message(" ({notes})", notes=_joined(notes)) if notes else NOTHING


def _roll(p: P) -> Message:
    dpm = ", ".join(dpm_symbol(int(f)) for f in p["dpm_faces"])
    return Message(
        N_("{die} {faces}, D+/- {dpm}: {ps} PS") if dpm else N_("{die} {faces}: {ps} PS"),
        die=str(p["die"]).upper(),
        faces=", ".join(str(f) for f in p["action_faces"]),
        dpm=dpm,
        ps=p["ps"],
    )


def _effects(p: P) -> Message:
    if p.get("dies"):
        return Message(N_("; {name} dies (Se Sacrifier)"), name=p["protagonist"])
    if p.get("nt_gain"):
        return Message(N_("; NT +{gain} (Se Surpasser)"), gain=p["nt_gain"])
    return NOTHING


def _result(p: P) -> Message:
    return Message(N_("success") if p.get("success") else N_("failure"))


def _title(p: P) -> str:
    return Characteristic(p["characteristic"]).title


def _test_part(p: P) -> Message:
    return Message(
        N_("Test ({characteristic}, {difficulty}){notes}: {roll}, {result}{effects}"),
        characteristic=_title(p),
        difficulty=p["difficulty"],
        notes=_notes(p),
        roll=_roll(p),
        result=_result(p),
        effects=_effects(p),
    )


def _test(p: P) -> Message:
    return Message(N_("{name} rolls {test}"), name=p["protagonist"], test=_test_part(p))


def _side(p: P, *, result: bool = False) -> Message:
    template = (
        N_("{name} with {characteristic}{notes}: {roll}, {result}{effects}")
        if result
        else N_("{name} with {characteristic}{notes}: {roll}{effects}")
    )
    return Message(
        template,
        name=p["protagonist"],
        characteristic=_title(p),
        notes=_notes(p),
        roll=_roll(p),
        result=_result(p),
        effects=_effects(p),
    )


def _opposed_outcome(p: P) -> Message:
    """Who prevails in a stored opposed Action and, on a tie, who keeps what (S-A5)."""
    first, second = p["first"], p["second"]
    winner = {"first": first, "second": second}.get(str(p["winner"]))
    ps = first["ps"]
    if p["reroll"]:
        outcome = Message(N_("a tie at {ps} PS: roll again (house rule)"), ps=ps)
    elif winner is None:
        outcome = Message(
            N_("a tie at {ps} PS: neither side achieves its goal, the situation stays as it was"),
            ps=ps,
        )
    elif p["tie"]:
        changer = second if winner is first else first
        outcome = Message(
            N_(
                "a tie at {ps} PS: {changer} sought the change and does not get it; {holder} "
                "keeps the situation as it was"
            ),
            ps=ps,
            changer=changer["protagonist"],
            holder=winner["protagonist"],
        )
    else:
        outcome = Message(N_("{name} wins"), name=winner["protagonist"])
    return outcome


def _opposed(p: P) -> Message:
    return Message(
        N_("Protagoniste against Protagoniste: {first}; {second}; {outcome}"),
        first=_side(p["first"]),
        second=_side(p["second"]),
        outcome=_opposed_outcome(p),
    )


def _cooperation(p: P) -> Message:
    members = list(p["members"])
    return Message(
        N_("cooperation against Difficulty {difficulty}, Bonus 1 each: {members}; {outcome}"),
        difficulty=members[0]["difficulty"],
        members=_joined([_side(m, result=True) for m in members]),
        outcome=Message(
            N_("at least one cooperator succeeded: the group succeeds")
            if p["success"]
            else N_("no cooperator reached the Difficulty: the group fails")
        ),
    )


def _simultaneous(p: P) -> Message:
    actions = list(p["actions"])
    rolled = len(actions) + (p.get("opposed") is not None)
    trivial = (
        Message(
            N_(" and {trivial}"),
            trivial=Plural("{n} trivial Action", "{n} trivial Actions", int(p["trivial"])),
        )
        if p.get("trivial")
        else NOTHING
    )
    return Message(
        N_("{name} attempts {count}{trivial}, Malus {malus}: {actions}")
        if rolled == 1
        else N_("{name} attempts {count}{trivial}, Malus {malus} each: {actions}"),
        name=p["protagonist"],
        count=Plural("{n} simultaneous Action", "{n} simultaneous Actions", rolled),
        trivial=trivial,
        malus=p["set_malus"],
        actions=_joined([_test_part(a) for a in actions] + _set_opposed(p.get("opposed"))),
    )


def _set_opposed(p: JSON) -> list[Message]:
    """A set's opposed Action as one part of its line, or none (S-X5)."""
    if not isinstance(p, Mapping):
        return []
    return [
        Message(
            N_("against {opponent}: {first}; {second}; {outcome}"),
            opponent=p["second"]["protagonist"],
            first=_side(p["first"]),
            second=_side(p["second"]),
            outcome=_opposed_outcome(p),
        )
    ]


def _created(p: P) -> Message:
    owner = Message(N_(" (played by {player})"), player=p["owner"]) if p.get("owner") else NOTHING
    expertises = (
        Message(N_(", Expertises: {names}"), names=", ".join(p["expertises"]))
        if p["expertises"]
        else NOTHING
    )
    return Message(
        N_(
            "{name} joins the film{owner}: Carrure {carrure}+, Motricité {motricite}+, Science "
            "{science}+, Relationnel {relationnel}+, Sang-froid {sang_froid}+, Santé "
            "{sante}{expertises}"
        ),
        owner=owner,
        expertises=expertises,
        **{k: p[k] for k in ("name", "carrure", "motricite", "science", "relationnel")},
        sang_froid=p["sang_froid"],
        sante=p["sante"],
    )


def _counter(p: P, after: Any) -> Message:
    name, key = str(p["protagonist"]), str(p["counter"])
    hero = getattr(after, "protagonists", {}).get(name)
    value = getattr(hero, key) if hero is not None else p["after"]
    if p.get("delta") is None:
        return Message(
            N_("{name}: {counter} set to {value}"),
            name=name,
            counter=COUNTER_TITLES[key],
            value=value,
        )
    return Message(
        N_("{name}: {counter} {delta}, now {value}"),
        name=name,
        counter=COUNTER_TITLES[key],
        delta=f"{int(p['delta']):+d}",
        value=value,
    )


def _tour(p: P) -> Message:
    parts: list[Message | str] = []
    for key, template in (
        ("expired", N_("; over: {items}")),
        ("due", N_("; in its last Tour, to roll now: {items}")),
        ("lapsed", N_("; lapsed without a roll: {items}")),
    ):
        entries = list(p.get(key) or [])
        if entries:
            texts: list[Message | str] = [
                _modifier(e)
                if key == "expired"
                else Message(N_("{name}: {label}"), name=e["protagonist"], label=e["label"])
                for e in entries
            ]
            parts.append(Message(template, items=_joined(texts, ", ")))
    return Message(N_("Tour {tour} begins{notes}"), tour=p["tour"], notes=_joined(parts, ""))


def _time(p: P) -> Message:
    expired = list(p.get("expired") or [])
    over = (
        Message(N_("; over: {items}"), items=_joined([_modifier(e) for e in expired], ", "))
        if expired
        else NOTHING
    )
    return Message(
        N_("game time advances by {duration} ({total} in all){over}"),
        duration=game_time(int(p["seconds"])),
        total=game_time(int(p["total"])),
        over=over,
    )


def _modifier_line(template: str) -> Callable[[P], Message]:
    def line(p: P) -> Message:
        return Message(
            template,
            name=p["protagonist"],
            kind="Bonus" if p["kind"] == "bonus" else "Malus",
            duration=_duration(p["tours"], p["seconds"]),
            amount=p["amount"],
            label=_reason(p),
        )

    return line


def _ended(p: P) -> Message:
    return _modifier_line(
        N_("the Réalisateur ends {name}'s {kind} ({duration}) of {amount}{label}")
    )(p["modifier"])


def _options(p: P) -> Message:
    return changed_house_rules(
        ShsOptions.from_json(p["options"]).to_json(),
        ShsOptions().to_json(),
        SHS_OPTION_LABELS,
        SHS_OPTION_WORDS,
    )


_HEADS: Mapping[str, Callable[[P], Message]] = {
    "shs.protagonist_created": _created,
    "shs.protagonist_killed": lambda p: Message(
        N_("{name} dies{reason}"), name=p["protagonist"], reason=_reason(p)
    ),
    "shs.protagonist_revived": lambda p: Message(
        N_("{name} lives again (the Réalisateur's correction){reason}"),
        name=p["protagonist"],
        reason=_reason(p),
    ),
    "shs.test": _test,
    "shs.opposed": _opposed,
    "shs.cooperation": _cooperation,
    "shs.simultaneous": _simultaneous,
    "shs.scene_started": lambda p: Message(
        N_("Scène {scene} begins: a scène rythmée")
        if p["kind"] == "rythmee"
        else N_("Scène {scene} begins: a scène lente"),
        scene=p["scene"],
    ),
    "shs.tour_started": _tour,
    "shs.time_advanced": _time,
    "shs.modifier_added": _modifier_line(
        N_("{name} gets a {kind} ({duration}) of {amount}{label}")
    ),
    "shs.modifier_ended": _ended,
    "shs.long_action_started": lambda p: Message(
        N_("{name} starts {label}, an Action over {tours}: its Test is rolled in Tour {last}"),
        name=p["protagonist"],
        label=p["label"],
        tours=Plural("{n} Tour", "{n} Tours", int(p["tours"])),
        last=p["last_tour"],
    ),
    "shs.options_set": _options,
}


def describe(kind: str, payload: Mapping[str, JSON], after: Any = None) -> Message:
    """A line for one SHS event.

    Args:
        kind: the event kind (``shs.test``...).
        payload: its payload (current version).
        after: the `tablee.systems.shs.game.ShsState` right after the event in the current
            fold, or None for an undone event (then the stored records are shown).

    Returns:
        The line; an unknown kind gives the kind itself.

    Source: seed 003; S-M2 to S-M8, S-A5, S-A10.
    """
    if kind == "shs.counter_changed":
        return _counter(payload, after)
    head = _HEADS.get(kind)
    return Message("{kind}", kind=kind) if head is None else head(payload)
