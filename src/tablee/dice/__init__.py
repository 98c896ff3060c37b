"""Dice: random sources, dice kinds, typed faces, the chance protocol, exact distributions.

This package imports only the standard library. Source: issue 2 point 2; STYLE.md.
"""

from tablee.dice.chance import (
    EXACT_BUDGET,
    MAX_CHAIN_STATES,
    Absorption,
    Chance,
    End,
    Next,
    RecordedRoll,
    Recorder,
    Replay,
    SourceChance,
    absorbing,
    exact,
    outcomes_of,
    simulate,
    solve_absorbing,
)
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
    "EXACT_BUDGET",
    "MAX_CHAIN_STATES",
    "MAX_DICE_PER_REQUEST",
    "Absorption",
    "Chance",
    "DiceRequest",
    "Die",
    "Distribution",
    "End",
    "FairSource",
    "Mechanic",
    "Next",
    "Outcome",
    "RandomSource",
    "RecordedRoll",
    "Recorder",
    "Replay",
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
    "ordinal",
    "outcomes_of",
    "parse_faces",
    "roll",
    "simulate",
    "solve_absorbing",
    "split_faces",
    "typed_faces",
]
