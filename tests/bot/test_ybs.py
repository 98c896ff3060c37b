"""YBS through the bot: the buttons after a test and in a gang fight."""

from __future__ import annotations

import asyncio

from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.bot.conftest import ANA, GM, ZOE, Harness, seated


def _buttons(harness: Harness) -> list[str]:
    answer = harness.record.of("followup")[-1].payload
    return [b["custom_id"] for row in answer.get("components", []) for b in row["components"]]


async def _club(store: SqliteStore) -> Harness:
    harness, _ = await seated(store, "ybs", ("A", "B"))
    await harness.slash("ybs character create", GM, character="Aki", player="A", choushi=1)
    await harness.slash("ybs character create", GM, character="Bo", player="B", nintai=1)
    await harness.slash("ybs character create", GM, character="Thug", choushi=1)
    await harness.slash("ybs session start", GM)
    harness.clear()
    return harness


def test_stubborn_and_critical_are_buttons_under_a_test(store: SqliteStore) -> None:
    async def go() -> None:
        harness = await _club(store)
        await harness.slash("ybs test", ZOE, character="Aki", trait="chisei", faces="1")
        assert _buttons(harness) == [
            "tablee:run:ybs:stubborn",
            "tablee:run:ybs:critical",
            "tablee:run:ybs:critical-failure",
            "tablee:undo:6",
        ]
        harness.clear()
        await harness.bot.on_interaction(harness.button("tablee:run:ybs:stubborn", ANA))
        assert "run_command" not in harness.record.marks  # B does not play Aki
        assert harness.record.sent[-1].ephemeral
        harness.clear()
        await harness.bot.on_interaction(harness.button("tablee:run:ybs:stubborn", ZOE))
        assert harness.record.marks.index("defer") < harness.record.marks.index("run_command")
        state = TableService(store).state("Zinc")
        assert state.events[-1].kind != "ybs.test" and state.last_seq == 7

    asyncio.run(go())


def test_a_gang_fight_offers_the_next_throw_and_the_advice(store: SqliteStore) -> None:
    async def go() -> None:
        harness = await _club(store)
        await harness.slash("ybs gang start", GM, fighters="Aki; Bo", opponents="Thug")
        assert _buttons(harness)[:2] == ["tablee:run:ybs:gang.throw", "tablee:run:ybs:gang.advise"]
        harness.clear()
        await harness.slash("ybs gang throw", GM, faces="1,1,2,5,6", faces_gm="1,1,1,1,1")
        assert "tablee:run:ybs:gang.advise" in _buttons(harness)
        harness.clear()
        await harness.bot.on_interaction(harness.button("tablee:run:ybs:gang.advise", ZOE))
        advice = harness.record.of("followup")[-1]
        assert advice.ephemeral and "%" in advice.text()  # each side's keeps, with odds
        assert "run_command" not in harness.record.marks
        before = TableService(store).state("Zinc").last_seq
        harness.clear()
        await harness.bot.on_interaction(harness.button("tablee:run:ybs:gang.throw", GM))
        state = TableService(store).state("Zinc")
        kinds = [e.kind for e in state.events if e.seq > before]
        assert "ybs.gang_throw" in kinds  # the advised dice kept, the rest thrown again
        assert not harness.record.of("followup")[-1].ephemeral

    asyncio.run(go())


def test_a_blind_test_stays_hidden_from_the_players_buttons_and_errors(store: SqliteStore) -> None:
    async def go() -> None:
        harness = await _club(store)
        await harness.slash(
            "ybs test", GM, character="Aki", trait="chisei", faces="4", visibility="gm"
        )
        assert harness.public() == [] and harness.direct() == []
        harness.clear()
        await harness.slash("ybs stubborn", ZOE, faces="6")
        assert "run_command" not in harness.record.marks
        refusal = harness.record.sent[-1]
        assert refusal.ephemeral and "hidden" in refusal.text()
        assert all('"4"' not in s.text() and "chisei" not in s.text() for s in harness.public())

    asyncio.run(go())


