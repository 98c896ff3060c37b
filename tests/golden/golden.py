"""What the golden playthroughs share: a steady clock, the command line, the comparison."""

from __future__ import annotations

import io
import os
import re
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tablee.cli.main import main
from tablee.table.projection import TableState
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore


def ticking(start: datetime, step: timedelta) -> Iterator[datetime]:
    """``start``, then every ``step`` after it, for ever (the service's clock)."""
    moment = start
    while True:
        yield moment
        moment += step


def check_golden(path: Path, text: str) -> None:
    """``text`` equals the golden file ``path`` (written instead with TABLEE_UPDATE_GOLDEN=1)."""
    if os.environ.get("TABLEE_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with TABLEE_UPDATE_GOLDEN=1 once"
    assert text == path.read_text(encoding="utf-8")


@dataclass
class CliSession:
    """A command-line session on one SQLite file, with a steady clock (see `cli_session`).

    Attributes:
        db: the SQLite file every command acts on.
    """

    db: Path

    def __call__(self, *argv: str) -> str:
        """Run one ``tablee`` command in-process; it must succeed. Returns what it printed."""
        out, err = io.StringIO(), io.StringIO()
        code = main(list(argv), out, err)
        assert code == 0, f"tablee {shlex.join(argv)} -> {code}\n{out.getvalue()}{err.getvalue()}"
        return out.getvalue()

    def play(self, script: str) -> None:
        """Run each line of ``script`` (blank lines and ``#`` comments skipped)."""
        for line in script.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                self(*shlex.split(line))

    def state(self, name: str) -> TableState:
        """The table ``name`` as the store holds it now."""
        store = SqliteStore(self.db)
        try:
            return TableService(store).state(name)
        finally:
            store.close()


@contextmanager
def cli_session(db: Path, clock: Iterator[datetime]) -> Iterator[CliSession]:
    """Commands on ``db`` with the service's clock taken from ``clock``, English output."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TABLEE_DATABASE_URL", str(db))
        patch.setenv("LANG", "en_US.UTF-8")
        for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            patch.delenv(key, raising=False)
        patch.setattr(
            "tablee.cli.app.TableService",
            lambda store: TableService(store, clock=lambda: next(clock)),
        )
        yield CliSession(db)


FRENCH_SPACE = re.compile(r"[^\W\d_][;:!?]")
"""A letter right before ``;``, ``:``, ``!`` or ``?``: French puts a space there."""
