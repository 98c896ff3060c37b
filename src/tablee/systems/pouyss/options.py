"""The table options of Pouyss: every interpretation of the rulings, as a named house rule.

Each option's default is the reading adopted in RULINGS.md; a group may switch it when it
creates the table or later. Values come in as text (from the command line or a file) and are
parsed and checked here.

Source: rulings P-A2, P-A6, P-A7, P-A8, P-A9, P-A10, P-M5.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from tablee.errors import N_
from tablee.systems.base import JSON
from tablee.systems.options import OptionRules, option_text, with_changes

__all__ = ["OPTION_HELP", "PouyssOptions", "option_text"]

OPTION_HELP: Mapping[str, str] = {
    "bonus_cap": N_("most bonus dice on one roll, or 'none' (P-A6; default none)"),
    "bonus_dice_return": N_(
        "bonus dice go back to the cagnotte after the roll (P-A2; default false: they are spent)"
    ),
    "reward_soft_limit": N_("role-play reward dice before a warning (P-A7; default 4)"),
    "reward_limit_scope": N_(
        "what the reward limit counts: session or campaign (P-A7; default session)"
    ),
    "double_bonus_soft_limit": N_(
        "exceptional double bonuses per session before a warning (P-M3, P-A7; default 1)"
    ),
    "penalty_floor": N_(
        "a penalty larger than the cagnotte: clamp to 0 or refuse (P-A8; default clamp)"
    ),
    "opposed_accounting": N_(
        "who pays the cagnotte in opposed rolls: roll (dice on the roll) "
        "or sides (each side its own bonus) (P-A9; default roll)"
    ),
    "success_threshold": N_("lowest value that counts as a success, 1 to 6 (P-A10; default 4)"),
    "carry_over": N_("a new session keeps the cagnotte of the last one (P-M5; default false)"),
}

_CHOICES: Mapping[str, tuple[str, ...]] = {
    "reward_limit_scope": ("session", "campaign"),
    "penalty_floor": ("clamp", "refuse"),
    "opposed_accounting": ("roll", "sides"),
}


@dataclass(frozen=True)
class PouyssOptions:
    """A table's Pouyss house rules; see `OPTION_HELP` for each one's meaning and ruling."""

    bonus_cap: int | None = None
    bonus_dice_return: bool = False
    reward_soft_limit: int = 4
    reward_limit_scope: str = "session"
    double_bonus_soft_limit: int = 1
    penalty_floor: str = "clamp"
    opposed_accounting: str = "roll"
    success_threshold: int = 4
    carry_over: bool = False

    def to_json(self) -> dict[str, JSON]:
        """The options as a JSON object (stored in events)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> PouyssOptions:
        """Options from stored JSON, checked like text input.

        Raises:
            InputError: an unknown option or a bad value.
        """
        return with_changes(cls(), data, _RULES)

    def with_changes(self, changes: Mapping[str, str]) -> PouyssOptions:
        """These options with some changed from text values (``"3"``, ``"true"``, ``"none"``).

        Raises:
            InputError: an unknown option name or a value that does not fit it, naming both.
        """
        return with_changes(self, changes, _RULES)


_RULES = OptionRules(
    system="Pouyss",
    choices=_CHOICES,
    ranges={"success_threshold": (1, 6)},
    nullable=frozenset({"bonus_cap"}),
)
