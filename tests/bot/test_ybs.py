"""YBS through the bot: the buttons after a test and in a gang fight."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.bot.conftest import ANA, GM, ZOE, Harness, seated


def _answer(harness: Harness) -> dict[str, Any]:
    """The last answer with embeds (a throw's answer, not a side's dice after it)."""
    return next(
        s.payload for s in reversed(harness.record.of("followup")) if s.payload.get("embeds")
    )


def _buttons(harness: Harness) -> list[str]:
    answer = _answer(harness)
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
        answer = _answer(harness)
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
        # a player's pick throws the players' side alone: it waits for the GM's dice
        throw = next(e for e in reversed(last) if e.kind in ("ybs.gang_throw", "ybs.gang_side"))
        kept = [int(f) for f in best.split(",")] if best != "none" else []
        assert throw.payload["throw"] == 2, throw.payload
        assert throw.payload["keep"] == kept, throw.payload

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


def _boards(harness: Harness) -> dict[str, dict[str, Any]]:
    """The sides' dice messages after a throw, by their keep field."""
    found = {}
    for sent in harness.record.of("followup"):
        ids = [
            b["custom_id"] for row in sent.payload.get("components", []) for b in row["components"]
        ]
        if ids and ids[-1].startswith("tablee:throw:"):
            found[ids[-1].split(":")[4]] = sent.payload
    return found


def _dice(message: dict[str, Any]) -> list[tuple[str, int, str]]:
    """A side's dice buttons: (label, style, custom_id), then the throw button last."""
    return [
        (b["label"], b["style"], b["custom_id"])
        for row in message["components"]
        for b in row["components"]
    ]


def test_a_sides_dice_are_toggles_and_throw_again_sends_what_they_show(
    store: SqliteStore,
) -> None:
    async def go() -> None:
        harness = await _club(store)
        await harness.slash("ybs gang start", GM, fighters="Aki; Bo", opponents="Thug")
        harness.clear()
        await harness.slash("ybs gang throw", GM, faces="1,1,2,5,6", faces_gm="1,1,3,3,6")
        boards = _boards(harness)
        assert set(boards) == {"keep", "gm_keep"}
        players = boards["keep"]
        assert "%" in players["content"]  # the advisor's best keep, with its chance
        buttons = _dice(players)
        assert [label for label, _, _ in buttons[:5]] == ["1", "1", "2", "5", "6"]
        assert all(len(cid) <= 100 for _, _, cid in buttons)
        assert all(len(row["components"]) <= 5 for row in players["components"])
        assert len(players["components"]) <= 5
        advice = await _advised(harness, "players")
        kept = sorted(int(label) for label, style, _ in buttons[:5] if style == 3)
        assert kept == sorted(advice)  # the advised dice start kept (green)
        # Zoe (Aki's player) drops the last die she keeps, or keeps the 6
        harness.clear()
        last = buttons[4]
        await harness.bot.on_interaction(harness.button(last[2], ZOE))
        assert "run_command" not in harness.record.marks
        update = harness.record.sent[-1]
        assert update.payload["type"] == 7  # the message's buttons change, nothing else
        assert "content" not in update.payload["data"]  # the advice line stays as it was
        toggled = [
            (b["label"], b["style"], b["custom_id"])
            for row in update.payload["data"]["components"]
            for b in row["components"]
        ]
        assert toggled[4][1] == (2 if last[1] == 3 else 3)
        assert [t[1] for t in toggled[:4]] == [b[1] for b in buttons[:4]]
        shown = sorted(int(label) for label, style, _ in toggled[:5] if style == 3)
        assert shown != kept
        # another player's press on the GM's dice is refused to them alone
        harness.clear()
        gm_die = _dice(boards["gm_keep"])[0][2]
        await harness.bot.on_interaction(harness.button(gm_die, ANA))
        refusal = harness.record.sent[-1]
        assert refusal.ephemeral and refusal.payload.get("type") != 7
        # Throw again sends exactly the keep the buttons show
        harness.clear()
        before = TableService(store).state("Zinc").last_seq
        await harness.bot.on_interaction(harness.button(toggled[-1][2], ZOE))
        assert harness.record.marks.index("defer") < harness.record.marks.index("run_command")
        events = [e for e in TableService(store).state("Zinc").events if e.seq > before]
        # a player throws the players' side alone (the GM's dice come with the GM's throw)
        (throw,) = [e for e in events if e.kind in ("ybs.gang_side", "ybs.gang_throw")]
        assert throw.payload.get("side", "players") == "players"
        assert sorted(throw.payload["keep"]) == shown

    asyncio.run(go())


async def _advised(harness: Harness, side: str) -> list[int]:
    from tablee.systems import system_named

    game = system_named("ybs")
    state = TableService(harness.bot.service.store).state("Zinc")
    data = game.answer(state.game, game.command_named("gang advise")()).data
    return [int(f) for f in data["advice"][side][0]["keep"]]


def test_a_player_may_not_toggle_the_gms_dice_nor_throw_them(store: SqliteStore) -> None:
    async def go() -> None:
        harness = await _club(store)
        await harness.slash("ybs gang start", GM, fighters="Aki; Bo", opponents="Thug")
        await harness.slash("ybs gang throw", GM, faces="1,1,2,5,6", faces_gm="1,1,3,3,6")
        gm = _dice(_boards(harness)["gm_keep"])
        before = TableService(store).state("Zinc").last_seq
        for _, _, custom_id in (gm[0], gm[-1]):
            harness.clear()
            await harness.bot.on_interaction(harness.button(custom_id, ZOE))
            assert "run_command" not in harness.record.marks
            assert harness.record.sent[-1].ephemeral
            assert all(s.payload.get("type") != 7 for s in harness.record.sent)
        assert TableService(store).state("Zinc").last_seq == before
        # the game master toggles them
        harness.clear()
        await harness.bot.on_interaction(harness.button(gm[0][2], GM))
        assert harness.record.sent[-1].payload["type"] == 7

    asyncio.run(go())


def test_a_die_boards_custom_ids_stay_within_discords_limits() -> None:
    from tablee.discord.bot import DieBoard

    board = DieBoard("ybs", "gang.throw", "gm_keep", ["6"] * 20, ["6"] * 3)
    view = board.view("fr")
    assert view is not None
    ids = [item.custom_id for item in view.children if isinstance(item, discord.ui.Button)]
    assert len(ids) == 21 and len(set(ids)) == 21 and all(len(i) <= 100 for i in ids)
    rows = view.to_components()
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    labels = [item.label for item in view.children if isinstance(item, discord.ui.Button)]
    assert labels[-1] == "Relancer en gardant 6 6 6"
    parsed = DieBoard.parse(ids[-1])
    assert parsed is not None and parsed.keep_text() == "6,6,6"
    assert DieBoard("ybs", "gang.throw", "keep", ["6"] * 21).view("en") is None
    assert DieBoard.parse("tablee:die:ybs:gang.throw:keep:1,2:kr:7") is None
    toggled = DieBoard.parse("tablee:die:ybs:gang.throw:keep:1,2:kr:0")
    assert toggled is not None and toggled.toggled().keep_text() == "none"
