"""The YBS plugin: every command decided from its declaration, every event verified again.

A session touching every event kind is played through `YBS.decide` with typed-in faces;
each event it makes is then decided again by the verifier from its own inputs (`inputs()`)
and must give the same payload, and the state reached must be the fold of the events.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tablee.dice import SourceChance, TypedFaces
from tablee.errors import InputError, RuleError
from tablee.systems.declare import Command, build_command
from tablee.systems.plugin import Decision, first_difference
from tablee.systems.ybs import brawl_commands as B
from tablee.systems.ybs import commands as C
from tablee.systems.ybs.apply import apply
from tablee.systems.ybs.events import EVENTS
from tablee.systems.ybs.plugin import YBS
from tablee.systems.ybs.state import YbsState

SESSION: list[tuple[type[Command], dict[str, Any], tuple[int, ...]]] = [
    (C.CreateCharacter, {"character": "Aki", "choushi": "1", "kiyousa": "1", "chikaku": "-1",
                         "player": "A", "attributes": ["surfer"]}, ()),
    (C.CreateCharacter, {"character": "Bo", "nintai": "1", "player": "B"}, ()),
    (C.ImportCharacters, {"sheets": '{"name": "Thug", "traits": {"choushi": 1}, '
                          '"stars": {"chisei": 4}, "uchimi": 1}'}, ()),
    (C.StartSession, {}, ()),
    (C.Invoke, {"character": "Aki", "attribute": "SURFER", "note": "waves"}, ()),
    (C.Test, {"character": "Aki", "trait": "chisei", "assistants": ["Bo"], "force": "1"}, (1,)),
    (C.Stubborn, {}, (6,)),
    (C.Critical, {}, ()),
    (C.Test, {"character": "Bo", "trait": "yuuben"}, (1,)),
    (C.CriticalFailure, {}, ()),
    (C.Test, {"character": "Thug", "trait": "choushi", "purpose": "attack", "target": "aki"}, (5,)),
    (C.Test, {"character": "Aki", "trait": "choushi", "purpose": "defend", "against": "thug"},
     (2,)),
    (C.ResolveRound, {}, ()),
    (C.Retreat, {"character": "Bo"}, ()),
    (C.EndFight, {}, ()),
    (C.Damage, {"character": "Bo", "uchimi": "2", "kega": "3", "note": "knife"}, ()),
    (C.Trauma, {"character": "Bo", "trait": "nintai"}, ()),
    (C.Rest, {"character": "Bo", "minutes": "45"}, ()),
    (C.HealKega, {"character": "Bo", "count": "1"}, ()),
    (C.LiftTrauma, {"character": "Bo", "trait": "nintai", "note": "months later"}, ()),
    (C.Star, {"character": "Thug", "trait": "chisei"}, ()),
    (C.Transfer, {"character": "Aki", "lower": "chikaku", "raise_": "chisei"}, ()),
    (C.ChangeAttributes, {"character": "Aki", "add": ["biker"], "remove": ["surfer"]}, ()),
    (B.StartGang, {"fighters": ["Aki", "Bo"], "opponents": ["Thug"], "outnumbered": "gm"}, ()),
    (B.ThrowGang, {"fighter": "Aki"}, (1, 1, 2, 5, 6)),  # the players' side: it waits
    (B.ThrowGang, {"side": "gm"}, (1, 1, 1, 1)),  # the GM's side: the throw is made
    (B.ThrowGang, {"keep": "1,2,5,6", "gm_keep": "none"}, (3, 2, 2, 2, 2)),
    (B.StopGang, {"note": "police"}, ()),
    (B.Encounter, {"choices": ["A=gang-fight", "B=flee"], "opponents": ["Thug"]}, ()),
    (B.ThrowGang, {}, (1, 2, 3, 4, 6, 1, 1, 2, 2, 6)),
    (B.Encounter, {"choices": ["A=ichika_bachika", "B=flee"]}, (2, 2, 2, 1, 3, 1, 1, 4, 5, 6)),
    (B.Encounter, {"choices": ["A=flee", "B=flee"]}, ()),
    (C.EndSession, {}, ()),
]  # fmt: skip
"""Commands with their fields as typed and the faces they throw."""


def table() -> YbsState:
    return YBS.initial_state({"players": ["A", "B"], "options": {}})


def play(
    state: YbsState, command: type[Command], given: dict[str, Any], faces: tuple[int, ...]
) -> Decision[YbsState]:
    source = TypedFaces(faces)
    decision = YBS.decide(state, build_command(command, given), SourceChance(source))
    source.finish()
    return decision


def test_a_session_of_every_kind_is_verified_event_by_event() -> None:
    state = table()
    kinds = set()
    for command, given, faces in SESSION:
        decision = play(state, command, given, faces)
        assert decision.visibility == "all"
        after = state
        for event in decision.events:
            kinds.add(event.kind)
            redecided, changed = YBS.verify(after, event.kind, event.payload(), "1")
            assert changed is None, (event.kind, first_difference(event.payload(), changed or {}))
            after = apply(after, event)
            if len(decision.events) == 1:
                assert redecided == after
        assert after == decision.after
        state = decision.after
    assert kinds >= {cls.kind for cls in EVENTS} - {"ybs.options_set", "ybs.shichi_fukujin"}


def test_options_and_shichi_fukujin_are_verified_too() -> None:
    state = play(table(), C.CreateCharacter, {"character": "Aki", "player": "A"}, ()).after
    state = play(state, C.StartSession, {}, ()).after
    changed = YBS.change_options(state, {"token_supply": "20"})
    (event,) = changed.events
    assert YBS.verify(state, event.kind, event.payload())[1] is None
    state = play(changed.after, C.ChangeAttributes, {"character": "Aki", "add": ["x"]}, ()).after
    while state.ledger.players["A"] < 7:
        state = play(state, C.Invoke, {"character": "Aki", "attribute": "x"}, ()).after
    decision = play(state, C.ShichiFukujin, {"player": "aki", "proposal": "rain"}, ())
    (event,) = decision.events
    assert event.payload()["player"] == "A"
    assert YBS.verify(state, event.kind, event.payload())[1] is None


def test_an_edited_result_is_found_by_the_verifier() -> None:
    state = play(table(), C.CreateCharacter, {"character": "Aki", "player": "A"}, ()).after
    decision = play(state, C.Test, {"character": "Aki", "trait": "chisei"}, (5,))
    payload = {**decision.events[0].payload(), "natural": 6}
    with pytest.raises(InputError, match="faces"):
        YBS.verify(state, "ybs.test", {**payload, "faces": [5, 5]})
    assert YBS.verify(state, "ybs.test", payload)[1] is not None


def test_a_follow_up_is_taken_for_the_character_of_the_test() -> None:
    state = table()
    assert YBS.acting(state, C.Stubborn()) == ()
    for command, given, faces in SESSION[:6]:
        state = play(state, command, given, faces).after
    assert YBS.acting(state, C.Stubborn()) == ("Aki",)
    assert YBS.owner(state, "Aki") == "A"
    assert play(state, C.Stubborn, {}, (3,)).actor == "A"


def test_only_a_fighter_throws_the_players_dice() -> None:
    state = table()
    for command, given, faces in SESSION[:3]:
        state = play(state, command, given, faces).after
    state = play(state, B.StartGang, {"fighters": ["Aki"]}, ()).after
    with pytest.raises(RuleError, match="does not fight"):
        play(state, B.ThrowGang, {"fighter": "B"}, (1, 1, 2, 5, 6))
    decision = play(state, B.ThrowGang, {"fighter": "A"}, (1, 1, 2, 5, 6))  # their side alone
    assert decision.actor == "A" and decision.events[0].kind == "ybs.gang_side"


def test_keeps_name_the_field_and_the_rule() -> None:
    state = table()
    for command, given, faces in SESSION[:3]:
        state = play(state, command, given, faces).after
    state = play(state, B.StartGang, {"fighters": ["Aki"]}, ()).after
    state = play(state, B.ThrowGang, {}, (1, 1, 2, 5, 6, 1, 1, 1, 1, 2)).after
    with pytest.raises(InputError, match=r"gm_keep: face x \(the 2nd\) is not a face of a d6"):
        play(state, B.ThrowGang, {"gm_keep": "1,x"}, ())
    with pytest.raises(InputError, match=r"cannot keep \[5, 5\]"):
        play(state, B.ThrowGang, {"keep": "5,5"}, ())


def test_the_state_is_stored_as_a_snapshot_and_read_back_equal() -> None:
    state = table()
    assert YBS.snapshot_format() is not None
    for command, given, faces in SESSION:
        state = play(state, command, given, faces).after
        data = json.loads(json.dumps(YBS.encode_state(state)))
        assert YBS.decode_state(data) == state, command.name


def test_a_follow_up_shows_the_trace_of_the_whole_test() -> None:
    state = table()
    for command, given, faces in SESSION[:6]:
        state = play(state, command, given, faces).after
    decision = play(state, C.Stubborn, {}, (6,))
    (event,) = decision.events
    assert YBS.details(event) == ()  # alone, a reroll does not say its trait
    lines = [str(line) for line in YBS.details_after(event, decision.after)]
    assert lines[-2:] == ["s'entêter: 1 token, reroll 1", "natural 6: always a success"]
    assert "destiny forced with 1 token(s): +1" in lines
