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

__all__ = ["AGENTS_OPTION_HELP", "AgentsOptions"]

AGENTS_OPTION_HELP: Mapping[str, str] = {
    "reserve_cap": N_(
        "recovering reserve points (abandoning, failing on purpose): starting (never above "
        "the starting value) or none (no cap) (G-A8; default starting)"
    ),
    "turn_order": N_(
        "agents in a challenge act in the order they were listed (strict) or in any order "
        "(free) (G-A20; default strict)"
    ),
    **GENERATOR_OPTION_HELP,
}

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
