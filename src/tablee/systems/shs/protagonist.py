"""Protagonistes: five thresholds, Expertises, Santé, Protection, Air, NT, alive or dead.

Character creation is free entry (the text's creation cards are obsolete and give no
contents): five Caractéristique thresholds from 5+ to 8+, a list of Expertises as free text,
Santé whose maximum follows from Carrure, and Protection, Air and NT as counters that the
Réalisateur edits by hand, since the text has no damage, air or Psychologie rules. Se
Surpasser raises NT by 1 once the Action is over; Se Sacrifier kills the Protagoniste.

Every function is pure: it returns a new `Protagonist`.

Source: seed 003, "Caractéristiques", "Expertises", "Niveau de Tension", "Santé",
"Protection", "Air", "Options"; rulings S-M1, S-M5, S-M9, S-N1, S-A2, S-A8, S-A9, S-A10, S-A11.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from tablee.errors import N_, InputError, Message, RuleError
from tablee.systems.base import clean_name, name_key
from tablee.systems.common import whole
from tablee.systems.shs.actions import ActionResult
from tablee.systems.shs.difficulty import Test
from tablee.systems.shs.traits import (
    Characteristic,
    characteristic_named,
    check_threshold,
    starting_sante,
)

__all__ = [
    "COUNTERS",
    "MAX_COUNTER",
    "MAX_EXPERTISES",
    "Protagonist",
    "adjust_counter",
    "after_action",
    "create_protagonist",
    "kill",
    "prepare_test",
    "require_alive",
    "set_counter",
]

COUNTERS = ("sante", "protection", "air", "nt")
"""The counters the Réalisateur edits: Santé, Protection, Air, NT (S-A9, S-A10)."""
MAX_COUNTER = 10_000
"""Largest Protection, Air or NT Tablée accepts (against typing mistakes)."""
MAX_EXPERTISES = 50
"""Most Expertises one Protagoniste may list."""


@dataclass(frozen=True)
class Protagonist:
    """A Protagoniste's traits and counters.

    Attributes:
        name: 1 to 100 characters (see `tablee.systems.base.clean_name`).
        carrure, motricite, science, relationnel, sang_froid: thresholds, 5 to 8.
        sante: current Santé, 0 to `sante_max`.
        expertises: free-text Expertises, distinct ignoring case.
        protection: 0 to `MAX_COUNTER`.
        air: spacesuit air reserve, 0 to `MAX_COUNTER`.
        nt: Niveau de Tension (Tension cards in hand), 0 to `MAX_COUNTER` (S-A9).
        alive: False once dead (Se Sacrifier, or the Réalisateur's call).

    Raises:
        InputError: a field out of range, naming the field.

    Source: seed 003, "Caractéristiques", "Expertises", "Santé", "Protection", "Air"; S-M9,
    S-N1, S-A9, S-A10, S-A11.
    """

    name: str
    carrure: int
    motricite: int
    science: int
    relationnel: int
    sang_froid: int
    sante: int
    expertises: tuple[str, ...] = ()
    protection: int = 0
    air: int = 0
    nt: int = 0
    alive: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", clean_name(self.name, what=N_("a Protagoniste's name")))
        for characteristic in Characteristic:
            check_threshold(getattr(self, characteristic.value), what=characteristic.value)
        whole(self.sante, "sante", 0, self.sante_max, rule="S-A10")
        for counter in ("protection", "air", "nt"):
            whole(getattr(self, counter), counter, 0, MAX_COUNTER, rule="S-A10")
        object.__setattr__(self, "expertises", _expertises(self.expertises))
        if not isinstance(self.alive, bool):
            raise InputError(N_("alive must be true or false, not {value!r}"), value=self.alive)

    @property
    def sante_max(self) -> int:
        """Starting and maximum Santé, from Carrure: 9 to 12 (S-N1)."""
        return starting_sante(self.carrure)

    def threshold(self, characteristic: Characteristic | str) -> int:
        """The threshold of one Caractéristique (5 to 8).

        Raises:
            InputError: an unknown Caractéristique.
        """
        value: int = getattr(self, characteristic_named(characteristic).value)
        return value

    def has_expertise(self, expertise: str) -> bool:
        """Whether the Protagoniste lists this Expertise (ignoring case and accents' form)."""
        key = name_key(expertise)
        return any(name_key(e) == key for e in self.expertises)


def _expertises(values: Iterable[str]) -> tuple[str, ...]:
    if isinstance(values, str):
        values = (values,)
    names = tuple(clean_name(v, what=N_("an Expertise")) for v in values)
    if len(names) > MAX_EXPERTISES:
        raise InputError(
            N_("{count} Expertises is more than the maximum of {maximum}"),
            count=len(names),
            maximum=MAX_EXPERTISES,
        )
    if len({name_key(n) for n in names}) != len(names):
        raise InputError(N_("Expertises must differ: {names}"), names=", ".join(names))
    return names


def create_protagonist(
    name: str,
    *,
    carrure: int,
    motricite: int,
    science: int,
    relationnel: int,
    sang_froid: int,
    expertises: Iterable[str] = (),
    protection: int = 0,
    air: int = 0,
) -> Protagonist:
    """A new Protagoniste with full Santé and NT 0.

    Raises:
        InputError: a threshold outside 5..8 or another bad field, naming it.

    Source: seed 003; S-M9, S-N1, S-A9, S-A11 (free entry).
    """
    return Protagonist(
        name=name,
        carrure=carrure,
        motricite=motricite,
        science=science,
        relationnel=relationnel,
        sang_froid=sang_froid,
        sante=starting_sante(carrure),
        expertises=tuple(expertises),
        protection=protection,
        air=air,
    )


def _bound(protagonist: Protagonist, counter: str) -> int:
    if counter not in COUNTERS:
        raise InputError(
            N_("{counter!r} is not a counter (known: {known})"),
            counter=counter,
            known=", ".join(COUNTERS),
        )
    return protagonist.sante_max if counter == "sante" else MAX_COUNTER


def set_counter(protagonist: Protagonist, counter: str, value: int) -> Protagonist:
    """Set Santé, Protection, Air or NT by hand.

    Args:
        protagonist: the Protagoniste.
        counter: ``sante``, ``protection``, ``air`` or ``nt``.
        value: 0 to the counter's maximum (`Protagonist.sante_max` for Santé).

    Raises:
        InputError: an unknown counter or a value out of range, naming both.

    Source: seed 003; S-A9, S-A10 (the Réalisateur edits them; the text gives no rules).
    """
    high = _bound(protagonist, counter)
    checked = whole(value, counter, 0, high, rule="S-A10")
    return _changed(protagonist, counter, checked)


def adjust_counter(protagonist: Protagonist, counter: str, delta: int) -> Protagonist:
    """Add ``delta`` to a counter, keeping it within 0 and its maximum.

    Tablée fills a gap here: with no damage or healing rules in the text, a change past a
    bound stops at it (Santé never below 0 nor above its maximum; NT never below 0).

    Raises:
        InputError: an unknown counter, or a ``delta`` that is not a whole number.

    Source: seed 003; S-A9, S-A10.
    """
    high = _bound(protagonist, counter)
    whole(delta, Message(N_("the change")), rule="S-A10")
    current: int = getattr(protagonist, counter)
    value = min(max(current + delta, 0), high)
    return _changed(protagonist, counter, value)


_FIELDS = frozenset(f.name for f in fields(Protagonist))


def _changed(protagonist: Protagonist, field: str, value: object) -> Protagonist:
    """The Protagoniste with one field set to a value already checked against its bounds.

    The other fields were checked when ``protagonist`` was built and do not change, so the
    copy is not checked again field by field (`dataclasses.replace` would run every check
    of `Protagonist.__post_init__`, the name's and Expertises' included).
    """
    if field not in _FIELDS:
        raise TypeError(f"Protagonist has no field {field!r}")
    copy = object.__new__(Protagonist)
    copy.__dict__.update(protagonist.__dict__)
    copy.__dict__[field] = value
    return copy


def kill(protagonist: Protagonist) -> Protagonist:
    """The Protagoniste, dead (the Réalisateur's call, or Se Sacrifier).

    Source: seed 003; S-M5, S-A8.
    """
    return _changed(protagonist, "alive", False)


def require_alive(protagonist: Protagonist) -> None:
    """Refuse an Action by a dead Protagoniste.

    Raises:
        RuleError: the Protagoniste is dead, naming them.

    Source: seed 003; S-M1, S-A8.
    """
    if not protagonist.alive:
        raise RuleError(
            N_("{name} is dead and cannot act (rules S-M1, S-A8: only living Protagonistes roll)"),
            name=protagonist.name,
        )


def prepare_test(
    protagonist: Protagonist,
    characteristic: Characteristic | str,
    difficulty: int,
    *,
    expertise: str | None = None,
    bonus: int = 0,
    malus: int = 0,
    surpass: bool = False,
    sacrifice: bool = False,
) -> Test:
    """The Test a Protagoniste rolls, with the threshold of the Caractéristique used.

    Args:
        protagonist: who acts; must be alive.
        characteristic: the Caractéristique the Réalisateur names.
        difficulty: 1 or more.
        expertise: the Expertise that matches perfectly, if any; the Protagoniste must list it.
        bonus, malus, surpass, sacrifice: as in `tablee.systems.shs.actions.Test`.

    Raises:
        RuleError: the Protagoniste is dead; both options at once (S-M5).
        InputError: an unknown Caractéristique, an Expertise not listed, a bad Difficulty.

    Source: seed 003; S-M1, S-M2, S-A2, S-A8.
    """
    require_alive(protagonist)
    if expertise is not None and not protagonist.has_expertise(expertise):
        raise InputError(
            N_("{name} has no Expertise {expertise!r} (rule S-A2)"),
            tip=N_("Expertises: {known}"),
            name=protagonist.name,
            expertise=expertise,
            known=", ".join(protagonist.expertises) or "-",
        )
    chosen = characteristic_named(characteristic)
    return Test(
        threshold=protagonist.threshold(chosen),
        difficulty=difficulty,
        characteristic=chosen,
        expertise=expertise is not None,
        bonus=bonus,
        malus=malus,
        surpass=surpass,
        sacrifice=sacrifice,
    )


def after_action(protagonist: Protagonist, result: ActionResult) -> Protagonist:
    """The Protagoniste once an Action is over.

    NT +1 after Se Surpasser; death after Se Sacrifier, whatever the outcome.

    Raises:
        RuleError: the Protagoniste was already dead.

    Source: seed 003; S-M5, S-A8, S-A9.
    """
    require_alive(protagonist)
    changed = adjust_counter(protagonist, "nt", result.nt_gain)
    return kill(changed) if result.dies else changed
