"""Which channel plays which table, who holds which seat: kept in the store's preferences.

The bot's bindings are settings of the bot, not facts of the game: they change no rule and
no other interface reads them, so they stay out of the table's log (an export of a table
never carries Discord account ids). They live in the store's key-value ``preferences``,
which both backends (SQLite, PostgreSQL) already hold, migrate and test:

* ``discord.channels``: the bound channel ids, a JSON list;
* ``discord.channel.<channel id>``: ``{"table": table id, "posted": last seq posted,
  "lang": "fr" | "en"}``;
* ``discord.table.<table id>``: ``{"gm": [user ids], "seats": {user id: player name}}``.

One bot process serves a store: its handlers read and write these keys between two awaits,
so no two of them interleave (a second bot on the same store would race on them).

Source: docs/architecture.md, "Discord".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tablee.table.store import EventStore

__all__ = ["Binding", "Bindings", "Seat"]

CHANNELS = "discord.channels"


@dataclass(frozen=True)
class Seat:
    """A Discord account's seat at a table.

    Attributes:
        role: ``gm`` or ``player``.
        player: the player's name (as the table writes it) for a player's seat, else None.
    """

    role: str
    player: str | None = None

    @property
    def is_gm(self) -> bool:
        """Whether the seat is the game master's."""
        return self.role == "gm"


@dataclass(frozen=True)
class Binding:
    """A channel bound to a table.

    Attributes:
        channel_id: the Discord channel.
        table_id: the table's id in the store.
        posted: the last seq posted in the channel (0: none).
        lang: the language the channel's posts use (``fr`` or ``en``).
    """

    channel_id: int
    table_id: str
    posted: int
    lang: str


class Bindings:
    """The bot's bindings in an event store's preferences.

    Args:
        store: the store the tables live in.
    """

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def _get(self, key: str) -> Any:
        raw = self.store.get_preference(key)
        return None if raw is None else json.loads(raw)

    def _set(self, key: str, value: Any) -> None:
        self.store.set_preference(key, json.dumps(value, sort_keys=True))

    def bind(self, channel_id: int, table_id: str, posted: int, lang: str) -> None:
        """Bind a channel to a table; the events up to ``posted`` are not posted again."""
        self._set(
            f"discord.channel.{channel_id}", {"table": table_id, "posted": posted, "lang": lang}
        )
        known = self.channel_ids()
        if channel_id not in known:
            self._set(CHANNELS, [*known, channel_id])

    def channel_ids(self) -> list[int]:
        """The bound channels, in the order they were bound."""
        return [int(c) for c in self._get(CHANNELS) or []]

    def binding(self, channel_id: int) -> Binding | None:
        """The channel's binding, or None when it plays no table."""
        found = self._get(f"discord.channel.{channel_id}")
        if not isinstance(found, dict):
            return None
        return Binding(channel_id, str(found["table"]), int(found["posted"]), str(found["lang"]))

    def set_posted(self, channel_id: int, seq: int) -> None:
        """Record the last seq posted in a bound channel (it only moves forward)."""
        found = self.binding(channel_id)
        if found is not None and seq > found.posted:
            self.bind(channel_id, found.table_id, seq, found.lang)

    def _seats(self, table_id: str) -> dict[str, Any]:
        found = self._get(f"discord.table.{table_id}")
        return found if isinstance(found, dict) else {"gm": [], "seats": {}}

    def seat(self, table_id: str, user_id: int) -> Seat | None:
        """The seat a Discord account holds at a table, or None."""
        seats = self._seats(table_id)
        if user_id in seats["gm"]:
            return Seat("gm")
        player = seats["seats"].get(str(user_id))
        return None if player is None else Seat("player", str(player))

    def claim(self, table_id: str, user_id: int, seat: Seat) -> None:
        """Give a Discord account a seat (replacing the one it held at that table)."""
        seats = self._seats(table_id)
        gm = [u for u in seats["gm"] if u != user_id]
        players = {k: v for k, v in seats["seats"].items() if k != str(user_id)}
        if seat.is_gm:
            gm.append(user_id)
        else:
            players[str(user_id)] = seat.player
        self._set(f"discord.table.{table_id}", {"gm": gm, "seats": players})

    def game_masters(self, table_id: str) -> list[int]:
        """The Discord accounts holding the game master's seat at a table."""
        return [int(u) for u in self._seats(table_id)["gm"]]

    def players(self, table_id: str, player: str) -> list[int]:
        """The Discord accounts seated as ``player`` (compared as names are)."""
        from tablee.systems.base import name_key

        seats = self._seats(table_id)["seats"]
        return [int(u) for u, name in seats.items() if name_key(name) == name_key(player)]
