"""Each side of a gang fight throws its own dice, in either order, and nothing is rolled unasked.

Both sides throw at once (seed 004, "Chaque partie lance ses dés simultanément"; Y-M7 steps
3-4). At a table where a player enters the players' dice and the game master the GM's, the
first side's dice wait (``ybs.gang_side``) until the other side has thrown; the throw is then
the same as if both had been entered together, whichever side threw first. A side's throw asks
the dice source only for that side's dice.

Source: seed 004; rulings Y-M7, Y-A13, Y-A14.
"""

from __future__ import annotations

from typing import Any

import pytest

from tablee.dice import D6, DiceRequest, SourceChance, TypedFaces
from tablee.errors import InputError, RuleError
from tablee.systems.declare import build_command
from tablee.systems.ybs import brawl_commands as B
from tablee.systems.ybs.plugin import YBS
from tests.systems.ybs.test_plugin import SESSION, play, table


class Asked(SourceChance):
    """A chance that records which dice it was asked for."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.source = TypedFaces(faces)
        super().__init__(self.source)
        self.asked: list[tuple[str, int]] = []

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        self.asked.append((request.die.name, request.count))
        return super().roll(request)


def fight() -> Any:
    state = table()
    for command, given, faces in SESSION[:3]:  # two players' characters and a GM character
        state = play(state, command, given, faces).after
    given = {"fighters": ["Aki"], "opponents": ["Thug"]}
    return play(state, B.StartGang, given, ()).after


def throw(state: Any, given: dict[str, Any], faces: tuple[int, ...]) -> tuple[Any, Asked]:
    chance = Asked(faces)
    decision = YBS.decide(state, build_command(B.ThrowGang, given), chance)
    chance.source.finish()
    return decision, chance


PLAYERS = (1, 1, 2, 5, 6)
GM = (2, 2, 3, 5, 5)


def test_both_orders_give_the_throw_made_at_once() -> None:
    state = fight()
    together, _ = throw(state, {}, PLAYERS + GM)
    first, asked = throw(state, {"fighter": "A"}, PLAYERS)
    assert asked.asked == [("d6", 5)]  # the players' dice only: the GM's are not rolled
    assert first.events[0].kind == "ybs.gang_side" and first.actor == "A"
    assert first.after.gang.fight.throws == 0  # nothing resolved yet
    second, asked = throw(first.after, {"side": "gm"}, GM)
    assert asked.asked == [("gm", 5)]
    gm_first, _ = throw(state, {"side": "gm"}, GM)
    players_second, _ = throw(gm_first.after, {"fighter": "A"}, PLAYERS)
    for done in (second, players_second):
        assert done.events[0].kind == "ybs.gang_throw"
        made = {k: v for k, v in done.events[0].payload().items() if k != "odds"}
        assert made == {k: v for k, v in together.events[0].payload().items() if k != "odds"}
        assert done.after.gang == together.after.gang and done.after.gang.pending is None


def test_the_side_left_to_throw_is_the_default_and_a_side_throws_once() -> None:
    state = throw(fight(), {"fighter": "A"}, PLAYERS)[0].after
    with pytest.raises(RuleError, match="the players' side has already thrown"):
        throw(state, {"fighter": "A"}, PLAYERS)
    with pytest.raises(RuleError, match="already thrown"):
        throw(state, {"side": "both"}, PLAYERS + GM)
    done, asked = throw(state, {}, GM)  # the game master, no side named: the side left
    assert asked.asked == [("gm", 5)] and done.events[0].kind == "ybs.gang_throw"


def test_keeps_go_with_their_own_side() -> None:
    state = throw(fight(), {}, PLAYERS + GM)[0].after
    with pytest.raises(InputError, match="throws alone"):
        throw(state, {"side": "gm", "keep": "1,2,5,6"}, (3,))
    with pytest.raises(InputError, match="throws alone"):
        throw(state, {"fighter": "A", "gm_keep": "2,3,5"}, (3,))
    with pytest.raises(InputError, match="GM the GM's"):
        throw(state, {"fighter": "A", "side": "gm"}, (3,))
    first, asked = throw(state, {"fighter": "A", "keep": "1,2,5,6"}, (3,))
    assert asked.asked == [("d6", 1)]
    second, _ = throw(first.after, {"side": "gm", "gm_keep": "2,3,5"}, (4, 6))
    payload = second.events[0].payload()
    assert payload["keep"] == [1, 2, 5, 6] and payload["gm_keep"] == [2, 3, 5]
    assert payload["hand"] == [1, 2, 3, 5, 6] and payload["gm_hand"] == [2, 3, 4, 5, 6]
    assert payload["winner"] == "gm"  # 2-3-4-5-6 holds a straight, 1-2-3-5-6 does not


def test_each_event_verifies_and_the_fold_follows_it() -> None:
    state = fight()
    for given, faces in (({"side": "gm"}, GM), ({"fighter": "A"}, PLAYERS)):
        decision, _ = throw(state, given, faces)
        for event in decision.events:
            after, changed = YBS.verify(state, event.kind, event.payload(), "1")
            assert changed is None
            assert after == decision.after == YBS.evolve(state, event.kind, event.payload())
            state = after
    assert state.gang.fight.throws == 1 and state.gang.pending is None


def test_a_wrong_count_or_face_for_one_side_is_refused() -> None:
    state = fight()
    with pytest.raises(InputError, match="5 faces needed, 4 typed in"):
        throw(state, {"fighter": "A"}, (1, 2, 3, 4))
    with pytest.raises(InputError, match="is not a face of a d6"):
        throw(state, {"side": "gm"}, (1, 2, 3, 4, 7))
    assert D6.faces == B.GM_D6.faces
