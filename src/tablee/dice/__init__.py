"""Dice: random sources, dice kinds, typed faces, the chance protocol, exact distributions.

This package imports only the standard library. The enumeration half of the chance protocol
(`exact`, `simulate`, `absorbing`...) is imported on first use of one of its names, so a roll
does not load it. Source: docs/architecture.md.
"""

from typing import TYPE_CHECKING, Any

from tablee.dice.chance import (
    Chance,
    RecordedRoll,
    Recorder,
    Replay,
    SamplingChance,
    SourceChance,
)
from tablee.dice.distribution import Distribution, Sampler, enumerate_rolls
from tablee.dice.faces import (
    WHOLE_DIGITS,
    check_typed_face,
    check_typed_faces,
    is_whole_in_reach,
    ordinal,
    parse_faces,
    read_whole,
    split_faces,
    typed_faces,
)
from tablee.dice.kinds import D6, D8, D10, DICE, DPM, Die, die_named
from tablee.dice.mechanic import (
    DiceRequest,
    LazyTrace,
    Mechanic,
    Outcome,
    Trace,
    TraceStep,
    exact_distribution,
    roll,
)
from tablee.dice.sources import (
    MAX_DICE_PER_REQUEST,
    FacesByKind,
    FairSource,
    RandomSource,
    SeededSource,
    TypedFaces,
)

if TYPE_CHECKING:
    from tablee.dice.enumeration import (
        EXACT_BUDGET,
        MAX_CHAIN_STATES,
        Absorption,
        End,
        Next,
        absorbing,
        exact,
        outcomes_of,
        simulate,
        solve_absorbing,
    )

__all__ = [
    "D6",
    "D8",
    "D10",
    "DICE",
    "DPM",
    "EXACT_BUDGET",
    "MAX_CHAIN_STATES",
    "MAX_DICE_PER_REQUEST",
    "WHOLE_DIGITS",
    "Absorption",
    "Chance",
    "DiceRequest",
    "Die",
    "Distribution",
    "End",
    "FacesByKind",
    "FairSource",
    "LazyTrace",
    "Mechanic",
    "Next",
    "Outcome",
    "RandomSource",
    "RecordedRoll",
    "Recorder",
    "Replay",
    "Sampler",
    "SamplingChance",
    "SeededSource",
    "SourceChance",
    "Trace",
    "TraceStep",
    "TypedFaces",
    "absorbing",
    "check_typed_face",
    "check_typed_faces",
    "die_named",
    "enumerate_rolls",
    "exact",
    "exact_distribution",
    "is_whole_in_reach",
    "ordinal",
    "outcomes_of",
    "parse_faces",
    "read_whole",
    "roll",
    "simulate",
    "solve_absorbing",
    "split_faces",
    "typed_faces",
]


ENUMERATION = frozenset(
    {
        "EXACT_BUDGET",
        "MAX_CHAIN_STATES",
        "Absorption",
        "End",
        "Next",
        "absorbing",
        "exact",
        "outcomes_of",
        "simulate",
        "solve_absorbing",
    }
)
"""The names of the enumeration half, which lives in `tablee.dice.enumeration`."""


def __getattr__(name: str) -> Any:
    """The enumeration half's names (`tablee.dice.enumeration`), imported on first use.

    Raises:
        AttributeError: no such name in the package.
    """
    if name in ENUMERATION:
        from tablee.dice import enumeration

        value = getattr(enumeration, name)
        globals()[name] = value  # found directly from now on
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
