"""The film's clock: Scènes, Tours, game time, temporary modifiers and long Actions.

A Scène is rythmée (fights, chases: split into Tours of a few seconds, Actions in one Tour
are simultaneous) or lente (rest, talk, careful moves: measured in loose minutes and hours).
A temporary Bonus or Malus carries a duration, in Tours or in game time, and stops by itself
when the clock passes it. An Action spanning several Tours is rolled only in its last Tour.

Tablée's choices where the text is silent: Tours and game time are separate counters that
the Réalisateur advances (a Tour adds no game time); a modifier lasting n Tours stays in
force for the rest of the current Tour and the n Tours after it; one lasting a game time
stays in force until that much time has been advanced; both carry over to the next Scène.

Source: seed 003, "Temporalité des Actions", "Scènes", "Durées", "Bonus et Malus" ("Durée"),
"Action sur plusieurs Tours"; rulings S-M3, S-M8, S-A15, S-T4, S-T6.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from tablee.errors import N_, InputError, Message, NotFoundError, RuleError
from tablee.systems.base import clean_name, name_key
from tablee.systems.common import whole
from tablee.systems.shs.actions import MAX_MODIFIER

__all__ = [
    "MAX_SECONDS",
    "MAX_TOURS",
    "ActiveModifier",
    "Clock",
    "Duration",
    "LongAction",
    "SceneKind",
    "TemporaryModifier",
    "add_modifier",
    "advance_time",
    "compound_time",
    "duration_text",
    "is_due",
    "modifier_numbered",
    "modifier_totals",
    "modifiers_in_force",
    "next_tour",
    "parse_duration",
    "record_acted",
    "remove_modifier",
    "rolls_due",
    "start_long_action",
    "start_scene",
]

MAX_TOURS = 10_000
"""Longest duration in Tours Tablée accepts."""
MAX_SECONDS = 100 * 24 * 3600
"""Longest game-time duration Tablée accepts: 100 days, in seconds."""


class SceneKind(Enum):
    """The two kinds of Scène.

    Source: seed 003, "Scènes"; S-M8.
    """

    RYTHMEE = "rythmee"
    LENTE = "lente"

    @property
    def title(self) -> str:
        """The game's French name."""
        return "Scène rythmée" if self is SceneKind.RYTHMEE else "Scène lente"


@dataclass(frozen=True)
class Duration:
    """How long a modifier lasts: a number of Tours, a game time in seconds, or until ended.

    Attributes:
        tours: 1 to `MAX_TOURS`, or 0 when measured in game time or lasting.
        seconds: 1 to `MAX_SECONDS`, or 0 when measured in Tours or lasting.

    Both at 0 is a lasting modifier (a wound, a piece of equipment): it has no duration and
    stays in force until the Réalisateur ends it by hand (S-X1).

    Raises:
        InputError: both set, or a value out of range.

    Source: seed 003, "Durée", "Durées", "Bonus et Malus"; S-M3, S-M8, S-X1.
    """

    tours: int = 0
    seconds: int = 0

    def __post_init__(self) -> None:
        whole(self.tours, "tours", 0, MAX_TOURS, rule="S-M8")
        whole(self.seconds, "seconds", 0, MAX_SECONDS, rule="S-M8")
        if self.tours > 0 and self.seconds > 0:
            raise InputError(
                N_(
                    "a duration is a number of Tours or a game time, not {tours} Tours and "
                    "{seconds} seconds (rule S-M3)"
                ),
                tours=self.tours,
                seconds=self.seconds,
            )

    @property
    def lasting(self) -> bool:
        """No duration: in force until ended by hand (S-X1)."""
        return not self.tours and not self.seconds

    def __str__(self) -> str:
        """As the text writes it: ``2 Tours``, ``30 min``, ``1 h 30 min``; ``-`` if lasting."""
        if self.tours:
            return f"{self.tours} Tour{'s' if self.tours > 1 else ''}"
        return compound_time(self.seconds) if self.seconds else "-"


def compound_time(seconds: int) -> str:
    """Game time as the text writes it: ``45 s``, ``30 min``, ``1 h 30 min``, ``0 s``.

    Days are written as hours (``48 h``), the same in both languages.

    Source: seed 003, "Autres durées"; S-M8.
    """
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h"] if hours else []
    parts += [f"{minutes} min"] if minutes else []
    parts += [f"{secs} s"] if secs or not parts else []
    return " ".join(parts)


