"""A Pouyss roll of version 1 (odds not recorded) still verifies; recorded odds are compared.

Source: architecture.md "A history that survives upgrades"; rulings P-M1, P-A10.
"""

from __future__ import annotations

from tablee.dice import SeededSource, SourceChance
from tablee.systems import system_named
from tablee.systems.pouyss.commands import Opposed, Roll, StartSession
from tablee.systems.pouyss.events import OpposedRolled, Rolled


def test_a_version_1_roll_verifies_and_recorded_odds_are_compared() -> None:
    game = system_named("pouyss")
    state = game.initial_state({"players": ["Ana", "Bo"], "options": {}})
    state = game.decide(state, StartSession(), SourceChance(SeededSource(1))).after
    commands = [Roll(player="Ana", bonus=1), Opposed(active="Ana", passive="Bo", active_bonus=1)]
    for command, cls in zip(commands, (Rolled, OpposedRolled), strict=True):
        payload = game.decide(state, command, SourceChance(SeededSource(2))).events[0].payload()
        assert payload["odds"] is not None
        old = cls.upgrade({k: v for k, v in payload.items() if k != "odds"}, 1)
        assert old["odds"] is None
        assert game.verify(state, cls.kind, old, "1")[1] is None
        assert game.verify(state, cls.kind, payload, "1")[1] is None
        edited = {**payload, "odds": {**payload["odds"], "success": "1/1"}}
        changed = game.verify(state, cls.kind, edited, "1")[1]
        assert changed is not None and changed["odds"] == payload["odds"]
