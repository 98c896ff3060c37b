"""The mechanic contract shared by every system.

A mechanic is two pure functions over frozen dataclasses:

* ``dice_for(inputs) -> DiceRequest``: which dice to roll;
* ``resolve(inputs, faces) -> outcome``: the outcome, carrying a `Trace` of short steps.

`roll` drives a mechanic with any `RandomSource`; `exact_distribution` drives the *same*
``resolve`` over every possible roll (through `tablee.dice.enumeration.exact`), so live play and
exact odds cannot drift apart. A mechanic that asks for dice more than once is written
against the chance protocol (`tablee.dice.chance`) instead.

Source: docs/architecture.md ("A mechanic").
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, overload

from tablee.dice.chance import Chance, DiceRequest
from tablee.dice.distribution import Distribution
from tablee.dice.sources import RandomSource

__all__ = [
    "DiceRequest",
    "LazyTrace",
    "Mechanic",
    "Outcome",
    "Trace",
    "TraceStep",
    "exact_distribution",
    "roll",
]

I_contra = TypeVar("I_contra", contravariant=True)
O_co = TypeVar("O_co", covariant=True)
OutT = TypeVar("OutT")
InT = TypeVar("InT")
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class TraceStep:
    """One step of a resolution, for people to read.

    Attributes:
        template: English text with ``{name}`` fields (translated by the outer layers).
        params: the values used by that step (faces, counts, results).
    """

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        """The step as text, translated by ``translate`` (identity by default).

        A value with a ``render(translate)`` method (a `tablee.errors.Message`, such as a
        side's name) is translated too.
        """
        values = {
            key: value.render(translate) if hasattr(value, "render") else value
            for key, value in self.params.items()
        }
        return translate(self.template).format(**values)


Trace = tuple[TraceStep, ...]
"""The steps of one resolution, in order."""


TraceSource = Trace | Callable[[], Trace]
"""A trace, or a function without arguments that builds it (see `LazyTrace`)."""


class LazyTrace:
    """The ``trace`` field of an outcome dataclass, built when it is first read.

    Declared as ``trace: LazyTrace = LazyTrace()`` (the last field; its default is the
    empty trace; type checkers read it as a `Trace`). The field takes either the steps or
    a function without arguments that builds them (a `functools.partial` of a module-level
    function, so that the outcome can still be pickled); reading ``outcome.trace`` builds
    them once, keeps them and gives them, so the outcome reads, compares and prints exactly
    as if the steps had been given. A simulation that never reads the trace never pays for
    its text.

    Source: docs/architecture.md ("A mechanic": every outcome carries its trace).
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self._slot = f"_{name}_source"

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Trace: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> Trace: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> Trace:
        if obj is None:
            return ()  # the field's default, read by `dataclasses` on the class
        state: dict[str, Any] = obj.__dict__
        value = state[self._slot]
        if callable(value):
            value = tuple(value())
            state[self._slot] = value
        return value  # type: ignore[no-any-return]

    def __set__(self, obj: object, value: TraceSource) -> None:
        obj.__dict__[self._slot] = value


class Outcome(Protocol):
    """What every mechanic's outcome offers: its trace."""

    @property
    def trace(self) -> Trace:
        """The resolution's steps."""
        ...


class Mechanic(Protocol[I_contra, O_co]):
    """A rule that needs one roll: say what to roll, then resolve the faces."""

    def dice_for(self, inputs: I_contra) -> DiceRequest:
        """The dice to roll for ``inputs``."""
        ...

    def resolve(self, inputs: I_contra, faces: Sequence[int]) -> O_co:
        """The outcome for ``inputs`` given the rolled ``faces`` (in any order)."""
        ...


def roll(mechanic: Mechanic[InT, OutT], inputs: InT, source: RandomSource) -> OutT:
    """Roll the dice a mechanic asks for with ``source`` and resolve them.

    Args:
        mechanic: the rule.
        inputs: its inputs.
        source: fair, seeded or typed-in faces.

    Returns:
        The outcome.

    Raises:
        InputError: the source cannot give those dice (typed faces of the wrong count/range).
    """
    request = mechanic.dice_for(inputs)
    return mechanic.resolve(inputs, source.roll(request.die, request.count))


def exact_distribution(
    mechanic: Mechanic[InT, OutT], inputs: InT, key: Callable[[OutT], K]
) -> Distribution[K]:
    """Exact distribution of ``key(outcome)`` by resolving every possible roll.

    Rolls are enumerated as multisets with their multiplicities (see `enumerate_rolls`), so
    the cost is the number of multisets, not ``sides ** count``.

    Args:
        mechanic: the rule.
        inputs: its inputs.
        key: what to count from each outcome (a value, a level, a success flag).

    Returns:
        A `Distribution` whose weights add up to ``sides ** count``.
    """
    from tablee.dice.enumeration import exact  # lazy: a roll does not enumerate

    request = mechanic.dice_for(inputs)

    def run(chance: Chance) -> K:
        return key(mechanic.resolve(inputs, chance.roll(request)))

    return exact(run)
