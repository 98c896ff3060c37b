"""No card or log line prints a part that says nothing: ``−0 drawn``, ``removed -``, ``star(s)``.

Every game's cards (`tablee.web.cards.card_view`) and log lines
(`tablee.table.transcript.describe`) are rendered in English and French for played
sessions of every game: the browser tests' scripted sessions (`tests.browser.play.SESSIONS`)
played here through the web forms, the golden playthroughs and the stored logs of older
releases. A consequence shows what changed, and only that; a count shows its noun in the
form its number asks for.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tablee.cli.app import Context
from tablee.dice import TypedFaces
from tablee.errors import Plural
from tablee.locale import translation
from tablee.systems.pouyss.commands import Roll
from tablee.table.projection import TableState, fold
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.table.transcript import describe, parse_jsonl
from tablee.web.cards import card_view
from tablee.web.render import translator
from tests.browser.play import GM, SESSIONS, Session
from tests.web.conftest import make_table
from tests.web.test_cards import last_card, pouyss_table, text
from tests.web.test_systems import act

TESTS = Path(__file__).resolve().parents[1]
LOGS = [
    *sorted((TESTS / "golden").glob("*.jsonl")),
    *sorted((TESTS / "fixtures").glob("*/*.jsonl")),
]

DPM_FACES = re.compile(r"D\+/- [-+0−](?:, [-+0−])*")
"""The faces of D+/- dice (``D+/- +, -``, ``D+/- 0``): a ``-`` there is a face, not nothing."""
TRAIT_VALUES = re.compile(r"\b(?:Choushi|Kiyousa|Chisei|Yuuben|Chikaku|Nintai) [-+]\d")
"""A YBS trait's value (``Yuuben +0``): a value, not a change."""
TRAIT_BONUS = re.compile(r"[-+−]\d+ trait\b")
"""A YBS trait's value added in a test's trace (``5 +0 trait = 5``): a value, not a change."""
BOXES = re.compile(r"\b\d+ Uchimi, \d+ Kega / \d+")
"""A YBS character's boxes as they stand (``1 Uchimi, 0 Kega / 5``): values, not a change."""

FAULTS = {
    "a signed zero": re.compile(r"(?<![\w/])[−+-]0(?![\d.,]\d)"),
    "a dash for nothing": re.compile(r"(?:^|(?<=[\s(:]))[-–—](?=$|[\s,;)])"),
    "a zero count": re.compile(r"\b(?<![-+−.,])0 (?!PS\b)[^\W\d]"),
    "a plural for one": re.compile(
        r"\b1 (?:[^\W\d]+ )?(?:dice|boxes|stars|tokens|points|Actions|Tours|dés|cases|étoiles"
        r"|jetons|triviales)\b"
    ),
    "a plural left open": re.compile(r"\(s\)|\(e\)|\(es\)"),
    "an empty field": re.compile(r"[:(] *[,;)]|[:;,] *$|\(\s*\)"),
}
"""What a line must not hold, by name (checked after removing values like `TRAIT_VALUES`)."""


def faults(line: str) -> list[str]:
    """The names of the faults in ``line`` (empty: none)."""
    cleaned = TRAIT_BONUS.sub(
        "TRAIT", BOXES.sub("BOXES", TRAIT_VALUES.sub("TRAIT", DPM_FACES.sub("D+/- FACES", line)))
    )
    return [name for name, pattern in FAULTS.items() if pattern.search(cleaned)]


