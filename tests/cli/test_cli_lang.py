"""The command line in French and English (``--lang``), in-process on a SQLite file."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from tablee.cli.main import main

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    """Run ``tablee ARGS --db FILE``; the locale says English unless ``--lang`` says otherwise."""
    db = tmp_path / "lang.sqlite3"
    monkeypatch.delenv("TABLEE_DATABASE_URL", raising=False)
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "C")

    def invoke(*argv: str, db_option: bool = True) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        args = [*argv, "--db", str(db)] if db_option else list(argv)
        code = main(args, out=out, err=err)
        return code, out.getvalue(), err.getvalue()

    return invoke


@pytest.fixture
def session(cli: Run) -> Run:
    """A Pouyss table 't' (players A and B) with a session started (cagnotte 2)."""
    code, _, err = cli("table", "new", "pouyss", "--name", "t", "--players", "A,B")
    assert code == 0, err
    code, _, err = cli("pouyss", "session", "start")
    assert code == 0, err
    return cli


ROLL = ("pouyss", "roll", "--player", "A", "--bonus", "1", "--dice", "3,5")


def test_roll_in_french(session: Run) -> None:
    code, out, err = session(*ROLL, "--lang", "fr")
    assert code == 0, err
    assert "A lance 1 + 1 bonus\n" in out
    assert "Dés : 3 5" in out
    assert "Résultat : 5 Victoire" in out
    assert "Cagnotte : 2 → 1" in out
    assert "Result:" not in out


def test_roll_in_english(session: Run) -> None:
    code, out, err = session(*ROLL, "--lang", "en")
    assert code == 0, err
    assert "A rolls 1 + 1 bonus\n" in out
    assert "Result: 5 Victoire" in out
    assert "Cagnotte: 2 → 1" in out
    assert "Résultat" not in out


def test_lang_follows_the_locale_by_default(session: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    code, out, err = session(*ROLL)
    assert code == 0, err
    assert "Résultat : 5 Victoire" in out
    code, out, err = session(*ROLL, "--lang", "en")
    assert code == 0, err
    assert "Result: 5 Victoire" in out


def test_session_start_uses_french_plurals(cli: Run) -> None:
    assert cli("table", "new", "pouyss", "--name", "t", "--players", "A,B")[0] == 0
    code, out, err = cli("pouyss", "session", "start", "--lang", "fr")
    assert code == 0, err
    assert "La partie 1 commence avec 2 dés dans la cagnotte." in out
    assert cli("pouyss", "session", "end")[0] == 0
    code, out, err = cli("pouyss", "session", "start", "--cagnotte", "1", "--lang", "fr")
    assert code == 0, err
    assert "La partie 2 commence avec 1 dé dans la cagnotte." in out


def test_usage_error_in_french(session: Run) -> None:
    code, out, err = session("pouyss", "roll", "--bonus", "1", "--lang", "fr")
    assert code == 2
    assert out == ""
    assert err.startswith("usage : tablee pouyss roll")
    assert "tablee pouyss roll : erreur : les arguments suivants sont requis : --player" in err
    assert "required" not in err


def test_usage_error_in_english(session: Run) -> None:
    code, _, err = session("pouyss", "roll", "--bonus", "1", "--lang", "en")
    assert code == 2
    assert err.startswith("usage: tablee pouyss roll")
    assert "tablee pouyss roll: error: the following arguments are required: --player" in err


def test_invalid_choice_in_french(cli: Run) -> None:
    code, _, err = cli("table", "new", "gurps", "--name", "t", "--players", "A", "--lang", "fr")
    assert code == 2
    assert "choix invalide : 'gurps' (choisir parmi 'pouyss', 'shs', 'ybs', 'agents')" in err


def test_rule_refusal_in_french(cli: Run) -> None:
    assert cli("table", "new", "pouyss", "--name", "t", "--players", "A,B")[0] == 0
    assert cli("pouyss", "session", "start", "--cagnotte", "0")[0] == 0
    code, out, err = cli(*ROLL, "--lang", "fr")
    assert code == 3
    assert out == ""
    assert err.startswith("erreur : ")
    assert "le bonus demande 1 dé(s) à la cagnotte, qui n'en contient que 0 (règle P-M5)" in err
    assert "Conseil :" in err


def test_rule_refusal_in_english(cli: Run) -> None:
    assert cli("table", "new", "pouyss", "--name", "t", "--players", "A,B")[0] == 0
    assert cli("pouyss", "session", "start", "--cagnotte", "0")[0] == 0
    code, _, err = cli(*ROLL, "--lang", "en")
    assert code == 3
    assert err.startswith("error: the bonus takes 1 from the cagnotte, which holds only 0")
    assert "Tip:" in err


def test_help_in_french(cli: Run, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli("pouyss", "roll", "--help", "--lang", "fr", db_option=False)
    assert code == 0
    help_text = out + capsys.readouterr().out  # on `out`, or on sys.stdout (argparse)
    assert help_text.startswith("usage : tablee pouyss roll")
    assert "afficher ce message d'aide et quitter" in help_text
    assert "qui lance les dés" in help_text
    assert "options communes" in help_text
    assert "langue d'affichage" in help_text
    assert "show this help message" not in help_text


def test_top_level_help_in_french(cli: Run, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli("--help", "--lang", "fr", db_option=False)
    assert code == 0
    help_text = out + capsys.readouterr().out
    assert "Tablée : moteur de règles et table virtuelle pour Pouyss" in help_text
    assert "jouer à Pouyss" in help_text
    assert "créer et gérer les tables" in help_text


def _headings(help_text: str) -> list[str]:
    """The section headings of a help text: unindented lines ending with a colon."""
    return [line for line in help_text.splitlines() if line[:1].isalpha() and line.endswith(":")]


@pytest.mark.parametrize("argv", [("shs", "scene", "start"), ("pouyss", "roll"), ()])
def test_french_help_headings_have_a_space_before_the_colon(
    cli: Run, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    code, out, _ = cli(*argv, "--help", "--lang", "fr", db_option=False)
    assert code == 0
    headings = _headings(out + capsys.readouterr().out)
    assert "options :" in headings
    assert all(h.endswith(" :") and not h.endswith("  :") for h in headings), headings
    if argv:
        assert "options communes :" in headings
    if argv and argv[0] == "shs":
        assert "arguments positionnels :" in headings


def test_english_help_headings_are_unchanged(cli: Run, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli("shs", "scene", "start", "--help", "--lang", "en", db_option=False)
    assert code == 0
    headings = _headings(out + capsys.readouterr().out)
    assert headings == ["positional arguments:", "options:", "common options:"]


def test_help_in_english(cli: Run, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli("pouyss", "roll", "--help", "--lang", "en", db_option=False)
    assert code == 0
    help_text = out + capsys.readouterr().out
    assert help_text.startswith("usage: tablee pouyss roll")
    assert "show this help message and exit" in help_text
    assert "who rolls" in help_text


def test_help_names_each_option_s_default(cli: Run, capsys: pytest.CaptureFixture[str]) -> None:
    """An option left out takes its declared default: the help says which, in both languages."""
    width = {"COLUMNS": "200"}
    with pytest.MonkeyPatch.context() as patch:
        for name, value in width.items():
            patch.setenv(name, value)
        code, out, _ = cli("lab", "pouyss", "economy", "--help", "--lang", "en", db_option=False)
        english = out + capsys.readouterr().out
        code_fr, out, _ = cli("lab", "pouyss", "economy", "--help", "--lang", "fr", db_option=False)
        french = out + capsys.readouterr().out
        code_roll, out, _ = cli("pouyss", "roll", "--help", "--lang", "en", db_option=False)
        roll = out + capsys.readouterr().out
    assert code == code_fr == code_roll == 0
    assert "rolls per player in a session (1..100; default 8)" in english
    assert "(1..20; default 2; rule P-M5)" in english  # the range, the default, the rule
    assert "when the narrator sets a malus die (default third)" in english  # a word's default
    assert "jets par joueur dans une séance (1..100 ; par défaut 8)" in french
    assert "bonus dice asked for (0..; default 0; rule P-M1)" in roll
    assert "who rolls\n" in roll  # a required option has no default to name
