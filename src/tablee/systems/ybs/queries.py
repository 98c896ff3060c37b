"""Every Yuigahama Bad Seeds query, declared once: what it asks, who may ask it.

A query reads the table (or nothing, for the exact odds) and stores no event: the sheets,
the tokens, the advisor's keep choices, and the exact odds of a test, a straight, a gang
fight and Ichika Bachika (``tablee odds ybs test|straight|gang-fight|ichika``).

Source: seed 004; rulings Y-M1, Y-M3, Y-M4, Y-M7, Y-M8, Y-A3, Y-A13, Y-A16, Y-X9.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

from tablee.errors import N_
from tablee.systems.declare import Param, Query, Who
from tablee.systems.ybs.character import MAX_TRAIT, MIN_TRAIT
from tablee.systems.ybs.commands import CHARACTERS, TOKENS
from tablee.systems.ybs.odds import MAX_ODDS_TOKENS
from tablee.systems.ybs.rolls import MAX_FORCE

__all__ = [
    "QUERIES",
    "AdviseGang",
    "GangOddsQuery",
    "IchikaOddsQuery",
    "ShowCharacters",
    "ShowTokens",
    "StraightOddsQuery",
    "TestOddsQuery",
]


@dataclass(frozen=True)
class ShowCharacters(Query):
    """One character's sheet, or every character's."""

    name: ClassVar[str] = "character show"
    title: ClassVar[str] = N_("a character's sheet, or every character")
    who: ClassVar[Who] = Who.ANYONE

    character: Annotated[
        str | None,
        Param(
            N_("the character (default: every character)"),
            choices=CHARACTERS,
            positional=True,
            placeholder="NAME",
        ),
    ] = None


@dataclass(frozen=True)
class ShowTokens(Query):
    """Who holds the Unmei tokens."""

    name: ClassVar[str] = "tokens"
    title: ClassVar[str] = N_("who holds the Unmei tokens")
    who: ClassVar[Who] = Who.ANYONE


@dataclass(frozen=True)
class AdviseGang(Query):
    """Each side's keep choices with their exact odds of winning the race.

    Its data: ``gang_fight``, ``advice`` (per side, every keep choice, the best chance to
    win first, each with ``win``, ``tie``, ``loss`` as exact fractions against the other
    side's race-optimal play, Y-X9) and ``hands`` (per side, the faces to keep from), both
    empty before the first throw; ``opponent`` and ``equilibrium`` (per side).
    """

    name: ClassVar[str] = "gang advise"
    title: ClassVar[str] = N_("each side's keep choices with their exact odds")
    who: ClassVar[Who] = Who.ANYONE


@dataclass(frozen=True)
class TestOddsQuery(Query):
    """A test's success and critical chances."""

    name: ClassVar[str] = "odds test"
    title: ClassVar[str] = N_("a test's success and critical chances")
    who: ClassVar[Who] = Who.ANYONE
    needs_table: ClassVar[bool] = False

    __test__: ClassVar[bool] = False  # not a pytest test class

    trait: Annotated[
        int,
        Param(N_("the trait value"), low=MIN_TRAIT, high=MAX_TRAIT, rule="Y-M1"),
    ]
    force: Annotated[
        int,
        Param(
            N_("tokens spent to force destiny"),
            low=0,
            high=MAX_FORCE,
            unit=TOKENS,
            rule="Y-M3",
        ),
    ] = 0
    tokens: Annotated[
        int,
        Param(
            N_("tokens left once forced, for rerolls and a critical"),
            low=0,
            high=MAX_ODDS_TOKENS,
            unit=TOKENS,
            rule="Y-M4",
            placeholder="K",
        ),
    ] = 0
    stubborn: Annotated[
        Literal["any", "once", "never"],
        Param(
            N_("s'entêter: reroll every failure while tokens last (any), once per test, or never")
        ),
    ] = "any"


@dataclass(frozen=True)
class StraightOddsQuery(Query):
    """A straight in one throw of N dice."""

    name: ClassVar[str] = "odds straight"
    title: ClassVar[str] = N_("a straight in one throw of N dice")
    who: ClassVar[Who] = Who.ANYONE
    needs_table: ClassVar[bool] = False

    count: Annotated[
        int,
        Param(
            N_("dice thrown at once (a straight needs 4 or more)"),
            flag="--dice",
            low=1,
            high=8,
            rule="Y-M7",
        ),
    ]


@dataclass(frozen=True)
class GangOddsQuery(Query):
    """A gang fight's odds: from the start with both sides advised, or for two hands.

    With ``players`` and ``against`` (dice counts): the players' win, draw and loss from the
    first throw when both sides follow the advisor. With ``ours`` and ``theirs`` (both hands'
    faces): every keep of ours with its exact win, draw and loss against the ``opponent``
    policy, the keep with the best chance to win first (Y-X9).
    """

    name: ClassVar[str] = "odds gang-fight"
    title: ClassVar[str] = N_(
        "a gang fight's odds: both sides advised, or every keep for two hands (--ours, --theirs)"
    )
    who: ClassVar[Who] = Who.ANYONE
    needs_table: ClassVar[bool] = False

    players: Annotated[
        int | None,
        Param(N_("the players' dice (not with --ours)"), flag="--dice", low=4, high=6, rule="Y-M7"),
    ] = None
    against: Annotated[
        int | None, Param(N_("the GM's dice (not with --theirs)"), low=4, high=6, rule="Y-M7")
    ] = None
    higher_straight_wins: Annotated[
        Literal["true", "false"],
        Param(N_("simultaneous straights: the higher wins, or a draw")),
    ] = "true"
    ours: Annotated[
        str | None,
        Param(
            N_("our faces now, 4 to 6 dice without a straight (with --theirs)"),
            placeholder="1,2,3,5,6",
            max_length=40,
            rule="Y-M7",
        ),
    ] = None
    theirs: Annotated[
        str | None,
        Param(
            N_("the other side's faces now (with --ours)"),
            placeholder="1,1,3,4,5",
            max_length=40,
            rule="Y-M7",
        ),
    ] = None
    opponent: Annotated[
        Literal["race", "advisor"],
        Param(
            N_("the other side's play: race-optimal, or the advisor (fewest throws)"),
            rule="Y-X9",
        ),
    ] = "race"


@dataclass(frozen=True)
class IchikaOddsQuery(Query):
    """Ichika Bachika: the players' win, draw and loss."""

    name: ClassVar[str] = "odds ichika"
    title: ClassVar[str] = N_("Ichika Bachika: the players' win, draw and loss")
    who: ClassVar[Who] = Who.ANYONE
    needs_table: ClassVar[bool] = False

    tie: Annotated[
        Literal["draw", "reroll"],
        Param(N_("a complete tie: a draw or thrown again")),
    ] = "draw"


QUERIES: tuple[type[Query], ...] = (
    ShowCharacters,
    ShowTokens,
    AdviseGang,
    TestOddsQuery,
    StraightOddsQuery,
    GangOddsQuery,
    IchikaOddsQuery,
)
"""Every YBS query, in the order the interfaces show them."""
