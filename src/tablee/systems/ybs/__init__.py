"""Yuigahama Bad Seeds (YBS): the pure rules core; the game's plugin is `YBS`.

One d6 plus a trait for every test, Unmei tokens moving between players and the GM, Uchimi
and Kega boxes, individual fights, gang fights, Ichika Bachika and evolution. The gang-fight
rules (`straights`, `gang`, `advisor`, `ichika`, `gang_odds`) are imported from their
modules; `brawls` plays them at a table. Every reading of the rulings that reasonable people
read otherwise is a named option of `YbsOptions`. The plugin (`tablee.systems.ybs.plugin`)
declares the commands (`commands`) and the stored events (`events`), applies recorded
outcomes (`apply`) and keeps the 0.1.0 fold for old logs (`legacy`).

Tablée's decisions where the rulings are silent (see docs/rules/ybs.md):

* The GM's bag holds ``token_supply`` tokens (default 100), so every token is with a player
  or the GM; a gift from an empty bag is refused.
* Session start also takes back any leftover token before giving 2 to each player.
* A test's follow-ups (reroll, critical success, critical failure) must come right after it;
  any other fact closes the test. A critical decided ends the test.
* GM characters hold no token: no forcing, no reroll, no critical success, no assistance
  given or received; the GM may still make their natural 1 a critical failure (no token).
* An assistant must be another player's character.
* A prostrate character may only test Nintai.
* Rest heals one Uchimi per full 30 minutes; the rest of a half-hour heals nothing.
* Marks that no longer fit after Choushi drops overflow like damage (Kega first), so losing
  boxes never heals.
* The fifth star that would make a third +2 trait is refused (the stars before it warn);
  stars on a +2 trait are lost (Y-X5).
* One set of 3 Kega brings one trait's trauma; the GM may lift a trauma, which gives the
  trait back the levels it took (Y-X1, Y-X2).
* A fight test uses its own trait unless the GM approves another (Y-X3); a prostrate
  character fights in no gang fight (Y-X4); with the house rule ``gm_criticals`` a GM
  character's critical success is paid from the GM's bag (Y-X6).
* Actors of the Foundry VTT fan system import as sheets (Y-X7, `foundry`).
* A third +2 trait is refused at creation too (Y-M9), the spread itself only warned (Y-A21).
* Individual fights: a fighter attacks at most once and defends at most once per round; a
  retreated character neither tests nor is attacked in that fight; damage is marked when the
  GM resolves the round.
* Gang fights: one at a time at a table (an encounter waits for it too); both sides keep the
  advisor's choice unless told otherwise; the GM may stop one without damage; the GM's named
  characters take the GM side's damage, an unnamed gang needs no sheet.

Source: seed ``004_006c51d6660c4319.txt``; docs/rules/ybs.md (Y-M1 to Y-M9, Y-N1 to
Y-N6, Y-A1 to Y-A22, Y-T1 to Y-T12, Y-X1 to Y-X7).
"""

from __future__ import annotations

