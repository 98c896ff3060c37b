"""Forms added so that every command-line action of the four systems has one at the web table.

Each form: it works for the role allowed (the stored state checked against the text typed,
not against the code under test), it is refused for the other roles with nothing stored,
and a bad input is refused with nothing stored. The parity table is in ``docs/web.md``.
"""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from tablee.systems import shs
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import csrf_for, make_table
from tests.web.test_systems import act

SHEETS_TOML = """
[[protagonistes]]
nom = "Ellen"
joueur = "Ripley"
carrure = "6+"
"motricité" = 7
science = "7+"
relationnel = 5
sang-froid = "8+"
expertises = ["Pilote", "Mécanique"]
protection = 2
air = 3

[[protagonistes]]
name = "Mother"
carrure = 8
motricite = 8
science = 5
relationnel = 8
sang_froid = 5
"""


def post_as(client: TestClient, store: SqliteStore, path: str, action: str, **data: str) -> int:
    """Post a form as any link (a spectator's page shows no form token), its status code."""
    form = {"csrf": csrf_for(client, store, path), **data}
    return client.post(f"{path}/act/{action}", data=form).status_code


def _count(store: SqliteStore) -> int:
    return len(TableService(store).state("Nostromo").events)


def test_shs_protagoniste_import(client: TestClient, store: SqliteStore) -> None:
    """``tablee shs protagoniste import``: the GM's (W-S1); all the sheets or none."""
    links = make_table(store, system="shs", name="Nostromo", players=("Ripley", "Ash"))
    gm, ripley = links.gm, links.players["Ripley"]
    before = _count(store)
    for path in (ripley, links.players["Ash"], links.spectator):
        code = post_as(client, store, path, "protagoniste-import", format="toml", file=SHEETS_TOML)
        assert code == 403
    assert _count(store) == before
    assert "act/protagoniste-import" in client.get(gm).text
    assert "act/protagoniste-import" not in client.get(ripley).text  # not offered to a player
    code, text = act(client, gm, "protagoniste-import", format="toml", file=SHEETS_TOML)
    assert code == 200, text
    game = TableService(store).state("Nostromo").game
    assert list(game.protagonists) == ["Ellen", "Mother"]
    ellen, mother = (shs.protagonist_json(game, n) for n in ("Ellen", "Mother"))
    assert ellen["owner"] == "Ripley" and mother["owner"] is None
    assert ellen["expertises"] == ["Pilote", "Mécanique"]
    assert (ellen["protection"], ellen["air"], ellen["nt"]) == (2, 3, 0)
    typed = {"carrure": 6, "motricite": 7, "science": 7, "relationnel": 5, "sang_froid": 8}
    assert {t: ellen[t] for t in typed} == typed
    assert {t: mother[t] for t in typed} == {
        "carrure": 8, "motricite": 8, "science": 5, "relationnel": 8, "sang_froid": 5,
    }  # fmt: skip
    assert "Ellen" in client.get(links.spectator).text
    # JSON works too, one sheet alone
    one = {"name": "Ash", "player": "Ash", **{t: "6+" for t in typed}}
    code, text = act(client, gm, "protagoniste-import", file=json.dumps(one))  # auto: JSON
    assert code == 200, text
    assert TableService(store).state("Nostromo").game.owners["Ash"] == "Ash"


def test_shs_protagoniste_import_refusals_store_nothing(
    client: TestClient, store: SqliteStore
) -> None:
    """Bad texts and bad sheets are refused (naming the sheet) and nothing is stored."""
    links = make_table(store, system="shs", name="Nostromo", players=("Ripley", "Ash"))
    gm = links.gm
    before = _count(store)
    good = {"name": "Kane", "carrure": 6, "motricite": 6, "science": 6, "relationnel": 6,
            "sang_froid": 6}  # fmt: skip
    bad_texts = {
        "not json": "{name: Kane",
        "empty list": "[]",
        "not a sheet": json.dumps([good, 3]),
        "unknown field": json.dumps([good, {**good, "name": "Lambert", "charisme": 6}]),
        "missing field": json.dumps([good, {"name": "Lambert", "carrure": 6}]),
        "threshold out of range": json.dumps([good, {**good, "name": "Lambert", "science": 9}]),
        "name taken twice": json.dumps([good, good]),
    }
    for why, text in bad_texts.items():
        code, page = act(client, gm, "protagoniste-import", format="json", file=text)
        assert code in (409, 422), (why, code, page)
        assert _count(store) == before, why
    unknown = bad_texts["unknown field"]
    assert "Protagoniste 2" in act(client, gm, "protagoniste-import", file=unknown)[1]
    too_long = json.dumps([{**good, "expertises": ["x" * 20_001]}])
    code, page = act(client, gm, "protagoniste-import", file=too_long)
    assert code == 422 and "20000" in page.replace(",", "").replace("\u202f", "")
    toml_as_json = act(client, gm, "protagoniste-import", format="json", file=SHEETS_TOML)
    assert toml_as_json[0] == 422 and _count(store) == before


def test_shs_show_and_clock_in_the_panels(client: TestClient, store: SqliteStore) -> None:
    """``tablee shs protagoniste show`` and ``tablee shs clock``, read at a glance by anyone."""
    links = make_table(store, system="shs", name="Nostromo", players=("Ripley", "Ash"))
    gm = links.gm
    assert act(client, gm, "protagoniste-import", format="toml", file=SHEETS_TOML)[0] == 200
    assert act(client, gm, "scene-start", kind="rythmee")[0] == 200
    assert act(client, gm, "tour-next")[0] == 200
    code, text = act(
        client, gm, "modifier-add", protagoniste="Ellen", malus="2", tours="3", label="gas"
    )
    assert code == 200, text
    code, text = act(
        client, gm, "long-action-start", protagoniste="Mother", label="reroute", tours="2"
    )
    assert code == 200, text
    assert act(client, gm, "protagoniste-kill", protagonist="Ellen", reason="")[0] == 200
    for path in (gm, links.players["Ash"], links.spectator):
        page = client.get(path).text
        assert "Carrure 6+, Motricité 7+, Science 7+, Relationnel 5+, Sang-froid 8+" in page
        assert "Pilote, Mécanique" in page
        assert "scène rythmée" in page
        assert "Ellen: Malus (3 Tours) of 2 — gas (dead: applies to no roll)" in page
        assert "Mother: reroute, rolled in Tour 2" in page


def test_agents_checklist_shown_while_a_challenge_is_open(
    client: TestClient, store: SqliteStore
) -> None:
    """``tablee agents checklist``: the open challenge's type, its values and exclusions.

    Values from the seed's Muscles list (G-N2, G-A6): grandiose +1, down a notch -1,
    surroundings +1, set up earlier +1, generic -1; the total runs from -2 to +3.
    """
    from tests.web.test_web_agents import team

    links = team(client, store)
    assert "Checklist" not in client.get(links.spectator).text  # no challenge open yet
    code, text = act(
        client, links.gm, "challenge", kind="muscles", agents="Vega\nOrso", oppositions="ogre:4"
    )
    assert code == 200, text
    for path in (links.gm, links.players["Bo"], links.spectator):
        page = client.get(path).text
        assert "Checklist Muscles (-2..+3)" in page
        assert "Checklist Sexe" not in page
        for words, value in (
            ("the action escalates into the grandiose", "+1"),
            ("the action brings the intensity down a notch", "-1"),
            ("the action is generic (I hit, I dodge...)", "-1"),
        ):
            assert f"<dt>{words}</dt><dd>{value}</dd>" in page
        assert "down a notch + the action escalates" in page and "not together" in page
