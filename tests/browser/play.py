"""Helpers of the browser tests: people at a table, forms filled as a person would, log checks.

A short session of each system the web table supports is kept as data (`SESSIONS`): a list of
steps ``(who, action, fields)`` done through the pages. Adding a system is one more entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

from tablee.table.transcript import read_jsonl

TIMEOUT_MS = 30_000
"""How long a page may take to answer: long enough for a loaded 2-core machine (a wait, not a
measure: no test asserts how fast a page answers)."""
GM = "gm"
RELOAD = ("*", "reload", {})
"""A step: every person reloads their page (and its stream reopens)."""
IDENTITY = {"organisation": "Bureau 9", "signature": "a silver lighter"}
"""What a new agent's form needs besides its name (G-M1: chosen by its player)."""

Step = tuple[str, str, dict[str, Any]]


@dataclass(frozen=True)
class Session:
    """A short scripted session of one system.

    Attributes:
        system: the system id of the home page's form.
        players: the players' names.
        steps: ``(who, action, fields)``: ``who`` is ``gm`` or a player's name.
        blind: a game master's roll (``fields`` without ``visibility``) made blind in tests.
        player_roll: a roll any player can make for themself, with ``{player}`` filled in.
    """

    system: str
    players: tuple[str, ...]
    steps: tuple[Step, ...]
    blind: tuple[str, dict[str, Any]]
    player_roll: dict[str, tuple[str, dict[str, Any]]]


CREW = {"carrure": "5+", "motricite": "6", "science": "6", "relationnel": "6", "sang_froid": "6"}
"""An SHS Protagoniste's five thresholds (S-M9), typed in the creation form."""

SESSIONS = {
    "pouyss": Session(
        "pouyss",
        ("Ana", "Bob"),
        (
            (GM, "session-start", {}),
            ("Ana", "roll", {"bonus": "1", "reasons": "a rope\nthe night"}),
            ("Bob", "roll", {"malus": "1", "faces": "3,5"}),
            (GM, "reward", {"amount": "1", "player": "Ana", "reason": "a good idea"}),
            ("Ana", "roll", {"visibility": "roller_and_gm"}),
            (GM, "roll", {"player": "Bob", "imposed_malus": "1"}),
        ),
        ("roll", {"player": "Bob", "bonus": "1"}),
        {"Ana": ("roll", {}), "Bob": ("roll", {})},
    ),
    "shs": Session(
        "shs",
        ("Ana", "Bob"),
        (
            (GM, "protagoniste-create", {"protagonist": "Kira", "player": "Ana", **CREW}),
            (GM, "protagoniste-create", {"protagonist": "Rook", "player": "Bob", **CREW}),
            (
                "Ana",
                "test",
                {"protagoniste": "Kira", "characteristic": "carrure", "difficulty": "1"},
            ),
            (
                "Bob",
                "test",
                {"protagoniste": "Rook", "characteristic": "science", "difficulty": "2"},
            ),
            (GM, "scene-start", {"kind": "rythmee"}),
            (
                "Ana",
                "test",
                {
                    "protagoniste": "Kira",
                    "characteristic": "carrure",
                    "difficulty": "1",
                    "visibility": "roller_and_gm",
                },
            ),
        ),
        ("test", {"protagoniste": "Rook", "characteristic": "sang_froid", "difficulty": "1"}),
        {
            "Ana": (
                "test",
                {"protagoniste": "Kira", "characteristic": "science", "difficulty": "1"},
            ),
            "Bob": (
                "test",
                {"protagoniste": "Rook", "characteristic": "science", "difficulty": "1"},
            ),
        },
    ),
    "ybs": Session(
        "ybs",
        ("Ana", "Bob"),
        (
            (GM, "session-start", {}),
            (GM, "character-create", {"character": "Kenji", "player": "Ana", "choushi": "2"}),
            (GM, "character-create", {"character": "Mei", "player": "Bob", "nintai": "1"}),
            ("Ana", "test", {"character": "Kenji", "trait": "choushi"}),
            ("Bob", "test", {"character": "Mei", "trait": "nintai", "faces": "5"}),
            (GM, "damage", {"character": "Kenji", "uchimi": "1"}),
            (
                "Ana",
                "test",
                {"character": "Kenji", "trait": "chisei", "visibility": "roller_and_gm"},
            ),
        ),
        ("test", {"character": "Mei", "trait": "chikaku"}),
        {"Ana": ("test", {"character": "Kenji"}), "Bob": ("test", {"character": "Mei"})},
    ),
    "agents": Session(
        "agents",
        ("Ana", "Bob"),
        (
            (GM, "agent", {"name": "Rex", "owner": "Ana", **IDENTITY}),
            (GM, "agent", {"name": "Zia", "owner": "Bob", **IDENTITY}),
            (
                GM,
                "challenge",
                {
                    "kind": "muscles",
                    "agents": "Rex\nZia",
                    "oppositions": "Troll:9",
                    "label": "a troll",
                },
            ),
            ("Ana", "act", {"agent": "Rex", "declaration": "a shoulder charge"}),
            ("Bob", "act", {"agent": "Zia", "faces": "4"}),
            ("Ana", "act", {"agent": "Rex", "visibility": "roller_and_gm"}),
        ),
        ("act", {"agent": "Rex"}),
        {"Ana": ("act", {"agent": "Rex"}), "Bob": ("act", {"agent": "Zia"})},
    ),
}
"""The scripted sessions, by system id."""


