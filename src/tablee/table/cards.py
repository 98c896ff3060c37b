"""Roll cards: a game's `Card` data in a reader's language, for the web log and the Discord bot.

A game gives each rolled event's card as data (`tablee.systems.plugin.Game.card`): its dice,
its result and tone, the odds its event recorded, its consequences. This module translates
its texts into the viewer's language and works out how each die is drawn (a d6's pips, a
d8's or d10's face, a D+/- die's sign) and read aloud (``d6: 5, removed``). It is called only
for an event the viewer may see (the web's ``entry_context``, the bot's embeds): a hidden
roll has no card at all. It lives in the table layer so that the web table and the Discord
bot, siblings, draw the same data.

Source: docs/web.md, "Roll cards".
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any

from tablee.errors import N_, Message
from tablee.locale import translation
from tablee.locale.numbers import format_percent
from tablee.systems.plugin import MARKS, TONES, Card, Odds, Shown, Text
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState

__all__ = ["PIPS", "card_context", "card_view"]

Translate = Callable[[str], str]

PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((18, 18),),
    2: ((10, 10), (26, 26)),
    3: ((10, 10), (18, 18), (26, 26)),
    4: ((10, 10), (26, 10), (10, 26), (26, 26)),
    5: ((10, 10), (26, 10), (18, 18), (10, 26), (26, 26)),
    6: ((10, 10), (26, 10), (10, 18), (26, 18), (10, 26), (26, 26)),
}
"""The pips of each d6 face, as ``(x, y)`` centres in a 36 by 36 box."""

SIGNS = {
    "critical": "★",
    "great": "✔✔",
    "success": "✔",
    "setback": "↘",
    "failure": "✘",
    "fumble": "✘✘",
    "neutral": "•",
}
"""The sign drawn before a result, by tone (the result's words say it too)."""

MARK_WORDS = {
    "scores": N_("counts"),
    "removed": N_("removed"),
    "missed": N_("not counted"),
    "held": N_("kept from the last throw"),
}
"""How a die stands, read aloud (`tablee.systems.plugin.MARKS`)."""

DPM_WORDS = {1: N_("plus"), -1: N_("minus"), 0: N_("blank")}
"""A D+/- die's faces, read aloud."""
DPM_SIGNS = {1: "+", -1: "−", 0: ""}
"""A D+/- die's faces, drawn."""


def _gettext(lang: str) -> Translate:
    """The gettext of ``fr`` or ``en`` (any other language reads English)."""
    return translation(lang if lang in ("fr", "en") else "en").gettext


def _text(text: Text, tr: Translate) -> str:
    return text.render(tr) if isinstance(text, Message) else text


def _die(shown: Shown, lang: str) -> dict[str, Any]:
    """How one die is drawn and read (`_die_view`), in a mapping of its own."""
    return dict(_die_view(shown, lang))


@lru_cache(maxsize=1024)
def _die_view(shown: Shown, lang: str) -> dict[str, Any]:
    """How one die is drawn and read: its shape, its face, its marks, its text alternative.

    Worked out once per die and language (a log holds few kinds of die); the caller copies it.
    """
    tr = _gettext(lang)
    mark = shown.mark if shown.mark in MARKS else ""
    if shown.die == "dpm":
        name, face = "D+/-", tr(DPM_WORDS.get(shown.face, str(shown.face)))
        shown_face = DPM_SIGNS.get(shown.face, str(shown.face))
    else:
        name, face = shown.die, str(shown.face)
        shown_face = face
    if mark:
        label = tr(N_("{die}: {face}, {mark}")).format(
            die=name, face=face, mark=tr(MARK_WORDS[mark])
        )
    else:
        label = tr(N_("{die}: {face}")).format(die=name, face=face)
    pips = PIPS.get(shown.face, ()) if shown.die == "d6" else ()
    return {
        "die": shown.die if shown.die in ("d6", "d8", "d10", "dpm") else "other",
        "face": shown_face,
        "mark": mark,
        "label": label,
        "pips": pips,
    }


@lru_cache(maxsize=4096)
def _chance_texts(p: Fraction, lang: str) -> dict[str, str]:
    """A chance as an odds row writes it (a percentage, the exact fraction, a meter's value).

    Worked out once per chance and language: the same few chances come back at every roll.
    The caller copies the mapping.
    """
    return {
        "percent": format_percent(p, lang),
        "fraction": f"{p.numerator}/{p.denominator}",
        "value": f"{float(p):.4f}",
    }


def _odds(odds: Odds, lang: str, tr: Translate) -> dict[str, Any]:
    """The recorded odds: a one-line summary, the rows behind it and the note."""
    if odds.success is not None:
        summary = tr(N_("Chance of success before rolling: {percent}")).format(
            percent=format_percent(odds.success, lang)
        )
    else:
        summary = tr(N_("Odds before rolling"))
    rows = [{"label": _text(label, tr), **_chance_texts(p, lang)} for label, p in odds.rows]
    note = "" if odds.note is None else _text(odds.note, tr)
    return {"summary": summary, "rows": rows, "note": note}


def card_view(card: Card, lang: str) -> dict[str, Any]:
    """A card's data in the viewer's language, as ``_card.html`` draws it.

    Args:
        card: the game's card of an event the viewer may see.
        lang: the viewer's language (``fr``, ``en``).

    Returns:
        ``{"groups": [{"label", "dice": [{"die", "face", "mark", "label", "pips"}]}],
        "result", "tone", "sign", "odds": {"summary", "rows", "note"} | None,
        "consequences": [text]}``; an unknown tone is drawn ``neutral``.
    """
    tr = _gettext(lang)
    tone = card.tone if card.tone in TONES else "neutral"
    return {
        "groups": [
            {"label": _text(group.label, tr), "dice": [_die(d, lang) for d in group.dice]}
            for group in card.groups
        ],
        "result": _text(card.result, tr),
        "tone": tone,
        "sign": SIGNS[tone],
        "odds": None if card.odds is None else _odds(card.odds, lang, tr),
        "consequences": [_text(c, tr) for c in card.consequences],
    }


def card_context(event: StoredEvent, state: TableState[Any], lang: str) -> dict[str, Any] | None:
    """The card of a stored event for a viewer who may see it, or None (no card).

    The event is read as the fold reads it (its current version, or an undo's revision),
    with the state right after it; an event the game cannot read has no card.
    """
    game = state.system
    if event.kind not in game.kinds():
        return None
    try:
        typed = game.event_of(event.kind, state.payload_of(event))
    except (ValueError, KeyError, TypeError):
        return None
    card = game.card(typed, state.after.get(event.seq))
    return None if card is None else card_view(card, lang)