_UNITS = {
    "tour": 0, "tours": 0,
    "s": 1, "sec": 1, "seconde": 1, "secondes": 1, "second": 1, "seconds": 1,
    "min": 60, "mn": 60, "minute": 60, "minutes": 60,
    "h": 3600, "heure": 3600, "heures": 3600, "hour": 3600, "hours": 3600,
    "j": 86400, "jour": 86400, "jours": 86400, "d": 86400, "day": 86400, "days": 86400,
}  # fmt: skip
_PART = re.compile(r"(\d{1,9})\s*([^\W\d_]+)")
_DURATION = re.compile(r"^\s*\(?\s*((?:\d{1,9}\s*[^\W\d_]+\s*)+)\)?\s*$")


def parse_duration(text: str) -> Duration:
    """Read a duration as the text writes it in brackets, parts added up.

    Args:
        text: ``2 Tours``, ``(1 Tour)``, ``30 min``, ``1 h``, ``1 h 30 min``, ``2 jours``,
            ``1 day 6 h``, ``30 s``... Tours stand alone: they do not mix with game time.

    Raises:
        InputError: not numbers each followed by a known unit, Tours mixed with game time,
            or out of range (game time up to 100 days).

    Source: seed 003, "Bonus/Malus temporaire", "Autres durées"; S-M3, S-T4, S-X1.
    """
    match = _DURATION.match(text) if isinstance(text, str) else None
    parts = [(int(n), unit.lower()) for n, unit in _PART.findall(match[1])] if match else []
    if not parts or any(unit not in _UNITS for _, unit in parts):
        raise InputError(
            N_("{text!r} is not a duration (rule S-M3)"),
            tip=N_("write 2 Tours, 30 min, 1 h 30 min or 2 jours"),
            text=text,
        )
    if any(_UNITS[unit] == 0 for _, unit in parts):
        if len(parts) > 1:
            raise InputError(
                N_("{text!r} mixes Tours with game time: give one or the other (rule S-M3)"),
                text=text,
            )
        return Duration(tours=whole(parts[0][0], "tours", 1, MAX_TOURS, rule="S-M8"))
    seconds = sum(n * _UNITS[unit] for n, unit in parts)
    return Duration(seconds=whole(seconds, "seconds", 1, MAX_SECONDS, rule="S-M8"))


@dataclass(frozen=True)
class TemporaryModifier:
    """A Bonus or Malus that lasts for a while.

    Attributes:
        target: the Protagoniste's name.
        kind: ``bonus`` or ``malus``.
        amount: 1 to `tablee.systems.shs.actions.MAX_MODIFIER`.
        duration: how long it lasts.
        label: an optional reason (free text, may be empty).

    Raises:
        InputError: a bad name, kind, amount or label.

    Source: seed 003, "Bonus/Malus temporaire"; S-M3, S-T4.
    """

    target: str
    kind: str
    amount: int
    duration: Duration
    label: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "target", clean_name(self.target, what=N_("a Protagoniste's name"))
        )
        if self.kind not in ("bonus", "malus"):
            raise InputError(
                N_("a temporary modifier is a bonus or a malus, not {value!r} (rule S-M3)"),
                value=self.kind,
            )
        whole(self.amount, "amount", 1, MAX_MODIFIER, rule="S-M3")
        if not isinstance(self.duration, Duration):
            raise InputError(N_("{value!r} is not a duration (rule S-M3)"), value=self.duration)
        if self.label:
            object.__setattr__(self, "label", clean_name(self.label, what=N_("a label")))


@dataclass(frozen=True)
class ActiveModifier:
    """A temporary modifier with the clock's reading when it was added.

    Attributes:
        modifier: the modifier.
        tour: the Tour count when added (0 before the first Tour).
        seconds: the game time when added, in seconds.
        number: its stable number, 1 or more, unique among those in force: at a table, the
            seq of the event that added it, so it never changes when another one ends.

    Source: seed 003, "Durée"; S-M3, S-A15 (Tablée fills the expiry and numbering rules).
    """

    modifier: TemporaryModifier
    tour: int
    seconds: int
    number: int

    def in_force(self, clock: Clock) -> bool:
        """Whether it still applies (S-M3, S-T4).

        In Tours: until ``tours`` Tours after the one it was added in are over. In game time:
        until ``seconds`` have been advanced since it was added.
        """
        duration = self.modifier.duration
        if duration.lasting:
            return True
        if duration.tours:
            return clock.tour <= self.tour + duration.tours
        return clock.seconds < self.seconds + duration.seconds


@dataclass(frozen=True)
class LongAction:
    """An Action lasting several Tours, rolled only in its last Tour.

    Attributes:
        actor: the Protagoniste's name.
        label: what is attempted (free text).
        tours: how many Tours it lasts, 1 or more.
        started: the Tour it started in, 1 or more.

    Source: seed 003, "Action sur plusieurs Tours"; S-M8, S-T6.
    """

    actor: str
    label: str
    tours: int
    started: int

    @property
    def last_tour(self) -> int:
        """The Tour in which it is rolled: ``started + tours - 1``."""
        return self.started + self.tours - 1


