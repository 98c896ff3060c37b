"""Golden playthrough: a Space Horror Stories film at the command line, seeded and scripted.

Every step is a ``tablee`` command run in-process on one SQLite file, with a steady clock and
``--seed`` dice: Protagonistes created and imported, a scène rythmée and its Tours, Tests (one
with Se Surpasser, one with Se Sacrifier, one over several Tours), an opposed Action, a
cooperation, simultaneous Actions, a temporary Malus that ends by hand, Santé and Air changes,
an undo, then a scène lente and game time. ``tablee table export`` writes the transcript (in
the table's language, French) and the JSON Lines log; the English transcript is the same
state through the English catalog. The three are diffed with the files here, and the log is
imported again (``tablee table import``) and must fold to the same film.

Regenerate after an intended change with
``TABLEE_UPDATE_GOLDEN=1 python -m pytest tests/golden/test_golden_shs.py`` and read the diff
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
CREW = HERE.parents[1] / "examples" / "crew.toml"
NAME = "Nostromo"

SCRIPT = f"""
table new shs --name {NAME} --players Ana,Bob --lang fr
shs protagoniste create --name Jake --player Ana --carrure 6 --motricite 6 --science 7 \
  --relationnel 7 --sang-froid 8 --expertise Sauter
shs protagoniste import {CREW}
# a Protagoniste without a player is the Réalisateur's
shs protagoniste create --name Ash --carrure 5 --motricite 7 --science 5 --relationnel 8 \
  --sang-froid 5
shs scene start rythmee
shs tour next
shs test --protagoniste Jake --test "Test (Motricité, 2)" --bonus 1 --seed 11 \
  --reason "sauter par-dessus la grille"
shs test --protagoniste Ripley --characteristic sang_froid --difficulty 3 --option surpasser \
  --seed 12 --odds
shs opposed --first Jake:motricite --second Ash:carrure:bonus=1 --seed 13
shs cooperation --member Jake:science --member Nella:science:expertise=Pirater --difficulty 2 \
  --seed 14
shs simultaneous --protagoniste Nella --action motricite:1 --action science:2 --trivial 1 \
  --seed 15
shs modifier add --protagoniste Jake --malus 1 --tours 2 --label fumée
shs long-action start --protagoniste Nella --label "pirater la porte" --tours 2
shs tour next
# the Malus counts on Jake's Test; Nella's long Action is rolled in its last Tour
shs test --protagoniste Jake --characteristic carrure --difficulty 1 --seed 16
shs test --protagoniste Nella --characteristic science --difficulty 2 \
  --long-action "pirater la porte" --expertise Pirater --seed 17
shs protagoniste edit Jake --set-air 4
table undo --reason "erreur de saisie"
shs protagoniste edit Jake --sante -2 --air 3
shs test --protagoniste Ash --characteristic carrure --difficulty 4 --option sacrifier --seed 18
shs tour next
shs scene start lente
shs time advance 30 min
shs modifier end 13
shs clock
shs protagoniste show
"""


def clock() -> Iterator[datetime]:
    return ticking(datetime(2026, 12, 1, 20, 0, tzinfo=UTC), timedelta(minutes=2))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("golden-shs")
    with cli_session(folder / "film.sqlite3", clock()) as tablee:
        tablee.play(SCRIPT.replace("\\\n", ""))
        french = tablee("table", "export", "--format", "md", "--table", NAME)
        jsonl = tablee("table", "export", "--format", "jsonl", "--table", NAME)
        state = tablee.state(NAME)
        (folder / "film.jsonl").write_text(jsonl, encoding="utf-8")
        tablee("table", "import", str(folder / "film.jsonl"), "--name", "copie")
        copy = tablee.state("copie")
    assert copy.game == state.game
    return {
        "shs_film.fr.md": french,
        "shs_film.en.md": to_markdown(state, translation("en").gettext),
        "shs_film.jsonl": jsonl.replace(state.table_id, "TABLE-ID"),
    }


@pytest.mark.parametrize("name", ["shs_film.fr.md", "shs_film.en.md", "shs_film.jsonl"])
def test_transcript_matches_the_golden_file(played: dict[str, str], name: str) -> None:
    check_golden(HERE / name, played[name])


def test_the_french_transcript_spaces_its_punctuation(played: dict[str, str]) -> None:
    assert not FRENCH_SPACE.findall(played["shs_film.fr.md"])


def test_the_transcripts_say_what_the_film_went_through(played: dict[str, str]) -> None:
    english = played["shs_film.en.md"]
    for words in ("Se Surpasser", "Se Sacrifier", "Protagoniste against Protagoniste", "undone"):
        assert words in english, words
