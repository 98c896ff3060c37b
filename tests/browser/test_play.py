"""A game master and two players play each system in a real browser, each in their own context.

Every step is done through the pages (forms filled, buttons pressed); after each one, every
page must show every stored event exactly once and in order, pushed by the live log. Entries
everyone may see read the same on every page.
"""

from __future__ import annotations

import itertools

import pytest

from tests.browser.play import (
    GM,
    SESSIONS,
    Contexts,
    Table,
    act,
    create_table,
    entry_text,
    seat,
    step,
    streamed,
)

COUNTER = itertools.count(1)


def new_table(contexts: Contexts, server: str, system: str, *, spectator: bool = False) -> Table:
    session = SESSIONS[system]
    maker = contexts.new().new_page()
    table = create_table(maker, server, system, f"{system} {next(COUNTER)}", session.players)
    maker.close()
    return seat(contexts, table, spectator=spectator)


@pytest.mark.parametrize("system", sorted(SESSIONS))
def test_a_short_session_reaches_every_page(contexts: Contexts, server: str, system: str) -> None:
    table = new_table(contexts, server, system, spectator=True)
    session = SESSIONS[system]
    shown = 0
    for who, action, fields in session.steps:
        for seq in step(table, who, action, fields):
            shown += 1
            gm_text = entry_text(table.person(GM).page, seq)
            assert gm_text
            for person in table.people.values():
                hidden = person.page.locator(f"#log > li[data-seq='{seq}'].hidden").count()
                if fields.get("visibility", "all") == "all":
                    assert not hidden, (person.who, seq)
                    assert entry_text(person.page, seq) == gm_text, (person.who, seq)
    assert shown >= len(session.steps) - 1
    # The pages got those entries from the stream, each once (no reload happened after them).
    for person in table.people.values():
        ids = [m["id"] for m in streamed(person.page) if m["type"] == "log"]
        assert len(ids) == len(set(ids)), person.who


def test_the_odds_follow_the_form_in_their_own_box(contexts: Contexts, server: str) -> None:
    table = new_table(contexts, server, "pouyss")
    step(table, GM, "session-start", {})
    page = table.person("Ana").page
    odds = page.locator("form[action$='/act/roll'] .odds-box")
    # 1 die: success (4 or more) is 1/2; 1 bonus die (keep the best of 2): 3/4.
    odds.get_by_text("Chance of success: 50.0% (1/2)").wait_for()
    page.fill("form[action$='/act/roll'] [name=bonus]", "1")
    page.press("form[action$='/act/roll'] [name=bonus]", "Tab")  # a change: the odds follow
    odds.get_by_text("Chance of success: 75.0% (3/4)").wait_for()
    act(page, "roll", {})
    # The form resets after the roll, and its odds follow it back to one die.
    odds.get_by_text("Chance of success: 50.0% (1/2)").wait_for()
    # The odds never land in the result of the roll, which stays shown.
    page.wait_for_timeout(600)
    assert page.locator("#result-roll .done").is_visible()
    assert not page.locator("#result-roll .odds").count()