from tablee.systems.ybs.brawls import (
    GangTable,
    decide_encounter_at_table,
    decide_gang_side,
    decide_gang_start,
    decide_gang_stop,
    decide_gang_throw,
    gang_json,
    side_named,
)
from tablee.systems.ybs.character import (
    DEFAULT_SPREAD,
    MAX_STARS,
    MAX_TRAIT,
    MIN_TRAIT,
    Character,
    Trait,
    check_trait_value,
    create_character,
    hit_points,
    parse_sheets,
    sheet_from_mapping,
    spread_warnings,
    trait_named,
)
from tablee.systems.ybs.damage import (
    MINUTES_PER_UCHIMI,
    Boxes,
    heal_kega,
    refit,
    rest,
    rest_minutes,
    take_damage,
)
from tablee.systems.ybs.evolution import (
    MAX_AT_TWO,
    TRAUMA_KEGA,
    StarOutcome,
    award_star,
    check_plus_two,
    lift_trauma,
    set_trait,
    transfer,
    trauma,
)
from tablee.systems.ybs.fights import (
    DamageKind,
    Declaration,
    Defence,
    attack_damage,
    gate_reasons,
)
from tablee.systems.ybs.log import describe, moves_message, moves_text
from tablee.systems.ybs.odds import MAX_ODDS_TOKENS, POLICIES, TestOdds, odds_of_test
from tablee.systems.ybs.options import YBS_OPTION_HELP, YbsOptions
from tablee.systems.ybs.play import (
    PURPOSES,
    decide_critical,
    decide_critical_failure,
    decide_fight_end,
    decide_reroll,
    decide_retreat,
    decide_round,
    decide_test,
    plan_tokens,
)
from tablee.systems.ybs.rolls import (
    MAX_FORCE,
    SUCCESS_AT,
    TEST,
    Combine,
    TestMechanic,
    TestResult,
    YbsTest,
    combined_trait,
    critical_refusal,
    dice_for_reroll,
    play_test,
    reroll_refusal,
    resolve_test,
    throw_test,
)
from tablee.systems.ybs.sessions import (
    decide_create,
    decide_end_session,
    decide_invoke,
    decide_options,
    decide_shichi_fukujin,
    decide_start_session,
)
from tablee.systems.ybs.sheet_changes import (
    decide_attributes,
    decide_damage,
    decide_heal_kega,
    decide_lift_trauma,
    decide_rest,
    decide_star,
    decide_transfer,
    decide_trauma,
)
from tablee.systems.ybs.state import (
    MAX_CHARACTERS,
    MAX_PLAYERS,
    Decision,
    FightRound,
    OpenTest,
    YbsState,
    box_json,
    character_json,
    character_named,
    initial_state,
    player_named,
)
from tablee.systems.ybs.unmei import (
    GM,
    SESSION_TOKENS,
    SHICHI_FUKUJIN,
    Ledger,
    TokenMove,
    end_session_moves,
    moves_json,
    reason_text,
    start_session_moves,
)

__all__ = [
    "DEFAULT_SPREAD",
    "GM",
    "MAX_AT_TWO",
    "MAX_CHARACTERS",
    "MAX_FORCE",
    "MAX_ODDS_TOKENS",
    "MAX_PLAYERS",
    "MAX_STARS",
    "MAX_TRAIT",
    "MINUTES_PER_UCHIMI",
    "MIN_TRAIT",
    "POLICIES",
    "PURPOSES",
    "SESSION_TOKENS",
    "SHICHI_FUKUJIN",
    "SUCCESS_AT",
    "TEST",
    "TRAUMA_KEGA",
    "YBS",
    "YBS_OPTION_HELP",
    "Boxes",
    "Character",
    "Combine",
    "DamageKind",
    "Decision",
    "Declaration",
    "Defence",
    "FightRound",
    "GangTable",
    "Ledger",
    "OpenTest",
    "StarOutcome",
    "TestMechanic",
    "TestOdds",
    "TestResult",
    "TokenMove",
    "Trait",
    "YbsOptions",
    "YbsState",
    "YbsTest",
    "attack_damage",
    "award_star",
    "box_json",
    "character_json",
    "character_named",
    "check_plus_two",
    "check_trait_value",
    "combined_trait",
    "create_character",
    "critical_refusal",
    "decide_attributes",
    "decide_create",
    "decide_critical",
    "decide_critical_failure",
    "decide_damage",
    "decide_encounter_at_table",
    "decide_end_session",
    "decide_fight_end",
    "decide_gang_side",
    "decide_gang_start",
    "decide_gang_stop",
    "decide_gang_throw",
    "decide_heal_kega",
    "decide_invoke",
    "decide_lift_trauma",
    "decide_options",
    "decide_reroll",
    "decide_rest",
    "decide_retreat",
    "decide_round",
    "decide_shichi_fukujin",
    "decide_star",
    "decide_start_session",
    "decide_test",
    "decide_transfer",
    "decide_trauma",
    "describe",
    "dice_for_reroll",
    "end_session_moves",
    "gang_json",
    "gate_reasons",
    "heal_kega",
    "hit_points",
    "initial_state",
    "lift_trauma",
    "moves_json",
    "moves_message",
    "moves_text",
    "odds_of_test",
    "parse_sheets",
    "plan_tokens",
    "play_test",
    "player_named",
    "reason_text",
    "refit",
    "reroll_refusal",
    "resolve_test",
    "rest",
    "rest_minutes",
    "set_trait",
    "sheet_from_mapping",
    "side_named",
    "spread_warnings",
    "start_session_moves",
    "take_damage",
    "throw_test",
    "trait_named",
    "transfer",
    "trauma",
]


def __getattr__(name: str) -> object:
    """`YBS`, the plugin, imported on first use (it imports this package's modules)."""
    if name == "YBS":
        from tablee.systems.ybs.plugin import YBS

        return YBS
    raise AttributeError(name)
