"""``tablee table import`` reads its file as a stream, with a line limit and a size limit."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from itertools import islice
from pathlib import Path

import pytest

from tablee.errors import InputError
from tablee.table.transcript import MAX_LINE_BYTES, export_lines, read_jsonl
from tests.cli.conftest import Run


def test_dev_zero_is_refused_after_one_line(tmp_path: Path) -> None:
    """In its own process with a timeout: a regression hangs and fails instead of growing."""
    db = tmp_path / "zero.sqlite3"
    env = {**os.environ, "LANG": "en_US.UTF-8", "TABLEE_DATABASE_URL": str(db)}
    env.pop("LANGUAGE", None)
    env.pop("LC_ALL", None)
    command = [sys.executable, "-m", "tablee", "table", "import", "/dev/zero"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "line 1 of the export is longer than 16 MiB" in done.stderr
    listed = subprocess.run(
        [sys.executable, "-m", "tablee", "table", "list", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert json.loads(listed.stdout) == []


def _exported(table: Run, tmp_path: Path) -> Path:
    path = tmp_path / "club.jsonl"
    assert table("pouyss", "reward", "--player", "A").code == 0
    assert table("table", "export", "--output", str(path)).code == 0
    return path


def test_a_huge_line_is_refused_by_number_and_nothing_is_stored(table: Run, tmp_path: Path) -> None:
    path = _exported(table, tmp_path)
    lines = path.read_text("utf-8").splitlines()
    huge = json.loads(lines[2])
    huge["payload"]["reason"] = "x" * MAX_LINE_BYTES
    lines.insert(2, json.dumps(huge))
    edited = tmp_path / "huge.jsonl"
    edited.write_text("\n".join(lines) + "\n", "utf-8")
    result = table("table", "import", str(edited), "--name", "copy")
    assert result.code == 2
    assert "line 3 of the export is longer than 16 MiB" in result.err
    assert [t["name"] for t in table("table", "list", "--json").json()] == ["club"]


def test_a_normal_export_still_imports(table: Run, tmp_path: Path) -> None:
    path = _exported(table, tmp_path)
    result = table("table", "import", str(path), "--name", "copy", "--json")
    assert result.code == 0, result.err
    assert result.json()["verified"] is True
    assert result.json()["last_seq"] == 3
    assert table("table", "import", str(tmp_path / "none.jsonl")).code == 2


def test_limits_name_the_line_and_the_size() -> None:
    mib = 1024 * 1024
    text = b'{"a": 1}\n' * 3 + b"y" * mib + b"\n"
    lines = export_lines(io.BytesIO(text), max_line=mib, max_total=4 * mib)
    assert [n for n, _ in islice(lines, 3)] == [1, 2, 3]
    with pytest.raises(InputError, match="line 4 of the export is longer than 1 MiB"):
        list(lines)
    big = (b"z" * (mib // 2 - 1) + b"\n") * 5
    with pytest.raises(InputError, match=r"larger than 2 MiB \(at line 5\)"):
        list(export_lines(io.BytesIO(big), max_line=mib, max_total=2 * mib))
    exact = b"x" * (mib - 1) + b"\n"  # 1 MiB with its end: within the limit
    assert list(export_lines(io.BytesIO(exact), max_line=mib)) == [(1, "x" * (mib - 1))]
    with pytest.raises(InputError, match="line 2 of the export is not UTF-8"):
        read_jsonl(io.BytesIO(b"\n\xff\xfe\n"))
