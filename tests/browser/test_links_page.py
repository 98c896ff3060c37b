"""The game master's links page on phones and a laptop: nothing scrolls sideways.

At 360x740 and 390x844 the list of the table's links is one small card per link (its holder,
the start of its token, its state, its Revoke button), inside the window; at 1280x800 it is
a table. A new link's card keeps its Copy button and its QR code (or, at an address phones
cannot reach, the note saying why there is none), in English and in French. Screenshots are
saved in ``test-artifacts/screenshots`` (``links-*.png``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.browser.play import Contexts, create_table
from tests.browser.test_layout import CUT_WORDS, WIDE

SIZES = ((360, 740), (390, 844), (1280, 800))

ROWS = """
() => Array.from(document.querySelectorAll("table.links tbody tr")).map((row) => {
  const box = row.getBoundingClientRect();
  const button = row.querySelector("button");
  return {
    left: box.left, right: box.right,
    button: button ? button.getBoundingClientRect().right : null,
    revoked: row.classList.contains("revoked"),
  };
})
"""
"""Each listed link's row: its edges, its Revoke button's right edge (None: no button)."""


def links_page(page: Page, server: str, lang: str) -> None:
    """A table with long names, its links page after one more link was made and one revoked."""
    players = ("Anne-Sophie", "Bartholomew", "Chloé")
    table = create_table(page, server, "pouyss", f"Les Mystères de Londres {lang}", players)
    page.goto(f"{table.gm}?lang={lang}")  # the table's page keeps the language for its link
    page.goto(f"{table.gm}/links")
    assert page.locator("html").get_attribute("lang") == lang
    page.locator("table.links tbody tr:has(button)").first.locator("button").click()
    page.wait_for_selector("table.links tr.revoked")
    page.select_option("#new_role", "spectator")
    page.click("form[action$='/links/new'] button[type=submit]")
    page.wait_for_selector(".join-card")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_links_page_fits_a_phone(
    contexts: Contexts, server: str, lang: str, artifacts: Path
) -> None:
    page = contexts.new().new_page()
    links_page(page, server, lang)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(artifacts / f"links-{lang}-{width}x{height}.png"), full_page=True)
        wide = page.evaluate(WIDE, width)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (width, wide)
        assert page.evaluate(CUT_WORDS, "main") == [], width
        scroller = page.locator(".table-scroll")
        assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth"), width
        rows = page.evaluate(ROWS)
        assert len(rows) == 6 and sum(r["revoked"] for r in rows) == 1
        assert sum(r["button"] is not None for r in rows) == 4, rows  # none: the GM's own, revoked
        for row in rows:
            assert row["left"] >= 0 and row["right"] <= width, (width, row)
            assert row["button"] is None or row["button"] <= width, (width, row)
        shown = page.locator("table.links").evaluate("e => getComputedStyle(e).display")
        assert shown == ("table" if width >= 1280 else "block")
        card = page.locator(".join-card")
        assert card.count() == 1
        assert card.locator("button[data-copy]").is_visible()
        assert card.locator("svg.qr").count() == 1 or page.locator(".notice").is_visible()
