"""The table options of Yuigahama Bad Seeds: each reading of the rulings as a named house rule.

Every option's default is the reading adopted in docs/rules/ybs.md; a group may switch it.
Values come in as text (command line, file) or as stored JSON and are parsed and checked here.

Source: seed 004 ("Les tests", "Les jetons Unmei", "Les règles de combat", "Les combats de
bande", "Ichika Bachika"); rulings Y-A3, Y-A8, Y-A11, Y-A12, Y-A13, Y-A16, Y-M9, Y-X6.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from tablee.errors import N_
from tablee.systems.options import HouseRules, OptionRules

__all__ = ["YBS_OPTION_HELP", "YbsOptions"]

YBS_OPTION_HELP: Mapping[str, str] = {
    "stubborn": N_(
        "s'entêter: repeat (a reroll for 1 token as often as tokens last) or once (at most "
        "one reroll per test) (default repeat)"
    ),
    "stubborn_on": N_(
        "when a player may s'entêter: any (after any natural 1 to 5) or one (only after a "
        "natural 1, the text's step 4 routing) (default any)"
    ),
    "critical_boxes": N_("boxes marked by an attacker's critical success, 1 to 6 (default 2)"),
    "mixed_disadvantages": N_(
        "a gang fight where each side has one disadvantage: cancel (5 dice each) or both_lose "
        "(4 dice each) (default cancel)"
    ),
    "higher_straight_wins": N_(
        "two straights on the same gang-fight throw: the higher one wins (true) or every "
        "such throw is a draw (false) (default true)"
    ),
    "ichika_tie": N_(
        "Ichika Bachika with equal Zorome: draw (2 Uchimi to everyone) or reroll (default draw)"
    ),
    "token_supply": N_(
        "Unmei tokens in the GM's bag, 7 to 1000: every token is with a player or the GM "
        "(default 100)"
    ),
    "player_transfers": N_(
        "a player may transfer a trait level of their own character (true) or only the GM "
        "may (false) (default false)"
    ),
    "gm_criticals": N_(
        "a GM character may turn a natural 6 into a critical success with a token of the "
        "GM's bag (true) or never (false) (default false)"
    ),
}

YBS_OPTION_LABELS: Mapping[str, str] = {
    "stubborn": N_("S'entêter"),
    "stubborn_on": N_("S'entêter after"),
    "critical_boxes": N_("Boxes marked by a critical attack"),
    "mixed_disadvantages": N_("One disadvantage on each side of a gang fight"),
    "higher_straight_wins": N_("Of two straights on one throw, the higher wins"),
    "ichika_tie": N_("Ichika Bachika with equal Zorome"),
    "token_supply": N_("Unmei tokens in play"),
    "player_transfers": N_("Players transfer their own trait levels"),
    "gm_criticals": N_("GM characters' critical successes, paid from the GM's bag"),
}
"""Each option's short label, for the house rules as players read them."""

YBS_OPTION_WORDS: Mapping[str, Mapping[str, str]] = {
    "stubborn": {"repeat": N_("as often as tokens last"), "once": N_("once per test")},
    "stubborn_on": {"any": N_("any natural 1 to 5"), "one": N_("a natural 1 only")},
    "mixed_disadvantages": {
        "cancel": N_("they cancel out (5 dice each)"),
        "both_lose": N_("both lose a die (4 dice each)"),
    },
    "ichika_tie": {"draw": N_("a draw"), "reroll": N_("thrown again")},
}
"""Each choice's words, for the house rules as players read them."""

_CHOICES: Mapping[str, tuple[str, ...]] = {
    "stubborn": ("repeat", "once"),
    "stubborn_on": ("any", "one"),
    "mixed_disadvantages": ("cancel", "both_lose"),
    "ichika_tie": ("draw", "reroll"),
}
_RANGES: Mapping[str, tuple[int, int]] = {"critical_boxes": (1, 6), "token_supply": (7, 1000)}


_RULES = OptionRules(system="YBS", choices=_CHOICES, ranges=_RANGES)


@dataclass(frozen=True)
class YbsOptions(HouseRules):
    """A table's YBS house rules; see `YBS_OPTION_HELP` for each one's meaning and ruling.

    Attributes:
        stubborn: ``repeat`` or ``once`` (Y-A3).
        stubborn_on: ``any`` or ``one`` (Y-A3).
        critical_boxes: boxes of a critical attack, 1 to 6 (Y-A11).
        mixed_disadvantages: ``cancel`` or ``both_lose`` (Y-A12).
        higher_straight_wins: simultaneous straights go to the higher one (Y-A13).
        ichika_tie: ``draw`` or ``reroll`` (Y-A16).
        token_supply: tokens at the table, 7 to 1000 (Y-M4).
        player_transfers: a player may transfer a level of their own character's traits;
            by default only the game master does (Y-M9, Tablée's decision).
        gm_criticals: a GM character may buy a critical success with a token of the GM's
            bag, so it may also cancel a critical attack; by default it holds no token and
            cannot (Y-A8, Y-X6).

    Raises:
        InputError: at construction, a value outside its choices or range.

    Source: seed 004; Y-A3, Y-A8, Y-A11, Y-A12, Y-A13, Y-A16, Y-M4, Y-M9, Y-X6.
    """

    RULES: ClassVar[OptionRules] = _RULES

    stubborn: str = "repeat"
    stubborn_on: str = "any"
    critical_boxes: int = 2
    mixed_disadvantages: str = "cancel"
    higher_straight_wins: bool = True
    ichika_tie: str = "draw"
    token_supply: int = 100
    player_transfers: bool = False
    gm_criticals: bool = False

    def __post_init__(self) -> None:
        self.check_values(("higher_straight_wins", "player_transfers", "gm_criticals"))
