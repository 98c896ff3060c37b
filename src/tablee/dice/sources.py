"""Random sources: where dice faces come from.

Three sources share one interface, `RandomSource.roll(die, count)`:

* `FairSource` draws from the operating system (`secrets`), for live play;
* `SeededSource` is reproducible from an integer seed, for replays, tests and simulation;
* `TypedFaces` hands out faces that a player read on physical dice, checking their range and
  their number.

Rules never draw faces themselves: they say which dice they need and a source is passed in.

Source: docs/architecture.md ("A mechanic").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from tablee.dice.faces import check_typed_face, split_faces
from tablee.dice.kinds import Die
from tablee.errors import N_, InputError, Plural

__all__ = [
    "MAX_DICE_PER_REQUEST",
    "FacesByKind",
    "FairSource",
    "RandomSource",
    "SeededSource",
    "TypedFaces",
]

MAX_DICE_PER_REQUEST = 100
"""The most dice one request may ask for; a larger count is refused as malformed input."""


def _check_count(count: int) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise InputError(N_("dice count {count!r} must be a whole number 0 or more"), count=count)
    if count > MAX_DICE_PER_REQUEST:
        raise InputError(
            N_("{count} dice in one roll is more than the maximum of {maximum}"),
            count=count,
            maximum=MAX_DICE_PER_REQUEST,
        )


def wrong_face_count(die: Die, count: int, given: int) -> InputError:
    """The error for typed-in faces that are not the number a roll needs.

    Args:
        die: the kind of die rolled.
        count: the faces the roll needs, 0 or more.
        given: the faces typed in.
    """
    return InputError(
        N_("{die}: {faces} needed, {given} typed in"),
        die=die.said,
        faces=Plural("{n} face", "{n} faces", count),
        given=given,
    )


class RandomSource(Protocol):
    """Anything that can roll dice."""

    def roll(self, die: Die, count: int) -> tuple[int, ...]:
        """Roll ``count`` dice of kind ``die``.

        Args:
            die: the kind of die.
            count: how many, 0 to `MAX_DICE_PER_REQUEST`.

        Returns:
            The face values, in the order rolled.

        Raises:
            InputError: a bad count, or (typed faces) faces that do not fit.
        """
        ...


class FairSource:
    """Faces drawn from the operating system's random generator (`secrets`), for live play."""

    def roll(self, die: Die, count: int) -> tuple[int, ...]:
        """Roll fairly; see `RandomSource.roll`."""
        import secrets  # lazy: a roll with typed-in faces does not load it (nor `random`)

        _check_count(count)
        return tuple(die.faces[secrets.randbelow(die.sides)] for _ in range(count))

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``, each equally likely (`secrets.randbelow`).

        Raises:
            ValueError: ``n`` below 1.
        """
        import secrets

        return secrets.randbelow(n)


class SeededSource:
    """Reproducible faces from a seed (Mersenne Twister), for replays, tests and simulation.

    Args:
        seed: any integer; the same seed gives the same faces.
    """

    def __init__(self, seed: int) -> None:
        import random  # lazy: see `FairSource.roll`

        self.seed = seed
        self._rng = random.Random(seed)
        self._bits = self._rng.getrandbits

    def roll(self, die: Die, count: int) -> tuple[int, ...]:
        """Roll reproducibly; see `RandomSource.roll`.

        Each face is the die's face at ``random.Random.randrange(sides)``, drawn as
        ``randrange`` draws it (``sides.bit_length()`` random bits, drawn again while they
        reach ``sides``), written out here so that a simulation does not pay for the calls:
        a seed gives the same faces as ``randrange`` would, which stored replays rely on.
        """
        if type(count) is not int or not 0 <= count <= MAX_DICE_PER_REQUEST:
            _check_count(count)
        faces = die.faces
        sides = len(faces)
        bits = sides.bit_length()
        draw = self._bits
        if count == 1:  # the commonest request, without the list
            index = draw(bits)
            while index >= sides:
                index = draw(bits)
            return (faces[index],)
        rolled = []
        for _ in range(count):
            index = draw(bits)
            while index >= sides:
                index = draw(bits)
            rolled.append(faces[index])
        return tuple(rolled)

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``, each equally likely, as ``randrange(n)`` draws it.

        ``n.bit_length()`` random bits, drawn again while they reach ``n`` (as `roll`).

        Raises:
            ValueError: ``n`` below 1.
        """
        if n < 1:
            raise ValueError(f"nothing to draw below {n}")
        bits = n.bit_length()
        draw = self._bits
        value = draw(bits)
        while value >= n:
            value = draw(bits)
        return value


