"""The bot on PostgreSQL: bindings in the preferences, a roll from the web relayed once."""

from __future__ import annotations

import asyncio

import pytest

from tablee.systems.pouyss.commands import Roll, StartSession
from tablee.table.connect import open_store
from tablee.table.service import TableService
from tests.bot.conftest import CHANNEL, GM, ZOE, seated
from tests.table import conftest as table_fixtures

postgres_user = table_fixtures.postgres_user
postgres_url = table_fixtures.postgres_url

pytestmark = pytest.mark.postgres


def test_bindings_and_the_relay_on_postgresql(postgres_url: str) -> None:
    store = open_store(postgres_url)
    other = open_store(postgres_url)  # the web table's process
    try:

        async def go() -> None:
            harness, table = await seated(store)  # type: ignore[arg-type]
            assert harness.bot.bindings.binding(CHANNEL).table_id == table.table_id
            web = TableService(other, remember_last=False)
            web.run_command("Zinc", StartSession(cagnotte=2))
            web.run_command("Zinc", Roll(player="Ana", bonus=1))
            assert await harness.bot.relay_once() == 2
            assert len(harness.public()) == 2
            harness.clear()
            assert await harness.bot.relay_once() == 0
            await harness.slash("pouyss roll", ZOE, faces="3", visibility="roller_and_gm")
            assert harness.public() == [] and len(harness.direct()) == 1
            assert harness.record.of("open_dm")[0].payload["recipient_id"] == GM
            assert await harness.bot.relay_once() == 0

        asyncio.run(go())
    finally:
        other.close()
        store.close()
