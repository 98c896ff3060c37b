"""One readable line per agents event, as a translatable `Message` (no I/O, no catalog).

Game terms stay in French in every language: Sang, Muscles, Sexe, Intelligence, favori.
Values are the stored records (what was shown when the event happened).

Source: seed 002; rulings G-M1 to G-M8.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tablee.errors import N_, Message
from tablee.systems.agents.agent import reserve_named
from tablee.systems.agents.options import AGENTS_OPTION_LABELS, AGENTS_OPTION_WORDS, AgentsOptions
from tablee.systems.agents.words import MODIFIER_WORDS, TABLE_WORDS, starter_words, word
from tablee.systems.base import JSON
from tablee.systems.options import changed_house_rules

__all__ = ["describe", "total_of"]

P = Mapping[str, JSON]
NOTHING = Message("")

RESULT_WORDS: Mapping[str, str] = {
    "critical": N_("critical"),
    "success": N_("success"),
    "failure": N_("failure"),
}


def total_of(face: int, modifier: int, total: int) -> Message:
    """How an action's total was reached: ``4 +1 = 5``, or the face alone with no modifier.

    Source: G-M4 (the d6 plus the modifiers ticked).
    """
    if not modifier:
        return Message("{face}", face=face)
    return Message("{face} {modifier:+d} = {total}", face=face, modifier=modifier, total=total)


def _title(kind: JSON) -> str:
    return reserve_named(kind).title


def _ended(p: P) -> Message:
    ended = p.get("ended")
    if ended == "won":
        return Message(N_("; challenge {number} won by the agents"), number=p["challenge"])
    if ended == "lost":
        return Message(N_("; challenge {number} lost to the opposition"), number=p["challenge"])
    return NOTHING


def _created(p: P) -> Message:
    """An agent's creation: organisation and signature object only when they were given."""
    owner = Message(N_(" (played by {player})"), player=p["owner"]) if p.get("owner") else NOTHING
    parts: list[Message] = [Message("{text}", text=p["organisation"])] if p["organisation"] else []
    parts += [
        Message(f"{title} {{value}}", value=p[key])
        for title, key in (
            ("Muscles", "muscles"),
            ("Sexe", "sexe"),
            ("Intelligence", "intelligence"),
            ("Sang", "sang"),
        )
    ]
    if p["signature"]:
        parts.append(Message(N_("signature object: {signature}"), signature=p["signature"]))
    return Message(
        N_("{name} joins the team{owner}: {sheet}"),
        name=p["name"],
        owner=owner,
        sheet=_joined(parts),
    )


def _opened(p: P) -> Message:
    oppositions = ", ".join(f"{o['name']} {o['score']}" for o in p["oppositions"])
    label = Message(" ({text})", text=p["label"]) if p.get("label") else NOTHING
    instant = (
        Message(N_("; every score is 0: won at once")) if p.get("outcome") == "won" else NOTHING
    )
    return Message(
        N_("challenge {number} ({kind}){label}: {agents} against {oppositions}{instant}"),
        number=p["number"],
        kind=_title(p["kind"]),
        label=label,
        agents=", ".join(p["agents"]),
        oppositions=oppositions,
        instant=instant,
    )


def _action(p: P) -> Message:
    mods = (
        Message(" [{ids}]", ids=_joined([word(MODIFIER_WORDS, m) for m in p["modifiers"]]))
        if p.get("modifiers")
        else NOTHING
    )
    if p.get("declaration"):
        mods = Message(N_('{mods}: "{text}"'), mods=mods, text=p["declaration"])
    if p["outcome"] == "failure":
        effect = Message(N_("{kind} now {reserve}"), kind=_title(p["kind"]), reserve=p["reserve"])
    else:
        effect = Message(
            N_("{opposition} now {score}"), opposition=p["opposition"], score=p["score"]
        )
    return Message(
        N_("{agent} acts in challenge {number}{mods}: d6 {roll}, {result}; {effect}{ended}"),
        agent=p["agent"],
        number=p["challenge"],
        mods=mods,
        roll=total_of(int(p["face"]), int(p["modifier"]), int(p["total"])),
        result=Message(RESULT_WORDS[str(p["outcome"])]),
        effect=effect,
        ended=_ended(p),
    )


def _joined(words: list[Message], separator: str = ", ") -> Message:
    """Messages joined by a plain separator (commas need no translation)."""
    fields = {f"w{i}": w for i, w in enumerate(words)}
    return Message(separator.join("{" + k + "}" for k in fields), **fields)


def _options(p: P) -> Message:
    return changed_house_rules(
        AgentsOptions.from_json(p["options"]).to_json(),
        AgentsOptions().to_json(),
        AGENTS_OPTION_LABELS,
        AGENTS_OPTION_WORDS,
    )


