"""The lab's runner: seeded chunks that replay whatever the workers, Ctrl+C, the tallies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from tablee.dice import D6, Chance, DiceRequest
from tablee.errors import InputError
from tablee.lab.runner import CHUNKS, Tally, chunk_seed, chunk_sizes, run_simulation


@dataclass(frozen=True)
class TwoDice:
    """Two d6: their sum's mean, a six on the first, a double."""

    def trial(self, chance: Chance, tally: Tally) -> None:
        a, b = chance.roll(DiceRequest(D6, 2, ordered=True))
        tally.add("sum", a + b)
        tally.see("sum", a + b)
        if a == 6:
            tally.count("six")
        if a == b:
            tally.count("double")


def test_chunk_sizes_split_the_trials_evenly() -> None:
    assert chunk_sizes(10) == (1,) * 10
    sizes = chunk_sizes(1000)
    assert len(sizes) == CHUNKS and sum(sizes) == 1000
    assert max(sizes) - min(sizes) <= 1
    with pytest.raises(InputError):
        chunk_sizes(0)


def test_chunk_seeds_differ_between_chunks_and_runs() -> None:
    seeds = {chunk_seed(s, i) for s in (0, 1, 2) for i in range(CHUNKS)}
    assert len(seeds) == 3 * CHUNKS
    assert chunk_seed(1, 0) == chunk_seed(1, 0)
    assert all(0 <= s < 2**64 for s in seeds)


def test_one_and_two_workers_give_the_same_figures() -> None:
    one = run_simulation(TwoDice(), 3000, 7, workers=1)
    two = run_simulation(TwoDice(), 3000, 7, workers=2)
    assert one.tally == two.tally
    assert one.trials == 3000 and not one.stopped
    other = run_simulation(TwoDice(), 3000, 8, workers=1)
    assert other.tally != one.tally


def test_the_estimates_cover_the_exact_figures() -> None:
    tally = run_simulation(TwoDice(), 6000, 3).tally
    mean = tally.mean("sum", exact=Fraction(7))
    six = tally.proportion("six", exact=Fraction(1, 6))
    double = tally.proportion("double", exact=Fraction(1, 6))
    assert mean is not None and six is not None and double is not None
    assert mean.covers(7) and six.covers(Fraction(1, 6)) and double.covers(Fraction(1, 6))
    median = tally.quantile("sum", 0.5)
    assert median is not None and median.value == 7 and median.low <= 7 <= median.high


def test_progress_reports_every_chunk_up_to_the_total() -> None:
    seen: list[tuple[int, int]] = []
    run_simulation(TwoDice(), 100, 1, progress=lambda done, total: seen.append((done, total)))
    assert len(seen) == CHUNKS
    assert seen[-1] == (100, 100)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def _stop_after_first(done: int, total: int) -> None:
    raise KeyboardInterrupt


def test_ctrl_c_in_this_process_keeps_the_first_chunk() -> None:
    run = run_simulation(TwoDice(), 3200, 5, progress=_stop_after_first)
    assert run.stopped
    assert run.trials == 100
    full = run_simulation(TwoDice(), 3200, 5)
    assert full.trials == 3200 and not full.stopped


def test_ctrl_c_with_a_pool_returns_the_chunks_done() -> None:
    run = run_simulation(TwoDice(), 3200, 5, workers=2, progress=_stop_after_first)
    assert run.stopped
    assert 100 <= run.trials < 3200
    assert run.trials % 100 == 0
    assert run.tally.samples["sum"] == run.trials


def test_tallies_merge_counts_sums_and_histograms() -> None:
    a, b = Tally(trials=1), Tally(trials=2)
    a.count("x")
    a.add("m", 2)
    a.see("h", 3)
    b.count("x", 2)
    b.add("m", 4)
    b.add("m", 6)
    b.see("h", 3)
    b.see("h", 5)
    a.merge(b)
    assert (a.trials, a.counts["x"], a.samples["m"], a.sums["m"], a.squares["m"]) == (
        3,
        3,
        3,
        12,
        56,
    )
    assert a.histograms["h"] == {3: 2, 5: 1}
    assert Tally().proportion("x") is None and Tally().mean("m") is None


def test_a_quantile_of_one_to_a_hundred() -> None:
    tally = Tally()
    for value in range(1, 101):
        tally.see("v", value)
    median = tally.quantile("v", 0.5)
    assert median is not None
    assert median.value == 50
    # ranks 50 -+ 1.96 * 5: 40 .. 61
    assert (median.low, median.high) == (40, 61)


def test_bad_workers_are_refused() -> None:
    with pytest.raises(InputError):
        run_simulation(TwoDice(), 10, 1, workers=0)


_CTRL_C = """
import time
from dataclasses import dataclass
from tablee.lab.runner import run_simulation

@dataclass(frozen=True)
class Slow:
    def trial(self, chance, tally):
        time.sleep(0.004)
        tally.count("t")

if __name__ == "__main__":
    run = run_simulation(Slow(), 3200, 1, workers=2, progress=lambda d, n: print(d, flush=True))
    print("end", run.stopped, run.trials, run.tally.counts.get("t", 0), flush=True)
"""


@pytest.mark.slow
def test_ctrl_c_on_the_terminal_stops_the_pool_cleanly(tmp_path: Path) -> None:
    # Ctrl+C reaches the whole process group: the workers ignore it, the parent stops
    script = tmp_path / "ctrl_c.py"
    script.write_text(_CTRL_C)
    child = subprocess.Popen(
        [sys.executable, str(script)],
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    child.stdout.readline()  # a first chunk is done: the pool is running
    os.killpg(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert "Traceback" not in err
    end = out.strip().splitlines()[-1].split()
    assert end[:2] == ["end", "True"]
    assert 100 <= int(end[2]) < 3200 and int(end[2]) == int(end[3])