@dataclass(frozen=True)
class Clock:
    """The film's clock.

    Attributes:
        scene: the current Scène's number, 0 before the first.
        scene_kind: the current Scène's kind, None before the first.
        tour: Tours begun since the film started (0: none yet).
        seconds: game time advanced since the film started, in seconds.
        modifiers: the temporary modifiers still in force.
        long_actions: the Actions spanning several Tours not yet past their last Tour.
        acted: the Protagonistes who rolled an Action in the current Tour of a scène
            rythmée, in order (S-X3); empty again when a Tour or a Scène begins.

    Source: seed 003, "Temporalité des Actions", "Scènes", "Durées"; S-M8, S-A15, S-X3.
    """

    scene: int = 0
    scene_kind: SceneKind | None = None
    tour: int = 0
    seconds: int = 0
    modifiers: tuple[ActiveModifier, ...] = ()
    long_actions: tuple[LongAction, ...] = ()
    acted: tuple[str, ...] = ()


def record_acted(clock: Clock, names: Sequence[str]) -> Clock:
    """The clock once these Protagonistes have rolled, in a Tour of a scène rythmée (S-X3).

    Outside a Tour (before the first, or in a scène lente) nothing is recorded: Actions are
    simultaneous only within one Tour.

    Source: seed 003, "Temporalité des Actions" (Actions in one Tour are simultaneous); S-M7,
    S-M8, S-X3.
    """
    if clock.scene_kind is not SceneKind.RYTHMEE or clock.tour < 1:
        return clock
    acted = list(clock.acted)
    for name in names:
        if name not in acted:
            acted.append(name)
    return replace(clock, acted=tuple(acted))


def _expire(clock: Clock) -> Clock:
    return replace(
        clock,
        modifiers=tuple(m for m in clock.modifiers if m.in_force(clock)),
        long_actions=tuple(a for a in clock.long_actions if a.last_tour >= clock.tour),
    )


def start_scene(clock: Clock, kind: SceneKind | str) -> Clock:
    """Begin the next Scène; Tours, game time and modifiers carry on.

    Raises:
        InputError: an unknown kind (``rythmee`` or ``lente``).

    Source: seed 003, "Scènes"; S-M8.
    """
    try:
        chosen = SceneKind(kind)
    except ValueError:
        raise InputError(
            N_("{value!r} is not a kind of Scène: rythmee or lente (rule S-M8)"), value=kind
        ) from None
    return replace(clock, scene=clock.scene + 1, scene_kind=chosen, acted=())


def next_tour(clock: Clock) -> Clock:
    """Begin the next Tour; modifiers and long Actions past their end drop off by themselves.

    Source: seed 003; S-M8, S-A15, S-T4, S-T6.
    """
    return _expire(replace(clock, tour=clock.tour + 1, acted=()))


def advance_time(clock: Clock, duration: Duration | int) -> Clock:
    """Advance game time (the Réalisateur's estimate); expired modifiers drop off.

    Args:
        clock: the clock.
        duration: a game-time `Duration`, or a number of seconds (1 to `MAX_SECONDS`).

    Raises:
        InputError: a duration in Tours, or seconds out of range.

    Source: seed 003; S-M8 ("Autres durées"), S-A15, S-T4.
    """
    if isinstance(duration, Duration):
        if duration.tours or duration.lasting:
            raise InputError(
                N_("game time cannot advance by {value}: Tours advance one at a time (rule S-M8)"),
                value=str(duration),
            )
        seconds = duration.seconds
    else:
        seconds = whole(duration, "seconds", 1, MAX_SECONDS, rule="S-M8")
    return _expire(replace(clock, seconds=clock.seconds + seconds))


def add_modifier(clock: Clock, modifier: TemporaryModifier, number: int | None = None) -> Clock:
    """Start a temporary modifier now, under a stable number.

    Args:
        clock: the clock.
        modifier: the modifier.
        number: its number, higher than every number in force (at a table: the seq of the
            event that adds it); None takes the next one after the highest in force.

    Raises:
        InputError: a number that is not a whole number above the highest in force.

    Source: seed 003; S-M3 ("Durée"), S-T4; S-A15 (Tablée numbers modifiers).
    """
    highest = max((m.number for m in clock.modifiers), default=0)
    if number is None:
        number = highest + 1
    whole(
        number,
        Message(N_("a temporary modifier's number")),
        highest + 1,
        rule="S-A15",
        tip=N_("a new modifier's number is above those of the modifiers in force"),
    )
    active = ActiveModifier(modifier, clock.tour, clock.seconds, number)
    return replace(clock, modifiers=(*clock.modifiers, active))


