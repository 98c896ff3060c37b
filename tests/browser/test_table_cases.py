"""The table's hard cases in a real browser: physical dice, secrets in refusals, who is there.

A game master and two players, each in their own browser context:

* faces read on physical dice, typed in the pages (an SHS Test's D8 and its D+/- die; both
  sides of a YBS gang fight, the game master typing the game master's side), reach every
  page's roll card exactly as typed, and the server throws no side's dice unasked;
* a player's keep on a hand thrown blind is refused with one text for every keep, that
  names no die: neither the hand nor which keeps would be valid reaches that player's page;
* each seat's chip in every page's header shows live whether someone has that seat's page
  open.
"""

from __future__ import annotations

import itertools
from typing import Any

from playwright.sync_api import Page

from tablee.errors import NOT_VALID
from tests.browser.play import (
    GM,
    SESSIONS,
    Contexts,
    Table,
    act,
    create_table,
    fill,
    new_table,
    open_link,
    send,
    step,
    stored_seqs,
    wait_in_sync,
)

COUNTER = itertools.count(1)
HIDDEN = "this continues something hidden from you: the game master takes it from here"
"""A player's follow-up to a roll hidden from them (a blind throw): refused, saying why."""


def cases_table(contexts: Contexts, server: str, system: str) -> Table:
    return new_table(contexts, server, system, f"cases {system} {next(COUNTER)}")


def gang_fight(contexts: Contexts, server: str) -> Table:
    """A YBS table where Ana's Kenji has just started a gang fight against the GM's Thug."""
    table = cases_table(contexts, server, "ybs")
    step(table, GM, "session-start", {})
    step(table, GM, "character-create", {"character": "Kenji", "player": "Ana"})
    step(table, GM, "character-create", {"character": "Thug"})  # the game master's
    step(table, GM, "gang-start", {"fighters": "Kenji", "opponents": "Thug"})
    return table


def dice_of(page: Page, seq: int) -> list[str]:
    """The dice of a log entry's roll card as read aloud (``d8: 6, counts``...)."""
    found: list[str] = page.eval_on_selector_all(
        f"#log > li[data-seq='{seq}'] .roll-card .die",
        "els => els.map(e => e.getAttribute('aria-label'))",
    )
    return found


def refused(page: Page, action: str, fields: dict[str, Any]) -> str:
    """Fill and send an action's form as `act` does, and return the refusal it shows."""
    response = send(page, fill(page, action, fields))
    assert response.status in (403, 409, 422), response.status
    error = page.locator(f"#result-{action} .error")
    error.wait_for()
    return error.inner_text()


def test_typed_faces_reach_every_card_as_typed(contexts: Contexts, server: str) -> None:
    table = cases_table(contexts, server, "shs")
    step(table, GM, "protagoniste-create", {"protagonist": "Kira", "player": "Ana",
         "carrure": "5+", "motricite": "6", "science": "6", "relationnel": "6",
         "sang_froid": "6"})  # fmt: skip
    # S-M3: a Bonus 1 throws one D+/- die; its '+' face adds 1 PS (seed 003).
    fields = {"protagoniste": "Kira", "characteristic": "carrure", "difficulty": "2",
              "bonus": "1", "faces": "6,7,1", "faces_dpm": "+"}  # fmt: skip
    (seq,) = step(table, "Ana", "test", fields)
    for who in (GM, "Ana", "Bob"):
        assert dice_of(table.person(who).page, seq) == [
            "d8: 6, counts",
            "d8: 7, counts",
            "d8: 1, not counted",
            "D+/-: plus, counts",
        ], who


