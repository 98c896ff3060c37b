"""An opposed Action in a simultaneous set on the web: the form's fields, a roll, its card and
log line, and the JSON API, all generated from the one declaration (S-X5).

Source: docs/rules/shs.md (S-M7, S-A5, S-X5).
"""

from __future__ import annotations

import html

from fastapi.testclient import TestClient

from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import make_table
from tests.web.test_cards import last_card, text
from tests.web.test_forms import by_id, forms_of
from tests.web.test_systems import act, shs_table

JSON = {"content-type": "application/json"}
FIGHT = {"actions": "science:1", "opposed": "motricite", "against": "Ash:carrure"}
"""Ellen (Science 7+, Motricité 6+) runs a diagnostic while pulling free of Ash (Carrure 6+)."""
FACES = {"faces": "7,1,1,6,6,1,6,1,1", "faces_dpm": "0,-"}
"""The Test's faces, Ellen's side's, then Ash's: 1 PS each, the Test succeeds, a tie."""


def test_the_simultaneous_form_draws_the_opposed_fields_folded(
    client: TestClient, store: SqliteStore
) -> None:
    gm = make_table(store, "shs").gm  # no sheet yet: the page holds only the forms' details
    labels = {
        "en": ("An opposed Action in the set", "the Protagoniste who acts", "the opponent"),
        "fr": (
            "Une Action en opposition dans la série",
            "le Protagoniste qui agit",
            "l'adversaire",
        ),
    }
    for lang, (group, acting, opponent) in labels.items():
        form = by_id(forms_of(client, gm, lang), "simultaneous")
        assert form.fields[:3] == ["protagoniste", "actions", "trivial"]
        assert form.groups == {group: ["opposed", "against", "opposed_changer"]}
        shown = dict(form.selects["opposed_changer"])
        assert (shown["protagoniste"], shown["opponent"]) == (acting, opponent)
    page = html.unescape(client.get(gm + "?lang=fr").text)
    assert "la Caractéristique de ce Protagoniste, qui subit le Malus de la série" in page
    assert "le Protagoniste qui s'oppose à cette Action, avec sa Caractéristique" in page


def test_a_set_with_an_opposed_action_is_rolled_from_the_form(
    client: TestClient, store: SqliteStore
) -> None:
    _gm, ripley, _ = shs_table(client, store)
    code, page = act(client, ripley, "simultaneous", protagoniste="Ellen", **FIGHT, **FACES)
    assert code == 200, page
    stored = TableService(store).state("Nostromo").events[-1]
    assert stored.kind == "shs.simultaneous" and stored.schema_version == 4
    fight = stored.payload["opposed"]
    assert (fight["first"]["situation_malus"], fight["first"]["ps"], fight["second"]["ps"]) == (
        1,
        1,
        1,
    )
    assert fight["winner"] == "second" and fight["tie"] is True
    card = last_card(store, "Nostromo")
    assert card is not None
    assert [text(g.label) for g in card.groups] == [
        "Action 1: Ellen (Science 7+)",
        "Action 2: Ellen (Motricité 6+)",
        "against it: Ash (Carrure 6+)",
    ]
    assert text(card.result) == (
        "Action 1: Success: 1 PS against Difficulty 1; "
        "Action 2: A tie at 1 PS: Ash keeps the situation"
    )
    shown = html.unescape(client.get(ripley + "?lang=en").text)
    assert "against Ash: Ellen with Motricité: D8 6, 6, 1, D+/- -: 1 PS" in shown
    assert "against it: Ash (Carrure 6+)" in shown


def test_a_half_given_opposed_action_is_refused_and_nothing_is_stored(
    client: TestClient, store: SqliteStore
) -> None:
    _gm, ripley, _ = shs_table(client, store)
    before = len(TableService(store).state("Nostromo").events)
    code, page = act(client, ripley, "simultaneous", protagoniste="Ellen", opposed="motricite")
    assert code == 422, page
    assert "needs this Protagoniste" in html.unescape(page) and "--against" not in page
    assert len(TableService(store).state("Nostromo").events) == before


def test_the_api_lists_and_runs_the_opposed_fields(client: TestClient, store: SqliteStore) -> None:
    _gm, ripley, _ = shs_table(client, store)
    schema = client.get(ripley + "/api").json()
    command = next(c for c in schema["commands"] if c["name"] == "simultaneous")
    fields = {f["name"]: f for f in command["fields"]}
    assert (
        fields["opposed"]["group"] == fields["against"]["group"] == "An opposed Action in the set"
    )
    assert fields["opposed_changer"]["choices"] == ["protagoniste", "opponent", "none"]
    assert not fields["actions"]["required"]
    body = {
        "protagoniste": "Ellen",
        "opposed": "motricite",
        "against": "Ash:carrure",
        "opposed_changer": "opponent",
        "trivial": 1,
        "faces": [6, 6, 1, 6, 1, 1],
        "faces_dpm": ["-"],
    }
    answer = client.post(ripley + "/api/simultaneous", json=body, headers=JSON)
    assert answer.status_code == 200, answer.text
    report = answer.json()["report"]
    assert report["set_malus"] == 1 and report["actions"] == []
    # Ash sought the change: on the tie at 1 PS Ellen keeps the situation (S-A5).
    assert report["opposed"]["changer"] == "second" and report["opposed"]["winner"] == "first"


def test_the_odds_box_of_the_form_shows_the_opposed_action(
    client: TestClient, store: SqliteStore
) -> None:
    _gm, ripley, _ = shs_table(client, store)
    answer = client.get(ripley + "/odds/simultaneous", params={"protagoniste": "Ellen", **FIGHT})
    assert answer.status_code == 200
    shown = html.unescape(answer.text)
    assert "Action 1 (Science) reaches the Difficulty" in shown
    assert "Ellen prevails in all" in shown and "Ash prevails in all" in shown
