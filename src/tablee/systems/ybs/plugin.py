"""Yuigahama Bad Seeds as one plugin: commands decided, events applied, what people read.

Each command is decided by the rule functions of this package (`tablee.systems.ybs.sessions`,
`sheet_changes`, `play`, `brawls`), which throw their dice from the source they are given:
a test's die, a reroll's, a gang-fight throw's new faces for each side (the players' d6,
then the GM's, `tablee.systems.ybs.commands.GM_D6`), Ichika Bachika's five a side. The
events they make record their outcome; folding applies it (`tablee.systems.ybs.apply`); the
verifier decides each event again from its inputs under the rules version it was written
with. Logs of Tablée 0.1.0 with an undo are folded as 0.1.0 did (`legacy_evolve`).

Source: seed 004; rulings Y-M1 to Y-M9, Y-A1 to Y-A22.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, ClassVar, TypeAlias, cast

from tablee.dice import D6, Chance, DiceRequest, SourceChance, TraceStep, TypedFaces, parse_faces
from tablee.errors import N_, InputError, Message, RuleError, TableeError
from tablee.systems.base import JSON
from tablee.systems.declare import Command, Query, Who
from tablee.systems.event import Event, read_event
from tablee.systems.options import stored_changes
from tablee.systems.plugin import Card, Decision, Game, Line, Odds, Panel, Report, Text
from tablee.systems.ybs import answers, brawls, play, sessions, sheet_changes, views
from tablee.systems.ybs import brawl_commands as B
from tablee.systems.ybs import commands as C
from tablee.systems.ybs import queries as Q
from tablee.systems.ybs.apply import apply
from tablee.systems.ybs.brawl_events import Encountered, GangThrown
from tablee.systems.ybs.character import parse_sheets
from tablee.systems.ybs.events import (
    EVENTS,
    CriticalFailed,
    CriticalSucceeded,
    OptionsSet,
    Rerolled,
    StarAwarded,
    Tested,
    YbsEvent,
)
from tablee.systems.ybs.foundry import foundry_actors, sheet_from_foundry
from tablee.systems.ybs.gang import Keeps, dice_for_throw
from tablee.systems.ybs.ichika import decide_encounter
from tablee.systems.ybs.legacy import legacy_evolve, with_odds
from tablee.systems.ybs.log import describe
from tablee.systems.ybs.options import (
    YBS_OPTION_HELP,
    YBS_OPTION_LABELS,
    YBS_OPTION_WORDS,
    YbsOptions,
)
from tablee.systems.ybs.rolls import YbsTest, resolve_test
from tablee.systems.ybs.state import (
    Decision as RuleDecision,
)
from tablee.systems.ybs.state import (
    GangTable,
    YbsState,
    box_json,
    character_json,
    character_named,
    initial_state,
    player_named,
)
from tablee.systems.ybs.straights import GangSide
from tablee.systems.ybs.unmei import GM

__all__ = ["YBS", "Ybs", "YbsCommand"]

TRAIT_IDS = ("choushi", "kiyousa", "chisei", "yuuben", "chikaku", "nintai")
KINDS = {cls.kind: cls for cls in EVENTS}
JSON_TEXT = re.compile(r"\s*(\{|\[\s*[{\]])")
"""How a JSON text of sheets starts (an object, or a list of them); anything else is TOML."""
FOLLOWING = (C.Test, C.Stubborn, C.Critical, C.CriticalFailure)
"""The commands whose report shows the test in progress (its faces so far)."""


YbsCommand: TypeAlias = (
    C.Test
    | C.Stubborn
    | C.Critical
    | C.CriticalFailure
    | C.StartSession
    | C.EndSession
    | C.Invoke
    | C.ShichiFukujin
    | C.CreateCharacter
    | C.ImportCharacters
    | C.Damage
    | C.Rest
    | C.HealKega
    | C.ResolveRound
    | C.Retreat
    | C.EndFight
    | C.Star
    | C.Transfer
    | C.Trauma
    | C.LiftTrauma
    | C.ChangeAttributes
    | B.StartGang
    | B.ThrowGang
    | B.StopGang
    | B.Encounter
)
"""Every YBS command that decides events (queries apart): the union ``decide`` takes."""


def _faces_to_keep(text: str | None, advised: tuple[int, ...], field: str) -> tuple[int, ...]:
    """``advised`` (the default, also for None), ``none`` (reroll every die) or faces ``2,3``.

    ``advised`` is the race-optimal keep against the other side's dice (Y-X9).

    Raises:
        InputError: a part that is not a d6 face, naming the field, the face and its place.

    Source: Y-M7, Y-A14.
    """
    word = (text or "").strip().lower()
    if word in ("", "advised"):
        return advised
    if word == "none":
        return ()
    try:
        return parse_faces(word, D6)
    except InputError as exc:
        raise InputError(
            N_("{flag}: {error} (faces to keep, or advised, or none; rule Y-M7)"),
            flag=field,
            error=exc,
        ) from None


def _player_of(state: YbsState, name: str) -> str:
    """A player's name, or the player of the character so named (else the player error)."""
    try:
        return player_named(state, name)
    except TableeError as missing:
        try:
            owner = state.owners.get(character_named(state, name))
        except TableeError:
            raise missing from None
        if owner is None:
            raise missing from None
        return owner


