"""The web table and the command line share one store: each sees what the other made."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tablee.cli.main import main


def cli(db: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([*argv, "--db", str(db), "--lang", "en"], out, err)
    return code, out.getvalue(), err.getvalue()


def test_a_table_made_in_the_browser_is_played_from_the_command_line(
    client: TestClient, db: Path
) -> None:
    home = client.get("/")
    csrf = re.search(r'name="csrf" value="([^"]+)"', home.text)
    assert csrf is not None
    made = client.post(
        "/tables",
        data={
            "csrf": csrf.group(1),
            "system": "pouyss",
            "name": "Web",
            "players": "Zoé\nAna",
            "lang": "en",
        },
    )
    gm = re.findall(r'href="http://testserver(/t/[^"]+)"', made.text)[0]
    assert cli(db, "pouyss", "session", "start", "--table", "Web")[0] == 0
    code, out, _ = cli(
        db,
        "pouyss",
        "roll",
        "--player",
        "Zoé",
        "--bonus",
        "1",
        "--dice",
        "3,5",
        "--table",
        "Web",
        "--json",
    )
    assert code == 0 and json.loads(out)["value"] == 5
    page = client.get(gm).text
    assert "session 1 starts" in page and "Zoé rolls" in page
    code, out, _ = cli(db, "table", "show", "--table", "Web", "--json")
    assert json.loads(out)["players"] == ["Zoé", "Ana"]


def test_links_made_on_the_command_line_open_the_table(client: TestClient, db: Path) -> None:
    assert cli(db, "table", "new", "shs", "--name", "Nostromo", "--players", "Ripley")[0] == 0
    code, out, _ = cli(
        db, "table", "links", "Nostromo", "--base-url", "http://testserver", "--json"
    )
    assert code == 0
    links = json.loads(out)["links"]
    assert [(link["role"], link["player"]) for link in links] == [
        ("gm", None),
        ("player", "Ripley"),
        ("spectator", None),
    ]
    path = links[1]["url"].removeprefix("http://testserver")
    assert client.get(path).status_code == 200
    code, out, _ = cli(db, "table", "links", "--table", "Nostromo", "--revoke", links[1]["prefix"])
    assert code == 0 and "revoked" in out
    assert client.get(path).status_code == 403
    code, out, _ = cli(db, "table", "links", "Nostromo", "--list", "--json")
    listed = json.loads(out)["links"]
    assert {link["prefix"] for link in listed if link["revoked"]} == {links[1]["prefix"]}
    assert len(listed) == 3
    assert all("url" not in link for link in listed)  # tokens are never stored
    code, _, err = cli(db, "table", "links", "Nostromo", "--revoke", "ab")
    assert code == 2 and "at least 4" in err


@pytest.mark.parametrize("argv", [["pouyss", "roll", "--help"], ["table", "list"]])
def test_the_command_line_does_not_load_the_web_stack(argv: list[str], tmp_path: Path) -> None:
    code = (
        "import sys\nfrom tablee.cli.main import main\n"
        f"main({argv!r} + ['--db', {str(tmp_path / 'x.sqlite3')!r}])\n"
        "assert 'fastapi' not in sys.modules and 'jinja2' not in sys.modules, 'web stack loaded'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_serve_is_a_command(db: Path) -> None:
    code, out, _ = cli(db, "serve", "--help")
    assert code == 0 and "--port" in out and "--host" in out
