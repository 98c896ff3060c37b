"""The gang fight (combat de bande): two sides race to show a 4-die straight.

Each side starts with 5 d6. A side with one disadvantage (outnumbered, or outgunned) loses a
die; a side with both loses one and the other side gains one (4 against 6). When each side
has one disadvantage they cancel (5 against 5) by default, or both lose a die (4 against 4)
under the ``mixed_disadvantages = "both_lose"`` option (Y-A12).

Both sides throw at the same time. The first throw uses every die; on each later throw each
side keeps some of its dice (any sub-multiset of the faces in front of it, even all of them)
and rerolls the rest. Each reroll is one minute of fighting, so a win on the first throw
takes 0 minutes (Y-A14). The first side to show a straight wins; simultaneous straights are
settled by `resolve_simultaneous` (Y-A13). Default damage, per fighter: 1 Uchimi for each
winner, 3 for each loser, 2 for everyone on a draw; the GM may change these amounts (the
``*_uchimi`` fields of `GangOptions`).

The state is a frozen `GangFight`; `dice_for_throw` says what to roll and `resolve_throw` is
pure, so the same code runs live, from typed-in faces and under exact enumeration.

Source: seed 004, "Les combats de bande"; rulings Y-M7, Y-N4, Y-A12, Y-A13, Y-A14, Y-T3,
Y-T5, Y-T6.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from enum import Enum
from functools import cached_property

from tablee.dice import D6, Chance, DiceRequest, RandomSource, SourceChance, Trace, TraceStep
from tablee.errors import N_, InputError, Plural, RuleError
from tablee.systems.base import JSON
from tablee.systems.common import whole
from tablee.systems.ybs.straights import (
    GangSide,
    Straight,
    best_straight,
    check_faces,
    resolve_simultaneous,
)

__all__ = [
    "BASE_DICE",
    "GangFight",
    "GangOptions",
    "GangResult",
    "Hit",
    "Keeps",
    "ThrowOutcome",
    "dice_for_throw",
    "dice_per_side",
    "hand_after",
    "is_sub_multiset",
    "next_throw",
    "play_throw",
    "resolve_throw",
    "start_gang_fight",
    "throw_result",
    "throw_side",
]

BASE_DICE = 5
"""Dice per side before disadvantages (Y-N4)."""

MIXED_CHOICES = ("cancel", "both_lose")

_THROW_STEP = N_("throw {throw} (minute {minutes}): {side} keeps {kept}, throws {rolled}: {hand}")


class Hit(Enum):
    """One point of damage to mark on a fighter: a light Uchimi or a serious Kega (Y-M5)."""

    UCHIMI = "uchimi"
    KEGA = "kega"


@dataclass(frozen=True)
class GangOptions:
    """House rules of the gang fight.

    Attributes:
        higher_straight_wins: on simultaneous straights, the higher one wins (Y-A13, default
            on); off, any simultaneous straights are a draw.
        mixed_disadvantages: ``"cancel"`` (each side has one disadvantage: 5 v 5, default)
            or ``"both_lose"`` (4 v 4) (Y-A12).
        winner_uchimi, loser_uchimi, draw_uchimi: Uchimi per fighter of the winning side,
            the losing side, and every fighter on a draw (defaults 1, 3, 2; Y-M7 lets the GM
            adapt them).

    Raises:
        InputError: an unknown ``mixed_disadvantages`` word or a negative amount.

    Source: seed 004; Y-M7, Y-A12, Y-A13.
    """

    higher_straight_wins: bool = True
    mixed_disadvantages: str = "cancel"
    winner_uchimi: int = 1
    loser_uchimi: int = 3
    draw_uchimi: int = 2

    def __post_init__(self) -> None:
        if self.mixed_disadvantages not in MIXED_CHOICES:
            raise InputError(
                N_("mixed_disadvantages cannot be {value!r}: expected cancel or both_lose (Y-A12)"),
                value=self.mixed_disadvantages,
            )
        for name in ("winner_uchimi", "loser_uchimi", "draw_uchimi"):
            whole(getattr(self, name), name, 0, rule="Y-M7")


def dice_per_side(
    outnumbered: GangSide | None = None,
    outgunned: GangSide | None = None,
    *,
    mixed_disadvantages: str = "cancel",
) -> tuple[int, int]:
    """Dice of each side from its disadvantages.

    Args:
        outnumbered: the side with fewer fighters, or None.
        outgunned: the side with worse weapons, or None.
        mixed_disadvantages: ``"cancel"`` or ``"both_lose"``, for one disadvantage each.

    Returns:
        ``(players' dice, GM's dice)``: (5, 5), (4, 5), (5, 4), (4, 6), (6, 4), or (4, 4).

    Raises:
        InputError: a value that is not a `GangSide` or None, or an unknown option word.

    Source: seed 004; Y-M7 step 2, Y-N4, Y-A12, Y-T3.
    """
    GangOptions(mixed_disadvantages=mixed_disadvantages)  # checks the word
    handicap = {GangSide.PLAYERS: 0, GangSide.GM: 0}
    for value in (outnumbered, outgunned):
        if value is None:
            continue
        if not isinstance(value, GangSide):
            raise InputError(N_("{value!r} is not a side (players or gm)"), value=value)
        handicap[value] += 1
    players, gm = handicap[GangSide.PLAYERS], handicap[GangSide.GM]
    if players == gm == 1:
        lost = 1 if mixed_disadvantages == "both_lose" else 0
        return BASE_DICE - lost, BASE_DICE - lost
    if players == 2:
        return BASE_DICE - 1, BASE_DICE + 1
    if gm == 2:
        return BASE_DICE + 1, BASE_DICE - 1
    return BASE_DICE - players, BASE_DICE - gm


@dataclass(frozen=True, init=False)
class Keeps:
    """The faces each side keeps before a throw (empty: reroll everything).

    Attributes:
        players: faces the players keep, a sub-multiset of their dice.
        gm: faces the GM keeps, a sub-multiset of the GM's dice.
    """

    players: tuple[int, ...] = ()
    gm: tuple[int, ...] = ()

    def __init__(self, players: tuple[int, ...] = (), gm: tuple[int, ...] = ()) -> None:
        # the fields written straight into the instance: the generated __init__ of a frozen
        # dataclass sets each one through object.__setattr__, three times slower, and a
        # simulation builds one of these per throw
        fields = self.__dict__
        fields["players"], fields["gm"] = players, gm

    def of(self, side: GangSide) -> tuple[int, ...]:
        """One side's kept faces."""
        return self.players if side is GangSide.PLAYERS else self.gm


