"""An agent's action in a challenge: the modifiers' checklist, one d6, and its result.

Each challenge type has a checklist of modifiers the table ticks when the action is declared
(G-N2). The roll is one d6 plus their sum, R:

* R of 7 or more: a critical, the opposition loses 2 (G-A5);
* R of 4 to 6: a success, the opposition loses 1;
* R of 3 or less: a failure, the agent loses 1 point of the challenge type's reserve.

`ACTION` is the mechanic (``dice_for`` + pure ``resolve``) over an `ActionRoll` (just the
total modifier), so the same code serves live play, typed-in faces and exact odds.

Source: seed ``002_59b03dd224c3b923.txt`` ("Déclaration d'action", "Résolution d'action");
rulings G-M3, G-M4, G-N2, G-A5, G-A6.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import partial

from tablee.dice import D6, Chance, DiceRequest, LazyTrace, Trace, TraceStep
from tablee.errors import N_, InputError
from tablee.systems.agents.agent import Reserve
from tablee.systems.common import whole

__all__ = [
    "ACTION",
    "CHECKLISTS",
    "EXCLUSIVE",
    "HIGHEST_MODIFIER",
    "LOWEST_MODIFIER",
    "MAX_MODIFIER",
    "OPPOSITION_LOSS",
    "ActionMechanic",
    "ActionResult",
    "ActionRoll",
    "Modifier",
    "Result",
    "declared_modifier",
    "modifier_range",
    "play_action",
    "resolve_action",
    "result_of",
]

MAX_MODIFIER = 20
"""Largest total modifier, either sign, that an `ActionRoll` takes (Tablée's bound)."""
LOWEST_MODIFIER = -2
"""Lowest total the checklists can give (Muscles: de-escalate and generic; G-N2, G-A6)."""
HIGHEST_MODIFIER = 3
"""Highest total the checklists can give (Muscles: escalate, environment, setup; G-N2)."""


@dataclass(frozen=True)
class Modifier:
    """One line of a type's checklist.

    Attributes:
        id: stable id, used in commands and stored events (``escalate``).
        value: +1 or -1.
        label: English description (our words, marked with `N_`).

    Source: G-N2.
    """

    id: str
    value: int
    label: str


CHECKLISTS: Mapping[Reserve, tuple[Modifier, ...]] = {
    Reserve.MUSCLES: (
        Modifier("escalate", 1, N_("the action escalates into the grandiose")),
        Modifier("deescalate", -1, N_("the action brings the intensity down a notch")),
        Modifier("environment", 1, N_("the action uses something in the surroundings")),
        Modifier("setup", 1, N_("the action uses something set up by an earlier action")),
        Modifier("generic", -1, N_("the action is generic (I hit, I dodge...)")),
    ),
    Reserve.SEXE: (
        Modifier("laugh", 1, N_("the line made the table laugh")),
        Modifier("situation", 1, N_("the line draws on the current situation")),
    ),
    Reserve.INTELLIGENCE: (
        Modifier("complexity", 1, N_("the plan adds a whole layer of complexity")),
        Modifier("obvious", -1, N_("the plan is obvious or basic")),
    ),
}
"""The modifiers each challenge type allows (G-N2)."""

EXCLUSIVE: Mapping[Reserve, tuple[frozenset[str], ...]] = {
    Reserve.MUSCLES: (frozenset({"escalate", "deescalate"}),),
    Reserve.SEXE: (),
    Reserve.INTELLIGENCE: (),
}
"""Pairs of modifiers that cannot be ticked together (G-A6)."""


def modifier_range(kind: Reserve) -> tuple[int, int]:
    """The lowest and highest total modifier a type's checklist allows (G-N2, G-A6).

    Returns:
        ``(-2, 3)`` for Muscles, ``(0, 2)`` for Sexe, ``(-1, 1)`` for Intelligence.
    """
    from itertools import combinations

    ids = [m.id for m in CHECKLISTS[kind]]
    totals = []
    for size in range(len(ids) + 1):
        for subset in combinations(ids, size):
            if all(len(group & set(subset)) <= 1 for group in EXCLUSIVE[kind]):
                totals.append(declared_modifier(kind, subset)[1])
    return min(totals), max(totals)


def declared_modifier(kind: Reserve, ticked: Iterable[str]) -> tuple[tuple[str, ...], int]:
    """Check the ticked modifiers against the type's checklist and add them up.

    Args:
        kind: the challenge type.
        ticked: modifier ids (``escalate``, ``laugh``...) or their numbers on the
            checklist (``1`` for the first), each at most once.

    Returns:
        The ids in checklist order, and their total.

    Raises:
        InputError: an id not in the type's checklist, one given twice, or two exclusive
            ones together (rules G-N2, G-A6).

    Source: G-N2, G-A6.
    """
    if ticked == ():
        return (), 0  # nothing ticked (the common case): nothing to check
    if isinstance(ticked, str):
        ticked = [ticked]
    checklist = CHECKLISTS[kind]
    allowed = {m.id: m for m in checklist}
    chosen: list[str] = []
    for raw in ticked:
        key = str(raw).strip().casefold()
        if key.isascii() and key.isdigit() and 1 <= int(key) <= len(checklist):
            key = checklist[int(key) - 1].id  # its number on the checklist, as play shows
        if key not in allowed:
            raise InputError(
                N_("modifier {value!r} is not on the {kind} checklist (rule G-N2)"),
                tip=N_("{kind} modifiers, by number or id: {known}"),
                value=raw,
                kind=kind.title,
                known=", ".join(f"{i} {m.id}" for i, m in enumerate(checklist, start=1)),
            )
        if key in chosen:
            raise InputError(N_("modifier {value!r} is ticked twice"), value=raw)
        chosen.append(key)
    for group in EXCLUSIVE[kind]:
        if len(group & set(chosen)) > 1:
            raise InputError(
                N_("modifiers {pair} cannot be ticked together (rule G-A6)"),
                tip=N_("an action escalates or calms down, not both"),
                pair=" + ".join(sorted(group & set(chosen))),
            )
    ordered = tuple(m.id for m in CHECKLISTS[kind] if m.id in chosen)
    return ordered, sum(allowed[i].value for i in ordered)


class Result(Enum):
    """An action's result; the value is the stable id shown in JSON.

    Source: G-M4, G-A5.
    """

    CRITICAL = "critical"
    SUCCESS = "success"
    FAILURE = "failure"

    @property
    def opposition_loss(self) -> int:
        """Points the opposition loses: 2, 1 or 0."""
        return OPPOSITION_LOSS[self]

    @property
    def reserve_loss(self) -> int:
        """Points the acting agent's reserve loses: 1 on a failure, else 0."""
        return 1 if self is Result.FAILURE else 0


OPPOSITION_LOSS: Mapping[Result, int] = {Result.CRITICAL: 2, Result.SUCCESS: 1, Result.FAILURE: 0}
"""Points the opposition loses on each result (G-M4, G-A5)."""


def result_of(total: int) -> Result:
    """An action's result from its d6 plus modifier: 7+ critical, 4 to 6 success, else failure.

    Source: seed 002, "Résolution d'action"; G-M4, G-A5.
    """
    if total >= 7:
        return Result.CRITICAL
    if total >= 4:
        return Result.SUCCESS
    return Result.FAILURE


@dataclass(frozen=True)
class ActionRoll:
    """The mechanic's input: the total modifier of an action.

    Attributes:
        modifier: the sum of the ticked modifiers, -`MAX_MODIFIER` to +`MAX_MODIFIER`.

    Raises:
        InputError: not a whole number in range.

    Source: G-M4.
    """

    modifier: int = 0

    def __post_init__(self) -> None:
        whole(self.modifier, "modifier", -MAX_MODIFIER, MAX_MODIFIER, rule="G-M4")


@dataclass(frozen=True)
class ActionResult:
    """One action's roll and result.

    Attributes:
        face: the d6 as rolled, 1 to 6.
        modifier: the total modifier.
        total: face + modifier.
        result: critical, success or failure.
        trace: the steps (built when first read: `tablee.dice.LazyTrace`).

    Source: G-M4, G-A5.
    """

    face: int
    modifier: int
    total: int
    result: Result
    trace: LazyTrace = LazyTrace()  # noqa: RUF009 - a descriptor: reads give the Trace


def resolve_action(roll: ActionRoll, faces: Sequence[int]) -> ActionResult:
    """Resolve one action from its d6.

    Args:
        roll: the total modifier.
        faces: exactly one d6 face.

    Returns:
        The result: 7+ critical, 4 to 6 success, 3 or less failure.

    Raises:
        InputError: not exactly one face, or a face that a d6 cannot show.

    Source: seed 002, "Résolution d'action"; G-M4, G-A5.
    """
    if len(faces) != 1:
        raise InputError(N_("an action rolls one d6, not {count} faces"), count=len(faces))
    face = D6.check_face(faces[0])
    total = face + roll.modifier
    return ActionResult(
        face, roll.modifier, total, result_of(total), partial(_action_steps, face, roll)
    )


def _action_steps(face: int, roll: ActionRoll) -> Trace:
    """The steps of `resolve_action` (built when first read)."""
    total = face + roll.modifier
    if total >= 7:
        step = N_("{total} is 7 or more: a critical, the opposition loses 2")
    elif total >= 4:
        step = N_("{total} is 4 or more: a success, the opposition loses 1")
    else:
        step = N_("{total} is 3 or less: a failure, the agent loses 1 point of the reserve")
    return (
        TraceStep(
            N_("d6 {face} {sign} modifier {modifier} = {total}"),
            {
                "face": face,
                "sign": "+" if roll.modifier >= 0 else "-",
                "modifier": abs(roll.modifier),
                "total": total,
            },
        ),
        TraceStep(step, {"total": total}),
    )


class ActionMechanic:
    """The action as a mechanic: one d6, resolved by `resolve_action`.

    Source: G-M4.
    """

    def dice_for(self, inputs: ActionRoll) -> DiceRequest:
        """One d6, whatever the modifier."""
        return DiceRequest(D6, 1)

    def resolve(self, inputs: ActionRoll, faces: Sequence[int]) -> ActionResult:
        """See `resolve_action`."""
        return resolve_action(inputs, faces)


ACTION = ActionMechanic()
"""The action mechanic."""


def play_action(roll: ActionRoll, chance: Chance) -> ActionResult:
    """Throw an action's d6 with ``chance`` and resolve it (`resolve_action`).

    Raises:
        InputError: the chance cannot give the die.

    Source: G-M4, G-A5.
    """
    return resolve_action(roll, chance.roll(ACTION.dice_for(roll)))
