"""Sheets and layout in a real browser: phones and a laptop, a game master and a player.

At 360x740, 390x844 and 1280x800: the page never scrolls sideways, no word of the resources
or of the forms' labels is cut across two lines, a player's own sheet comes first and
unfolded while the other characters' sheets are folded to one line, and a sheet its reader
unfolded stays so when the stream redraws the resources. Screenshots of each page at each
size are saved in ``test-artifacts/screenshots`` (``layout-*.png``).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.browser.play import CREW, GM, SESSIONS, Contexts, Table, create_table, seat, step

COUNTER = itertools.count(1)
SIZES = ((360, 740), (390, 844), (1280, 800))
EXTRA_SHS = (("Vale", "Ana"), ("Oren", "Bob"))
"""Two more SHS Protagonistes: four sheets, the longest page of all."""

CUT_WORDS = """
(selector) => {
  const cut = [];
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /[^\\s-]+/g;  // a hyphen is a place to break a word
      let m;
      while ((m = re.exec(node.data)) !== null) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
        const tops = new Set(rects.map((r) => Math.round(r.top)));
        if (tops.size > 1) { cut.push(m[0]); }
      }
    }
  }
  return cut;
}
"""
"""The words under ``selector`` drawn across more than one line (cut mid-word)."""

WIDE = """
(width) => Array.from(document.querySelectorAll("body *"))
  .filter((e) => e.getBoundingClientRect().right > width + 0.5)
  .slice(0, 8)
  .map((e) => e.tagName + "." + e.className + "#" + e.id + " " + e.getBoundingClientRect().right)
"""
"""The first elements reaching past the right edge of the window (what scrolls sideways)."""


def played(contexts: Contexts, server: str, system: str) -> Table:
    """A table of ``system`` after its scripted session (four Protagonistes for SHS)."""
    session = SESSIONS[system]
    maker = contexts.new().new_page()
    table = create_table(maker, server, system, f"layout {system} {next(COUNTER)}", session.players)
    maker.close()
    seat(contexts, table)
    for who, action, fields in session.steps:
        step(table, who, action, fields)
    if system == "pouyss":  # each player's sheet: their advantages and disadvantages
        for player in session.players:
            fields = {"player": player, "advantages": "strong\nquick", "disadvantages": "shy"}
            step(table, player, "character-set", fields)
    if system == "shs":
        for name, player in EXTRA_SHS:
            fields = {"protagonist": name, "player": player, **CREW}
            step(table, GM, "protagoniste-create", fields)
    return table


def sheets(page: Page) -> list[tuple[str, bool]]:
    """The sheets drawn, in page order: ``(name, unfolded)``."""
    found: list[tuple[str, bool]] = page.eval_on_selector_all(
        "#resources details[data-sheet]", "els => els.map(e => [e.dataset.sheet, e.open])"
    )
    return found


def check_page(page: Page, shot: Path) -> None:
    width = page.evaluate("window.innerWidth")
    page.screenshot(path=str(shot), full_page=True)
    wide = page.evaluate(WIDE, width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, (shot.name, wide)
    assert page.evaluate(CUT_WORDS, "#resources, .side label, .side summary") == [], shot.name


@pytest.mark.parametrize("system", sorted(SESSIONS))
def test_pages_fit_phones_and_laptops(
    contexts: Contexts, server: str, system: str, artifacts: Path
) -> None:
    table = played(contexts, server, system)
    for width, height in SIZES:
        for who in (GM, "Ana"):
            page = table.person(who).page
            page.set_viewport_size({"width": width, "height": height})
            check_page(page, artifacts / f"layout-{system}-{who}-{width}x{height}.png")


@pytest.mark.parametrize("system", sorted(SESSIONS))
def test_a_players_own_sheet_comes_first_unfolded(
    contexts: Contexts, server: str, system: str
) -> None:
    table = played(contexts, server, system)
    drawn = sheets(table.person("Ana").page)
    own = [name for name, unfolded in drawn if unfolded]
    assert own, drawn
    assert [name for name, _ in drawn[: len(own)]] == own  # Ana's sheets first
    assert all(not unfolded for _, unfolded in drawn[len(own) :])
    assert not any(unfolded for _, unfolded in sheets(table.person(GM).page))


def test_a_phone_player_reaches_the_forms_past_folded_sheets(
    contexts: Contexts, server: str
) -> None:
    table = played(contexts, server, "shs")
    page = table.person("Bob").page
    page.set_viewport_size({"width": 390, "height": 844})
    folded = page.eval_on_selector_all(
        "#resources details[data-sheet]:not([open])", "els => els.map(e => e.offsetHeight)"
    )
    assert len(folded) == 2  # Ana's Kira and Vale
    assert all(h < 60 for h in folded), folded


def test_an_unfolded_sheet_stays_so_when_the_stream_redraws_it(
    contexts: Contexts, server: str
) -> None:
    table = played(contexts, server, "shs")
    page = table.person(GM).page
    page.locator("#resources details[data-sheet='Rook'] > summary").click()
    assert dict(sheets(page))["Rook"]
    before = page.locator("#resources").element_handle()
    step(table, GM, "scene-start", {"kind": "rythmee"})
    page.wait_for_function("(old) => !old.isConnected", arg=before)  # redrawn by the stream
    assert dict(sheets(page)) == {"Rook": True, "Kira": False, "Vale": False, "Oren": False}


def test_a_phone_jumps_to_the_forms_and_the_log_from_a_bar_in_thumb_reach(
    contexts: Contexts, server: str
) -> None:
    table = played(contexts, server, "ybs")
    page = table.person("Ana").page
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("window.scrollTo(0, 0)")
    bar = page.locator("nav.jump")
    box = bar.bounding_box()
    assert box is not None and box["y"] + box["height"] == pytest.approx(844, abs=1)
    for link, target in (("#act", "#act"), ("#log-title", "#log-title"), ("#glance", "#glance")):
        bar.locator(f"a[href='{link}']").click()
        page.wait_for_function(
            "(sel) => { const r = document.querySelector(sel).getBoundingClientRect();"
            " return r.top >= 0 && r.top < 40; }",
            arg=target,
        )
    # The last line of the page is not hidden under the bar.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    last = page.locator(".side > *").last.bounding_box()
    assert last is not None and last["y"] + last["height"] <= box["y"] + 1
    page.set_viewport_size({"width": 1280, "height": 800})
    assert not bar.is_visible()  # a laptop shows the three parts side by side
