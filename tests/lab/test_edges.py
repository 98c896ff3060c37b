"""Edge cases found by attacking the lab: figures at the ends of their range, charts of them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tablee.errors import N_
from tablee.lab.charts import chart_svg
from tablee.lab.results import Chart, Column, Estimate, LabResult, proportion_estimate

# (successes, trials): a proportion of 0 or 1, where the Wilson bounds, computed in floating
# point, land a rounding error past the proportion itself unless clamped to it
EDGE_PROPORTIONS = [(0, 3), (0, 6), (0, 7), (10, 10), (0, 12), (13, 13), (25, 25), (0, 150)]


@pytest.mark.parametrize(("successes", "trials"), EDGE_PROPORTIONS)
def test_a_proportion_lies_within_its_own_interval(successes: int, trials: int) -> None:
    estimate = proportion_estimate(successes, trials)
    assert estimate.low <= estimate.value <= estimate.high
    assert estimate.low >= 0.0 and estimate.high <= 1.0


def test_every_proportion_up_to_400_trials_lies_within_its_interval() -> None:
    outside = [
        (k, n)
        for n in range(1, 401)
        for k in range(n + 1)
        if not proportion_estimate(k, n).low <= k / n <= proportion_estimate(k, n).high
    ]
    assert outside == []


@pytest.mark.parametrize(("successes", "trials"), EDGE_PROPORTIONS)
def test_bars_of_proportions_at_zero_or_one_are_drawn(successes: int, trials: int) -> None:
    rows = tuple(
        {"kind": kind, "p": proportion_estimate(k, trials)}
        for kind, k in (("never", successes), ("always", trials - successes))
    )
    result = LabResult(
        question="pouyss/edge",
        title=N_("Edge"),
        columns=(Column("kind", N_("kind"), "input"), Column("p", N_("chance"), percent=True)),
        rows=rows,
        charts=(Chart("bars", N_("Edge"), x="kind", value="p"),),
        exact=False,
        trials=trials,
    )
    assert chart_svg(result, result.charts[0], "en").startswith(b"<?xml")


def test_bars_of_estimates_with_bounds_a_rounding_error_inside_are_drawn() -> None:
    # `Estimate` allows its bounds 1e-12 past its value: an estimate from any question
    tight = Estimate(0.5, 0.5 + 1e-13, 0.6, 10)
    result = LabResult(
        question="pouyss/edge",
        title=N_("Edge"),
        columns=(Column("kind", N_("kind"), "input"), Column("p", N_("chance"), percent=True)),
        rows=(
            {"kind": "tight", "p": tight},
            {"kind": "wide", "p": Estimate(0.3, 0.2, 0.3 - 1e-13, 10)},
        ),
        charts=(Chart("bars", N_("Edge"), x="kind", value="p"),),
        exact=False,
        trials=10,
    )
    assert chart_svg(result, result.charts[0], "en").startswith(b"<?xml")


def _policies_result() -> LabResult:
    """Bars and lines of three policies with long labels (as pouyss/economy's), estimated."""
    from fractions import Fraction

    from tablee.lab.results import Policy

    long = (
        N_("never ask for a bonus die"),
        N_("ask for one bonus die when the cagnotte holds at least the number set"),
        N_("ask for the number set, or every die in the cagnotte if it holds fewer"),
    )
    policies = tuple(Policy(name, label) for name, label in zip(("a", "b", "c"), long, strict=True))
    rows = tuple(
        {
            "policy": p.name,
            "players": n,
            "p": proportion_estimate(20 + 10 * k + n, 100, Fraction(1, 2)),
        }
        for k, p in enumerate(policies)
        for n in range(2, 7)
    )
    return LabResult(
        question="pouyss/edge",
        title=N_("Edge"),
        columns=(
            Column("policy", N_("bonus policy"), "input"),
            Column("players", N_("players"), "input"),
            Column("p", N_("successful rolls"), percent=True),
        ),
        rows=rows,
        charts=(
            Chart("bars", N_("Successful rolls"), x="players", value="p", series="policy"),
            Chart("lines", N_("Successful rolls"), x="players", value="p", series="policy"),
        ),
        policies=policies,
        exact=False,
        trials=100,
    )


@pytest.mark.parametrize("rank", [0, 1])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_legend_of_long_labels_covers_no_data_and_fits_the_chart(rank: int, lang: str) -> None:
    from matplotlib import rc_context
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from tablee.lab.charts import RC, _figure_of

    result = _policies_result()
    with rc_context(RC):  # type: ignore[arg-type]
        figure = _figure_of(result, result.charts[rank], lang)
        renderer = FigureCanvasAgg(figure).get_renderer()
        figure.draw(renderer)
        legends = [*figure.legends, *(a.get_legend() for a in figure.axes if a.get_legend())]
        assert len(legends) == 1
        box = legends[0].get_window_extent(renderer)
        plot = figure.axes[0].get_window_extent(renderer)  # the plotting area: the data
        assert not box.overlaps(plot)
        whole = figure.bbox
        assert whole.x0 <= box.x0 and box.x1 <= whole.x1 and whole.y0 <= box.y0


# (probability, English, French): a chance that is possible (or not certain) never reads as
# 0.0% (or 100.0%); a Triomphe with 4 malus dice is 1/7776 (P-M1)
TINY_CHANCES = [
    (Fraction(1, 7776), "<0.1%", "<0,1\u00a0%"),
    (Fraction(1, 2001), "<0.1%", "<0,1\u00a0%"),
    (Fraction(1, 2000), "0.1%", "0,1\u00a0%"),
    (Fraction(0), "0.0%", "0,0\u00a0%"),
    (Fraction(7775, 7776), ">99.9%", ">99,9\u00a0%"),
    (Fraction(1), "100.0%", "100,0\u00a0%"),
]


@pytest.mark.parametrize(("chance", "english", "french"), TINY_CHANCES)
def test_a_possible_chance_never_reads_as_impossible(
    chance: Fraction, english: str, french: str
) -> None:
    from tablee.lab.report import shown_cell

    column = Column("p", N_("chance"), percent=True)
    assert shown_cell(column, chance, "en").text == english
    assert shown_cell(column, chance, "fr").text == french
    estimate = Estimate(float(chance), float(chance), float(chance), 10)
    assert shown_cell(column, estimate, "en").text == english


def test_a_heatmap_cell_of_a_possible_chance_never_reads_as_impossible() -> None:
    result = LabResult(
        question="pouyss/edge",
        title=N_("Edge"),
        columns=(
            Column("a", N_("a"), "input"),
            Column("b", N_("b"), "input"),
            Column("p", N_("chance"), percent=True),
        ),
        rows=tuple(
            {"a": a, "b": b, "p": Fraction(1, 7776) if (a, b) == (0, 0) else Fraction(a + b, 4)}
            for a in range(3)
            for b in range(3)
        ),
        charts=(Chart("heatmap", N_("Edge"), x="a", y="b", value="p"),),
    )
    svg = chart_svg(result, result.charts[0], "en").decode()
    assert "<!-- &lt;0.1% -->" in svg and "<!-- 0.0% -->" not in svg
