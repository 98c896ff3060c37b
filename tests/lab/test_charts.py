"""The lab's charts and report: drawn from a result, translated, deterministic, offline."""

from __future__ import annotations

import json
import struct
import subprocess
import sys

import pytest

from tablee.lab import question_named
from tablee.lab.charts import chart_png, chart_slug, chart_svg, draw_all
from tablee.lab.questions import LabContext
from tablee.lab.report import html_report, shown_cell
from tablee.lab.results import Column, LabResult, proportion_estimate
from tablee.systems.declare import build_command
from tests.lab.fake_questions import Coin


def _levels(bonus: int = 2, malus: int = 2) -> LabResult:
    question = build_command(
        question_named("pouyss", "levels"), {"max_bonus": str(bonus), "max_malus": str(malus)}
    )
    return question.answer(LabContext())


def test_a_heatmap_writes_each_cell_in_the_readers_format() -> None:
    result = _levels(1, 0)
    # one die succeeds half the time, the highest of two 3/4 of the time; matplotlib writes
    # each text's content as a comment before its glyphs
    fr = chart_svg(result, result.charts[0], "fr").decode()
    assert "<!-- 50,0\u00a0% -->" in fr and "<!-- 75,0\u00a0% -->" in fr
    en = chart_svg(result, result.charts[0], "en").decode()
    assert "<!-- 50.0% -->" in en and "<!-- 75.0% -->" in en


def test_the_same_result_gives_the_same_svg_bytes() -> None:
    result = _levels()
    first = chart_svg(result, result.charts[0], "en")
    assert first == chart_svg(_levels(), result.charts[0], "en")
    assert b"<dc:date>" not in first


def test_png_is_800_pixels_wide() -> None:
    result = _levels(1, 1)
    data = chart_png(result, result.charts[3], "en")
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">I", data[16:20])[0] == 800


def test_estimates_are_drawn_with_their_interval_and_exact_figure() -> None:
    result = Coin().answer(LabContext())
    lines, bars = (chart_svg(result, chart, "en").decode() for chart in result.charts)
    assert "<!-- exact figure -->" in lines  # heads: the exact 1/2 beside each estimate
    assert "<!-- exact figure -->" not in bars  # gain: no exact figure given
    for svg in (lines, bars):
        assert "<!-- confidence interval at 95 percent -->" in svg
        # the series are the house rules, named by their labels
        assert "<!-- as written -->" in svg and "<!-- rounded up -->" in svg


def test_a_stopped_run_without_rows_draws_an_empty_chart() -> None:
    result = Coin().answer(LabContext())
    empty = LabResult(result.question, result.title, result.columns, (), result.charts)
    assert "<!-- No figures to draw. -->" in chart_svg(empty, empty.charts[0], "en").decode()


def test_chart_files_are_named_by_rank_and_title() -> None:
    result = _levels(0, 0)
    assert [chart_slug(i, c) for i, c in enumerate(result.charts)] == [
        "1-chance-of-a-success",
        "2-chance-of-a-triomphe",
        "3-chance-of-a-desastre",
        "4-mean-die-value",
    ]


def test_cells_show_exact_fractions_and_estimates_with_intervals() -> None:
    from fractions import Fraction

    percent = Column("p", "p", percent=True)
    exact = shown_cell(percent, Fraction(1, 3), "fr")
    assert (exact.text, exact.fraction, exact.exact) == ("33,3\u00a0%", "1/3", True)
    estimate = shown_cell(percent, proportion_estimate(81, 263, Fraction(1, 3)), "en")
    # Wilson 95% interval of 81/263: 25.53% .. 36.62% (Newcombe 1998, table I, (a))
    assert (estimate.text, estimate.interval) == ("30.8%", "[25.5%, 36.6%]")
    assert (estimate.trials, estimate.exact, estimate.exact_text) == (263, False, "33.3%")


