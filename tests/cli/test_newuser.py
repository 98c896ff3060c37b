"""What a new user met following the README: options before the group, readable odds,
plurals, separators built outside the catalog, the agents' prompts, the docs' examples."""

from __future__ import annotations

import io
import os
import re
import shlex
from fractions import Fraction
from pathlib import Path

import pytest

from tablee.cli.main import main
from tablee.cli.render import exact_text
from tablee.errors import Message, joined
from tablee.locale import translation
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.table.transcript import describe
from tests.cli.conftest import Run
from tests.cli.test_cli_shs import film, test_a_whole_short_film

__all__ = ["film"]  # the fixture, imported for the SHS session below

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs" / "rules").glob("*.md"))

# --- 2. common options before the command group ---------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "pouyss", "--bonus", "1"],
        ["odds", "shs", "--threshold", "6"],
        ["odds", "ybs", "test", "--trait", "0"],
        ["odds", "agents", "action", "--modifier", "1"],
        ["table", "list"],
    ],
)
def test_common_options_before_the_group_are_accepted(run: Run, argv: list[str]) -> None:
    result = run("--lang", "fr", "--json", *argv)
    assert result.code == 0, result.err
    result.json()  # JSON asked before the group
    assert run("--lang=en", *argv).code == 0


def test_lang_before_the_group_translates_and_after_wins(run: Run) -> None:
    french = run("--lang", "fr", "odds", "pouyss", "--bonus", "1")
    assert french.code == 0 and "Probabilités exactes" in french.out
    english = run("--lang", "fr", "odds", "pouyss", "--bonus", "1", "--lang", "en")
    assert english.code == 0 and "Exact odds" in english.out


def test_db_and_table_before_the_group(run: Run, tmp_path: Path) -> None:
    db = str(tmp_path / "other.sqlite3")
    created = run("--db", db, "table", "new", "pouyss", "--name", "t1", "--players", "A,B")
    assert created.code == 0, created.err
    assert run("pouyss", "session", "start", "--table", "t1").code == 2  # not in the default db
    assert run("--db", db, "--table", "t1", "pouyss", "session", "start").code == 0
    # the value after the subcommand wins over the one before the group
    assert run("--db", db, "--table", "nope", "pouyss", "roll", "--player", "A",
               "--table", "t1", "--seed", "1").code == 0  # fmt: skip


def test_a_bad_leading_option_is_a_usage_error(run: Run) -> None:
    result = run("--lang", "de", "odds", "pouyss")
    assert result.code == 2 and "de" in result.err


# --- 3. odds text: exact fractions only when readable ------------------------------------------


def test_exact_text_shows_short_fractions_and_points_long_ones_to_json() -> None:
    assert exact_text(Fraction(11, 36)) == "11/36"
    assert exact_text(Fraction(1, 10**9 - 1)) == "1/999999999"
    assert "--json" in exact_text(Fraction(1, 10**9))
    assert "--json" in exact_text(Fraction(10**12 + 1, 10**12 + 3))


ODDS_TEXT = [
    ["odds", "pouyss", "--bonus", "3", "--malus", "2", "--passive-bonus", "1"],
    ["odds", "shs", "--threshold", "6", "--bonus", "3", "--difficulty", "2"],
    ["odds", "ybs", "test", "--trait", "1", "--tokens", "3"],
    ["odds", "ybs", "straight", "--dice", "6"],
    ["odds", "ybs", "gang-fight", "--dice", "6", "--against", "5"],
    ["odds", "ybs", "ichika"],
    ["odds", "agents", "action", "--modifier", "2"],
    ["odds", "agents", "challenge", "--reserves", "7,5,3", "--modifiers=0,1,0", "--score", "6"],
]


@pytest.mark.parametrize("argv", ODDS_TEXT)
def test_odds_text_never_prints_an_unreadable_fraction(run: Run, argv: list[str]) -> None:
    result = run(*argv)
    assert result.code == 0, result.err
    assert not re.search(r"\d{10,}", result.out), result.out


