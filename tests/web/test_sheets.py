"""Sheets drawn as a player lays them on the table: each game's counted resources as gauges.

What each gauge must hold comes from the rules texts: an SHS Protagoniste's Santé out of its
maximum, its Air and its Tension (NT) cards (seed 003, S-A9, S-A10); a YBS character's Unmei
tokens and the game master's bag (seed 004, Y-M2); an agent's three reserves out of their
starting values and Sang 3 (seed 002, G-N1); the Pouyss cagnotte (seed 000, P-M3).
"""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tablee.dice import TypedFaces
from tablee.systems.agents.commands import CreateAgent
from tablee.systems.plugin import Gauge, Panel
from tablee.systems.pouyss.commands import Roll, StartSession
from tablee.systems.shs.commands import CreateProtagonist, EditCounters
from tablee.systems.ybs.commands import CreateCharacter, Damage
from tablee.systems.ybs.commands import StartSession as YbsStart
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import make_table

GAUGE = re.compile(
    r'<div class="gauge (?P<kind>\w+)(?P<low> low)?">\s*<span class="gauge-label">(?P<label>[^<]*)'
    r'</span>\s*<span class="units"[^>]*>(?P<units>.*?)</span>\s*'
    r'<span class="gauge-value">(?P<value>[^<]*)</span>'
)


def drawn(page: str, sheet: str | None = None) -> dict[str, tuple[str, int, int, str]]:
    """Each gauge of a sheet (or of the whole page) by label: kind, units, spent units, count."""
    if sheet is not None:
        start = page.index(f'data-sheet="{sheet}"')
        page = page[start : page.index("</details>", start)]
    found = {}
    for m in GAUGE.finditer(page):
        units = m["units"]
        found[m["label"]] = (
            m["kind"],
            units.count('class="unit'),
            units.count('class="unit spent"'),
            m["value"],
        )
    return found


def gauges_of(store: SqliteStore, table: str) -> list[tuple[str, tuple[Gauge, ...]]]:
    state = TableService(store).state(table)
    panels: tuple[Panel, ...] = state.system.panels(state.game)
    return [(str(p.title), p.gauges) for p in panels]


def test_an_shs_protagoniste_shows_sante_as_a_bar_air_as_tokens_and_nt_as_cards(
    store: SqliteStore, client: TestClient
) -> None:
    links = make_table(store, "shs", "Nostromo", ("Ana", "Bob"))
    service = TableService(store)
    thresholds = {"carrure": "5+", "motricite": "6+", "science": "7+", "relationnel": "8+"}
    service.run_command(
        "Nostromo",
        CreateProtagonist(protagonist="Ripley", sang_froid="6+", player="Ana", air=4, **thresholds),
        None,
    )
    maximum = service.state("Nostromo").game.protagonists["Ripley"].sante_max
    service.run_command("Nostromo", EditCounters(protagonist="Ripley", sante=-3), None)
    service.run_command("Nostromo", EditCounters(protagonist="Ripley", set_nt=2), None)

    page = client.get(links.players["Ana"]).text
    shown = drawn(page, "Ripley")
    assert shown["Santé"] == ("bar", maximum, 3, f"{maximum - 3}/{maximum}")
    assert shown["Air"] == ("tokens", 4, 0, "4")
    assert shown["NT"] == ("cards", 2, 0, "2")
    # A folded sheet (Bob's page) reads the same counts beside the name.
    other = client.get(links.players["Bob"]).text
    folded = other[other.index('data-sheet="Ripley"') :]
    folded = folded[: folded.index("</summary>")]
    assert f'<span class="value">{maximum - 3}/{maximum}</span>' in folded


def test_a_low_bar_is_marked_low_at_a_third_or_less() -> None:
    # 4 of 12 is a third: low; 5 of 12 is not.
    from tablee.web.render import render
    from tablee.web.systems import Panel as WebPanel

    def page(value: int) -> str:
        panel = WebPanel("Ripley", [], gauges=[Gauge("Santé", value, 12)], sheet=True)
        return render("_resources.html", "en", panels=[panel], mine=(True,), oob=False)

    assert 'class="gauge bar low"' in page(4)
    assert 'class="gauge bar"' in page(5)
    assert drawn(page(0))["Santé"] == ("bar", 12, 12, "0/12")


