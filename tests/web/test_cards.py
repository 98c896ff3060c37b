"""Roll cards: each game's card data for a roll, the card's HTML, and hidden rolls (no card).

The dice, marks, results and consequences expected here are read from the rules texts:
Pouyss's worked example (seed 000, "Bonus et malus": 1, 4, 5, 6 with two malus dice, the 5
and the 6 removed, the 4 read, a Succès), SHS's PS count (seed 003: a die at its threshold
or above is 1 PS, a '+' of a Bonus adds 1), YBS's straight (seed 004: four consecutive
faces), agents' action (seed 002: 4 to 6 a success, the opposition loses 1).
"""

from __future__ import annotations

import html
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tablee.dice import TypedFaces
from tablee.systems.plugin import MARKS, TONES, Card, Shown
from tablee.systems.pouyss.commands import Roll, StartSession
from tablee.systems.shs.commands import CreateProtagonist
from tablee.systems.shs.commands import TestCommand as ShsTest
from tablee.table.links import hash_token
from tablee.table.projection import fold
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.table.transcript import parse_jsonl
from tablee.web.access import Viewer
from tablee.web.cards import card_view
from tablee.web.render import entry_html, stream_fragment
from tests.web.conftest import Links, make_table
from tests.web.test_systems import act

DICE = ("d6", "d8", "d10", "dpm")


def last_card(store: SqliteStore, table: str) -> Card | None:
    """The card the game gives for the table's last event."""
    state = TableService(store).state(table)
    event = state.events[-1]
    typed = state.system.event_of(event.kind, state.payload_of(event))
    card: Card | None = state.system.card(typed, state.after.get(event.seq))
    return card


def text(value: Any) -> str:
    return value if isinstance(value, str) else str(value.render(lambda s: s))


def viewer(store: SqliteStore, path: str, table: str, lang: str = "en") -> Viewer:
    link = store.find_link(hash_token(path.removeprefix("/t/")))
    assert link is not None
    return Viewer(link, table, lang)


def pouyss_table(store: SqliteStore) -> Links:
    links = make_table(store)  # Zinc, for Zoé and Ana
    service = TableService(store)
    service.run_command("Zinc", StartSession(cagnotte=4), None)
    return links


def test_a_pouyss_card_is_the_worked_example(store: SqliteStore) -> None:
    pouyss_table(store)
    TableService(store).run_command(
        "Zinc", Roll(player="Zoé", bonus=1, malus=2), TypedFaces([1, 4, 5, 6])
    )
    card = last_card(store, "Zinc")
    assert card is not None
    dice = card.groups[0].dice
    assert dice == (
        Shown("d6", 1),
        Shown("d6", 4, "scores"),
        Shown("d6", 5, "removed"),
        Shown("d6", 6, "removed"),
    )
    assert text(card.result) == "4 Succès" and card.tone == "success"
    # a bonus die drawn from 4, two malus dice put in: 4 - 1 + 2 = 5
    assert [text(c) for c in card.consequences] == ["Cagnotte: 4 → 5 (−1 drawn, +2 put back)"]
    assert card.odds is not None
    # 4 dice, the 2 highest removed: the 2nd lowest of 4 d6 is 4 or more
    worse = sum(1 for n in range(6**4) if sorted(_digits(n))[1] >= 4)
    assert card.odds.success == Fraction(worse, 6**4)