@dataclass
class Person:
    """Someone at the table: their own browser context and the page of their link."""

    who: str
    url: str
    context: BrowserContext
    page: Page


@dataclass
class Table:
    """A table made through the home page, and its links (absolute URLs)."""

    name: str
    gm: str
    players: dict[str, str]
    spectator: str
    people: dict[str, Person] = field(default_factory=dict)

    def person(self, who: str) -> Person:
        """The game master (``gm``), a player by name, or ``spectator``."""
        return self.people[who]


class Contexts:
    """Makes one browser context per person and closes them all at the end."""

    def __init__(self, browser: Browser, init_script: str) -> None:
        self.browser = browser
        self.init_script = init_script
        self.made: list[BrowserContext] = []

    def new(self, width: int = 1280, height: int = 800) -> BrowserContext:
        """A fresh context (its own cookies), recording its event streams."""
        context = self.browser.new_context(
            viewport={"width": width, "height": height}, locale="en-GB"
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.add_init_script(self.init_script)
        self.made.append(context)
        return context

    def close(self) -> None:
        """Close every context made."""
        for context in self.made:
            context.close()


def create_table(page: Page, base: str, system: str, name: str, players: tuple[str, ...]) -> Table:
    """Create a table through the home page, as a game master would; read its links."""
    page.goto(base + "/")
    page.select_option("#system", system)
    page.fill("#name", name)
    page.fill("#players", "\n".join(players))
    page.select_option("#table_lang", "en")
    page.click("form[action='/tables'] button[type=submit]")
    page.wait_for_selector(".join-card")
    labels = page.eval_on_selector_all(".join-card h2", "els => els.map(e => e.textContent.trim())")
    urls = page.eval_on_selector_all(".join-card input.link-text", "els => els.map(e => e.value)")
    by_label = dict(zip(labels, urls, strict=True))
    return Table(
        name,
        by_label["game master"],
        {p: by_label[f"player {p}"] for p in players},
        by_label["spectator"],
    )


def open_link(context: BrowserContext, url: str) -> Page:
    """Open a link's page and wait until its live log's stream is open."""
    page = context.new_page()
    page.goto(url)
    wait_stream_open(page)
    return page


def wait_stream_open(page: Page) -> None:
    """Wait until the page's newest EventSource is open."""
    page.wait_for_function(
        "() => window.__sources && window.__sources.length > 0"
        " && window.__sources[window.__sources.length - 1].readyState === 1"
    )


def seat(contexts: Contexts, table: Table, *, spectator: bool = False) -> Table:
    """Open the game master's and each player's link, each in their own context."""
    links = {GM: table.gm, **table.players}
    if spectator:
        links["spectator"] = table.spectator
    for who, url in links.items():
        context = contexts.new()
        table.people[who] = Person(who, url, context, open_link(context, url))
    return table


def reload_all(table: Table) -> None:
    """Every person reloads their page (and its stream reopens)."""
    for person in table.people.values():
        person.page.reload()
        wait_stream_open(person.page)


def act(page: Page, action: str, fields: dict[str, Any]) -> None:
    """Fill an action's form as a person would, send it, and require a success.

    The form is unfolded first, and so is the folded group of any field given; the roll
    mode (``visibility``) is chosen by its button beside Roll.

    Raises:
        AssertionError: the server refused the action (its message is shown).
    """
    form = page.locator(f"form[action$='/act/{action}']")
    details = page.locator(f"details.action:has(form[action$='/act/{action}'])")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    for name, value in fields.items():
        box = form.locator(f"[name='{name}']")
        if name == "visibility":  # the roll mode: a row of radio buttons beside Roll
            form.locator(f"label[for='{action}-visibility-{value}']").click()
            continue
        more = form.locator(f"details.more:has([name='{name}'])")  # a folded group: unfold it
        if more.count() and more.get_attribute("open") is None:
            more.locator("summary").click()
        kind = box.evaluate("e => e.tagName + ':' + (e.type || '')")
        if kind.startswith("SELECT"):
            box.select_option(str(value))
        elif kind == "INPUT:checkbox":
            box.set_checked(bool(value))
        else:
            box.fill(str(value))
    page.evaluate(f"document.getElementById('result-{action}').replaceChildren()")
    with page.expect_response(lambda r: r.request.method == "POST" and "/act/" in r.url) as sent:
        form.locator("button[type=submit]").click()
    response = sent.value
    assert response.status == 200, (response.status, response.text())
    page.locator(f"#result-{action} .done").wait_for()


def stored_seqs(table: Table) -> list[int]:
    """The sequence numbers stored for the table (read from the game master's export)."""
    page = table.person(GM).page
    response = page.request.get(table.gm + "/export.jsonl")
    assert response.ok, response.status
    export = read_jsonl(response.text())
    assert export.trailer is not None and export.trailer.events == len(export.events)
    return [event.seq for event in export.events]


def log_seqs(page: Page) -> list[int]:
    """The sequence numbers of the entries drawn in a page's log, in page order."""
    found: list[int] = page.eval_on_selector_all(
        "#log > li", "els => els.map(e => parseInt(e.dataset.seq, 10))"
    )
    return found


def entry_text(page: Page, seq: int) -> str:
    """The whole visible text of one log entry."""
    return page.locator(f"#log > li[data-seq='{seq}']").inner_text()


def wait_in_sync(table: Table) -> list[int]:
    """Wait until every page shows every stored event once, in order; return the seqs."""
    stored = stored_seqs(table)
    assert stored == list(range(1, len(stored) + 1)), stored
    for person in table.people.values():
        person.page.wait_for_selector(f"#log > li[data-seq='{stored[-1]}']", state="attached")
        assert log_seqs(person.page) == stored, person.who
    return stored


def streamed(page: Page) -> list[dict[str, Any]]:
    """Every message the page's event streams received: source, url, type, id, data."""
    found: list[dict[str, Any]] = page.evaluate("window.__sse")
    return found


def step(table: Table, who: str, action: str, fields: dict[str, Any]) -> list[int]:
    """One step of a session, then wait until every page shows it; return the new seqs."""
    before = stored_seqs(table)
    if (who, action) == RELOAD[:2]:
        reload_all(table)
        return []
    act(table.person(who).page, action, fields)
    after = wait_in_sync(table)
    assert len(after) > len(before), (who, action)
    return after[len(before) :]
