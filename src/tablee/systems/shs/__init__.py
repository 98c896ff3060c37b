"""Space Horror Stories (SHS): the pure rules core.

Three action dice (D8, D10 with a matching Expertise) against a threshold, D+/- dice for the
net modifier, Se Surpasser and Se Sacrifier, cooperation, simultaneous Actions, Protagoniste
against Protagoniste, the Protagonistes' traits and counters, and the film's clock. Every
reading of the rulings is a named option of `ShsOptions`, defaulting to the ruling.

Tablée's decisions where the rulings are silent:

* A Test's inputs hold the sums of bonuses and of maluses apart (each 0 to 50); an option's
  Bonus 2 is added by the rules, not by the caller. Rolled D+/- faces are ordered: the
  option's own dice first (``option_bonus = apart``), then the net modifier's.
* ``dpm_cap`` (S-A13) limits the net modifier's dice only, never an option's own two.
* Opposed Actions: each side keeps its own bonuses and maluses; nothing is netted across
  sides. The inputs say which side seeks change (or none) to settle ties (S-A5).
* Simultaneous Actions take the Malus on opposed rolls as on Tests; the option check (one
  per set) reports the second Action that uses one. A set holds at most one opposed
  Action, numbered after its Tests; only the acting side takes the set's Malus (S-X5).
* Cooperation needs 2 or more Tests with the same Difficulty.
* Santé at 0 does not kill by itself (no rule); counters changed by a delta stop at their
  bounds (Santé 0..max, Protection, Air and NT 0..10 000); set by hand they are checked.
* Clock: Tours and game time are separate counters (a Tour adds no game time); a modifier
  lasting n Tours covers the rest of the current Tour and the n next; one lasting a game
  time ends once that much time is advanced; both survive a change of Scène. A long Action
  starts in the current Tour and is due in Tour ``start + n - 1``, or at once when a scène
  lente begins (Tours stop there); it cannot start in a scène lente.
  The Réalisateur may also end a modifier by hand (S-A15); each modifier keeps one number,
  the seq of the event that added it.
* The Test notation prints the Difficulty as a number, and reads Difficile / Extrême too.
* An Action asks for several dice requests (action dice, then one D+/- request per group),
  since `tablee.dice.roll` takes one; `rolling` drives them live, typed in or enumerated.
* No option for S-A2 (Expertise all or nothing) or S-A8 (death whatever the outcome, no NT):
  the rulings offer no other reading.
* Dice faces are checked strictly (a D8 face is 1..8); D+/- faces are -1, 0, +1 and
  ``parse_dpm_face`` reads "+", "-", blank.

The table layer (`SHS`, the plugin of `tablee.systems.shs.plugin`): its declared commands
(`commands`), typed events (`events`), reports and odds as data (`reports`); the rule
functions it decides with: `game` (state, Protagonistes, options), `counters`, `play` (rolled
decisions, planned by `planning`), `timing` (the clock), `replay` (Tablée 0.1.0's fold,
deciding every stored fact again) and `log` (one line per event). Its decisions where the
rulings are silent:

* The temporary modifiers in force for a Protagoniste apply by themselves to every Action it
  rolls (Test, opposed side, cooperator, simultaneous set), added to the Action's own.
* A table may have no player; a Protagoniste is played by one player or by the Réalisateur.
  Revival is the Réalisateur's correction by hand; the text has none.
* Every rolled fact pays its option's price (NT +1, death), an opposed tie rolled again too.
* Tours are counted only in a scène rythmée, where long Actions start; a long Action is
  rolled by a Test naming it in its last Tour, and lapses unrolled at the next Tour.
* A simultaneous set is one Protagoniste's Tests and at most one opposed Action against
  another Protagoniste, all in one event (S-X5): the set's Malus goes on that Protagoniste's
  side, the opponent rolls as in any opposed Action, and both are marked as acting in the
  Tour. Modifiers are ended by hand by their number.
* A log is folded by applying each event's recorded outcome. The verifier decides it
  again: what the table gave an Action (threshold, die, temporary modifiers, dice) must be
  unchanged (RuleError: the log before it changed); any other difference is reported (an
  edited event) or, after an undo, recorded as the event's revision.

Source: seed ``003_ac7d2f384bf553ef.txt``; docs/rules/shs.md (S-M1 to S-M9, S-N1 to
S-N3, S-A1 to S-A15, S-T1 to S-T13).
"""

