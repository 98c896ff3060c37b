"""Every stored SHS event, one typed class per kind, with what it records.

Version 1 of every kind is the shape Tablée 0.1.0 stored, so its tables and exports open
unchanged; ``shs.modifier_added`` and ``shs.modifier_ended`` are at version 2 (a modifier is
known by a stable number, the seq of the event that added it), and so are the rolled kinds
(``shs.test``, ``shs.opposed``, ``shs.cooperation``, ``shs.simultaneous``), which add the
exact odds shown before the roll (``odds``; None when not recorded, as in version 1).
``shs.cooperation`` and ``shs.simultaneous`` are at version 3: each Action records the
situation's modifier (``situation_bonus`` 1 for a cooperator, ``situation_malus`` k - 1 in a
simultaneous set), which version 2 left implied. ``shs.simultaneous`` is at version 4: a set
may hold an opposed Action (``opposed``, `SetOpposed`; None in older versions, S-X5).

Each event records the inputs of the command that produced it (`inputs` gives them back,
with the faces thrown, for the verifier) and its outcome: a rolled Action's PS, success, NT
gained and death; a counter's value after; the clock's reading. Folding a log applies those outcomes
(`tablee.systems.shs.plugin`): no kind needs its rules decided again to be folded.

Source: seed 003; rulings S-M1 to S-M9, S-N1, S-A2 to S-A15, S-T6.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Literal, Self, TypeAlias, get_args

from tablee.errors import N_
from tablee.systems.base import JSON
from tablee.systems.declare import Command
from tablee.systems.event import ODDS_UPGRADES, Event, Upgrade
from tablee.systems.shs.commands import (
    AddModifier,
    Cooperate,
    CreateProtagonist,
    EditCounters,
    EndModifier,
    Kill,
    NextTour,
    Oppose,
    Revive,
    Simultaneous,
    StartLongAction,
    StartScene,
    TestCommand,
    TimeAdvance,
    action_spec,
    member_spec,
    side_spec,
)
from tablee.systems.shs.options import ShsOptions

__all__ = [
    "EVENTS",
    "CooperationRolled",
    "CounterChanged",
    "LongActionStarted",
    "ModifierAdded",
    "ModifierEnded",
    "OpposedRolled",
    "OptionsSet",
    "ProtagonistCreated",
    "ProtagonistKilled",
    "ProtagonistRevived",
    "RolledAction",
    "SceneStarted",
    "SetOpposed",
    "ShsEvent",
    "SimultaneousRolled",
    "TestRolled",
    "TimeAdvanced",
    "TourStarted",
]

NO_FACES: tuple[int, ...] = ()
Record = Mapping[str, JSON]
"""A record of what was shown at the time (a modifier, a long Action)."""


_OPTION_WORDS = {"se_surpasser": ("surpasser",), "se_sacrifier": ("sacrifier",)}


_ACTION_DEFAULTS: Mapping[str, Any] = {
    "difficulty": None,
    "success": None,
    "situation_bonus": 0,
    "situation_malus": 0,
}
"""An Action's fields that older events may lack, with the value they then have."""


