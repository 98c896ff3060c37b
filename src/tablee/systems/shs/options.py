"""The table options of Space Horror Stories: each reading of the rulings as a named house rule.

Every option's default is the reading adopted in docs/rules/shs.md; a group may switch it.
Values come in as text (command line, file) or as stored JSON and are parsed and checked here.

Source: seed 003 ("Dés d'Action", "Options", "Actions simultanées", "Coopération"); rulings
S-A1, S-A3, S-A5, S-A7, S-A13, S-A14, S-M7.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from tablee.errors import N_
from tablee.systems.options import HouseRules, OptionRules

__all__ = ["SHS_OPTION_HELP", "ShsOptions"]

SHS_OPTION_HELP: Mapping[str, str] = {
    "action_dice": N_("action dice thrown for every Action, 1 to 10 (default 3)"),
    "negative_ps": N_(
        "a total below 0 PS: signed (kept as is) or zero (counted as 0, also when "
        "comparing two Protagonistes) (default signed)"
    ),
    "opposed_tie": N_(
        "a tie between two Protagonistes: status_quo (the side seeking change fails) "
        "or reroll (default status_quo)"
    ),
    "option_bonus": N_(
        "the 2 D+/- of Se Surpasser or Se Sacrifier: net (a Bonus 2 netted with the other "
        "modifiers) or apart (rolled on their own, '+' counted) (default net)"
    ),
    "dpm_cap": N_("most D+/- dice rolled for the net modifier, or 'none' (default none)"),
    "trivial_actions_count": N_(
        "trivial Actions count towards the simultaneous-actions malus (default true)"
    ),
    "cooperation_options": N_("cooperating Protagonistes may each use an option (default true)"),
    "opposed_modifiers": N_(
        "modifiers between two Protagonistes: apart (each side nets its own) or difference "
        "(the difference of the two net modifiers goes to one side) (default apart)"
    ),
}

SHS_OPTION_LABELS: Mapping[str, str] = {
    "action_dice": N_("Action dice per Action"),
    "negative_ps": N_("A total below 0 PS"),
    "opposed_tie": N_("A tie between two Protagonistes"),
    "option_bonus": N_("The 2 D+/- of Se Surpasser or Se Sacrifier"),
    "dpm_cap": N_("D+/- per roll"),
    "trivial_actions_count": N_("Trivial Actions count towards the simultaneous-actions malus"),
    "cooperation_options": N_("Se Surpasser or Se Sacrifier allowed when cooperating"),
    "opposed_modifiers": N_("Modifiers between two Protagonistes"),
}
"""Each option's short label, for the house rules as players read them."""

SHS_OPTION_WORDS: Mapping[str, Mapping[str, str]] = {
    "negative_ps": {"signed": N_("kept as it is"), "zero": N_("counts as 0")},
    "opposed_tie": {
        "status_quo": N_("the side seeking change fails"),
        "reroll": N_("roll again"),
    },
    "option_bonus": {
        "net": N_("netted with the other modifiers"),
        "apart": N_("rolled on their own"),
    },
    "opposed_modifiers": {
        "apart": N_("each side nets its own"),
        "difference": N_("the difference goes to one side"),
    },
}
"""Each choice's words, for the house rules as players read them."""

_CHOICES: Mapping[str, tuple[str, ...]] = {
    "negative_ps": ("signed", "zero"),
    "opposed_tie": ("status_quo", "reroll"),
    "option_bonus": ("net", "apart"),
    "opposed_modifiers": ("apart", "difference"),
}
_RANGES: Mapping[str, tuple[int, int]] = {"action_dice": (1, 10), "dpm_cap": (0, 100)}


_RULES = OptionRules(
    system="SHS", choices=_CHOICES, ranges=_RANGES, nullable=frozenset({"dpm_cap"})
)


@dataclass(frozen=True)
class ShsOptions(HouseRules):
    """A table's SHS house rules; see `SHS_OPTION_HELP` for each one's meaning and ruling.

    Attributes:
        action_dice: action dice per Action, 1 to 10 (3 by the text's examples, S-A1).
        negative_ps: ``signed`` or ``zero`` (S-A3).
        opposed_tie: ``status_quo`` or ``reroll`` (S-A5).
        option_bonus: ``net`` or ``apart`` (S-A7).
        dpm_cap: most D+/- dice for the net modifier, 0 to 100, or None for no cap (S-A13).
        trivial_actions_count: trivial Actions raise the simultaneous malus (S-M7).
        cooperation_options: cooperators may use Se Surpasser / Se Sacrifier (S-A14).
        opposed_modifiers: ``apart`` or ``difference``, between two Protagonistes (S-X4).

    Raises:
        InputError: at construction, a value outside its choices or range.

    Source: seed 003; S-A1, S-A3, S-A5, S-A7, S-A13, S-A14, S-M7, S-X4.
    """

    RULES: ClassVar[OptionRules] = _RULES

    action_dice: int = 3
    negative_ps: str = "signed"
    opposed_tie: str = "status_quo"
    option_bonus: str = "net"
    dpm_cap: int | None = None
    trivial_actions_count: bool = True
    cooperation_options: bool = True
    opposed_modifiers: str = "apart"

    def __post_init__(self) -> None:
        self.check_values(("trivial_actions_count", "cooperation_options"))