def test_gang_fight_odds_say_tie_like_the_docs_and_keep_exact_json(run: Run) -> None:
    argv = ("odds", "ybs", "gang-fight", "--dice", "5", "--against", "5")
    text = run(*argv).out
    assert re.search(r"^\s+tie\s", text, re.M) and "draw" not in text
    assert "see --json" in text
    doc = run(*argv, "--json").json()
    for key in ("win", "tie", "loss"):
        p = Fraction(doc[key])
        assert 0 < p < 1 and len(str(p.denominator)) > 9  # exact, however long
    assert Fraction(doc["win"]) + Fraction(doc["tie"]) + Fraction(doc["loss"]) == 1
    assert "`win`, `tie` and `loss`" in (ROOT / "docs" / "rules" / "ybs.md").read_text()


def test_one_token_left_is_singular(run: Run) -> None:
    assert "1 token left" in run("odds", "ybs", "test", "--trait", "0", "--tokens", "1").out
    assert "2 tokens left" in run("odds", "ybs", "test", "--trait", "0", "--tokens", "2").out


# --- 1. separators inside the catalog: French spaces before ; and : ---------------------------


def typography(message: str) -> str:
    """A translation that spaces ``;`` and ``:`` the French way, in templates only."""
    return translation("en").gettext(message).replace("; ", " ; ").replace(": ", " : ")


def test_joined_spaces_its_separator_through_the_catalog() -> None:
    items = [Message("échec"), "NT +1", Message("{n} PS", n=2)]
    assert joined(items).render() == "échec; NT +1; 2 PS"
    assert joined(items).render(typography) == "échec ; NT +1 ; 2 PS"
    assert joined([]).render() == "" and joined(["x"]).render() == "x"


UNSPACED = re.compile(r"[^\s\d][;:] ")
"""A semicolon or colon glued to the word before it (times like 20:03 have no space after)."""


def _log_lines(db: Path, table: str) -> list[str]:
    store = SqliteStore(db)
    try:
        state = TableService(store).state(table)
        return [describe(event, typography, state) for event in state.events]
    finally:
        store.close()


def test_every_shs_log_line_takes_its_separators_from_the_catalog(
    film: Run, tmp_path: Path
) -> None:
    test_a_whole_short_film(film)  # tests, modifiers, Tours, long Action, simultaneous...
    assert film("shs", "protagoniste", "kill", "Nella").code == 0
    lines = _log_lines(Path(os.environ["TABLEE_DATABASE_URL"]), "film")
    assert len(lines) > 20
    glued = [line for line in lines if UNSPACED.search(line)]
    assert glued == []
    assert any("2 simultaneous Actions and 1 trivial Action," in line for line in lines)


def test_every_pouyss_log_line_takes_its_separators_from_the_catalog(tmp_path: Path) -> None:
    from tests.golden.test_golden_pouyss import play

    db = tmp_path / "p.sqlite3"
    store = SqliteStore(db)
    try:
        play(TableService(store))
    finally:
        store.close()
    lines = _log_lines(db, "Londres 1888")
    assert any("fog ; tired" in line for line in lines)  # the reasons of a roll
    assert [line for line in lines if UNSPACED.search(line)] == []


# --- 5. a Pouyss opposed roll explains the passive side ----------------------------------------


def test_opposed_roll_says_how_the_passive_dice_entered_the_roll(run: Run) -> None:
    assert run("table", "new", "pouyss", "--name", "op", "--players", "A,B").code == 0
    assert run("pouyss", "session", "start", "--cagnotte", "3").code == 0
    result = run("pouyss", "opposed", "--active", "A", "--passive", "B",
                 "--passive-bonus", "1", "--dice", "2,5")  # fmt: skip
    assert result.code == 0, result.err
    assert "B's bonus 1 counts as malus on the roll" in result.out
    assert "the roll has bonus 0 and malus 1" in result.out
    assert "Passive side (B): 7 − 2 = 5" in result.out


# --- 6. a dead Protagoniste's temporary modifier -----------------------------------------------


