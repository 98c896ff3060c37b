"""One chance protocol: rule code asks for its dice one request at a time.

A mechanic is plain code that takes a `Chance` and calls ``chance.roll(DiceRequest(...))``
each time it needs dice (a first throw, a reroll, the next throw of a race), then decides
with the faces it got. The same code is then driven by:

* live play and replays: `SourceChance` over a `FairSource`, a `SeededSource` or the faces a
  player typed in (`TypedFaces`); a `Recorder` keeps every request and its faces, so the
  faces can be stored and handed again to a retry (`Recorder.replay`);
* exact odds: `exact` runs the code once per possible roll (every multiset of faces, with its
  multiplicity, when the order does not matter; every sequence when it does) and returns a
  `Distribution` with exact integer weights;
* simulation: `simulate` runs it many times with a seeded source;
* races with no bound on their length (throw until a straight): `absorbing` runs one step of
  the rule code per state through `exact`, memoises the states and solves the absorbing
  Markov chain exactly with `Fraction` (`solve_absorbing` does the solving alone).

A closed form may stay beside a mechanic as an accelerator, tested equal to `exact`.

This module holds the protocol and the drivers of play (a roll needs nothing more); the
enumeration half (`exact`, `simulate`, `absorbing` and their helpers) lives in
`tablee.dice.enumeration`, imported on first use (the package `tablee.dice` gives its names).

Source: docs/architecture.md ("A mechanic", "One chance protocol"), after OpenSpiel's
chance nodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from tablee.dice.kinds import Die
from tablee.dice.sources import RandomSource
from tablee.errors import N_, InputError

__all__ = [
    "Chance",
    "DiceRequest",
    "RecordedRoll",
    "Recorder",
    "Replay",
    "SamplingChance",
    "SourceChance",
]


@dataclass(frozen=True)
class DiceRequest:
    """Dice a mechanic asks for, at one point of its resolution.

    Attributes:
        die: the kind of die.
        count: how many, 0 or more.
        ordered: whether the rule reads the faces in the order thrown. When False (most
            rules), exact enumeration hands each multiset of faces once, sorted ascending,
            with its multiplicity; when True, every sequence.
    """

    die: Die
    count: int
    ordered: bool = False


class Chance(Protocol):
    """Where a mechanic's dice come from: live, seeded, typed in, replayed or enumerated."""

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        """The faces for ``request`` (``request.count`` of them).

        Raises:
            InputError: the faces cannot be given (typed faces that do not fit, a replay
                asked for other dice, an enumeration past its budget).
        """
        ...


class SamplingChance(Chance, Protocol):
    """A `Chance` that can also draw a whole number below ``n`` (what a `Sampler` draws with).

    A simulation's trial is given one (`SourceChance` over a `SeededSource`), so that it may
    either throw a mechanic's dice or draw the mechanic's outcome from its exact
    distribution in one draw; both are the same in distribution.
    """

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``, each equally likely.

        Raises:
            InputError: this chance has no such draws.
        """
        ...


class SourceChance:
    """A `Chance` over any `RandomSource` (fair, seeded or typed-in faces).

    Args:
        source: the source; faces come in the order it gives them.
    """

    def __init__(self, source: RandomSource) -> None:
        self.source = source
        self._below = getattr(source, "below", None)

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        """Roll ``request.count`` dice of ``request.die`` with the source."""
        return self.source.roll(request.die, request.count)

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``, each equally likely, drawn by the source.

        A simulation draws a mechanic's outcome from its exact distribution with it
        (`tablee.dice.Sampler`) instead of throwing the mechanic's dice.

        Raises:
            InputError: the source has no such draws (faces typed in are dice, not draws).
            ValueError: ``n`` below 1.
        """
        if self._below is None:
            raise InputError(N_("faces typed in cannot draw an outcome: throw the dice instead"))
        return int(self._below(n))

    def typed_count(self, die: Die) -> int | None:
        """How many faces were typed in for ``die``'s kind, or None.

        None unless the source keeps faces typed kind by kind (`tablee.dice.FacesByKind`).
        """
        count = getattr(self.source, "typed_count", None)
        return int(count(die)) if callable(count) else None


@dataclass(frozen=True)
class RecordedRoll:
    """One request and the faces it got.

    Attributes:
        request: the dice asked for.
        faces: the faces given, in order.
    """

    request: DiceRequest
    faces: tuple[int, ...]


class Recorder:
    """A `Chance` that records every request and its faces, to store them or retry with them.

    Args:
        chance: where the faces come from (`SourceChance` over a live or typed-in source).
    """

    def __init__(self, chance: Chance) -> None:
        self._chance = chance
        self._rolls: list[RecordedRoll] = []

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        """Ask the wrapped chance, and record the request and its faces."""
        faces = tuple(self._chance.roll(request))
        self._rolls.append(RecordedRoll(request, faces))
        return faces

    def typed_count(self, die: Die) -> int | None:
        """How many faces were typed in for ``die``'s kind (see `SourceChance`), or None."""
        count = getattr(self._chance, "typed_count", None)
        return count(die) if callable(count) else None

    @property
    def rolls(self) -> tuple[RecordedRoll, ...]:
        """Every request so far with its faces, in order."""
        return tuple(self._rolls)

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face so far, in order, requests concatenated."""
        return tuple(f for r in self._rolls for f in r.faces)

    def replay(self) -> Replay:
        """A chance that hands the recorded faces again, for a retry of the same decision."""
        return Replay(self._rolls)


class Replay:
    """A `Chance` that hands recorded faces again, request by request.

    A retry of a decision (another writer got there first) must not roll again: it asks for
    the same dice and gets the same faces. Asking for other dice is refused.

    Args:
        rolls: the recorded requests and faces, in order.
    """

    def __init__(self, rolls: Sequence[RecordedRoll]) -> None:
        self._rolls = tuple(rolls)
        self._used = 0

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        """The recorded faces of the next request.

        Raises:
            InputError: no request is left, or the next one recorded asked for other dice.
        """
        if self._used >= len(self._rolls):
            raise InputError(
                N_("the retry asks for {count} {die} more than the {recorded} rolls recorded"),
                count=request.count,
                die=request.die.name,
                recorded=len(self._rolls),
            )
        recorded = self._rolls[self._used]
        if recorded.request != request:
            raise InputError(
                N_(
                    "the retry asks for {count} {die} at roll {number}, but {recorded_count} "
                    "{recorded_die} were rolled there: the faces cannot be reused"
                ),
                count=request.count,
                die=request.die.name,
                number=self._used + 1,
                recorded_count=recorded.request.count,
                recorded_die=recorded.request.die.name,
            )
        self._used += 1
        return recorded.faces

    def finish(self) -> None:
        """Check that the retry used every recorded roll.

        Raises:
            InputError: fewer requests than were recorded.
        """
        if self._used != len(self._rolls):
            raise InputError(
                N_("the retry used {used} of the {recorded} rolls recorded"),
                used=self._used,
                recorded=len(self._rolls),
            )
