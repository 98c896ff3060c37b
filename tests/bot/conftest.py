"""The bot's command layer driven without Discord.

Interactions are discord.py's own `discord.Interaction` objects built from payloads shaped
as Discord documents them (an application command, an autocomplete, a button, a modal
submit); the HTTP client and the interaction webhook adapter are fakes that record what
would be sent and answer with payloads of Discord's shapes. The engine and the store are
real (a temporary SQLite file).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.http import HTTPClient, Route
from discord.webhook import async_ as webhook_async

from tablee.discord.bot import TableeBot
from tablee.table.links import issue_table_links
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore

APP_ID = 900000000000000001
GUILD = 900000000000000002
CHANNEL = 900000000000000003
GM = 100000000000000001
ZOE = 100000000000000002
ANA = 100000000000000003

_ids = itertools.count(700000000000000000)


@dataclass
class Sent:
    """One request that would have reached Discord."""

    method: str
    path: str
    payload: dict[str, Any]
    ephemeral: bool = False

    @property
    def kind(self) -> str:
        if self.path.endswith("/callback"):
            return {
                4: "reply",
                5: "defer",
                6: "defer_update",
                8: "autocomplete",
                9: "modal",
            }.get(self.payload.get("type", 0), "callback")
        if self.path.startswith("/webhooks/") and self.method == "DELETE":
            return "delete_original"
        if self.path.startswith("/webhooks/"):
            return "followup"
        if self.path == "/users/@me/channels":
            return "open_dm"
        if self.path.startswith("/channels/"):
            return "channel_message"
        return self.method + " " + self.path

    def text(self) -> str:
        """Everything readable in the request: content and every embed's texts."""
        import json

        return json.dumps(self.payload, ensure_ascii=False)


@dataclass
class Record:
    sent: list[Sent] = field(default_factory=list)
    marks: list[str] = field(default_factory=list)

    def log(self, what: str) -> None:
        self.marks.append(what)

    def of(self, kind: str) -> list[Sent]:
        return [s for s in self.sent if s.kind == kind]


def _message(channel_id: int, payload: dict[str, Any], author_id: int = APP_ID) -> dict[str, Any]:
    return {
        "id": str(next(_ids)),
        "channel_id": str(channel_id),
        "author": {
            "id": str(author_id),
            "username": "tablee",
            "discriminator": "0",
            "avatar": None,
        },
        "content": payload.get("content") or "",
        "timestamp": "2026-12-02T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": payload.get("embeds") or [],
        "pinned": False,
        "type": 0,
        "flags": payload.get("flags", 0),
    }


class FakeHTTP(HTTPClient):
    """Records the bot's own REST calls (channel messages, direct messages)."""

    def __init__(self, record: Record) -> None:
        super().__init__(asyncio.get_running_loop())
        self.record = record

    async def request(self, route: Route, **kwargs: Any) -> Any:
        payload = kwargs.get("json") or {}
        sent = Sent(route.method, route.url.removeprefix(Route.BASE), payload)
        self.record.sent.append(sent)
        self.record.log(sent.kind)
        if sent.kind == "open_dm":
            user = payload["recipient_id"]
            return {
                "id": str(next(_ids)),
                "type": 1,
                "last_message_id": None,
                "recipients": [
                    {"id": str(user), "username": f"u{user}", "discriminator": "0", "avatar": None}
                ],
            }
        if sent.kind == "channel_message":
            return _message(int(route.url.split("/")[-2]), payload)
        return {}


class FakeAdapter(webhook_async.AsyncWebhookAdapter):
    """Records interaction responses and follow-ups, answering as Discord does."""

    def __init__(self, record: Record) -> None:
        super().__init__()
        self.record = record

    async def request(self, route: Route, session: Any = None, **kwargs: Any) -> Any:
        payload = kwargs.get("payload") or {}
        if kwargs.get("multipart"):
            import json

            payload = json.loads(kwargs["multipart"][0]["value"])
        flags = int((payload.get("data") or payload).get("flags") or 0)
        sent = Sent(route.method, route.url.removeprefix(Route.BASE), payload, bool(flags & 64))
        self.record.sent.append(sent)
        self.record.log(sent.kind)
        if sent.kind in ("reply", "defer", "modal", "autocomplete", "defer_update", "callback"):
            interaction = {"id": str(route.webhook_id), "type": 2}
            return {"interaction": interaction}
        if sent.kind == "delete_original":
            return None
        return _message(CHANNEL, payload)


