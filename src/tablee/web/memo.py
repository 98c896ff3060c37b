"""Values computed once per table (or game) state and shared by every viewer of it.

Source: docs/architecture.md, "Web hot path".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

__all__ = ["STATES_KEPT", "StateMemo", "kept_value"]

STATES_KEPT = 32
"""How many recent table or game states `StateMemo` keeps values for (then it starts over)."""

V = TypeVar("V")
K = TypeVar("K", bound=Hashable)


def kept_value(kept: dict[K, V], key: K, limit: int, make: Callable[[], V]) -> V:
    """``kept[key]``, made by ``make()`` when missing; past ``limit`` keys the oldest half goes.

    A dictionary keeps its keys in insertion order: the first half are the oldest.
    """
    found = kept.get(key)
    if found is None:
        if len(kept) >= limit:
            for old in list(kept)[: limit // 2]:
                kept.pop(old, None)
        found = kept[key] = make()
    return found


class StateMemo:
    """Values computed from one state object, shared while it is recent (by identity).

    The web table's states are never changed once made (a command makes a new one), and
    each stream message of a table is drawn from the same state object for every viewer:
    what a game computes from the state alone (its panels, its choice lists, who may use a
    command) is computed once per state, then only the viewer's part per viewer. A state is
    held while its values are kept, so its identity is not reused meanwhile; past
    `STATES_KEPT` states the oldest half is dropped (a state holds its table's events:
    few are kept). Thread-safe enough: two threads may both compute a value, never
    mix two states' values.
    """

    def __init__(self) -> None:
        self._kept: dict[int, tuple[object, dict[Hashable, Any]]] = {}

    def get(self, state: object, key: Hashable, make: Callable[[], V]) -> V:
        """The value of ``key`` for ``state``: kept, else ``make()`` (kept unless it raises)."""
        found = self._kept.get(id(state))
        if found is None or found[0] is not state:
            if len(self._kept) >= STATES_KEPT:  # the oldest half goes
                for old in list(self._kept)[: STATES_KEPT // 2]:
                    self._kept.pop(old, None)
            found = self._kept[id(state)] = (state, {})
        values = found[1]
        if key in values:
            value: V = values[key]
            return value
        value = values[key] = make()
        return value
