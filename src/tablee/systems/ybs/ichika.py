"""Ichika Bachika: an all-or-nothing lightning strike settled by one throw of 5 dice a side.

In a fully unexpected encounter each player privately picks flee, gang fight, or "Ichika
Bachika!". One call of Ichika Bachika drags every player into the strike (Y-M8); otherwise
the players who picked the gang fight fight it and the others flee (Y-A18).

Each side throws 5 d6 once and the better Zorome (a set of equal faces) wins. Sets rank by
size first, then face (Y-A15): a pair of 6 loses to three 1. Hands compare set by set, best
first, so a full house beats the same three of a kind alone, two pairs beat one, and a hand
without a pair is the lowest (Y-A16). Lone dice are never compared. A complete tie is a draw
where every fighter takes 2 Uchimi, or a new throw under ``tie = "reroll"`` (Y-A16).

Each member of the losing side takes 4 Uchimi; the winners take nothing (Y-A17). A fighter
with only 3 hit points takes a Kega as the 4th hit (Y-M8 step 6, Y-T8).

Source: seed 004, "Ichika Bachika (quitte ou double)"; rulings Y-M8, Y-N5, Y-A15, Y-A16,
Y-A17, Y-A18, Y-T7, Y-T8, Y-T9.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from tablee.dice import D6, DiceRequest, Trace, TraceStep
from tablee.errors import N_, InputError
from tablee.systems.common import whole
from tablee.systems.ybs.gang import Hit
from tablee.systems.ybs.straights import GangSide, check_faces

__all__ = [
    "ICHIKA_DICE",
    "Encounter",
    "IchikaChoice",
    "IchikaOptions",
    "IchikaOutcome",
    "Zorome",
    "decide_encounter",
    "dice_for_ichika",
    "ichika_hits",
    "resolve_ichika",
    "zorome_of",
]

ICHIKA_DICE = 5
"""Dice per side in an Ichika Bachika (Y-N5)."""


class IchikaChoice(Enum):
    """A player's secret choice in an unexpected encounter (Y-M8 step 2)."""

    FLEE = "flee"
    GANG_FIGHT = "gang_fight"
    ICHIKA_BACHIKA = "ichika_bachika"


@dataclass(frozen=True)
class Encounter:
    """What the players' secret choices lead to.

    Attributes:
        kind: ``"ichika_bachika"``, ``"gang_fight"`` or ``"flee"`` (everybody flees).
        fighters: the players who fight (everyone on Ichika Bachika).
        fleeing: the players who leave.
        trace: the steps.

    Source: seed 004; Y-M8 steps 2-3, Y-A18.
    """

    kind: str
    fighters: tuple[str, ...]
    fleeing: tuple[str, ...]
    trace: Trace


def decide_encounter(choices: Mapping[str, IchikaChoice | str]) -> Encounter:
    """Read the players' secret choices.

    Args:
        choices: player name -> choice (an `IchikaChoice` or its value), one or more players.

    Returns:
        Ichika Bachika for everyone if anyone called it; otherwise a gang fight for those who
        chose it, the others fleeing (everybody fleeing when nobody chose to fight).

    Raises:
        InputError: no player, or a choice that is not flee, gang_fight or ichika_bachika.

    Source: seed 004; Y-M8, Y-A18.
    """
    if not choices:
        raise InputError(N_("an encounter needs at least one player's choice (Y-M8)"))
    read: dict[str, IchikaChoice] = {}
    for name, choice in choices.items():
        try:
            read[name] = IchikaChoice(choice)
        except ValueError:
            raise InputError(
                N_("{name}'s choice {choice!r} is not flee, gang_fight or ichika_bachika (Y-M8)"),
                name=name,
                choice=choice,
            ) from None
    names = tuple(read)
    callers = [n for n in names if read[n] is IchikaChoice.ICHIKA_BACHIKA]
    if callers:
        step = TraceStep(
            N_("{callers} called Ichika Bachika: every player joins the strike"),
            {"callers": ", ".join(callers)},
        )
        return Encounter("ichika_bachika", names, (), (step,))
    fighters = tuple(n for n in names if read[n] is IchikaChoice.GANG_FIGHT)
    fleeing = tuple(n for n in names if read[n] is IchikaChoice.FLEE)
    if not fighters:
        return Encounter("flee", (), fleeing, (TraceStep(N_("every player flees")),))
    step = TraceStep(
        N_("gang fight for {fighters}; fleeing: {fleeing}"),
        {"fighters": ", ".join(fighters), "fleeing": ", ".join(fleeing) or "-"},
    )
    return Encounter("gang_fight", fighters, fleeing, (step,))


