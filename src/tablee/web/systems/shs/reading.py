"""Reading the SHS forms: choices, Attempts from typed lines, and an Action's dice.

The Caractéristiques and options offered, the fields of one side of an Action, who a form may
act for (a player, only for the Protagonistes they play), a difficulty by name, cooperation
members and a simultaneous set typed one per line (``A:B[:option...]``), and the faces of
an Action: typed in (action dice, then D+/- dice) or fair, checked against what it needs.

Source: docs/web.md, "Space Horror Stories at the web table"; seed 003; rulings S-M2, S-M3, S-M5 to
S-M7, S-A1, S-A13.
"""

from __future__ import annotations

from typing import Any

from tablee.dice import FairSource, RandomSource, TypedFaces
from tablee.errors import N_, InputError
from tablee.systems import shs
from tablee.systems.shs.notation import attempt_options
from tablee.web.systems import (
    GM_AND_PLAYERS,
    GM_ONLY,
    ActionRequest,
    Field,
    acting_for,
    every,
    owned,
    owner_choices,
    owner_of,
)

__all__ = [
    "BOTH",
    "CHARACTERISTICS",
    "GM",
    "TRAITS",
    "Dice",
    "acting_for_protagonist",
    "attempt_of",
    "cooperation_members",
    "difficulty_of",
    "every_protagonist",
    "own_protagonists",
    "owners",
    "side_fields",
    "simultaneous_attempts",
]

GM = GM_ONLY
BOTH = GM_AND_PLAYERS
TRAITS = ("carrure", "motricite", "science", "relationnel", "sang_froid")


# --- choices -------------------------------------------------------------------------------------


own_protagonists = owned("protagonists")
"""The Protagonistes the viewer plays (all of them for the Réalisateur)."""
every_protagonist = every("protagonists")
owners = owner_choices(N_("the Réalisateur"))


CHARACTERISTICS = tuple((c.value, c.title) for c in shs.Characteristic)
_OPTIONS = (("", "-"), ("surpasser", "Se Surpasser"), ("sacrifier", "Se Sacrifier"))


def side_fields(prefix: str, label: str, choices: Any) -> tuple[Field, ...]:
    """The fields of one side of an Action: who, Caractéristique, Expertise, Bonus, Malus."""
    return (
        Field(prefix, label, "choice", choices),
        Field(prefix + "_characteristic", N_("Caractéristique"), "choice", CHARACTERISTICS),
        Field(prefix + "_expertise", N_("Expertise that matches")),
        Field(prefix + "_bonus", N_("Bonus"), "int", default="0"),
        Field(prefix + "_malus", N_("Malus"), "int", default="0"),
        Field(prefix + "_option", N_("Option"), "choice", _OPTIONS),
    )


# --- reading the forms ---------------------------------------------------------------------------


def attempt_of(req: ActionRequest, prefix: str, difficulty: int | None) -> shs.Attempt:
    """The Attempt read from the fields of one side (named with ``prefix``)."""
    option = req.text(prefix + "_option")
    return shs.Attempt(
        req.text(prefix),
        req.text(prefix + "_characteristic"),
        difficulty,
        req.optional(prefix + "_expertise"),
        req.number(prefix + "_bonus"),
        req.number(prefix + "_malus"),
        option == "surpasser",
        option == "sacrifier",
    )


def acting_for_protagonist(req: ActionRequest, name: str) -> None:
    """A player may act only for a Protagoniste they play."""
    acting_for(req, owner_of(req, shs.protagonist_named, name))


def difficulty_of(req: ActionRequest, name: str = "difficulty") -> int:
    """The Difficulty of a field (a number or its name)."""
    return int(shs.difficulty_named(req.text(name)))


def _spec(line: str, shape: str) -> tuple[str, str, dict[str, Any]]:
    """Split ``A:B[:option...]`` into its two leading parts and its options.

    Raises:
        InputError: fewer than two parts, or an unknown option.
    """
    parts = [p.strip() for p in line.split(":")]
    if len(parts) < 2 or not parts[0] or not parts[1]:
        raise InputError(N_("{value!r}: expected {shape}"), value=line, shape=shape)
    extra, bad = attempt_options(parts[2:])
    if bad is not None:
        raise InputError(
            N_(
                "{value!r}: {part!r} is not an option (expertise=TEXT, bonus=N, malus=N, "
                "surpasser, sacrifier)"
            ),
            value=line,
            part=bad,
        )
    return parts[0], parts[1], extra


def cooperation_members(req: ActionRequest) -> list[shs.Attempt]:
    """The members of a cooperation, one ``NAME:CARACTERISTIQUE[:option...]`` a line.

    Raises:
        InputError: a line without its two parts, or an unknown option.
    """
    difficulty = difficulty_of(req)
    found = []
    for line in req.lines("members"):
        name, characteristic, extra = _spec(line, "NAME:CARACTERISTIQUE[:option...]")
        found.append(shs.Attempt(name, characteristic, difficulty, **extra))
    return found


def simultaneous_attempts(req: ActionRequest, who: str) -> list[shs.Attempt]:
    """A simultaneous set for ``who``, one ``CARACTERISTIQUE:DIFFICULTY[:option...]`` a line.

    Raises:
        InputError: a line without its two parts, an unknown option or Difficulty.
    """
    found = []
    for line in req.lines("actions"):
        characteristic, difficulty, extra = _spec(line, "CARACTERISTIQUE:DIFFICULTY[:option...]")
        found.append(shs.Attempt(who, characteristic, shs.difficulty_named(difficulty), **extra))
    return found


class Dice:
    """An Action's faces: typed in (``faces``, ``dpm_faces``, in order) or fair."""

    def __init__(self, req: ActionRequest) -> None:
        typed = req.typed("faces")
        dpm_text = req.text("dpm_faces")
        dpm = [shs.parse_dpm_face(p) for p in dpm_text.replace(" ", ",").split(",") if p]
        self.typed = typed is not None or bool(dpm)
        self.given = [len(typed or []), len(dpm)]
        self.needed = [0, 0]
        fair = FairSource()
        self.action: RandomSource = TypedFaces(typed or []) if self.typed else fair
        self.dpm: RandomSource = TypedFaces(dpm) if self.typed else fair

    def throw(self, roll: Any, options: Any) -> tuple[list[int], list[int]]:
        """One Action's ``(action faces, D+/- faces)``, typed in or fair."""
        first, *rest = shs.dice_for_action(roll, options)
        self.needed[0] += first.count
        self.needed[1] += sum(r.count for r in rest)
        action = list(self.action.roll(first.die, first.count))
        return action, [f for r in rest for f in self.dpm.roll(r.die, r.count)]

    def finish(self) -> None:
        """Typed faces that are not exactly what the roll needed are an error."""
        if self.typed and self.given != self.needed:
            raise InputError(
                N_(
                    "{given} action and {dpm} D+/- faces were typed in; the roll needs "
                    "{needed} and {needed_dpm}"
                ),
                given=self.given[0],
                dpm=self.given[1],
                needed=self.needed[0],
                needed_dpm=self.needed[1],
            )
