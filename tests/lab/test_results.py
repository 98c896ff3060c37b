from fractions import Fraction

import pytest

from tablee.errors import InputError
from tablee.lab import question_named
from tablee.lab.questions import LabContext
from tablee.lab.results import mean_estimate, proportion_estimate, to_csv, to_json
from tablee.systems.declare import build_command


def test_wilson_interval_matches_the_textbook_value() -> None:
    # 81 successes in 263 trials: the Wilson 95% interval is 0.2553 .. 0.3662 (Wilson 1927,
    # as tabulated by Newcombe 1998, example (a) of his table I).
    estimate = proportion_estimate(81, 263)
    assert estimate.low == pytest.approx(0.2553, abs=1e-4)
    assert estimate.high == pytest.approx(0.3662, abs=1e-4)
    assert estimate.covers(Fraction(81, 263))


def test_a_proportion_at_zero_keeps_a_positive_upper_bound() -> None:
    estimate = proportion_estimate(0, 10)
    assert estimate.low == 0
    assert 0.2 < estimate.high < 0.35


def test_mean_interval_of_constant_values_is_a_point() -> None:
    estimate = mean_estimate(30.0, 90.0, 10)
    assert (estimate.value, estimate.low, estimate.high) == (3.0, 3.0, 3.0)


def test_an_impossible_proportion_is_refused_naming_the_values() -> None:
    with pytest.raises(InputError, match="11 successes out of 10"):
        proportion_estimate(11, 10)


def test_pouyss_levels_are_exact_and_sum_to_one() -> None:
    question = build_command(question_named("pouyss", "levels"), {"max_bonus": "2"})
    result = question.answer(LabContext())
    assert len(result.rows) == 3 * 6
    for row in result.rows:
        total = sum(
            row[f"p_{level}"]
            for level in ("desastre", "defaite", "revers", "succes", "victoire", "triomphe")
        )
        assert total == 1
    first = result.rows[0]
    assert (first["bonus"], first["malus"], first["p_success"]) == (0, 0, Fraction(1, 2))
    # One bonus die: the highest of two d6 is 4 or more with probability 1 - (3/6)^2.
    one_bonus = next(r for r in result.rows if r["bonus"] == 1 and r["malus"] == 0)
    assert one_bonus["p_success"] == Fraction(3, 4)
    data = to_json(result)
    assert data["rows"][0]["p_success"] == {"exact": "1/2", "value": 0.5}
    assert to_csv(result).splitlines()[1].startswith("0,0,0.1666")


def test_an_unknown_question_lists_the_known_ones() -> None:
    with pytest.raises(InputError, match=r"has: .*levels"):
        question_named("pouyss", "nope")


def test_a_share_never_seen_in_any_session_keeps_a_positive_upper_bound() -> None:
    # 400 sessions, none with a roll finding the cagnotte empty: the exact binomial bound
    # for "no session left 0" is 1 - 0.025 ** (1 / 400), about 0.92%.
    estimate = mean_estimate(0.0, 0.0, 400, within=(0, 1))
    assert (estimate.value, estimate.low) == (0.0, 0.0)
    assert estimate.high == pytest.approx(1 - 0.025 ** (1 / 400))
    assert 0.009 < estimate.high < 0.0093
    full = mean_estimate(400.0, 400.0, 400, within=(0, 1))
    assert (full.value, full.high) == (1.0, 1.0) and full.low == pytest.approx(1 - estimate.high)
    # Without bounds a constant has nothing to measure; with a spread the bounds only clip.
    assert mean_estimate(0.0, 0.0, 400).high == 0.0
    spread = mean_estimate(1.0, 1.0, 10, within=(0, 1))  # one value 1, nine 0
    assert spread.low == 0.0 and 0.1 < spread.high < 0.35


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "stopped before its end: 100 trials per figure"),
        ("fr", "calcul arrêté avant la fin : 100 essais par chiffre"),
    ],
)
def test_a_stopped_runs_csv_says_so_in_a_last_column_that_csv_readers_parse(
    lang: str, words: str
) -> None:
    import csv
    import io

    from tests.lab.fake_questions import Coin

    stopped = Coin(stop=True).answer(LabContext())
    text = to_csv(stopped, lang=lang)
    lines = list(csv.reader(io.StringIO(text)))
    assert {len(line) for line in lines} == {13}  # every row as many fields as the header
    assert lines[0][-1] == "stopped"
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(stopped.rows) == 2
    assert [row["stopped"] for row in rows] == [words, words]
    assert (rows[0]["rule"], rows[0]["p_heads"], rows[0]["p_heads_exact"]) == (
        "literal",
        "0.4",
        "1/2",
    )
    # a finished run's CSV has no such column: its text is as before
    finished = to_csv(Coin().answer(LabContext()), lang=lang)
    assert "stopped" not in finished and finished.splitlines()[0].endswith(",gain_trials")


def test_an_exact_results_csv_has_no_empty_interval_columns() -> None:
    import csv
    import io

    question = build_command(question_named("pouyss", "success"), {"max_bonus": "1"})
    result = question.answer(LabContext())
    assert result.exact
    header, *rows = list(csv.reader(io.StringIO(to_csv(result))))
    measures = [c.key for c in result.columns if c.role != "input"]
    inputs = [c.key for c in result.columns if c.role == "input"]
    assert header == inputs + [k for key in measures for k in (key, f"{key}_exact")]
    assert all(len(row) == len(header) for row in rows)
    assert not any(h.endswith(("_low", "_high", "_trials")) for h in header)
