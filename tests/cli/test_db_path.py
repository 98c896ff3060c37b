"""A mistyped ``--db`` path is refused: no folders and no empty database are made."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import Run


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_db_path_in_a_missing_folder_is_a_usage_error(
    run: Run, tmp_path: Path, lang: str
) -> None:
    path = tmp_path / "missing" / "t.sqlite3"
    result = run(
        "--lang",
        lang,
        "table",
        "new",
        "pouyss",
        "--name",
        "club",
        "--players",
        "A,B",
        "--db",
        str(path),
    )
    assert result.code == 2
    assert str(path) in result.err
    words = "does not exist" if lang == "en" else "n’existe pas"
    assert words in result.err, result.err
    assert not (tmp_path / "missing").exists()


def test_a_db_path_in_an_existing_folder_is_made(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    result = run("table", "new", "pouyss", "--name", "club", "--players", "A,B", "--db", str(path))
    assert result.code == 0, result.err
    assert path.is_file()
