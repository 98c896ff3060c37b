"""Système Pouyss: d6 pools with bonus and malus dice, the cagnotte, opposed rolls.

Source: seed ``000_8a9a83d9d589b10a.txt``; RULINGS.md section 1 (P-M1 to P-M9, P-A1 to P-A13).
"""

from __future__ import annotations

from typing import Any

from tablee.systems.base import JSON
from tablee.systems.common import StandardSystem
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


class _Pouyss(StandardSystem):
    """Pouyss as a `tablee.systems.base.System`."""

    def summary(self, state: Any) -> dict[str, JSON]:
        """The cagnotte, the session and the house rules."""
        return {
            "cagnotte": state.cagnotte,
            "session": state.session,
            "in_session": state.in_session,
            "options": self.options_json(state),
        }


POUYSS = _Pouyss(
    id="pouyss",
    event_versions=EVENT_VERSIONS,
    option_help=OPTION_HELP,
    initial_state=initial_state,
    evolve=evolve,
    describe=describe,
    decide_options=decide_options,
)
"""The Pouyss system object registered with the table layer."""
