"""Golden playthrough: a Yuigahama Bad Seeds evening at the command line, scripted.

Every step is a ``tablee`` command run in-process on one SQLite file, with a steady clock and
typed-in or ``--seed`` dice: characters created and imported, a session handing out the Unmei
tokens, tests that force destiny, get assistance, s'entêter, turn a 6 into a critical success
and a 1 into a critical failure, an attribute invoked, a fight round (attack against defence),
a gang fight thrown to its end, Ichika Bachika, damage and rest, a star and a trait transfer
(one undone), the session's end. ``tablee table export`` writes the transcript (in the table's
language, French) and the JSON Lines log; the English transcript is the same state through
the English catalog. The three are diffed with the files here, and the log is imported again
(``tablee table import``) and must fold to the same evening.

Regenerate after an intended change with
``TABLEE_UPDATE_GOLDEN=1 python -m pytest tests/golden/test_golden_ybs.py`` and read the diff
before committing it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tablee.locale import translation
from tablee.table.transcript import to_markdown
from tests.golden.golden import FRENCH_SPACE, check_golden, cli_session, ticking

HERE = Path(__file__).parent
GANG = HERE.parents[1] / "examples" / "gang.toml"
NAME = "Yuigahama"

SCRIPT = f"""
table new ybs --name {NAME} --players Aki,Ren --lang fr
ybs character create Hiro --player Aki --choushi 1 --kiyousa 1 --chisei -1 \
  --attribute "tête brûlée"
# Ren (played by Ren) and Okabe (the GM's)
ybs character import {GANG}
ybs character create Jun --choushi 1 --kiyousa 1
ybs session start
ybs test Hiro --trait kiyousa --force 1 --dice 2 --note "escalader le portail"
ybs test Ren --trait yuuben --assist Hiro --dice 2
ybs stubborn --dice 5
ybs invoke Hiro --attribute "tête brûlée"
ybs test Hiro --trait choushi --dice 6
ybs critical
ybs test Ren --trait chikaku --dice 1
ybs critical-failure
ybs test Hiro --trait choushi --purpose attack --target Okabe --damage uchimi --dice 5
ybs test Okabe --trait choushi --purpose defend --against Hiro --dice 2
ybs fight resolve
ybs fight end
ybs gang start --fighter Hiro --fighter Ren --opponent Okabe --opponent Jun --outgunned players
# each side keeps what the advisor advises; the third throw ends the fight
ybs gang throw --seed 1
ybs gang advise
ybs gang throw --seed 1
ybs gang throw --seed 3
ybs ichika --choice Aki=ichika-bachika --choice Ren=ichika-bachika --opponent Okabe --seed 21
ybs damage Ren --kega 1 --note "coup de batte"
ybs rest Hiro --minutes 60
ybs star Ren --trait yuuben
ybs transfer Hiro --lower chisei --raise chikaku
table undo --reason "Hiro garde sa Chisei"
ybs transfer Hiro --lower kiyousa --raise chikaku
ybs session end
ybs character show
"""


def clock() -> Iterator[datetime]:
    return ticking(datetime(2026, 12, 1, 21, 0, tzinfo=UTC), timedelta(minutes=2))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("golden-ybs")
    with cli_session(folder / "evening.sqlite3", clock()) as tablee:
        tablee.play(SCRIPT.replace("\\\n", ""))
        french = tablee("table", "export", "--format", "md", "--table", NAME)
        jsonl = tablee("table", "export", "--format", "jsonl", "--table", NAME)
        state = tablee.state(NAME)
        (folder / "evening.jsonl").write_text(jsonl, encoding="utf-8")
        tablee("table", "import", str(folder / "evening.jsonl"), "--name", "copie")
        copy = tablee.state("copie")
    assert copy.game == state.game
    return {
        "ybs_evening.fr.md": french,
        "ybs_evening.en.md": to_markdown(state, translation("en").gettext),
        "ybs_evening.jsonl": jsonl.replace(state.table_id, "TABLE-ID"),
    }


@pytest.mark.parametrize("name", ["ybs_evening.fr.md", "ybs_evening.en.md", "ybs_evening.jsonl"])
def test_transcript_matches_the_golden_file(played: dict[str, str], name: str) -> None:
    check_golden(HERE / name, played[name])


def test_the_french_transcript_spaces_its_punctuation(played: dict[str, str]) -> None:
    assert not FRENCH_SPACE.findall(played["ybs_evening.fr.md"])


def test_the_transcripts_say_what_the_evening_went_through(played: dict[str, str]) -> None:
    english = played["ybs_evening.en.md"]
    for words in (
        "forcing destiny",
        "(assistance)",
        "s'entête",
        "critical success",
        "critical failure",
        "fight round 1 resolved",
        "winner: the GM's side",
        "Ichika Bachika!",
        "earns a star",
        "undone",
        "session 1 ends",
    ):
        assert words in english, words
