"""The lab's simulation runner: seeded chunks of trials over a process pool, stoppable.

A simulated question hands the runner a `Simulation` (a picklable object whose ``trial``
plays one trial of the rules through a `tablee.dice.Chance` and writes what it saw in a
`Tally`). The runner splits the run into chunks whose size depends only on the number of
trials, seeds chunk ``i`` with `chunk_seed` ``(seed, i)`` (a SplitMix64 mix, so nearby
seeds and chunks draw unrelated dice), runs the chunks in this process (one worker) or over
a `concurrent.futures.ProcessPoolExecutor`, and merges the chunks' tallies in chunk order.
So a run replays exactly, figure for figure, whatever the number of workers.

Progress goes to ``context.progress(done, total)`` after each chunk. Ctrl+C in the parent
(a `KeyboardInterrupt`, from the terminal or raised by the progress callback) stops the run
cleanly: the chunks not started are cancelled, the workers (which ignore SIGINT) finish
the chunk in hand, and the run returns the chunks completed, marked ``stopped``.

Source: docs/architecture.md, "The designer's lab" (the runner).
"""

from __future__ import annotations

import math
import signal
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from tablee.dice import SamplingChance, SeededSource, SourceChance
from tablee.errors import N_, InputError
from tablee.lab.results import Z_95, Estimate, mean_estimate, proportion_estimate

__all__ = [
    "CHUNKS",
    "Run",
    "Simulation",
    "Tally",
    "chunk_seed",
    "chunk_sizes",
    "run_simulation",
]

CHUNKS = 32
"""Chunks a run is split into (fewer when there are fewer trials)."""

_MASK = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    """One SplitMix64 output for the state ``x`` (Steele, Lea and Flood, 2014)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk ``index`` of a run seeded ``seed``.

    Args:
        seed: the run's seed, any integer (reduced modulo 2**64).
        index: the chunk's number, 0 or more.

    Returns:
        0 to 2**64 - 1: SplitMix64 of the seed, then of that mixed with the index.
    """
    return _splitmix64(_splitmix64(seed & _MASK) ^ (index & _MASK))


def chunk_sizes(trials: int) -> tuple[int, ...]:
    """How many trials each chunk runs: at most `CHUNKS` chunks, sizes differing by 1 at most.

    Depends on ``trials`` only, never on the workers, so that a run replays.

    Raises:
        InputError: ``trials`` below 1.
    """
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise InputError(N_("trials {value!r} must be a whole number 1 or more"), value=trials)
    count = min(CHUNKS, trials)
    base, extra = divmod(trials, count)
    return tuple(base + (1 if i < extra else 0) for i in range(count))


@dataclass
class Tally:
    """What trials saw: counts, sums and sums of squares, histograms; small and picklable.

    Attributes:
        trials: trials tallied.
        counts: key -> how many times it was counted (a proportion's successes).
        samples: key -> values added (a mean's denominator).
        sums, squares: key -> sum of the values added, and of their squares.
        histograms: key -> value -> how many times it was seen.
    """

    trials: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    samples: dict[str, int] = field(default_factory=dict)
    sums: dict[str, float] = field(default_factory=dict)
    squares: dict[str, float] = field(default_factory=dict)
    histograms: dict[str, dict[int, int]] = field(default_factory=dict)

    def count(self, key: str, n: int = 1) -> None:
        """Count ``key`` ``n`` more times."""
        self.counts[key] = self.counts.get(key, 0) + n

    def add(self, key: str, value: float) -> None:
        """Add one value of ``key`` (for its mean)."""
        self.samples[key] = self.samples.get(key, 0) + 1
        self.sums[key] = self.sums.get(key, 0) + value
        self.squares[key] = self.squares.get(key, 0) + value * value

    def see(self, key: str, value: int, n: int = 1) -> None:
        """Count ``value`` in the histogram ``key`` ``n`` more times."""
        histogram = self.histograms.setdefault(key, {})
        histogram[value] = histogram.get(value, 0) + n

    def merge(self, other: Tally) -> None:
        """Add ``other``'s tallies to these."""
        self.trials += other.trials
        for key, n in other.counts.items():
            self.counts[key] = self.counts.get(key, 0) + n
        for key, n in other.samples.items():
            self.samples[key] = self.samples.get(key, 0) + n
            self.sums[key] = self.sums.get(key, 0) + other.sums[key]
            self.squares[key] = self.squares.get(key, 0) + other.squares[key]
        for key, histogram in other.histograms.items():
            mine = self.histograms.setdefault(key, {})
            for value, n in histogram.items():
                mine[value] = mine.get(value, 0) + n

    def proportion(
        self, key: str, out_of: int | None = None, exact: Fraction | None = None
    ) -> Estimate | None:
        """How often ``key`` was counted, out of ``out_of`` (default: the trials).

        Returns:
            The Wilson 95% estimate, or None with no trial.
        """
        total = self.trials if out_of is None else out_of
        if total < 1:
            return None
        return proportion_estimate(self.counts.get(key, 0), total, exact)

    def mean(
        self,
        key: str,
        exact: Fraction | None = None,
        *,
        within: tuple[float, float] | None = None,
    ) -> Estimate | None:
        """The mean of the values added for ``key`` with its 95% interval; None with none.

        Args:
            key: the values' key.
            exact: the exact mean, when known.
            within: the bounds every value lies in, when known (`mean_estimate`).
        """
        n = self.samples.get(key, 0)
        if n < 1:
            return None
        return mean_estimate(self.sums[key], self.squares[key], n, exact, within=within)

    def quantile(self, key: str, q: float) -> Estimate | None:
        """The ``q`` quantile (0 to 1) of histogram ``key``, with a distribution-free 95% interval.

        Each value seen must come from its own trial (independent values): the interval is
        read at the ranks ``n q -+ 1.96 sqrt(n q (1 - q))`` of the sorted values, the
        order-statistic interval of the binomial's normal approximation.

        Returns:
            The estimate, or None when the histogram is empty.
        """
        histogram = self.histograms.get(key, {})
        n = sum(histogram.values())
        if n == 0:
            return None
        ordered = sorted(histogram.items())

        def at_rank(rank: int) -> int:
            seen = 0
            for value, k in ordered:
                seen += k
                if seen >= rank:
                    return value
            return ordered[-1][0]

        spread = Z_95 * math.sqrt(n * q * (1 - q))
        value = at_rank(min(n, max(1, math.ceil(q * n))))
        low = at_rank(min(n, max(1, math.floor(q * n - spread))))
        high = at_rank(min(n, max(1, math.ceil(q * n + spread) + 1)))
        return Estimate(float(value), float(low), float(high), n)


