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
  per set) reports the second Action that uses one.
* Cooperation needs 2 or more Tests with the same Difficulty.
* Santé at 0 does not kill by itself (no rule); counters changed by a delta stop at their
  bounds (Santé 0..max, Protection, Air and NT 0..10 000); set by hand they are checked.
* Clock: Tours and game time are separate counters (a Tour adds no game time); a modifier
  lasting n Tours covers the rest of the current Tour and the n next; one lasting a game
  time ends once that much time is advanced; both survive a change of Scène. A long Action
  starts in the current Tour and is due in Tour ``start + n - 1``.
  The Réalisateur may also end a modifier by hand (S-A15).
* The Test notation prints the Difficulty as a number, and reads Difficile / Extrême too.
* An Action asks for several dice requests (action dice, then one D+/- request per group),
  since `tablee.dice.roll` takes one; `rolling` drives them live, typed in or enumerated.
* No option for S-A2 (Expertise all or nothing) or S-A8 (death whatever the outcome, no NT):
  the rulings offer no other reading.
* Dice faces are checked strictly (a D8 face is 1..8); D+/- faces are -1, 0, +1 and
  ``parse_dpm_face`` reads "+", "-", blank.

Source: seed ``003_ac7d2f384bf553ef.txt``; RULINGS.md section 3 (S-M1 to S-M9, S-N1 to
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
    modifier_totals,
    modifiers_in_force,
    next_tour,
    parse_duration,
    remove_modifier,
    rolls_due,
    start_long_action,
    start_scene,
)
from tablee.systems.shs.difficulty import TEST, Test, TestMechanic, TestResult, resolve_test
from tablee.systems.shs.notation import (
    NAMED_DIFFICULTIES,
    TestNotation,
    difficulty_name,
    difficulty_named,
    notation_of,
    parse_test_notation,
)
from tablee.systems.shs.odds import (
    action_dice_distribution,
    cooperation_success_probability,
    dpm_distribution,
    opposed_distribution,
    ps_distribution,
    success_distribution,
    success_probability,
)
from tablee.systems.shs.opposed import (
    OPPOSED,
    OpposedAction,
    OpposedMechanic,
    OpposedResult,
    Side,
    dice_for_opposed,
    resolve_opposed,
)
from tablee.systems.shs.options import SHS_OPTION_HELP, ShsOptions
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
    roll_grouped,
    roll_requests,
)
from tablee.systems.shs.situations import (
    MAX_SIMULTANEOUS,
    Cooperation,
    CooperationResult,
    resolve_cooperation,
    simultaneous_actions,
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
    "DEFAULT_OPTIONS",
    "MAX_COUNTER",
    "MAX_EXPERTISES",
    "MAX_MODIFIER",
    "MAX_SECONDS",
    "MAX_SIMULTANEOUS",
    "MAX_THRESHOLD",
    "MAX_TOURS",
    "MIN_THRESHOLD",
    "NAMED_DIFFICULTIES",
    "OPPOSED",
    "SHS_OPTION_HELP",
    "TEST",
    "ActionResult",
    "ActionRoll",
    "ActiveModifier",
    "Characteristic",
    "Clock",
    "Cooperation",
    "CooperationResult",
    "DpmGroup",
    "Duration",
    "GroupedMechanic",
    "LongAction",
    "OpposedAction",
    "OpposedMechanic",
    "OpposedResult",
    "Option",
    "Protagonist",
    "SceneKind",
    "ShsOptions",
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
    "cooperation_success_probability",
    "create_protagonist",
    "dice_for_action",
    "dice_for_opposed",
    "difficulty_name",
    "difficulty_named",
    "dpm_distribution",
    "dpm_symbol",
    "enumerate_requests",
    "exact_grouped_distribution",
    "kill",
    "modifier_totals",
    "modifiers_in_force",
    "next_tour",
    "notation_of",
    "opposed_distribution",
    "parse_dpm_face",
    "parse_duration",
    "parse_test_notation",
    "parse_threshold",
    "prepare_test",
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
    "simultaneous_actions",
    "start_long_action",
    "start_scene",
    "starting_sante",
    "success_distribution",
    "success_probability",
    "threshold_adjective",
    "threshold_text",
]

_TEST_IS_GROUPED: GroupedMechanic[Test, TestResult] = TEST
_OPPOSED_IS_GROUPED: GroupedMechanic[OpposedAction, OpposedResult] = OPPOSED