def test_clock_marks_a_dead_protagonistes_modifier(film: Run) -> None:
    assert film("shs", "modifier", "add", "--protagoniste", "Nella", "--bonus", "1",
                "--tours", "3").code == 0  # fmt: skip
    alive = film("shs", "clock")
    assert "Nella" in alive.out and "dead" not in alive.out
    assert film("shs", "protagoniste", "kill", "Nella").code == 0
    assert "(dead: applies to no roll)" in film("shs", "clock").out
    doc = film("shs", "clock", "--json").json()
    assert [m["protagonist_alive"] for m in doc["clock"]["modifiers"]] == [False]


# --- 4. agents: modifier numbers, the unmoved index, the docs' examples ------------------------


def test_a_bad_modifier_tip_lists_the_numbers_the_prompt_asks_for(run: Run) -> None:
    from tablee.errors import InputError
    from tablee.systems.agents import CHECKLISTS, declared_modifier

    kind = next(iter(CHECKLISTS))
    checklist = CHECKLISTS[kind]
    with pytest.raises(InputError) as caught:
        declared_modifier(kind, ["99"])
    rendered = caught.value.render()
    assert f"1 {checklist[0].id}" in rendered and "by number or id" in rendered
    assert declared_modifier(kind, ["1"]) == declared_modifier(kind, [checklist[0].id])


def test_a_neutral_consequence_says_why_the_index_does_not_move() -> None:
    from tablee.systems.agents.log import describe as agents_describe

    payload = {
        "challenge": 2,
        "won": True,
        "records": {"progress": 1, "change": 0, "sang": 0, "helped": False,
                    "revealed": False, "objective": None, "status": "ongoing", "agents": {}},
    }  # fmt: skip
    text = agents_describe("agents.consequence_applied", payload).render()
    assert "progress index stays at 1" in text and "does not move the index" in text
    assert "+0" not in text


def _runnable_blocks(text: str) -> list[list[str]]:
    """The fenced blocks of ``tablee`` commands, continuation lines joined, comments cut.

    A block holding ``...`` or an upper-case placeholder (``N``) is an outline, not run.
    """
    blocks, lines, inside = [], [], False
    for line in text.splitlines():
        if line.startswith("```"):
            if inside and lines:
                blocks.append(lines)
            lines, inside = [], not inside
            continue
        if inside:
            lines.append(line)
    out = []
    for block in blocks:
        commands, current = [], ""
        for raw in block:
            line = raw.split("  #")[0].rstrip()
            if not current and not line.strip().startswith("tablee "):
                continue
            current = f"{current} {line.strip()}" if current else line.strip()
            if current.endswith("\\"):
                current = current[:-1]
            else:
                commands.append(current)
                current = ""
        if commands and not any("..." in c or re.search(r"\s[A-Z]\b", c) for c in commands):
            out.append(commands)
    return out


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_command_example_of_the_rules_docs_runs(
    doc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLEE_DATABASE_URL", str(tmp_path / "docs.sqlite3"))
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # play: no answers, stops at once
    (tmp_path / "answers.txt").write_text("", encoding="utf-8")
    for block in _runnable_blocks(doc.read_text(encoding="utf-8")):
        for command in block:
            err = io.StringIO()
            code = main(shlex.split(command)[1:], io.StringIO(), err)
            assert code == 0, f"{doc.name}: {command}\n{err.getvalue()}"


@pytest.mark.parametrize(("force", "tokens"), [(0, 1), (1, 1), (0, 0), (1, 2)])
def test_a_reroll_without_a_token_agrees_with_the_count(force: int, tokens: int) -> None:
    from tablee.errors import RuleError
    from tablee.systems.ybs.rolls import YbsTest, check_reroll

    with pytest.raises(RuleError) as caught:
        check_reroll(YbsTest(trait=0, force=force, tokens=tokens), 2, tokens + 1)
    verb = "was" if tokens == 1 else "were"
    assert f"only {tokens} {verb} " in str(caught.value)
