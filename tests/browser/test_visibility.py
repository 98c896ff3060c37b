"""A blind roll never reaches a player's or a spectator's browser: not the page, not the stream.

The game master rolls blind with a unique note; the game master's page shows the roll with
its note and its dice. Every other browser gets only a line saying that a blind roll
happened: the note and the result text are nowhere in its page or in any message its event
streams received (recorded in the page, before htmx sees them), and a reload shows no more.
"""

from __future__ import annotations

import pytest

from tests.browser.play import (
    GM,
    RELOAD,
    SESSIONS,
    Contexts,
    act,
    entry_text,
    reload_all,
    stored_seqs,
    streamed,
    wait_in_sync,
)
from tests.browser.test_play import new_table

NOTE_FIELD = {"pouyss": "reasons"}
"""Systems whose log entry shows a free note typed with the roll (then the note is checked)."""


@pytest.mark.parametrize("system", sorted(SESSIONS))
def test_a_blind_roll_stays_with_the_game_master(
    contexts: Contexts, server: str, system: str
) -> None:
    session = SESSIONS[system]
    table = new_table(contexts, server, system, spectator=True)
    for who, action, fields in session.steps:
        if (who, action) == RELOAD[:2]:
            reload_all(table)
        elif who == GM:  # the game master's steps set the table up (characters...)
            act(table.person(GM).page, action, fields)
    reload_all(table)
    before = wait_in_sync(table)

    note = f"blind-note-{system}-7Q3"
    action, fields = session.blind
    fields = {**fields, "visibility": "gm"}
    if system in NOTE_FIELD:
        fields[NOTE_FIELD[system]] = note
    act(table.person(GM).page, action, fields)
    seqs = wait_in_sync(table)[len(before) :]
    assert seqs
    gm_page = table.person(GM).page
    secret = [entry_text(gm_page, seq) for seq in seqs]
    assert system not in NOTE_FIELD or any(note in text for text in secret), secret
    results = [gm_page.locator(f"#log > li[data-seq='{s}'] .text").inner_text() for s in seqs]

    for who, person in table.people.items():
        if who == GM:
            continue
        for page_text in (person.page.content(), *(m["data"] for m in streamed(person.page))):
            assert note not in page_text, who
            for result in results:
                assert result not in page_text, who
        for seq in seqs:
            entry = person.page.locator(f"#log > li[data-seq='{seq}']")
            assert "hidden" in entry.get_attribute("class").split(), who  # type: ignore[union-attr]
            assert "blind roll" in entry.inner_text(), who
        person.page.reload()
        assert note not in person.page.content(), who
        assert all(result not in person.page.content() for result in results), who
    assert stored_seqs(table)[-1] == seqs[-1]