@dataclass(frozen=True, order=True)
class Zorome:
    """The sets of equal faces in a hand, best first, compared as the rules rank them.

    Attributes:
        sets: ``(size, face)`` for each face shown at least twice, sorted best first (size,
            then face). Comparing two `Zorome` compares these tuples in order, so a hand
            whose sets start like another's but has one more set is better; no set at all
            (``()``) is the lowest.

    Source: seed 004; Y-M8 step 4, Y-A15, Y-A16, Y-T7.
    """

    sets: tuple[tuple[int, int], ...]

    @property
    def label(self) -> str:
        """The sets written as ``5-5-5 2-2`` (``-`` when there is none)."""
        if not self.sets:
            return "-"
        return " ".join("-".join([str(face)] * size) for size, face in self.sets)


def zorome_of(faces: Sequence[int]) -> Zorome:
    """The Zorome of a hand.

    Args:
        faces: d6 faces, any number, any order.

    Raises:
        InputError: a value that is not a d6 face.

    Source: seed 004; Y-A15, Y-A16.
    """
    counts = Counter(check_faces(faces))
    sets = sorted(((c, f) for f, c in counts.items() if c >= 2), reverse=True)
    return Zorome(tuple(sets))


TIE_CHOICES = ("draw", "reroll")


@dataclass(frozen=True)
class IchikaOptions:
    """House rules of Ichika Bachika.

    Attributes:
        tie: ``"draw"`` (default: every fighter takes ``draw_uchimi``) or ``"reroll"``.
        loser_uchimi: hits for each loser (default 4, Y-N5).
        draw_uchimi: Uchimi for every fighter on a draw (default 2, Y-A16).

    Raises:
        InputError: an unknown ``tie`` word or a negative amount.

    Source: seed 004; Y-M8, Y-A16, Y-A17.
    """

    tie: str = "draw"
    loser_uchimi: int = 4
    draw_uchimi: int = 2

    def __post_init__(self) -> None:
        if self.tie not in TIE_CHOICES:
            raise InputError(
                N_("tie cannot be {value!r}: expected draw or reroll (Y-A16)"), value=self.tie
            )
        for name in ("loser_uchimi", "draw_uchimi"):
            whole(getattr(self, name), name, 0, rule="Y-M8")


def ichika_hits(uchimi: int, hp: int, *, loser: bool = True) -> tuple[Hit, ...]:
    """The hits to mark, in order, on one fighter.

    Args:
        uchimi: the Uchimi the fighter takes (4 for a loser by default).
        hp: the fighter's hit points (maximum boxes), 1 or more.
        loser: the fighter lost the strike; only then does the 3-hit-point rule apply.

    Returns:
        ``uchimi`` hits; for a loser with exactly 3 hit points the 4th is a Kega. Mark them
        in order with the overflow rule (Y-M5, Y-A19): with no prior damage that leaves
        2 "/" and 1 "X" (Y-T8).

    Raises:
        InputError: a negative amount or hit points below 1.

    Source: seed 004; Y-M8 steps 5-6, Y-T8, Y-T9.
    """
    for name, value, low in (("uchimi", uchimi, 0), ("hp", hp, 1)):
        whole(value, name, low, rule="Y-M8")
    hits = [Hit.UCHIMI] * uchimi
    if loser and hp == 3 and uchimi >= 4:
        hits[3] = Hit.KEGA
    return tuple(hits)


