"""A trauma holds its trait at -1: no fifth star nor transfer raises it while it lasts (Y-X8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import Run


def _traumatised(run: Run) -> Run:
    """Aki (Kiyousa +1) with 3 Kega and a trauma on Kiyousa: now -1."""
    assert run("table", "new", "ybs", "--name", "club", "--players", "A").code == 0
    aki = ("Aki", "--choushi", "1", "--kiyousa", "1", "--chikaku", "-1", "--player", "A")
    assert run("ybs", "character", "create", *aki).code == 0
    assert run("ybs", "damage", "Aki", "--kega", "3").code == 0
    assert run("ybs", "trauma", "Aki", "--trait", "kiyousa").code == 0
    return run


def _log(run: Run) -> list[dict]:
    return list(run("table", "log", "--json").json())


@pytest.mark.parametrize(("lang", "said"), [("en", "a trauma limits"), ("fr", "traumatisme")])
def test_stars_count_but_the_fifth_is_refused_while_the_trauma_lasts(
    run: Run, lang: str, said: str
) -> None:
    _traumatised(run)
    for _ in range(4):
        result = run("--lang", lang, "ybs", "star", "Aki", "--trait", "kiyousa")
        assert result.code == 0, result.err
        assert said in (result.out + result.err).lower()  # a notice: the fifth will be refused
    before = _log(run)
    fifth = run("--lang", lang, "ybs", "star", "Aki", "--trait", "kiyousa")
    assert fifth.code == 3
    assert "Y-X8" in fifth.err
    assert _log(run) == before
    assert run("ybs", "lift-trauma", "Aki", "--trait", "kiyousa").code == 0
    assert run("ybs", "star", "Aki", "--trait", "kiyousa").code == 0  # now it raises: +1 -> +2
    assert run("table", "check").code == 0


def test_a_transfer_cannot_raise_a_traumatised_trait(run: Run) -> None:
    _traumatised(run)
    before = _log(run)
    result = run("ybs", "transfer", "Aki", "--lower", "choushi", "--raise", "kiyousa")
    assert result.code == 3 and "Y-X8" in result.err
    assert _log(run) == before
    lowered = run("ybs", "transfer", "Aki", "--lower", "kiyousa", "--raise", "chikaku")
    assert lowered.code == 0, lowered.err  # lowering it is allowed: -1 -> -2
    back = run("ybs", "transfer", "Aki", "--lower", "chikaku", "--raise", "kiyousa")
    assert back.code == 0, back.err  # -2 -> -1: within the limit


def test_a_star_event_of_rules_version_1_still_checks(run: Run, tmp_path: Path) -> None:
    """Version 1 let the fifth star raise a traumatised trait: its events import and check."""
    _traumatised(run)
    for _ in range(4):
        assert run("ybs", "star", "Aki", "--trait", "kiyousa").code == 0
    path = tmp_path / "club.jsonl"
    assert run("table", "export", "--output", str(path)).code == 0
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    events = [line for line in lines if "trailer" not in line]
    for line in events:
        line.pop("chain", None)
    last = events[-1]
    fifth = {
        **last,
        "seq": last["seq"] + 1,
        "payload": {**last["payload"], "raised": True, "value": 0, "stars": 0},
    }
    for version, code in (("2", 2), ("1", 0)):
        edited = tmp_path / f"v{version}.jsonl"
        rows = [*events, {**fifth, "rules_version": version}]
        edited.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
        result = run("table", "import", str(edited), "--name", f"copy{version}")
        assert result.code == code, result.err
    assert run("--table", "copy1", "table", "check").code == 0
