"""A long log in the browser: the latest entries, "Earlier entries" above them, live after."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tablee.dice import TypedFaces
from tablee.systems.pouyss.commands import Reward, Roll, StartSession
from tablee.table.links import issue_table_links
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web.history import LOG_PAGE
from tests.browser.conftest import _free_port, _wait_listening
from tests.browser.play import Contexts, wait_stream_open

LAST = 2 * LOG_PAGE + 50
"""The events of the table: the latest page, a whole page before it, and 50 more."""


@pytest.fixture(scope="module")
def long_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A `tablee serve` whose one table holds `LAST` events; its GM link's URL, the store."""
    folder = tmp_path_factory.mktemp("long")
    db = folder / "store.sqlite"
    store = SqliteStore(db)
    service = TableService(store)
    state = service.create(system="pouyss", name="Long", players=["Zoé", "Ana"], lang="en")
    issued = issue_table_links(store, state, service.clock())
    gm = next(i.token for i in issued if i.info.role == "gm")
    service.run_command("Long", StartSession(cagnotte=3))
    while service.state("Long").last_seq < LAST - 1:
        service.run_command("Long", Reward(amount=1, player="Ana"))
    service.run_command("Long", Roll(player="Zoé", bonus=1), TypedFaces("2,6"))
    store.close()
    port = _free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(folder)}
    env.pop("TABLEE_DATABASE_URL", None)
    command = [sys.executable, "-m", "tablee", "serve", "--port", str(port), "--db", str(db)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    try:
        _wait_listening(port, process)
        yield f"http://127.0.0.1:{port}/t/{gm}", db
    finally:
        process.terminate()
        process.wait(10)


def entries(page: Page) -> list[int]:
    found: list[int] = page.eval_on_selector_all(
        "#log > li.entry", "els => els.map(e => parseInt(e.dataset.seq, 10))"
    )
    return found


def test_earlier_entries_load_above_and_the_log_stays_live(
    contexts: Contexts, long_table: tuple[str, Path], artifacts: Path
) -> None:
    url, db = long_table
    for width, height, name in ((390, 844, "phone"), (1280, 800, "wide")):
        context = contexts.new(width, height)
        page = context.new_page()
        page.goto(url)
        wait_stream_open(page)
        assert entries(page) == list(range(LAST - LOG_PAGE + 1, LAST + 1))
        control = page.locator("#log > li.earlier")
        assert control.count() == 1
        assert control.inner_text().startswith("Earlier entries")
        page.locator(".log-box").evaluate("box => { box.scrollTop = 0; }")
        control.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"long-log-{name}.png"))
        first = page.locator(f"#log > li[data-seq='{LAST - LOG_PAGE + 1}']")
        top = first.bounding_box()
        control.locator("a").click()
        page.wait_for_selector(f"#log > li[data-seq='{LAST - 2 * LOG_PAGE + 1}']")
        assert entries(page) == list(range(LAST - 2 * LOG_PAGE + 1, LAST + 1))
        moved = first.bounding_box()
        assert top is not None and moved is not None
        assert abs(moved["y"] - top["y"]) < 40  # the reader's place is kept
        page.screenshot(path=str(artifacts / f"long-log-{name}-earlier.png"))
        page.locator("#log > li.earlier a").click()
        page.wait_for_selector("#log > li[data-seq='1']", state="attached")
        assert entries(page) == list(range(1, LAST + 1))
        assert page.locator("#log > li.earlier").count() == 0
        page.close()

    # still live: an event stored now reaches the page once, after the others
    context = contexts.new(1280, 800)
    page = context.new_page()
    page.goto(url)
    wait_stream_open(page)
    store = SqliteStore(db)
    try:
        TableService(store).run_command("Long", Reward(amount=1, player="Zoé"))
    finally:
        store.close()
    page.wait_for_selector(f"#log > li[data-seq='{LAST + 1}']", state="attached")
    assert entries(page) == list(range(LAST - LOG_PAGE + 1, LAST + 2))


def test_a_reconnect_far_behind_shows_a_control_for_the_gap(
    contexts: Contexts, long_table: tuple[str, Path], artifacts: Path
) -> None:
    url, db = long_table
    context = contexts.new(1280, 800)
    page = context.new_page()
    page.goto(url)
    wait_stream_open(page)
    seen = entries(page)
    page.route("**/stream**", lambda route: route.abort())  # no reconnect gets through
    page.evaluate(
        "() => { const s = window.__sources[window.__sources.length - 1];"
        " s.close(); s.dispatchEvent(new Event('error')); }"
    )
    store = SqliteStore(db)
    try:
        service = TableService(store)
        for _ in range(LOG_PAGE + 20):
            service.run_command("Long", Reward(amount=1, player="Zoé"))
        last = service.state("Long").last_seq
    finally:
        store.close()
    page.unroute("**/stream**")
    page.wait_for_selector(f"#log > li[data-seq='{last}']", state="attached")
    latest = list(range(last - LOG_PAGE + 1, last + 1))
    assert entries(page) == seen + latest
    gap = page.locator("#log > li.earlier")
    assert gap.count() == 2  # the page's own, at the top, and the one at the gap
    assert gap.nth(1).inner_text().endswith(f"events {seen[-1] + 1} to {last - LOG_PAGE}")
    gap.nth(1).locator("a").click()
    page.wait_for_selector(f"#log > li[data-seq='{seen[-1] + 1}']", state="attached")
    assert entries(page) == list(range(seen[0], last + 1))  # nothing lost, nothing twice
    assert page.locator("#log > li.earlier").count() == 1
    page.screenshot(path=str(artifacts / "long-log-gap-filled.png"))
