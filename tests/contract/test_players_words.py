"""What players read names no ruling id and no seed: those belong in the docs and ``--help``.

For every game, in English and French: every command's title and every field's help (the
web forms), the house rules as sentences, what each command of the contract's session
prints (its report, trace, warnings), the table's log with the lines under each event, its
summary, its panels, and the golden playthroughs' transcripts. Refusals and validation
errors keep their ruling id (they name the value and the rule), so none is played here.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from tablee.cli.main import main
from tablee.locale import translation
from tablee.systems.declare import fields_of
from tablee.systems.plugin import GAUGES
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.contract.test_games import GOLDEN, PLAYED, SETUP, Cli, game_of, plugin_ids

RULING = re.compile(r"\b[PSGY]-[MANT]\d+\b|seed 0")
"""A ruling id (``P-M8``, ``S-A3``, ``G-M1``, ``Y-A13``) or the name of a seed file."""

LANGS = ("en", "fr")


def _text(value: Any, lang: str) -> str:
    tr = translation(lang).gettext
    if hasattr(value, "render"):
        return str(value.render(tr))
    return tr(value) if isinstance(value, str) and value else str(value)


def _leaks(texts: list[str]) -> list[str]:
    return [t for t in texts if RULING.search(t)]


def test_the_pattern_finds_an_id_and_a_seed() -> None:
    assert _leaks(["a tie (rules S-A3, S-A5)", "seed 002", "Sang 3 (G-M1)", "a tie"]) == [
        "a tie (rules S-A3, S-A5)",
        "seed 002",
        "Sang 3 (G-M1)",
    ]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", [g for g in plugin_ids() if g != "target"])
def test_titles_field_help_and_house_rules_name_no_ruling(game_id: str, lang: str) -> None:
    game = game_of(game_id)
    texts = [_text(game.title, lang)]
    texts += [_text(title, lang) for title in game.group_titles.values()]
    for command in game.commands:
        texts.append(_text(command.title, lang))
        texts += [_text(spec.param.help, lang) for spec in fields_of(command)]
        if command.faces_help:
            texts.append(_text(command.faces_help, lang))
    texts += [_text(label, lang) for label in game.option_labels.values()]
    texts += [_text(w, lang) for words in game.option_words.values() for w in words.values()]
    assert set(game.option_labels) == set(game.option_help)
    assert _leaks(texts) == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", [g for g in plugin_ids() if g != "target"])
def test_a_played_session_names_no_ruling(game_id: str, lang: str, tmp_path: Path) -> None:
    cli = Cli(tmp_path / "words.sqlite3", "words")

    def run(*argv: str) -> str:
        code, out, err = cli(*argv)
        assert code == 0, err
        return out.replace("--lang en", "")

    run("table", "new", game_id, "--name", cli.table, "--players", "Zoé,Ana")
    printed: list[str] = []
    for argv in [*SETUP.get(game_id, []), *PLAYED[game_id]]:
        code, out, err = cli(game_id, *argv, "--table", cli.table, "--lang", lang)
        assert code == 0, err
        printed.append(out)
    printed.append(run("table", "log", "--table", cli.table, "--lang", lang))
    printed.append(run("table", "show", "--table", cli.table, "--lang", lang))
    store = SqliteStore(cli.db)
    try:
        state = TableService(store).state(cli.table)
    finally:
        store.close()
    game = state.system
    for panel in game.panels(state.game):
        printed.append(_text(panel.title, lang))
        printed += [f"{_text(k, lang)} {_text(v, lang)}" for k, v in panel.rows + panel.cells]
        for gauge in panel.gauges:  # drawn as the game says: a known kind, whole counts
            assert gauge.kind in GAUGES and gauge.value >= 0, gauge
            assert gauge.kind != "boxes" or len(gauge.marks) == gauge.maximum, gauge
            said = (_text(gauge.label, lang), gauge.text, _text(gauge.described, lang))
            printed.append(" ".join(said))
    printed += [_text(rule, lang) for rule in game.house_rules(state.game)]
    lines = [line for text in printed for line in text.splitlines()]
    assert _leaks(lines) == []


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.md")), ids=lambda p: p.name)
def test_the_golden_transcripts_name_no_ruling(path: Path) -> None:
    lines = [
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if not line.startswith(("$ ", "#", "<!--"))
    ]
    assert _leaks(lines) == []


@pytest.mark.parametrize(("lang", "expected"), [("en", "Rule: G-M1."), ("fr", "Règle : G-M1.")])
def test_the_help_of_a_command_names_its_ruling(lang: str, expected: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["agents", "agent", "--help", "--lang", lang], out, err)
    assert code == 0, err.getvalue()
    text = " ".join(out.getvalue().split())
    assert text.count(expected) == 1
    shown = ("(0..1000; default 7; rule G-M1)", "(0..1000 ; par défaut 7 ; règle G-M1)")
    assert shown[0] in text or shown[1] in text


COMMAND_LINE = re.compile(r"(?:^|[\s'\"(])--[a-z]|\btablee [a-z]")
"""A command-line flag (``--port``) or command (``tablee ybs gang stop``) in a text."""


def _tips() -> list[tuple[str, int, str, str]]:
    """Every error's tip in the package: ``(file, line, keyword, template)``."""
    import ast

    import tablee

    found = []
    for path in Path(tablee.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            for kw in node.keywords:
                said = kw.value
                if (
                    kw.arg in ("tip", "cli_tip")
                    and isinstance(said, ast.Call)
                    and said.args
                    and isinstance(said.args[0], ast.Constant)
                ):
                    found.append((path.name, node.lineno, kw.arg, str(said.args[0].value)))
    return found


def test_a_tip_every_interface_shows_names_no_command_line_flag_or_command() -> None:
    tips = _tips()
    assert len([t for t in tips if t[2] == "cli_tip"]) >= 20  # the scan reads them
    shared = [t for t in tips if t[2] == "tip" and COMMAND_LINE.search(t[3])]
    assert shared == []  # such a tip is a cli_tip: the web and other interfaces leave it out
    assert COMMAND_LINE.search("give --sante +N") and COMMAND_LINE.search("'tablee ybs gang stop'")


def test_the_command_line_shows_its_own_tip_and_a_web_page_does_not() -> None:
    from tablee.errors import InputError

    error = InputError(N_TEST, tip="name the Caractéristique", cli_tip="give --characteristic")
    assert error.render(cli=True).endswith("Tip: give --characteristic")
    assert error.render().endswith("Tip: name the Caractéristique")
    assert "--" not in InputError(N_TEST, cli_tip="give --characteristic").render()


N_TEST = "a Test needs a Caractéristique and a Difficulty"