def _scene(p: P) -> Message:
    back = (
        Message(N_("; back at Sang 1: {names}"), names=", ".join(p["returned"]))
        if p.get("returned")
        else NOTHING
    )
    out = (
        Message(N_("; sitting out (Sang 0): {names}"), names=", ".join(p["sitting_out"]))
        if p.get("sitting_out")
        else NOTHING
    )
    return Message(N_("scene {scene} begins{back}{out}"), scene=p["scene"], back=back, out=out)


RELATION_WORDS: Mapping[str, str] = {
    "hostile": N_("hostile"),
    "neutral": N_("neutral"),
    "benevolent": N_("benevolent"),
}
SOURCE_WORDS: Mapping[str, str] = {
    "environment": N_("the environment"),
    "creatures": N_("creatures"),
}


def _generated(p: P) -> Message:
    forced = Message(N_(" (forced at index 3)")) if p.get("forced") else NOTHING
    instant = Message(N_("; won at once")) if p.get("ended") == "won" else NOTHING
    return Message(
        N_(
            "challenge {number} drawn at index {progress} (d6 {faces}): {kind}, from "
            "{source}, {relation}{forced}; {agents} against {opposition} (score {score}){instant}"
        ),
        number=p["number"],
        progress=p["progress"],
        faces=", ".join(str(f) for f in p["faces"]),
        kind=_title(p["kind"]),
        source=Message(SOURCE_WORDS[str(p["source"])]),
        relation=Message(RELATION_WORDS[str(p["relation"])]),
        forced=forced,
        agents=", ".join(p["agents"]),
        opposition=p["opposition"] or Message(SOURCE_WORDS[str(p["source"])]),
        score=p["score"],
        instant=instant,
    )


_UNMOVED: Mapping[tuple[str, bool], str] = {
    ("neutral", True): N_("a neutral relation: winning does not move the index"),
    ("neutral", False): N_("a neutral relation: losing does not move the index"),
    ("benevolent", False): N_("a benevolent relation: losing does not move the index"),
}
"""Why a challenge's consequences leave the progress index where it was (G-M10)."""


def _unmoved(p: P, after: Any) -> Message:
    """Why the index did not move: the drawn relation when the state knows it."""
    drawn = (getattr(after, "generated", None) or {}).get(p["challenge"])
    relation = str(getattr(getattr(drawn, "relation", None), "value", ""))
    template = _UNMOVED.get((relation, bool(p["won"])))
    if template is None:  # the relation is unknown here: both cases that leave it unmoved
        template = (
            _UNMOVED[("neutral", True)]
            if p["won"]
            else N_("a neutral or benevolent relation: losing does not move the index")
        )
    return Message(template)


def _consequence(p: P, after: Any = None) -> Message:
    r = p["records"]
    if p.get("late"):  # settled after the quest was won in the same scene (G-X1)
        return Message(
            N_(
                "consequences of challenge {number} ({result}): the quest was accomplished "
                "earlier in this scene, only the win counts"
            ),
            number=p["challenge"],
            result=Message(N_("won") if p["won"] else N_("lost")),
        )
    notes: list[Message] = []
    if r.get("change") == 0:
        notes.append(_unmoved(p, after))
    if r.get("helped"):
        notes.append(Message(N_("the agents gain something that helps their quest")))
    before = p.get("before") or {}  # recorded from version 2: a gain the cap held back
    held = [str(n) for n in r["agents"] if before.get(n) == r["agents"][n]] if r.get("sang") else []
    if r.get("sang") and len(held) < len(r["agents"]):
        names = [str(n) for n in r["agents"] if str(n) not in held]
        agents = getattr(after, "agents", None) or {}
        if all(n in agents for n in names):  # the Sang reached, kept within 0..3 (G-A11)
            notes.append(
                Message(
                    N_("Sang {change:+d} for {names} (now {values})"),
                    change=r["sang"],
                    names=", ".join(names),
                    values=", ".join(f"{n} {agents[n].sang}" for n in names),
                )
            )
        else:
            notes.append(
                Message(
                    N_("Sang {change:+d} for {names}"), change=r["sang"], names=", ".join(names)
                )
            )
    if held:
        notes.append(Message(N_("Sang already at its most for {names}"), names=", ".join(held)))
    if r.get("revealed"):
        notes.append(
            Message(N_("the objective is revealed: {objective}"), objective=r["objective"])
        )
    if r.get("status") == "won":
        notes.append(Message(N_("the quest is accomplished")))
    elif r.get("status") == "failed":
        notes.append(Message(N_("no agent has Sang left: the quest fails")))
    joined = _joined([Message(N_("; {note}"), note=n) for n in notes], "")
    index = (
        Message(
            N_("progress index {change:+d}, now {progress}"),
            change=r["change"],
            progress=r["progress"],
        )
        if r["change"]
        else Message(N_("progress index stays at {progress}"), progress=r["progress"])
    )
    return Message(
        N_("consequences of challenge {number} ({result}): {index}{notes}"),
        number=p["challenge"],
        result=Message(N_("won") if p["won"] else N_("lost")),
        index=index,
        notes=joined,
    )


