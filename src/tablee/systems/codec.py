"""Frozen dataclasses to JSON and back, read from their type hints.

Events and snapshots of a game's state are stored as JSON. `encode` turns a value into
JSON-compatible data; `decode` reads it back as the type a hint names: ``int``, ``str``,
``bool``, None, tuples (fixed or ``tuple[X, ...]``), lists, frozensets, mappings (keys stored
as text, read back as ``int`` when the hint says so), enums (by value), ``Literal`` words,
unions with None, and frozen dataclasses (field by field; a class with ``from_json`` reads
itself). Floats are refused: every number in a game is whole.

Source: architecture.md "The event log" (typed events; snapshots as a cache).
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from tablee.errors import N_, InputError

__all__ = ["decode", "encode", "hints_of"]

JSON = Any

_HINTS: dict[type, dict[str, Any]] = {}


def hints_of(cls: type) -> dict[str, Any]:
    """The resolved type hints of a class (cached)."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def encode(value: Any) -> JSON:
    """JSON-compatible data for a value (see the module docstring).

    Raises:
        TypeError: a value of a type that is not stored (a float, an object).
    """
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, enum.Enum):
        return encode(value.value)
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(encode(v) for v in value)
    if isinstance(value, Mapping):
        return {str(encode(k)): encode(v) for k, v in value.items()}
    if hasattr(value, "to_json"):
        return value.to_json()
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in fields(value)}
    raise TypeError(f"{value!r} cannot be stored")


def _wrong(where: str, value: object, kind: str) -> InputError:
    return InputError(
        N_("{field}: {value!r} is not of the stored type {kind}"),
        field=where,
        value=value,
        kind=kind,
    )


_SHAPES: dict[Any, tuple[Any, tuple[Any, ...]]] = {}


def _shape(hint: Any) -> tuple[Any, tuple[Any, ...]]:
    """``(typing.get_origin(hint), typing.get_args(hint))``, kept per hint.

    A fold asks the same few hints for every event; equal hints have equal shapes.
    """
    try:
        return _SHAPES[hint]
    except KeyError:
        shape = _SHAPES[hint] = (typing.get_origin(hint), typing.get_args(hint))
        return shape
    except TypeError:  # an unhashable hint
        return typing.get_origin(hint), typing.get_args(hint)


def decode(hint: Any, value: JSON, where: str = "value") -> Any:
    """A value of the type ``hint`` names, read from JSON data.

    Args:
        hint: a type or type hint.
        value: the stored data.
        where: the field's name, for messages.

    Raises:
        InputError: data that does not fit the hint (the message names the field).
    """
    # The plain types first: most stored fields are one, and they need no origin or args.
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _wrong(where, value, "int")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise _wrong(where, value, "str")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise _wrong(where, value, "bool")
        return value
    origin, args = _shape(hint)
    if hint is Any or hint is object:
        return value
    if origin is typing.Annotated:
        return decode(args[0], value, where)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        members = [a for a in args if a is not type(None)]
        if len(members) == 1:
            return decode(members[0], value, where)
        return value
    if origin is typing.Literal:
        if value not in args:
            raise _wrong(where, value, " | ".join(str(a) for a in args))
        return value
    if origin in (tuple, list, frozenset, set):
        if not isinstance(value, list | tuple):
            raise _wrong(where, value, "list")
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(args) != len(value):
                raise _wrong(where, value, f"list of {len(args)}")
            return tuple(decode(a, v, where) for a, v in zip(args, value, strict=True))
        item = args[0] if args else Any
        items = [decode(item, v, where) for v in value]
        return (
            frozenset(items)
            if origin in (frozenset, set)
            else (tuple(items) if origin is tuple else items)
        )
    if origin in (dict, Mapping) or hint in (dict, Mapping) or origin is typing.Mapping:
        if not isinstance(value, Mapping):
            raise _wrong(where, value, "object")
        key_hint, item_hint = args if args else (Any, Any)
        out = {}
        for key, item in value.items():
            stored_key = int(key) if key_hint is int else key
            out[stored_key] = decode(item_hint, item, f"{where}.{key}")
        return out
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError as exc:
            raise _wrong(where, value, hint.__name__) from exc
    if isinstance(hint, type) and hasattr(hint, "from_json"):
        return hint.from_json(value)
    if isinstance(hint, type) and is_dataclass(hint):
        if not isinstance(value, Mapping):
            raise _wrong(where, value, hint.__name__)
        hints = hints_of(hint)
        known = {f.name for f in fields(hint)}
        given = {
            name: decode(hints[name], item, f"{where}.{name}")
            for name, item in value.items()
            if name in known
        }
        return hint(**given)
    return value