@dataclass(frozen=True)
class IchikaOutcome:
    """The result of an Ichika Bachika throw.

    Attributes:
        players_hand, gm_hand: each side's 5 faces, sorted.
        players_zorome, gm_zorome: each side's Zorome.
        winner: the winning side, or None on a complete tie.
        draw: a complete tie settled as a draw (damage to everyone).
        reroll: a complete tie under ``tie = "reroll"``: throw again, nobody is hurt.
        players_uchimi, gm_uchimi: Uchimi for EACH fighter of that side (before the
            3-hit-point rule: use `hits_for`).
        trace: the steps.

    Source: seed 004; Y-M8, Y-A16, Y-A17.
    """

    players_hand: tuple[int, ...]
    gm_hand: tuple[int, ...]
    players_zorome: Zorome
    gm_zorome: Zorome
    winner: GangSide | None
    draw: bool
    reroll: bool
    players_uchimi: int
    gm_uchimi: int
    trace: Trace

    def uchimi_for(self, side: GangSide) -> int:
        """Uchimi each fighter of ``side`` takes."""
        return self.players_uchimi if side is GangSide.PLAYERS else self.gm_uchimi

    def hits_for(self, side: GangSide, hp: int) -> tuple[Hit, ...]:
        """The hits for one fighter of ``side`` with ``hp`` hit points (see `ichika_hits`)."""
        return ichika_hits(self.uchimi_for(side), hp, loser=self.winner is side.other)

    def damage_for(self, side: GangSide, hp: int) -> tuple[int, int]:
        """``(uchimi, kega)`` for one fighter of ``side``: mark the Uchimi first, then the Kega.

        That order gives the same marks as `hits_for` (the Kega is always the last hit).
        """
        hits = self.hits_for(side, hp)
        return hits.count(Hit.UCHIMI), hits.count(Hit.KEGA)


def dice_for_ichika() -> tuple[DiceRequest, DiceRequest]:
    """The dice: 5 d6 for the players, then 5 d6 for the GM (Y-M8 step 4)."""
    return DiceRequest(D6, ICHIKA_DICE), DiceRequest(D6, ICHIKA_DICE)


def _hand(side: GangSide, faces: Sequence[int]) -> tuple[int, ...]:
    hand = check_faces(faces)
    if len(hand) != ICHIKA_DICE:
        raise InputError(
            N_("{side} throws {count} dice in Ichika Bachika; faces given: {given} (Y-M8)"),
            side=side.title,
            count=ICHIKA_DICE,
            given=len(hand),
        )
    return hand


def resolve_ichika(
    faces: tuple[Sequence[int], Sequence[int]], options: IchikaOptions = IchikaOptions()
) -> IchikaOutcome:
    """Settle the strike from each side's 5 faces.

    Args:
        faces: ``(players' faces, GM's faces)``, 5 each.
        options: the house rules.

    Raises:
        InputError: a face that is not 1..6, or not 5 faces for a side.

    Source: seed 004; Y-M8, Y-A15, Y-A16, Y-A17, Y-T7.
    """
    players, gm = _hand(GangSide.PLAYERS, faces[0]), _hand(GangSide.GM, faces[1])
    pz, gz = zorome_of(players), zorome_of(gm)
    steps = [
        TraceStep(
            N_("{side} throws {hand}: Zorome {zorome}"),
            {"side": side.title, "hand": list(hand), "zorome": z.label},
        )
        for side, hand, z in ((GangSide.PLAYERS, players, pz), (GangSide.GM, gm, gz))
    ]
    winner = None if pz == gz else (GangSide.PLAYERS if pz > gz else GangSide.GM)
    reroll = winner is None and options.tie == "reroll"
    if winner is not None:
        steps.append(
            TraceStep(
                N_("{side} has the better Zorome and wins; each loser takes {uchimi} Uchimi"),
                {"side": winner.title, "uchimi": options.loser_uchimi},
            )
        )
        amount = {winner: 0, winner.other: options.loser_uchimi}
    elif reroll:
        steps.append(TraceStep(N_("a complete tie: throw again (house rule)")))
        amount = {GangSide.PLAYERS: 0, GangSide.GM: 0}
    else:
        steps.append(
            TraceStep(
                N_("a complete tie: a draw, every fighter takes {uchimi} Uchimi"),
                {"uchimi": options.draw_uchimi},
            )
        )
        amount = {GangSide.PLAYERS: options.draw_uchimi, GangSide.GM: options.draw_uchimi}
    return IchikaOutcome(
        players,
        gm,
        pz,
        gz,
        winner,
        winner is None and not reroll,
        reroll,
        amount[GangSide.PLAYERS],
        amount[GangSide.GM],
        tuple(steps),
    )