def test_each_side_of_a_gang_fight_throws_its_own_typed_dice(
    contexts: Contexts, server: str
) -> None:
    table = gang_fight(contexts, server)
    before = len(stored_seqs(table))
    # The players' side throws its five dice: the game master's side is not thrown with it,
    # and nobody sees a side's dice before the other side has thrown too.
    (players,) = step(table, "Ana", "gang-throw", {"faces": "1,2,3,5,6"})
    assert len(stored_seqs(table)) == before + 1
    for who in (GM, "Ana", "Bob"):
        assert dice_of(table.person(who).page, players) == [], who
    # The game master then types the game master's side, as thrown at the table.
    (gm_side,) = step(table, GM, "gang-throw", {"side": "gm", "faces_gm": "2,2,4,4,6"})
    for who in (GM, "Ana", "Bob"):
        drawn = [d.split(",")[0] for d in dice_of(table.person(who).page, gm_side)]
        assert drawn == [f"d6: {n}" for n in (1, 2, 3, 5, 6, 2, 2, 4, 4, 6)], who


def test_a_refused_keep_on_a_blind_hand_shows_nothing_of_it(
    contexts: Contexts, server: str
) -> None:
    table = gang_fight(contexts, server)
    hand = "1,1,5,5,6"
    act(table.person(GM).page, "gang-throw",
        {"side": "both", "faces": hand, "faces_gm": "2,3,3,4,4", "visibility": "gm"})  # fmt: skip
    wait_in_sync(table)
    ana = table.person("Ana").page
    answers = {refused(ana, "gang-throw", {"keep": keep, "faces": "1"}) for keep in ("3", "2,5")}
    (answer,) = answers  # one text: no keep is told apart from another
    assert answer in (NOT_VALID, HIDDEN) and not any(c.isdigit() for c in answer), answer
    page = ana.content()
    assert "1, 1, 5, 5, 6" not in page and "[1, 1, 5, 5, 6]" not in page


def seats_of(page: Page) -> dict[str, bool]:
    """Each seat chip of the page's header: its label, and whether it shows connected."""
    found: list[list[Any]] = page.eval_on_selector_all(
        "#presence .seat:not(.spectators)",
        "els => els.map(e => [e.firstChild.nextSibling.textContent.trim(),"
        " e.classList.contains('on')])",
    )
    return {str(label): bool(on) for label, on in found}


def test_who_is_there_follows_the_pages_opening_and_closing(
    contexts: Contexts, server: str
) -> None:
    maker = contexts.new().new_page()
    name = f"cases who {next(COUNTER)}"
    table = create_table(maker, server, "pouyss", name, SESSIONS["pouyss"].players)
    maker.close()
    gm = open_link(contexts.new(), table.gm)
    assert seats_of(gm) == {"game master": True, "Ana": False, "Bob": False}
    ana = open_link(contexts.new(), table.players["Ana"])
    gm.wait_for_function("() => document.querySelector('#presence .seat.on:nth-child(2)') !== null")
    assert seats_of(gm) == {"game master": True, "Ana": True, "Bob": False}
    assert seats_of(ana) == {"game master": True, "Ana": True, "Bob": False}
    ana.close()  # her stream closes: her seat goes dark on the game master's page
    gm.wait_for_function(
        "() => document.querySelector('#presence .seat.off:nth-child(2)') !== null"
    )
    assert seats_of(gm) == {"game master": True, "Ana": False, "Bob": False}


def test_a_gang_fights_forty_digit_odds_fit_a_narrow_phone(contexts: Contexts, server: str) -> None:
    # The exact race odds of 5 dice against 5 run to 41 digits a side: on a 360 px phone they
    # wrap between digits instead of widening the page, and a short fraction stays whole.
    table = gang_fight(contexts, server)
    for who in (GM, "Ana"):
        table.person(who).page.set_viewport_size({"width": 360, "height": 740})
    step(table, "Ana", "gang-throw", {"faces": "1,2,3,5,6"})
    for who in (GM, "Ana"):
        page = table.person(who).page
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, who
        heights = page.eval_on_selector_all(
            "td.fraction",
            "els => els.map(e => [e.textContent, e.getBoundingClientRect().height])",
        )
        short = [h for text, h in heights if len(text) <= 5 and h > 0]
        assert short and max(short) <= 1.5 * min(short), (who, heights)
