"""A sheet nested thousands of levels deep is refused with a message, not a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import Run, create_ybs_club, log_length

DEPTH = 5000
DEEP = {
    "json": '[{"name": ' + "[" * DEPTH + "]" * DEPTH + "}]",
    "toml": "name = " + "[" * DEPTH + "]" * DEPTH + "\n",
}


@pytest.mark.parametrize("kind", ["json", "toml"])
@pytest.mark.parametrize("game", ["shs", "ybs"])
def test_a_deeply_nested_sheet_file_is_a_clear_usage_error(
    run: Run, tmp_path: Path, kind: str, game: str
) -> None:
    if game == "shs":
        assert run("table", "new", "shs", "--name", "film", "--players", "Ana,Bob").code == 0
        argv = ["shs", "protagoniste", "import"]
    else:
        create_ybs_club(run)
        argv = ["ybs", "character", "import"]
    path = tmp_path / f"deep.{kind}"
    path.write_text(DEEP[kind], encoding="utf-8")
    before = log_length(run)
    result = run(*argv, str(path))
    assert result.code == 2, result.err
    assert "deep." + kind in result.err and "nested too deeply" in result.err
    assert "Traceback" not in result.err and "RecursionError" not in result.err
    assert log_length(run) == before
    french = run("--lang", "fr", *argv, str(path))
    assert french.code == 2 and "trop profondément" in french.err, french.err


def test_a_deeply_nested_export_line_is_a_clear_usage_error(run: Run, tmp_path: Path) -> None:
    assert run("table", "new", "pouyss", "--name", "club", "--players", "A,B").code == 0
    path = tmp_path / "deep.jsonl"
    path.write_text('{"payload": ' + "[" * DEPTH + "]" * DEPTH + "}\n", encoding="utf-8")
    before = run("table", "list", "--json").out
    result = run("table", "import", str(path), "--name", "deep")
    assert result.code == 2 and "line 1 of the export is nested too deeply" in result.err
    assert run("table", "list", "--json").out == before
