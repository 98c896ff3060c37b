"""The agents game's table options: each reading of the rulings a group may switch.

Every option's default is the reading of RULINGS.md section 2 (or, where the rulings are
silent, Tablée's, written in ``docs/rules/agents.md``). Values come in as text (command line)
or stored JSON and are parsed and checked here.

Source: seed ``002_59b03dd224c3b923.txt``; rulings G-A1 to G-A3, G-A8, G-A20.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from tablee.errors import N_
from tablee.systems.agents.generator import GENERATOR_OPTION_HELP
from tablee.systems.base import JSON
from tablee.systems.options import OptionRules, bad_option, with_changes

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


@dataclass(frozen=True)
class AgentsOptions:
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

    reserve_cap: str = "starting"
    turn_order: str = "strict"
    opposition_rows: str = "shifted"
    opposition_rounding: str = "floor"
    opposition_minimum: str = "zero"

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            if getattr(self, name) not in choices:
                raise bad_option(name, getattr(self, name), " | ".join(choices))

    def to_json(self) -> dict[str, JSON]:
        """The options as a JSON object (for storing)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> AgentsOptions:
        """Options from stored JSON, checked like text input.

        Raises:
            InputError: an unknown option or a bad value.
        """
        return with_changes(cls(), data, _RULES)

    def with_changes(self, changes: Mapping[str, str]) -> AgentsOptions:
        """These options with some changed from text values.

        Raises:
            InputError: an unknown option name or a value that does not fit it, naming both.
        """
        return with_changes(self, changes, _RULES)


_RULES = OptionRules(system="agents", choices=_CHOICES)
