"""Game-master-only fields, French numbers and the "Done." line, over the web systems.

* Every `Field` marked ``gm_only`` of every action of every web system is left out of a
  player's page, and a player's post or odds request giving it a value other than its
  default is refused with 403 before anything is stored (docs/web.md, security model;
  W-Y9 for the Yuigahama gang fight's ``gm_keep`` and ``gm_faces``).
* Decimal numbers in the YBS odds use the decimal comma in French, the point in English.
* The log lines under "Done." start with a capital letter, in both languages.
"""

from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from tablee.locale.numbers import format_decimal as decimal_text
from tablee.systems import SYSTEM_IDS
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web.systems import Field, web_system
from tests.web.conftest import csrf_of, make_table
from tests.web.test_systems import act, fractions_in
from tests.web.test_web_ybs import ybs_table

KNOWN_GM_FIELDS = {
    ("pouyss", "roll", "imposed_bonus"),
    ("pouyss", "roll", "imposed_malus"),
    ("pouyss", "opposed", "imposed_bonus"),
    ("pouyss", "opposed", "imposed_malus"),
    ("shs", "test", "long_action"),
    ("ybs", "test", "assistants"),
    ("ybs", "test", "trait_approved"),
    ("ybs", "gang-throw", "gm_keep"),
    ("ybs", "gang-throw", "faces_gm"),
    ("ybs", "gang-throw", "side"),
    ("ybs", "ichika", "faces_gm"),
}
"""The game-master-only fields known when this test was written: the walk must meet them."""


def form_of(page: str, action_id: str) -> str | None:
    """The HTML of one action's form on a page, or None when the page has no such form."""
    found = re.search(rf'<form [^>]*action="[^"]*/act/{action_id}".*?</form>', page, re.S)
    return found.group(0) if found else None


def other_than_default(item: Field) -> str:
    """A value a form would not send by default for the field (the rules may refuse it)."""
    if item.kind == "int":
        return str(int(item.default or "0") + 1)
    if item.kind == "bool":
        return "" if item.default == "on" else "on"
    return "x" if item.default != "x" else "y"


def event_count(store: SqliteStore, table: str) -> int:
    return len(TableService(store).state(table).events)


@pytest.mark.parametrize("system_id", sorted(SYSTEM_IDS))
def test_gm_only_fields_are_hidden_from_players_and_refused(
    client: TestClient, store: SqliteStore, system_id: str
) -> None:
    links = make_table(store, system=system_id, name="Walk", players=("Zoé", "Ana"))
    player = links.players["Zoé"]
    player_page = client.get(player).text
    gm_page = client.get(links.gm).text
    web = web_system(system_id)
    assert web is not None
    met = set()
    for action in web.actions():
        for item in action.fields:
            if not item.gm_only:
                continue
            met.add((system_id, action.id, item.name))
            # the game master's form shows it (so the player's check below reads a real form)
            gm_form = form_of(gm_page, action.id)
            assert gm_form is not None and f'name="{item.name}"' in gm_form, action.id
            form = form_of(player_page, action.id)
            if "player" in action.roles:
                assert form is not None, action.id  # the player has this form...
                assert f'name="{item.name}"' not in form, (action.id, item.name)  # ...without it
            else:
                assert form is None, action.id
            before = event_count(store, "Walk")
            code, text = act(client, player, action.id, **{item.name: other_than_default(item)})
            assert code == 403, (action.id, item.name, text)
            if "player" in action.roles:
                # refused for this field, whatever else the form lacks
                assert f"only the game master may set {item.name}" in html.unescape(text)
            assert event_count(store, "Walk") == before
            if action.odds is not None and "player" in action.roles:
                odds = client.get(
                    f"{player}/odds/{action.id}", params={item.name: other_than_default(item)}
                ).text
                assert "odds-error" in odds and item.name in odds, (action.id, odds)
                assert fractions_in(odds) == []
    assert met == {k for k in KNOWN_GM_FIELDS if k[0] == system_id}


def test_a_player_chooses_none_of_the_gm_sides_gang_dice(
    client: TestClient, store: SqliteStore
) -> None:
    """The report: a player posting the GM side's faces and keep got 200 (W-Y9)."""
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    assert act(client, gm, "gang-start", fighters="Aki", opponents="Thug")[0] == 200
    form = form_of(client.get(a).text, "gang-throw")
    assert form is not None and 'name="keep"' in form
    assert 'name="gm_keep"' not in form and 'name="faces_gm"' not in form
    assert "gm_keep" in (form_of(client.get(gm).text, "gang-throw") or "")
    before = event_count(store, "club")
    code, text = act(client, a, "gang-throw", faces_gm="1,2,3,4,5", gm_keep="none")
    assert code == 403, text
    assert act(client, a, "gang-throw", gm_keep="none")[0] == 403
    assert act(client, a, "gang-throw", faces_gm="1,2,3,4,5")[0] == 403
    assert event_count(store, "club") == before
    # advised is what an empty field means: the player may send it, the GM's dice are rolled
    code, text = act(client, a, "gang-throw", faces="1,1,2,5,6")
    assert code == 200, text
    event = TableService(store).state("club").events[-1]
    assert event.payload["faces"] == [1, 1, 2, 5, 6]


