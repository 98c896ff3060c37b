"""Counters and life at an SHS table: Santé, Protection, Air, NT, death and revival by hand.

The text has no damage, healing, air or Psychologie rules (S-A9, S-A10): the Réalisateur
edits the counters by hand, by a change or to a value. A change stops at the counter's
bounds (Santé 0..max, the others 0..10 000) with a notice; a value out of range is refused.
Santé at 0 kills no one by itself: death is Se Sacrifier's price or the Réalisateur's call.

Event kinds (all version 1): ``shs.counter_changed``, ``shs.protagonist_killed``,
``shs.protagonist_revived``.

Source: seed 003, "Santé", "Protection", "Air", "Niveau de Tension", "Options"; rulings
S-M5, S-A8, S-A9, S-A10.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import replace

from tablee.dice import TraceStep
from tablee.errors import N_, InputError, Message, RuleError
from tablee.systems.base import JSON, Fact
from tablee.systems.common import whole
from tablee.systems.shs.game import Decision, ShsState, free_text, protagonist_named
from tablee.systems.shs.protagonist import (
    COUNTERS,
    MAX_COUNTER,
    Protagonist,
    adjust_counter,
    kill,
    set_counter,
)

__all__ = [
    "COUNTER_TITLES",
    "counter_named",
    "decide_counter",
    "decide_kill",
    "decide_revive",
]

COUNTER_TITLES: Mapping[str, str] = {
    "sante": "Santé",
    "protection": "Protection",
    "air": "Air",
    "nt": "NT",
}
"""Each counter's game name (kept in every language)."""


def counter_named(text: object) -> str:
    """A counter's id from its name: ``Santé``, ``sante``, ``Air``, ``NT``...

    Raises:
        InputError: not a counter.

    Source: seed 003; S-A9, S-A10.
    """
    if isinstance(text, str):
        bare = unicodedata.normalize("NFD", text.strip().casefold())
        key = "".join(ch for ch in bare if not unicodedata.combining(ch))
        if key in COUNTERS:
            return key
    raise InputError(
        N_("{counter!r} is not a counter (known: {known})"),
        counter=text,
        known=", ".join(COUNTERS),
    )


def _with(state: ShsState, hero: Protagonist) -> ShsState:
    return replace(state, protagonists={**state.protagonists, hero.name: hero})


def decide_counter(
    state: ShsState,
    *,
    protagonist: str,
    counter: str,
    delta: int | None = None,
    value: int | None = None,
) -> Decision:
    """Change Santé, Protection, Air or NT by hand, by a ``delta`` or to a ``value``.

    A delta stops at the counter's bounds (Santé 0..max, the others 0..10 000), with a
    notice; a value out of range is refused. Santé at 0 kills no one by itself.

    Args:
        state: current state.
        protagonist: whose counter.
        counter: ``sante``, ``protection``, ``air`` or ``nt`` (accents and case ignored).
        delta: a change, not 0, at most 10 000 either way; or None.
        value: the new value; or None. Exactly one of ``delta`` and ``value`` is given.

    Returns:
        The decision; its outcome is the changed `Protagonist`.

    Raises:
        InputError: both or neither of delta and value, a bad number, an unknown counter.
        NotFoundError: an unknown Protagoniste.

    Source: seed 003, "Santé", "Protection", "Air", "Niveau de Tension"; S-A9, S-A10.
    """
    name = protagonist_named(state, protagonist)
    key = counter_named(counter)
    hero = state.protagonists[name]
    if (delta is None) == (value is None):
        raise InputError(N_("give either a change or a new value for {counter}"), counter=key)
    before: int = getattr(hero, key)
    if delta is not None:
        whole(delta, Message(N_("the change")), rule="S-A10")
        if not delta:
            raise InputError(
                N_("a change of 0 changes nothing: give +N or -N"),
                cli_tip=N_("to set a value, use --set-sante, --set-air..."),
            )
        if abs(delta) > MAX_COUNTER:
            raise InputError(
                N_("a change of {value!r} is more than {maximum} either way"),
                value=delta,
                maximum=MAX_COUNTER,
            )
        changed = adjust_counter(hero, key, delta)
    else:
        changed = set_counter(hero, key, value)  # type: ignore[arg-type]
    after: int = getattr(changed, key)
    warnings: list[TraceStep] = []
    if delta is not None and after != before + delta:
        warnings.append(
            TraceStep(
                N_("{counter} stops at {value}: Tablée keeps counters within their bounds"),
                {"counter": COUNTER_TITLES[key], "value": after},
            )
        )
    if key == "sante" and after == 0:
        warnings.append(
            TraceStep(
                N_("Santé 0: the text has no rule for it; the Réalisateur decides what it means")
            )
        )
    payload: dict[str, JSON] = {
        "protagonist": name,
        "counter": key,
        "delta": delta,
        "value": value,
        "before": before,
        "after": after,
    }
    fact = Fact("shs.counter_changed", payload, actor="gm")
    return Decision((fact,), changed, tuple(warnings), _with(state, changed))


def decide_kill(state: ShsState, *, protagonist: str, reason: str = "") -> Decision:
    """The Réalisateur's call: a Protagoniste dies (and never acts again unless revived).

    Raises:
        NotFoundError: an unknown Protagoniste.
        RuleError: already dead.

    Source: seed 003; S-M1, S-A8, S-A10 (no damage rule: death is the Réalisateur's call).
    """
    name = protagonist_named(state, protagonist)
    hero = state.protagonists[name]
    if not hero.alive:
        raise RuleError(N_("{name} is already dead"), name=name)
    dead = kill(hero)
    payload = {"protagonist": name, "reason": free_text(reason)}
    fact = Fact("shs.protagonist_killed", payload, actor="gm")
    return Decision((fact,), dead, (), _with(state, dead))


def decide_revive(state: ShsState, *, protagonist: str, reason: str = "") -> Decision:
    """The Réalisateur's correction: a dead Protagoniste lives again, counters unchanged.

    The text has no revival; this undoes a death decided by mistake without undoing what
    followed.

    Raises:
        NotFoundError: an unknown Protagoniste.
        RuleError: not dead.

    Source: seed 003; S-A8, S-A10 (Tablée's bookkeeping, not a rule of the game).
    """
    name = protagonist_named(state, protagonist)
    hero = state.protagonists[name]
    if hero.alive:
        raise RuleError(N_("{name} is alive: there is no death to take back"), name=name)
    alive = replace(hero, alive=True)
    payload = {"protagonist": name, "reason": free_text(reason)}
    fact = Fact("shs.protagonist_revived", payload, actor="gm")
    return Decision((fact,), alive, (), _with(state, alive))