_HEADS: dict[str, Callable[[P], Message]] = {
    "agents.agent_created": _created,
    "agents.challenge_opened": _opened,
    "agents.action": _action,
    "agents.conceded": lambda p: Message(
        N_("{agent} concedes challenge {number} before it begins: {kind} back to {reserve}{ended}"),
        agent=p["agent"],
        number=p["challenge"],
        kind=_title(p["kind"]),
        reserve=p["reserve"],
        ended=_ended(p),
    ),
    "agents.abandoned": lambda p: Message(
        N_("{agent} abandons challenge {number}: {kind} doubled, but capped at {reserve}{ended}")
        if isinstance(p.get("before"), int) and 2 * int(str(p["before"])) != p["reserve"]
        else N_("{agent} abandons challenge {number}: {kind} doubled to {reserve}{ended}"),
        agent=p["agent"],
        number=p["challenge"],
        kind=_title(p["kind"]),
        reserve=p["reserve"],
        ended=_ended(p),
    ),
    "agents.failed_on_purpose": lambda p: Message(
        N_(
            "{agent} fails on purpose outside challenges{reason}: {kind} +1, but capped at "
            "{reserve}"
        )
        if isinstance(p.get("before"), int) and int(str(p["before"])) + 1 != p["reserve"]
        else N_("{agent} fails on purpose outside challenges{reason}: {kind} now {reserve}"),
        agent=p["agent"],
        reason=Message(" ({text})", text=p["reason"]) if p.get("reason") else NOTHING,
        kind=_title(p["kind"]),
        reserve=p["reserve"],
    ),
    "agents.winner_named": lambda p: Message(
        N_("{winner} wins challenge {number}")
        if p.get("agent")
        else N_("{winner} wins challenge {number} (most reserve points spent)"),
        winner=p["winner"],
        number=p["challenge"],
    ),
    "agents.options_set": _options,
    "agents.quest_drawn": lambda p: Message(
        N_(
            "a quest begins for {agents} (tables: {source}); progress index 0, the objective "
            "stays secret until index 1"
        ),
        agents=", ".join(p["agents"]),
        source=starter_words(p["source"]),
    ),
    "agents.table_drawn": lambda p: Message(
        N_("drawn from {table} ({face}): {text}"),
        table=word(TABLE_WORDS, p["table"]),
        face=p["face"],
        text=p["text"],
    ),
    "agents.scene_started": _scene,
    "agents.challenge_generated": _generated,
    "agents.quest_abandoned": lambda p: Message(N_("the agents give up their quest")),
    "agents.contest_started": lambda p: Message(
        N_("the artefact contest begins: {holder} is the favori, reserves restored"),
        holder=p["holder"],
    ),
    "agents.contest_challenge": lambda p: Message(
        N_(
            "challenge {number} ({kind}) for the artefact: {order} against {defenders}, "
            "score {score}"
        ),
        number=p["number"],
        kind=_title(p["attribute"]),
        order=", ".join(p["order"]),
        defenders=", ".join(p["defenders"]),
        score=p["score"],
    ),
    "agents.contest_settled": lambda p: Message(
        N_("challenge {number} settled: {holder} holds the artefact"),
        number=p["challenge"],
        holder=p["holder"],
    ),
    "agents.contest_closed": lambda p: Message(
        N_("nobody challenges {holder} any more: {holder} takes the artefact home"),
        holder=p["holder"],
    ),
}


_HEADS_WITH_STATE: dict[str, Callable[[P, Any], Message]] = {
    "agents.consequence_applied": _consequence,  # shows the Sang reached (G-A11)
}
"""Lines that also read the state right after their event."""


def describe(kind: str, payload: Mapping[str, JSON], after: Any = None) -> Message:
    """A line for one agents event.

    Args:
        kind: the event kind (``agents.action``...).
        payload: its payload (current version).
        after: the state right after the event, or None (unused: records are shown).

    Returns:
        The line; an unknown kind gives the kind itself.

    Source: seed 002; G-M1 to G-M8.
    """
    with_state = _HEADS_WITH_STATE.get(kind)
    if with_state is not None:
        return with_state(payload, after)
    head = _HEADS.get(kind)
    return Message("{kind}", kind=kind) if head is None else head(payload)
