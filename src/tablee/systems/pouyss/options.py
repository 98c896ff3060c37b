"""The table options of Pouyss: every interpretation of the rulings, as a named house rule.

Each option's default is the reading adopted in docs/rules/; a group may switch it when it
creates the table or later. Values come in as text (from the command line or a file) and are
parsed and checked here.

Source: rulings P-A2, P-A6, P-A7, P-A8, P-A9, P-A10, P-M5.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from tablee.errors import N_
from tablee.systems.options import HouseRules, OptionRules, option_text

__all__ = ["OPTION_HELP", "PouyssOptions", "option_text"]

OPTION_HELP: Mapping[str, str] = {
    "bonus_cap": N_("most bonus dice on one roll, or 'none' (default none)"),
    "bonus_dice_return": N_(
        "bonus dice go back to the cagnotte after the roll (default false: they are spent)"
    ),
    "reward_soft_limit": N_("role-play reward dice before a warning (default 4)"),
    "reward_limit_scope": N_("what the reward limit counts: session or campaign (default session)"),
    "double_bonus_soft_limit": N_(
        "exceptional double bonuses per session before a warning (default 1)"
    ),
    "penalty_floor": N_("a penalty larger than the cagnotte: clamp to 0 or refuse (default clamp)"),
    "opposed_accounting": N_(
        "who pays the cagnotte in opposed rolls: roll (dice on the roll) "
        "or sides (each side its own bonus) (default roll)"
    ),
    "success_threshold": N_("lowest value that counts as a success, 1 to 6 (default 4)"),
    "carry_over": N_("a new session keeps the cagnotte of the last one (default false)"),
}

OPTION_LABELS: Mapping[str, str] = {
    "bonus_cap": N_("Bonus dice per roll"),
    "bonus_dice_return": N_("Bonus dice go back to the cagnotte"),
    "reward_soft_limit": N_("Reward dice before a warning"),
    "reward_limit_scope": N_("Reward dice counted per"),
    "double_bonus_soft_limit": N_("Double bonuses per session before a warning"),
    "penalty_floor": N_("A penalty larger than the cagnotte"),
    "opposed_accounting": N_("Who pays the cagnotte in opposed rolls"),
    "success_threshold": N_("Lowest successful value"),
    "carry_over": N_("A new session keeps the cagnotte"),
}
"""Each option's short label, for the house rules as players read them."""

OPTION_WORDS: Mapping[str, Mapping[str, str]] = {
    "reward_limit_scope": {"session": N_("session"), "campaign": N_("campaign")},
    "penalty_floor": {"clamp": N_("the cagnotte stops at 0"), "refuse": N_("refused")},
    "opposed_accounting": {"roll": N_("the roll"), "sides": N_("each side its own bonus")},
}
"""Each choice's words, for the house rules as players read them."""

_CHOICES: Mapping[str, tuple[str, ...]] = {
    "reward_limit_scope": ("session", "campaign"),
    "penalty_floor": ("clamp", "refuse"),
    "opposed_accounting": ("roll", "sides"),
}


_RULES = OptionRules(
    system="Pouyss",
    choices=_CHOICES,
    ranges={"success_threshold": (1, 6)},
    nullable=frozenset({"bonus_cap"}),
)


@dataclass(frozen=True)
class PouyssOptions(HouseRules):
    """A table's Pouyss house rules; see `OPTION_HELP` for each one's meaning and ruling."""

    RULES: ClassVar[OptionRules] = _RULES

    bonus_cap: int | None = None
    bonus_dice_return: bool = False
    reward_soft_limit: int = 4
    reward_limit_scope: str = "session"
    double_bonus_soft_limit: int = 1
    penalty_floor: str = "clamp"
    opposed_accounting: str = "roll"
    success_threshold: int = 4
    carry_over: bool = False