def test_ybs_unmei_tokens_are_tokens_on_the_sheet_and_the_table(
    store: SqliteStore, client: TestClient
) -> None:
    links = make_table(store, "ybs", "Yuigahama", ("Ana", "Bob"))
    service = TableService(store)
    service.run_command("Yuigahama", CreateCharacter(character="Kenji", player="Ana"), None)
    service.run_command("Yuigahama", YbsStart(), None)
    tokens = service.state("Yuigahama").game.ledger.players["Ana"]
    bag = service.state("Yuigahama").game.ledger.gm
    assert tokens > 0 and bag > 12

    service.run_command("Yuigahama", Damage(character="Kenji", uchimi=1, kega=1), None)
    total = service.state("Yuigahama").game.characters["Kenji"].hit_points

    page = client.get(links.players["Ana"]).text
    sheet = drawn(page, "Kenji")
    assert sheet["Unmei tokens"] == ("tokens", tokens, 0, str(tokens))
    # Y-M5: one box per hit point, an Uchimi marked '/', a Kega 'X' (seed 004).
    assert sheet["Uchimi / Kega"] == ("boxes", total, 0, f"1 / 1 ({total})")
    kenji = page[page.index('data-sheet="Kenji"') :]
    assert f'aria-label="1 Uchimi, 1 Kega, {total - 2} free"' in kenji
    marks = re.findall(r'<span class="unit box( marked)?" aria-hidden="true">([/X]?)</span>', kenji)
    assert [m for _, m in marks[:total]] == ["/", "X"] + [""] * (total - 2)
    table = drawn(page)
    assert table["Unmei tokens of Ana"] == ("tokens", tokens, 0, str(tokens))
    # The bag is drawn as 12 tokens at most; its count says how many there are.
    assert table["Unmei tokens of the GM"] == ("tokens", 12, 0, str(bag))
    assert "…" in page[page.index("Unmei tokens of the GM") :].split("gauge-value")[0]


def test_an_agents_reserves_are_bars_of_their_starting_values_and_sang_three_tokens(
    store: SqliteStore, client: TestClient
) -> None:
    links = make_table(store, "agents", "Opération", ("Ana", "Bob"))
    TableService(store).run_command(
        "Opération",
        CreateAgent(
            organisation="Bureau 9",
            signature="a lighter",
            name_="Mara",
            muscles=3,
            sexe=7,
            intelligence=5,
        ),
        None,
    )
    shown = drawn(client.get(links.gm).text, "Mara")
    assert shown["Muscles"] == ("bar", 3, 0, "3/3")
    assert shown["Sexe"] == ("bar", 7, 0, "7/7")
    assert shown["Intelligence"] == ("bar", 5, 0, "5/5")
    assert shown["Sang"] == ("tokens", 3, 0, "3/3")


def test_the_pouyss_cagnotte_is_a_pile_of_dice_that_follows_the_rolls(
    store: SqliteStore, client: TestClient
) -> None:
    links = make_table(store)  # Zinc, for Zoé and Ana
    service = TableService(store)
    assert ("Table", ()) in gauges_of(store, "Zinc")  # no session yet: no cagnotte to draw
    service.run_command("Zinc", StartSession(cagnotte=4), None)
    assert drawn(client.get(links.gm).text)["Cagnotte"] == ("dice", 4, 0, "4")
    # P-M3: a bonus die drawn from the cagnotte, two malus dice put in: 4 - 1 + 2 = 5.
    service.run_command("Zinc", Roll(player="Zoé", bonus=1, malus=2), TypedFaces([1, 4, 5, 6]))
    assert drawn(client.get(links.gm).text)["Cagnotte"] == ("dice", 5, 0, "5")
