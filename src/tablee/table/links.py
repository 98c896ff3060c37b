"""Access links of the live web table: unguessable tokens, stored hashed, one role each.

A link is a URL holding a token drawn by `secrets.token_urlsafe` from 32 random bytes (256
bits; 43 characters). The store keeps only the token's SHA-256 and its first `PREFIX_LENGTH`
characters (to name the link in a list and revoke it), so a copy of the database gives
nobody a working link. Roles:

* ``gm``: the game master, who may do everything at the table;
* ``player``: one player, who acts only for their own character(s);
* ``spectator``: reads the log and the resources, acts on nothing.

The command line (``tablee table links``) and the web table both call these functions.

Source: docs/web.md, "Security model" (links per role, at least 128 bits, revocable).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tablee.errors import N_, InputError, NotFoundError
from tablee.systems.base import name_key
from tablee.table.projection import TableState
from tablee.table.store import EventStore

__all__ = [
    "PREFIX_LENGTH",
    "ROLES",
    "IssuedLink",
    "LinkInfo",
    "hash_token",
    "issue_link",
    "issue_table_links",
    "new_token",
    "revoke_by_prefix",
]

ROLES = ("gm", "player", "spectator")
"""The roles a link may give, from the most to the least power."""

TOKEN_BYTES = 32
"""Random bytes per token (256 bits; the issue asks for at least 128)."""

PREFIX_LENGTH = 8
"""Characters of a token kept in clear to name the link (48 of its 256 bits)."""

MIN_REVOKE_PREFIX = 4
"""Fewest characters of a token that name a link to revoke."""


@dataclass(frozen=True)
class LinkInfo:
    """One access link of the web table, as stored (the token itself is never stored).

    Attributes:
        token_hash: SHA-256 of the token, 64 lowercase hex digits (the primary key).
        table_id: the table's id.
        prefix: the token's first characters, shown so that a link can be named and revoked
            (8 characters of a 43-character token: the rest keeps over 200 bits secret).
        role: ``gm``, ``player`` or ``spectator``.
        player: the player's name for a ``player`` link, else None.
        created_at: UTC time the link was made.
        revoked_at: UTC time it was revoked, None while it works.
    """

    token_hash: str
    table_id: str
    prefix: str
    role: str
    player: str | None
    created_at: datetime
    revoked_at: datetime | None = None


@dataclass(frozen=True)
class IssuedLink:
    """A link just made: its stored row and the token, shown once and never stored.

    Attributes:
        info: the stored link.
        token: the secret token to put in the URL.
    """

    info: LinkInfo
    token: str


def new_token() -> str:
    """A fresh unguessable token: 43 URL-safe characters from 256 random bits."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The stored form of a token: SHA-256 as 64 lowercase hex digits."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue_link(
    store: EventStore, state: TableState[Any], role: str, now: datetime, player: str | None = None
) -> IssuedLink:
    """Make and store one link to a table.

    Args:
        store: where the links live.
        state: the table.
        role: one of `ROLES`.
        now: aware time stored with the link.
        player: the player (any case) for a ``player`` link; None otherwise.

    Returns:
        The stored link and its token.

    Raises:
        InputError: an unknown role, a player link without a known player, or a player
            given to another role.

    Source: docs/architecture.md.
    """
    if role not in ROLES:
        raise InputError(
            N_("role {role!r} is not one of {known}"), role=role, known=", ".join(ROLES)
        )
    stored_player = None
    if role == "player":
        stored_player = _player_of(state, player)
    elif player is not None:
        raise InputError(N_("only a player link names a player, not a {role} link"), role=role)
    token = new_token()
    info = LinkInfo(
        hash_token(token), state.table_id, token[:PREFIX_LENGTH], role, stored_player, now
    )
    store.add_link(info)
    return IssuedLink(info, token)


def _player_of(state: TableState[Any], player: str | None) -> str:
    if player is not None:
        for known in state.players:
            if name_key(known) == name_key(player):
                return known
    raise InputError(
        N_("a player link needs one of the players of table {name}: {players}"),
        name=state.name,
        players=", ".join(state.players) or "-",
    )


def issue_table_links(store: EventStore, state: TableState[Any], now: datetime) -> list[IssuedLink]:
    """The links a new table needs: one for the game master, one per player, one spectator.

    Source: docs/architecture.md.
    """
    issued = [issue_link(store, state, "gm", now)]
    issued += [issue_link(store, state, "player", now, p) for p in state.players]
    issued.append(issue_link(store, state, "spectator", now))
    return issued


def revoke_by_prefix(
    store: EventStore, table_id: str, prefix: str, now: datetime
) -> Sequence[LinkInfo]:
    """Revoke the one working link of a table whose token starts with ``prefix``.

    Args:
        store: where the links live.
        table_id: the table.
        prefix: the first characters of the token (at least `MIN_REVOKE_PREFIX`), as listed.
        now: aware time of the revocation.

    Returns:
        The revoked link (a one-item sequence).

    Raises:
        InputError: a prefix too short, or one that names several working links.
        NotFoundError: no working link of that table starts with it.

    Source: docs/web.md, "Security model" (revocable links).
    """
    text = prefix.strip()
    if len(text) < MIN_REVOKE_PREFIX:
        raise InputError(
            N_("give at least {count} characters of the link's token, not {prefix!r}"),
            count=MIN_REVOKE_PREFIX,
            prefix=prefix,
        )
    probe = text[:PREFIX_LENGTH]
    matches = [
        link
        for link in store.links(table_id)
        if link.revoked_at is None and link.prefix.startswith(probe)
    ]
    if len(text) > PREFIX_LENGTH:  # a whole token (or more of it) was given: check its hash
        matches = [m for m in matches if m.token_hash == hash_token(text)]
    if not matches:
        raise NotFoundError(
            N_("no working link of this table starts with {prefix!r}"),
            cli_tip=N_("list the links with 'tablee table links --list'"),
            prefix=text,
        )
    if len(matches) > 1:
        raise InputError(
            N_("{count} links start with {prefix!r}: give more characters"),
            count=len(matches),
            prefix=text,
        )
    store.revoke_link(matches[0].token_hash, now)
    return (matches[0],)
