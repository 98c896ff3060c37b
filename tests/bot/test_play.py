"""Playing through the bot: secrecy, races, the relay, buttons, languages, autocomplete."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from tablee.systems.pouyss.commands import Roll, StartSession
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.bot.conftest import ANA, CHANNEL, GM, ZOE, Harness, Record, seated


def _deferred_first(harness: Harness) -> None:
    marks = harness.record.marks
    assert marks and marks[0] == "defer", marks


def test_a_secret_roll_is_never_in_a_public_send(store: SqliteStore) -> None:
    async def go() -> None:
        harness, _table = await seated(store)
        await harness.slash("pouyss session start", GM, cagnotte=3)
        harness.clear()
        await harness.slash("pouyss roll", ZOE, bonus=1, faces="2,5", visibility="roller_and_gm")
        assert harness.record.marks.index("defer") < harness.record.marks.index("run_command")
        assert harness.public() == []
        answers = harness.record.of("followup")
        assert len(answers) == 1 and answers[0].ephemeral
        assert "2, 5" in answers[0].text()  # the roller reads their dice
        dms = harness.direct()
        assert len(dms) == 1 and "2, 5" in dms[0].text()  # the GM by direct message
        assert harness.record.of("open_dm")[0].payload["recipient_id"] == GM
        # the relay does not post it either, now or later
        harness.clear()
        assert await harness.bot.relay_once() == 0
        assert harness.public() == []

    asyncio.run(go())


def test_a_blind_roll_goes_to_the_gm_alone_and_its_follow_up_is_refused(store: SqliteStore) -> None:
    async def go() -> None:
        harness, _ = await seated(store)
        await harness.slash("pouyss session start", GM, cagnotte=3)
        harness.clear()
        await harness.slash("pouyss roll", ZOE, faces="4", visibility="gm")
        assert harness.record.marks == ["reply"]  # refused at once, to Zoé alone
        assert harness.record.sent[0].ephemeral
        assert "blind" in harness.record.sent[0].text()
        harness.clear()
        await harness.slash("pouyss roll", GM, player="Zoé", faces="4", visibility="gm")
        assert harness.public() == []
        assert harness.direct() == []  # the GM rolled it: nobody else is told
        assert "4" in harness.record.of("followup")[0].text()

    asyncio.run(go())


def _race_on(db: Path, user: int, barrier: threading.Barrier, out: dict[int, Record]) -> None:
    async def go() -> None:
        store = SqliteStore(db)
        try:
            record = Record()
            harness = Harness(store, record)  # its own bot and connection: two processes
            interaction = harness.command("pouyss roll", user, bonus=1)
            barrier.wait()
            await harness.bot.tree._call(interaction)
            out[user] = record
        finally:
            store.close()

    asyncio.run(go())


def test_two_users_spend_the_last_cagnotte_die_exactly_one_succeeds(
    store: SqliteStore, tmp_path: Path
) -> None:
    asyncio.run(seated(store))
    TableService(store).run_command("Zinc", StartSession(cagnotte=1))
    barrier = threading.Barrier(2)
    out: dict[int, Record] = {}
    threads = [
        threading.Thread(target=_race_on, args=(tmp_path / "bot.sqlite3", u, barrier, out))
        for u in (ZOE, ANA)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert set(out) == {ZOE, ANA}
    rolled = [u for u, r in out.items() if not r.of("delete_original")]
    refused = [u for u, r in out.items() if r.of("delete_original")]
    assert len(rolled) == 1 and len(refused) == 1
    error = out[refused[0]].of("followup")[-1]
    assert error.ephemeral and "cagnotte" in error.text().lower()
    state = TableService(store).state("Zinc")
    assert [e.kind for e in state.events][-1] == "pouyss.roll"
    assert state.game.cagnotte == 0
    assert sum(e.kind == "pouyss.roll" for e in state.events) == 1


def test_a_bound_channel_receives_what_the_web_stores_in_order_once(store: SqliteStore) -> None:
    async def go() -> None:
        harness, _ = await seated(store)
        web = TableService(store, remember_last=False)  # as the web table runs commands
        web.run_command("Zinc", StartSession(cagnotte=2))
        web.run_command("Zinc", Roll(player="Ana", bonus=1), _faces("3,6"))
        web.run_command("Zinc", Roll(player="Zoé"), _faces("2"), visibility="roller_and_gm")
        web.run_command("Zinc", Roll(player="Zoé"), _faces("5"))
        assert await harness.bot.relay_once() == 4
        posted = [s for s in harness.public()]
        assert len(posted) == 3
        assert "Ana" in posted[1].text() and "3, 6" in posted[1].text()
        assert "5" in posted[2].text()
        assert len(harness.direct()) == 1  # the secret one, to the GM
        footers = [s.payload["embeds"][0]["footer"]["text"] for s in posted]
        assert [f.split(" ")[0] for f in footers] == ["#2", "#3", "#5"]
        harness.clear()
        assert await harness.bot.relay_once() == 0  # never doubled
        # what the bot answered itself is not posted again by the relay
        await harness.slash("pouyss roll", ZOE, faces="6")
        harness.clear()
        assert await harness.bot.relay_once() == 0
        assert harness.bot.bindings.binding(CHANNEL).posted == 6

    asyncio.run(go())


def _faces(text: str) -> Any:
    from tablee.dice import TypedFaces, typed_faces

    return TypedFaces(typed_faces(text))


def test_odds_preview_is_deferred_before_reading_the_table_and_shown_to_the_asker(
    store: SqliteStore,
) -> None:
    async def go() -> None:
        harness, _ = await seated(store)
        await harness.slash("pouyss session start", GM, cagnotte=3)
        harness.clear()
        await harness.slash("pouyss roll", ZOE, bonus=1, odds=True)
        _deferred_first(harness)
        assert harness.record.marks.index("defer") < harness.record.marks.index("state")
        assert "run_command" not in harness.record.marks
        assert harness.public() == []
        assert "%" in harness.record.of("followup")[0].text()

    asyncio.run(go())


def test_french_from_the_users_locale(store: SqliteStore) -> None:
    async def go() -> None:
        harness, _ = await seated(store)
        await harness.slash("pouyss session start", GM, cagnotte=3)
        harness.clear()
        await harness.slash("pouyss roll", ZOE, "fr", faces="4")
        text = harness.record.of("followup")[0].text()
        assert "Résultat" in text or "lance" in text, text

    asyncio.run(go())


def test_a_player_cannot_act_for_another_and_errors_stay_private(store: SqliteStore) -> None:
    async def go() -> None:
        harness, _ = await seated(store)
        await harness.slash("pouyss session start", ZOE, cagnotte=3)
        # the "thinking" message holds nothing and is deleted; the refusal is Zoé's alone
        assert [s.payload for s in harness.public()] == [{"type": 5}]
        assert harness.record.of("delete_original")
        assert harness.record.sent[-1].ephemeral
        assert "game master" in harness.record.sent[-1].text()
        harness.clear()
        await harness.slash("pouyss roll", ZOE, player="Ana", faces="4")
        assert [s.kind for s in harness.record.sent] == ["defer", "delete_original", "followup"]
        assert harness.record.sent[-1].ephemeral
        assert "run_command" not in harness.record.marks

    asyncio.run(go())


def test_autocomplete_lists_a_players_own_name(store: SqliteStore) -> None:
    async def go() -> None:
        harness, _ = await seated(store)
        interaction = harness.command("pouyss roll", ZOE, focused="player", player="")
        await harness.bot.tree._call(interaction)
        answer = harness.record.of("autocomplete")[0].payload["data"]["choices"]
        assert [c["value"] for c in answer] == ["Zoé"]
        harness.clear()
        interaction = harness.command("pouyss roll", GM, focused="player", player="a")
        await harness.bot.tree._call(interaction)
        answer = harness.record.of("autocomplete")[0].payload["data"]["choices"]
        assert [c["value"] for c in answer] == ["Ana"]

    asyncio.run(go())


def test_a_wrong_link_claims_nothing(store: SqliteStore) -> None:
    async def go() -> None:
        harness, table = await seated(store)
        await harness.bot.on_interaction(
            harness.modal(f"tablee:claim:{table.table_id}", "https://x/t/" + "A" * 43, 42)
        )
        assert harness.bot.bindings.seat(table.table_id, 42) is None
        assert harness.record.sent[-1].ephemeral
        # a player's link does not bind a channel
        await harness.bot.on_interaction(
            harness.modal(f"tablee:bind:{table.table_id}", table.links["Ana"], 43)
        )
        assert harness.bot.bindings.seat(table.table_id, 43) is None

    asyncio.run(go())


def test_the_undo_button_is_the_game_masters(store: SqliteStore) -> None:
    async def go() -> None:
        harness, _ = await seated(store)
        await harness.slash("pouyss session start", GM, cagnotte=3)
        await harness.slash("pouyss roll", ZOE, faces="4")
        harness.clear()
        await harness.bot.on_interaction(harness.button("tablee:undo:3", ZOE))
        assert harness.record.sent[-1].ephemeral
        await harness.bot.on_interaction(harness.button("tablee:undo:3", GM))
        state = TableService(store).state("Zinc")
        assert 3 in state.voided

    asyncio.run(go())
