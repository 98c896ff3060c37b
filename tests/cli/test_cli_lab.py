"""``tablee lab``: the questions listed, answered, printed and written."""

from __future__ import annotations

import io
import json
import os
import struct
from pathlib import Path

import pytest

from tablee.cli.main import main
from tablee.errors import InputError
from tablee.lab import question_named
from tablee.lab.questions import QUESTIONS
from tablee.systems.declare import build_command
from tests.cli.conftest import Run
from tests.lab import fake_questions


@pytest.fixture
def coin(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the simulated test question as ``pouyss/coin``."""
    monkeypatch.setitem(QUESTIONS, "pouyss/coin", "tests.lab.fake_questions:Coin")


def test_lab_alone_and_lab_list_name_every_question_with_its_title(run: Run) -> None:
    for argv in (("lab",), ("lab", "list")):
        done = run(*argv)
        assert done.code == 0, done.err
        assert "pouyss" in done.out
        assert "levels" in done.out and "Levels over bonus and malus dice" in done.out
    listed = run("lab", "list", "--json").json()
    assert {"id": "pouyss/levels", "simulated": False}.items() <= listed[0].items()


def test_json_holds_the_exact_figures(run: Run) -> None:
    done = run("lab", "pouyss", "levels", "--max-bonus", "1", "--max-malus", "1", "--json")
    assert done.code == 0, done.err
    data = done.json()
    assert len(data["rows"]) == 4
    one_bonus = next(r for r in data["rows"] if r["bonus"] == 1 and r["malus"] == 0)
    # the highest of two d6 is 4 or more with probability 1 - (1/2)^2
    assert one_bonus["p_success"] == {"exact": "3/4", "value": 0.75}


def test_csv_on_standard_output(run: Run) -> None:
    done = run("lab", "pouyss", "levels", "--max-bonus", "0", "--max-malus", "0", "--csv")
    assert done.code == 0, done.err
    header, first = done.out.splitlines()
    assert header.startswith("bonus,malus,p_desastre,p_desastre_exact,")
    assert ",0.5,1/2," in first  # one die succeeds on 4, 5 or 6


def test_human_table_shows_percentages_and_fractions_in_each_language(run: Run) -> None:
    fr = run("lab", "pouyss", "levels", "--max-bonus", "1", "--max-malus", "0", "--lang", "fr")
    assert fr.code == 0, fr.err
    assert "75,0\u00a0%" in fr.out and "3/4" in fr.out
    assert "--max-bonus 1" in fr.out  # the command replaying the run
    en = run("lab", "pouyss", "levels", "--max-bonus", "1", "--max-malus", "0", "--lang", "en")
    assert "75.0%" in en.out and "exact" in en.out


def test_bad_input_gives_the_declared_error(run: Run) -> None:
    done = run("lab", "pouyss", "levels", "--max-bonus", "20")
    assert done.code == 2
    with pytest.raises(InputError) as raised:
        build_command(question_named("pouyss", "levels"), {"max_bonus": "20"})
    assert str(raised.value.render(lambda s: s)) in done.err


def test_workers_below_one_is_refused(run: Run, coin: None) -> None:
    done = run("lab", "pouyss", "coin", "--workers", "0")
    assert done.code == 2 and "--workers" in done.err


def test_workers_default_to_every_core(run: Run, coin: None) -> None:
    assert run("lab", "pouyss", "coin", "--json").code == 0
    assert fake_questions.SEEN["workers"] == (os.cpu_count() or 1)
    assert run("lab", "pouyss", "coin", "--workers", "3", "--json").code == 0
    assert fake_questions.SEEN["workers"] == 3


def _png_width(data: bytes) -> int:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int(struct.unpack(">I", data[16:20])[0])


@pytest.mark.slow
def test_out_writes_json_csv_charts_and_report(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "lab-out"
    done = run("lab", "pouyss", "levels", "--max-bonus", "2", "--max-malus", "2", "--out", str(out))
    assert done.code == 0, done.err
    names = sorted(p.name for p in out.iterdir())
    assert "levels.json" in names and "levels.csv" in names and "levels.html" in names
    svgs = [n for n in names if n.endswith(".svg")]
    pngs = [n for n in names if n.endswith(".png")]
    assert len(svgs) == len(pngs) == 4  # one per chart of the question
    assert "levels-1-chance-of-a-success.png" in pngs
    assert _png_width((out / "levels-1-chance-of-a-success.png").read_bytes()) == 800
    assert json.loads((out / "levels.json").read_text())["question"] == "pouyss/levels"
    report = (out / "levels.html").read_text()
    assert report.count("<svg") == 4
    assert "<script" not in report and 'src="http' not in report and 'href="http' not in report
    assert "tablee lab pouyss levels --max-bonus 2 --max-malus 2" in report
    assert str(out / "levels.html") in done.out


@pytest.mark.slow
def test_a_stopped_simulation_says_so_and_still_writes(
    run: Run, coin: None, tmp_path: Path
) -> None:
    out = tmp_path / "o"
    done = run("lab", "pouyss", "coin", "--stop", "--out", str(out), "--lang", "en")
    assert done.code == 0, done.err
    assert "Stopped before the end" in done.err
    assert (out / "coin.html").exists() and (out / "coin.csv").read_text().count("\n") == 3
    assert "[" in done.out and "Seed: 7" in done.out and "greedy" in done.out


def test_estimates_print_their_interval_and_exact_figure(run: Run, coin: None) -> None:
    done = run("lab", "pouyss", "coin", "--trials", "100", "--lang", "en")
    assert done.code == 0, done.err
    # 40 heads in 100 tosses: the Wilson interval is 30.94% .. 49.80% (Newcombe 1998, method 3)
    assert "40.0%" in done.out and "[30.9%, 49.8%]" in done.out
    assert "exact 50.0%" in done.out
    assert "100 trials each" in done.out


class Terminal(io.StringIO):
    """Standard error as a terminal: the progress bar is drawn there."""

    def isatty(self) -> bool:
        return True


def test_a_terminal_shows_the_progress_of_a_simulation(coin: None) -> None:
    out, err = io.StringIO(), Terminal()
    assert main(["lab", "pouyss", "coin", "--trials", "250", "--lang", "en"], out, err) == 0
    assert "250/250" in err.getvalue()  # the question reported 250 of 250 trials done
    assert "40.0%" in out.getvalue()  # the figures themselves go to standard output


def test_ctrl_c_before_any_figure_says_so(
    run: Run, coin: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(self: object, context: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(fake_questions.Coin, "answer", interrupted)
    done = run("lab", "pouyss", "coin")
    assert done.code == 130 and "Stopped before the first figure" in done.err


def test_a_narrow_terminal_gets_the_figures_in_several_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import re

    monkeypatch.setenv("COLUMNS", "80")
    out, err = Terminal(), io.StringIO()
    argv = ["lab", "pouyss", "levels", "--max-bonus", "1", "--max-malus", "1", "--lang", "en"]
    assert main(argv, out, err) == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue())
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
    # the inputs are repeated in each table; no figure is cut
    assert text.count("bonus dice") == 2 and "…" not in text
    assert "161/36" in text  # the mean die value with one bonus die, in the second table


@pytest.mark.parametrize("target", ["a-file", "a-file/below", ""])
def test_an_out_folder_that_cannot_be_written_is_refused_before_the_run(
    run: Run, coin: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    answered: list[object] = []

    def answer(self: object, context: object) -> object:
        answered.append(self)  # a long simulation would be lost after its run
        raise AssertionError("the question ran")

    monkeypatch.setattr(fake_questions.Coin, "answer", answer)
    out = str(tmp_path / target) if target else ""
    done = run("lab", "pouyss", "coin", "--out", out)
    assert done.code == 2, done.err
    assert answered == []
    assert "--out" in done.err or "cannot write into" in done.err
    assert "Traceback" not in done.err


@pytest.mark.parametrize(
    ("argv", "figures"),
    [
        # a D8 against 8 or more: 1 - (7/8)**3 for one success, (1/8)**3 for three (S-M2)
        (["shs", "ladder", "--max-difficulty", "3", "--max-modifier", "0"], ["169/512", "1/512"]),
        (["pouyss", "levels", "--max-bonus", "1", "--max-malus", "1"], ["161/36", "3/4"]),
    ],
)
def test_a_terminal_too_narrow_for_the_inputs_still_shows_every_figure(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], figures: list[str]
) -> None:
    import re

    monkeypatch.setenv("COLUMNS", "40")
    out, err = Terminal(), io.StringIO()
    assert main(["lab", *argv, "--lang", "fr"], out, err) == 0, err.getvalue()
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue())
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 40
    assert "…" not in text  # no label nor figure cut
    for figure in figures:
        assert figure in text


def test_the_inputs_are_given_as_the_command_that_replays_them(run: Run) -> None:
    argv = ("lab", "ybs", "gang", "--trials", "20", "--higher-straight-wins", "--lang")
    french, english = run(*argv, "fr").out, run(*argv, "en").out
    replay = (
        "tablee lab ybs gang --players-dice 5 --gm-side-dice 5 --gm-keep race "
        "--higher-straight-wins --trials 20 --seed 1"
    )
    assert f"Pour relancer ces figures : {replay}" in french
    assert f"To run it again: {replay}" in english


def test_ctrl_c_before_the_first_chunk_of_a_simulation_says_so_and_writes_nothing(
    run: Run, coin: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses

    answer = fake_questions.Coin.answer

    def nothing_done(self: fake_questions.Coin, context: object) -> object:
        done = answer(self, context)  # type: ignore[arg-type]
        empty = {k: None for k in done.rows[0]} | {"rule": "literal", "bet": 1}
        return dataclasses.replace(done, rows=(empty,), trials=0, stopped=True)

    monkeypatch.setattr(fake_questions.Coin, "answer", nothing_done)
    done = run("lab", "pouyss", "coin", "--out", str(tmp_path / "o"))
    assert done.code == 130 and "Stopped before the first figure" in done.err
    assert "0 trials each" not in done.out
    assert not any((tmp_path / "o").iterdir())


def test_a_file_that_cannot_be_written_after_the_run_keeps_the_figures_printed(
    run: Run, coin: None, tmp_path: Path
) -> None:
    (tmp_path / "coin.csv").mkdir()  # the folder is writable, but not this one file
    done = run("lab", "pouyss", "coin", "--out", str(tmp_path), "--lang", "en")
    assert done.code == 2
    assert "cannot write into" in done.err
    assert "40.0%" in done.out  # the run's figures are not lost


def test_ctrl_c_while_the_files_are_written_says_so_without_a_traceback(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tablee.lab import charts

    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt  # Ctrl+C while the charts are drawn, after the figures

    monkeypatch.setattr(charts, "draw_all", interrupted)
    argv = ("lab", "pouyss", "levels", "--max-bonus", "1", "--max-malus", "0")
    done = run(*argv, "--out", str(tmp_path / "o"), "--lang", "en")
    assert done.code == 130
    assert "Stopped while writing the files" in done.err


def test_ctrl_c_while_the_figures_are_printed_stops_without_a_traceback(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tablee.cli import lab

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt  # Ctrl+C while a long table is printed

    monkeypatch.setattr(lab, "_print_result", interrupted)
    assert run("lab", "pouyss", "levels", "--max-bonus", "0", "--max-malus", "0").code == 130


def test_a_yes_by_default_can_be_said_no_at_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A declared yes-or-no field that defaults to yes takes --no-FLAG (simultaneous straights
    # then draw, Y-A13): without it the command line could never turn the option off.
    assert (
        main(
            ["lab", "ybs", "race-advice", "--max-dice", "4", "--no-higher-straight-wins", "--json"]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["inputs"]["higher_straight_wins"] is False
    assert main(["lab", "ybs", "race-advice", "--max-dice", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["inputs"]["higher_straight_wins"] is True


def test_a_flag_that_already_says_no_is_said_yes_without_doubling_the_no() -> None:
    from tablee.lab.questions import question_named
    from tablee.systems.declare import fields_of

    specs = {s.name: s for s in fields_of(question_named("ybs", "test"))}
    assert specs["no_reroll"].negative_flag == "--hide-no-reroll"  # declared
    film = {s.name: s for s in fields_of(question_named("shs", "film"))}
    assert film["expertise"].negative_flag == "--no-expertise"


def test_the_replayed_command_says_no_to_a_yes_by_default(run: Run) -> None:
    done = run("lab", "ybs", "test", "--max-tokens", "1", "--hide-no-reroll", "--compare", "none")
    assert done.code == 0, done.err
    (line,) = [x for x in done.out.splitlines() if x.startswith("To run it again:")]
    assert "--hide-no-reroll" in line and "--max-tokens 1" in line
