"""Who is looking: a link's token turned into a viewer, what that viewer may see and do.

Every request to a table carries a link token in its path. `ViewerRole` rules are checked
on the server for every action and every event sent: a player acts only for their own
character, a spectator only reads, a hidden event never leaves the server for a viewer who
may not see it (see `can_see`).

Visibility of an event (`tablee.systems.base.VISIBILITIES`):

* ``all``: everyone;
* ``roller_and_gm``: the game master and the player who acted (a secret roll);
* ``gm``: the game master alone (a blind roll: even the roller sees only that it happened).

Source: docs/web.md, "Pages and routes" and "Security model".
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass

from tablee.systems.base import name_key
from tablee.table.events import StoredEvent
from tablee.table.seeing import sees, shown_error
from tablee.table.store import LinkInfo

__all__ = ["Viewer", "can_see", "csrf_token", "csrf_valid", "error_for"]


@dataclass(frozen=True)
class Viewer:
    """The holder of one working link.

    Attributes:
        link: the stored link (role, player, prefix, table id).
        table: the table's name.
        lang: the language the pages are shown in (``fr`` or ``en``).
    """

    link: LinkInfo
    table: str
    lang: str

    @property
    def role(self) -> str:
        """``gm``, ``player`` or ``spectator``."""
        return self.link.role

    @property
    def is_gm(self) -> bool:
        """Whether this viewer is the game master."""
        return self.link.role == "gm"

    @property
    def player(self) -> str | None:
        """The player's name for a player link, else None."""
        return self.link.player

    def is_player(self, name: str | None) -> bool:
        """Whether ``name`` is this viewer's own player name (compared as names are)."""
        return (
            self.player is not None and name is not None and name_key(self.player) == name_key(name)
        )


def can_see(viewer: Viewer, event: StoredEvent) -> bool:
    """Whether the viewer may see the event's content (`tablee.table.seeing.sees`).

    Source: docs/web.md, "Security model" (visibility filtered on the server).
    """
    return sees(viewer.role, viewer.player, event)


def error_for(error: Exception, viewer: Viewer, events: Iterable[StoredEvent]) -> Exception:
    """The error a viewer may read (`tablee.table.seeing.shown_error`).

    Source: docs/web.md, "Security model" (no secret in an error).
    """
    return shown_error(error, viewer.role, viewer.player, events)


def table_route(secret: bytes, table_id: str) -> str:
    """A table's routing key: the same on every link of the table, 16 hex digits.

    The table page opens its stream at ``/t/TOKEN/stream?table=KEY`` and sends its forms
    with the header ``X-Tablee-Table: KEY``: a proxy in front of several server processes
    may send all of a table's streams and rolls to the same process by hashing this key
    (nginx's ``hash ... consistent``), so that a roll is read back and its messages drawn
    once, in one process, however many processes there are. An HMAC of the table's id
    under the server's secret: it names no table and cannot be guessed; the routes ignore
    it (the link decides what a request may see and do).

    Source: docs/hosting.md, "A table's requests in one process".
    """
    digest = hmac.new(secret, b"route:" + table_id.encode("utf-8"), hashlib.sha256)
    return digest.hexdigest()[:16]


def csrf_token(secret: bytes, link: LinkInfo) -> str:
    """The anti-forgery token of a link's forms: HMAC-SHA256 of its token hash, 32 hex digits.

    Args:
        secret: the server's secret (kept in the store's preferences).
        link: the link the page was made for.

    Source: docs/web.md, "Security model" (CSRF protection on every action).
    """
    digest = hmac.new(secret, link.token_hash.encode("ascii"), hashlib.sha256)
    return digest.hexdigest()[:32]


def csrf_valid(secret: bytes, link: LinkInfo, given: str | None) -> bool:
    """Whether a form's anti-forgery token is the link's (constant-time comparison)."""
    return given is not None and hmac.compare_digest(csrf_token(secret, link), given)
