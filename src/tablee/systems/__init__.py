"""Game systems: one subpackage per game; pure rules, standard library only.

`SYSTEM_IDS` lists the registered systems; `system_named` loads one by id. A system's package
is imported only when a table of that system is used, so playing Pouyss never pays for
loading the others.
"""

from __future__ import annotations

from importlib import import_module

from tablee.errors import N_, InputError
from tablee.systems.base import System

__all__ = ["SYSTEM_IDS", "all_systems", "system_named"]

_REGISTRY = {
    "pouyss": ("tablee.systems.pouyss", "POUYSS"),
    "shs": ("tablee.systems.shs", "SHS"),
    "ybs": ("tablee.systems.ybs", "YBS"),
    "agents": ("tablee.systems.agents", "AGENTS"),
}

SYSTEM_IDS: tuple[str, ...] = tuple(_REGISTRY)
"""The ids of the registered systems, in the order they were added."""


def system_named(name: str) -> System:
    """The system with that id, its package imported on first use.

    Raises:
        InputError: no system has that id.
    """
    key = name.strip().lower()
    if key not in _REGISTRY:
        raise InputError(
            N_("unknown system {name!r}"),
            tip=N_("known systems: {known}"),
            name=name,
            known=", ".join(SYSTEM_IDS),
        )
    module, attribute = _REGISTRY[key]
    system: System = getattr(import_module(module), attribute)
    return system


def all_systems() -> tuple[System, ...]:
    """Every registered system (imports them all)."""
    return tuple(system_named(key) for key in SYSTEM_IDS)
