"""Système Pouyss: d6 pools with bonus and malus dice, the cagnotte, opposed rolls.

The game's plugin is `POUYSS` (`tablee.systems.pouyss.plugin`); its commands are declared in
`tablee.systems.pouyss.commands`, its events in `tablee.systems.pouyss.events`.

Source: seed ``000_8a9a83d9d589b10a.txt``; docs/rules/pouyss.md (P-M1 to P-M9, P-A1 to P-A13).
"""

from __future__ import annotations

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
from tablee.systems.pouyss.levels import Level, level_of, mirror
from tablee.systems.pouyss.odds import (
    action_distribution,
    opposed_distribution,
    passive_distribution,
)
from tablee.systems.pouyss.options import OPTION_HELP, PouyssOptions, option_text
from tablee.systems.pouyss.state import Character, PouyssState, initial_state

__all__ = [
    "ACTION",
    "MAX_DICE",
    "OPPOSED",
    "OPTION_HELP",
    "ActionResult",
    "ActionRoll",
    "CagnotteMove",
    "Character",
    "Level",
    "OpposedResult",
    "OpposedRoll",
    "PouyssOptions",
    "PouyssState",
    "action_distribution",
    "initial_state",
    "level_of",
    "mirror",
    "opposed_distribution",
    "option_text",
    "passive_distribution",
    "resolve_action_roll",
    "resolve_opposed_roll",
]