@pytest.mark.slow
def test_the_report_is_self_contained_and_translated() -> None:
    result = Coin().answer(LabContext())
    page = html_report(result, "fr")
    assert page.count("<svg") == len(result.charts)
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert "<metadata>" not in page
    assert '<html lang="fr">' in page and "greedy" in page
    assert "[30,9\u00a0% ; 49,8\u00a0%]" in page  # 40 of 100, French format


def test_drawing_loads_matplotlib_only_when_drawing() -> None:
    code = (
        "import sys, json, tablee.lab, tablee.lab.report, tablee.lab.charts; "
        "print(json.dumps('matplotlib' in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) is False


def test_draw_all_gives_one_chart_per_declared_chart() -> None:
    result = _levels(0, 1)
    drawn = draw_all(result, "fr", png=False)
    assert len(drawn) == 4 and drawn[0].slug == "1-chance-of-a-success"
    assert all(d.svg.startswith(b"<?xml") and d.png == b"" for d in drawn)


def test_words_along_an_axis_and_missing_figures_are_drawn() -> None:
    from fractions import Fraction

    from tablee.lab.results import Chart

    rows = tuple(
        {"rule": rule, "n": n, "p": None if (rule, n) == ("up", 2) else Fraction(n, 4)}
        for rule in ("literal", "up")
        for n in (1, 2, 3)
    )
    result = LabResult(
        "pouyss/test",
        "Test",
        (
            Column("rule", "rule", "input"),
            Column("n", "n", "input"),
            Column("p", "p", percent=True),
        ),
        rows,
        (
            Chart("heatmap", "By {rule}", x="rule", y="n", value="p", where={}),
            Chart("lines", "Over words", x="rule", value="p", series="n"),
            Chart("bars", "One series", x="n", value="p", where={"rule": "literal"}),
        ),
    )
    heat, lines, bars = (chart_svg(result, c, "en").decode() for c in result.charts)
    assert "<!-- 75.0% -->" in heat and "<!-- By {rule} -->" in heat  # unknown field kept
    assert "<!-- literal -->" in lines and "<!-- n = 3 -->" in lines
    assert "<!-- 25% -->" in bars or "<!-- 20% -->" in bars  # the value axis in percent


def _type_sizes(svg: bytes) -> list[float]:
    """The size of every text of a chart, in points (glyph paths scaled from 100 units)."""
    import re

    text = svg.decode()
    assert 'viewBox="0 0 288 ' in text  # 4 inches wide: the width a phone shows it at
    return [float(s) * 100 for s in re.findall(r"scale\(([0-9.]+) -", text)]


@pytest.mark.parametrize(("bonus", "written"), [(5, True), (12, False)])
def test_no_text_of_a_chart_is_smaller_than_a_phone_reads(bonus: int, written: bool) -> None:
    from tablee.lab.charts import SMALLEST_CELL_POINTS, SMALLEST_POINTS

    result = _levels(bonus, 5)
    for lang in ("en", "fr"):
        heatmap = chart_svg(result, result.charts[0], lang)
        sizes = _type_sizes(heatmap)
        assert min(sizes) >= SMALLEST_CELL_POINTS, (lang, sorted(set(sizes)))
        # 6 columns hold their figures; 13 are too narrow for any: the colour bar reads them
        assert ("<!-- 98,4\u00a0% -->" in heatmap.decode()) is (written and lang == "fr")
        lines = chart_svg(result, result.charts[3], lang)
        assert min(_type_sizes(lines)) == SMALLEST_POINTS


def test_a_heatmap_of_chances_colours_them_from_0_to_100_percent() -> None:
    # Levels with one or two dice: every chance lies between 25% and 75%, yet the colour bar
    # spans 0% to 100%, so a colour means the same chance on every chart.
    result = _levels(1, 0)
    svg = chart_svg(result, result.charts[0], "en").decode()
    assert "<!-- 0% -->" in svg and "<!-- 100% -->" in svg
