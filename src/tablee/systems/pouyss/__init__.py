"""Système Pouyss: d6 pools with bonus and malus dice, the cagnotte, opposed rolls.

Source: seed ``000_8a9a83d9d589b10a.txt``; RULINGS.md section 1 (P-M1 to P-M9, P-A1 to P-A13).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tablee.errors import Message
from tablee.systems.base import JSON, Fact, Upcaster
from tablee.systems.pouyss.actions import (
    ACTION,
    MAX_DICE,
    OPPOSED,
    ActionResult,
    ActionRoll,
    OpposedResult,
    OpposedRoll,
    resolve_action_roll,
    resolve_opposed_roll,
)
from tablee.systems.pouyss.cagnotte import CagnotteMove
from tablee.systems.pouyss.game import (
    Character,
    Decision,
    PouyssState,
    decide_character,
    decide_end_session,
    decide_opposed,
    decide_options,
    decide_penalty,
    decide_reward,
    decide_roll,
    decide_start_session,
    initial_state,
)
from tablee.systems.pouyss.levels import Level, level_of, mirror
from tablee.systems.pouyss.log import describe
from tablee.systems.pouyss.odds import (
    action_distribution,
    opposed_distribution,
    passive_distribution,
)
from tablee.systems.pouyss.options import OPTION_HELP, PouyssOptions, option_text
from tablee.systems.pouyss.replay import EVENT_VERSIONS, evolve

__all__ = [
    "ACTION",
    "MAX_DICE",
    "OPPOSED",
    "OPTION_HELP",
    "POUYSS",
    "ActionResult",
    "ActionRoll",
    "CagnotteMove",
    "Character",
    "Decision",
    "Level",
    "OpposedResult",
    "OpposedRoll",
    "PouyssOptions",
    "PouyssState",
    "action_distribution",
    "decide_character",
    "decide_end_session",
    "decide_opposed",
    "decide_options",
    "decide_penalty",
    "decide_reward",
    "decide_roll",
    "decide_start_session",
    "evolve",
    "initial_state",
    "level_of",
    "mirror",
    "opposed_distribution",
    "option_text",
    "passive_distribution",
    "resolve_action_roll",
    "resolve_opposed_roll",
]


class _Pouyss:
    """Pouyss as a `tablee.systems.base.System`."""

    id = "pouyss"
    event_versions: Mapping[str, int] = EVENT_VERSIONS
    upcasters: Mapping[tuple[str, int], Upcaster] = {}
    option_help: Mapping[str, str] = OPTION_HELP

    def initial_state(self, created: Mapping[str, JSON]) -> Any:
        """See `initial_state`."""
        return initial_state(created)

    def evolve(self, state: Any, kind: str, payload: Mapping[str, JSON]) -> Any:
        """See `evolve`."""
        return evolve(state, kind, payload)

    def describe(self, kind: str, payload: Mapping[str, JSON], after: Any) -> Message:
        """See `tablee.systems.pouyss.log.describe`."""
        return describe(kind, payload, after)

    def options_json(self, state: Any) -> dict[str, JSON]:
        """The table's house rules (`PouyssOptions`) as JSON."""
        return dict(state.options.to_json())

    def decide_options(self, state: Any, changes: Mapping[str, str]) -> Sequence[Fact]:
        """See `decide_options`."""
        return decide_options(state, changes).facts

    def summary(self, state: Any) -> dict[str, JSON]:
        """The cagnotte, the session and the house rules."""
        return {
            "cagnotte": state.cagnotte,
            "session": state.session,
            "in_session": state.in_session,
            "options": self.options_json(state),
        }


POUYSS = _Pouyss()
"""The Pouyss system object registered with the table layer."""