class Harness:
    """A bot on a real store, its sends recorded, and payload builders."""

    def __init__(self, store: SqliteStore, record: Record) -> None:
        self.store = store
        self.record = record
        self.service = TableService(store, remember_last=False)
        self.bot = TableeBot(self.service)
        http = FakeHTTP(record)
        self.bot.http = http
        self.bot._connection.http = http
        self.bot._connection.user = discord.ClientUser(  # as the READY event gives it
            state=self.bot._connection,
            data={
                "id": str(APP_ID),
                "username": "tablee",
                "discriminator": "0",
                "avatar": None,
                "bot": True,
            },
        )
        self.bot._connection.application_id = APP_ID
        webhook_async.async_context.set(FakeAdapter(record))
        original = self.service.run_command

        def run_command(*args: Any, **kwargs: Any) -> Any:
            record.log("run_command")
            return original(*args, **kwargs)

        self.service.run_command = run_command  # type: ignore[method-assign]
        read = self.service.state

        def state(*args: Any, **kwargs: Any) -> Any:
            record.log("state")
            return read(*args, **kwargs)

        self.service.state = state  # type: ignore[method-assign]

    def public(self) -> list[Sent]:
        """What everyone in the channel would read: the channel's messages, and every
        interaction answer that is not ephemeral (direct messages and ephemeral answers
        aside)."""
        here = f"/channels/{CHANNEL}/"
        answers = ("reply", "followup", "defer")
        return [
            s
            for s in self.record.sent
            if (s.kind == "channel_message" and here in s.path)
            or (s.kind in answers and not s.ephemeral)
        ]

    def direct(self) -> list[Sent]:
        """The direct messages sent (to a DM channel, never the bound channel)."""
        return [
            s
            for s in self.record.sent
            if s.kind == "channel_message" and f"/channels/{CHANNEL}/" not in s.path
        ]

    def clear(self) -> None:
        self.record.sent.clear()
        self.record.marks.clear()

    def base(self, kind: int, user: int, locale: str, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(next(_ids)),
            "application_id": str(APP_ID),
            "type": kind,
            "data": data,
            "guild_id": str(GUILD),
            "channel_id": str(CHANNEL),
            "channel": {
                "id": str(CHANNEL),
                "type": 0,
                "guild_id": str(GUILD),
                "name": "jdr",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "rate_limit_per_user": 0,
                "topic": None,
                "last_message_id": None,
            },
            "member": {
                "user": {
                    "id": str(user),
                    "username": f"u{user}",
                    "discriminator": "0",
                    "avatar": None,
                    "global_name": None,
                },
                "roles": [],
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": "2147483647",
            },
            "token": "interaction-token-" + str(next(_ids)),
            "version": 1,
            "locale": locale,
            "guild_locale": "en-US",
            "app_permissions": "2147483647",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD)},
            "context": 0,
            "attachment_size_limit": 8388608,
        }

    def command(
        self,
        path: str,
        caller: int,
        /,
        locale: str = "en-US",
        focused: str | None = None,
        **options: Any,
    ) -> discord.Interaction[Any]:
        """An application command (type 2), or an autocomplete (type 4) with ``focused``.

        An option given as ``(type, value)`` has that option type (6: a user).
        """
        words = path.split()
        root = self.bot.tree.get_command(words[0])
        assert root is not None
        opts = []
        for name, value in options.items():
            kind = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 3
            if isinstance(value, tuple):
                kind, value = value
            option: dict[str, Any] = {"name": name, "type": kind, "value": value}
            if name == focused:
                option["focused"] = True
            opts.append(option)
        nested: list[dict[str, Any]] = opts
        if len(words) == 3:
            nested = [
                {
                    "name": words[1],
                    "type": 2,
                    "options": [{"name": words[2], "type": 1, "options": opts}],
                }
            ]
        elif len(words) == 2:
            nested = [{"name": words[1], "type": 1, "options": opts}]
        data = {"id": str(next(_ids)), "name": words[0], "type": 1, "options": nested}
        payload = self.base(4 if focused else 2, caller, locale, data)
        return discord.Interaction(data=payload, state=self.bot._connection)  # type: ignore[arg-type]

    def button(self, custom_id: str, user: int, locale: str = "en-US") -> discord.Interaction[Any]:
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self.base(3, user, locale, data)
        payload["message"] = _message(CHANNEL, {})
        return discord.Interaction(data=payload, state=self.bot._connection)  # type: ignore[arg-type]

    def modal(self, custom_id: str, link: str, user: int) -> discord.Interaction[Any]:
        data = {
            "custom_id": custom_id,
            "components": [
                {"type": 1, "components": [{"type": 4, "custom_id": "link", "value": link}]}
            ],
        }
        payload = self.base(5, user, "en-US", data)
        return discord.Interaction(data=payload, state=self.bot._connection)  # type: ignore[arg-type]

    async def slash(self, path: str, caller: int, /, locale: str = "en-US", **options: Any) -> None:
        await self.bot.tree._call(self.command(path, caller, locale, **options))


@dataclass
class Table:
    name: str
    table_id: str
    links: dict[str, str]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    opened = SqliteStore(tmp_path / "bot.sqlite3")
    try:
        yield opened
    finally:
        opened.close()


def make_table(
    store: SqliteStore, system: str = "pouyss", players: tuple[str, ...] = ("Zoé", "Ana")
) -> Table:
    service = TableService(store)
    state = service.create(system=system, name="Zinc", players=list(players), lang="en")
    issued = issue_table_links(store, state, service.clock())
    links = {i.info.player or i.info.role: "https://tablee.example/t/" + i.token for i in issued}
    return Table(state.name, state.table_id, links)


async def seated(
    store: SqliteStore, system: str = "pouyss", players: tuple[str, ...] = ("Zoé", "Ana")
) -> tuple[Harness, Table]:
    """A bot whose channel is bound to a new table, the GM and two players seated."""
    record = Record()
    harness = Harness(store, record)
    table = make_table(store, system, players)
    bot = harness.bot
    await bot.on_interaction(harness.modal(f"tablee:bind:{table.table_id}", table.links["gm"], GM))
    users = (ZOE, ANA)
    for user, player in zip(users, players, strict=False):
        await bot.on_interaction(
            harness.modal(f"tablee:claim:{table.table_id}", table.links[player], user)
        )
    record.sent.clear()
    record.marks.clear()
    return harness, table
