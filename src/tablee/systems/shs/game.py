"""An SHS table as state folded from facts; the Protagonistes' and the options' decisions.

Every ``decide_*`` function takes the current `ShsState` and a command's inputs and returns a
`Decision`: the one fact to store, the outcome to show, notices that never block, and the
state right after the fact. Folding a stored fact (`tablee.systems.shs.legacy.evolve`)
decides it again from its inputs, so every rule is checked on every replay. The rolled
decisions are in `tablee.systems.shs.play`, the clock's in `tablee.systems.shs.timing`.

Event kinds of this module (all version 1): ``shs.protagonist_created``,
``shs.options_set``; the counters' are in `tablee.systems.shs.counters`.

Source: seed 003 ("Caractéristiques", "Santé", "Protection", "Air", "Niveau de Tension");
rulings S-M1, S-M5, S-M9, S-N1, S-A8 to S-A11.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from tablee.errors import N_, InputError, NotFoundError, RuleError
from tablee.systems.base import JSON, VISIBILITIES, Fact
from tablee.systems.common import DecisionOf, clean_players, find_name, player_named
from tablee.systems.shs.clock import Clock
from tablee.systems.shs.options import ShsOptions
from tablee.systems.shs.protagonist import Protagonist, create_protagonist
from tablee.systems.shs.traits import Characteristic

__all__ = [
    "MAX_PLAYERS",
    "MAX_PROTAGONISTS",
    "Decision",
    "ShsState",
    "actor_of",
    "check_visibility",
    "decide_create",
    "decide_options",
    "free_text",
    "initial_state",
    "protagonist_json",
    "protagonist_named",
]

MAX_PLAYERS = 20
"""Most people at one table (Tablée's limit)."""
MAX_PROTAGONISTS = 50
"""Most Protagonistes at one table (Tablée's limit, against typing mistakes)."""


@dataclass(frozen=True)
class ShsState:
    """An SHS table's state.

    Attributes:
        players: the people at the table (the Réalisateur is not one), 0 to `MAX_PLAYERS`.
        options: the house rules.
        protagonists: each Protagoniste by its stored name, in the order of creation.
        owners: a Protagoniste's name -> the player who plays it (absent: the Réalisateur's).
        clock: the film's clock (Scène, Tour, game time, temporary modifiers, long Actions).
    """

    players: tuple[str, ...] = ()
    options: ShsOptions = field(default_factory=ShsOptions)
    protagonists: Mapping[str, Protagonist] = field(default_factory=dict)
    owners: Mapping[str, str] = field(default_factory=dict)
    clock: Clock = field(default_factory=Clock)


class Decision(DecisionOf[ShsState]):
    """What a command decided.

    Attributes:
        facts: the facts to append, in order (one for every SHS command).
        outcome: what to show (a result object, a `Protagonist`, a `Clock`), or None.
        warnings: notices shown but never blocking.
        after: the state once the facts are folded (what `evolve` returns for them).
    """


def initial_state(created: Mapping[str, JSON]) -> ShsState:
    """The state of a new table from its ``table.created`` payload.

    A table may start with no player: the Réalisateur may play every Protagoniste.

    Args:
        created: ``{"players": [...], "options": {...}}`` (other keys ignored).

    Returns:
        A table with no Protagoniste and the clock before the first Scène.

    Raises:
        InputError: a bad or repeated player name, an unknown option or value.

    Source: seed 003; S-A1, S-A3, S-A5, S-A7, S-A13, S-A14, S-M7 (the options).
    """
    options = ShsOptions.from_json(created.get("options") or {})
    return ShsState(
        players=clean_players(created.get("players"), maximum=MAX_PLAYERS), options=options
    )


def protagonist_named(state: ShsState, name: object) -> str:
    """The stored name of a Protagoniste, typed in any case or accents' form.

    Raises:
        NotFoundError: no Protagoniste has that name.
        InputError: not a name.

    Source: architecture.md (names compared case-insensitively); S-M9.
    """
    if type(name) is str and name in state.protagonists:
        return name  # the stored name itself (names are unique by `name_key`)
    found = find_name(state.protagonists, name, N_("a Protagoniste's name"))
    if found is None:
        raise NotFoundError(
            N_("no Protagoniste named {name!r} at this table"),
            tip=N_("Protagonistes: {known}"),
            name=name,
            known=", ".join(state.protagonists) or "-",
        )
    return found


def _player(state: ShsState, name: object) -> str:
    return player_named(state.players, name)


def check_visibility(value: object) -> str:
    """A fact's visibility, one of `tablee.systems.base.VISIBILITIES`.

    Raises:
        InputError: another value.
    """
    if value not in VISIBILITIES:
        raise InputError(
            N_("visibility {value!r} is not one of {known}"),
            value=value,
            known=", ".join(VISIBILITIES),
        )
    return str(value)


def free_text(value: object) -> str:
    """A free-text reason, trimmed (may be empty).

    Raises:
        InputError: not text.
    """
    if not isinstance(value, str):
        raise InputError(N_("a reason must be text, not {value!r}"), value=value)
    return value.strip()


def actor_of(state: ShsState, name: str) -> str:
    """Who acts for a Protagoniste: the player who plays it, else ``gm``."""
    return state.owners.get(name, "gm")


def decide_create(
    state: ShsState,
    *,
    name: str,
    carrure: int,
    motricite: int,
    science: int,
    relationnel: int,
    sang_froid: int,
    expertises: Iterable[str] = (),
    protection: int = 0,
    air: int = 0,
    owner: str | None = None,
) -> Decision:
    """Create a Protagoniste by free entry: full Santé from Carrure, NT 0, alive.

    Args:
        state: current state.
        name: the Protagoniste's name, unique at the table ignoring case.
        carrure, motricite, science, relationnel, sang_froid: thresholds 5 to 8.
        expertises: free-text Expertises, distinct.
        protection, air: 0 to `tablee.systems.shs.protagonist.MAX_COUNTER`.
        owner: the player who plays it, or None (the Réalisateur's).

    Returns:
        The decision; its outcome is the new `Protagonist`.

    Raises:
        InputError: a field out of range, naming the field; an unknown owner.
        RuleError: the name is taken, or the table already has `MAX_PROTAGONISTS`.

    Source: seed 003, "Caractéristiques", "Santé"; S-M9, S-N1, S-A9, S-A10, S-A11.
    """
    hero = create_protagonist(
        name,
        carrure=carrure,
        motricite=motricite,
        science=science,
        relationnel=relationnel,
        sang_froid=sang_froid,
        expertises=(expertises,) if isinstance(expertises, str) else tuple(expertises),
        protection=protection,
        air=air,
    )
    if find_name(state.protagonists, hero.name, N_("a Protagoniste's name")) is not None:
        raise RuleError(N_("a Protagoniste named {name!r} already exists"), name=hero.name)
    if len(state.protagonists) >= MAX_PROTAGONISTS:
        raise RuleError(
            N_("this table already has the maximum of {maximum} Protagonistes"),
            maximum=MAX_PROTAGONISTS,
        )
    player = None if owner is None else _player(state, owner)
    payload: dict[str, JSON] = {
        "name": hero.name,
        "owner": player,
        "carrure": hero.carrure,
        "motricite": hero.motricite,
        "science": hero.science,
        "relationnel": hero.relationnel,
        "sang_froid": hero.sang_froid,
        "expertises": list(hero.expertises),
        "protection": hero.protection,
        "air": hero.air,
        "sante": hero.sante,
        "sante_max": hero.sante_max,
    }
    owners = {**state.owners, hero.name: player} if player else state.owners
    after = replace(state, protagonists={**state.protagonists, hero.name: hero}, owners=owners)
    fact = Fact("shs.protagonist_created", payload, actor="gm")
    return Decision((fact,), hero, (), after)


def decide_options(state: ShsState, changes: Mapping[str, str]) -> Decision:
    """Change the table's house rules from text values.

    Returns:
        The decision; the fact stores every option's new value.

    Raises:
        InputError: an unknown option or a bad value, naming both.

    Source: seed 003; S-A1, S-A3, S-A5, S-A7, S-A13, S-A14, S-M7.
    """
    options = state.options.with_changes(changes)
    fact = Fact("shs.options_set", {"options": options.to_json()}, actor="gm")
    return Decision((fact,), options, (), replace(state, options=options))


def protagonist_json(state: ShsState, name: str) -> dict[str, JSON]:
    """A Protagoniste's traits and counters as JSON, with its player (for the summary).

    Source: seed 003; S-M9, S-N1, S-A9, S-A10.
    """
    hero = state.protagonists[name]
    return {
        "owner": state.owners.get(name),
        "alive": hero.alive,
        "sante": hero.sante,
        "sante_max": hero.sante_max,
        "protection": hero.protection,
        "air": hero.air,
        "nt": hero.nt,
        **{c.value: hero.threshold(c) for c in Characteristic},
        "expertises": list(hero.expertises),
    }