def duration_text(duration: Duration) -> Message | str:
    """A modifier's duration for people: ``2 Tours``, ``1 h 30 min``, or lasting (S-X1)."""
    if duration.lasting:
        return Message(N_("lasting"))
    return str(duration)


def modifier_numbered(clock: Clock, number: int) -> ActiveModifier:
    """The temporary modifier in force with that stable number.

    Raises:
        NotFoundError: none in force has it; the message lists those in force.

    Source: seed 003; S-A15.
    """
    for active in clock.modifiers:
        if active.number == number and not isinstance(number, bool):
            return active
    listed = [
        Message(
            N_("#{number} {name}: {kind} ({duration}) {amount}"),
            number=m.number,
            name=m.modifier.target,
            kind=m.modifier.kind.capitalize(),
            duration=duration_text(m.modifier.duration),
            amount=m.modifier.amount,
        )
        for m in clock.modifiers
    ]
    fields = {f"m{i}": item for i, item in enumerate(listed)}
    raise NotFoundError(
        N_("no temporary modifier in force has the number {value!r}; in force: {listed}"),
        tip=N_("a modifier keeps the number of the event that added it (rule S-A15)"),
        value=number,
        listed=Message(", ".join("{" + k + "}" for k in fields), **fields) if fields else "-",
    )


def remove_modifier(clock: Clock, number: int) -> Clock:
    """End a temporary modifier by hand (the Réalisateur's call, S-A15).

    Args:
        clock: the clock.
        number: the modifier's stable number (`ActiveModifier.number`).

    Raises:
        NotFoundError: no modifier in force has that number.

    Source: seed 003; S-A15.
    """
    ended = modifier_numbered(clock, number)
    return replace(clock, modifiers=tuple(m for m in clock.modifiers if m.number != ended.number))


def modifiers_in_force(clock: Clock, target: str | None = None) -> tuple[TemporaryModifier, ...]:
    """The temporary modifiers in force, for one Protagoniste or for all.

    Source: seed 003; S-M3, S-T4.
    """
    if not clock.modifiers:
        return ()  # none at all (the common case)
    key = None if target is None else name_key(target)
    return tuple(
        m.modifier
        for m in clock.modifiers
        if m.in_force(clock) and (key is None or name_key(m.modifier.target) == key)
    )


def modifier_totals(clock: Clock, target: str) -> tuple[int, int]:
    """Sum of the temporary bonuses and of the maluses in force for a Protagoniste.

    Returns:
        ``(bonus, malus)``, each 0 or more, to add to an Action's own modifiers.

    Source: seed 003; S-M3.
    """
    found = modifiers_in_force(clock, target)
    return (
        sum(m.amount for m in found if m.kind == "bonus"),
        sum(m.amount for m in found if m.kind == "malus"),
    )


def start_long_action(clock: Clock, actor: str, label: str, tours: int) -> Clock:
    """Start an Action lasting ``tours`` Tours in the current Tour.

    Raises:
        RuleError: no Tour has begun yet.
        InputError: a bad name, label or number of Tours.

    Source: seed 003; S-M8, S-T6.
    """
    if clock.tour < 1:
        raise RuleError(
            N_("an Action over several Tours starts in a Tour, and none has begun (rule S-M8)"),
            tip=N_("begin the first Tour"),
        )
    action = LongAction(
        clean_name(actor, what=N_("a Protagoniste's name")),
        clean_name(label, what=N_("a label")),
        whole(tours, "tours", 1, MAX_TOURS, rule="S-M8"),
        clock.tour,
    )
    return replace(clock, long_actions=(*clock.long_actions, action))


def is_due(action: LongAction, clock: Clock) -> bool:
    """Whether a long Action's Test is rolled now.

    In a scène rythmée, only in its last Tour. In a scène lente Tours no longer run, so the
    few seconds left of the Action pass in the calm and its Test is rolled there (a Tablée
    decision, see docs/rules/shs.md).

    Source: seed 003, "Action sur plusieurs Tours", "Scènes lentes"; S-M8, S-T6.
    """
    return clock.scene_kind is SceneKind.LENTE or action.last_tour == clock.tour


def rolls_due(clock: Clock) -> tuple[LongAction, ...]:
    """The long Actions whose Test is rolled now (see `is_due`).

    Source: seed 003; S-M8, S-T6.
    """
    return tuple(a for a in clock.long_actions if is_due(a, clock))
