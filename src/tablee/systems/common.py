"""Rule-side pieces that every game uses alike: players, decisions, deciding a fact again.

The four systems were written from one model, so some of their code means the same thing in
each: checking the players named at a table's creation, a command's `Decision`, deciding a
stored fact again and comparing its payload with the stored one. They live here once; what
differs (a game's rules, messages naming the game) stays in the game.

Source: docs/architecture.md, "The event log" and "The fold decides every event again";
P-M5, S-M1, Y-M4, G-A2 (the players of a table).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from functools import cached_property
from typing import Any, Generic, TypeVar

from tablee.dice import TraceStep
from tablee.errors import N_, InputError, Message, NotFoundError, RuleError, TableeError
from tablee.systems.base import JSON, Fact, clean_name, name_key

__all__ = [
    "GM_NAME",
    "MAX_PLAYERS",
    "DecisionOf",
    "clean_players",
    "decide_again",
    "find_name",
    "first_difference",
    "payload_leaves",
    "player_named",
    "read_document",
    "replaced",
    "whole",
    "with_unrecorded",
]

S = TypeVar("S")
D = TypeVar("D")

GM_NAME = "gm"
"""The name kept for the game master, never a player's."""

MAX_PLAYERS = 20
"""Most players at one table, in every system (a Tablée limit, not a rule)."""


_PLAIN: dict[type, frozenset[str]] = {}
"""The field names of each plain dataclass `replaced` copied (an empty set: not plain)."""


def _plain_fields(cls: type) -> frozenset[str]:
    """The fields of ``cls`` when a copy of its instance dict makes a valid changed copy."""
    attributes = [v for c in cls.__mro__ for v in vars(c).values()]
    plain = (
        is_dataclass(cls)
        and not hasattr(cls, "__post_init__")
        and not hasattr(cls, "__slots__")
        and all(f.init for f in fields(cls))
        and all(getattr(f.type, "__name__", "") != "InitVar" for f in fields(cls))
        # nothing kept in the instance dict but the fields: no cached value, no descriptor
        # field (a `tablee.dice.LazyTrace` keeps its value under another name)
        and not any(isinstance(v, cached_property) for v in attributes)
        and not any(
            hasattr(vars(c).get(f.name), "__set__") for c in cls.__mro__ for f in fields(cls)
        )
    )
    names = frozenset(f.name for f in fields(cls)) if plain else frozenset()
    _PLAIN[cls] = names
    return names


def replaced(obj: D, /, **changes: Any) -> D:
    """A copy of a frozen dataclass instance with some fields changed, as `dataclasses.replace`.

    For a plain dataclass (no ``__post_init__``, no slots, every field set by ``__init__``,
    nothing else in its instances' dict) this copies the instance's fields and sets the
    changed ones, which is what ``replace`` ends with, without calling ``__init__`` field
    by field; for any other it is ``replace`` itself. The rules' hot paths (a challenge
    after each action, an agent's reserve) use it.

    Raises:
        TypeError: ``obj`` is not a dataclass instance, or a change names no field of it
            (from ``replace``).
    """
    cls = type(obj)
    names = _PLAIN.get(cls)
    if names is None:
        names = _plain_fields(cls)
    if not names or not changes.keys() <= names:
        return replace(obj, **changes)  # type: ignore[type-var]
    new = object.__new__(cls)
    state = new.__dict__
    state.update(obj.__dict__)
    state.update(changes)
    return new


@dataclass(frozen=True)
class DecisionOf(Generic[S]):
    """What a command decided, for a system whose state type is ``S``.

    Each system's ``Decision`` is this class for its state (Pouyss keeps its own: it returns
    a cagnotte move instead of the state after).

    Attributes:
        facts: the facts to append, in order.
        outcome: what to show (a result object, a character...), or None.
        warnings: notices shown but never blocking.
        after: the state once the facts are folded (what ``evolve`` returns for them).
    """

    facts: tuple[Fact, ...]
    outcome: Any
    warnings: tuple[TraceStep, ...]
    after: S