@dataclass(frozen=True)
class GangResult:
    """How a gang fight ended.

    Attributes:
        winner: the winning side, or None on a draw.
        draw: nobody won (identical straights, or simultaneous ones with the option off).
        inglorious: won only by having the higher of two simultaneous straights.
        players_straight, gm_straight: each side's best straight, or None.
        throws: number of throws (1 or more).
        minutes: minutes of fighting, the number of rerolls (``throws - 1``, Y-A14).
        players_uchimi, gm_uchimi: Uchimi for EACH fighter of that side (default 1/3/2).

    Source: seed 004; Y-M7 steps 5-7, Y-A13, Y-A14, Y-T5, Y-T6.
    """

    winner: GangSide | None
    draw: bool
    inglorious: bool
    players_straight: Straight | None
    gm_straight: Straight | None
    throws: int
    minutes: int
    players_uchimi: int
    gm_uchimi: int

    def uchimi_for(self, side: GangSide) -> int:
        """Uchimi that each fighter of ``side`` takes."""
        return self.players_uchimi if side is GangSide.PLAYERS else self.gm_uchimi

    def hits_for(self, side: GangSide) -> tuple[Hit, ...]:
        """The hits to mark on each fighter of ``side``, in order (all Uchimi)."""
        return (Hit.UCHIMI,) * self.uchimi_for(side)


