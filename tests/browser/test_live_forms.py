"""Live forms in a real browser: choice lists follow the table, forms reset, one event per form.

A game master and players each in their own context; nobody reloads a page.
"""

from __future__ import annotations

import itertools

from playwright.sync_api import Page, Request, Response

from tests.browser.play import (
    CREW,
    GM,
    Contexts,
    Table,
    act,
    new_table,
    stored_seqs,
    wait_in_sync,
)

COUNTER = itertools.count(1)


def live_table(contexts: Contexts, server: str, system: str) -> Table:
    return new_table(contexts, server, system, f"live {system} {next(COUNTER)}")


def options_of(page: Page, select: str) -> list[str]:
    found: list[str] = page.eval_on_selector(select, "s => Array.from(s.options).map(o => o.value)")
    return found


def open_form(page: Page, action: str) -> None:
    details = page.locator(f"details.action:has(form[action$='/act/{action}'])")
    if details.get_attribute("open") is None:
        details.locator(":scope > summary").click()


def test_a_protagoniste_made_by_the_gm_reaches_the_players_form(
    contexts: Contexts, server: str
) -> None:
    table = live_table(contexts, server, "shs")
    gm, ana = table.person(GM).page, table.person("Ana").page
    open_form(ana, "test")
    ana.fill("#test-difficulty", "2")  # typed before the lists change: kept
    ana.fill("#test-reason", "the airlock")
    ana.select_option("#test-characteristic", "science")
    assert options_of(ana, "#test-protagoniste") == []
    act(gm, "protagoniste-create", {"protagonist": "Kira", "player": "Ana", **CREW})
    ana.wait_for_function(
        "() => Array.from(document.querySelectorAll('#test-protagoniste option'))"
        ".some(o => o.value === 'Kira')"
    )
    assert options_of(ana, "#test-protagoniste") == ["Kira"]
    assert ana.input_value("#test-difficulty") == "2"
    assert ana.input_value("#test-reason") == "the airlock"
    assert ana.input_value("#test-characteristic") == "science"
    # Bob's "who acts" list is his own: Kira is not his to play
    bob = table.person("Bob").page
    bob.wait_for_selector("#log > li[data-seq='2']", state="attached")
    assert options_of(bob, "#test-protagoniste") == []
    # the game master's choice stays chosen when another Protagoniste arrives
    open_form(gm, "test")
    gm.select_option("#test-protagoniste", "Kira")
    act(gm, "protagoniste-create", {"protagonist": "Rook", "player": "Bob", **CREW})
    gm.wait_for_function(
        "() => document.querySelectorAll('#test-protagoniste option').length === 2"
    )
    assert gm.input_value("#test-protagoniste") == "Kira"
    bob.wait_for_function(
        "() => Array.from(document.querySelectorAll('#test-protagoniste option'))"
        ".some(o => o.value === 'Rook')"
    )
    # and Ana, who reloaded nothing, rolls with the Protagoniste she was sent
    act(ana, "test", {"protagoniste": "Kira", "difficulty": "1"})
    wait_in_sync(table)


def test_a_form_resets_after_a_success_and_keeps_a_refused_one(
    contexts: Contexts, server: str
) -> None:
    table = live_table(contexts, server, "pouyss")
    gm, ana = table.person(GM).page, table.person("Ana").page
    act(gm, "session-start", {})
    open_form(ana, "roll")
    ana.fill("#roll-bonus", "1")
    ana.check("#roll-double_bonus")
    ana.fill("#roll-faces", "9")
    ana.click("label[for='roll-visibility-roller_and_gm']")
    ana.click("form[action$='/act/roll'] button[type=submit]")
    ana.locator("#result-roll .error").wait_for()
    # refused: everything stays, to be corrected
    assert ana.input_value("#roll-bonus") == "1"
    assert ana.is_checked("#roll-double_bonus")
    assert ana.input_value("#roll-faces") == "9"
    key = ana.input_value("#key-roll")
    act(ana, "roll", {"faces": "2,5,6"})
    # done: options and typed faces are cleared; who sees the result stays as chosen
    assert ana.input_value("#roll-bonus") == "0"
    assert not ana.is_checked("#roll-double_bonus")
    assert ana.input_value("#roll-faces") == ""
    assert ana.is_checked("#roll-visibility-roller_and_gm")
    assert ana.input_value("#key-roll") != key
    # the game master's "who rolls" stays on the player chosen
    open_form(gm, "roll")
    act(gm, "roll", {"player": "Bob", "faces": "4"})
    assert gm.input_value("#roll-player") == "Bob"


def test_a_double_click_on_roll_records_one_event(contexts: Contexts, server: str) -> None:
    table = live_table(contexts, server, "pouyss")
    gm, ana = table.person(GM).page, table.person("Ana").page
    act(gm, "session-start", {})
    before = stored_seqs(table)
    posts: list[Request] = []
    answers: list[Response] = []
    ana.on("request", lambda r: posts.append(r) if r.method == "POST" else None)
    ana.on("response", lambda r: answers.append(r) if r.request.method == "POST" else None)
    open_form(ana, "roll")
    ana.fill("#roll-faces", "3")
    ana.dblclick("form[action$='/act/roll'] button[type=submit]")
    ana.locator("#result-roll .done").wait_for()
    ana.wait_for_function(f"() => document.querySelectorAll('#log > li').length > {len(before)}")
    assert all(r.status == 200 for r in answers)
    assert len(stored_seqs(table)) == len(before) + 1
    # the same form sent twice at once, past the page's own guard (a network retry)
    sent = ana.evaluate(
        """async () => {
          const form = document.querySelector("form[action$='/act/roll']");
          form.querySelector("[name=faces]").value = "6";
          const body = () => new URLSearchParams(new FormData(form));
          const go = () => fetch(form.action, {method: "POST", body: body(),
                                               headers: {"HX-Request": "true"}});
          const answers = await Promise.all([go(), go()]);
          return Promise.all(answers.map(async a => [a.status, await a.text()]));
        }"""
    )
    assert [status for status, _ in sent] == [200, 200]
    assert all("Ana rolls" in text for _, text in sent)
    assert len(stored_seqs(table)) == len(before) + 2
    wait_in_sync(table)
