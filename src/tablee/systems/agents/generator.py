"""The scenario generator: each challenge drawn with d6s, and the opposition's score.

A challenge is drawn with d6s: its source (the environment or creatures), its relation to the
agents (always hostile at progress index 3), its type and the opposition's score, which grows
with the index and the number of agents involved. The quest around it (objective, index,
Sang, consequences, end) is `tablee.systems.agents.quest`.

Randomness never enters these functions: `CHALLENGE_GENERATOR.dice_for` says which d6s to
roll and `CHALLENGE_GENERATOR.resolve` reads their faces, so live play, typed-in dice and
exact odds (`tablee.dice.exact_distribution`) share one rule.

Source: seed 002, "Génération de challenge"; rulings G-M9 step 3, G-N3, G-N4, G-A1, G-A2,
G-A3.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import product
from typing import Protocol, TypeVar

from tablee.dice import D6, DiceRequest, Distribution, Trace, TraceStep
from tablee.errors import N_, InputError, Message
from tablee.systems.agents.agent import Reserve
from tablee.systems.common import whole
from tablee.systems.options import OptionRules, bad_option

__all__ = [
    "CHALLENGE_GENERATOR",
    "DEFAULT_OPTIONS",
    "GENERATOR_OPTION_HELP",
    "GENERATOR_OPTION_RULES",
    "MAX_INVOLVED",
    "QUEST_WON_AT",
    "SHOWDOWN_AT",
    "ChallengeGenerator",
    "ChallengeInputs",
    "DrawnChallenge",
    "GeneratedChallenge",
    "GeneratorOptions",
    "OppositionOptions",
    "Relation",
    "Source",
    "challenge_distribution",
    "drawn_values",
    "opposition_score",
]

K = TypeVar("K", bound=Hashable)

QUEST_WON_AT = 4
"""Progress index at which the quest is accomplished (G-M9 step 6)."""
SHOWDOWN_AT = 3
"""Progress index at which every relation is hostile (G-M9 step 3.3)."""
MAX_INVOLVED = 100
"""Most agents involved in one challenge (Tablée's bound on input)."""

GENERATOR_OPTION_HELP: Mapping[str, str] = {
    "opposition_rows": N_(
        "which row of the opposition table applies: shifted (rows 1-4 at index <=0, 1, 2, 3) "
        "or literal (rows 1-4 at index <=1, 2, 3, 4) (default shifted)"
    ),
    "opposition_rounding": N_(
        "half a d6 in rows 2-4 of the opposition table: floor or up (default floor)"
    ),
    "opposition_minimum": N_(
        "a generated opposition score of 0: zero (the challenge is won at once) or "
        "one_per_agent (at least 1 per agent involved) (default zero)"
    ),
}

_CHOICES: Mapping[str, tuple[str, ...]] = {
    "opposition_rows": ("shifted", "literal"),
    "opposition_rounding": ("floor", "up"),
    "opposition_minimum": ("zero", "one_per_agent"),
}

GENERATOR_OPTION_RULES = OptionRules(system="agents", choices=_CHOICES)
"""How `tablee.systems.options.with_changes` reads `GeneratorOptions` from text."""


class OppositionOptions(Protocol):
    """What the generator reads from a table's options (any object with these three).

    `GeneratorOptions` has them; so does a system-wide options object that adds them.
    """

    @property
    def opposition_rows(self) -> str:
        """``shifted`` or ``literal`` (G-A1)."""
        ...

    @property
    def opposition_rounding(self) -> str:
        """``floor`` or ``up`` (G-A3)."""
        ...

    @property
    def opposition_minimum(self) -> str:
        """``zero`` or ``one_per_agent`` (G-A2)."""
        ...


@dataclass(frozen=True)
class GeneratorOptions:
    """A table's house rules for the opposition score; see `GENERATOR_OPTION_HELP`.

    Attributes:
        opposition_rows: ``shifted`` (row k at index k - 1, G-A1) or ``literal`` (row k at
            index k, row 1 also below).
        opposition_rounding: ``floor`` or ``up`` for the half d6 of rows 2 to 4 (G-A3); row 1
            always rounds down, as the text says.
        opposition_minimum: ``zero`` or ``one_per_agent``, the least score per involved
            agent (G-A2); same values as ``AgentsOptions.opposition_minimum``.

    Raises:
        InputError: at construction, a value outside its choices.

    Source: G-N3, G-A1, G-A2, G-A3.
    """

    opposition_rows: str = "shifted"
    opposition_rounding: str = "floor"
    opposition_minimum: str = "zero"

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            if getattr(self, name) not in choices:
                raise bad_option(name, getattr(self, name), " | ".join(choices))


DEFAULT_OPTIONS = GeneratorOptions()
"""The adopted readings: shifted rows, floor, zero allowed."""


class Source(Enum):
    """Where a challenge comes from (G-N4: d6 1-2 the environment, 3-6 creatures)."""

    ENVIRONMENT = "environment"
    CREATURES = "creatures"


class Relation(Enum):
    """How a challenge's origin stands towards the agents (G-N4, G-M10)."""

    HOSTILE = "hostile"
    NEUTRAL = "neutral"
    BENEVOLENT = "benevolent"


_RELATIONS = (Relation.HOSTILE, Relation.NEUTRAL, Relation.BENEVOLENT)
_D6_FACES = D6.values
_KINDS = (Reserve.MUSCLES, Reserve.SEXE, Reserve.INTELLIGENCE)


def opposition_score(
    progress: int, face: int, involved: int, options: OppositionOptions = DEFAULT_OPTIONS
) -> int:
    """The opposition's score from the index, one d6 and the number of agents involved.

    Args:
        progress: the progress index, any integer below `QUEST_WON_AT`.
        face: the d6, 1 to 6, rolled once for the whole challenge.
        involved: agents involved, 1 to `MAX_INVOLVED`.
        options: row indexing, rounding and minimum (G-A1, G-A2, G-A3).

    Returns:
        ``per_agent * involved``, where per_agent is half the d6 (rounded by the row's rule)
        plus ``row - 1``, at least ``opposition_minimum``. 0 or more.

    Raises:
        InputError: a face outside 1..6 or a count outside 1..`MAX_INVOLVED`.

    Source: seed 002, "Génération de challenge" (the four-row list); G-N3, G-A1, G-A2, G-A3.
    """
    if face.__class__ is not int or face not in _D6_FACES:
        D6.check_face(face)  # raises, naming the face
    if involved.__class__ is not int or not 1 <= involved <= MAX_INVOLVED:
        _check_count(involved)  # raises, naming the count
    shift = 1 if options.opposition_rows == "shifted" else 0
    row = max(1, min(4, progress + shift))
    half = face // 2
    if row > 1 and options.opposition_rounding == "up":
        half = (face + 1) // 2
    minimum = 1 if options.opposition_minimum == "one_per_agent" else 0
    return max(half + row - 1, minimum) * involved


def _check_count(involved: object) -> int:
    return whole(involved, Message(N_("agents involved")), 1, MAX_INVOLVED, rule="G-M2")


@dataclass(frozen=True)
class ChallengeInputs:
    """What the generator needs to draw one challenge.

    Attributes:
        progress: the progress index now (below `QUEST_WON_AT`).
        involved: how many agents this challenge involves (its group when split, G-M9 3.5).
        options: the opposition options.

    Raises:
        InputError: a progress index of 4 or more, or a bad count.
    """

    progress: int
    involved: int
    options: OppositionOptions = DEFAULT_OPTIONS

    def __post_init__(self) -> None:
        whole(self.progress, Message(N_("progress index")), rule="G-M9")
        if self.progress >= QUEST_WON_AT:
            raise InputError(
                N_("progress index {value} has ended the quest: no challenge to draw (G-M9)"),
                value=self.progress,
            )
        _check_count(self.involved)

    @property
    def forced_hostile(self) -> bool:
        """The relation is not rolled: hostile at index 3 (G-M9 step 3.3)."""
        return self.progress == SHOWDOWN_AT


@dataclass(frozen=True)
class DrawnChallenge:
    """A challenge as drawn, as a table keeps it (without the steps of its drawing).

    Attributes:
        progress: the index it was drawn at.
        source: the environment itself or creatures.
        relation: hostile, neutral or benevolent.
        relation_forced: True when the index was 3 and no relation die was rolled.
        kind: the challenge type (a `Reserve`).
        opposition_face: the d6 of the opposition score.
        score: the opposition's score, 0 or more (0: won at once, G-A2).
        involved: the names of the agents involved (empty when drawn from counts alone).
        faces: the d6s read, in order: source, relation (absent when forced), type, score.
    """

    progress: int
    source: Source
    relation: Relation
    relation_forced: bool
    kind: Reserve
    opposition_face: int
    score: int
    involved: tuple[str, ...]
    faces: tuple[int, ...]


@dataclass(frozen=True)
class GeneratedChallenge(DrawnChallenge):
    """A challenge as drawn, before it is played, with the steps of its drawing.

    Attributes:
        trace: one step per die (the other attributes are `DrawnChallenge`'s).
    """

    trace: Trace

    def drawn(self) -> DrawnChallenge:
        """The draw without its trace, as a table's state keeps it."""
        return DrawnChallenge(
            progress=self.progress,
            source=self.source,
            relation=self.relation,
            relation_forced=self.relation_forced,
            kind=self.kind,
            opposition_face=self.opposition_face,
            score=self.score,
            involved=self.involved,
            faces=self.faces,
        )


def drawn_values(
    progress: int, involved: int, faces: Sequence[int], options: OppositionOptions
) -> tuple[Source, Relation, Reserve, int]:
    """What the generator's d6s draw: source, relation, type and opposition score.

    Args:
        progress: the progress index, below `QUEST_WON_AT` (at `SHOWDOWN_AT` the relation
            is forced hostile and no relation die is read).
        involved: agents involved, 1 to `MAX_INVOLVED`.
        faces: the d6s in order, each 1 to 6: source, relation (absent when forced), type,
            score; 3 or 4 of them as `ChallengeGenerator.dice_for` asks (not checked here).
        options: the opposition options.

    Returns:
        ``(source, relation, kind, score)``: 1-2 the environment, else creatures; the
        relation die 1-2 hostile, 3-4 neutral, 5-6 benevolent; the type die 1-2 Muscles,
        3-4 Sexe, 5-6 Intelligence; the score from `opposition_score`.

    Raises:
        InputError: a score face or count out of range (`opposition_score`).

    Source: G-M9 step 3, G-N3, G-N4.
    """
    source = Source.ENVIRONMENT if faces[0] <= 2 else Source.CREATURES
    relation = Relation.HOSTILE if progress == SHOWDOWN_AT else _RELATIONS[(faces[1] - 1) // 2]
    kind = _KINDS[(faces[-2] - 1) // 2]
    return source, relation, kind, opposition_score(progress, faces[-1], involved, options)


class ChallengeGenerator:
    """The mechanic that draws a challenge: 4 d6 (3 at index 3, the relation being forced).

    Unlike most mechanics its faces are read in order (each d6 answers one question), so
    `tablee.dice.roll` drives it (every source hands faces out in the order rolled) but
    `tablee.dice.exact_distribution`, which enumerates sorted multisets, must not: use
    `challenge_distribution` for exact odds.

    Source: G-M9 step 3, G-N3, G-N4.
    """

    def dice_for(self, inputs: ChallengeInputs) -> DiceRequest:
        """The d6s to roll, read in order: source, relation (unless forced), type, score."""
        return DiceRequest(D6, 3 if inputs.forced_hostile else 4)

    def resolve(self, inputs: ChallengeInputs, faces: Sequence[int]) -> GeneratedChallenge:
        """The challenge the faces draw.

        Args:
            inputs: the index, the number involved and the options.
            faces: the d6s in the order of `dice_for`.

        Returns:
            The challenge (``involved`` left empty; `generate_challenge` names them).

        Raises:
            InputError: the wrong number of faces, or a face outside 1..6.

        Source: G-M9 step 3, G-N3, G-N4, G-A1 to G-A3.
        """
        count = self.dice_for(inputs).count
        if len(faces) != count:
            raise InputError(
                N_("drawing a challenge at index {progress} takes {count} d6, not {given}"),
                progress=inputs.progress,
                count=count,
                given=len(faces),
            )
        values = tuple(D6.check_face(f) for f in faces)
        source, relation, kind, score = drawn_values(
            inputs.progress, inputs.involved, values, inputs.options
        )
        steps = [
            TraceStep(
                N_("source: d6 {face}: {source}"), {"face": values[0], "source": source.value}
            )
        ]
        if inputs.forced_hostile:
            steps.append(TraceStep(N_("relation: hostile, forced at index 3 (no roll)")))
        else:
            steps.append(
                TraceStep(
                    N_("relation: d6 {face}: {relation}"),
                    {"face": values[1], "relation": relation.value},
                )
            )
        steps.append(
            TraceStep(N_("type: d6 {face}: {kind}"), {"face": values[-2], "kind": kind.title})
        )
        steps.append(
            TraceStep(
                N_("opposition: d6 {face} at index {progress}, {involved} agent(s): score {score}"),
                {
                    "face": values[-1],
                    "progress": inputs.progress,
                    "involved": inputs.involved,
                    "score": score,
                },
            )
        )
        return GeneratedChallenge(
            progress=inputs.progress,
            source=source,
            relation=relation,
            relation_forced=inputs.forced_hostile,
            kind=kind,
            opposition_face=values[-1],
            score=score,
            involved=(),
            faces=values,
            trace=tuple(steps),
        )


CHALLENGE_GENERATOR = ChallengeGenerator()
"""The challenge-drawing mechanic, for `tablee.dice.roll` (faces read in order)."""


def challenge_distribution(
    inputs: ChallengeInputs, key: Callable[[GeneratedChallenge], K]
) -> Distribution[K]:
    """Exact distribution of ``key(challenge)`` over every ordered roll of the generator's d6s.

    Args:
        inputs: the index, the number involved and the options.
        key: what to count (the score, the relation, a pair of them...).

    Returns:
        A `Distribution` whose weights add up to ``6 ** count`` (1296, or 216 at index 3).

    Source: G-M9 step 3, G-N3, G-N4.
    """
    count = CHALLENGE_GENERATOR.dice_for(inputs).count
    weights: dict[K, int] = {}
    for faces in product(D6.faces, repeat=count):
        k = key(CHALLENGE_GENERATOR.resolve(inputs, faces))
        weights[k] = weights.get(k, 0) + 1
    return Distribution(weights)
