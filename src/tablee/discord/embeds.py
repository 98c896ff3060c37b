"""A stored event as a Discord embed: its roll card, else its line of the log.

The card is the web table's card data (`tablee.table.cards.card_context`: the dice with what
each counted for, the result and its tone, the odds the event recorded, the consequences),
drawn as an embed: a title (the log line), one field per group of dice, the result, the
consequences and the odds summary. An event without a card is its log line
(`tablee.table.transcript.describe`). This module never decides who may see an event: it is
called only for a reader who may (`tablee.table.seeing.sees`).

Source: docs/architecture.md, "Discord"; docs/web.md, "Roll cards".
"""

from __future__ import annotations

from typing import Any

import discord

from tablee.errors import N_
from tablee.locale import translation
from tablee.table.cards import card_context
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.table.transcript import describe

__all__ = ["COLOURS", "MESSAGE_LIMIT", "TITLE_LIMIT", "event_embed", "fit", "text_embed"]

COLOURS = {
    "critical": 0xD4A017,
    "great": 0x2E8B57,
    "success": 0x3CB371,
    "setback": 0xE69500,
    "failure": 0xC0392B,
    "fumble": 0x8B0000,
    "neutral": 0x708090,
}
"""An embed's colour by the result's tone (the result's words say it too)."""

MESSAGE_LIMIT = 6000
"""Most characters Discord takes in all the embeds of one message."""

EMBEDS_LIMIT = 10
"""Most embeds in one message."""

TITLE_LIMIT = 256
FIELD_LIMIT = 1024
DESCRIPTION_LIMIT = 4096

DPM_SHOWN = {"+": "+", "−": "−", "": "0"}
"""How a D+/- die's face is written in text (a blank face shows ``0``)."""

VISIBILITY_NOTES = {
    "roller_and_gm": N_("Secret roll: the roller and the game master see it."),
    "gm": N_("Blind roll: the game master alone sees it."),
}


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _die(die: dict[str, Any]) -> str:
    face = str(die["face"]) if die["die"] != "dpm" else DPM_SHOWN.get(die["face"], die["face"])
    if die["mark"] in ("removed", "missed"):
        return f"~~{face}~~"
    if die["mark"] == "scores":
        return f"**{face}**"
    return face


def event_embed(event: StoredEvent, state: TableState[Any], lang: str) -> discord.Embed:
    """The embed of one event for a reader who may see it.

    Args:
        event: a stored event of the table.
        state: the table (whole log folded), for the state after the event.
        lang: ``fr`` or ``en``.

    Returns:
        An embed titled with the event's log line; a rolled event's card as its fields
        (dice groups: counted dice in bold, removed ones struck through), its colour the
        result's tone; its footer the seq, the actor and who may see it.
    """
    tr = translation(lang if lang in ("fr", "en") else "en").gettext
    line = describe(event, tr, state)
    card = card_context(event, state, lang)
    colour = COLOURS["neutral"] if card is None else COLOURS.get(card["tone"], 0)
    embed = discord.Embed(title=_cut(line, TITLE_LIMIT), colour=colour)
    if card is not None:
        for group in card["groups"]:
            dice = " ".join(_die(d) for d in group["dice"]) or "-"
            embed.add_field(
                name=_cut(group["label"] or "-", TITLE_LIMIT), value=_cut(dice, FIELD_LIMIT)
            )
        embed.add_field(
            name=tr("Result"),
            value=_cut(f"{card['sign']} {card['result']}", FIELD_LIMIT),
            inline=False,
        )
        if card["consequences"]:
            consequences = "\n".join(card["consequences"])
            embed.add_field(
                name=tr("Consequences"), value=_cut(consequences, FIELD_LIMIT), inline=False
            )
        if card["odds"] is not None:
            embed.add_field(
                name=tr("Odds"), value=_cut(card["odds"]["summary"], FIELD_LIMIT), inline=False
            )
    footer = f"#{event.seq}" + (f" · {event.actor}" if event.actor else "")
    note = VISIBILITY_NOTES.get(event.visibility)
    if note is not None:
        footer += " · " + tr(note)
    embed.set_footer(text=_cut(footer, 2048))
    return embed


def text_embed(title: str, lines: list[str], colour: int = COLOURS["neutral"]) -> discord.Embed:
    """An embed of plain lines (a report, the odds, an error), cut to Discord's lengths."""
    embed = discord.Embed(title=_cut(title, TITLE_LIMIT), colour=colour)
    embed.description = _cut("\n".join(lines), DESCRIPTION_LIMIT) if lines else None
    return embed


def fit(embeds: list[discord.Embed]) -> list[discord.Embed]:
    """The first embeds that fit in one message (at most 10, 6,000 characters in all).

    A command that stores more events than fit (rare: a whole session's end) shows the first
    ones; the web table and the log show them all.
    """
    kept: list[discord.Embed] = []
    total = 0
    for embed in embeds[:EMBEDS_LIMIT]:
        total += len(embed)
        if total > MESSAGE_LIMIT:
            break
        kept.append(embed)
    return kept or embeds[:1]
