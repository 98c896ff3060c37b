"""Every exact lab question of the four games: declared well, rows complete, charts drawable,
house-rule variants named in the rows, and every figure surviving JSON and CSV."""

import csv
import io
import json
from fractions import Fraction

import pytest

from tablee.lab import QUESTIONS, question_named
from tablee.lab.questions import LabContext
from tablee.lab.results import LabResult, to_csv, to_json
from tablee.systems.declare import build_command, fields_of

EXACT = (
    "pouyss/success",
    "pouyss/opposed",
    "shs/ladder",
    "shs/opposed",
    "shs/cooperation",
    "ybs/test",
    "ybs/straights",
    "ybs/zorome",
    "ybs/ichika",
    "agents/action",
    "agents/challenge",
)

SMALL = {
    "pouyss/success": {"max_bonus": "2", "max_malus": "2"},
    "pouyss/opposed": {"max_bonus": "2"},
    "shs/ladder": {"max_difficulty": "2", "max_modifier": "1"},
    "shs/opposed": {"max_modifier": "1"},
    "shs/cooperation": {"max_members": "3", "max_difficulty": "2"},
    "ybs/test": {"max_tokens": "2"},
    "ybs/straights": {"max_dice": "5"},
    "ybs/zorome": {"max_dice": "4"},
    "ybs/ichika": {"max_dice": "3"},
    "agents/action": {},
    "agents/challenge": {"reserves": "3,2", "compare": "rows_and_rounding"},
}


def _answer(qid: str) -> LabResult:
    game, name = qid.split("/")
    question = build_command(question_named(game, name), SMALL[qid])
    return question.answer(LabContext())


def test_every_question_is_registered_and_declared() -> None:
    for qid in EXACT:
        assert qid in QUESTIONS
        game, name = qid.split("/")
        cls = question_named(game, name)
        assert cls.game == game and cls.name == name and cls.rule and not cls.simulated
        for spec in fields_of(cls):
            assert spec.param.help
            if spec.kind == "int":
                assert spec.param.low is not None and spec.param.high is not None, spec.name


@pytest.mark.parametrize("qid", EXACT)
def test_rows_are_complete_exact_and_charts_drawable(qid: str) -> None:
    result = _answer(qid)
    assert result.question == qid and result.exact and result.trials == 0
    keys = [c.key for c in result.columns]
    assert len(set(keys)) == len(keys)
    roles = [c.role for c in result.columns]
    assert roles == sorted(roles)  # inputs ("input") before measures ("measure")
    assert result.rows
    for row in result.rows:
        assert set(row) == set(keys)
        for column in result.columns:
            cell = row[column.key]
            if column.role == "measure":
                assert cell is None or isinstance(cell, Fraction), (column.key, cell)
                if column.percent and cell is not None:
                    assert 0 <= cell <= 1
    for chart in result.charts:
        for key in (chart.x, chart.value, chart.y, chart.series, *chart.where):
            assert not key or key in keys, (chart.title, key)
        drawn = chart.rows(result)
        assert drawn, chart.title
        # One point per (x, y, series) in the slice: no two rows drawn on one spot.
        spots = [(r[chart.x], r.get(chart.y), r.get(chart.series)) for r in drawn]
        assert len(spots) == len(set(spots)), chart.title
    if result.variants:
        assert len(result.variants) > 1
        names = {v.name for v in result.variants}
        assert {row["variant"] for row in result.rows} == names
        assert any(c.series == "variant" for c in result.charts)


@pytest.mark.parametrize("qid", EXACT)
def test_json_and_csv_round_trip_every_exact_figure(qid: str) -> None:
    result = _answer(qid)
    data = json.loads(json.dumps(to_json(result)))
    assert data["question"] == qid and data["exact"] is True
    assert [v["name"] for v in data["variants"]] == [v.name for v in result.variants]
    table = list(csv.DictReader(io.StringIO(to_csv(result))))
    assert len(table) == len(data["rows"]) == len(result.rows)
    for row, stored, line in zip(result.rows, data["rows"], table, strict=True):
        for column in result.columns:
            cell = row[column.key]
            if isinstance(cell, Fraction):
                assert Fraction(stored[column.key]["exact"]) == cell
                assert Fraction(line[f"{column.key}_exact"]) == cell
                assert float(line[column.key]) == pytest.approx(float(cell))
            elif cell is None:
                assert stored[column.key] is None
            else:
                assert stored[column.key] == cell
                assert line[column.key] == str(cell)
