"""Every Pouyss command, declared once: its fields, ranges, help, who may use it, its dice.

The command line (``tablee pouyss ...``), the web forms and the JSON API are generated from
these classes; `tablee.systems.pouyss.plugin.Pouyss.decide` takes them.

Source: seed 000; rulings P-M1 to P-M8, P-A2 to P-A13.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, TypeAlias

from tablee.dice import D6, DiceRequest
from tablee.errors import N_
from tablee.systems.declare import Command, Param, Query, Who
from tablee.systems.pouyss.actions import ActionRoll, OpposedRoll

__all__ = [
    "COMMANDS",
    "CorrectCagnotte",
    "EndSession",
    "OddsQuery",
    "Opposed",
    "Penalty",
    "PouyssCommand",
    "Reward",
    "Roll",
    "SetCharacter",
    "ShowCharacters",
    "StartSession",
]

DICE = N_("dice")


_IMPOSED = N_("Imposed by the narrator")
"""The group of the narrator's imposed dice, folded in the web form."""


def _count(help_text: str, *, gm_only: bool = False, group: str = "") -> Param:
    """A count of dice: 0 or more (the pool's own maximum is checked by the rules)."""
    return Param(help_text, low=0, unit=DICE, gm_only=gm_only, rule="P-M1", group=group)


@dataclass(frozen=True)
class Roll(Command):
    """An action roll: the base die, bonus and malus dice, the cagnotte kept straight."""

    name: ClassVar[str] = "roll"
    title: ClassVar[str] = N_("an action roll")
    who: ClassVar[Who] = Who.ACTOR
    rolled: ClassVar[bool] = True
    rule: ClassVar[str] = "P-M1"
    faces_help: ClassVar[str] = N_("1 + bonus + malus d6 faces, e.g. 1,4,5,6")

    player: Annotated[str, Param(N_("who rolls"), choices="players", actor=True)]
    bonus: Annotated[int, _count(N_("bonus dice asked for"))] = 0
    malus: Annotated[int, _count(N_("malus dice asked for"))] = 0
    imposed_bonus: Annotated[
        int, _count(N_("bonus dice imposed by the narrator"), gm_only=True, group=_IMPOSED)
    ] = 0
    imposed_malus: Annotated[
        int, _count(N_("malus dice imposed by the narrator"), gm_only=True, group=_IMPOSED)
    ] = 0
    double_bonus: Annotated[bool, Param(N_("one advantage is exceptional: one more bonus die"))] = (
        False
    )
    reasons: Annotated[
        tuple[str, ...], Param(N_("a justification (repeatable)"), flag="--reason")
    ] = ()

    def counts(self) -> ActionRoll:
        """The dice on the roll: every bonus (imposed and double included) and malus.

        Raises:
            InputError: more than the most dice one roll may throw.
        """
        bonus = self.bonus + self.imposed_bonus + int(self.double_bonus)
        return ActionRoll(bonus, self.malus + self.imposed_malus)

    def dice(self) -> tuple[DiceRequest, ...]:
        """``1 + bonus + malus`` d6, thrown together."""
        return (DiceRequest(D6, self.counts().pool),)


@dataclass(frozen=True)
class Opposed(Command):
    """An opposed roll: one roll by the active side, the passive side reads its mirror."""

    name: ClassVar[str] = "opposed"
    title: ClassVar[str] = N_("an opposed roll")
    who: ClassVar[Who] = Who.ACTOR
    rolled: ClassVar[bool] = True
    rule: ClassVar[str] = "P-M8"
    faces_help: ClassVar[str] = N_("the d6 faces of the one roll, e.g. 1,4,5")

    active: Annotated[str, Param(N_("the active player character"), choices="players", actor=True)]
    passive: Annotated[str | None, Param(N_("the passive player character"), choices="players")] = (
        None
    )
    passive_npc: Annotated[
        str | None, Param(N_("a passive non-player character"), placeholder="NAME")
    ] = None
    active_bonus: Annotated[int, _count(N_("the active side's bonus dice"))] = 0
    active_malus: Annotated[int, _count(N_("the active side's malus dice"))] = 0
    passive_bonus: Annotated[
        int, _count(N_("the passive side's bonus dice (malus on the roll)"))
    ] = 0
    passive_malus: Annotated[
        int, _count(N_("the passive side's malus dice (bonus on the roll)"))
    ] = 0
    imposed_bonus: Annotated[
        int,
        _count(N_("bonus dice imposed by the narrator on the roll"), gm_only=True, group=_IMPOSED),
    ] = 0
    imposed_malus: Annotated[
        int,
        _count(N_("malus dice imposed by the narrator on the roll"), gm_only=True, group=_IMPOSED),
    ] = 0
    double_bonus: Annotated[
        bool, Param(N_("one of the active side's advantages is exceptional: one more bonus die"))
    ] = False
    reasons: Annotated[
        tuple[str, ...], Param(N_("a justification (repeatable)"), flag="--reason")
    ] = ()

    def counts(self) -> OpposedRoll:
        """Both sides' bonus and malus dice; imposed dice and the double bonus on the active side.

        Source: P-M6, P-M8, P-X2 (imposed dice and the double bonus count as the active
        side's, the side that rolls).

        Raises:
            InputError: more than the most dice one roll may throw.
        """
        return OpposedRoll(
            self.active_bonus + self.imposed_bonus + int(self.double_bonus),
            self.active_malus + self.imposed_malus,
            self.passive_bonus,
            self.passive_malus,
        )

    def dice(self) -> tuple[DiceRequest, ...]:
        """The converted roll's ``1 + bonus + malus`` d6."""
        return (DiceRequest(D6, self.counts().as_action().pool),)


