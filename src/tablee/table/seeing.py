"""Who may see what: an event's visibility read for a seat (a role and a player's name).

Visibility of an event (`tablee.systems.base.VISIBILITIES`):

* ``all``: everyone;
* ``roller_and_gm``: the game master and the player who acted (a secret roll);
* ``gm``: the game master alone (a blind roll: even the roller sees only that it happened).

The web table (a link's viewer) and the Discord bot (a claimed seat) both ask these
functions, so a hidden roll is hidden the same way everywhere.

Source: docs/web.md, "Security model"; docs/architecture.md, "Discord".
"""

from __future__ import annotations

from collections.abc import Iterable

from tablee.errors import TableeError, hidden_kinds
from tablee.systems.base import name_key
from tablee.table.events import StoredEvent

__all__ = ["sees", "shown_error"]


def _same(player: str | None, name: str | None) -> bool:
    return player is not None and name is not None and name_key(player) == name_key(name)


def sees(role: str, player: str | None, event: StoredEvent) -> bool:
    """Whether a seat may see the event's content (dice, result, trace).

    Args:
        role: ``gm``, ``player`` or ``spectator``.
        player: the player's name for a player's seat, else None.
        event: a stored event.

    Returns:
        True for the game master; for others, ``all`` events, and ``roller_and_gm`` events
        whose actor is the seat's player. Unknown visibilities are hidden.
    """
    if role == "gm" or event.visibility == "all":
        return True
    if event.visibility == "roller_and_gm":
        return _same(player, event.actor)
    return False


def shown_error(
    error: Exception, role: str, player: str | None, events: Iterable[StoredEvent]
) -> Exception:
    """The error a seat may read: itself, or one saying only that the choice is not valid.

    A refusal that shows values read from hidden events (its ``secret_in`` kinds, see
    `tablee.errors.TableeError`) is shown whole only to a seat that may see every stored
    event of those kinds; anyone else reads `tablee.errors.NOT_VALID`, the same text for
    every such refusal, so that neither the values nor which choices are valid leak.
    """
    kinds = hidden_kinds(error)
    if not kinds or role == "gm" or not isinstance(error, TableeError):
        return error
    if all(sees(role, player, e) for e in events if e.kind in kinds):
        return error
    return error.masked()
