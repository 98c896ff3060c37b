"""Every Pouyss and SHS form of the web table, and the odds shown, against brute force."""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction

from fastapi.testclient import TestClient

from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import csrf_of, make_table


def act(client: TestClient, path: str, action: str, **data: str) -> tuple[int, str]:
    response = client.post(f"{path}/act/{action}", data={"csrf": csrf_of(client, path), **data})
    return response.status_code, response.text


def fractions_in(text: str) -> list[Fraction]:
    found = re.findall(r'class="fraction">(\d+)/(?:<wbr>)?(\d+)<', text)
    return [Fraction(int(n), int(d)) for n, d in found]


# -- Pouyss -------------------------------------------------------------------------------------


def brute_pouyss(bonus: int, malus: int) -> dict[int, Fraction]:
    """P-M1 from the text: 1 + B + M d6; the M highest dice are removed; the best die left."""
    counts: dict[int, int] = {}
    rolls = list(itertools.product(range(1, 7), repeat=1 + bonus + malus))
    for roll in rolls:
        kept = sorted(roll)[: len(roll) - malus]
        counts[max(kept)] = counts.get(max(kept), 0) + 1
    return {v: Fraction(counts.get(v, 0), len(rolls)) for v in range(6, 0, -1)}


def test_pouyss_odds_fragment_matches_brute_force(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    for bonus, malus in ((0, 0), (1, 0), (2, 1), (0, 2)):
        text = client.get(links.gm + "/odds/roll", params={"bonus": bonus, "malus": malus}).text
        expected = brute_pouyss(bonus, malus)
        assert fractions_in(text) == [expected[v] for v in range(6, 0, -1)]
        success = sum(expected[v] for v in (4, 5, 6))
        assert f"({success.numerator}/{success.denominator})" in text
    opposed = client.get(
        links.gm + "/odds/opposed", params={"active_bonus": 1, "passive_bonus": 1}
    ).text  # a passive bonus is a malus on the one roll (P-M8)
    expected = brute_pouyss(1, 1)
    assert fractions_in(opposed) == [expected[v] for v in range(6, 0, -1)]
    bad = client.get(links.gm + "/odds/roll", params={"bonus": "-1"})
    assert bad.status_code == 200 and "odds-error" in bad.text


def test_every_pouyss_form(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    gm, zoe = links.gm, links.players["Zoé"]
    assert act(client, gm, "session-start", cagnotte="3")[0] == 200
    code, text = act(client, zoe, "roll", bonus="1", malus="1", faces="2,5,6", reasons="agile")
    assert code == 200 and "Zoé rolls" in text
    code, text = act(
        client, gm, "roll", player="Ana", imposed_malus="1", faces="4,6", visibility="roller_and_gm"
    )
    assert code == 200
    assert act(client, zoe, "opposed", active="Zoé", passive="Ana", faces="3")[0] == 200
    assert (
        act(client, gm, "opposed", active="Ana", passive_npc="Orc", passive_malus="1", faces="1,6")[
            0
        ]
        == 200
    )
    assert act(client, gm, "reward", amount="2", player="Zoé", reason="belle scène")[0] == 200
    assert act(client, gm, "penalty", amount="1")[0] == 200
    assert (
        act(client, zoe, "character-set", advantages="Agile\nRusée", disadvantages="Distraite")[0]
        == 200
    )
    assert act(client, gm, "session-end")[0] == 200
    code, text = act(client, gm, "session-end")
    assert code == 409 and "no session" in text  # a rule refusal, translated, no trace
    code, text = act(client, zoe, "roll", faces="x")
    assert code == 422 and "face x (the 1st) is not a whole number" in text
    assert client.get(gm + "/odds/nothing").status_code == 404
    state = TableService(store).state("Zinc")
    kinds = [e.kind for e in state.events]
    assert kinds == [
        "table.created",
        "pouyss.session_started",
        "pouyss.roll",
        "pouyss.roll",
        "pouyss.opposed",
        "pouyss.opposed",
        "pouyss.reward",
        "pouyss.penalty",
        "pouyss.character_set",
        "pouyss.session_ended",
    ]
    assert state.events[2].payload["faces"] == [2, 5, 6]
    assert state.events[3].visibility == "roller_and_gm"
    assert state.game.characters["Zoé"].advantages == ("Agile", "Rusée")
    page = client.get(gm).text
    assert 'class="trace"' in page  # the rolls' traces are shown


def test_server_rolls_when_no_faces_are_typed(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    act(client, links.gm, "session-start")
    assert act(client, links.players["Ana"], "roll", malus="2")[0] == 200
    faces = TableService(store).state("Zinc").events[-1].payload["faces"]
    assert len(faces) == 3 and all(1 <= f <= 6 for f in faces)


def test_house_rules_and_exports(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store)
    csrf = csrf_of(client, links.gm)
    page = client.get(links.gm).text
    assert "Bonus dice per roll: no limit" in page and "bonus_cap=None" not in page
    changed = client.post(links.gm + "/options", data={"csrf": csrf, "set": "bonus_cap=2"})
    assert changed.status_code == 200
    assert "House rules: Bonus dice per roll: 2" in changed.text
    page = client.get(links.gm).text
    assert "Bonus dice per roll: 2" in page and "A new session keeps the cagnotte: no" in page
    bad = client.post(links.gm + "/options", data={"csrf": csrf, "set": "nonsense"})
    assert bad.status_code == 422
    act(client, links.gm, "session-start")
    exported = client.get(links.gm + "/export.jsonl")
    assert exported.status_code == 200
    lines = [json.loads(line) for line in exported.text.splitlines()]
    assert [line["seq"] for line in lines[:-1]] == [1, 2, 3]
    assert lines[-1]["trailer"]["events"] == 3  # the signed trailer
    assert client.get(links.gm + "/export.md").text.startswith("# Zinc")
    assert client.get(links.players["Zoé"] + "/export.md").status_code == 403


def test_language_per_viewer(client: TestClient, store: SqliteStore) -> None:
    from tablee.locale import translation

    links = make_table(store)
    act(client, links.gm, "session-start")
    french = translation("fr").gettext("session {session} starts").format(session=1)
    english = "session 1 starts"
    assert french != english
    assert french in client.get(links.players["Zoé"] + "?lang=fr").text
    assert french in client.get(links.players["Zoé"]).text  # kept for that link (cookie)
    assert english in client.get(links.players["Ana"]).text  # the table's language


# -- SHS ----------------------------------------------------------------------------------------


def shs_table(client: TestClient, store: SqliteStore) -> tuple[str, str, str]:
    links = make_table(store, system="shs", name="Nostromo", players=("Ripley", "Ash"))
    gm, ripley = links.gm, links.players["Ripley"]
    hero = {
        "carrure": "6+",
        "motricite": "6+",
        "science": "7+",
        "relationnel": "5+",
        "sang_froid": "8+",
    }
    create = "protagoniste-create"
    code, text = act(
        client, ripley, create, protagonist="Ellen", player="Ripley", expertises="Pilote", **hero
    )
    assert code == 200, text
    assert act(client, ripley, create, protagonist="X", player="Ash", **hero)[0] == 403
    assert act(client, gm, create, protagonist="Ash", player="Ash", **hero)[0] == 200
    assert act(client, gm, create, protagonist="Mother", **hero)[0] == 200
    return gm, ripley, links.players["Ash"]


def test_shs_test_odds_match_brute_force(client: TestClient, store: SqliteStore) -> None:
    _gm, ripley, _ = shs_table(client, store)
    for difficulty in (1, 2, 3):
        text = client.get(
            ripley + "/odds/test",
            params={
                "protagoniste": "Ellen",
                "characteristic": "carrure",
                "difficulty": difficulty,
            },
        ).text
        wins = sum(
            1
            for roll in itertools.product(range(1, 9), repeat=3)
            if sum(1 for f in roll if f >= 6) >= difficulty  # three D8 against 6+ (S-M2)
        )
        p = Fraction(wins, 8**3)
        assert f"({p.numerator}/{p.denominator})" in text, text


def test_every_shs_form(client: TestClient, store: SqliteStore) -> None:
    gm, ripley, ash = shs_table(client, store)
    code, text = act(
        client,
        ripley,
        "test",
        protagoniste="Ellen",
        characteristic="carrure",
        difficulty="2",
        faces="6,7,1",
    )
    assert code == 200, text
    code, text = act(
        client, ripley, "test", protagoniste="Ash", characteristic="carrure", difficulty="1"
    )
    assert code == 403, text
    code, text = act(
        client,
        ripley,
        "opposed",
        first="Ellen:carrure",
        second="Ash:carrure",
        faces="6,6,6,1,1,1",
    )
    assert code == 200, text
    assert act(client, ripley, "opposed", first="Ash:carrure", second="Ellen:carrure")[0] == 403
    code, text = act(
        client, gm, "cooperation", members="Ellen:science\nAsh:science", difficulty="1"
    )
    assert code == 200, text
    code, text = act(
        client, ripley, "cooperation", members="Ellen:science\nAsh:science", difficulty="1"
    )
    assert code == 403, text
    code, text = act(
        client, ripley, "simultaneous", protagoniste="Ellen", actions="carrure:1\nscience:1"
    )
    assert code == 200, text
    assert act(client, gm, "protagoniste-edit", protagonist="Ash", sante="-2")[0] == 200
    assert act(client, ripley, "protagoniste-edit", protagonist="Ellen", set_nt="3")[0] == 403
    assert act(client, gm, "scene-start", kind="rythmee")[0] == 200
    code, text = act(
        client, gm, "modifier-add", protagoniste="Ellen", malus="1", tours="2", label="blessée"
    )
    assert code == 200, text
    code, text = act(
        client, gm, "long-action-start", protagoniste="Ash", label="réparer", tours="2"
    )
    assert code == 409, text  # no Tour yet
    assert act(client, gm, "tour-next")[0] == 200
    code, text = act(
        client, gm, "long-action-start", protagoniste="Ash", label="réparer", tours="2"
    )
    assert code == 200, text
    assert act(client, gm, "time-advance", duration="30 min")[0] == 200
    events = TableService(store).state("Nostromo").events
    number = [e.seq for e in events if e.kind == "shs.modifier_added"][-1]
    code, text = act(client, gm, "modifier-end", number="1")  # numbers are seqs, not places
    assert code == 422 and f"#{number} Ellen" in text, text
    assert act(client, gm, "modifier-end", number=str(number))[0] == 200
    assert act(client, gm, "protagoniste-kill", protagonist="Mother", reason="panne")[0] == 200
    assert act(client, gm, "protagoniste-revive", protagonist="Mother")[0] == 200
    code, text = act(client, gm, "scene-start", kind="lente")
    assert code == 200, text
    code, text = act(client, gm, "tour-next")
    assert code == 409  # no Tour in a scène lente: refused by the rules
    state = TableService(store).state("Nostromo")
    kinds = [e.kind.split(".")[1] for e in state.events[1:]]
    assert kinds.count("test") == 1 and "opposed" in kinds and "cooperation" in kinds
    assert (
        "simultaneous" in kinds
        and state.game.protagonists["Ash"].sante < state.game.protagonists["Ash"].sante_max
    )
    page = client.get(ash).text
    assert "Santé" in page and '<div class="gauge bar' in page
    assert "3 d8 against 6+: 6, 7, 1, 2 PS" in page  # the Test's trace, from its stored faces


def test_odds_of_a_form_not_filled_in_say_what_is_missing_in_the_pages_words(
    store: SqliteStore, client: TestClient
) -> None:
    # The command line's tip (its --flags) stays at the command line.
    links = make_table(store, "shs", "Nostromo", ("Ana", "Bob"))
    answer = client.get(f"{links.gm}/odds/test")
    assert answer.status_code == 200
    assert 'class="odds-error"' in answer.text and "Caractéristique" in answer.text
    assert "--" not in answer.text and "Tip" not in answer.text
    assert "S-M2" not in answer.text  # the rule's id is for a refusal of what was sent
    french = client.get(f"{links.gm}/odds/test", params={"lang": "fr"})
    assert "Caractéristique" in french.text and "règle" not in french.text


def test_the_rule_id_pattern_spares_a_house_rule() -> None:
    from tablee.web.pages import RULE_ID

    assert RULE_ID.sub("", "a Test needs a Difficulty (rule S-M2)") == "a Test needs a Difficulty"
    assert RULE_ID.sub("", "x (règles Y-M3, Y-M4) y") == "x y"
    assert RULE_ID.sub("", "limit (règle maison) reached") == "limit (règle maison) reached"
