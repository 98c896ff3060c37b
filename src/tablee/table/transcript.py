"""Exports of a table's log: JSON Lines (replayable) and a Markdown transcript.

JSON Lines has one stored event per line, every field kept (faces, times, versions), so that
`tablee.table.projection.fold` over the parsed lines gives the same state. The Markdown
transcript is for people, in the table's language.

Source: issue 2 point 3 (export); DESIGN.md (every event stores its faces and timestamp).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from tablee.errors import N_, InputError
from tablee.systems.base import JSON
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState

__all__ = ["describe", "parse_jsonl", "to_jsonl", "to_markdown"]

Translate = Callable[[str], str]


def _faces(values: Any) -> str:
    return ", ".join(str(v) for v in values) if values else "-"


def _level(level_id: Any) -> str:
    from tablee.systems.pouyss import Level

    return Level[str(level_id).upper()].title


def _cagnotte(p: Mapping[str, JSON], tr: Translate) -> str:
    c = p["cagnotte"]
    return tr("cagnotte {before} → {after}").format(before=c["before"], after=c["after"])


def _roll(p: Mapping[str, JSON], tr: Translate) -> str:
    text = tr(
        "{player} rolls {bonus} bonus, {malus} malus: dice {faces}, removed {removed}, "
        "result {value} {level}"
    ).format(
        player=p["player"],
        bonus=p["bonus"] + p["imposed_bonus"] + int(p["double_bonus"]),
        malus=p["malus"] + p["imposed_malus"],
        faces=_faces(p["faces"]),
        removed=_faces(p["removed"]),
        value=p["value"],
        level=_level(p["level"]),
    )
    return f"{text}; {_cagnotte(p, tr)}"


def _opposed(p: Mapping[str, JSON], tr: Translate) -> str:
    text = tr(
        "{active} against {passive}: dice {faces}, removed {removed}, {active} "
        "{value} {level}, {passive} {passive_value} {passive_level}"
    ).format(
        active=p["active"],
        passive=p["passive"],
        faces=_faces(p["faces"]),
        removed=_faces(p["removed"]),
        value=p["value"],
        level=_level(p["level"]),
        passive_value=p["passive_value"],
        passive_level=_level(p["passive_level"]),
    )
    return f"{text}; {_cagnotte(p, tr)}"


def _simple(template: str) -> Callable[[Mapping[str, JSON], Translate], str]:
    def render(p: Mapping[str, JSON], tr: Translate) -> str:
        fields = {k: (", ".join(v) if isinstance(v, list) else v) for k, v in p.items()}
        if isinstance(p.get("cagnotte"), dict):
            fields.update(before=p["cagnotte"]["before"], after=p["cagnotte"]["after"])
        return tr(template).format(**fields)

    return render


_DESCRIBERS: dict[str, Callable[[Mapping[str, JSON], Translate], str]] = {
    "table.created": _simple(N_("table {name} created for {players}")),
    "table.voided": _simple(N_("event {seq} undone: {reason}")),
    "pouyss.session_started": _simple(N_("session {session} starts, cagnotte {cagnotte}")),
    "pouyss.session_ended": _simple(N_("session {session} ends, cagnotte {cagnotte}")),
    "pouyss.roll": _roll,
    "pouyss.opposed": _opposed,
    "pouyss.reward": _simple(N_("reward of {amount} for role-play: cagnotte {before} → {after}")),
    "pouyss.penalty": _simple(N_("penalty of {amount}: cagnotte {before} → {after}")),
    "pouyss.character_set": _simple(
        N_("character of {player}: advantages {advantages}; disadvantages {disadvantages}")
    ),
    "pouyss.options_set": lambda p, tr: tr("house rules changed"),
}


def describe(event: StoredEvent, tr: Translate) -> str:
    """One readable line for an event, translated with ``tr`` (game terms untranslated)."""
    describer = _DESCRIBERS.get(event.kind)
    return describer(event.payload, tr) if describer else event.kind


def to_jsonl(state: TableState) -> str:
    """Every stored event, one JSON object per line, oldest first (ends with a newline)."""
    return "".join(json.dumps(e.to_json(), ensure_ascii=False) + "\n" for e in state.events)


def parse_jsonl(text: str) -> list[StoredEvent]:
    """Read a JSON Lines export back into events (for replay and checks).

    Raises:
        InputError: a line that is not a JSON event object, naming the line number.
    """
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            events.append(
                StoredEvent(
                    str(row["table_id"]),
                    int(row["seq"]),
                    str(row["kind"]),
                    int(row["schema_version"]),
                    row["actor"],
                    str(row["visibility"]),
                    dict(row["payload"]),
                    datetime.fromisoformat(row["created_at"]),
                )
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(
                N_("line {line} of the export is not an event: {error}"),
                line=number,
                error=str(exc),
            ) from exc
    return events


def to_markdown(state: TableState, tr: Translate) -> str:
    """A readable transcript: title, players, then one bullet per event (undone ones struck).

    Args:
        state: the table.
        tr: translation function for the table's language.
    """
    lines = [
        f"# {state.name}",
        "",
        tr("System: {system}. Players: {players}.").format(
            system=state.system.id, players=", ".join(state.players)
        ),
        "",
    ]
    for event in state.events:
        when = event.created_at.strftime("%Y-%m-%d %H:%M")
        text = describe(event, tr)
        if event.seq in state.voided:
            text = f"~~{text}~~ " + tr("(undone)")
        lines.append(f"- **{event.seq}** ({when}) {text}")
    return "\n".join(lines) + "\n"
