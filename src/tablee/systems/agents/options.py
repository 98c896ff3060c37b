"""The agents game's table options: each reading of the rulings a group may switch.

Every option's default is the reading of docs/rules/agents.md (or, where the rulings are
silent, Tablée's, written in ``docs/rules/agents.md``). Values come in as text (command line)
or stored JSON and are parsed and checked here.

Source: seed ``002_59b03dd224c3b923.txt``; rulings G-A1 to G-A3, G-A8, G-A20.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from tablee.errors import N_
from tablee.systems.agents.generator import GENERATOR_OPTION_HELP
from tablee.systems.options import HouseRules, OptionRules

__all__ = ["AGENTS_OPTION_HELP", "AGENTS_OPTION_LABELS", "AGENTS_OPTION_WORDS", "AgentsOptions"]

AGENTS_OPTION_HELP: Mapping[str, str] = {
    "reserve_cap": N_(
        "recovering reserve points (abandoning, failing on purpose): starting (never above "
        "the starting value) or none (no cap) (default starting)"
    ),
    "turn_order": N_(
        "agents in a challenge act in the order they were listed (strict) or in any order "
        "(free) (default strict)"
    ),
    **GENERATOR_OPTION_HELP,
}

AGENTS_OPTION_LABELS: Mapping[str, str] = {
    "reserve_cap": N_("Reserve points recovered"),
    "turn_order": N_("Turn order in a challenge"),
    "opposition_rows": N_("Rows of the opposition table"),
    "opposition_rounding": N_("Half a d6 in the opposition table"),
    "opposition_minimum": N_("A generated opposition score of 0"),
}
"""Each option's short label, for the house rules as players read them."""

AGENTS_OPTION_WORDS: Mapping[str, Mapping[str, str]] = {
    "reserve_cap": {"starting": N_("never above the starting value"), "none": N_("no cap")},
    "turn_order": {"strict": N_("in the order listed"), "free": N_("in any order")},
    "opposition_rows": {
        "shifted": N_("shifted (rows 1-4 at index 0 or less, 1, 2, 3)"),
        "literal": N_("as written (rows 1-4 at index 1 or less, 2, 3, 4)"),
    },
    "opposition_rounding": {"floor": N_("rounded down"), "up": N_("rounded up")},
    "opposition_minimum": {
        "zero": N_("stays 0: the challenge is won at once"),
        "one_per_agent": N_("at least 1 per agent involved"),
    },
}
"""Each choice's words, for the house rules as players read them."""

_CHOICES: Mapping[str, tuple[str, ...]] = {
    "reserve_cap": ("starting", "none"),
    "turn_order": ("strict", "free"),
    "opposition_rows": ("shifted", "literal"),
    "opposition_rounding": ("floor", "up"),
    "opposition_minimum": ("zero", "one_per_agent"),
}


_RULES = OptionRules(system="agents", choices=_CHOICES)


@dataclass(frozen=True)
class AgentsOptions(HouseRules):
    """A table's house rules for the agents game; see `AGENTS_OPTION_HELP`.

    Attributes:
        reserve_cap: ``starting`` or ``none`` (G-A8, also applied to G-M7 by Tablée).
        turn_order: ``strict`` or ``free`` (G-A20).
        opposition_rows: ``shifted`` or ``literal`` (G-A1).
        opposition_rounding: ``floor`` or ``up`` (G-A3).
        opposition_minimum: ``zero`` or ``one_per_agent`` (G-A2).

    Raises:
        InputError: at construction, a value outside its choices.

    Source: seed 002; G-A1 to G-A3, G-A8, G-A20.
    """

    RULES: ClassVar[OptionRules] = _RULES

    reserve_cap: str = "starting"
    turn_order: str = "strict"
    opposition_rows: str = "shifted"
    opposition_rounding: str = "floor"
    opposition_minimum: str = "zero"

    def __post_init__(self) -> None:
        self.check_values()