def clean_players(raw: object, *, maximum: int = MAX_PLAYERS) -> tuple[str, ...]:
    """The players of a new table, as stored: clean, distinct names, at most ``maximum``.

    Args:
        raw: a list (or tuple) of names, or None for no player.
        maximum: the most players allowed.

    Returns:
        The names cleaned by `clean_name` (NFC, trimmed), in the order given.

    Raises:
        InputError: not a list; a bad name, ``gm`` or a name with a comma; two names equal
            but for case; more than ``maximum`` names.

    Source: P-M5, S-M1, Y-M4, G-A2 (who plays); Tablée's limits on names.
    """
    if raw is None:
        return ()
    if not isinstance(raw, list | tuple):
        raise InputError(N_("the players must be a list of names, not {value!r}"), value=raw)
    names = tuple(clean_name(p, what=N_("a player's name")) for p in raw)
    for name in names:
        if name.lower() == GM_NAME or "," in name:
            raise InputError(
                N_("{name!r} cannot be a player name (empty, 'gm' or with a comma)"), name=name
            )
    if len({name_key(n) for n in names}) != len(names):
        raise InputError(N_("player names must differ: {names}"), names=", ".join(names))
    if len(names) > maximum:
        raise InputError(
            N_("{count} players is more than the maximum of {maximum}"),
            count=len(names),
            maximum=maximum,
        )
    return names


def find_name(names: Iterable[str], name: object, what: str) -> str | None:
    """The stored name among ``names`` that ``name`` is, typed in any case or accents' form.

    Args:
        names: the stored names.
        name: the name as typed.
        what: what the name is for, for the message (an `N_` marked phrase).

    Returns:
        The stored name, or None when none matches.

    Raises:
        InputError: ``name`` is not a name (see `clean_name`).

    Source: architecture.md (names compared case-insensitively).
    """
    key = name_key(clean_name(name, what=what))
    return next((n for n in names if name_key(n) == key), None)


def player_named(players: Sequence[str], name: object) -> str:
    """The stored name of one of the table's ``players``, typed in any case.

    Raises:
        NotFoundError: no player has that name.
        InputError: not a name.

    Source: architecture.md (names compared case-insensitively).
    """
    found = find_name(players, name, N_("a player's name"))
    if found is None:
        raise NotFoundError(
            N_("no player named {name!r} at this table"),
            tip=N_("players: {players}"),
            name=name,
            players=", ".join(players) or "-",
        )
    return found


def payload_leaves(
    value: JSON, path: str = "", *, records: Collection[str] = ()
) -> Iterator[tuple[str, JSON]]:
    """Every field of a payload as ``(dotted path, value)``, lists of objects unfolded.

    Args:
        value: a JSON-compatible payload (or part of one).
        path: the dotted path of ``value`` itself (empty at the top).
        records: keys left out at every depth (records of what was shown, not compared).

    Source: architecture.md "The fold decides every event again".
    """
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key not in records:
                sub = f"{path}.{key}" if path else str(key)
                yield from payload_leaves(item, sub, records=records)
    elif isinstance(value, list | tuple) and value and all(isinstance(v, Mapping) for v in value):
        for index, item in enumerate(value):
            yield from payload_leaves(item, f"{path}.{index}", records=records)
    else:
        yield path, value


