"""The example sheet files the README points to import as shown there."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import Run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_shs_crew_imports_with_the_names_the_readme_uses(run: Run) -> None:
    assert run("table", "new", "shs", "--name", "Nostromo", "--players", "Ana,Bob").code == 0
    result = run("shs", "protagoniste", "import", str(EXAMPLES / "crew.toml"), "--json")
    assert result.code == 0, result.err
    assert "Nella" in result.out and "Ripley" in result.out


def test_the_ybs_gang_imports_with_the_names_the_readme_uses(run: Run) -> None:
    assert run("table", "new", "ybs", "--name", "Yuigahama", "--players", "Aki,Ren").code == 0
    result = run("ybs", "character", "import", str(EXAMPLES / "gang.toml"), "--json")
    assert result.code == 0, result.err
    assert "Ren" in result.out and "Okabe" in result.out
    sheet = run("ybs", "character", "show", "Okabe", "--json")
    assert sheet.code == 0
    assert sheet.json()["characters"]["Okabe"]["owner"] is None  # the game master's
