"""The action forms in a real browser: the roll mode beside Roll, kept after a roll and usable
with the keyboard; a folded group of fields; the open form on a laptop and a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tablee.table.transcript import read_jsonl
from tests.browser.play import GM, Contexts, Table, act, stored_seqs, wait_in_sync
from tests.browser.test_access import _violations
from tests.browser.test_live_forms import live_table

BOX = "e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; }"


def stored_visibility(table: Table) -> str:
    """The visibility of the last event stored (read from the game master's export)."""
    response = table.person(GM).page.request.get(table.gm + "/export.jsonl")
    return read_jsonl(response.text()).events[-1].visibility


def mode_of(page: Page, action: str) -> str:
    found: str = page.eval_on_selector(
        f"form[action$='/act/{action}'] input[name=visibility]:checked", "e => e.value"
    )
    return found


def test_a_secret_roll_chosen_with_the_keyboard_stays_secret(
    contexts: Contexts, server: str
) -> None:
    table = live_table(contexts, server, "ybs")
    act(table.person(GM).page, "character-create", {"character": "Kenji", "player": "Ana"})
    page = table.person("Ana").page
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('#test-character option'))"
        ".some(o => o.value === 'Kenji')"
    )
    hint = page.locator("form[action$='/act/test'] .mode-hint")
    assert hint.inner_text().strip() == ""  # public: nothing to warn about
    page.focus("#test-visibility-all")
    page.keyboard.press("ArrowRight")
    assert mode_of(page, "test") == "roller_and_gm"
    assert hint.inner_text().strip() == "only the roller and the game master see the result"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.type") == "submit"
    page.keyboard.press("Enter")
    page.locator("#result-test .done").wait_for()
    wait_in_sync(table)
    assert stored_visibility(table) == "roller_and_gm"
    # the form is reset for the next roll, but the table goes on rolling secretly
    assert mode_of(page, "test") == "roller_and_gm"
    act(page, "test", {"character": "Kenji", "faces": "5"})
    assert stored_visibility(table) == "roller_and_gm"
    act(page, "test", {"character": "Kenji", "faces": "5", "visibility": "all"})
    assert stored_visibility(table) == "all" and mode_of(page, "test") == "all"
    assert len(stored_seqs(table)) == 5


def test_the_fight_fields_unfold_on_demand(contexts: Contexts, server: str) -> None:
    table = live_table(contexts, server, "ybs")
    page = table.person("Ana").page
    assert page.is_visible("#test-trait") and not page.is_visible("#test-purpose")
    page.click("form[action$='/act/test'] details.more summary >> text=In a fight")
    assert page.is_visible("#test-purpose") and page.is_visible("#test-against")
    labels = page.eval_on_selector_all("#test-purpose option", "os => os.map(o => o.text)")
    assert labels == ["not a fight test", "the Nintai gate", "an attack", "a defence"]


@pytest.mark.parametrize(
    ("width", "height", "lang"), [(390, 844, "en"), (390, 844, "fr"), (1280, 800, "en")]
)
def test_the_roll_modes_sit_beside_roll_and_pass_axe(
    contexts: Contexts, server: str, width: int, height: int, lang: str
) -> None:
    # The game master's three modes, in French the longest words (Aveugle, Lancer).
    table = live_table(contexts, server, "shs")
    page = contexts.new(width, height).new_page()
    page.goto(f"{table.gm}?lang={lang}")
    assert page.eval_on_selector_all(
        "details.action[open] form", "fs => fs.map(f => f.action.split('/').pop())"
    ) == ["test"]
    modes = page.locator("form[action$='/act/test'] fieldset.roll-mode").evaluate(BOX)
    roll = page.locator("form[action$='/act/test'] button[type=submit]").evaluate(BOX)
    assert modes[0] < (roll[0] + roll[1]) / 2 < modes[1], (modes, roll)  # one line
    assert roll[2] >= modes[3] and roll[3] <= width
    assert _violations(page) == []
