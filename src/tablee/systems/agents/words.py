"""The words people read for the agents game's stable ids, marked for translation.

Stored events, JSON and commands keep the ids (``environments``, ``obvious``, ``out``...);
lines and messages meant for people show these words instead, through `word`, so a French
reader never meets an English id. The game's own terms (Muscles, Sexe, Intelligence, Sang)
are names, not words, and are not here.

Source: seed 002; rulings G-M4, G-M9, G-N2; output in French and English.
"""

from __future__ import annotations

from collections.abc import Mapping

from tablee.errors import N_, Message

__all__ = [
    "MODIFIER_WORDS",
    "OUTCOME_WORDS",
    "QUEST_WORDS",
    "STANDING_WORDS",
    "TABLE_WORDS",
    "starter_words",
    "word",
]

TABLE_WORDS: Mapping[str, str] = {
    "objectives": N_("the quest objectives table"),
    "environments": N_("the environments table"),
    "creatures": N_("the creatures table"),
    "boons": N_("the boons table"),
}
"""A generator table's kind (`tablee.systems.agents.tables.TableKind`) as a word (G-A13)."""

STANDING_WORDS: Mapping[str, str] = {
    "active": N_("active"),
    "out": N_("out"),
    "conceded": N_("conceded"),
    "abandoned": N_("abandoned"),
}
"""An agent's standing in a challenge (`tablee.systems.agents.challenge.Standing`)."""

OUTCOME_WORDS: Mapping[str, str] = {
    "won": N_("won"),
    "lost": N_("lost"),
}
"""A finished challenge's outcome."""

QUEST_WORDS: Mapping[str, str] = {
    "ongoing": N_("under way"),
    "won": N_("accomplished"),
    "failed": N_("failed"),
    "abandoned": N_("given up"),
}
"""A quest's status (`tablee.systems.agents.quest.QuestStatus`)."""

MODIFIER_WORDS: Mapping[str, str] = {
    "escalate": N_("escalate"),
    "deescalate": N_("deescalate"),
    "environment": N_("environment"),
    "setup": N_("setup"),
    "generic": N_("generic"),
    "laugh": N_("laugh"),
    "situation": N_("situation"),
    "complexity": N_("complexity"),
    "obvious": N_("obvious"),
}
"""A checklist modifier's id as a short word (G-N2); English words equal the ids."""


def word(words: Mapping[str, str], key: object) -> Message:
    """The word for ``key`` in ``words``, as a message (the key itself when unknown).

    Args:
        words: one of the mappings of this module.
        key: a stable id.
    """
    text = str(key)
    return Message(words[text]) if text in words else Message("{key}", key=text)


def starter_words(source: object) -> Message:
    """A quest's tables' source for people: ``starter:fr`` reads as Tablée's starter tables.

    Args:
        source: the stored source (``starter:fr``, ``starter:en`` or a folder's name).
    """
    text = str(source)
    if text.startswith("starter:"):
        return Message(N_("Tablée's starter tables ({lang})"), lang=text.partition(":")[2])
    return Message("{source}", source=text)
