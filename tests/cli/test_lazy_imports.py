"""A Pouyss roll at the command line loads only what it uses.

Each case runs the real command line in a fresh Python process (so nothing an earlier test
imported counts) and lists the modules it loaded. No time is measured: what is checked is
that the modules a roll never needs stay unloaded, whatever the machine's speed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import Run

NEVER_FOR_A_ROLL = (
    # the other games
    "tablee.systems.shs",
    "tablee.systems.ybs",
    "tablee.systems.agents",
    # the web stack and the server-side store
    "tablee.web",
    "fastapi",
    # the designer's lab and its charts
    "tablee.lab",
    "matplotlib",
    "numpy",
    # the Discord bot
    "tablee.discord",
    "tablee.cli.bot",
    "discord",
    "starlette",
    "jinja2",
    "sqlalchemy",
    "alembic",
    "psycopg",
    # the enumeration half of the chance protocol, and exact fractions (a roll stores its
    # odds as text)
    "tablee.dice.enumeration",
    "fractions",
    # exports and imports (the trailer and its checks, the transcript), the web's links
    "tablee.table.trailer",
    "tablee.table.transcript",
    "tablee.table.links",
    # the table commands, the human output and the default database's folder
    "tablee.cli.table_cmds",
    "rich",
    "platformdirs",
    "pathlib",
    # what argparse and gettext would load for the terminal's width and the locale's names
    "shutil",
    "locale",
)
"""Modules (and their submodules) that a JSON Pouyss roll must not load."""

PROBE = """
import json, sys
from tablee.cli.main import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("tablee", *json.loads(ROOTS)))
print(json.dumps({"code": code, "loaded": loaded}), file=sys.stderr)
"""


def _loaded_by(argv: list[str], db: Path) -> tuple[dict[str, object], list[str]]:
    """Run ``tablee --db DB ARGV`` in a fresh process: its JSON answer and modules loaded."""
    roots = sorted({name.split(".")[0] for name in NEVER_FOR_A_ROLL} | {"secrets", "random"})
    code = PROBE.replace("ROOTS", repr(json.dumps(roots)))
    env = {k: v for k, v in os.environ.items() if k != "TABLEE_DATABASE_URL"}
    done = subprocess.run(
        [sys.executable, "-c", code, "--db", str(db), *argv],
        capture_output=True,
        text=True,
        timeout=60,
        env={**env, "LANG": "en_US.UTF-8"},
        check=False,
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["code"] == 0, done.stderr
    return json.loads(done.stdout), report["loaded"]


def _never(loaded: list[str]) -> list[str]:
    return [m for m in loaded if any(m == n or m.startswith(n + ".") for n in NEVER_FOR_A_ROLL)]


@pytest.fixture
def table(run: Run, tmp_path: Path) -> Path:
    """A Pouyss table ``lazy`` with an open session, in the file the runner uses."""
    assert run("table", "new", "pouyss", "--name", "lazy", "--players", "Simon,Ada").code == 0
    assert run("--table", "lazy", "pouyss", "session", "start").code == 0
    return tmp_path / "cli.sqlite3"


def test_a_roll_with_typed_faces_loads_no_other_game_nor_enumeration(table: Path) -> None:
    argv = ["--table", "lazy", "pouyss", "roll", "--player", "Simon", "--bonus", "1"]
    answer, loaded = _loaded_by([*argv, "--malus", "2", "--dice", "1,4,5,6", "--json"], table)
    assert answer["value"] == 4 and answer["dice"] == [1, 4, 5, 6]
    assert _never(loaded) == []
    assert "tablee.systems.pouyss.plugin" in loaded  # the probe sees what was loaded
    assert "secrets" not in loaded and "random" not in loaded  # typed faces draw nothing


def test_a_live_roll_loads_no_other_game_nor_enumeration(table: Path) -> None:
    answer, loaded = _loaded_by(
        ["--table", "lazy", "pouyss", "roll", "--player", "Ada", "--json"], table
    )
    assert answer["player"] == "Ada" and len(answer["dice"]) == 1
    assert _never(loaded) == []
    assert "secrets" in loaded  # a live roll draws its faces from the system's generator


def test_the_enumeration_is_still_reached_through_the_dice_package() -> None:
    code = (
        "import sys\n"
        "import tablee.dice as dice\n"
        "assert 'tablee.dice.enumeration' not in sys.modules\n"
        "from tablee.dice import D6, DiceRequest, exact\n"
        "from tablee.dice import absorbing\n"
        "from tablee.dice import enumeration\n"
        "assert exact is enumeration.exact and absorbing is enumeration.absorbing\n"
        "assert dice.EXACT_BUDGET == enumeration.EXACT_BUDGET\n"
        "print(exact(lambda c: max(c.roll(DiceRequest(D6, 2)))).weights[6])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "11"  # 11 of the 36 rolls of 2d6 show a 6


def test_the_ybs_game_loads_its_race_advice_only_when_a_gang_fight_asks() -> None:
    # Every YBS command loads the game; the race advice and its solved policies are for
    # gang fights alone.
    code = (
        "import sys\n"
        "import tablee.systems.ybs.plugin\n"
        "assert 'tablee.systems.ybs.race' not in sys.modules\n"
        "assert 'tablee.systems.ybs.race_table' not in sys.modules\n"
        "from tablee.systems.ybs.views import gang_advice\n"
        "from tablee.systems.ybs.race import race_keep\n"
        "print(' '.join(map(str, race_keep((1, 2, 3, 5, 6), (1, 1, 3, 4, 5)))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "3 5 6"


def test_the_trailer_is_still_reached_through_the_chain_module() -> None:
    code = (
        "import sys\n"
        "from tablee.table import chain\n"
        "assert 'tablee.table.trailer' not in sys.modules\n"
        "from tablee.table.chain import Trailer, verify_export\n"
        "from tablee.table import trailer\n"
        "assert Trailer is trailer.Trailer and verify_export is trailer.verify_export\n"
        "assert chain.make_trailer is trailer.make_trailer\n"
        "from tablee.table import Checked, Imported\n"
        "from tablee.table.service import Imported as FromService\n"
        "assert Imported is FromService is trailer.Imported and Checked is trailer.Checked\n"
        "from tablee.table.store import LinkInfo\n"
        "from tablee.table import links\n"
        "assert LinkInfo is links.LinkInfo\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("columns", ["120", "45", "0", "-3", "wide", None])
def test_the_help_width_is_the_one_shutil_gives(
    columns: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from tablee.cli.main import _terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert _terminal_columns() == shutil.get_terminal_size().columns


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_catalogs_are_those_gettext_finds(lang: str) -> None:
    import gettext

    from tablee.locale import DOMAIN, LOCALE_DIR, translation

    found = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)
    ours = translation(lang)
    assert type(ours) is type(found) is gettext.GNUTranslations
    assert ours._catalog == found._catalog  # type: ignore[attr-defined]
    assert ours.plural(2) == found.plural(2)  # type: ignore[attr-defined]


def test_a_caller_in_process_finds_the_collector_as_it_was(run: Run) -> None:
    import gc

    frozen = gc.get_freeze_count()
    assert gc.isenabled()
    assert run("table", "new", "pouyss", "--name", "gc", "--players", "Simon").code == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen


@pytest.mark.parametrize(("argv", "code"), [(["--version"], 0), (["pouyss", "nope"], 2)])
def test_the_program_freezes_its_start_up_and_leaves_the_collector_on(
    argv: list[str], code: int
) -> None:
    probe = (
        "import gc, sys\n"
        "from tablee.cli.main import main\n"
        "sys.argv = ['tablee', *sys.argv[1:]]\n"
        "code = main()\n"
        "print(code, gc.isenabled(), gc.get_freeze_count() > 0, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=60
    )
    # --version exits while parsing, a usage error before the command: nothing is frozen
    # then, and the collector is on again either way
    assert done.stderr.strip().splitlines()[-1] == f"{code} True False"


def test_the_program_runs_its_command_with_the_start_up_frozen(table: Path) -> None:
    probe = (
        "import gc, sys\n"
        "from tablee.cli.main import main\n"
        "sys.argv = ['tablee', *sys.argv[1:]]\n"
        "code = main()\n"
        "print(code, gc.isenabled(), gc.get_freeze_count() > 1000, file=sys.stderr)\n"
    )
    argv = ["--db", str(table), "--table", "lazy", "pouyss", "roll", "--player", "Simon"]
    done = subprocess.run(
        [sys.executable, "-c", probe, *argv, "--dice", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stderr.strip().splitlines()[-1] == "0 True True", done.stderr
    assert json.loads(done.stdout)["value"] == 3