def _plain(value: JSON) -> JSON:
    """A value compared with booleans apart from numbers and tuples as lists."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def first_difference(
    stored: Mapping[str, JSON], decided: Mapping[str, JSON], *, records: Collection[str] = ()
) -> tuple[str, JSON, JSON] | None:
    """The first field where two payloads differ: ``(dotted path, stored, decided)``.

    Args:
        stored, decided: JSON-compatible payloads.
        records: keys left out at every depth (records of what was shown, not compared).

    Returns:
        The first differing field (booleans apart from numbers), or None when equal.

    Source: architecture.md "A history that survives upgrades" (the verifier).
    """
    left = dict(payload_leaves(dict(stored), records=records))
    right = dict(payload_leaves(dict(decided), records=records))
    for path in [*right, *(p for p in left if p not in right)]:
        if _plain(left.get(path)) != _plain(right.get(path)):
            return path, left.get(path), right.get(path)
    return None


def with_unrecorded(
    stored: Mapping[str, JSON], decided: Mapping[str, JSON], keys: Collection[str]
) -> dict[str, JSON]:
    """A decided payload with the records an older version of the event did not keep.

    Args:
        stored: the stored payload (a record it did not keep is None, or absent).
        decided: the payload the rules give now.
        keys: top-level keys that record what was shown (the odds before a roll).

    Returns:
        ``decided`` with each of ``keys`` that ``stored`` holds as None set to None, so that
        comparing the two leaves out what was not recorded, and a revision keeps it so.

    Source: architecture.md "A history that survives upgrades" (the verifier).
    """
    return {**decided, **{k: None for k in keys if stored.get(k) is None}}


def decide_again(
    redecide: Callable[[S, Mapping[str, JSON]], DecisionOf[S]],
    state: S,
    payload: Mapping[str, JSON],
    what: Message,
    *,
    records: Collection[str] = (),
) -> S:
    """Decide a stored fact again and check that its stored payload is what it gives now.

    Args:
        redecide: the system's function deciding the fact's kind from its stored inputs;
            it returns a decision whose first fact is the one compared.
        state: the state the fold has reached.
        payload: the stored payload (current version).
        what: the fact named for messages (``shs.test by Ellen``).
        records: payload keys left out of the comparison (what was shown at the time).

    Returns:
        The state after the fact, as the rules give it now (the decision's ``after``).

    Raises:
        RuleError: the fact cannot follow this state (a `NotFoundError` included).
        InputError: a missing or malformed field, or a stored field that differs from the
            decided one (an edited fact).
        TableeError: any other refusal of the rules, of its own type, prefixed by ``what``.

    Source: architecture.md "The fold decides every event again".
    """
    try:
        decision = redecide(state, payload)
    except NotFoundError as exc:
        raise RuleError(N_("{what}: {error}"), what=what, error=exc) from exc
    except TableeError as exc:
        raise type(exc)(N_("{what}: {error}"), what=what, error=exc) from exc
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise InputError(
            N_("{what}: a missing or malformed field ({detail})"), what=what, detail=repr(exc)
        ) from exc
    found = first_difference(payload, decision.facts[0].payload, records=records)
    if found is not None:
        path, stored, decided = found
        raise InputError(
            N_("{what}: the stored {field} {stored!r} is not what the rules give ({decided!r})"),
            what=what,
            field=path,
            stored=stored,
            decided=decided,
        )
    return decision.after


_WHOLE = {
    (True, True): N_("{name} {value!r} must be a whole number from {low} to {high} ({rule})"),
    (True, False): N_("{name} {value!r} must be a whole number {low} or more ({rule})"),
    (False, False): N_("{name} {value!r} must be a whole number ({rule})"),
}
"""The message of `whole`, by (a lowest value given, a highest value given)."""


def whole(
    value: object,
    name: str | Message,
    low: int | None = None,
    high: int | None = None,
    *,
    rule: str,
    tip: str | None = None,
) -> int:
    """Check that a value is a whole number within bounds (``True`` and ``False`` are not).

    Args:
        value: the value to check (anything: it may come from a stored payload).
        name: what the value is, as shown: a field id (``tokens``) or a translatable
            `Message` (``Message(N_("Difficulty"))``).
        low: the lowest value allowed, or None for no bounds at all.
        high: the highest value allowed, or None for none (only with ``low``).
        rule: the ruling ids the value and its bounds come from (``"S-M8"``,
            ``"Y-M3, Y-M4"``).
        tip: an English template saying what to do instead, marked `N_`.

    Returns:
        The value, an ``int``.

    Raises:
        InputError: not an ``int`` (a ``bool`` included) or outside ``low..high``, naming
            the value, its name, the bounds and the rule.
    """
    if (
        type(value) is int
        and (low is None or value >= low)
        and (high is None or (value <= high and low is not None))
    ):
        return value  # the common case, checked first
    if high is not None and low is None:
        raise TypeError("whole: a highest value needs a lowest value")
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (low is None or value >= low)
        and (high is None or value <= high)
    ):
        return value
    rules = Message(N_("rules {ids}") if "," in rule else N_("rule {ids}"), ids=rule)
    raise InputError(
        _WHOLE[low is not None, high is not None],
        tip=tip,
        name=name,
        value=value,
        low=low,
        high=high,
        rule=rules,
    )


def read_document(text: str, *, toml: bool, where: object) -> Any:
    """A pasted or imported document (a sheet, a crew) read from JSON or TOML text.

    Args:
        text: the document as given.
        toml: read TOML; else JSON.
        where: the file's name, or a translatable `Message` (pasted text), shown in errors.

    Returns:
        The parsed value (a dict, a list, ...), for the caller to check.

    Raises:
        InputError: the text does not parse, or is nested too deeply to read (lists or
            tables inside each other hundreds of levels deep: no sheet needs that).

    Source: Tablée (one reader of sheet files for every game; a deep nesting is refused
    with a message, not a crash).
    """
    import json
    import tomllib

    try:
        return tomllib.loads(text) if toml else json.loads(text)
    except RecursionError:
        raise InputError(
            N_("{file} is nested too deeply to be read"),
            tip=N_("a sheet holds lists and tables a few levels deep at most"),
            file=where,
        ) from None
    except ValueError as exc:  # tomllib.TOMLDecodeError is a ValueError
        raise InputError(
            N_("{file} is not valid JSON or TOML: {reason}"), file=where, reason=str(exc)
        ) from None
