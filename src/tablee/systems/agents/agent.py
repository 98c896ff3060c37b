"""Agents: organisation, Sang, the three reserves and the signature object.

An agent belongs to an organisation, starts with 3 Sang and sets Muscles, Sexe and
Intelligence to 7, 5 and 3 in the order the player likes. The three are reserves: points
spent on failures in challenges and recovered by the rules of `tablee.systems.agents.reserves`.
The starting values are kept apart from the current ones: they are the "whole reserve" that
a full restore returns to (G-A9). The signature object has no mechanical effect.

Source: seed ``002_59b03dd224c3b923.txt`` ("Création de personnage", "Caractéristiques",
"Equipement"); rulings G-M1, G-N1, G-A9, G-A11.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tablee.errors import N_, InputError, Message
from tablee.systems.base import clean_name
from tablee.systems.common import replaced, whole

__all__ = [
    "MAX_RESERVE",
    "MAX_SANG",
    "RESERVE_VALUES",
    "STARTING_SANG",
    "Agent",
    "Reserve",
    "create_agent",
    "reserve_named",
]

STARTING_SANG = 3
"""Sang of a new agent, also the cap when Sang is recovered (G-M1, G-A11)."""
MAX_SANG = STARTING_SANG
"""Sang never goes above this (G-A11)."""
RESERVE_VALUES = (7, 5, 3)
"""The values Muscles, Sexe and Intelligence take, in any order (G-M1, G-N1)."""
MAX_RESERVE = 1000
"""Tablée's bound on a reserve (the text sets none; it guards against typing mistakes)."""


class Reserve(Enum):
    """A reserve, which is also the type of a challenge; the value is a stable id.

    Source: seed 002, "Caractéristiques", "Challenge"; G-M1, G-M2.
    """

    MUSCLES = "muscles"
    SEXE = "sexe"
    INTELLIGENCE = "intelligence"

    @property
    def title(self) -> str:
        """The game's French name (``Muscles``, ``Sexe``, ``Intelligence``)."""
        return self.value.capitalize()


def bounded_sang(value: int) -> int:
    """Sang ``value`` kept within 0..`MAX_SANG` (G-A11)."""
    if 0 <= value <= MAX_SANG:
        return value
    return 0 if value < 0 else MAX_SANG


def reserve_named(text: object) -> Reserve:
    """A reserve (or challenge type) from its id or name, in any case (``Sexe``, ``muscle``).

    Raises:
        InputError: no reserve has that name.

    Source: G-M2.
    """
    key = str(text).strip().casefold()
    aliases = {"muscle": "muscles", "int": "intelligence", "sex": "sexe"}
    key = aliases.get(key, key)
    for reserve in Reserve:
        if reserve.value == key:
            return reserve
    raise InputError(
        N_("{value!r} is not a challenge type (Muscles, Sexe or Intelligence; rule G-M2)"),
        value=text,
    )


def _reserve_value(name: str, value: object) -> int:
    return whole(value, name, 0, MAX_RESERVE, rule="G-M1")


_INDEX = {kind: i for i, kind in enumerate(Reserve)}
"""Each reserve's place in an agent's ``current`` and ``starting`` triples."""


@dataclass(frozen=True)
class Agent:
    """An agent: who they are, their reserves now and at the start, their Sang.

    Attributes:
        name: the agent's name (clean, 1 to 100 characters).
        organisation: the agency or secret organisation (free text, may be empty).
        signature: the one object always carried at an adventure's start (free text,
            no mechanical effect).
        current: Muscles, Sexe, Intelligence now, each 0 or more.
        starting: Muscles, Sexe, Intelligence at creation (the "whole reserve", G-A9).
        sang: Sang now, 0 to `MAX_SANG`.

    Source: seed 002; G-M1, G-A9, G-A11.
    """

    name: str
    organisation: str
    signature: str
    current: tuple[int, int, int]
    starting: tuple[int, int, int]
    sang: int = STARTING_SANG

    def reserve(self, which: Reserve) -> int:
        """The current value of one reserve."""
        return self.current[_INDEX[which]]

    def start(self, which: Reserve) -> int:
        """The starting value of one reserve (its full-restore value, G-A9)."""
        return self.starting[_INDEX[which]]

    def with_reserve(self, which: Reserve, value: int) -> Agent:
        """The agent with one reserve set to ``value`` (clamped at 0 and `MAX_RESERVE`)."""
        values = list(self.current)
        values[_INDEX[which]] = max(0, min(MAX_RESERVE, value))
        return replaced(self, current=(values[0], values[1], values[2]))

    def with_sang(self, value: int) -> Agent:
        """The agent with Sang set to ``value``, kept within 0..`MAX_SANG` (G-A11)."""
        return replaced(self, sang=bounded_sang(value))

    def restored(self) -> Agent:
        """Every reserve back to at least its starting value (the favori's restore, G-M12)."""
        values = tuple(max(c, s) for c, s in zip(self.current, self.starting, strict=True))
        return replaced(self, current=(values[0], values[1], values[2]))


def create_agent(
    name: str,
    *,
    organisation: str = "",
    signature: str = "",
    muscles: int,
    sexe: int,
    intelligence: int,
    free: bool = False,
) -> Agent:
    """Create an agent: Sang 3 and Muscles/Sexe/Intelligence a permutation of 7, 5, 3.

    Args:
        name: the agent's name.
        organisation: the agency or organisation (free text).
        signature: the signature object (free text, no effect).
        muscles, sexe, intelligence: the three reserves.
        free: allow any values 0 to `MAX_RESERVE` (for ordinary humans or opponents, who
            have 1 to 3 each by the text), not only the permutation.

    Returns:
        The agent, its current reserves equal to its starting ones.

    Raises:
        InputError: a bad name or text, a value out of range, or (unless ``free``) values
            that are not 7, 5 and 3 in some order (rule G-M1).

    Source: seed 002, "Création de personnage", "Caractéristiques"; G-M1, G-N1.
    """
    clean = clean_name(name, what=N_("an agent's name"))
    for label, text in (
        (N_("organisation"), organisation),
        (N_("signature object"), signature),
    ):
        if not isinstance(text, str) or len(text) > 200:
            raise InputError(
                N_("the {label} must be text of at most 200 characters, not {value!r}"),
                label=Message(label),
                value=text,
            )
    values = (
        _reserve_value("Muscles", muscles),
        _reserve_value("Sexe", sexe),
        _reserve_value("Intelligence", intelligence),
    )
    if not free and sorted(values, reverse=True) != list(RESERVE_VALUES):
        raise InputError(
            N_(
                "Muscles {muscles}, Sexe {sexe}, Intelligence {intelligence} is not 7, 5 and 3 "
                "in some order (rule G-M1)"
            ),
            tip=N_(
                "give each of 7, 5 and 3 to one of the three, e.g. Muscles 7, Sexe 3, "
                "Intelligence 5"
            ),
            muscles=muscles,
            sexe=sexe,
            intelligence=intelligence,
        )
    return Agent(clean, organisation.strip(), signature.strip(), values, values)
