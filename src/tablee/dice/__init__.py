"""Dice: random sources, dice kinds, typed faces, the mechanic contract, exact distributions.

This package imports only the standard library. Source: issue 2 point 2; STYLE.md.
"""

from tablee.dice.distribution import Distribution, enumerate_rolls
from tablee.dice.faces import (
    check_typed_face,
    check_typed_faces,
    ordinal,
    parse_faces,
    split_faces,
    typed_faces,
)
from tablee.dice.kinds import D6, D8, D10, DICE, DPM, Die, die_named
from tablee.dice.mechanic import (
    DiceRequest,
    Mechanic,
    Outcome,
    Trace,
    TraceStep,
    exact_distribution,
    roll,
)
from tablee.dice.sources import (
    MAX_DICE_PER_REQUEST,
    FairSource,
    RandomSource,
    SeededSource,
    TypedFaces,
)

__all__ = [
    "D6",
    "D8",
    "D10",
    "DICE",
    "DPM",
    "MAX_DICE_PER_REQUEST",
    "DiceRequest",
    "Die",
    "Distribution",
    "FairSource",
    "Mechanic",
    "Outcome",
    "RandomSource",
    "SeededSource",
    "Trace",
    "TraceStep",
    "TypedFaces",
    "check_typed_face",
    "check_typed_faces",
    "die_named",
    "enumerate_rolls",
    "exact_distribution",
    "ordinal",
    "parse_faces",
    "roll",
    "split_faces",
    "typed_faces",
]
