"""The Pouyss action roll and the opposed roll, as pure mechanics.

An action roll throws the base die, B bonus dice and M malus dice together, removes the M
highest dice, and reads the highest die left. An opposed roll is one action roll by the
active side where each passive bonus becomes a malus die and each passive malus a bonus die;
the passive side reads the mirror level.

Cagnotte accounting is not here (see `tablee.systems.pouyss.cagnotte`): these functions map
dice counts and faces to a result, so exact odds and live play share them.

Source: seed 000, "Bonus", "Malus", "Jets comparatifs", "Récapitulatif"; rulings P-M1, P-M8,
P-A4 (bonus and malus never cancel), P-A5 (ties among removed dice do not matter).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from tablee.dice import D6, DiceRequest, Trace, TraceStep
from tablee.errors import N_, InputError, Plural
from tablee.systems.pouyss.levels import Level, level_of, mirror

__all__ = [
    "ACTION",
    "MAX_DICE",
    "OPPOSED",
    "ActionResult",
    "ActionRoll",
    "OpposedResult",
    "OpposedRoll",
    "resolve_action_roll",
    "resolve_opposed_roll",
]

MAX_DICE = 100
"""Largest pool one roll may throw (base + bonus + malus); more is refused as input."""


def _check_count(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(
            N_("{name} must be a whole number 0 or more, not {value!r} (rule P-M1)"),
            name=name,
            value=value,
        )


@dataclass(frozen=True)
class ActionRoll:
    """Inputs of an action roll.

    Attributes:
        bonus: bonus dice on the roll, 0 or more (imposed and double bonuses included).
        malus: malus dice on the roll, 0 or more (imposed maluses included).

    Raises:
        InputError: a negative or non-integer count, or more than `MAX_DICE` dice in all.
    """

    bonus: int = 0
    malus: int = 0

    def __post_init__(self) -> None:
        bonus, malus = self.bonus, self.malus
        if (
            type(bonus) is int
            and type(malus) is int
            and bonus >= 0
            and malus >= 0
            and bonus + malus < MAX_DICE
        ):
            return  # the counts of nearly every roll, checked at once
        _check_count("bonus", bonus)
        _check_count("malus", malus)
        if self.pool > MAX_DICE:
            raise InputError(
                N_("a roll of {pool} dice is more than Tablée's maximum of {maximum} per roll"),
                tip=N_("use fewer bonus or malus dice"),
                pool=self.pool,
                maximum=MAX_DICE,
            )

    @property
    def pool(self) -> int:
        """Dice thrown: 1 + bonus + malus."""
        return 1 + self.bonus + self.malus


@dataclass(frozen=True, init=False)
class ActionResult:
    """Outcome of an action roll.

    Attributes:
        faces: the dice as thrown, in the order given.
        removed: the malus dice taken away (highest first).
        kept: the dice left, highest first.
        value: the highest kept die, 1 to 6.
        level: the level of ``value``.
        trace: the steps (written on first reading, from the fields above: a simulation
            that never reads them does not pay for them).
    """

    faces: tuple[int, ...]
    removed: tuple[int, ...]
    kept: tuple[int, ...]
    value: int
    level: Level

    def __init__(
        self,
        faces: tuple[int, ...],
        removed: tuple[int, ...],
        kept: tuple[int, ...],
        value: int,
        level: Level,
    ) -> None:
        # the fields written straight into the instance: the generated __init__ of a frozen
        # dataclass sets each one through object.__setattr__, three times slower, and a
        # simulation builds one result per roll
        fields = self.__dict__
        fields["faces"], fields["removed"], fields["kept"] = faces, removed, kept
        fields["value"], fields["level"] = value, level

    @cached_property
    def trace(self) -> Trace:
        """The steps: the dice thrown, the malus dice removed (if any), the die read."""
        bonus, malus = len(self.faces) - 1 - len(self.removed), len(self.removed)
        thrown_templates = {
            (True, True): N_("thrown (1 base + {bonus} bonus + {malus} malus): {faces}"),
            (True, False): N_("thrown (1 base + {bonus} bonus): {faces}"),
            (False, True): N_("thrown (1 base + {malus} malus): {faces}"),
            (False, False): N_("thrown (1 die): {faces}"),
        }
        steps = [
            TraceStep(
                thrown_templates[bonus > 0, malus > 0],
                {
                    "pool": len(self.faces),
                    "bonus": bonus,
                    "malus": malus,
                    "faces": _show(self.faces),
                },
            )
        ]
        if self.removed:
            steps.append(
                TraceStep(
                    N_("removed for the malus, highest first: {removed}"),
                    {"malus": malus, "removed": _show(self.removed)},
                )
            )
        steps.append(
            TraceStep(
                N_("highest die left among {kept}: {value}, {level}"),
                {"kept": _show(self.kept), "value": self.value, "level": self.level.title},
            )
        )
        return tuple(steps)


_ACTION_REQUESTS = tuple(DiceRequest(D6, pool) for pool in range(MAX_DICE + 1))


def dice_for_action(inputs: ActionRoll) -> DiceRequest:
    """The dice to throw: ``1 + bonus + malus`` d6 (P-M1 step 4)."""
    return _ACTION_REQUESTS[inputs.pool]


def resolve_action_roll(inputs: ActionRoll, faces: Sequence[int]) -> ActionResult:
    """Resolve an action roll from its faces.

    Args:
        inputs: bonus and malus counts.
        faces: ``1 + bonus + malus`` values from 1 to 6, in any order.

    Returns:
        The result with removed and kept dice and a trace.

    Raises:
        InputError: wrong number of faces, or a face outside 1..6.

    Source: seed 000, "Effet des bonus", "Effet des malus", recap steps 4-7; P-M1, P-A4, P-A5.
    """
    if len(faces) != inputs.pool:
        raise InputError(
            N_(
                "this roll throws {pool} (1 base + {bonus} bonus + {malus} malus); "
                "faces given: {given} (rule P-M1)"
            ),
            pool=Plural("{n} die", "{n} dice", inputs.pool),
            bonus=inputs.bonus,
            malus=inputs.malus,
            given=len(faces),
        )
    thrown = D6.check_faces(faces)
    ordered = sorted(thrown, reverse=True)
    malus = inputs.malus
    if malus:
        removed, kept = tuple(ordered[:malus]), tuple(ordered[malus:])
    else:
        removed, kept = (), tuple(ordered)
    value = kept[0]
    return ActionResult(thrown, removed, kept, value, level_of(value))


def _show(faces: Sequence[int]) -> str:
    return ", ".join(str(f) for f in faces) if faces else "-"


class _ActionMechanic:
    """The action roll as a `tablee.dice.Mechanic`."""

    def dice_for(self, inputs: ActionRoll) -> DiceRequest:
        """See `dice_for_action`."""
        return dice_for_action(inputs)

    def resolve(self, inputs: ActionRoll, faces: Sequence[int]) -> ActionResult:
        """See `resolve_action_roll`."""
        return resolve_action_roll(inputs, faces)


ACTION = _ActionMechanic()
"""The action roll mechanic (P-M1)."""


@dataclass(frozen=True)
class OpposedRoll:
    """Inputs of an opposed roll (jet comparatif).

    Attributes:
        active_bonus, active_malus: the active side's own bonus and malus dice (0 or more).
        passive_bonus, passive_malus: the passive side's (0 or more); each passive bonus is a
            malus die on the roll, each passive malus a bonus die.

    Raises:
        InputError: a negative count, or a converted roll of more than `MAX_DICE` dice.
    """

    active_bonus: int = 0
    active_malus: int = 0
    passive_bonus: int = 0
    passive_malus: int = 0

    def __post_init__(self) -> None:
        for name in ("active_bonus", "active_malus", "passive_bonus", "passive_malus"):
            _check_count(name.replace("_", " "), getattr(self, name))
        self.as_action()

    def as_action(self) -> ActionRoll:
        """The converted roll: bonus = Ba + Mp, malus = Ma + Bp (P-M8)."""
        return ActionRoll(
            self.active_bonus + self.passive_malus, self.active_malus + self.passive_bonus
        )


@dataclass(frozen=True)
class OpposedResult:
    """Outcome of an opposed roll.

    Attributes:
        roll: the converted action roll's result (the active side's result).
        passive_value: 7 - the active value.
        passive_level: the mirror level.
        trace: the steps (conversion, roll, mirror).
    """

    roll: ActionResult
    passive_value: int
    passive_level: Level
    trace: Trace


def resolve_opposed_roll(inputs: OpposedRoll, faces: Sequence[int]) -> OpposedResult:
    """Resolve an opposed roll: convert the passive dice, roll once, mirror.

    Args:
        inputs: the four counts.
        faces: ``1 + Ba + Mp + Ma + Bp`` values from 1 to 6.

    Raises:
        InputError: wrong number of faces or a face outside 1..6.

    Source: seed 000, "Jets comparatifs"; P-M8, P-A11.
    """
    action = inputs.as_action()
    rolled = resolve_action_roll(action, faces)
    passive = mirror(rolled.level)
    first = TraceStep(
        N_(
            "the passive side's bonus ({pb}) count as malus and its malus ({pm}) as bonus: "
            "the roll has {bonus} bonus and {malus} malus"
        ),
        {
            "pb": inputs.passive_bonus,
            "pm": inputs.passive_malus,
            "bonus": action.bonus,
            "malus": action.malus,
        },
    )
    last = TraceStep(
        N_("the passive side reads the mirror: {value}, {level}"),
        {"value": passive.value, "level": passive.title},
    )
    return OpposedResult(rolled, passive.value, passive, (first, *rolled.trace, last))


class _OpposedMechanic:
    """The opposed roll as a `tablee.dice.Mechanic`."""

    def dice_for(self, inputs: OpposedRoll) -> DiceRequest:
        """The converted roll's dice."""
        return dice_for_action(inputs.as_action())

    def resolve(self, inputs: OpposedRoll, faces: Sequence[int]) -> OpposedResult:
        """See `resolve_opposed_roll`."""
        return resolve_opposed_roll(inputs, faces)


OPPOSED = _OpposedMechanic()
"""The opposed roll mechanic (P-M8)."""
