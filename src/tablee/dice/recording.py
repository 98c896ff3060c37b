"""A random source that remembers what it handed out, so a retried command rolls the same.

A command decided again after losing a race to another writer must not roll new dice: the
first attempt's faces are the roll. `RecordingSource` wraps any `RandomSource`; each
`fresh` pass hands out the recorded faces first, in the order they were asked for, and
draws new ones only past them.

Source: architecture.md "The event log" (a retry never rolls again).
"""

from __future__ import annotations

from tablee.dice.kinds import Die
from tablee.dice.sources import RandomSource, TypedFaces
from tablee.errors import N_, InputError

__all__ = ["FacesByKind", "RecordingSource"]


class RecordingSource:
    """Wraps a source; records every roll and replays them on the next pass.

    Args:
        source: where new faces come from (fair, seeded, typed in).
    """

    def __init__(self, source: RandomSource) -> None:
        self._source = source
        self._rolls: list[tuple[Die, int, tuple[int, ...]]] = []
        self._next = 0

    def fresh(self) -> RecordingSource:
        """Start a new pass: the recorded rolls are handed out again first."""
        self._next = 0
        return self

    @property
    def rolls(self) -> tuple[tuple[Die, int, tuple[int, ...]], ...]:
        """Every ``(die, count, faces)`` handed out so far, in order."""
        return tuple(self._rolls)

    def roll(self, die: Die, count: int) -> tuple[int, ...]:
        """The recorded faces of this request, or new ones from the wrapped source.

        Raises:
            InputError: a pass asks for other dice than the recorded pass did at this point
                (the command changed between attempts), or as the wrapped source.
        """
        if self._next < len(self._rolls):
            recorded_die, recorded_count, faces = self._rolls[self._next]
            if (recorded_die, recorded_count) != (die, count):
                raise InputError(
                    N_(
                        "the roll asked for {count} {die} where {recorded} {recorded_die} "
                        "were rolled"
                    ),
                    count=count,
                    die=die.name,
                    recorded=recorded_count,
                    recorded_die=recorded_die.name,
                )
        else:
            faces = self._source.roll(die, count)
            self._rolls.append((die, count, faces))
        self._next += 1
        return faces


class FacesByKind:
    """Faces typed in for each kind of die apart, each handed out in order.

    A command that throws d10 action dice and D+/- dice takes their faces from two lists;
    each request is served from the list of its die's kind.

    Args:
        typed: die name (``d10``, ``dpm``) -> the faces read on those dice.
        fallback: where the faces of a kind with none typed in come from (the web rolls the
            game master's dice when a player types in their own); None: they are an error.
    """

    def __init__(self, typed: dict[str, TypedFaces], fallback: RandomSource | None = None) -> None:
        self.typed = typed
        self.fallback = fallback

    def roll(self, die: Die, count: int) -> tuple[int, ...]:
        """The next ``count`` faces typed for ``die``'s kind.

        Raises:
            InputError: no faces were typed in for that kind, or too few (see `TypedFaces`).
        """
        source = self.typed.get(die.name)
        if source is None:
            if count == 0:
                return ()
            if self.fallback is not None:
                return self.fallback.roll(die, count)
            raise InputError(
                N_("{count} {die} faces are needed but none were typed in"),
                count=count,
                die=die.name,
            )
        return source.roll(die, count)

    def finish(self) -> None:
        """Check that every typed face of every kind was used (InputError if not)."""
        for source in self.typed.values():
            source.finish()
