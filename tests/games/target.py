"""A fifth game that exists only in the tests: a d6 against a target, with a shared pool.

A player rolls one d6 and may add boost tokens from the table's shared pool; the total meets
the target (a house rule, 4 by default) or not. A failed roll puts one token in the pool; the
game master refills it. It is one plugin, registered by one line (`REGISTRATION`), and gets
its command line, web forms, JSON API, odds, undo, export and import from the declarations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Annotated, ClassVar

from tablee.dice import D6, Chance, DiceRequest
from tablee.errors import InputError, Message, RuleError
from tablee.systems.base import JSON
from tablee.systems.common import clean_players, player_named
from tablee.systems.declare import Command, Param, Query, Who
from tablee.systems.event import Event
from tablee.systems.options import HouseRules, OptionRules
from tablee.systems.plugin import Decision, Game, Line, Odds, Panel, Report

REGISTRATION = ("target", "tests.games.target:TARGET")


@dataclass(frozen=True)
class TargetOptions(HouseRules):
    RULES: ClassVar[OptionRules] = OptionRules(system="Target", ranges={"target": (2, 6)})
    target: int = 4


@dataclass(frozen=True)
class TargetState:
    players: tuple[str, ...]
    options: TargetOptions
    pool: int = 0


@dataclass(frozen=True)
class Roll(Command):
    name: ClassVar[str] = "roll"
    title: ClassVar[str] = "a d6 against the target"
    who: ClassVar[Who] = Who.ACTOR
    rolled: ClassVar[bool] = True
    player: Annotated[str, Param("who rolls", choices="players", actor=True)]
    boost: Annotated[int, Param("tokens from the pool", low=0, high=5)] = 0

    def dice(self) -> tuple[DiceRequest, ...]:
        return (DiceRequest(D6, 1),)


@dataclass(frozen=True)
class Refill(Command):
    name: ClassVar[str] = "refill"
    title: ClassVar[str] = "tokens into the pool"
    amount: Annotated[int, Param("tokens", low=1, high=10)] = 1


@dataclass(frozen=True)
class OddsQuery(Query):
    name: ClassVar[str] = "odds"
    title: ClassVar[str] = "odds of a roll"
    needs_table: ClassVar[bool] = False
    boost: Annotated[int, Param("tokens", low=0, high=5)] = 0
    target: Annotated[int, Param("the target", low=2, high=6)] = 4


@dataclass(frozen=True)
class Rolled(Event):
    kind: ClassVar[str] = "target.roll"
    about: ClassVar[str] = "a roll against the target and the pool's change"
    player: str
    boost: int
    faces: tuple[int, ...]
    total: int
    success: bool
    pool_after: int

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        return Roll(self.player, self.boost), self.faces


@dataclass(frozen=True)
class Refilled(Event):
    kind: ClassVar[str] = "target.refill"
    about: ClassVar[str] = "tokens put into the pool"
    amount: int
    pool_after: int

    def inputs(self) -> tuple[Command, tuple[int, ...]]:
        return Refill(self.amount), ()


@dataclass(frozen=True)
class OptionsSet(Event):
    kind: ClassVar[str] = "target.options_set"
    about: ClassVar[str] = "the house rules after a change"
    options: Mapping[str, JSON]


def _success(boost: int, target: int) -> Fraction:
    return Fraction(sum(1 for face in D6.faces if face + boost >= target), 6)


class Target(Game[TargetState, Roll | Refill, Rolled | Refilled | OptionsSet]):
    id: ClassVar[str] = "target"
    title: ClassVar[str] = "Target"
    commands = (Roll, Refill, OddsQuery)
    event_classes = (Rolled, Refilled, OptionsSet)
    option_help: ClassVar[Mapping[str, str]] = {"target": "the total a roll must reach"}
    state_type: ClassVar[type | None] = TargetState

    def initial_state(self, created: Mapping[str, JSON]) -> TargetState:
        options = TargetOptions.from_json(created.get("options") or {})
        return TargetState(clean_players(created.get("players")), options)

    def decide(self, state: TargetState, command: Command, dice: Chance) -> Decision:
        if isinstance(command, Refill):
            return self._decided(state, Refilled(command.amount, state.pool + command.amount))
        if not isinstance(command, Roll):
            raise InputError("{name} is not a Target command", name=command.name)
        player = player_named(state.players, command.player)
        if command.boost > state.pool:
            raise RuleError(
                "{boost} tokens asked, the pool holds {pool}", boost=command.boost, pool=state.pool
            )
        faces = dice.roll(DiceRequest(D6, 1))
        total = faces[0] + command.boost
        success = total >= state.options.target
        after = state.pool - command.boost + (0 if success else 1)
        return self._decided(
            state, Rolled(player, command.boost, faces, total, success, after), actor=player
        )

    def _decided(self, state: TargetState, event: Event, actor: str = "gm") -> Decision:
        return Decision((event,), self.apply(state, event), actor)

    def apply(self, state: TargetState, event: Event) -> TargetState:
        if isinstance(event, Rolled | Refilled):
            return replace(state, pool=event.pool_after)
        assert isinstance(event, OptionsSet)
        return replace(state, options=TargetOptions.from_json(event.options))

    def change_options(self, state: TargetState, changes: Mapping[str, str]) -> Decision:
        return self._decided(state, OptionsSet(state.options.with_changes(changes).to_json()))

    def redecide(self, state: TargetState, event: Event) -> Decision:
        if isinstance(event, OptionsSet):
            return self.change_options(state, {k: str(v) for k, v in event.options.items()})
        return super().redecide(state, event)

    def line(self, event: Event, after: TargetState | None) -> Message:
        if isinstance(event, Rolled):
            return Message(
                "{player} rolls {total}: {result}",
                player=event.player,
                total=event.total,
                result="success" if event.success else "failure",
            )
        if isinstance(event, Refilled):
            return Message("pool +{amount}", amount=event.amount)
        return Message("house rules changed")

    def report(self, command: Command, decision: Decision) -> Report:
        event = decision.events[0]
        line = Line(self.line(event, decision.after), "result")
        return Report((line,), event.payload())

    def answer(self, state: TargetState | None, query: Query) -> Report:
        assert isinstance(query, OddsQuery)
        odds = self._odds(query.boost, query.target)
        return Report((Line("", odds=odds),), {"success": str(odds.success)})

    def _odds(self, boost: int, target: int) -> Odds:
        p = _success(boost, target)
        return Odds((("success", p), ("failure", 1 - p)), p, None, {"success": str(p)})

    def odds(self, state: TargetState | None, command: Command) -> Odds | None:
        if not isinstance(command, Roll):
            return None
        return self._odds(command.boost, state.options.target if state else 4)

    def panels(self, state: TargetState) -> tuple[Panel, ...]:
        return (Panel("Pool", (("tokens", str(state.pool)),)),)

    def summary(self, state: TargetState) -> dict[str, JSON]:
        return {"pool": state.pool, "options": self.options_json(state)}

    def summary_lines(self, state: TargetState) -> tuple[str, ...]:
        return (f"Pool: {state.pool}",)


TARGET = Target()