def test_the_checker_finds_each_fault_and_spares_values() -> None:
    bad = {
        "Cagnotte: 4 → 4 (−0 drawn, +0 put back)": ["a signed zero"],
        "Simon rolls 1 + 2 bonus + 0 malus: dice 1, 2, 3, removed -, result 3": [
            "a dash for nothing",
            "a zero count",
        ],
        "Ren earns a star on Yuuben: now +1, 1 star(s)": ["a plural left open"],
        "Okabe: 1 Uchimi boxes crossed": ["a plural for one"],
        "Ash joins the film: Santé 12, Expertises: -": ["a dash for nothing"],
        "Success: 4 +0 = 4": ["a signed zero"],
        "players 2 3 1 6 4 (Zorome -)": ["a dash for nothing"],
    }
    for line, expected in bad.items():
        assert faults(line) == expected, line
    fine = [
        "Hiro joins the table: Choushi +1, Chisei -1, Yuuben +0; 5 hit points",
        "Ash rolls Test (Carrure, 4): D8 3, 2, 8, D+/- -, +: 4 PS, success",
        "a tie at 0 PS: Jake keeps the situation; D+/- 0: 0 PS",
        "Hiro rests 60 min and heals 2 Uchimi: 1 Uchimi, 0 Kega / 5",
        "challenge 1 drawn at index 0 (d6 5, 5, 6, 1): against the duke (score 0)",
        "Failure: die 1, result 0",
        "Test (Science, 2): D8 1, 1, 3, D+/- 0, -: -1 PS, failure",
        "Un prêtre-automate: −2 → 0",
    ]
    for line in fine:
        assert faults(line) == [], line


def lines_of(state: TableState[Any]) -> Iterator[tuple[str, str, str]]:
    """``(language, where, text)`` of every log line and card text of a table, in both languages."""
    for lang in ("en", "fr"):
        tr = translation(lang).gettext
        for event in state.events:
            yield lang, f"line {event.seq}", describe(event, tr, state)
            if event.kind not in state.system.kinds():
                continue
            typed = state.system.event_of(event.kind, state.payload_of(event))
            card = state.system.card(typed, state.after.get(event.seq))
            if card is None:
                continue
            view = card_view(card, lang)
            where = f"card {event.seq}"
            yield lang, where, view["result"]
            yield from ((lang, where, group["label"]) for group in view["groups"])
            yield from ((lang, where, c) for c in view["consequences"])
            if view["odds"] is not None:
                yield from ((lang, where, row["label"]) for row in view["odds"]["rows"])
                yield lang, where, view["odds"]["note"] or view["odds"]["summary"]


def assert_no_faults(state: TableState[Any]) -> int:
    """Every line of ``state`` is free of `FAULTS`; returns how many lines were read."""
    found = [
        f"{lang} {where}: {line!r} ({', '.join(faults(line))})"
        for lang, where, line in lines_of(state)
        if faults(line)
    ]
    assert not found, "\n".join(found)
    return sum(1 for _ in lines_of(state))


def play_session(system: str, client: TestClient, store: SqliteStore) -> Session:
    """Play ``system``'s scripted session on a new table ``t`` through the web forms."""
    session = SESSIONS[system]
    links = make_table(store, system=system, name="t", players=session.players)
    for who, action, fields in session.steps:
        path = links.gm if who == GM else links.players[who]
        sent = {k: v for k, v in fields.items() if k != "visibility"}
        code, page = act(client, path, action, **sent)
        assert code == 200, (who, action, page)
    return session


@pytest.mark.parametrize("system", sorted(SESSIONS))
def test_a_scripted_session_has_no_empty_parts(
    system: str, client: TestClient, store: SqliteStore
) -> None:
    session = play_session(system, client, store)
    state = TableService(store).state("t")
    assert len(state.events) == 1 + len(session.steps)
    assert assert_no_faults(state) > 0


@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_stored_log_has_no_empty_parts(log: Path) -> None:
    state = fold(parse_jsonl(log.read_text(encoding="utf-8")))
    assert assert_no_faults(state) > 0


