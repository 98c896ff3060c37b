"""Usable by everyone: axe-core on every page, phone and laptop sizes, keyboard-only play.

Every page (home, the links shown after creating a table, the game master's, a player's and
the spectator's view of each system, the game master's links page, an error page) is opened
at 390x844 (a phone) and 1280x800 (a laptop):

* a screenshot is saved in the artefacts folder (``$TABLEE_ARTEFACTS``, kept by CI);
* nothing is wider than the screen (no sideways scrolling);
* axe-core (the copy bundled in the pinned ``axe-playwright-python``) finds no serious or
  critical violation, with every action's form unfolded.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.browser.play import (
    GM,
    IDENTITY,
    SESSIONS,
    Contexts,
    act,
    create_table,
    log_seqs,
    step,
    stored_seqs,
    wait_in_sync,
    wait_stream_open,
)
from tests.browser.test_play import new_table

SIZES = ((390, 844), (1280, 800))
BLOCKING = ("serious", "critical")
AXE = Axe()


def _violations(page: Page) -> list[str]:
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    response = AXE.run(page).response
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(" ".join(n["target"]) for n in v["nodes"])
        for v in response["violations"]
        if v["impact"] in BLOCKING
    ]


def _check_page(page: Page, name: str, artifacts: Path, open_page: Callable[[], None]) -> list[str]:
    problems = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        open_page()
        page.screenshot(path=str(artifacts / f"{name}-{width}x{height}.png"), full_page=True)
        wide = page.evaluate("document.documentElement.scrollWidth")
        if wide > width:
            problems.append(f"{name} at {width}x{height}: {wide} px wide, wider than the screen")
        problems += [f"{name} at {width}x{height}: {v}" for v in _violations(page)]
    return problems


def _view(page: Page, url: str) -> Callable[[], None]:
    def show() -> None:
        page.goto(url)
        if "/t/" in url and not url.endswith("/links"):
            wait_stream_open(page)
            odds = page.locator("details[open] .odds-box")
            if odds.count():
                odds.first.locator("table, .odds-error").first.wait_for()

    return show


@pytest.mark.parametrize("system", sorted(SESSIONS))
def test_every_page_is_accessible_at_both_sizes(
    contexts: Contexts, server: str, system: str, artifacts: Path
) -> None:
    page = contexts.new().new_page()
    problems = _check_page(page, "home", artifacts, _view(page, server + "/"))

    session = SESSIONS[system]
    table = new_table(contexts, server, system, spectator=True)
    for who, action, fields in session.steps:
        step(table, who, action, fields)

    def creation() -> None:
        create_table(page, server, system, f"{system} {page.viewport_size}", session.players)

    problems += _check_page(page, f"{system}-links", artifacts, creation)
    views = {
        "gm": table.gm,
        "player": table.players[session.players[0]],
        "spectator": table.spectator,
        "gm-links": table.gm + "/links",
    }
    for name, url in views.items():
        problems += _check_page(page, f"{system}-{name}", artifacts, _view(page, url))
    missing = server + "/t/" + "x" * 43
    problems += _check_page(page, "not-found", artifacts, lambda: page.goto(missing))
    assert not problems, "\n".join(problems)


def test_the_log_is_a_live_region(contexts: Contexts, server: str) -> None:
    table = new_table(contexts, server, "pouyss")
    log = table.person("Ana").page.locator("#log")
    region = "e => { const r = e.closest('[aria-live]'); return r && [r.role, r.ariaLive]; }"
    assert log.evaluate(region) in (["log", "polite"], ["log", "assertive"])


def _tab_to(page: Page, selector: str, limit: int = 120) -> None:
    """Press Tab until the element matching ``selector`` has the focus."""
    target = page.locator(selector)
    for _ in range(limit):
        page.keyboard.press("Tab")
        if target.evaluate("e => e === document.activeElement"):
            return
    raise AssertionError(f"{selector} is not reachable with Tab in {limit} presses")


def test_a_player_rolls_with_the_keyboard_only(contexts: Contexts, server: str) -> None:
    table = new_table(contexts, server, "pouyss")
    step(table, GM, "session-start", {})
    page = table.person("Ana").page
    before = log_seqs(page)

    page.keyboard.press("Tab")
    skip = page.evaluate("document.activeElement.getAttribute('href')")
    assert skip == "#main"
    _tab_to(page, "#roll-bonus")
    page.keyboard.press("Control+A")
    page.keyboard.type("1")
    _tab_to(page, "form[action$='/act/roll'] button[type=submit]")
    page.keyboard.press("Enter")

    page.locator("#result-roll .done").wait_for()
    seqs = wait_in_sync(table)
    assert len(seqs) == len(before) + 1 == len(stored_seqs(table))
    assert "Ana rolls 1 + 1 bonus" in page.locator(f"#log > li[data-seq='{seqs[-1]}']").inner_text()


LONG = "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaft"


def test_long_and_hostile_names_fit_a_phone(contexts: Contexts, server: str) -> None:
    players = ("Ana", LONG, "<i>Zoé</i> 🎲")
    maker = contexts.new(390, 844).new_page()
    table = create_table(maker, server, "agents", f"{LONG} table", players)
    gm = contexts.new(390, 844).new_page()
    gm.goto(table.gm)
    wait_stream_open(gm)
    for name, owner in ((LONG + "Agent", LONG), ("<b>Rex</b>", "<i>Zoé</i> 🎲")):
        act(gm, "agent", {"name": name, "owner": owner, **IDENTITY})
    gm.locator(f"#log > li:has-text('{LONG}Agent')").first.wait_for()
    phone = contexts.new(390, 844).new_page()
    for url in (table.gm, table.players[LONG], table.players["<i>Zoé</i> 🎲"]):
        phone.goto(url)
        wait_stream_open(phone)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, url
        assert phone.locator("b, i").count() == 0  # typed markup is shown as text
        assert "<b>Rex</b>" in phone.locator("#resources").inner_text()
