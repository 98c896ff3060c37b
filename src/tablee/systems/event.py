"""Typed, versioned events: one class per stored event kind, its payload read and written.

An event class is a frozen dataclass deriving from `Event`. It names its stored ``kind``
(a stable dotted name such as ``pouyss.roll``, never a Python path), the ``version`` of its
payload's shape, the ``upgrades`` that turn an older payload into the next version, and a
one-line ``about`` saying what it records. Its fields are JSON-compatible: ``int``, ``str``,
``bool``, None, tuples (stored as lists), mappings of those, and nested dataclasses that
have ``to_json`` and ``from_json``. `Event.payload` and `Event.from_payload` convert.

An event records its outcome: what the rules decided (the faces, the levels, the resources
moved), so that folding a log applies recorded outcomes and never decides again.

Source: architecture.md "The event log"; eventsourcing's versioned, upcast events as model.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, Field, fields, is_dataclass
from typing import Any, ClassVar, Self

from tablee.errors import N_, InputError
from tablee.systems.base import JSON, VISIBILITIES, Fact
from tablee.systems.codec import decode, encode, hints_of

__all__ = ["ODDS_UPGRADES", "Event", "Upgrade", "event_fact", "read_event", "stored_key"]

Upgrade = Callable[[dict[str, JSON]], dict[str, JSON]]
"""Turns a payload of version ``n`` into version ``n + 1``."""


def _odds_not_recorded(payload: dict[str, JSON]) -> dict[str, JSON]:
    """Version 1 -> 2 of a rolled kind: the odds shown before the roll were not recorded."""
    return {**payload, "odds": None}


ODDS_UPGRADES: Mapping[int, Upgrade] = {1: _odds_not_recorded}
"""The upgrades of a rolled kind whose version 2 added the odds shown before the roll (every
game's: ``odds`` None says an older version did not record them)."""


def stored_key(item: Field[Any]) -> str:
    """The payload key of an event's field: its name, or its metadata's ``key``.

    A field whose stored key is a word the class itself uses (``kind``, the stored kind)
    takes another name in Python and says its key: ``field(metadata={"key": "kind"})``.
    """
    return str(item.metadata.get("key", item.name))


class Event:
    """Base of every typed event.

    Class attributes an event sets:
        kind: the stored kind (``pouyss.roll``).
        version: the current version of its payload's shape (1 or more).
        upgrades: version ``n`` -> the function turning a payload of version ``n`` into
            ``n + 1``, for every ``n`` below ``version``.
        about: what the event records, in English, marked with `N_`.
    """

    kind: ClassVar[str]
    version: ClassVar[int] = 1
    upgrades: ClassVar[Mapping[int, Upgrade]] = {}
    about: ClassVar[str]

    def payload(self) -> dict[str, JSON]:
        """The event as a JSON-compatible payload of its current version."""
        if not is_dataclass(self):
            raise TypeError(f"{type(self).__name__} is not a dataclass")
        return {stored_key(f): encode(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_payload(cls, payload: Mapping[str, JSON]) -> Self:
        """The event from a payload of its current version.

        Raises:
            InputError: a missing field or a value of the wrong type, naming the field.
        """
        hints = hints_of(cls)
        values = {}
        for item in fields(cls):  # type: ignore[arg-type]
            key = stored_key(item)
            if key not in payload:
                if item.default is not MISSING or item.default_factory is not MISSING:
                    continue
                raise InputError(
                    N_("{kind}: the field {field} is missing"), kind=cls.kind, field=key
                )
            values[item.name] = decode(hints[item.name], payload[key], key)
        return cls(**values)

    @classmethod
    def upgrade(cls, payload: Mapping[str, JSON], version: int) -> dict[str, JSON]:
        """A stored payload of ``version`` brought to the current version, step by step.

        Raises:
            InputError: a version newer than this class knows, or a missing upgrade step.
        """
        if version > cls.version:
            raise InputError(
                N_("{kind} version {version} is newer than {current}"),
                tip=N_("upgrade Tablée to read this table"),
                kind=cls.kind,
                version=version,
                current=cls.version,
            )
        data = dict(payload)
        while version < cls.version:
            step = cls.upgrades.get(version)
            if step is None:
                raise InputError(
                    N_("no upgrade from version {version} of event kind {kind}"),
                    version=version,
                    kind=cls.kind,
                )
            data = step(data)
            version += 1
        return data


def event_fact(
    event: Event,
    *,
    actor: str | None = None,
    visibility: str = "all",
    rules_version: str | None = None,
) -> Fact:
    """The fact storing ``event`` (its kind, current version and payload).

    Raises:
        InputError: a visibility that is not one of `VISIBILITIES`.
    """
    if visibility not in VISIBILITIES:
        raise InputError(N_("visibility {value!r} is not known"), value=visibility)
    return Fact(event.kind, event.payload(), actor, visibility, type(event).version, rules_version)


def read_event(classes: Mapping[str, type[Event]], kind: str, payload: Mapping[str, JSON]) -> Event:
    """The typed event of a stored kind and current-version payload.

    Raises:
        InputError: an unknown kind, or a payload that does not fit its class.
    """
    cls = classes.get(kind)
    if cls is None:
        raise InputError(N_("unknown event kind {kind!r}"), kind=kind)
    return cls.from_payload(payload)
