"""Failing on purpose at a reserve's cap says the +1 was capped, in both languages (G-A8)."""

from __future__ import annotations

import pytest

from tablee.systems.agents.log import describe
from tests.cli.conftest import Run

VEGA = (
    ("--name", "Vega", "--muscles", "3", "--sexe", "7", "--intelligence", "5"),
    ("--organisation", "Bureau 9", "--signature", "a lighter"),
)


def _agents(run: Run, *options: str) -> Run:
    args = ("table", "new", "agents", "--name", "ops", "--players", "Ana", *options)
    assert run(*args).code == 0
    assert run("agents", "agent", *VEGA[0], *VEGA[1]).code == 0
    return run


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "Sexe +1, but capped at 7"), ("fr", "Sexe +1, mais plafonné à 7")],
)
def test_a_capped_gain_says_so(run: Run, lang: str, said: str) -> None:
    _agents(run)
    result = run("--lang", lang, "agents", "fail", "--agent", "Vega", "--reserve", "sexe")
    assert result.code == 0, result.err
    assert said in result.out and "now 7" not in result.out
    log = run("--lang", lang, "table", "log")
    assert said in log.out
    event = run("table", "log", "--json").json()[-1]
    assert event["schema_version"] == 2
    assert (event["payload"]["before"], event["payload"]["reserve"]) == (7, 7)
    assert run("table", "check").code == 0


def test_a_gain_made_says_now(run: Run) -> None:
    _agents(run, "--option", "reserve_cap=none")
    result = run("agents", "fail", "--agent", "Vega", "--reserve", "sexe")
    assert "Sexe now 8" in result.out and "capped" not in result.out
    result = run("agents", "fail", "--agent", "Vega", "--reserve", "muscles")
    assert "Muscles now 4" in result.out


def test_an_event_that_did_not_record_before_keeps_its_plain_line() -> None:
    payload = {"agent": "Vega", "kind": "sexe", "reason": "", "reserve": 7, "before": None}
    line = describe("agents.failed_on_purpose", payload, None).render(lambda s: s)
    assert line.endswith("Sexe now 7")