class TypedFaces:
    """Faces read on physical dice and typed in, handed out in order.

    Args:
        faces: the values, in the order they will be asked for, or the text as typed
            (``"1,4,6"``, ``"+ - 0"``: see `tablee.dice.faces`), read face by face with the
            die each one is asked for.

    A face that the die asked for cannot show is refused with its position among the typed
    faces (``face 7 (the 3rd) is not a face of a d6 (1 to 6)``). Call `finish` once the
    mechanic is resolved: faces left over are an error too.
    """

    def __init__(self, faces: Iterable[int] | str) -> None:
        self._faces: list[int | str] = (
            list(split_faces(faces))
            if isinstance(faces, str)
            else [f if type(f) is int else repr(f) for f in faces]  # anything else is refused
        )
        self._used = 0

    def roll(self, die: Die, count: int) -> tuple[int, ...]:
        """Take the next ``count`` typed faces, checked against ``die``.

        Raises:
            InputError: fewer faces left than asked for, or a face that ``die`` cannot show.
        """
        _check_count(count)
        left = len(self._faces) - self._used
        if left < count:
            raise wrong_face_count(die, count, len(self._faces))
        start = self._used
        taken = tuple(
            check_typed_face(f, start + 1 + i, die)
            for i, f in enumerate(self._faces[start : start + count])
        )
        self._used += count
        return taken

    @property
    def size(self) -> int:
        """How many faces were typed in."""
        return len(self._faces)

    def expect(self, die: Die, count: int) -> None:
        """Check up front that exactly ``count`` faces of ``die`` were typed in.

        For mechanics that roll once: a wrong count is reported before any face is read.

        Raises:
            InputError: a different number of faces, or a face that ``die`` cannot show.
        """
        _check_count(count)
        if len(self._faces) != count:
            raise wrong_face_count(die, count, len(self._faces))
        for position, face in enumerate(self._faces, start=1):
            check_typed_face(face, position, die)

    def finish(self) -> None:
        """Check that every typed face was used.

        Raises:
            InputError: more faces were typed in than the roll needed.
        """
        if self._used != len(self._faces):
            raise InputError(
                N_("{typed} but the roll needs {used}"),
                typed=Plural("{n} face was typed in", "{n} faces were typed in", len(self._faces)),
                used=self._used,
            )


class FacesByKind:
    """Faces typed in for each kind of die apart, each handed out in order.

    A command that throws d10 action dice and D+/- dice takes their faces from two lists;
    each request is served from the list of its die's kind.

    Args:
        typed: die name (``d10``, ``dpm``) -> the faces read on those dice.
        main: the name under which the command's main kind's faces are typed; they also
            serve a die of a kind not among ``others`` (a d10 thrown instead of a d8).
        others: the names of the command's other kinds, each served from its own list only.
        fallback: where the faces of a kind with none typed in come from (the web rolls the
            game master's dice when a player types in their own); None: they are an error.
    """

    def __init__(
        self,
        typed: dict[str, TypedFaces],
        main: str | None = None,
        others: frozenset[str] = frozenset(),
        fallback: RandomSource | None = None,
    ) -> None:
        self.typed = typed
        self.main = main
        self.others = others
        self.fallback = fallback

    def _source(self, die: Die) -> TypedFaces | None:
        source = self.typed.get(die.name)
        if source is None and self.main is not None and die.name not in self.others:
            source = self.typed.get(self.main)
        return source

    def typed_count(self, die: Die) -> int:
        """How many faces were typed in for ``die``'s kind (0 when none)."""
        source = self._source(die)
        return 0 if source is None else source.size

    def roll(self, die: Die, count: int) -> tuple[int, ...]:
        """The next ``count`` faces typed for ``die``'s kind.

        Raises:
            InputError: no faces were typed in for that kind, or too few (see `TypedFaces`).
        """
        source = self._source(die)
        if source is None:
            if count == 0:
                return ()
            if self.fallback is not None:
                return self.fallback.roll(die, count)
            raise InputError(
                N_("{die}: {faces} needed, none typed in"),
                faces=Plural("{n} face", "{n} faces", count),
                die=die.said,
            )
        return source.roll(die, count)

    def finish(self) -> None:
        """Check that every typed face of every kind was used (InputError if not)."""
        for source in self.typed.values():
            source.finish()
