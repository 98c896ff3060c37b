"""Fixtures and helpers of the command-line tests: an in-process runner on a fresh file."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tablee.cli.main import main


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


Run = Callable[..., Result]


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    """Run the CLI in-process on a fresh SQLite file, English by default."""
    db = tmp_path / "cli.sqlite3"
    monkeypatch.setenv("TABLEE_DATABASE_URL", str(db))
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)

    def invoke(*argv: str) -> Result:
        out, err = io.StringIO(), io.StringIO()
        code = main(list(argv), out, err)
        return Result(code, out.getvalue(), err.getvalue())

    return invoke


@pytest.fixture
def table(run: Run) -> Run:
    """A Pouyss table 'club' with four players and a session started (cagnotte 4)."""
    assert run("table", "new", "pouyss", "--name", "club", "--players", "A,B,C,D").code == 0
    assert run("pouyss", "session", "start").code == 0
    return run


YBS_CLUB = (
    (
        "Aki",
        "--choushi",
        "1",
        "--kiyousa",
        "1",
        "--chikaku",
        "-1",
        "--player",
        "A",
        "--attribute",
        "surfer",
    ),
    ("Bo", "--nintai", "1", "--chisei", "1", "--yuuben", "-1", "--player", "B"),
    ("Thug", "--choushi", "1"),
)
"""The YBS characters of the 'club' table: Aki (A), Bo (B) and a GM character, Thug."""


def create_ybs_club(run: Run) -> Run:
    """A YBS table 'club' for A and B with the `YBS_CLUB` characters (no session yet)."""
    assert run("table", "new", "ybs", "--name", "club", "--players", "A,B").code == 0
    for args in YBS_CLUB:
        assert run("ybs", "character", "create", *args).code == 0
    return run


def log_length(run: Run) -> int:
    """How many events the current table's log shows."""
    return len(run("table", "log", "--json").json())