# -- French numbers ------------------------------------------------------------------------------


def test_decimal_text_follows_the_language() -> None:
    assert decimal_text(Fraction(10, 3), "fr") == "3,33"
    assert decimal_text(Fraction(10, 3), "en") == "3.33"
    assert decimal_text(Fraction(7, 6), "fr", 3) == "1,167"
    assert decimal_text(3, "fr", 0) == "3"


DECIMAL_POINT = re.compile(r"\d\.\d")
DECIMAL_COMMA = re.compile(r"\d,\d")


def visible(fragment: str) -> str:
    """The text a reader sees (a meter's machine ``value="0.96"`` is no text)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


def test_ybs_odds_numbers_in_french_and_english(client: TestClient, store: SqliteStore) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]

    def odds(action: str, lang: str, **params: str) -> str:
        text = client.get(f"{a}/odds/{action}", params={"lang": lang, **params}).text
        assert "odds-error" not in text, text
        return visible(text)

    test = {"character": "Aki", "trait": "kiyousa"}
    fr, en = odds("test", "fr", **test), odds("test", "en", **test)
    # Kiyousa +1 fails on a natural 1 or 2 (1/3); 2 tokens: a reroll after the first failure,
    # another after the second: 1/3 + 1/9 = 4/9 expected rerolls
    assert Fraction(1, 3) + Fraction(1, 3) ** 2 == Fraction(4, 9)
    assert "relances attendues 0,444 (4/9)" in fr, fr
    assert "s'entêter : après chaque échec tant que durent les jetons" in fr, fr  # not 'any'
    assert "expected rerolls 0.444 (4/9)" in en, en
    assert not DECIMAL_POINT.search(fr), fr
    assert DECIMAL_POINT.search(en), en  # expected rerolls with decimals
    assert act(client, gm, "gang-start", fighters="Aki", opponents="Thug")[0] == 200
    fr, en = odds("gang-throw", "fr"), odds("gang-throw", "en")
    assert not DECIMAL_POINT.search(fr) and DECIMAL_COMMA.search(fr), fr
    assert DECIMAL_POINT.search(en) and not DECIMAL_COMMA.search(en), en
    code, text = act(client, gm, "gang-throw", faces="1,1,2,5,6", faces_gm="1,1,1,1,1")
    assert code == 200, text
    fr, en = odds("gang-throw", "fr"), odds("gang-throw", "en")
    # each keep's chance to win the race, with its tie and loss in the label (Y-X9)
    expected_fr = re.findall(r"\(égalité (\d+,\d)\u00a0%", fr)
    expected_en = re.findall(r"\(tie (\d+\.\d)%", en)
    assert expected_fr and len(expected_fr) == len(expected_en), (fr, en)
    assert [v.replace(",", ".") for v in expected_fr] == expected_en
    assert not DECIMAL_POINT.search(fr), fr
    assert "%" in fr and "\u00a0%" in fr  # the percentages, French style, beside them


def test_french_pages_of_every_system_show_no_decimal_point(
    client: TestClient, store: SqliteStore
) -> None:
    for system_id in sorted(SYSTEM_IDS):
        links = make_table(store, system=system_id, name=f"fr-{system_id}", players=("Zoé",))
        page = client.get(links.gm, params={"lang": "fr"}).text
        resources = re.search(r'id="resources".*?</section>', page, re.S)
        assert resources is not None, system_id
        assert not DECIMAL_POINT.search(visible(resources.group(0))), system_id


# -- "Done." and the line after it -------------------------------------------------------------


def post(client: TestClient, path: str, route: str, lang: str, **data: str) -> str:
    response = client.post(
        f"{path}/{route}", params={"lang": lang}, data={"csrf": csrf_of(client, path), **data}
    )
    assert response.status_code == 200, response.text
    return html.unescape(response.text)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_line_after_done_starts_with_a_capital(
    client: TestClient, store: SqliteStore, lang: str
) -> None:
    links = ybs_table(client, store)
    gm = links.gm
    done = {"fr": "Fait.", "en": "Done."}[lang]
    text = post(client, gm, "act/gang-start", lang, fighters="Aki", opponents="Thug")
    assert done in text
    lines = re.findall(r"<li>(.*?)</li>", text, re.S)
    assert lines and all(line[:1].isupper() for line in lines), lines
    last = TableService(store).state("club").last_seq
    text = post(client, gm, "undo", lang, last=str(last))
    lines = re.findall(r"<li>(.*?)</li>", text, re.S)
    assert done in text and lines, text
    assert all(line[:1].isupper() for line in lines), lines
    assert str(last) in lines[0]