class Simulation(Protocol):
    """One trial of a simulated question, picklable (sent to the worker processes)."""

    def trial(self, chance: SamplingChance, tally: Tally) -> None:
        """Play one trial with dice from ``chance``, writing what it saw into ``tally``.

        ``chance`` throws dice (`tablee.dice.Chance.roll`) and draws outcomes
        (`tablee.dice.Sampler`, by ``chance.below``): a trial may draw a mechanic's
        outcome from its exact distribution where it reads nothing else of the roll.
        """
        ...


@dataclass(frozen=True)
class Run:
    """A finished (or stopped) run.

    Attributes:
        tally: the merged tallies of the completed chunks (``tally.trials`` trials).
        requested: the trials asked for.
        stopped: stopped by Ctrl+C before the end; the tally holds the completed chunks.
        seed: the run's seed.
    """

    tally: Tally
    requested: int
    stopped: bool
    seed: int

    @property
    def trials(self) -> int:
        """Trials completed."""
        return self.tally.trials


def _run_chunk(simulation: Simulation, size: int, seed: int) -> Tally:
    """``size`` trials from a `SeededSource` seeded ``seed`` (runs in a worker or here)."""
    chance = SourceChance(SeededSource(seed))
    tally = Tally()
    trial = simulation.trial
    for _ in range(size):
        trial(chance, tally)
    tally.trials = size
    return tally


def _ignore_sigint() -> None:
    """Pool initializer: a worker leaves Ctrl+C to the parent, which stops the run."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_simulation(
    simulation: Simulation,
    trials: int,
    seed: int,
    *,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Run:
    """Run ``trials`` trials of ``simulation``, seeded, in chunks, on ``workers`` processes.

    Args:
        simulation: the trial to play (picklable when ``workers > 1``).
        trials: 1 or more.
        seed: any integer; the same seed gives the same figures with any ``workers``.
        workers: processes to use, 1 or more (1: this process, no pool).
        progress: called with ``(trials done, trials)`` after each chunk; it may raise
            `KeyboardInterrupt` to stop the run.

    Returns:
        The run: its merged tally, ``stopped`` when Ctrl+C stopped it.

    Raises:
        InputError: ``trials`` below 1 or ``workers`` below 1.
        Whatever a trial raises (the run is then abandoned).
    """
    sizes = chunk_sizes(trials)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError(N_("workers {value!r} must be a whole number 1 or more"), value=workers)
    seeds = [chunk_seed(seed, i) for i in range(len(sizes))]
    done: dict[int, Tally] = {}
    stopped = False
    if workers == 1:
        try:
            for index, size in enumerate(sizes):
                done[index] = _run_chunk(simulation, size, seeds[index])
                if progress is not None:
                    progress(sum(t.trials for t in done.values()), trials)
        except KeyboardInterrupt:
            stopped = True
    else:
        stopped = _run_pool(simulation, sizes, seeds, workers, progress, done)
    tally = Tally()
    for index in sorted(done):  # chunk order: the same sums whatever the workers
        tally.merge(done[index])
    return Run(tally, trials, stopped, seed)


def _run_pool(
    simulation: Simulation,
    sizes: tuple[int, ...],
    seeds: list[int],
    workers: int,
    progress: Callable[[int, int], None] | None,
    done: dict[int, Tally],
) -> bool:
    """Run the chunks over a process pool, filling ``done``; True when Ctrl+C stopped it."""
    trials = sum(sizes)
    pool = ProcessPoolExecutor(max_workers=min(workers, len(sizes)), initializer=_ignore_sigint)
    pending: dict[Future[Tally], int] = {}
    stopped = False
    try:
        for index, size in enumerate(sizes):
            pending[pool.submit(_run_chunk, simulation, size, seeds[index])] = index
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                done[pending.pop(future)] = future.result()
            if progress is not None:
                progress(sum(t.trials for t in done.values()), trials)
    except KeyboardInterrupt:
        stopped = True
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    if stopped:  # chunks that were running when Ctrl+C came finished during the shutdown
        for future, index in pending.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                done[index] = future.result()
    return stopped
