"""``tablee discord``: the token from the environment or a file, never the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tablee.cli.bot import TOKEN_ENV, read_token
from tablee.errors import InputError


def test_the_token_comes_from_a_file_first_then_the_environment(tmp_path: Path) -> None:
    secret = tmp_path / "token"
    secret.write_text("abc.def\n", encoding="utf-8")
    assert read_token(str(secret), {TOKEN_ENV: "from-env"}) == "abc.def"
    assert read_token(None, {TOKEN_ENV: " from-env "}) == "from-env"
    with pytest.raises(InputError, match="no Discord bot token"):
        read_token(None, {})
    with pytest.raises(InputError, match="cannot read"):
        read_token(str(tmp_path / "missing"), {})


def _tablee(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tablee", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_without_a_token_the_command_says_where_to_put_it(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    db = str(tmp_path / "t.sqlite3")
    done = _tablee("discord", "--db", db, env=env)
    assert done.returncode == 2
    assert "no Discord bot token" in done.stderr and "--token-file" in done.stderr
    refused = _tablee("discord", "--token", "abc", "--db", db, env=env)
    assert refused.returncode == 2 and "abc" not in refused.stdout
