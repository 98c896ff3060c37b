"""Game systems: one subpackage per game; pure rules, standard library only.

`GAMES` is the one list of registered games: each entry is the game's id and where its
plugin object lives (``module:attribute``). The command line, the web table and the table
layer all read it; adding a game is one line here. A game's package is imported only when a
table of that game is used, so playing Pouyss never pays for loading the others.

Source: architecture.md "A game is one plugin"; python-chess's list of variants as model.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from tablee.errors import N_, InputError

if TYPE_CHECKING:
    from tablee.systems.plugin import AnyGame

__all__ = ["GAMES", "SYSTEM_IDS", "game_ids", "system_named"]

GAMES: list[tuple[str, str]] = [
    ("pouyss", "tablee.systems.pouyss.plugin:POUYSS"),
    ("shs", "tablee.systems.shs.plugin:SHS"),
    ("ybs", "tablee.systems.ybs.plugin:YBS"),
    ("agents", "tablee.systems.agents.plugin:AGENTS_GAME"),
]
"""The registered games: ``(id, "module:attribute")``, in the order they were added."""

SYSTEM_IDS: tuple[str, ...] = tuple(game_id for game_id, _ in GAMES)
"""The ids of the games Tablée ships."""


def game_ids() -> tuple[str, ...]:
    """The ids of every registered game, those registered since import included."""
    return tuple(game_id for game_id, _ in GAMES)


def system_named(name: str) -> AnyGame:
    """The game with that id, its package imported on first use.

    Its state type is known only at run time (the table says which game it plays), hence
    ``AnyGame``; a caller that knows the game narrows it with `tablee.systems.plugin.state_of`.

    Raises:
        InputError: no game has that id.
    """
    key = name.strip().lower()
    for game_id, where in GAMES:
        if game_id == key:
            module, _, attribute = where.partition(":")
            game: AnyGame = getattr(import_module(module), attribute)
            return game
    raise InputError(
        N_("unknown system {name!r}"),
        tip=N_("known systems: {known}"),
        name=name,
        known=", ".join(game_ids()),
    )