@dataclass(frozen=True)
class GangFight:
    """The state of a gang fight between throws.

    Attributes:
        players_dice, gm_dice: dice each side throws, 4 to 8 (the rules give 4, 5 or 6).
        options: the house rules.
        throws: throws made so far (0 before the first).
        players_hand, gm_hand: the faces in front of each side after the last throw, sorted.
        result: how the fight ended, or None while it goes on.

    Raises:
        InputError: at construction, a count outside 4..8 or options of the wrong type.

    Source: seed 004; Y-M7, Y-A14.
    """

    players_dice: int
    gm_dice: int
    options: GangOptions = GangOptions()
    throws: int = 0
    players_hand: tuple[int, ...] = ()
    gm_hand: tuple[int, ...] = ()
    result: GangResult | None = None

    def __init__(
        self,
        players_dice: int,
        gm_dice: int,
        options: GangOptions = GangOptions(),
        throws: int = 0,
        players_hand: tuple[int, ...] = (),
        gm_hand: tuple[int, ...] = (),
        result: GangResult | None = None,
    ) -> None:
        # written straight into the instance, as `Keeps` does: one fight per throw
        fields = self.__dict__
        fields["players_dice"], fields["gm_dice"], fields["options"] = (
            players_dice,
            gm_dice,
            options,
        )
        fields["throws"], fields["players_hand"], fields["gm_hand"] = throws, players_hand, gm_hand
        fields["result"] = result
        if type(options) is not GangOptions or not (
            type(players_dice) is int
            and type(gm_dice) is int
            and 4 <= players_dice <= 8
            and 4 <= gm_dice <= 8
        ):
            self.__post_init__()

    def __post_init__(self) -> None:
        # the full checks, with their messages (also what tells `replaced` and other copies
        # that a fight is checked when built)
        for name in ("players_dice", "gm_dice"):
            whole(getattr(self, name), name, 4, 8, rule="Y-M7")
        if not isinstance(self.options, GangOptions):
            raise InputError(
                N_("gang fight options must be GangOptions, not {value!r}"), value=self.options
            )

    @property
    def finished(self) -> bool:
        """Whether a side has won or the fight ended in a draw."""
        return self.result is not None

    @property
    def minutes(self) -> int:
        """Minutes of fighting so far: the number of rerolls (Y-A14)."""
        return max(self.throws - 1, 0)

    def dice_of(self, side: GangSide) -> int:
        """How many dice ``side`` throws."""
        return self.players_dice if side is GangSide.PLAYERS else self.gm_dice

    def hand_of(self, side: GangSide) -> tuple[int, ...]:
        """The faces in front of ``side``."""
        return self.players_hand if side is GangSide.PLAYERS else self.gm_hand

    def to_json(self) -> dict[str, JSON]:
        """The fight as a JSON object (the result is not stored: `from_json` recomputes it)."""
        return {
            "players_dice": self.players_dice,
            "gm_dice": self.gm_dice,
            "options": asdict(self.options),
            "throws": self.throws,
            "players_hand": list(self.players_hand),
            "gm_hand": list(self.gm_hand),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> GangFight:
        """A fight from `to_json`'s object, checked, its result recomputed from the hands.

        Raises:
            InputError: a missing or bad field, hands that do not match the dice.
        """
        try:
            options = GangOptions(**data["options"])
            fight = cls(int(data["players_dice"]), int(data["gm_dice"]), options)
            throws = int(data["throws"])
            hands = (list(data["players_hand"]), list(data["gm_hand"]))
        except (KeyError, TypeError, ValueError) as error:
            raise InputError(
                N_("a stored gang fight cannot be read: {error}"), error=error
            ) from None
        if throws < 0:
            raise InputError(N_("a stored gang fight has {throws} throws"), throws=throws)
        if throws == 0:
            if hands != ([], []):
                raise InputError(N_("a stored gang fight shows dice before its first throw"))
            return fight
        replayed, _ = resolve_throw(
            replace(fight, throws=throws - 1, players_hand=(), gm_hand=()), Keeps(), hands
        )
        return replayed


def start_gang_fight(
    outnumbered: GangSide | None = None,
    outgunned: GangSide | None = None,
    options: GangOptions = GangOptions(),
) -> GangFight:
    """A new gang fight, before the first throw.

    Args:
        outnumbered: the side with fewer fighters, or None.
        outgunned: the side with worse weapons, or None.
        options: the house rules.

    Raises:
        InputError: a side that is not a `GangSide`.

    Source: seed 004; Y-M7 steps 1-2, Y-A12, Y-T3.
    """
    players, gm = dice_per_side(
        outnumbered, outgunned, mixed_disadvantages=options.mixed_disadvantages
    )
    return GangFight(players, gm, options)


@dataclass(frozen=True)
class ThrowOutcome:
    """One throw of a gang fight.

    Attributes:
        throw: its number, 1 for the first throw.
        minutes: minutes of fighting elapsed once it is made (``throw - 1``).
        players_kept, gm_kept: faces each side kept (empty on the first throw).
        players_rolled, gm_rolled: the new faces each side threw.
        players_hand, gm_hand: each side's faces after the throw, sorted.
        players_straight, gm_straight: each side's best straight, or None.
        result: how the fight ended, or None when it goes on.
        options: the house rules of the fight (how simultaneous straights end it).
        trace: the steps (written on first reading, from the fields above: a simulation
            that never reads them does not pay for them).

    Source: seed 004; Y-M7, Y-A13, Y-A14.
    """

    throw: int
    minutes: int
    players_kept: tuple[int, ...]
    gm_kept: tuple[int, ...]
    players_rolled: tuple[int, ...]
    gm_rolled: tuple[int, ...]
    players_hand: tuple[int, ...]
    gm_hand: tuple[int, ...]
    players_straight: Straight | None
    gm_straight: Straight | None
    result: GangResult | None
    options: GangOptions = GangOptions()

    def __init__(
        self,
        throw: int,
        minutes: int,
        players_kept: tuple[int, ...],
        gm_kept: tuple[int, ...],
        players_rolled: tuple[int, ...],
        gm_rolled: tuple[int, ...],
        players_hand: tuple[int, ...],
        gm_hand: tuple[int, ...],
        players_straight: Straight | None,
        gm_straight: Straight | None,
        result: GangResult | None,
        options: GangOptions = GangOptions(),
    ) -> None:
        # written straight into the instance, as `Keeps` does: one outcome per throw
        fields = self.__dict__
        fields["throw"], fields["minutes"] = throw, minutes
        fields["players_kept"], fields["gm_kept"] = players_kept, gm_kept
        fields["players_rolled"], fields["gm_rolled"] = players_rolled, gm_rolled
        fields["players_hand"], fields["gm_hand"] = players_hand, gm_hand
        fields["players_straight"], fields["gm_straight"] = players_straight, gm_straight
        fields["result"], fields["options"] = result, options

    @cached_property
    def trace(self) -> Trace:
        """The steps: what each side kept, threw and shows, then how the throw ends."""
        sides = (
            (GangSide.PLAYERS, self.players_kept, self.players_rolled, self.players_hand),
            (GangSide.GM, self.gm_kept, self.gm_rolled, self.gm_hand),
        )
        steps = [
            TraceStep(
                N_(
                    "throw {throw} (minute {minutes}): {side} keeps {kept}, throws {rolled}: {hand}"
                ),
                {
                    "throw": self.throw,
                    "minutes": self.throw - 1,
                    "side": side.title,
                    "kept": list(kept),
                    "rolled": list(rolled),
                    "hand": list(hand),
                },
            )
            for side, kept, rolled, hand in sides
        ]
        tail = _end_steps(self.options, self.result, self.players_straight, self.gm_straight)
        return (*steps, *tail)


def is_sub_multiset(kept: Sequence[int], hand: Sequence[int]) -> bool:
    """Whether every kept face is in the hand, counting repeats."""
    if not kept:
        return True
    left = list(hand)
    for face in kept:
        if face not in left:
            return False
        left.remove(face)
    return True


def _checked_keep(
    state: GangFight, side: GangSide, keep: Sequence[int], hand: tuple[int, ...]
) -> tuple[int, ...]:
    """One side's keep, checked against the faces in front of it, sorted."""
    if keep == () and type(keep) is tuple:
        return keep  # nothing kept: nothing to check
    kept = check_faces(keep)
    if state.throws == 0 and kept:
        raise InputError(
            N_("the first throw uses every die: {side} cannot keep {kept} (Y-M7 step 3)"),
            side=side.title,
            kept=list(kept),
        )
    if not is_sub_multiset(kept, hand):
        raise InputError(
            N_("{side} cannot keep {kept}: its dice show {hand}"),
            tip=N_("keep only faces shown on the side's dice, each at most as often (Y-M7)"),
            secret_in=("ybs.gang_throw",),  # the hand of a throw that may be hidden
            side=side.title,
            kept=list(kept),
            hand=list(hand),
        )
    return kept


def _checked_keeps(state: GangFight, keeps: Keeps) -> Keeps:
    if state.result is not None:
        raise RuleError(
            N_("the gang fight is over after {throws} throws: no more throws (Y-M7)"),
            throws=state.throws,
        )
    players = _checked_keep(state, GangSide.PLAYERS, keeps.players, state.players_hand)
    gm = _checked_keep(state, GangSide.GM, keeps.gm, state.gm_hand)
    if players == keeps.players and gm == keeps.gm and type(keeps) is Keeps:
        return keeps  # already sorted tuples
    return Keeps(players, gm)


_THROWS = tuple(DiceRequest(D6, count) for count in range(9))
"""The request for 0 to 8 d6, the most a side throws (the fight checks its dice)."""


def _requests(state: GangFight, keeps: Keeps) -> tuple[DiceRequest, DiceRequest]:
    """The dice each side throws after checked ``keeps``."""
    return (
        _THROWS[state.players_dice - len(keeps.players)],
        _THROWS[state.gm_dice - len(keeps.gm)],
    )


def dice_for_throw(state: GangFight, keeps: Keeps = Keeps()) -> tuple[DiceRequest, DiceRequest]:
    """The dice to throw next: the players' request, then the GM's.

    Args:
        state: the fight.
        keeps: faces kept by each side (must be empty on the first throw).

    Raises:
        RuleError: the fight is over.
        InputError: a keep naming dice not in front of that side, or any keep on the first
            throw.

    Source: seed 004; Y-M7 steps 3-4, Y-A14.
    """
    return _requests(state, _checked_keeps(state, keeps))


def throw_result(
    state: GangFight, throw: int, players: Straight | None, gm: Straight | None
) -> tuple[GangResult | None, Trace]:
    """How a throw ends the fight, from each side's best straight after it.

    Args:
        state: the fight (its options matter here).
        throw: the throw's number, 1 or more.
        players, gm: each side's best straight after the throw, or None.

    Returns:
        The result (None when neither side shows a straight: the fight goes on), and the
        steps that explain it.

    Source: seed 004; Y-M7 steps 5-7, Y-A13, Y-T5, Y-T6.
    """
    result = _throw_end(state.options, throw, players, gm)
    return result, _end_steps(state.options, result, players, gm)


def _throw_end(
    opts: GangOptions, throw: int, players: Straight | None, gm: Straight | None
) -> GangResult | None:
    """The result of `throw_result`, without its steps."""
    if players is None and gm is None:
        return None
    inglorious = False
    if players is not None and gm is not None:
        tie = resolve_simultaneous(players, gm, higher_straight_wins=opts.higher_straight_wins)
        winner, inglorious = tie.winner, tie.inglorious
    else:
        winner = GangSide.PLAYERS if players is not None else GangSide.GM
    if winner is None:
        ours = theirs = opts.draw_uchimi
    elif winner is GangSide.PLAYERS:
        ours, theirs = opts.winner_uchimi, opts.loser_uchimi
    else:
        ours, theirs = opts.loser_uchimi, opts.winner_uchimi
    return GangResult(
        winner, winner is None, inglorious, players, gm, throw, throw - 1, ours, theirs
    )


def _end_steps(
    opts: GangOptions, result: GangResult | None, players: Straight | None, gm: Straight | None
) -> Trace:
    """The steps of `throw_result` that explain ``result``."""
    if result is None:
        return (TraceStep(N_("no straight yet: the fight goes on")),)
    if players is not None and gm is not None:
        tie = resolve_simultaneous(players, gm, higher_straight_wins=opts.higher_straight_wins)
        steps = list(tie.trace)
    else:
        winner = GangSide.PLAYERS if players is not None else GangSide.GM
        steps = [TraceStep(N_("{side} shows a straight first and wins"), {"side": winner.title})]
    steps.append(
        TraceStep(
            N_("damage per fighter: players {players} Uchimi, GM's side {gm} Uchimi"),
            {"players": result.players_uchimi, "gm": result.gm_uchimi},
        )
    )
    return tuple(steps)


def hand_after(kept: Sequence[int], rolled: Sequence[int]) -> tuple[int, ...]:
    """The faces in front of a side after a throw: what it kept and what it threw, sorted.

    Source: seed 004; Y-M7 step 4.
    """
    return tuple(sorted((*kept, *rolled)))


def throw_side(
    dice: int, kept: tuple[int, ...], chance: Chance
) -> tuple[tuple[int, ...], Straight | None]:
    """One side's part of a throw: throw every die not kept, then read the hand.

    The same steps as one side in `resolve_throw` (the request of `dice_for_throw`, the
    hand of `hand_after`, its best straight), for the odds of one side alone.

    Args:
        dice: the side's dice (4 to 8).
        kept: the faces it keeps (empty on the first throw).
        chance: where the new faces come from.

    Returns:
        The hand after the throw, sorted, and its best straight or None.

    Source: seed 004; Y-M7 steps 3-5, Y-A13.
    """
    hand = hand_after(kept, chance.roll(DiceRequest(D6, dice - len(kept))))
    return hand, best_straight(hand)


def _new_faces(side: GangSide, needed: int, faces: Sequence[int]) -> tuple[int, ...]:
    rolled = D6.check_faces(faces)
    if len(rolled) != needed:
        raise InputError(
            N_("{side} throws {dice} this time; faces given: {given} (Y-M7)"),
            side=side.title,
            dice=Plural("{n} die", "{n} dice", needed),
            given=len(rolled),
        )
    return rolled


def resolve_throw(
    state: GangFight, keeps: Keeps, faces: tuple[Sequence[int], Sequence[int]]
) -> tuple[GangFight, ThrowOutcome]:
    """Make one throw of the fight from the faces thrown.

    Args:
        state: the fight before the throw.
        keeps: faces kept by each side (empty on the first throw).
        faces: ``(players' new faces, GM's new faces)``, as many as `dice_for_throw` asked.

    Returns:
        The fight after the throw, and the throw's outcome (with the result if it ended).

    Raises:
        RuleError: the fight is already over.
        InputError: a bad keep (see `dice_for_throw`), a face that is not 1..6, or the wrong
            number of faces for a side.

    Source: seed 004; Y-M7, Y-A13, Y-A14, Y-T5, Y-T6.
    """
    return _resolve_checked(state, _checked_keeps(state, keeps), faces)


def _resolve_checked(
    state: GangFight, keeps: Keeps, faces: tuple[Sequence[int], Sequence[int]]
) -> tuple[GangFight, ThrowOutcome]:
    """`resolve_throw` with ``keeps`` checked already (`_checked_keeps`)."""
    kept, gm_kept = keeps.players, keeps.gm
    rolled = _new_faces(GangSide.PLAYERS, state.players_dice - len(kept), faces[0])
    gm_rolled = _new_faces(GangSide.GM, state.gm_dice - len(gm_kept), faces[1])
    hand, gm_hand = hand_after(kept, rolled), hand_after(gm_kept, gm_rolled)
    best, gm_best = best_straight(hand, checked=True), best_straight(gm_hand, checked=True)
    throw = state.throws + 1
    options = state.options
    result = _throw_end(options, throw, best, gm_best)
    new_state = type(state)(
        state.players_dice, state.gm_dice, options, throw, hand, gm_hand, result
    )
    outcome = ThrowOutcome(
        throw,
        throw - 1,
        kept,
        gm_kept,
        rolled,
        gm_rolled,
        hand,
        gm_hand,
        best,
        gm_best,
        result,
        options,
    )
    return new_state, outcome


def play_throw(
    state: GangFight, keeps: Keeps, source: RandomSource
) -> tuple[GangFight, ThrowOutcome]:
    """Roll the next throw with ``source`` (players' dice first) and resolve it.

    Raises:
        RuleError, InputError: as `resolve_throw`; the source's own errors.

    Source: seed 004; Y-M7.
    """
    return next_throw(state, keeps, SourceChance(source))


def next_throw(state: GangFight, keeps: Keeps, chance: Chance) -> tuple[GangFight, ThrowOutcome]:
    """Ask ``chance`` for the next throw's dice (the players' request first) and resolve it.

    Raises:
        RuleError, InputError: as `resolve_throw`; the chance's own errors.

    Source: seed 004; Y-M7.
    """
    keeps = _checked_keeps(state, keeps)  # once: `resolve_throw` would check them again
    players, gm = _requests(state, keeps)
    return _resolve_checked(state, keeps, (chance.roll(players), chance.roll(gm)))