from __future__ import annotations

from tablee.systems.shs.actions import (
    DEFAULT_OPTIONS,
    MAX_MODIFIER,
    ActionResult,
    ActionRoll,
    DpmGroup,
    Option,
    dice_for_action,
    die_title,
    dpm_symbol,
    parse_dpm_face,
    resolve_action,
)
from tablee.systems.shs.clock import (
    MAX_SECONDS,
    MAX_TOURS,
    ActiveModifier,
    Clock,
    Duration,
    LongAction,
    SceneKind,
    TemporaryModifier,
    add_modifier,
    advance_time,
    is_due,
    modifier_numbered,
    modifier_totals,
    modifiers_in_force,
    next_tour,
    parse_duration,
    remove_modifier,
    rolls_due,
    start_long_action,
    start_scene,
)
from tablee.systems.shs.counters import (
    COUNTER_TITLES,
    counter_named,
    decide_counter,
    decide_kill,
    decide_revive,
)
from tablee.systems.shs.difficulty import TEST, Test, TestMechanic, TestResult, resolve_test
from tablee.systems.shs.game import (
    MAX_PLAYERS,
    MAX_PROTAGONISTS,
    Decision,
    ShsState,
    decide_create,
    decide_options,
    initial_state,
    protagonist_json,
    protagonist_named,
)
from tablee.systems.shs.legacy import EVENT_VERSIONS, UPCASTERS, evolve
from tablee.systems.shs.log import describe, game_time
from tablee.systems.shs.notation import (
    NAMED_DIFFICULTIES,
    TestNotation,
    difficulty_name,
    difficulty_named,
    notation_of,
    parse_test_notation,
)
from tablee.systems.shs.odds import (
    CooperationOdds,
    OpposedOdds,
    action_dice_distribution,
    cooperation_odds,
    cooperation_success_probability,
    dpm_distribution,
    opposed_distribution,
    opposed_odds,
    ps_distribution,
    success_distribution,
    success_probability,
)
from tablee.systems.shs.opposed import (
    OPPOSED,
    OpposedAction,
    OpposedMechanic,
    OpposedOutcome,
    OpposedResult,
    Side,
    dice_for_opposed,
    resolve_opposed,
    settle_opposed,
)
from tablee.systems.shs.options import SHS_OPTION_HELP, ShsOptions
from tablee.systems.shs.play import (
    Attempt,
    Faces,
    OpposedInSet,
    decide_cooperation,
    decide_opposed,
    decide_simultaneous,
    decide_test,
    plan_cooperation,
    plan_opposed,
    plan_simultaneous,
    plan_simultaneous_set,
    plan_test,
)
from tablee.systems.shs.protagonist import (
    COUNTERS,
    MAX_COUNTER,
    MAX_EXPERTISES,
    Protagonist,
    adjust_counter,
    after_action,
    create_protagonist,
    kill,
    prepare_test,
    set_counter,
)
from tablee.systems.shs.rolling import (
    GroupedMechanic,
    enumerate_requests,
    exact_grouped_distribution,
    play_action,
    play_cooperation,
    play_opposed,
    play_test,
    roll_grouped,
    roll_requests,
    throw_action,
)
from tablee.systems.shs.situations import (
    MAX_SIMULTANEOUS,
    Cooperation,
    CooperationResult,
    group_succeeds,
    resolve_cooperation,
    simultaneous_actions,
    simultaneous_set,
)
from tablee.systems.shs.timing import (
    clock_json,
    decide_add_modifier,
    decide_advance_time,
    decide_end_modifier,
    decide_long_action,
    decide_next_tour,
    decide_scene,
    long_action_json,
    modifier_json,
)
from tablee.systems.shs.traits import (
    MAX_THRESHOLD,
    MIN_THRESHOLD,
    Characteristic,
    characteristic_named,
    check_threshold,
    parse_threshold,
    starting_sante,
    threshold_adjective,
    threshold_text,
)

