"""Planning an SHS Action at the table: who rolls what, with which of the table's modifiers.

An `Attempt` is one Protagoniste's Action as commanded. `plan_attempt` checks it against the
state (the Protagoniste exists and lives, the Expertise is its own) and adds the temporary
modifiers in force for that Protagoniste (S-M3): they apply by themselves to every Action it
rolls. `context_of` is what the table gave the Action (threshold, die, temporary modifiers,
dice asked for); on replay `match_context` requires it unchanged. `action_json` is the
stored form of one rolled Action: inputs, context, results.

Source: seed 003, "Résoudre les Actions", "Bonus et Malus", "Options"; rulings S-M1 to S-M5,
S-M8, S-A2, S-A8, S-T6.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from tablee.dice import TraceStep
from tablee.errors import N_, InputError, NotFoundError, RuleError
from tablee.systems.base import JSON, clean_name, name_key
from tablee.systems.common import whole
from tablee.systems.shs.actions import MAX_MODIFIER, ActionResult, ActionRoll
from tablee.systems.shs.clock import LongAction, SceneKind, is_due, modifier_totals
from tablee.systems.shs.difficulty import Test, TestResult
from tablee.systems.shs.game import ShsState, protagonist_named
from tablee.systems.shs.protagonist import Protagonist, adjust_counter, kill, require_alive
from tablee.systems.shs.traits import Characteristic, characteristic_named

__all__ = [
    "Attempt",
    "Faces",
    "OpposedInSet",
    "Planned",
    "acted_again",
    "action_json",
    "as_test",
    "context_of",
    "due_long_action",
    "expected_part",
    "expertise_of",
    "faces_pair",
    "json_of_test",
    "match_context",
    "paid",
    "plan_attempt",
    "planned_test",
    "situation_json",
]

Faces = tuple[Sequence[int], Sequence[int]]
"""One Action's thrown dice: ``(action faces, D+/- faces)``, D+/- in the core's order."""
P = Mapping[str, JSON]


@dataclass(frozen=True)
class Attempt:
    """One Protagoniste's Action as commanded.

    Attributes:
        protagonist: who acts (any case).
        characteristic: the Caractéristique the Réalisateur names.
        difficulty: PS needed, 1 or more, for a Test; None in an opposed Action.
        expertise: the Expertise that matches perfectly, if any (one of the Protagoniste's).
        bonus, malus: the Action's own bonuses and maluses, each 0 to 50 (temporary ones
            and the situation's are added by the table).
        surpass, sacrifice: Se Surpasser, Se Sacrifier (at most one).

    Source: seed 003, "Notation de Test", "Bonus et Malus", "Options"; S-M2, S-M3, S-M5.
    """

    protagonist: str
    characteristic: Characteristic | str
    difficulty: int | None = None
    expertise: str | None = None
    bonus: int = 0
    malus: int = 0
    surpass: bool = False
    sacrifice: bool = False


@dataclass(frozen=True)
class OpposedInSet:
    """An opposed Action commanded inside a simultaneous set (Tablée's reading S-X5).

    Attributes:
        side: the set's Protagoniste's Attempt (no Difficulty); it takes the set's Malus.
        against: the opposing Protagoniste's Attempt (no Difficulty), outside the set.
        changer: ``"first"`` (the set's Protagoniste seeks change), ``"second"`` (the
            opponent does) or None (symmetric goals); it decides ties (S-A5).

    Source: seed 003, "Actions simultanées", "Protagoniste contre Protagoniste"; S-M4,
    S-M7, S-A5, S-X5.
    """

    side: Attempt
    against: Attempt
    changer: str | None = "first"


@dataclass(frozen=True)
class Planned:
    """An Attempt checked against the table, with the table's modifiers added.

    Attributes:
        name: the Protagoniste's stored name.
        characteristic: the Caractéristique used.
        expertise: the Expertise's stored name, or None.
        bonus, malus: the Action's own modifiers, as commanded.
        temporary: the temporary ``(bonus, malus)`` in force for the Protagoniste (S-M3).
        roll: the core's roll with own and temporary modifiers (no situation's yet).
        difficulty: the Difficulty of a Test, None in an opposed Action.

    Source: seed 003; S-M2, S-M3.
    """

    name: str
    characteristic: Characteristic
    expertise: str | None
    bonus: int
    malus: int
    temporary: tuple[int, int]
    roll: ActionRoll
    difficulty: int | None


def expertise_of(hero: Protagonist, expertise: object) -> str | None:
    """The stored name of one of the Protagoniste's Expertises, or None for none.

    Raises:
        NotFoundError: the Protagoniste does not list it.

    Source: seed 003, "Expertises"; S-A2.
    """
    if expertise is None:
        return None
    key = name_key(clean_name(expertise, what=N_("an Expertise")))
    found = next((e for e in hero.expertises if name_key(e) == key), None)
    if found is None:
        raise NotFoundError(
            N_("{name} has no Expertise {expertise!r} (rule S-A2)"),
            tip=N_("Expertises: {known}"),
            name=hero.name,
            expertise=expertise,
            known=", ".join(hero.expertises) or "-",
        )
    return found


def plan_attempt(state: ShsState, attempt: Attempt, *, test: bool) -> Planned:
    """Check an Attempt against the table and add the temporary modifiers in force.

    Args:
        state: current state.
        attempt: the Action as commanded.
        test: a Test (a Difficulty of 1 or more is needed) or an opposed Action (none).

    Raises:
        NotFoundError: an unknown Protagoniste or Expertise.
        InputError: a bad Caractéristique, bonus, malus or Difficulty.
        RuleError: the Protagoniste is dead (S-M1, S-A8); both options at once (S-M5).

    Source: seed 003; S-M1, S-M2, S-M3, S-M4, S-M5, S-A2, S-A4.
    """
    return planned_test(state, attempt, test=test)[0]


def planned_test(state: ShsState, attempt: Attempt, *, test: bool) -> tuple[Planned, Test | None]:
    """`plan_attempt`, with the core's `Test` it checked (None for an opposed Action).

    Raises:
        As `plan_attempt`.

    Source: seed 003; S-M1, S-M2, S-M3, S-M4, S-M5, S-A2, S-A4.
    """
    name = protagonist_named(state, attempt.protagonist)
    hero = state.protagonists[name]
    require_alive(hero)
    characteristic = characteristic_named(attempt.characteristic)
    expertise = expertise_of(hero, attempt.expertise)
    own = (
        whole(attempt.bonus, "bonus", 0, MAX_MODIFIER, rule="S-M3"),
        whole(attempt.malus, "malus", 0, MAX_MODIFIER, rule="S-M3"),
    )
    if not test and attempt.difficulty is not None:
        raise InputError(
            N_("an opposed Action has no Difficulty, not {value!r} (rule S-M4)"),
            value=attempt.difficulty,
        )
    bonus, malus = modifier_totals(state.clock, name)
    roll = ActionRoll(
        hero.threshold(characteristic),
        expertise is not None,
        own[0] + bonus,
        own[1] + malus,
        attempt.surpass,
        attempt.sacrifice,
    )
    planned = Planned(
        name, characteristic, expertise, own[0], own[1], (bonus, malus), roll, attempt.difficulty
    )
    return planned, as_test(planned, roll) if test else None  # the Test checks the Difficulty


def as_test(planned: Planned, roll: ActionRoll) -> Test:
    """The core's `Test` of a planned Action with that roll (the situation's modifiers in).

    Raises:
        InputError: a Difficulty that is not a whole number of at least 1 (S-A4).

    Source: seed 003, "Notation de Test"; S-M2, S-A4.
    """
    return Test(
        roll.threshold,
        planned.difficulty,  # type: ignore[arg-type]  # checked by Test
        planned.characteristic,
        roll.expertise,
        roll.bonus,
        roll.malus,
        roll.surpass,
        roll.sacrifice,
    )


def context_of(state: ShsState, planned: Planned, roll: ActionRoll) -> dict[str, JSON]:
    """What the table gave an Action: threshold, die, temporary modifiers, dice asked for.

    ``dice`` is the number of action dice, then each D+/- group's count, negative for a
    group read as a Malus.

    Source: seed 003; S-M2, S-M3, S-A1, S-A2, S-A7, S-A13.
    """
    groups = roll.dpm_groups(state.options)
    return {
        "threshold": roll.threshold,
        "die": roll.die.name,
        "temporary_bonus": planned.temporary[0],
        "temporary_malus": planned.temporary[1],
        "dice": [state.options.action_dice, *(g.count * g.sign for g in groups)],
    }


def match_context(expect: P | None, context: Mapping[str, JSON], name: str) -> None:
    """On replay, what the table gave an Action must be what it gives now.

    Args:
        expect: the stored Action (None when not replaying: nothing is checked).
        context: `context_of` the Action now.
        name: the Protagoniste, for the message.

    Raises:
        RuleError: a field differs: the log before the fact has changed.

    Source: docs/architecture.md, "The event log"; S-M3.
    """
    if expect is None:
        return
    for key, value in context.items():
        if key in expect and expect[key] != value:
            raise RuleError(
                N_(
                    "{name}: this Action was rolled with {field} {stored!r}, but the table "
                    "now gives {decided!r} (the log before it has changed)"
                ),
                tip=N_("undo the later events first, newest first"),
                name=name,
                field=key,
                stored=expect[key],
                decided=value,
            )


def expected_part(expect: P | None, key: str, index: int | None = None) -> P | None:
    """One stored Action of a stored payload (``expect[key]`` or ``expect[key][index]``)."""
    value = None if expect is None else expect.get(key)
    if index is not None:
        value = value[index] if isinstance(value, list) and index < len(value) else None
    return value if isinstance(value, Mapping) else None


def action_json(
    state: ShsState,
    planned: Planned,
    roll: ActionRoll,
    result: ActionResult,
    situation: tuple[int, int] = (0, 0),
) -> dict[str, JSON]:
    """One rolled Action as stored: inputs, `context_of`, results and price.

    Args:
        situation: the situation's ``(bonus, malus)``: a cooperator's Bonus 1 (S-M6), a
            simultaneous set's Malus k - 1 (S-M7); each is stored only when it is not 0.

    Source: seed 003; S-M2 outputs (dice, D+/- faces, PS, side effects), S-M6, S-M7, S-A3.
    """
    out: dict[str, JSON] = {
        "protagonist": planned.name,
        "characteristic": planned.characteristic.value,
    }
    if planned.difficulty is not None:
        out["difficulty"] = planned.difficulty
    out.update(
        expertise=planned.expertise,
        bonus=planned.bonus,
        malus=planned.malus,
        option=roll.option.value,
        action_faces=list(result.action_faces),
        dpm_faces=list(result.dpm_faces),
        **context_of(state, planned, roll),
        **situation_json(*situation),
        dice_ps=result.dice_ps,
        dpm_ps=result.dpm_ps,
        sacrifice_ps=result.sacrifice_ps,
        signed_ps=result.signed_ps,
        ps=result.ps,
        nt_gain=result.nt_gain,
        dies=result.dies,
    )
    return out


def situation_json(bonus: int, malus: int) -> dict[str, JSON]:
    """The situation's modifiers as stored on an Action: only those that are not 0.

    Source: seed 003; S-M6, S-M7.
    """
    out: dict[str, JSON] = {}
    if bonus:
        out["situation_bonus"] = bonus
    if malus:
        out["situation_malus"] = malus
    return out


def json_of_test(
    state: ShsState,
    planned: Planned,
    test: Test,
    result: TestResult,
    situation: tuple[int, int] = (0, 0),
) -> P:
    """One rolled Test as stored: `action_json` (with the situation's modifiers), success.

    Source: seed 003; S-M2 step 5, S-M6, S-M7.
    """
    action = action_json(state, planned, test.action, result.roll, situation)
    return {**action, "success": result.success}


class Priced(Protocol):
    """What `paid` reads of an Action: its price.

    An `ActionResult`, a `tablee.systems.shs.actions.Price` or a stored Action.
    """

    @property
    def nt_gain(self) -> int:
        """NT gained (Se Surpasser)."""
        ...

    @property
    def dies(self) -> bool:
        """The Protagoniste dies (Se Sacrifier)."""
        ...


def paid(
    protagonists: Mapping[str, Protagonist], results: Sequence[tuple[str, Priced]]
) -> dict[str, Protagonist]:
    """The Protagonistes once their Actions are over: NT +1 per Se Surpasser, death.

    Play applies it to the Actions it decides, the fold to the Actions it reads from the
    log, and the lab to the prices of the Tests it draws.

    Args:
        protagonists: every Protagoniste before the Actions, by name.
        results: each acting Protagoniste's name and what the Action costs (its result,
            its `Price` or its stored record), in order.

    Returns:
        A new mapping; ``protagonists`` is not changed.

    Source: seed 003, "Options"; S-M5, S-A8, S-A9.
    """
    heroes = dict(protagonists)
    for name, result in results:
        hero = heroes[name]
        if result.nt_gain:
            hero = adjust_counter(hero, "nt", result.nt_gain)
        heroes[name] = kill(hero) if result.dies else hero
    return heroes


def acted_again(state: ShsState, names: Sequence[str]) -> tuple[TraceStep, ...]:
    """A notice per Protagoniste who already rolled an Action in this Tour (S-X3).

    Actions in one Tour are simultaneous (S-M8), so a second one rolled apart misses the
    Malus of simultaneous Actions (S-M7): Tablée accepts it and says so.

    Source: seed 003, "Temporalité des Actions", "Actions simultanées"; S-M7, S-M8, S-X3.
    """
    clock = state.clock
    if clock.scene_kind is not SceneKind.RYTHMEE or clock.tour < 1:
        return ()
    return tuple(
        TraceStep(
            N_(
                "{name} has already rolled an Action in Tour {tour}: Actions in one Tour are "
                "simultaneous, and each beyond the first gives a Malus of 1 to all of them, "
                "which this roll did not count; roll such Actions together as simultaneous "
                "Actions"
            ),
            {"name": name, "tour": clock.tour},
        )
        for name in dict.fromkeys(names)
        if name in clock.acted
    )


def faces_pair(value: object) -> Faces:
    """An Action's faces as ``(action faces, D+/- faces)``.

    Raises:
        InputError: not a pair.
    """
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise InputError(
            N_("an Action's faces are a pair (action dice, D+/- dice), not {value!r}"),
            value=value,
        )
    return value[0], value[1]


def due_long_action(state: ShsState, name: str, label: object) -> LongAction:
    """The Protagoniste's long Action with that label, due now.

    Due means in its last Tour, or at any time in a scène lente
    (`tablee.systems.shs.clock.is_due`).

    Raises:
        NotFoundError: no such long Action in progress.
        RuleError: in a scène rythmée, it is not in its last Tour (S-M8, S-T6).

    Source: seed 003, "Action sur plusieurs Tours"; S-M8, S-T6.
    """
    key = name_key(clean_name(label, what=N_("a label")))
    for action in state.clock.long_actions:
        if name_key(action.actor) == name_key(name) and name_key(action.label) == key:
            if not is_due(action, state.clock):
                raise RuleError(
                    N_(
                        "{label} lasts until Tour {last} and it is Tour {tour}: an Action over "
                        "several Tours is rolled only in its last Tour (rules S-M8, S-T6)"
                    ),
                    label=action.label,
                    last=action.last_tour,
                    tour=state.clock.tour,
                )
            return action
    raise NotFoundError(
        N_("{name} has no Action over several Tours called {label!r} (rule S-M8)"),
        name=name,
        label=label,
    )
