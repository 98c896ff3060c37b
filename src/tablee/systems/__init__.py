"""Game systems: one subpackage per game; pure rules, standard library only.

`SYSTEMS` lists the registered systems; `system_named` finds one by id.
"""

from __future__ import annotations

from tablee.errors import N_, InputError
from tablee.systems.base import System
from tablee.systems.pouyss import POUYSS
from tablee.systems.shs import SHS

__all__ = ["SYSTEMS", "system_named"]

SYSTEMS: tuple[System, ...] = (POUYSS, SHS)


def system_named(name: str) -> System:
    """The system with that id.

    Raises:
        InputError: no system has that id.
    """
    for system in SYSTEMS:
        if system.id == name.strip().lower():
            return system
    raise InputError(
        N_("unknown system {name!r}"),
        tip=N_("known systems: {known}"),
        name=name,
        known=", ".join(s.id for s in SYSTEMS),
    )