__all__ = [
    "COUNTERS",
    "COUNTER_TITLES",
    "DEFAULT_OPTIONS",
    "EVENT_VERSIONS",
    "MAX_COUNTER",
    "MAX_EXPERTISES",
    "MAX_MODIFIER",
    "MAX_PLAYERS",
    "MAX_PROTAGONISTS",
    "MAX_SECONDS",
    "MAX_SIMULTANEOUS",
    "MAX_THRESHOLD",
    "MAX_TOURS",
    "MIN_THRESHOLD",
    "NAMED_DIFFICULTIES",
    "OPPOSED",
    "SHS",
    "SHS_OPTION_HELP",
    "TEST",
    "UPCASTERS",
    "ActionResult",
    "ActionRoll",
    "ActiveModifier",
    "Attempt",
    "Characteristic",
    "Clock",
    "Cooperation",
    "CooperationOdds",
    "CooperationResult",
    "Decision",
    "DpmGroup",
    "Duration",
    "Faces",
    "GroupedMechanic",
    "LongAction",
    "OpposedAction",
    "OpposedInSet",
    "OpposedMechanic",
    "OpposedOdds",
    "OpposedOutcome",
    "OpposedResult",
    "Option",
    "Protagonist",
    "SceneKind",
    "ShsOptions",
    "ShsState",
    "Side",
    "TemporaryModifier",
    "Test",
    "TestMechanic",
    "TestNotation",
    "TestResult",
    "action_dice_distribution",
    "add_modifier",
    "adjust_counter",
    "advance_time",
    "after_action",
    "characteristic_named",
    "check_threshold",
    "clock_json",
    "cooperation_odds",
    "cooperation_success_probability",
    "counter_named",
    "create_protagonist",
    "decide_add_modifier",
    "decide_advance_time",
    "decide_cooperation",
    "decide_counter",
    "decide_create",
    "decide_end_modifier",
    "decide_kill",
    "decide_long_action",
    "decide_next_tour",
    "decide_opposed",
    "decide_options",
    "decide_revive",
    "decide_scene",
    "decide_simultaneous",
    "decide_test",
    "describe",
    "dice_for_action",
    "dice_for_opposed",
    "die_title",
    "difficulty_name",
    "difficulty_named",
    "dpm_distribution",
    "dpm_symbol",
    "enumerate_requests",
    "evolve",
    "exact_grouped_distribution",
    "game_time",
    "group_succeeds",
    "initial_state",
    "is_due",
    "kill",
    "long_action_json",
    "modifier_json",
    "modifier_numbered",
    "modifier_totals",
    "modifiers_in_force",
    "next_tour",
    "notation_of",
    "opposed_distribution",
    "opposed_odds",
    "parse_dpm_face",
    "parse_duration",
    "parse_test_notation",
    "parse_threshold",
    "plan_cooperation",
    "plan_opposed",
    "plan_simultaneous",
    "plan_simultaneous_set",
    "plan_test",
    "play_action",
    "play_cooperation",
    "play_opposed",
    "play_test",
    "prepare_test",
    "protagonist_json",
    "protagonist_named",
    "ps_distribution",
    "remove_modifier",
    "resolve_action",
    "resolve_cooperation",
    "resolve_opposed",
    "resolve_test",
    "roll_grouped",
    "roll_requests",
    "rolls_due",
    "set_counter",
    "settle_opposed",
    "simultaneous_actions",
    "simultaneous_set",
    "start_long_action",
    "start_scene",
    "starting_sante",
    "success_distribution",
    "success_probability",
    "threshold_adjective",
    "threshold_text",
    "throw_action",
]

_TEST_IS_GROUPED: GroupedMechanic[Test, TestResult] = TEST
_OPPOSED_IS_GROUPED: GroupedMechanic[OpposedAction, OpposedResult] = OPPOSED

from tablee.systems.shs.plugin import SHS  # noqa: E402  (the plugin reads the modules above)
