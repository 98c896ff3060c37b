"""Each system at a table of three: a game master and two players, each in their own context.

One table per system is played once (its scripted session, through the pages) and shared by
the tests of this module:

* a player's roll reaches the other player's and the game master's pages over their live
  streams, and a player's secret roll reaches the game master's page but never the other
  player's: not the page, not a message of its stream;
* the game master's and a player's page are saved as screenshots at 360x740, 390x844 and
  1280x800 (in the artefacts folder that CI names), in French too (``?lang=fr``) at 390x844
  and 1280x800, each of these also as its first screen (``...-first-screen.png``: the
  window before any scroll). These never fail on how a page looks: only on a page that
  errors (an HTTP error, a script error, an error in the console, the wrong language);
* axe-core finds no serious or critical violation on those two pages at 360x740.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Error, Page

from tests.browser.conftest import RECORD_STREAMS
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
    wait_in_sync,
    wait_stream_open,
)
from tests.browser.test_access import _violations

SIZES = ((360, 740), (390, 844), (1280, 800))
FIRST_SCREENS = ((390, 844), (1280, 800))
"""The sizes shot in French too, and as a first screen (the window before any scroll)."""
COUNTER = itertools.count(1)


class Played:
    """A system's table after its scripted session, and the errors its pages met since."""

    def __init__(self, system: str, table: Table) -> None:
        self.system = system
        self.table = table
        self.errors: dict[str, list[str]] = {who: [] for who in table.people}
        for who, person in table.people.items():
            self.watch(who, person.page)

    def watch(self, who: str, page: Page) -> None:
        """Record the page's script errors and console errors under ``who``."""

        def on_error(error: Error) -> None:
            self.errors[who].append(f"script error: {error.message}")

        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error":
                self.errors[who].append(f"console error: {message.text}")

        page.on("pageerror", on_error)
        page.on("console", on_console)


@pytest.fixture(scope="module", params=sorted(SESSIONS))
def played(request: pytest.FixtureRequest, browser: Browser, server: str) -> Iterator[Played]:
    """A table of each system with a game master and two players, after its session."""
    system: str = request.param
    session = SESSIONS[system]
    contexts = Contexts(browser, RECORD_STREAMS)
    try:
        maker = contexts.new().new_page()
        name = f"{system} views {next(COUNTER)}"
        table = seat(contexts, create_table(maker, server, system, name, session.players))
        maker.close()
        found = Played(system, table)
        for who, action, fields in session.steps:
            step(table, who, action, fields)
        yield found
    finally:
        contexts.close()


def _log_ids(page: Page) -> set[str]:
    return {m["id"] for m in streamed(page) if m["type"] == "log"}


def test_a_players_roll_reaches_the_others_live_and_a_secret_one_stays_hidden(
    played: Played,
) -> None:
    table = played.table
    first, second = SESSIONS[played.system].players[:2]
    before = wait_in_sync(table)

    # The second player rolls for everyone: the first player and the game master see it live.
    action, fields = SESSIONS[played.system].player_roll[second]
    act(table.person(second).page, action, fields)
    shown = wait_in_sync(table)[len(before) :]
    assert shown
    text = {seq: entry_text(table.person(second).page, seq) for seq in shown}
    for who in (first, GM):
        page = table.person(who).page
        assert {str(seq) for seq in shown} <= _log_ids(page), who  # pushed, not reloaded
        for seq in shown:
            assert entry_text(page, seq) == text[seq], (who, seq)
            assert not page.locator(f"#log > li[data-seq='{seq}'].hidden").count(), (who, seq)

    # The first player rolls in secret: the game master sees it, the second player does not.
    action, fields = SESSIONS[played.system].player_roll[first]
    act(table.person(first).page, action, {**fields, "visibility": "roller_and_gm"})
    secret = wait_in_sync(table)[len(before) + len(shown) :]
    assert secret
    own = table.person(first).page
    results = [own.locator(f"#log > li[data-seq='{s}'] .text").inner_text() for s in secret]
    gm_page = table.person(GM).page
    for seq, result in zip(secret, results, strict=True):
        assert result
        assert not own.locator(f"#log > li[data-seq='{seq}'].hidden").count(), seq
        assert gm_page.locator(f"#log > li[data-seq='{seq}'] .text").inner_text() == result, seq
        other = table.person(second).page.locator(f"#log > li[data-seq='{seq}']")
        assert "hidden" in (other.get_attribute("class") or "").split(), seq
    other_page = table.person(second).page
    assert {str(seq) for seq in secret} <= _log_ids(other_page)  # it got a line, live
    for text_seen in (other_page.content(), *(m["data"] for m in streamed(other_page))):
        for result in results:
            assert result not in text_seen


def _shoot(
    page: Page, shot: Path, sizes: tuple[tuple[int, int], ...], url: str | None = None
) -> list[str]:
    """Screenshots of ``page`` (reloaded, or opened at ``url``) at each size; its problems.

    Each size gets the whole page (``SHOT-WxH.png``); those of `FIRST_SCREENS` also what the
    window shows before any scroll (``SHOT-WxH-first-screen.png``: a reload keeps the page
    where it was scrolled to, so it is scrolled back to the top first). A problem is an HTTP
    error or a page in another language than ``url``'s ``?lang=``; never how a page looks.
    """
    problems = []
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        response = page.goto(url) if url else page.reload()
        if response is None or not response.ok:
            problems.append(f"{shot.name} {width}x{height}: HTTP {response and response.status}")
            continue
        wait_stream_open(page)
        wanted = url.rpartition("?lang=")[2] if url else ""
        if wanted and page.locator("html").get_attribute("lang") != wanted:
            problems.append(f"{shot.name} {width}x{height}: the page is not in {wanted!r}")
        path = shot.with_name(f"{shot.name}-{width}x{height}")
        page.screenshot(path=f"{path}.png", full_page=True)
        if (width, height) in FIRST_SCREENS:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=f"{path}-first-screen.png")
    return problems


@pytest.mark.parametrize("who", ["gm", "player"])
def test_screenshots_of_each_page_at_three_sizes(played: Played, who: str, artifacts: Path) -> None:
    """The page at `SIZES` and its first screen; then in French at `FIRST_SCREENS`."""
    table = played.table
    person = table.person(GM if who == "gm" else SESSIONS[played.system].players[0])
    page = person.page
    shot = artifacts / f"table-{played.system}-{who}"
    problems = _shoot(page, shot, SIZES)
    french = shot.with_name(shot.name + "-fr")
    problems += _shoot(page, french, FIRST_SCREENS, person.url + "?lang=fr")
    # ?lang= stays with the link (a cookie): back to the table's own language, English
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(person.url + "?lang=en")
    wait_stream_open(page)
    problems += played.errors[person.who]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("who", ["gm", "player"])
def test_axe_finds_no_serious_violation_on_the_smallest_phone(played: Played, who: str) -> None:
    # After the session (and the rolls of the first test): roll cards, secret rolls.
    person = played.table.person(GM if who == "gm" else SESSIONS[played.system].players[0])
    page = person.page
    page.set_viewport_size({"width": 360, "height": 740})
    page.reload()
    wait_stream_open(page)
    try:
        found = _violations(page)
        assert not found, "\n".join(found)
    finally:
        page.set_viewport_size({"width": 1280, "height": 800})