@dataclass(frozen=True)
class Reward(Command):
    """The narrator rewards role-play: 1 or 2 dice into the cagnotte."""

    name: ClassVar[str] = "reward"
    title: ClassVar[str] = N_("add 1 or 2 dice for role-play")

    amount: Annotated[int, Param(N_("1 or 2 dice"), low=1, high=2, unit=DICE, rule="P-M7")] = 1
    player: Annotated[str | None, Param(N_("the player concerned"), choices="players")] = None
    reason: Annotated[str, Param(N_("why"))] = ""


@dataclass(frozen=True)
class Penalty(Command):
    """The narrator penalises role-play: 1 or 2 dice out of the cagnotte, never below 0."""

    name: ClassVar[str] = "penalty"
    title: ClassVar[str] = N_("remove 1 or 2 dice")

    amount: Annotated[int, Param(N_("1 or 2 dice"), low=1, high=2, unit=DICE, rule="P-M7")] = 1
    player: Annotated[str | None, Param(N_("the player concerned"), choices="players")] = None
    reason: Annotated[str, Param(N_("why"))] = ""


@dataclass(frozen=True)
class CorrectCagnotte(Command):
    """The narrator corrects the cagnotte to the count it should hold, saying why.

    Not a reward or a penalty: it counts towards no soft limit (P-X1).
    """

    name: ClassVar[str] = "cagnotte correct"
    title: ClassVar[str] = N_("correct the cagnotte")
    rule: ClassVar[str] = "P-X1"

    value: Annotated[
        int,
        Param(N_("the count the cagnotte should hold"), low=0, high=10_000, unit=DICE, rule="P-X1"),
    ]
    reason: Annotated[str, Param(N_("why (required)"))]


@dataclass(frozen=True)
class StartSession(Command):
    """Start a session and fill the cagnotte."""

    name: ClassVar[str] = "session start"
    title: ClassVar[str] = N_("start a session")

    carry_over: Annotated[
        bool | None,
        Param(N_("keep the last session's cagnotte (campaign)"), negative="--fresh"),
    ] = None
    cagnotte: Annotated[
        int | None,
        Param(N_("start value set by the narrator"), low=0, high=10_000, unit=DICE),
    ] = None


@dataclass(frozen=True)
class EndSession(Command):
    """End the session being played."""

    name: ClassVar[str] = "session end"
    title: ClassVar[str] = N_("end the session")


@dataclass(frozen=True)
class SetCharacter(Command):
    """Set a player's character: free-text advantages and disadvantages."""

    name: ClassVar[str] = "character set"
    title: ClassVar[str] = N_("advantages and disadvantages")
    who: ClassVar[Who] = Who.ACTOR

    player: Annotated[str, Param(N_("whose character"), choices="players", actor=True)]
    advantages: Annotated[
        tuple[str, ...], Param(N_("an advantage (repeatable)"), flag="--advantage")
    ] = ()
    disadvantages: Annotated[
        tuple[str, ...], Param(N_("a disadvantage (repeatable)"), flag="--disadvantage")
    ] = ()


@dataclass(frozen=True)
class ShowCharacters(Query):
    """The characters' advantages and disadvantages."""

    name: ClassVar[str] = "character show"
    title: ClassVar[str] = N_("show the characters")
    who: ClassVar[Who] = Who.ANYONE

    player: Annotated[str | None, Param(N_("whose character"), choices="players")] = None


@dataclass(frozen=True)
class OddsQuery(Query):
    """Exact odds of an action or opposed roll, before rolling (no table needed)."""

    name: ClassVar[str] = "odds"
    title: ClassVar[str] = N_("exact odds of a Pouyss roll")
    who: ClassVar[Who] = Who.ANYONE
    needs_table: ClassVar[bool] = False

    bonus: Annotated[int, _count(N_("bonus dice"))] = 0
    malus: Annotated[int, _count(N_("malus dice"))] = 0
    passive_bonus: Annotated[int, _count(N_("opposed roll: the passive side's bonus dice"))] = 0
    passive_malus: Annotated[int, _count(N_("opposed roll: the passive side's malus dice"))] = 0
    threshold: Annotated[
        int, Param(N_("lowest successful value"), low=1, high=6, placeholder="1..6")
    ] = 4


COMMANDS = (
    Roll,
    Opposed,
    Reward,
    Penalty,
    CorrectCagnotte,
    StartSession,
    EndSession,
    SetCharacter,
    ShowCharacters,
    OddsQuery,
)

PouyssCommand: TypeAlias = (
    Roll | Opposed | Reward | Penalty | CorrectCagnotte | StartSession | EndSession | SetCharacter
)
"""Every command that decides events (queries apart): the union a plugin's ``decide`` takes."""
"""Every Pouyss command and query, in the order the interfaces show them."""
