"""Reading the SHS forms: choices, Attempts from typed lines, and an Action's dice.

The Caractéristiques and options offered, the fields of one side of an Action, who a form may
act for (a player, only for the Protagonistes they play), a difficulty by name, cooperation
members and a simultaneous set typed one per line (``A:B[:option...]``), and the faces of
an Action: typed in (action dice, then D+/- dice) or fair, checked against what it needs.

Source: issue 6 points 3 and 5; seed 003; rulings S-M2, S-M3, S-M5 to S-M7, S-A1, S-A13.
"""

from __future__ import annotations

from typing import Any

from tablee.dice import DPM, DiceRequest, FairSource, RandomSource, TypedFaces
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

__all__: list[str] = []

_GM = GM_ONLY
_BOTH = GM_AND_PLAYERS
_TRAITS = ("carrure", "motricite", "science", "relationnel", "sang_froid")


# --- choices -------------------------------------------------------------------------------------


_own = owned("protagonists")
"""The Protagonistes the viewer plays (all of them for the Réalisateur)."""
_every = every("protagonists")
_owners = owner_choices(N_("the Réalisateur"))


_CHARACTERISTICS = tuple((c.value, c.title) for c in shs.Characteristic)
_OPTIONS = (("", "-"), ("surpasser", "Se Surpasser"), ("sacrifier", "Se Sacrifier"))


def _side(prefix: str, label: str, choices: Any) -> tuple[Field, ...]:
    return (
        Field(prefix, label, "choice", choices),
        Field(prefix + "_characteristic", N_("Caractéristique"), "choice", _CHARACTERISTICS),
        Field(prefix + "_expertise", N_("Expertise that matches")),
        Field(prefix + "_bonus", N_("Bonus"), "int", default="0"),
        Field(prefix + "_malus", N_("Malus"), "int", default="0"),
        Field(prefix + "_option", N_("Option"), "choice", _OPTIONS),
    )


# --- reading the forms ---------------------------------------------------------------------------


def _attempt(req: ActionRequest, prefix: str, difficulty: int | None) -> shs.Attempt:
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


def _acting_for(req: ActionRequest, name: str) -> None:
    acting_for(req, owner_of(req, shs.protagonist_named, name))


def _difficulty(req: ActionRequest, name: str = "difficulty") -> int:
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


def _members(req: ActionRequest) -> list[shs.Attempt]:
    difficulty = _difficulty(req)
    found = []
    for line in req.lines("members"):
        name, characteristic, extra = _spec(line, "NAME:CARACTERISTIQUE[:option...]")
        found.append(shs.Attempt(name, characteristic, difficulty, **extra))
    return found


def _set(req: ActionRequest, who: str) -> list[shs.Attempt]:
    found = []
    for line in req.lines("actions"):
        characteristic, difficulty, extra = _spec(line, "CARACTERISTIQUE:DIFFICULTY[:option...]")
        found.append(shs.Attempt(who, characteristic, shs.difficulty_named(difficulty), **extra))
    return found


class _Dice:
    """An Action's faces: typed in (``faces``, ``dpm_faces``, in order) or fair."""

    def __init__(self, req: ActionRequest) -> None:
        typed = req.typed("faces")
        dpm = req.typed("dpm_faces", DPM) or []
        self.typed = typed is not None or bool(dpm)
        self.given = [len(typed or []), len(dpm)]
        self.needed = [0, 0]
        fair = FairSource()
        self.action: RandomSource = TypedFaces(typed or []) if self.typed else fair
        self.dpm: RandomSource = TypedFaces(dpm) if self.typed else fair

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        """One request's faces (this is a `tablee.dice.Chance`): action or D+/- dice."""
        index = 1 if request.die is DPM else 0
        self.needed[index] += request.count
        source = self.dpm if index else self.action
        return source.roll(request.die, request.count)

    def throw(self, roll: Any, options: Any) -> tuple[list[int], list[int]]:
        action, dpm = shs.throw_action(roll, self, options)
        return list(action), list(dpm)

    def finish(self) -> None:
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
