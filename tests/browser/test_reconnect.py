"""A viewer whose live log drops catches up with nothing missing and nothing twice."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page

from tests.browser.play import (
    GM,
    SESSIONS,
    Contexts,
    act,
    log_seqs,
    stored_seqs,
    streamed,
    wait_in_sync,
    wait_stream_open,
)
from tests.browser.test_play import new_table


def _drop(page: Page, context: BrowserContext, how: str) -> None:
    """End the page's stream as a server or proxy would; ``offline``: the network goes too.

    Chromium keeps an open loopback stream through `set_offline`, so the stream is ended from
    the page; while offline, every reconnection attempt then fails until the network is back.
    """
    if how == "offline":
        context.set_offline(True)
    page.evaluate(
        "() => { const s = window.__sources[window.__sources.length - 1];"
        " s.close(); s.dispatchEvent(new Event('error')); }"
    )


@pytest.mark.parametrize("how", ["offline", "closed"])
def test_a_dropped_stream_catches_up_exactly(contexts: Contexts, server: str, how: str) -> None:
    session = SESSIONS["pouyss"]
    table = new_table(contexts, server, "pouyss")
    for who, action, fields in session.steps[:2]:
        act(table.person(who).page, action, fields)
    seen = wait_in_sync(table)
    bob = table.person("Bob")
    sources = bob.page.evaluate("window.__sources.length")
    received = len(streamed(bob.page))

    _drop(bob.page, bob.context, how)
    for who, action, fields in session.steps[2:]:
        if who != "Bob":
            act(table.person(who).page, action, fields)
    stored = stored_seqs(table)
    assert len(stored) > len(seen)
    if how == "offline":
        assert log_seqs(bob.page) == seen  # nothing arrived while offline
        bob.context.set_offline(False)

    bob.page.wait_for_selector(f"#log > li[data-seq='{stored[-1]}']", state="attached")
    wait_stream_open(bob.page)
    assert log_seqs(bob.page) == stored
    # A new stream was opened, asking only for what came after the last entry seen.
    urls = bob.page.evaluate("window.__sources.map(s => s.url)")
    assert len(urls) > sources
    after = int(re.search(r"[?&]after=(\d+)", urls[-1]).group(1))  # type: ignore[union-attr]
    assert seen[-1] <= after <= stored[-1]
    # The new stream sent exactly the events missed, each once.
    ids = [int(m["id"]) for m in streamed(bob.page)[received:] if m["type"] == "log"]
    assert ids == stored[len(seen) :]
    # The others are not disturbed, and Bob still receives new events live.
    act(table.person(GM).page, "reward", {"amount": "1", "player": "Bob"})
    wait_in_sync(table)