ALREADY_THROWN = N_("{side} has already thrown this time: the other side throws now (rule Y-M7)")
"""A side throwing twice in one throw of a gang fight."""


class Ybs(Game[YbsState, YbsCommand, YbsEvent]):
    """Yuigahama Bad Seeds: d6 tests with Unmei tokens, fights, gang fights, evolution."""

    id: ClassVar[str] = "ybs"
    title: ClassVar[str] = "Yuigahama Bad Seeds"
    rules_version: ClassVar[str] = "2"
    trauma_limits: ClassVar[bool] = True
    """A trauma holds its trait at -1: no fifth star nor transfer raises it (Y-X8, rules
    version 2); version 1 let them."""
    commands = (*C.COMMANDS, *B.BRAWL_COMMANDS, *Q.QUERIES)
    event_classes = EVENTS
    option_help: ClassVar[Mapping[str, str]] = YBS_OPTION_HELP
    option_labels: ClassVar[Mapping[str, str]] = YBS_OPTION_LABELS
    option_words: ClassVar[Mapping[str, Mapping[str, str]]] = YBS_OPTION_WORDS
    state_type: ClassVar[type | None] = YbsState
    state_version: ClassVar[int] = 3
    """2: a gang fight may hold one side's dice waiting for the other side's; 3: a character
    keeps its traumas and the Kega they counted (Y-X1, Y-X2)."""
    group_titles: ClassVar[Mapping[str, str]] = {
        "character": N_("create, import and show characters"),
        "session": N_("start or end a session: 2 tokens each, then back"),
        "fight": N_("an individual fight: resolve the round's attacks, retreat, end"),
        "gang": N_("a gang fight, throw by throw, with the advisor"),
        "odds": N_("exact odds of Yuigahama Bad Seeds"),
    }

    def initial_state(self, created: Mapping[str, JSON]) -> YbsState:
        """Every token with the GM, no character (Y-M4)."""
        return initial_state(created)

    # -- deciding ----------------------------------------------------------------------------

    def _decided(
        self, state: YbsState, ruled: RuleDecision, actor: str | None = GM
    ) -> Decision[YbsState]:
        """The plugin's decision from a rule function's: events read, applied in order."""
        events: list[Event] = []
        after = state
        for fact in ruled.facts:
            event = read_event(KINDS, fact.kind, fact.payload)
            if isinstance(event, StarAwarded):
                hero = ruled.after.characters[event.character]
                event = replace(event, boxes=box_json(hero))
            events.append(event)
            after = apply(after, event)
        return Decision(tuple(events), after, actor, "all", ruled.outcome, ruled.warnings)

    def _fighter(self, state: YbsState, named: str | None) -> str:
        """Who throws the players' dice of the gang fight: a fighter's player, or the GM.

        Raises:
            RuleError: ``named`` neither fights in it nor plays a character who does.
        """
        gang = brawls.current_gang(state)
        if named is None:
            return GM
        fighters = set(gang.fighters)
        try:
            player = player_named(state, named)
        except TableeError:
            hero = character_named(state, named)
            if hero in fighters:
                return state.owners.get(hero) or GM
        else:
            if any(state.owners.get(f) == player for f in fighters):
                return player
        raise RuleError(
            N_("{name} does not fight in this gang fight: its fighters throw (rule Y-M7)"),
            name=named,
        )

    def _rolled(self, state: YbsState, command: Command, dice: Chance) -> RuleDecision:
        match command:
            case C.Test():
                actor = character_named(state, command.character)
                faces = dice.roll(DiceRequest(D6, 1))
                return play.decide_test(
                    state,
                    character=actor,
                    trait=command.trait,
                    faces=faces,
                    second_trait=command.second_trait,
                    combine=command.combine,
                    assistants=command.assistants,
                    force=command.force,
                    purpose=command.purpose,
                    target=command.target,
                    damage=command.damage,
                    target_armed=command.armed,
                    against=command.against,
                    note=command.note,
                    trait_approved=command.trait_approved,
                )
            case C.Stubborn():
                return play.decide_reroll(state, faces=dice.roll(DiceRequest(D6, 1)))
            case B.ThrowGang():
                return self._throw(state, command, dice)
            case B.Encounter():
                return self._encounter(state, command, dice)
        raise InputError(N_("{name} is not a Yuigahama Bad Seeds command"), name=command.name)

    def _throw(self, state: YbsState, command: B.ThrowGang, dice: Chance) -> RuleDecision:
        """A gang-fight throw: both sides at once, or one side's dice (the other's to come).

        The server is asked only for the dice of the side(s) this throw is for: a player's
        throw never rolls the GM's dice, nor a GM's throw of the GM's side the players'.

        Raises:
            RuleError: a side that has already thrown this time.
            InputError: a keep for a side this throw leaves out; a fighter throwing the GM's
                side.
        """
        from tablee.systems.ybs.race import race_keeps  # the advice's tables: gang throws only

        gang = brawls.current_gang(state)
        sides = self._sides(gang, command)
        advised = race_keeps(gang.fight)
        keeps = Keeps(
            _faces_to_keep(command.keep, advised.players, "keep")
            if GangSide.PLAYERS in sides
            else (),
            _faces_to_keep(command.gm_keep, advised.gm, "gm_keep") if GangSide.GM in sides else (),
        )
        ours, theirs = dice_for_throw(gang.fight, keeps)
        faces = dice.roll(DiceRequest(D6, ours.count)) if GangSide.PLAYERS in sides else ()
        gm_faces = dice.roll(DiceRequest(B.GM_D6, theirs.count)) if GangSide.GM in sides else ()
        if len(sides) == 2:
            return brawls.decide_gang_throw(
                state, keep=keeps.players, gm_keep=keeps.gm, faces=faces, gm_faces=gm_faces
            )
        (side,) = sides
        return brawls.decide_gang_side(
            state,
            side=side.value,
            keep=keeps.of(side),
            faces=faces if side is GangSide.PLAYERS else gm_faces,
        )

    @staticmethod
    def _sides(gang: GangTable, command: B.ThrowGang) -> tuple[GangSide, ...]:
        """The side(s) a throw is for (Y-M7 steps 3-4).

        As named; else the players' for a fighter; else the side still to throw this time;
        else both.

        Raises:
            RuleError: both sides asked while one has already thrown; a side that has.
            InputError: a keep for a side left out; a fighter throwing the GM's side.
        """
        pending = None if gang.pending is None else GangSide(gang.pending.side)
        named = command.side
        if named is None:
            if command.fighter is not None:
                named = "players"
            elif pending is not None:
                named = pending.other.value
            else:
                named = "both"
        if named == "both":
            if pending is not None:
                raise RuleError(ALREADY_THROWN, side=pending.title)
            return (GangSide.PLAYERS, GangSide.GM)
        side = GangSide(named)
        if side is GangSide.GM and command.fighter is not None:
            raise InputError(
                N_("the players' fighters throw the players' side, the GM the GM's (rule Y-M7)")
            )
        left_out = command.keep if side is GangSide.GM else command.gm_keep
        if left_out is not None:
            raise InputError(
                N_("{side} throws alone: the other side keeps its dice when it throws"),
                side=side.title,
            )
        return (side,)

    def _encounter(self, state: YbsState, command: B.Encounter, dice: Chance) -> RuleDecision:
        choices = command.by_player()
        kind = decide_encounter({player_named(state, p): c for p, c in choices.items()}).kind
        faces: tuple[int, ...] = ()
        gm_faces: tuple[int, ...] = ()
        if kind == "ichika_bachika":
            faces, gm_faces = dice.roll(DiceRequest(D6, 5)), dice.roll(DiceRequest(B.GM_D6, 5))
        return brawls.decide_encounter_at_table(
            state,
            choices=choices,
            opponents=command.opponents,
            faces=faces,
            gm_faces=gm_faces,
            outnumbered=command.outnumbered,
            outgunned=command.outgunned,
        )

    def _import(self, state: YbsState, command: C.ImportCharacters) -> RuleDecision:
        """Every sheet of the text created in turn, all or none.

        The text holds Tablée's sheets or Foundry VTT actors (`foundry_actors`, Y-X7); the
        command's ``player`` plays each character whose sheet names none.
        """
        toml = JSON_TEXT.match(command.sheets) is None
        where = Message(N_("the sheets"))
        actors = None if toml else foundry_actors(command.sheets)
        read: list[tuple[dict[str, Any], tuple[TraceStep, ...]]]
        if actors is None:
            read = [(s, ()) for s in parse_sheets(command.sheets, toml=toml, where=where)]
        else:
            read = [
                sheet_from_foundry(
                    actor,
                    player=command.player,
                    where=Message(N_("{file}, character {n}"), file=where, n=number),
                )
                for number, actor in enumerate(actors, start=1)
            ]
        facts: list[Any] = []
        warnings: list[TraceStep] = []
        after = state
        for number, (sheet, notes) in enumerate(read, start=1):
            if sheet["owner"] is None and command.player is not None:
                sheet = {**sheet, "owner": command.player}
            try:
                decision = sessions.decide_create(after, **sheet)
            except TableeError as exc:
                raise type(exc)(
                    N_("{file}, character {n}: {error}"),
                    tip=exc.tip,
                    cli_tip=exc.cli_tip,
                    file=where,
                    n=number,
                    error=exc,
                ) from None
            facts += decision.facts
            warnings += [
                TraceStep(
                    N_("{name}: {warning}"),
                    {"name": sheet["name"], "warning": views.StepText(w)},
                )
                for w in (*notes, *decision.warnings)
            ]
            after = decision.after
        return RuleDecision(tuple(facts), None, tuple(warnings), after)

    def _plain(self, state: YbsState, command: YbsCommand) -> RuleDecision:
        deciders: dict[type[Command], Callable[[Any], RuleDecision]] = {
            C.Critical: lambda c: play.decide_critical(state),
            C.CriticalFailure: lambda c: play.decide_critical_failure(state),
            C.StartSession: lambda c: sessions.decide_start_session(state),
            C.EndSession: lambda c: sessions.decide_end_session(state),
            C.Invoke: lambda c: sessions.decide_invoke(
                state, character=c.character, attribute=c.attribute, note=c.note
            ),
            C.ShichiFukujin: lambda c: sessions.decide_shichi_fukujin(
                state, player=_player_of(state, c.player), proposal=c.proposal
            ),
            C.CreateCharacter: lambda c: sessions.decide_create(
                state, name=c.character, traits=c.traits(), attributes=c.attributes, owner=c.player
            ),
            C.ImportCharacters: lambda c: self._import(state, c),
            C.Damage: lambda c: sheet_changes.decide_damage(
                state, character=c.character, uchimi=c.uchimi, kega=c.kega, note=c.note
            ),
            C.Rest: lambda c: sheet_changes.decide_rest(
                state, character=c.character, minutes=c.minutes
            ),
            C.HealKega: lambda c: sheet_changes.decide_heal_kega(
                state, character=c.character, count=c.count, note=c.note
            ),
            C.ResolveRound: lambda c: play.decide_round(state),
            C.Retreat: lambda c: play.decide_retreat(state, character=c.character),
            C.EndFight: lambda c: play.decide_fight_end(state),
            C.Star: lambda c: sheet_changes.decide_star(
                state, character=c.character, trait=c.trait, limited=self.trauma_limits
            ),
            C.Transfer: lambda c: sheet_changes.decide_transfer(
                state,
                character=c.character,
                lower=c.lower,
                raise_=c.raise_,
                limited=self.trauma_limits,
            ),
            C.Trauma: lambda c: sheet_changes.decide_trauma(
                state, character=c.character, trait=c.trait, note=c.note
            ),
            C.LiftTrauma: lambda c: sheet_changes.decide_lift_trauma(
                state, character=c.character, trait=c.trait, note=c.note
            ),
            C.ChangeAttributes: lambda c: sheet_changes.decide_attributes(
                state, character=c.character, add=c.add, remove=c.remove
            ),
            B.StartGang: lambda c: brawls.decide_gang_start(
                state,
                fighters=c.fighters,
                opponents=c.opponents,
                outnumbered=c.outnumbered,
                outgunned=c.outgunned,
                winner_uchimi=c.winner_uchimi,
                loser_uchimi=c.loser_uchimi,
                draw_uchimi=c.draw_uchimi,
            ),
            B.StopGang: lambda c: brawls.decide_gang_stop(state, note=c.note),
        }
        decide = deciders.get(type(command))
        if decide is None:
            raise InputError(N_("{name} is not a Yuigahama Bad Seeds command"), name=command.name)
        return decide(command)

    def decide(self, state: YbsState, command: YbsCommand, dice: Chance) -> Decision[YbsState]:
        """Decide a YBS command; a rolled one throws its dice from ``dice`` as it needs them.

        A rolled command's first event records the exact odds shown before the roll (a test,
        a gang-fight throw, an encounter: `tablee.systems.ybs.legacy.with_odds`).
        """
        actor = GM
        if command.rolled:
            ruled = with_odds(self._rolled(state, command, dice), state, command)
        else:
            ruled = self._plain(state, command)
        if isinstance(command, B.ThrowGang):
            actor = self._fighter(state, command.fighter)
        elif ruled.facts and ruled.facts[0].actor:
            actor = ruled.facts[0].actor
        return self._decided(state, ruled, actor)

    def rules_of(self, version: str | None) -> Ybs:
        """The rules that decided events of ``version``: 2 now, 1 (or None) before Y-X8.

        Raises:
            RuleError: a version this release does not have the code of.
        """
        if version == self.rules_version:
            return self
        if version in (None, "1"):
            return YBS_1
        raise RuleError(
            N_("rules version {version!r} of {game} is unknown to this Tablée"),
            tip=N_("upgrade Tablée"),
            version=version,
            game=self.title,
        )

    def apply(self, state: YbsState, event: YbsEvent) -> YbsState:
        """The state after an event, from its recorded outcome."""
        return apply(state, event)

    def legacy_evolve(self, state: YbsState, kind: str, payload: Mapping[str, JSON]) -> YbsState:
        """The fold of Tablée 0.1.0 (every event decided again), for its logs with undos."""
        return legacy_evolve(state, kind, payload)

    def change_options(self, state: YbsState, changes: Mapping[str, str]) -> Decision[YbsState]:
        """Change the house rules from text values."""
        return self._decided(state, sessions.decide_options(state, changes))

    def redecide(self, state: YbsState, event: YbsEvent) -> Decision[YbsState]:
        """Decide an event again from its recorded inputs.

        Options are decided from their values (a house rule added since the event was
        written, absent from it, is left out while it holds its default: the table played
        without it); a version-1 star, which did not record the boxes after it, is compared
        without them, and a version-1 test, gang-fight throw or encounter, which did not
        record the odds shown, without its odds.
        """
        if isinstance(event, OptionsSet):
            decided = self.change_options(state, stored_changes({"options": event.options}))
            first = decided.events[0]
            assert isinstance(first, OptionsSet)
            defaults = YbsOptions().to_json()
            kept = {
                k: v for k, v in first.options.items() if k in event.options or v != defaults[k]
            }
            return replace(decided, events=(replace(first, options=kept),))
        if isinstance(event, GangThrown) and state.gang is not None and state.gang.pending:
            decision = self._completed(state, event)
        else:
            decision = super().redecide(state, event)
        if isinstance(event, StarAwarded) and event.boxes is None:
            first = decision.events[0]
            assert isinstance(first, StarAwarded)
            decision = replace(decision, events=(replace(first, boxes=None),))
        if isinstance(event, Tested | GangThrown | Encountered) and event.odds is None:
            first = decision.events[0]  # odds not recorded (version 1): none to compare
            decision = replace(decision, events=(replace(first, odds=None), *decision.events[1:]))  # type: ignore[type-var]
        return decision

    def _completed(self, state: YbsState, event: GangThrown) -> Decision[YbsState]:
        """A gang throw decided again when one side's dice had waited: the other side's throw.

        The stored throw holds both sides' keeps and faces; the side that waited is in the
        state, so the command that made it is the other side's, with that side's faces.
        """
        assert state.gang is not None and state.gang.pending is not None
        side = GangSide(state.gang.pending.side).other
        if side is GangSide.PLAYERS:
            command = B.ThrowGang(keep=",".join(map(str, event.keep)) or "none", side="players")
            faces = event.faces
        else:
            command = B.ThrowGang(gm_keep=",".join(map(str, event.gm_keep)) or "none", side="gm")
            faces = event.gm_faces
        source = TypedFaces(faces)
        decision = self.decide(state, command, SourceChance(source))
        source.finish()
        return decision

    # -- what people read --------------------------------------------------------------------

    def line(self, event: YbsEvent, after: YbsState | None) -> Message:
        """The log line of an event."""
        return describe(event.kind, event.payload(), after)

    def details(self, event: YbsEvent) -> tuple[Text, ...]:
        """The trace of a test's first die, resolved again from its stored faces."""
        if not isinstance(event, Tested):
            return ()
        test = YbsTest(event.value, event.force, 0, npc=event.player is None)
        try:
            result = resolve_test(test, event.faces)
        except TableeError:
            return ()
        return tuple(views.StepText(step) for step in result.trace)

    def details_after(self, event: YbsEvent, after: YbsState | None) -> tuple[Text, ...]:
        """The trace of the test so far under a test or a follow-up, from the state after it."""
        follow_up = isinstance(event, Rerolled | CriticalSucceeded | CriticalFailed)
        if after is None or after.test is None or not (follow_up or isinstance(event, Tested)):
            return self.details(event)
        p = after.test.payload
        test = YbsTest(
            int(p["value"]),
            int(p["force"]),
            after.test.tokens,
            after.options.stubborn,
            after.options.stubborn_on,
            bool(p["critical_success"]),
            bool(p["critical_failure"]),
            npc=p["player"] is None,
            gm_critical=bool(p["critical_success"]) or after.options.gm_criticals,
        )
        try:
            result = resolve_test(test, [int(f) for f in p["faces"]])
        except TableeError:
            return self.details(event)
        return tuple(views.StepText(step) for step in result.trace)

    def card(self, event: YbsEvent, after: YbsState | None) -> Card | None:
        """A test, a reroll, a gang-fight throw or an encounter's dice as a card."""
        from tablee.systems.ybs import cards  # only the web log draws cards
        from tablee.systems.ybs.brawl_events import Encountered, GangThrown
        from tablee.systems.ybs.events import Rerolled, Tested

        if isinstance(event, Tested | Rerolled | GangThrown | Encountered):
            return cards.card(event)
        return None

    def report(self, command: YbsCommand, decision: Decision[YbsState]) -> Report:
        """What a decided YBS command shows: its line, trace, warnings and the tokens."""
        after = decision.after
        if isinstance(command, C.ImportCharacters):
            return self._import_report(decision)
        event = cast(YbsEvent, decision.events[-1])
        trace: tuple[TraceStep, ...] = tuple(getattr(decision.outcome, "trace", ()))
        extra: dict[str, JSON] = {}
        advice: list[Line] = []
        if isinstance(command, FOLLOWING):
            payload = event.payload()
            faces = list(after.test.payload["faces"]) if after.test is not None else []
            critical = payload.get("critical_success") or payload.get("critical_failure")
            extra = {"faces": faces, "critical": bool(critical)}
        if isinstance(command, B.ThrowGang):
            advised = views.gang_advice(after)
            extra = {"advice": {side: views.advice_json(a) for side, a in advised.items()}}
            for side, a in advised.items():
                advice += views.advice_lines(side, a)
        lines = [
            Line(self.line(event, after), "heading"),
            *views.step_lines(trace),
            *views.box_alerts(event.payload()),
            *views.step_lines(decision.warnings, "warning"),
            Line(views.tokens_line(after)),
            *advice,
        ]
        data: dict[str, JSON] = {
            "event": event.kind,
            **event.payload(),
            **extra,
            "tokens": views.tokens_json(after),
            "trace": [],
        }
        return Report(tuple(lines), data, trace)

    def _import_report(self, decision: Decision[YbsState]) -> Report:
        names = [str(e.payload()["name"]) for e in decision.events]
        head = Message(
            N_("Characters imported ({count}): {names}"), count=len(names), names=", ".join(names)
        )
        data: dict[str, JSON] = {
            "characters": [{"name": n, **character_json(decision.after, n)} for n in names]
        }
        lines = [Line(head), *views.step_lines(decision.warnings, "warning")]
        if any(e.payload().get("moves") for e in decision.events):
            lines.append(Line(views.tokens_line(decision.after)))
        return Report(tuple(lines), data)

    def answer(self, state: YbsState | None, query: Query) -> Report:
        """Characters, tokens, the advisor, or the exact odds of a test, a straight, a fight."""
        return answers.answer(state, query)

    def odds(self, state: YbsState | None, command: YbsCommand) -> Odds | None:
        """Exact odds before rolling: a test's, a gang fight's, an encounter's."""
        return None if state is None else answers.odds_before(state, command)

    def panels(self, state: YbsState) -> tuple[Panel, ...]:
        """The session and tokens, the fights, then each character's sheet."""
        return views.panels(state)

    def summary(self, state: YbsState) -> dict[str, JSON]:
        """The characters, the tokens, the session, the gang fight and the house rules."""
        return {
            "session": {"number": state.session, "in_progress": state.in_session},
            "tokens": views.tokens_json(state),
            "characters": {n: character_json(state, n) for n in state.characters},
            "gang_fight": brawls.gang_json(state),
            "options": self.options_json(state),
        }

    def summary_lines(self, state: YbsState) -> tuple[Text, ...]:
        """Status, tokens, then each character, for ``table show``."""
        status = (
            Message(N_("session {n} in progress"), n=state.session)
            if state.in_session
            else Message(N_("no session in progress"))
        )
        lines: list[Text] = [
            Message(N_("Status: {status}"), status=status),
            views.tokens_line(state),
        ]
        for name in state.characters:
            lines += [line.text for line in views.character_lines(state, name)]
        return tuple(lines)

    def choices(self, state: YbsState, source: str) -> tuple[str, ...]:
        """The players, the characters, the traits or the gang fight's fighters."""
        if source == "players":
            return tuple(state.players)
        if source == "characters":
            return tuple(state.characters)
        if source == "traits":
            return TRAIT_IDS
        if source == "fighters":
            return () if state.gang is None else tuple(state.gang.fighters)
        raise KeyError(source)

    def who(self, state: YbsState, command: type[Command]) -> Who:
        """Who may use a command; a transfer of a trait level is the game master's.

        The house rule ``player_transfers`` opens it to the player of the character
        (Y-M9, Tablée's decision).
        """
        if command is C.Transfer and state.options.player_transfers:
            return Who.ACTOR
        return command.who

    def acting(self, state: YbsState, command: YbsCommand) -> tuple[str, ...]:
        """A follow-up's actor is the character of the test in progress."""
        if isinstance(command, C.Stubborn | C.Critical):
            return () if state.test is None else (str(state.test.payload["character"]),)
        return super().acting(state, command)

    def owner(self, state: YbsState, name: str) -> str | None:
        """The player of a character (None for a GM character), or a player's own name."""
        try:
            return player_named(state, name)
        except TableeError:
            pass
        try:
            return state.owners.get(character_named(state, name))
        except TableeError:
            return None


class _YbsRules1(Ybs):
    """Rules version 1: a star or a transfer could raise a trait a trauma limited."""

    rules_version: ClassVar[str] = "1"
    trauma_limits: ClassVar[bool] = False


YBS_1 = _YbsRules1()
"""The YBS rules of version 1, deciding again the events they decided (`Ybs.rules_of`)."""

YBS = Ybs()
"""The Yuigahama Bad Seeds plugin."""
