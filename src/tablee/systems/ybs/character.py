"""YBS characters: six traits, attributes, hit points, Uchimi and Kega boxes, stars.

A character's six traits run from -2 to +2 (0 is average). Hit points are ``4 + Choushi``
boxes (Y-N1, extended linearly to -2 and +2 by Y-A1). Boxes are counted, not ordered: a
number of Uchimi ("/") and of Kega ("X") with ``uchimi + kega <= hit points`` (Y-A19).
Stars (0 to 4) are kept per trait until the fifth raises it (Y-M9, Y-A20).

`sheet_from_mapping` reads a character sheet from parsed JSON or TOML (`parse_sheets` parses
the text with the standard library), naming the bad field in every error.

Source: seed 004 ("Les traits", "Les attributs", "Points de vie et dégâts"); rulings Y-M1,
Y-N1, Y-A1, Y-A19, Y-A21, Y-A22.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from tablee.dice import TraceStep
from tablee.errors import N_, InputError, Message
from tablee.systems.base import clean_name
from tablee.systems.common import read_document, whole

__all__ = [
    "DEFAULT_SPREAD",
    "MAX_ATTRIBUTES",
    "MAX_STARS",
    "MAX_TRAIT",
    "MIN_TRAIT",
    "Character",
    "Trait",
    "check_trait_value",
    "create_character",
    "hit_points",
    "parse_sheets",
    "sheet_from_mapping",
    "spread_warnings",
    "trait_named",
]

MIN_TRAIT = -2
"""Lowest trait value (Y-M1)."""
MAX_TRAIT = 2
"""Highest trait value (Y-M1, Y-M9)."""
MAX_STARS = 5
"""Stars that raise a trait one level (Y-M9)."""
MAX_ATTRIBUTES = 50
"""Most attributes on one sheet (Tablée's limit, against typing mistakes)."""
DEFAULT_SPREAD = (-1, 0, 0, 0, 1, 1)
"""The default creation spread, sorted: one -1, three 0, two +1 (Y-M1, Y-T11)."""


class Trait(Enum):
    """The six traits, by their stored id; ``title`` is the game term."""

    CHOUSHI = "choushi"
    KIYOUSA = "kiyousa"
    CHISEI = "chisei"
    YUUBEN = "yuuben"
    CHIKAKU = "chikaku"
    NINTAI = "nintai"

    @property
    def title(self) -> str:
        """The trait's name as the game writes it (``Choushi``)."""
        return self.value.capitalize()

    @property
    def index(self) -> int:
        """Position in `Character.traits` (0 to 5, the text's order)."""
        return list(Trait).index(self)


def trait_named(name: object) -> Trait:
    """A trait from its name, in any case (``Choushi``, ``nintai``).

    Raises:
        InputError: not one of the six traits.

    Source: seed 004, "Les traits"; Y-M1.
    """
    if isinstance(name, Trait):
        return name
    key = str(name).strip().casefold()
    for trait in Trait:
        if trait.value == key:
            return trait
    raise InputError(
        N_("unknown trait {name!r} (rule Y-M1)"),
        tip=N_("traits: {known}"),
        name=name,
        known=", ".join(t.title for t in Trait),
    )


def check_trait_value(value: object, *, what: str = "trait") -> int:
    """A trait value, a whole number from -2 to +2.

    Args:
        value: the value as given.
        what: the field's name, for the message.

    Raises:
        InputError: not a whole number, or outside -2..+2, naming the field.

    Source: Y-M1.
    """
    return whole(value, what, MIN_TRAIT, MAX_TRAIT, rule="Y-M1")


def hit_points(choushi: int) -> int:
    """Hit point boxes for a Choushi value: 4 + Choushi (2 to 6).

    Raises:
        InputError: Choushi outside -2..+2.

    Source: seed 004, "Points de vie et dégâts"; Y-N1, Y-A1, Y-T1.
    """
    return 4 + check_trait_value(choushi, what="Choushi")


@dataclass(frozen=True)
class Character:
    """One YBS character.

    Attributes:
        name: unique at the table, ignoring case.
        traits: the six values in `Trait` order, each -2..+2.
        attributes: free-text attributes (Y-M2), distinct.
        stars: stars per trait in `Trait` order, each 0..4.
        uchimi: boxes marked "/" (0 or more).
        kega: boxes marked "X" (0 or more); ``uchimi + kega <= hit_points``.
        emergency: damage went on after every box was "X": life in danger (Y-M5).
        kega_notes: free-text notes on the Kega (nature, care, healing time; Y-A22).
        traumas: each trait under a trauma (its id) -> the levels the trauma took from it
            (0 or more: a -2 loses none), until the GM lifts it (Y-X1, Y-X2).
        trauma_kega: Kega already counted by a trauma, 0 or more; only the marked Kega
            beyond them (at most ``kega``) can bring another one (Y-X1).

    Raises:
        InputError: at construction, a value out of range, naming the field.

    Source: Y-M1, Y-M5, Y-M9, Y-A19, Y-A22, Y-X1, Y-X2.
    """

    name: str
    traits: tuple[int, ...]
    attributes: tuple[str, ...] = ()
    stars: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    uchimi: int = 0
    kega: int = 0
    emergency: bool = False
    kega_notes: tuple[str, ...] = field(default=())
    traumas: Mapping[str, int] = field(default_factory=dict)
    trauma_kega: int = 0

    def __post_init__(self) -> None:
        if len(self.traits) != len(Trait) or len(self.stars) != len(Trait):
            raise InputError(N_("a character has six traits and six star counts (rule Y-M1)"))
        for trait, value, stars in zip(Trait, self.traits, self.stars, strict=True):
            check_trait_value(value, what=trait.title)
            where = Message(N_("stars on {trait}"), trait=trait.title)
            whole(stars, where, 0, MAX_STARS - 1, rule="Y-M9")
        for key in ("uchimi", "kega"):
            whole(getattr(self, key), key.capitalize(), 0, rule="Y-M5")
        whole(self.trauma_kega, Message(N_("Kega counted by a trauma")), 0, rule="Y-X1")
        for key, taken in self.traumas.items():
            where = Message(N_("levels taken by a trauma on {trait}"), trait=trait_named(key).title)
            whole(taken, where, 0, MAX_TRAIT - MIN_TRAIT, rule="Y-X2")
        if self.uchimi + self.kega > self.hit_points:
            raise InputError(
                N_(
                    "{uchimi} Uchimi and {kega} Kega do not fit in {hp} hit points "
                    "(rules Y-M5, Y-A19)"
                ),
                uchimi=self.uchimi,
                kega=self.kega,
                hp=self.hit_points,
            )

    def trait(self, trait: Trait | str) -> int:
        """A trait's value."""
        return self.traits[trait_named(trait).index]

    def star_count(self, trait: Trait | str) -> int:
        """Stars on a trait (0..4)."""
        return self.stars[trait_named(trait).index]

    @property
    def hit_points(self) -> int:
        """Hit point boxes: 4 + Choushi (Y-A1)."""
        return 4 + self.traits[0]

    @property
    def marked(self) -> int:
        """Boxes marked, "/" or "X"."""
        return self.uchimi + self.kega

    @property
    def prostrate(self) -> bool:
        """Every box is marked: the character lies on the ground (Y-M5)."""
        return self.marked >= self.hit_points

    @property
    def fresh_kega(self) -> int:
        """Marked Kega that no trauma has counted yet (Y-X1)."""
        return self.kega - min(self.trauma_kega, self.kega)


def _attributes(raw: Iterable[object]) -> tuple[str, ...]:
    names = tuple(clean_name(a, what=N_("an attribute")) for a in raw)
    if len({n.casefold() for n in names}) != len(names):
        raise InputError(N_("attributes must differ: {names}"), names=", ".join(names))
    if len(names) > MAX_ATTRIBUTES:
        raise InputError(
            N_("{count} attributes is more than the maximum of {maximum}"),
            count=len(names),
            maximum=MAX_ATTRIBUTES,
        )
    return names


def create_character(
    name: object,
    traits: Mapping[str, int],
    *,
    attributes: Iterable[object] = (),
    stars: Mapping[str, int] | None = None,
) -> Character:
    """A new character with every box free.

    Args:
        name: its name (1 to 100 characters).
        traits: every trait's value by name (all six, -2..+2).
        attributes: free-text attributes, distinct ignoring case.
        stars: stars already earned per trait (0..4), none by default.

    Returns:
        The character; see `spread_warnings` for the creation spread check.

    Raises:
        InputError: a missing or unknown trait, a value out of range, naming the field.

    Source: seed 004, "Les traits", "Les attributs"; Y-M1, Y-M2, Y-A21.
    """
    clean = clean_name(name, what=N_("a character's name"))
    given = {trait_named(k): v for k, v in traits.items()}
    missing = [t.title for t in Trait if t not in given]
    if missing:
        raise InputError(
            N_("character {name!r}: missing trait(s) {missing} (rule Y-M1)"),
            name=clean,
            missing=", ".join(missing),
        )
    star_map = {trait_named(k): v for k, v in (stars or {}).items()}
    return Character(
        clean,
        tuple(check_trait_value(given[t], what=t.title) for t in Trait),
        _attributes([attributes] if isinstance(attributes, str) else attributes),
        tuple(star_map.get(t, 0) for t in Trait),
    )


def spread_warnings(traits: Sequence[int]) -> tuple[TraceStep, ...]:
    """A notice when the traits are not the default spread (two +1, one -1, three 0).

    The spread is a default the GM may change, so this never blocks (Y-A21).

    Source: seed 004, "Les traits"; Y-M1, Y-A21, Y-T11.
    """
    if tuple(sorted(traits)) == DEFAULT_SPREAD:
        return ()
    return (
        TraceStep(
            N_(
                "the traits {values} are not the default spread (two +1, one -1, three 0): "
                "allowed when the GM agrees"
            ),
            {"values": ", ".join(f"{t.title} {v:+d}" for t, v in zip(Trait, traits, strict=True))},
        ),
    )


_SHEET_KEYS = {"name", "nom", "player", "joueur", "owner", "traits", "attributes", "attributs"}
_SHEET_KEYS |= {"stars", "etoiles", "étoiles", "uchimi", "kega", "tokens", "jetons"}


def _field(data: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in data:
            return data[key]
    return None


def sheet_from_mapping(data: object, *, where: str | Message = "sheet") -> dict[str, Any]:
    """A character sheet from parsed JSON or TOML, checked field by field.

    Accepted shape: ``{"name": ..., "player": ... (optional), "traits": {"choushi": 1, ...},
    "attributes": [...], "stars": {...} (optional), "uchimi": 0, "kega": 0, "tokens": 0}``;
    the six traits may also be given at the top level. A trait left out is 0, as with the
    ``create`` command. French keys (``nom``, ``joueur``, ``attributs``, ``jetons``) work.
    ``tokens`` are the Unmei tokens the sheet brings its player (Y-X7).

    Args:
        data: the parsed value.
        where: where it came from, for messages (``file.toml, character 2``).

    Returns:
        ``{"name", "owner", "traits", "attributes", "stars", "uchimi", "kega", "tokens"}``
        checked.

    Raises:
        InputError: a field missing, unknown or out of range, naming the field and ``where``.

    Source: Y-M1, Y-M2, Y-M9; docs/rules/ybs.md, "Characters".
    """
    if not isinstance(data, Mapping):
        raise InputError(N_("{where}: expected a character (a table of fields)"), where=where)
    trait_keys = {t.value for t in Trait}
    for key in data:
        if str(key).casefold() not in _SHEET_KEYS | trait_keys:
            raise InputError(N_("{where}: unknown field {field!r}"), where=where, field=key)
    raw_traits = _field(data, "traits")
    if raw_traits is None:
        raw_traits = {k: v for k, v in data.items() if str(k).casefold() in trait_keys}
    if not isinstance(raw_traits, Mapping):
        raise InputError(N_("{where}: field 'traits' must map trait names to values"), where=where)
    try:
        named = {trait_named(k): v for k, v in raw_traits.items()}
    except InputError as exc:
        raise InputError(N_("{where}: {error}"), where=where, error=exc) from exc
    # A trait left out is 0, as with `tablee ybs character create` (Tablée's decision).
    raw_traits = {t.value: named.get(t, 0) for t in Trait}
    attributes = _field(data, "attributes", "attributs") or []
    stars = _field(data, "stars", "etoiles", "étoiles") or {}
    if not isinstance(attributes, list) or not isinstance(stars, Mapping):
        raise InputError(
            N_("{where}: 'attributes' must be a list and 'stars' a table"), where=where
        )
    try:
        hero = create_character(
            _field(data, "name", "nom"), dict(raw_traits), attributes=attributes, stars=stars
        )
        hero = Character(
            hero.name,
            hero.traits,
            hero.attributes,
            hero.stars,
            data.get("uchimi", 0),
            data.get("kega", 0),
        )
        tokens = whole(
            _field(data, "tokens", "jetons") or 0, Message(N_("Unmei tokens")), 0, rule="Y-M4"
        )
    except InputError as exc:
        raise InputError(N_("{where}: {error}"), where=where, error=exc) from exc
    owner = _field(data, "player", "joueur", "owner")
    return {
        "name": hero.name,
        "owner": owner,
        "traits": {t.value: hero.trait(t) for t in Trait},
        "attributes": list(hero.attributes),
        "stars": {t.value: hero.star_count(t) for t in Trait},
        "uchimi": hero.uchimi,
        "kega": hero.kega,
        "tokens": tokens,
    }


def parse_sheets(text: str, *, toml: bool, where: str | Message) -> list[dict[str, Any]]:
    """The character sheets of a JSON or TOML text: one, a list, or ``characters = [...]``.

    Args:
        text: the file's text.
        toml: parse as TOML (else JSON).
        where: the file's name, for messages.

    Returns:
        The sheets, each checked by `sheet_from_mapping`.

    Raises:
        InputError: the text does not parse, or a sheet is bad (naming the field).

    Source: Y-M1; docs/rules/ybs.md, "Characters" (sheets imported from JSON or TOML).
    """
    data: Any = read_document(text, toml=toml, where=where)
    if isinstance(data, Mapping):
        for key in ("characters", "personnages", "character", "personnage"):
            if key in data and len(data) == 1:
                data = data[key]
                break
    sheets = [data] if isinstance(data, Mapping) else data
    if not isinstance(sheets, list) or not sheets:
        raise InputError(N_("{file}: expected a character or a list of characters"), file=where)
    return [
        sheet_from_mapping(s, where=Message(N_("{file}, character {n}"), file=where, n=i))
        for i, s in enumerate(sheets, 1)
    ]