def test_the_game_master_gives_a_seat(store: SqliteStore) -> None:
    async def go() -> None:
        harness = await _club(store)
        table_id = harness.bot.bindings.binding(harness.bot.bindings.channel_ids()[0]).table_id
        someone = 100000000000000099
        payload = harness.command("tablee seat", GM, user=(6, str(someone)), player="b")
        payload.data["resolved"] = {  # type: ignore[index]
            "users": {
                str(someone): {
                    "id": str(someone),
                    "username": "someone",
                    "discriminator": "0",
                    "avatar": None,
                    "global_name": None,
                }
            }
        }
        await harness.bot.tree._call(payload)
        seat = harness.bot.bindings.seat(table_id, someone)
        assert seat is not None and seat.player == "B"
        harness.clear()
        await harness.slash("tablee seat", ZOE, user=(6, str(someone)), player="A")
        assert harness.bot.bindings.seat(table_id, someone).player == "B"
        assert harness.record.sent[-1].ephemeral

    asyncio.run(go())


def test_a_gang_throw_offers_each_sides_keep_choices_with_their_odds(store: SqliteStore) -> None:
    async def go() -> None:
        harness = await _club(store)
        await harness.slash("ybs gang start", GM, fighters="Aki; Bo", opponents="Thug")
        await harness.slash("ybs gang throw", GM, faces="1,1,2,5,6", faces_gm="1,1,1,1,1")
        answer = harness.record.of("followup")[-1].payload
        menus = {
            c["custom_id"]: c
            for row in answer["components"]
            for c in row["components"]
            if c["type"] == 3
        }
        players = menus["tablee:keep:ybs:gang.throw:keep"]
        assert "tablee:keep:ybs:gang.throw:gm_keep" in menus
        values = [o["value"] for o in players["options"]]
        assert len(values) == len(set(values)) <= 25
        assert "%" in players["options"][0]["description"]
        best = players["options"][0]["value"]
        # a player may not choose the GM's dice
        harness.clear()
        gm_menu = harness.button("tablee:keep:ybs:gang.throw:gm_keep", ZOE)
        gm_menu.data["values"] = ["none"]  # type: ignore[index]
        await harness.bot.on_interaction(gm_menu)
        assert "run_command" not in harness.record.marks
        # picking the best choice throws again, keeping those dice
        harness.clear()
        menu = harness.button("tablee:keep:ybs:gang.throw:keep", ZOE)
        menu.data["component_type"] = 3  # type: ignore[index]
        menu.data["values"] = [best]  # type: ignore[index]
        await harness.bot.on_interaction(menu)
        assert harness.record.marks.index("defer") < harness.record.marks.index("run_command")
        last = TableService(store).state("Zinc").events
        throw = next(e for e in reversed(last) if e.kind == "ybs.gang_throw")
        kept = [int(f) for f in best.split(",")] if best != "none" else []
        assert throw.payload["keep"] == kept or throw.payload.get("players_keep") == kept, (
            throw.payload
        )

    asyncio.run(go())


def test_a_player_reads_the_table_by_query_only_while_nothing_is_hidden(
    store: SqliteStore,
) -> None:
    async def go() -> None:
        harness = await _club(store)
        await harness.slash("ybs tokens", ZOE)
        assert "2" in harness.record.of("followup")[-1].text()
        await harness.slash("ybs test", GM, character="Aki", trait="chisei", force=1, faces="4",
                            visibility="gm")  # fmt: skip
        harness.clear()
        await harness.slash("ybs tokens", ZOE)
        answer = harness.record.of("followup")[-1]
        assert answer.ephemeral and "hidden" in answer.text()
        harness.clear()
        await harness.slash("ybs tokens", GM)
        assert "hidden" not in harness.record.of("followup")[-1].text()

    asyncio.run(go())
