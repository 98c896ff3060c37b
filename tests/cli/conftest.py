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
