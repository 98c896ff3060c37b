"""The links part of the store contract, on every backend, and the table-layer link rules."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from tablee.errors import InputError, NotFoundError
from tablee.systems.base import Fact
from tablee.table.links import (
    PREFIX_LENGTH,
    hash_token,
    issue_link,
    issue_table_links,
    new_token,
    revoke_by_prefix,
)
from tablee.table.projection import fold
from tablee.table.store import EventStore, LinkInfo

NOW = datetime(2026, 11, 29, 12, 0, 0, 123456, tzinfo=UTC)


def new_table(store: EventStore, name: str = "zinc") -> str:
    table_id = str(uuid.uuid4())
    payload = {"system": "pouyss", "name": name, "players": ["Zoé", "Ana"], "lang": "fr"}
    store.create_table(
        table_id, name, "pouyss", Fact("table.created", {**payload, "options": {}}), NOW
    )
    return table_id


def link(table_id: str, n: int, role: str = "spectator", player: str | None = None) -> LinkInfo:
    return LinkInfo(f"{n:064x}", table_id, f"p{n:07d}", role, player, NOW + timedelta(seconds=n))


def test_add_find_list(store: EventStore) -> None:
    table_id = new_table(store)
    first, second = link(table_id, 2, "player", "Zoé"), link(table_id, 1, "gm")
    store.add_link(first)
    store.add_link(second)
    assert store.find_link(first.token_hash) == first
    assert store.find_link("f" * 64) is None
    assert store.links(table_id) == [second, first]  # oldest first
    assert store.links(str(uuid.uuid4())) == []


def test_link_to_unknown_table_is_refused(store: EventStore) -> None:
    with pytest.raises(NotFoundError):
        store.add_link(link(str(uuid.uuid4()), 1))


def test_revoke_keeps_the_first_time(store: EventStore) -> None:
    table_id = new_table(store)
    item = link(table_id, 1)
    store.add_link(item)
    later = NOW + timedelta(hours=1)
    store.revoke_link(item.token_hash, later)
    store.revoke_link(item.token_hash, later + timedelta(hours=1))
    found = store.find_link(item.token_hash)
    assert found is not None and found.revoked_at == later
    store.revoke_link("0" * 64, later)  # unknown: nothing happens


def test_issue_table_links_stores_hashes_only(store: EventStore) -> None:
    table_id = new_table(store)
    state = fold(store.load(table_id))
    issued = issue_table_links(store, state, NOW)
    assert [(i.info.role, i.info.player) for i in issued] == [
        ("gm", None),
        ("player", "Zoé"),
        ("player", "Ana"),
        ("spectator", None),
    ]
    for item in issued:
        assert len(item.token) >= 43  # 256 bits, URL-safe base64
        assert item.info.token_hash == hash_token(item.token) != item.token
        assert item.info.prefix == item.token[:PREFIX_LENGTH]
        assert store.find_link(hash_token(item.token)) == item.info
    assert len({i.token for i in issued}) == 4


def test_issue_link_checks_role_and_player(store: EventStore) -> None:
    state = fold(store.load(new_table(store)))
    with pytest.raises(InputError):
        issue_link(store, state, "admin", NOW)
    with pytest.raises(InputError):
        issue_link(store, state, "player", NOW, "Nobody")
    with pytest.raises(InputError):
        issue_link(store, state, "gm", NOW, "Zoé")
    assert issue_link(store, state, "player", NOW, "zoé").info.player == "Zoé"


def test_revoke_by_prefix(store: EventStore) -> None:
    table_id = new_table(store)
    state = fold(store.load(table_id))
    issued = issue_table_links(store, state, NOW)
    target = issued[1]
    with pytest.raises(InputError):
        revoke_by_prefix(store, table_id, target.token[:3], NOW)
    revoked = revoke_by_prefix(store, table_id, target.token[:PREFIX_LENGTH], NOW)
    assert revoked[0].token_hash == target.info.token_hash
    found = store.find_link(target.info.token_hash)
    assert found is not None and found.revoked_at == NOW
    with pytest.raises(NotFoundError):  # already revoked
        revoke_by_prefix(store, table_id, target.token, NOW)
    other = issued[2]
    assert revoke_by_prefix(store, table_id, other.token, NOW)[0].prefix == other.info.prefix


def test_tokens_differ() -> None:
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
