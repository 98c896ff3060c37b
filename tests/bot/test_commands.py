from __future__ import annotations

import asyncio

from tablee.discord.bindings import Seat
from tests.bot.conftest import ANA, CHANNEL, GM, ZOE, seated


def test_bind_and_claim_hold_seats(store) -> None:
    async def go() -> None:
        harness, table = await seated(store)
        bindings = harness.bot.bindings
        assert bindings.binding(CHANNEL).table_id == table.table_id
        assert bindings.seat(table.table_id, GM) == Seat("gm")
        assert bindings.seat(table.table_id, ZOE) == Seat("player", "Zoé")
        assert bindings.seat(table.table_id, ANA) == Seat("player", "Ana")

    asyncio.run(go())


def test_a_public_roll_is_deferred_then_answered_with_its_card(store) -> None:
    async def go() -> None:
        harness, _ = await seated(store)
        from tablee.systems.pouyss.commands import StartSession

        await harness.slash("pouyss session start", GM, cagnotte=3)
        harness.record.sent.clear()
        harness.record.marks.clear()
        await harness.slash("pouyss roll", ZOE, bonus=1, faces="1,6")
        marks = harness.record.marks
        assert marks.index("defer") < marks.index("run_command")
        follow = harness.record.of("followup")
        assert len(follow) == 1 and not follow[0].ephemeral
        print(follow[0].payload)
        del StartSession

    asyncio.run(go())


def test_binding_is_deferred_before_the_log_is_read_and_the_link_never_shown(store) -> None:
    async def go() -> None:
        from tests.bot.conftest import Harness, Record, make_table

        record = Record()
        harness = Harness(store, record)
        table = make_table(store)
        interaction = harness.command("tablee bind", GM, table="Zinc")
        await harness.bot.tree._call(interaction)
        modal = record.of("modal")[0]
        assert modal.payload["data"]["custom_id"] == f"tablee:bind:{table.table_id}"
        record.sent.clear()
        record.marks.clear()
        link = table.links["gm"]
        await harness.bot.on_interaction(harness.modal(f"tablee:bind:{table.table_id}", link, GM))
        assert record.marks[0] == "defer" and record.marks.index("defer") < record.marks.index(
            "state"
        )
        assert all(s.ephemeral for s in record.sent)
        assert not any(link.rsplit("/", 1)[1] in s.text() for s in record.sent)

    asyncio.run(go())


def test_embeds_are_cut_to_what_one_message_holds() -> None:
    import discord

    from tablee.discord.embeds import fit

    long = [discord.Embed(title="t", description="x" * 2500) for _ in range(4)]
    assert len(fit(long)) == 2
    assert len(fit([discord.Embed(title="t") for _ in range(12)])) == 10
