"""Straights of a gang fight: which 4-die runs a hand holds, the best one, and who wins a tie.

A straight is four consecutive faces among a side's dice: 1-2-3-4, 2-3-4-5 or 3-4-5-6, ranked
in that order. A hand of 5 or 6 dice may hold two or three straights at once; it counts as
its best one (Y-A13). When both sides complete a straight on the same throw, the higher
straight wins by default (an inglorious win); identical straights, or any simultaneous
straights when the ``higher_straight_wins`` option is off, are a draw (Y-M7, Y-A13).

Source: seed 004, "Les combats de bande"; rulings Y-M7, Y-A13, Y-T4, Y-T5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

from tablee.dice import D6, Trace, TraceStep
from tablee.errors import N_, Message

__all__ = [
    "GangSide",
    "SimultaneousStraights",
    "Straight",
    "best_straight",
    "check_faces",
    "resolve_simultaneous",
    "straights_in",
]


class Straight(IntEnum):
    """One of the three straights, valued by its lowest face (so they compare by rank).

    Source: seed 004; Y-M7, Y-T4 (1-2-3-4 < 2-3-4-5 < 3-4-5-6).
    """

    LOW = 1
    MIDDLE = 2
    HIGH = 3

    @property
    def faces(self) -> tuple[int, int, int, int]:
        """The four faces of the straight, ascending."""
        low = int(self)
        return (low, low + 1, low + 2, low + 3)

    @property
    def label(self) -> str:
        """The straight written as ``1-2-3-4``."""
        return "-".join(str(f) for f in self.faces)


class GangSide(Enum):
    """The two sides of a gang fight or an Ichika Bachika: the players' and the GM's.

    Source: seed 004; Y-M7, Y-M8.
    """

    PLAYERS = "players"
    GM = "gm"

    @property
    def title(self) -> Message:
        """The side's name for people to read, translated where it is shown."""
        return Message(N_("the players' side") if self is GangSide.PLAYERS else N_("the GM's side"))

    @property
    def other(self) -> GangSide:
        """The opposite side."""
        return GangSide.GM if self is GangSide.PLAYERS else GangSide.PLAYERS


def check_faces(faces: Sequence[int]) -> tuple[int, ...]:
    """Check d6 faces and return them sorted ascending.

    Args:
        faces: face values, each 1..6, in any order.

    Returns:
        The faces, sorted.

    Raises:
        InputError: a value that is not a d6 face (names the value).
    """
    return tuple(sorted(D6.check_faces(faces)))


def straights_in(faces: Sequence[int]) -> tuple[Straight, ...]:
    """Every straight the hand holds, lowest first (empty when there is none).

    Args:
        faces: d6 faces, any number, any order.

    Raises:
        InputError: a value that is not a d6 face.

    Source: seed 004; Y-M7, Y-A13.
    """
    present = set(D6.check_faces(faces))
    return tuple(s for s, needed in _NEEDED if needed <= present)


def best_straight(faces: Sequence[int], *, checked: bool = False) -> Straight | None:
    """The hand's best straight (the one it counts as), or None.

    Args:
        faces: d6 faces, any number, any order.
        checked: the caller has checked the faces already (each an ``int`` 1 to 6, as
            `check_faces` does): they are not checked again.

    Raises:
        InputError: a value that is not a d6 face (not raised with ``checked``).

    Source: seed 004; Y-A13 (a hand counts as its best straight).
    """
    return _BEST[frozenset(faces if checked else D6.check_faces(faces))]


_NEEDED = tuple((s, frozenset(s.faces)) for s in Straight)
"""Each straight, lowest first, with the faces a hand needs to hold it."""

_BEST: dict[frozenset[int], Straight | None] = {
    present: next((s for s, needed in reversed(_NEEDED) if needed <= present), None)
    for present in (
        frozenset(f for f in D6.values if mask >> f & 1) for mask in range(2 ** (D6.sides + 1))
    )
}
"""The best straight held by each set of distinct d6 faces (None: no straight)."""


@dataclass(frozen=True)
class SimultaneousStraights:
    """Both sides complete a straight on the same throw.

    Attributes:
        players, gm: each side's best straight.
        winner: the side with the higher straight, or None for a draw.
        inglorious: a win by the higher straight only (an almost accidental victory).
        draw: nobody wins; every fighter takes 2 Uchimi (Y-M7).
        trace: the steps.

    Source: seed 004; Y-M7, Y-A13, Y-T5.
    """

    players: Straight
    gm: Straight
    winner: GangSide | None
    inglorious: bool
    draw: bool
    trace: Trace


def resolve_simultaneous(
    players: Straight, gm: Straight, *, higher_straight_wins: bool = True
) -> SimultaneousStraights:
    """Settle two straights completed on the same throw.

    Args:
        players: the players' best straight.
        gm: the GM's best straight.
        higher_straight_wins: the optional rule "the higher straight wins" (default on,
            Y-A13); off, any simultaneous straights are a draw.

    Returns:
        The winner (None for a draw) with its trace.

    Source: seed 004; Y-M7 step 7, Y-A13, Y-T4, Y-T5.
    """
    players, gm = Straight(players), Straight(gm)
    step = TraceStep(
        N_("both sides show a straight on the same throw: players {players}, GM {gm}"),
        {"players": players.label, "gm": gm.label},
    )
    if higher_straight_wins and players != gm:
        winner = GangSide.PLAYERS if players > gm else GangSide.GM
        won = TraceStep(
            N_("the higher straight wins, but hardly gloriously: {side}"),
            {"side": winner.title},
        )
        return SimultaneousStraights(players, gm, winner, True, False, (step, won))
    why = (
        N_("identical straights: the fighters neutralise each other, a draw")
        if players == gm
        else N_("simultaneous straights are a draw (house rule)")
    )
    return SimultaneousStraights(players, gm, None, False, True, (step, TraceStep(why)))