def _stored_fields(cls: type, value: Any, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a stored Action record (``cls``, a dataclass), read and checked.

    Raises:
        InputError: not an object, a missing field without a default, or a value of the
            wrong type, naming the field.
    """
    from tablee.errors import InputError
    from tablee.systems.codec import decode, hints_of  # one reader for every payload

    if not isinstance(value, Mapping):
        raise InputError(N_("an Action must be an object, not {value!r}"), value=value)
    hints = hints_of(cls)
    values: dict[str, Any] = {}
    for name in (item.name for item in fields(cls)):
        if name in value:
            values[name] = decode(hints[name], value[name], name)
        elif name in defaults:
            values[name] = defaults[name]
        else:
            raise InputError(N_("an Action's field {field} is missing"), field=name)
    return values


@dataclass(frozen=True)
class RolledAction:
    """One rolled Action as stored: its inputs, what the table gave it, its results.

    Attributes:
        protagonist, characteristic: who acted, with which Caractéristique (its id).
        difficulty: the Difficulty of a Test; None in an opposed Action (then not stored).
        expertise: the matching Expertise's stored name, or None.
        bonus, malus: the Action's own modifiers.
        option: ``none``, ``se_surpasser`` or ``se_sacrifier``.
        action_faces, dpm_faces: the faces thrown (D+/- as 1, -1, 0).
        threshold, die: the threshold and the die the table gave (S-M1, S-A2).
        temporary_bonus, temporary_malus: the temporary modifiers in force (S-M3).
        dice: the action dice count, then each D+/- group's count (negative: a Malus).
        dice_ps, dpm_ps, sacrifice_ps, signed_ps, ps: the PS at each step (S-M2, S-A3).
        nt_gain: NT gained once the Action is over (Se Surpasser, S-M5).
        dies: the Protagoniste dies (Se Sacrifier, S-M5, S-A8).
        success: a Test's success; None in an opposed Action (then not stored).
        situation_bonus, situation_malus: the situation's modifiers, stored only when not 0:
            a cooperator's Bonus 1 (S-M6), a simultaneous set's Malus k - 1 (S-M7).

    Source: seed 003; S-M2 outputs, S-M3, S-M5, S-M6, S-M7, S-A3.
    """

    protagonist: str
    characteristic: str
    difficulty: int | None
    expertise: str | None
    bonus: int
    malus: int
    option: str
    action_faces: tuple[int, ...]
    dpm_faces: tuple[int, ...]
    threshold: int
    die: str
    temporary_bonus: int
    temporary_malus: int
    dice: tuple[int, ...]
    dice_ps: int
    dpm_ps: int
    sacrifice_ps: int
    signed_ps: int
    ps: int
    nt_gain: int
    dies: bool
    success: bool | None = None
    situation_bonus: int = 0
    situation_malus: int = 0

    def to_json(self) -> dict[str, JSON]:
        """The stored shape (``difficulty`` and ``success`` only when they apply)."""
        out: dict[str, JSON] = {
            "protagonist": self.protagonist,
            "characteristic": self.characteristic,
        }
        if self.difficulty is not None:
            out["difficulty"] = self.difficulty
        out.update(
            expertise=self.expertise,
            bonus=self.bonus,
            malus=self.malus,
            option=self.option,
            action_faces=list(self.action_faces),
            dpm_faces=list(self.dpm_faces),
            threshold=self.threshold,
            die=self.die,
            temporary_bonus=self.temporary_bonus,
            temporary_malus=self.temporary_malus,
            dice=list(self.dice),
        )
        if self.situation_bonus:
            out["situation_bonus"] = self.situation_bonus
        if self.situation_malus:
            out["situation_malus"] = self.situation_malus
        out.update(
            dice_ps=self.dice_ps,
            dpm_ps=self.dpm_ps,
            sacrifice_ps=self.sacrifice_ps,
            signed_ps=self.signed_ps,
            ps=self.ps,
            nt_gain=self.nt_gain,
            dies=self.dies,
        )
        if self.success is not None:
            out["success"] = self.success
        return out

    @classmethod
    def from_json(cls, value: Any) -> Self:
        """The Action from its stored shape.

        Raises:
            InputError: a missing field or a value of the wrong type, naming the field.
        """
        return cls(**_stored_fields(cls, value, _ACTION_DEFAULTS))

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces in the order the rules asked for them: action dice, then D+/-."""
        return (*self.action_faces, *self.dpm_faces)

    @property
    def option_words(self) -> tuple[str, ...]:
        """The option as the commands name it (``surpasser``), or none."""
        return _OPTION_WORDS.get(self.option, ())

    def spec_options(self) -> list[str]:
        """The ``:``-separated options of this Action's spec (expertise=, bonus=...)."""
        parts = []
        if self.expertise is not None:
            parts.append(f"expertise={self.expertise}")
        if self.bonus:
            parts.append(f"bonus={self.bonus}")
        if self.malus:
            parts.append(f"malus={self.malus}")
        return parts + list(self.option_words)


@dataclass(frozen=True)
class ProtagonistCreated(Event):
    """A Protagoniste created: traits, Expertises, counters, who plays it."""

    kind: ClassVar[str] = "shs.protagonist_created"
    about: ClassVar[str] = N_("a Protagoniste created, its traits, counters and player")

    name: str
    owner: str | None
    carrure: int
    motricite: int
    science: int
    relationnel: int
    sang_froid: int
    expertises: tuple[str, ...]
    protection: int
    air: int
    sante: int
    sante_max: int

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        command = CreateProtagonist(
            protagonist=self.name,
            player=self.owner,
            carrure=str(self.carrure),
            motricite=str(self.motricite),
            science=str(self.science),
            relationnel=str(self.relationnel),
            sang_froid=str(self.sang_froid),
            expertises=self.expertises,
            protection=self.protection,
            air=self.air,
        )
        return command, NO_FACES


@dataclass(frozen=True)
class CounterChanged(Event):
    """Santé, Protection, Air or NT changed by hand, by a change or to a value."""

    kind: ClassVar[str] = "shs.counter_changed"
    about: ClassVar[str] = N_("a counter changed by hand, its value before and after")

    protagonist: str
    counter: str
    delta: int | None
    value: int | None
    before: int
    after: int

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it (this counter alone)."""
        given: dict[str, Any] = {"protagonist": self.protagonist}
        if self.delta is not None:
            given[self.counter] = self.delta
        if self.value is not None:
            given["set_" + self.counter] = self.value
        return EditCounters(**given), NO_FACES


@dataclass(frozen=True)
class ProtagonistKilled(Event):
    """The Réalisateur's call: a Protagoniste dies."""

    kind: ClassVar[str] = "shs.protagonist_killed"
    about: ClassVar[str] = N_("a Protagoniste dies by the Réalisateur's call")

    protagonist: str
    reason: str

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Kill(protagonist=self.protagonist, reason=self.reason), NO_FACES


@dataclass(frozen=True)
class ProtagonistRevived(Event):
    """The Réalisateur takes back a death decided by mistake."""

    kind: ClassVar[str] = "shs.protagonist_revived"
    about: ClassVar[str] = N_("a death taken back by the Réalisateur")

    protagonist: str
    reason: str

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return Revive(protagonist=self.protagonist, reason=self.reason), NO_FACES


@dataclass(frozen=True)
class TestRolled(Event):
    """A Test: the Action rolled, its success, the long Action it was, the note."""

    kind: ClassVar[str] = "shs.test"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = ODDS_UPGRADES
    about: ClassVar[str] = N_("a Test, its dice, PS, success and price")

    protagonist: str
    characteristic: str
    difficulty: int
    expertise: str | None
    bonus: int
    malus: int
    option: str
    action_faces: tuple[int, ...]
    dpm_faces: tuple[int, ...]
    threshold: int
    die: str
    temporary_bonus: int
    temporary_malus: int
    dice: tuple[int, ...]
    dice_ps: int
    dpm_ps: int
    sacrifice_ps: int
    signed_ps: int
    ps: int
    nt_gain: int
    dies: bool
    success: bool
    long_action: str | None
    reason: str
    odds: Record | None = None
    """The exact odds shown before the roll (``display.odds_record``); None: not recorded."""

    @property
    def action(self) -> RolledAction:
        """The rolled Action's part of the record."""
        fields = {
            name: getattr(self, name)
            for name in RolledAction.__dataclass_fields__
            if not name.startswith("situation_")
        }
        return RolledAction(**fields)

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it, and its faces."""
        command = TestCommand(
            protagoniste=self.protagonist,
            characteristic=self.characteristic,
            difficulty=str(self.difficulty),
            expertise=self.expertise,
            bonus=self.bonus,
            malus=self.malus,
            option=self.action.option_words,
            long_action=self.long_action,
            reason=self.reason,
        )
        return command, self.action.faces


@dataclass(frozen=True)
class OpposedRolled(Event):
    """Protagoniste against Protagoniste: both sides rolled, who prevails."""

    kind: ClassVar[str] = "shs.opposed"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = ODDS_UPGRADES
    about: ClassVar[str] = N_("an opposed Action, both sides' PS and who prevails")

    first: RolledAction
    second: RolledAction
    changer: str | None
    winner: str | None
    tie: bool
    reroll: bool
    status_quo: bool
    reason: str
    odds: Record | None = None
    """The exact odds shown before the roll (``display.odds_record``); None: not recorded."""

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it, and its faces (the first side's, then the second's)."""
        command = Oppose(
            first=member_spec(self.first),
            second=member_spec(self.second),
            changer=self.changer or "none",  # type: ignore[arg-type]
            reason=self.reason,
        )
        return command, (*self.first.faces, *self.second.faces)


def _with_situation(actions: JSON, key: str, amount: JSON) -> list[JSON]:
    """Each stored Action with the situation's modifier, when it is not 0."""
    if not isinstance(actions, list):
        return []
    if not amount:
        return list(actions)
    return [{**a, key: amount} if isinstance(a, dict) else a for a in actions]


def _cooperation_v2(payload: dict[str, JSON]) -> dict[str, JSON]:
    """Version 2 -> 3: each cooperator records the cooperation's Bonus 1 (S-M6)."""
    return {**payload, "members": _with_situation(payload.get("members"), "situation_bonus", 1)}


def _simultaneous_v2(payload: dict[str, JSON]) -> dict[str, JSON]:
    """Version 2 -> 3: each Action records the set's Malus k - 1 (S-M7)."""
    malus = payload.get("set_malus", 0)
    actions = _with_situation(payload.get("actions"), "situation_malus", malus)
    return {**payload, "actions": actions}


@dataclass(frozen=True)
class CooperationRolled(Event):
    """Protagonistes cooperating: each one's Test with Bonus 1, the group's success."""

    kind: ClassVar[str] = "shs.cooperation"
    version: ClassVar[int] = 3
    upgrades: ClassVar[Mapping[int, Upgrade]] = {**ODDS_UPGRADES, 2: _cooperation_v2}
    about: ClassVar[str] = N_("a cooperation, each cooperator's Test and the group's success")

    members: tuple[RolledAction, ...]
    success: bool
    reason: str
    odds: Record | None = None
    """The exact odds shown before the roll (``display.odds_record``); None: not recorded."""

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it, and its faces (each cooperator's in order)."""
        difficulty = self.members[0].difficulty if self.members else 1
        command = Cooperate(
            members=tuple(member_spec(m) for m in self.members),
            difficulty=str(difficulty),
            reason=self.reason,
        )
        return command, tuple(f for m in self.members for f in m.faces)


def _simultaneous_v3(payload: dict[str, JSON]) -> dict[str, JSON]:
    """Version 3 -> 4: a set held no opposed Action (S-X5)."""
    return {**payload, "opposed": None}


def _changer_word(opposed: SetOpposed | None) -> Literal["protagoniste", "opponent", "none"]:
    """A stored side seeking change, as the simultaneous command names it."""
    if opposed is None or opposed.changer == "first":
        return "protagoniste"
    return "opponent" if opposed.changer == "second" else "none"


@dataclass(frozen=True)
class SetOpposed:
    """The opposed Action of a simultaneous set, as stored (S-X5).

    Attributes:
        first: the set's Protagoniste's side, with the set's Malus (``situation_malus``).
        second: the opponent's side.
        changer, winner: ``first``, ``second`` or None, as in ``shs.opposed`` (S-A5).
        tie, reroll, status_quo: as in ``shs.opposed``.

    Source: seed 003; S-M4, S-M7, S-A5, S-X5.
    """

    first: RolledAction
    second: RolledAction
    changer: str | None
    winner: str | None
    tie: bool
    reroll: bool
    status_quo: bool

    def to_json(self) -> dict[str, JSON]:
        """The stored shape."""
        return {
            "first": self.first.to_json(),
            "second": self.second.to_json(),
            "changer": self.changer,
            "winner": self.winner,
            "tie": self.tie,
            "reroll": self.reroll,
            "status_quo": self.status_quo,
        }

    @classmethod
    def from_json(cls, value: Any) -> Self:
        """The opposed Action from its stored shape.

        Raises:
            InputError: a missing field or a value of the wrong type, naming the field.
        """
        return cls(**_stored_fields(cls, value, {}))

    @property
    def faces(self) -> tuple[int, ...]:
        """Both sides' faces: the set's Protagoniste's, then the opponent's."""
        return (*self.first.faces, *self.second.faces)


@dataclass(frozen=True)
class SimultaneousRolled(Event):
    """One Protagoniste's simultaneous Actions, each with the set's Malus.

    One of them may be an opposed Action (S-X5).
    """

    kind: ClassVar[str] = "shs.simultaneous"
    version: ClassVar[int] = 4
    upgrades: ClassVar[Mapping[int, Upgrade]] = {
        **ODDS_UPGRADES,
        2: _simultaneous_v2,
        3: _simultaneous_v3,
    }
    about: ClassVar[str] = N_("simultaneous Actions, the set's Malus, each Test and opposed Action")

    protagonist: str
    trivial: int
    set_malus: int
    actions: tuple[RolledAction, ...]
    opposed: SetOpposed | None
    reason: str
    odds: Record | None = None
    """The exact odds shown before the roll (``display.odds_record``); None: not recorded."""

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it, and its faces.

        The faces are each Test's in order, then the opposed Action's: the set's
        Protagoniste's side, then the opponent's.
        """
        opposed = self.opposed
        command = Simultaneous(
            protagoniste=self.protagonist,
            actions=tuple(action_spec(a) for a in self.actions),
            trivial=self.trivial,
            opposed=None if opposed is None else side_spec(opposed.first),
            against=None if opposed is None else member_spec(opposed.second),
            opposed_changer=_changer_word(opposed),
            reason=self.reason,
        )
        faces = tuple(f for a in self.actions for f in a.faces)
        return command, faces + (() if opposed is None else opposed.faces)


@dataclass(frozen=True)
class SceneStarted(Event):
    """The next Scène begins."""

    kind: ClassVar[str] = "shs.scene_started"
    about: ClassVar[str] = N_("a Scène begins, rythmée or lente")

    scene_kind: str | None = field(metadata={"key": "kind"})
    scene: int

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return StartScene(kind=self.scene_kind or "rythmee"), NO_FACES  # type: ignore[arg-type]


@dataclass(frozen=True)
class TourStarted(Event):
    """The next Tour of a scène rythmée; what ran its course stopped."""

    kind: ClassVar[str] = "shs.tour_started"
    about: ClassVar[str] = N_("a Tour begins; the modifiers expired and long Actions due")

    tour: int
    expired: tuple[Record, ...]
    due: tuple[Record, ...]
    lapsed: tuple[Record, ...]

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return NextTour(), NO_FACES


@dataclass(frozen=True)
class TimeAdvanced(Event):
    """Game time advanced by the Réalisateur's estimate."""

    kind: ClassVar[str] = "shs.time_advanced"
    about: ClassVar[str] = N_("game time advanced; the modifiers that expired")

    seconds: int
    total: int
    expired: tuple[Record, ...]

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        return TimeAdvance(duration=f"{self.seconds} s"), NO_FACES


def _added_v1(payload: dict[str, JSON]) -> dict[str, JSON]:
    """Version 1 -> 2: the seq that numbers the modifier was not recorded."""
    return {**payload, "seq": None}


def _ended_v1(payload: dict[str, JSON]) -> dict[str, JSON]:
    """Version 1 -> 2: version 1's number was a place among the modifiers in force."""
    rest = {k: v for k, v in payload.items() if k != "number"}
    return {**rest, "number": None, "position": payload.get("number")}


@dataclass(frozen=True)
class ModifierAdded(Event):
    """A Bonus or Malus, numbered by the seq of its event (S-A15).

    ``tours`` and ``seconds`` both 0: a lasting modifier, ended only by hand (S-X1).
    """

    kind: ClassVar[str] = "shs.modifier_added"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = {1: _added_v1}
    about: ClassVar[str] = N_("a temporary modifier added, its duration and number")

    protagonist: str
    modifier_kind: str = field(metadata={"key": "kind"})
    amount: int
    tours: int
    seconds: int
    label: str
    added_tour: int
    added_seconds: int
    seq: int | None

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        amount = {self.modifier_kind: self.amount}
        command = AddModifier(
            protagoniste=self.protagonist,
            tours=self.tours or None,
            time=f"{self.seconds} s" if self.seconds else None,
            lasting=not self.tours and not self.seconds,
            label=self.label,
            **amount,
        )
        return command, NO_FACES


@dataclass(frozen=True)
class ModifierEnded(Event):
    """The Réalisateur ends a temporary modifier by hand (S-A15)."""

    kind: ClassVar[str] = "shs.modifier_ended"
    version: ClassVar[int] = 2
    upgrades: ClassVar[Mapping[int, Upgrade]] = {1: _ended_v1}
    about: ClassVar[str] = N_("a temporary modifier ended by hand")

    number: int | None
    modifier: Record
    position: int | None = None

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it (by number; a version-1 place has none)."""
        return EndModifier(number=self.number or 0), NO_FACES


@dataclass(frozen=True)
class LongActionStarted(Event):
    """An Action over several Tours starts in the current Tour."""

    kind: ClassVar[str] = "shs.long_action_started"
    about: ClassVar[str] = N_("an Action over several Tours starts; its last Tour")

    protagonist: str
    label: str
    tours: int
    started: int
    last_tour: int

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """The command that decided it."""
        command = StartLongAction(protagoniste=self.protagonist, label=self.label, tours=self.tours)
        return command, NO_FACES


@dataclass(frozen=True)
class OptionsSet(Event):
    """The table's house rules, all of them as they now are."""

    kind: ClassVar[str] = "shs.options_set"
    about: ClassVar[str] = N_("the table's house rules after a change")

    options: Record

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        """Options are changed through the table, not a game command."""
        raise NotImplementedError

    def house_rules(self) -> ShsOptions:
        """The options as they now are."""
        return ShsOptions.from_json(self.options)


ShsEvent: TypeAlias = (
    ProtagonistCreated
    | CounterChanged
    | ProtagonistKilled
    | ProtagonistRevived
    | TestRolled
    | OpposedRolled
    | CooperationRolled
    | SimultaneousRolled
    | SceneStarted
    | TourStarted
    | TimeAdvanced
    | ModifierAdded
    | ModifierEnded
    | LongActionStarted
    | OptionsSet
)
"""Every event SHS stores: the union a plugin's ``apply`` and log lines take."""

EVENTS: tuple[type[Event], ...] = get_args(ShsEvent)
"""Every SHS event class."""