def test_a_pouyss_roll_without_bonus_or_malus_leaves_the_cagnotte_unsaid(
    store: SqliteStore,
) -> None:
    """Nothing drawn, nothing put back: no cagnotte on the card, no ``removed`` in the line."""
    pouyss_table(store)
    service = TableService(store)
    service.run_command("Zinc", Roll(player="Zoé"), TypedFaces([5]))
    card = last_card(store, "Zinc")
    assert card is not None and card.consequences == ()
    state = service.state("Zinc")
    line = describe(state.events[-1], translation("en").gettext, state)
    assert line == "Zoé rolls 1 die: die 5, result 5 Victoire · cagnotte 4"
    french = describe(state.events[-1], translation("fr").gettext, state)
    assert french == "Zoé lance 1 dé : dé 5, résultat 5 Victoire · cagnotte 4"


def test_a_pouyss_card_shows_only_the_moves_that_happened(store: SqliteStore) -> None:
    pouyss_table(store)
    service = TableService(store)
    service.run_command("Zinc", Roll(player="Zoé", bonus=2), TypedFaces([1, 2, 3]))
    card = last_card(store, "Zinc")
    assert card is not None
    assert [text(c) for c in card.consequences] == ["Cagnotte: 4 → 2 (−2 drawn)"]
    service.run_command("Zinc", Roll(player="Ana", malus=1), TypedFaces([4, 5]))
    card = last_card(store, "Zinc")
    assert card is not None
    assert [text(c) for c in card.consequences] == ["Cagnotte: 2 → 3 (+1 put back)"]
    french = card_view(card, "fr")["consequences"]
    assert french == ["Cagnotte : 2 → 3 (remis : +1)"]
    state = service.state("Zinc")
    line = describe(state.events[-1], translation("en").gettext, state)
    assert line == "Ana rolls 1 + 1 malus: dice 4, 5, removed 5, result 4 Succès · cagnotte 3"


def test_a_count_takes_the_readers_language_in_every_interface() -> None:
    """A count's form (``1 étoile``, ``2 étoiles``) in French on the web and the command line."""
    star = {n: Plural("{n} star", "{n} stars", n) for n in (1, 2)}
    cli = Context(argparse.Namespace(), "fr")
    for tr in (translation("fr").gettext, translator("fr"), cli.tr):
        assert [star[n].render(tr) for n in (1, 2)] == ["1 étoile", "2 étoiles"], tr
    assert [star[n].render(translator("en")) for n in (1, 2)] == ["1 star", "2 stars"]


def test_a_french_web_log_line_counts_in_french(client: TestClient, store: SqliteStore) -> None:
    links = make_table(store, system="ybs", name="t", players=("Ana",))
    code, page = act(client, links.gm, "character-create", character="Mei", nintai="1")
    assert code == 200, page
    french = client.get(links.gm, params={"lang": "fr"}).text
    assert "; 4 points de vie" in french and "hit points" not in french


def report_lines(game: Any, command: Any, applied: Any) -> Iterator[tuple[str, str]]:
    """``(language, text)`` of every line of a decided command's report, as the CLI prints it."""
    report = game.report(command, applied.decision)
    for lang in ("en", "fr"):
        tr = translation(lang).gettext
        for line in report.lines:
            yield lang, line.text if isinstance(line.text, str) else line.text.render(tr)


@pytest.mark.parametrize("system", sorted(SESSIONS))
def test_a_scripted_sessions_reports_have_no_empty_parts(
    system: str, client: TestClient, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command line's report of each command says only what happened, like its card."""
    decided: list[tuple[Any, Any]] = []
    run = TableService.run_command

    def spy(self: TableService, name: str, command: Any, *args: Any, **kwargs: Any) -> Any:
        applied = run(self, name, command, *args, **kwargs)
        decided.append((command, applied))
        return applied

    monkeypatch.setattr(TableService, "run_command", spy)
    session = play_session(system, client, store)
    game = TableService(store).state("t").system
    assert len(decided) == len(session.steps)
    found = [
        f"{lang} {type(command).__name__}: {text!r} ({', '.join(faults(text))})"
        for command, applied in decided
        for lang, text in report_lines(game, command, applied)
        if faults(text)
    ]
    assert not found, "\n".join(found)