def _digits(n: int) -> list[int]:
    return [n // 6**k % 6 + 1 for k in range(4)]


def test_pouyss_levels_have_their_own_tones(store: SqliteStore) -> None:
    pouyss_table(store)
    service = TableService(store)
    tones = {}
    for face in range(1, 7):
        service.run_command("Zinc", Roll(player="Ana"), TypedFaces([face]))
        card = last_card(store, "Zinc")
        assert card is not None
        tones[text(card.result)] = card.tone
    assert tones == {
        "1 Désastre": "fumble",
        "2 Défaite": "failure",
        "3 Revers": "setback",
        "4 Succès": "success",
        "5 Victoire": "great",
        "6 Triomphe": "critical",
    }


def shs_table(store: SqliteStore) -> None:
    service = TableService(store)
    service.create(system="shs", name="film", players=["Zoé"], lang="en")
    service.run_command(
        "film",
        CreateProtagonist(
            protagonist="Jake",
            carrure="6",
            motricite="7",
            science="5",
            relationnel="8",
            sang_froid="6",
            player="Zoé",
            expertises=("Mécanique",),
        ),
        None,
    )


def test_an_shs_card_marks_the_ps_and_the_dpm(store: SqliteStore) -> None:
    shs_table(store)
    service = TableService(store)
    # Bonus 2, Malus 1: net Bonus 1, one D+/- read for its '+'
    service.run_command(
        "film",
        ShsTest(protagoniste="Jake", characteristic="science", difficulty="3", bonus=2, malus=1),
        TypedFaces([7, 3, 5, 1]),
    )
    card = last_card(store, "film")
    assert card is not None
    assert card.groups[0].dice == (
        Shown("d8", 7, "scores"),
        Shown("d8", 3, "missed"),
        Shown("d8", 5, "scores"),
        Shown("dpm", 1, "scores"),
    )
    assert text(card.result) == "Success: 3 PS against Difficulty 3"
    assert card.tone == "success" and card.odds is not None and card.odds.success is not None
    # a perfect Expertise throws D10; Se Surpasser's price is NT +1; a blank D+/- counts nothing
    service.run_command(
        "film",
        ShsTest(
            protagoniste="Jake",
            characteristic="carrure",
            difficulty="3",
            expertise="Mécanique",
            option=("surpasser",),
        ),
        TypedFaces([9, 2, 4, 1, 0]),
    )
    card = last_card(store, "film")
    assert card is not None
    assert [d.die for d in card.groups[0].dice] == ["d10", "d10", "d10", "dpm", "dpm"]
    assert [d.mark for d in card.groups[0].dice] == [
        "scores",
        "missed",
        "missed",
        "scores",
        "missed",
    ]
    assert text(card.result) == "Failure: 2 PS against Difficulty 3" and card.tone == "failure"
    assert [text(c) for c in card.consequences] == ["Jake: NT +1 (Se Surpasser)"]


def ybs_table(client: TestClient, store: SqliteStore) -> Links:
    links = make_table(store, system="ybs", name="club", players=("A", "B"))
    gm, a = links.gm, links.players["A"]
    assert act(client, a, "character-create", character="Aki", player="A", choushi="1")[0] == 200
    assert act(client, gm, "character-create", character="Bo", player="B")[0] == 200
    assert act(client, gm, "character-create", character="Thug", choushi="1")[0] == 200
    assert act(client, gm, "session-start")[0] == 200
    return links


def test_ybs_cards_of_a_test_and_a_gang_fight(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    assert act(client, a, "test", character="Aki", trait="choushi", faces="6")[0] == 200
    card = last_card(store, "club")
    assert card is not None
    assert card.groups[0].dice == (Shown("d6", 6, "scores"),)
    assert text(card.result) == "Success: die 6, result 7" and card.tone == "success"
    assert card.odds is not None and card.odds.success is not None
    assert act(client, gm, "gang-start", fighters="Aki\nBo", opponents="Thug")[0] == 200
    code, page = act(client, gm, "gang-throw", faces="1,1,2,5,6", faces_gm="1,1,3,3,6")
    assert code == 200, page
    card = last_card(store, "club")
    assert card is not None and card.tone == "neutral"
    assert card.odds is not None and card.odds.success is not None  # the players' win
    code, page = act(
        client, gm, "gang-throw", keep="1,2,5,6", faces="4", gm_keep="1,3,6", faces_gm="2,4"
    )
    assert code == 200, page
    card = last_card(store, "club")
    assert card is not None
    players, gms = card.groups
    assert [d.mark for d in players.dice] == ["held"] * 4 + [""]  # 1 2 4 5 6: no straight
    # the GM's 1, 3, 6 kept, 2 and 4 thrown: the straight 1-2-3-4 with the new 2 and 4
    assert gms.dice == (
        Shown("d6", 1, "held"),
        Shown("d6", 3, "held"),
        Shown("d6", 6, "held"),
        Shown("d6", 2, "scores"),
        Shown("d6", 4, "scores"),
    )
    assert card.tone == "failure" and "The GM's side wins" in text(card.result)
    crossed = [text(c) for c in card.consequences]
    assert crossed and all("Uchimi" in c for c in crossed)
    assert any(c.startswith("Aki: ") for c in crossed)


def test_an_agents_card_shows_the_d6_and_the_score(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store, system="agents", name="ops", players=("Ana", "Bo"))
    ana, gm = links.players["Ana"], links.gm
    assert act(client, ana, "agent", name="Vega", owner="Ana", muscles="7", sexe="5",
               intelligence="3", organisation="B9", signature="a pen")[0] == 200  # fmt: skip
    assert (
        act(client, gm, "challenge", kind="sexe", agents="Vega", oppositions="the duke:3")[0] == 200
    )
    assert act(client, ana, "act", agent="Vega", faces="4")[0] == 200
    card = last_card(store, "ops")
    assert card is not None
    assert card.groups[0].dice == (Shown("d6", 4, "scores"),)
    assert text(card.result) == "Success: 4" and card.tone == "success"  # no modifier: no "+0"
    assert [text(c) for c in card.consequences] == ["the duke: −1 → 2"]
    assert card.odds is not None and card.odds.success == Fraction(1, 2)  # 4, 5 or 6
    assert [text(label) for label, _ in card.odds.rows] == [
        "critical (opposition -2)",
        "success (opposition -1)",
        "failure (reserve -1)",
        "the agents win the challenge",
    ]
    # no modifier: a total of 4 to 6 is a success, a critical needs more than a d6 alone
    assert [chance for _, chance in card.odds.rows][:3] == [0, Fraction(1, 2), Fraction(1, 2)]
    assert act(client, ana, "act", agent="Vega", faces="2")[0] == 200
    card = last_card(store, "ops")
    assert card is not None and card.tone == "failure"
    assert [text(c) for c in card.consequences] == ["Vega's Sexe: −1 → 4"]


def test_a_cards_html_has_its_dice_result_odds_and_consequences(store: SqliteStore) -> None:
    links = pouyss_table(store)
    TableService(store).run_command(
        "Zinc", Roll(player="Zoé", bonus=1, malus=2), TypedFaces([1, 4, 5, 6])
    )
    state = TableService(store).state("Zinc")
    page = html.unescape(entry_html(state.events[-1], state, viewer(store, links.gm, "Zinc")))
    assert 'class="roll-card tone-success"' in page
    for label in ("d6: 1", "d6: 4, counts", "d6: 5, removed", "d6: 6, removed"):
        assert f'aria-label="{label}"' in page
    assert page.count('class="pip"') == 1 + 4 + 5 + 6
    assert "4 Succès" in page
    assert "Chance of success before rolling: 31.2%" in page  # 5/16
    assert "Cagnotte: 4 → 5" in page
    french = html.unescape(
        entry_html(state.events[-1], state, viewer(store, links.gm, "Zinc", "fr"))
    )
    assert 'aria-label="d6 : 5, retiré"' in french
    # dice and odds are drawn once per kind and language, then reused: a second drawing
    # is the same, and the French one keeps its own words and numbers
    again = entry_html(state.events[-1], state, viewer(store, links.gm, "Zinc"))
    assert html.unescape(again) == page
    assert "31,2" in french and "31.2" not in french and "counts" not in french
    # a card arrives live with its animation class; the page's own entries do not
    assert " fresh" in stream_fragment(
        [state.events[-1]], state, viewer(store, links.gm, "Zinc"), {}
    )
    assert " fresh" not in page


def test_an_event_without_recorded_odds_shows_none(store: SqliteStore) -> None:
    links = pouyss_table(store)
    TableService(store).run_command("Zinc", Roll(player="Zoé"), TypedFaces([5]))
    state = TableService(store).state("Zinc")
    event = state.events[-1]
    older = type(event)(**{**event.__dict__, "payload": {**event.payload, "odds": None}})
    page = entry_html(older, state, viewer(store, links.gm, "Zinc"))
    assert "roll-card" in page and "before rolling" not in page


def test_a_hidden_roll_shows_no_card_to_who_may_not_see_it(store: SqliteStore) -> None:
    links = pouyss_table(store)
    TableService(store).run_command(
        "Zinc", Roll(player="Zoé", bonus=1), TypedFaces([2, 6]), visibility="roller_and_gm"
    )
    state = TableService(store).state("Zinc")
    event = state.events[-1]
    for path in (links.players["Ana"], links.spectator):
        seen = viewer(store, path, "Zinc")
        for page in (entry_html(event, state, seen), stream_fragment([event], state, seen, {})):
            entry = page.split("</li>")[0]  # the log entry (the resources panel follows)
            assert "roll-card" not in entry and "aria-label" not in entry
            assert "Triomphe" not in entry and "Cagnotte" not in entry
            assert "6" not in entry.split("</time>")[1]  # no face, no level
    for path in (links.players["Zoé"], links.gm):
        page = entry_html(event, state, viewer(store, path, "Zinc"))
        assert "roll-card" in page and "6 Triomphe" in page


LOGS = [
    *sorted((Path(__file__).resolve().parents[1] / "golden").glob("*.jsonl")),
    *sorted((Path(__file__).resolve().parents[1] / "fixtures" / "v0_1_0").glob("*.jsonl")),
]


@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_stored_roll_gives_a_well_formed_card(log: Path) -> None:
    """The logs of every game, as 0.1.0 and this release wrote them: each rolled event a card.

    Events that recorded no odds (0.1.0's) have cards without odds; no card has a tone or a
    mark the web layer does not draw, and each renders in both languages.
    """
    state = fold(parse_jsonl(log.read_text(encoding="utf-8")))
    cards = 0
    for event in state.events:
        if event.kind not in state.system.kinds():
            continue
        typed = state.system.event_of(event.kind, state.payload_of(event))
        card = state.system.card(typed, state.after.get(event.seq))
        if card is None:
            continue
        cards += 1
        assert card.tone in TONES and card.groups
        assert all(d.mark in MARKS and d.die in DICE for g in card.groups for d in g.dice)
        if "odds" not in state.payload_of(event) or state.payload_of(event)["odds"] is None:
            assert card.odds is None
        for lang in ("en", "fr"):
            assert card_view(card, lang)["result"]
    assert cards > 0
