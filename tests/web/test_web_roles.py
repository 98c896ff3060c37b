"""Each link sees only what it may do: a player's page holds exactly the forms open to players.

* For every game, the forms on a player's page are the actions the table opens to players
  now (`Action.open_to`), a game master's command (its declared ``who``) is never among them,
  and a player's post to any other action is refused with 403 before anything is stored.
* YBS: stars, fight end and trait transfers are the game master's; the house rule
  ``player_transfers`` (default false; Y-M9, Tablée's decision) lets a player transfer a
  level of their own character, on the page, over the forms and over the JSON API.
"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tablee.systems import SYSTEM_IDS, system_named
from tablee.systems.declare import Query, Who
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web.declared import action_id
from tablee.web.systems import web_system
from tests.web.conftest import csrf_of, make_table
from tests.web.test_systems import act
from tests.web.test_web_ybs import ybs_table


def form_ids(page: str) -> set[str]:
    """The actions whose forms a page holds."""
    return set(re.findall(r'<form [^>]*action="[^"]*/act/([a-z0-9-]+)"', page))


def event_count(store: SqliteStore, table: str) -> int:
    return len(TableService(store).state(table).events)


@pytest.mark.parametrize("system_id", sorted(SYSTEM_IDS))
def test_a_player_page_shows_only_the_forms_open_to_players(
    client: TestClient, store: SqliteStore, system_id: str
) -> None:
    links = make_table(store, system=system_id, name="Walk", players=("Zoé", "Ana"))
    player = links.players["Zoé"]
    web = web_system(system_id)
    assert web is not None
    state = TableService(store).state("Walk")
    shown = form_ids(client.get(player).text)
    opened = {a.id for a in web.actions() if a.open_to(state, "player")}
    assert shown == opened
    assert form_ids(client.get(links.gm).text) == {a.id for a in web.actions()}
    game = system_named(system_id)
    gm_commands = {
        action_id(c) for c in game.commands if not issubclass(c, Query) and c.who is Who.GM
    }
    assert gm_commands and not gm_commands & shown
    for action in web.actions():
        if action.id in shown:
            continue
        before = event_count(store, "Walk")
        code, text = act(client, player, action.id)
        assert code == 403, (action.id, text)
        assert event_count(store, "Walk") == before


def test_ybs_stars_fight_end_and_transfers_belong_to_the_game_master(
    client: TestClient, store: SqliteStore
) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    shown = form_ids(client.get(a).text)
    assert {"star", "fight-end", "transfer", "trauma", "attributes"}.isdisjoint(shown)
    assert "transfer" in form_ids(client.get(gm).text)
    code, text = act(client, a, "transfer", character="Aki", lower="chikaku", raise_="chisei")
    assert code == 403, text
    headers = {"content-type": "application/json"}
    body = {"character": "Aki", "lower": "chikaku", "raise_": "chisei"}
    assert client.post(a + "/api/transfer", json=body, headers=headers).status_code == 403
    schema = {c["name"]: c for c in client.get(a + "/api").json()["commands"]}
    assert "transfer" not in schema
    assert TableService(store).state("club").game.characters["Aki"].trait("chisei") == 0
    code, text = act(client, gm, "transfer", character="Aki", lower="chikaku", raise_="chisei")
    assert code == 200, text
    assert TableService(store).state("club").game.characters["Aki"].trait("chisei") == 1


def test_the_house_rule_lets_a_player_transfer_their_own_levels(
    client: TestClient, store: SqliteStore
) -> None:
    links = ybs_table(client, store)
    gm, a = links.gm, links.players["A"]
    answer = client.post(
        gm + "/options", data={"csrf": csrf_of(client, gm), "set": "player_transfers=true"}
    )
    assert answer.status_code == 200, answer.text
    assert TableService(store).state("club").game.options.player_transfers is True
    form = re.search(r'<form [^>]*action="[^"]*/act/transfer".*?</form>', client.get(a).text, re.S)
    assert form is not None
    offered = re.findall(r'<option value="([^"]*)"', form.group(0))
    assert "Aki" in offered and "Bo" not in offered  # A's own characters only
    code, text = act(client, a, "transfer", character="Aki", lower="chikaku", raise_="chisei")
    assert code == 200, text
    assert TableService(store).state("club").game.characters["Aki"].trait("chisei") == 1
    code, text = act(client, a, "transfer", character="Bo", lower="nintai", raise_="chisei")
    assert code == 403, text  # another player's character
    headers = {"content-type": "application/json"}
    schema = {c["name"]: c for c in client.get(a + "/api").json()["commands"]}
    assert schema["transfer"]["who"] == "actor"
    body = {"character": "Aki", "lower": "kiyousa", "raise_": "chisei"}
    answer = client.post(a + "/api/transfer", json=body, headers=headers)
    assert answer.status_code == 200, answer.text
    assert TableService(store).state("club").game.characters["Aki"].trait("chisei") == 2
    assert "star" not in form_ids(client.get(a).text)  # the rule opens transfers only
