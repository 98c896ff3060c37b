"""The web table's forms: the protocol a game's web module follows, and the form reader.

Every game's web module is generated from its declarations (`tablee.web.declared`); this
module holds what the generated modules and the pages share:

* ``actions()``: the forms of a game (`Action`: an id, a title, typed `Field`s, who may use
  it, whether it is rolled, the handler and an optional odds function). A handler receives
  an `ActionRequest` (the form read and checked against the viewer's role) and runs the
  declared command through `ActionRequest.run_command` (the table service; never rules of
  its own);
* ``resources(state, viewer, tr)``: the panels of resources at a glance (`Panel`), their
  texts already in the viewer's language;
* ``details(event, state, tr)``: extra lines under a log entry (its trace), or nothing.

The generic page renders every `Field` as a labelled input, adds the dice source (fair or
typed-in faces) and the visibility to rolled actions, asks the odds function for an
`OddsView` whenever the form changes, and posts the form to the handler.

Source: docs/web.md.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from tablee.dice import (
    WHOLE_DIGITS,
    Die,
    FairSource,
    RandomSource,
    TypedFaces,
    is_whole_in_reach,
    read_whole,
    typed_faces,
)
from tablee.errors import N_, InputError
from tablee.systems.base import Fact
from tablee.systems.declare import MAX_TEXT, Command, check_text
from tablee.systems.plugin import Gauge
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.table.service import Applied, TableService
from tablee.web.access import Viewer

__all__ = [
    "GM_AND_PLAYERS",
    "GM_ONLY",
    "Action",
    "ActionRequest",
    "Choices",
    "Field",
    "Forbidden",
    "OddsView",
    "Panel",
    "Translate",
    "WebSystem",
    "web_system",
]

R = TypeVar("R")
Translate = Callable[[str], str]
"""Translates an English `N_` message into the viewer's language."""
GM_ONLY: frozenset[str] = frozenset({"gm"})
"""The roles of an action for the game master alone."""
GM_AND_PLAYERS: frozenset[str] = frozenset({"gm", "player"})
"""The roles of an action open to the game master and the players."""
Choices = Callable[[TableState[Any], Viewer], Sequence[tuple[str, str]]]
"""Dynamic choices of a field: ``(state, viewer) -> [(value, label), ...]``."""


class Forbidden(Exception):
    """The viewer's link does not allow this (a player acting for another, a spectator)."""

    def __init__(self, message: str = N_("this link may not do that"), **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.params = params

    def render(self, translate: Callable[[str], str]) -> str:
        """The message in the reader's language, its fields filled in."""
        return translate(self.message).format(**self.params)


@dataclass(frozen=True)
class Field:
    """One input of an action's form.

    Attributes:
        name: the form key.
        label: an English label marked with `N_` (translated when shown).
        kind: ``text``, ``lines`` (one item per line), ``longtext`` (a pasted text, such as
            a character sheet), ``int``, ``bool`` or ``choice``.
        choices: fixed ``(value, label)`` pairs, or a `Choices` function of the table.
        default: the initial value, as text.
        gm_only: only the game master may give a value other than the default.
        minimum, maximum: bounds of an ``int`` field (shown to the browser; the rules check).
        hint: an English help text marked with `N_`, or empty.
        placeholder: an example value the empty input shows (``1,2,2,3``), kept as it is in
            every language; empty: none.
        max_length: longest text accepted, in characters (`MAX_TEXT` unless a form needs
            more, such as pasted character sheets).
        group: an English title marked with `N_` gathering rarely used fields, drawn
            together and folded after the fields of no group; empty: no group.
        faces: the faces typed in for a kind of die after a rolled action's main one (the
            +/- dice, the game master's d6), drawn after the main faces field.
    """

    name: str
    label: str
    kind: str = "text"
    choices: Sequence[tuple[str, str]] | Choices = ()
    default: str = ""
    gm_only: bool = False
    minimum: int | None = 0
    maximum: int | None = None
    hint: str = ""
    placeholder: str = ""
    max_length: int = MAX_TEXT
    group: str = ""
    faces: bool = False

    def options(self, state: TableState[Any], viewer: Viewer) -> Sequence[tuple[str, str]]:
        """The choices offered to this viewer."""
        if callable(self.choices):
            return self.choices(state, viewer)
        return self.choices


@dataclass(frozen=True)
class OddsView:
    """Exact odds to show before rolling.

    Attributes:
        rows: ``(label, probability)`` pairs, best first; labels are shown as given.
        success: the chance of success, when the action has one.
        note: an English line marked with `N_` (with ``{}`` fields from ``values``), or empty.
        values: the note's fields.
    """

    rows: Sequence[tuple[str, Fraction]]
    success: Fraction | None = None
    note: str = ""
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Panel:
    """One box of resources at a glance, in the viewer's language (shown as given).

    Attributes:
        title: the heading (a name, or a translated text).
        rows: ``(label, value)`` text pairs.
        gauges: the counted resources to draw (bars, tokens, a pile of dice, cards), their
            labels translated (`tablee.systems.plugin.Gauge`).
        muted: drawn greyed (a dead Protagoniste...).
        sheet: a character's sheet, or a long list read when needed (folded on pages other
            than its player's), not a panel of the table (always shown whole).
        owner: the player who plays this sheet's character (their page shows it first and
            unfolded), or None.
        brief: the ``(label, value)`` pairs a folded sheet shows beside its name (its brief
            gauges' counts first).
        cells: short ``(label, value)`` pairs drawn as a grid of cells (thresholds, traits).
    """

    title: str
    rows: Sequence[tuple[str, str]]
    gauges: Sequence[Gauge] = ()
    muted: bool = False
    sheet: bool = False
    owner: str | None = None
    brief: Sequence[tuple[str, str]] = ()
    cells: Sequence[tuple[str, str]] = ()


@dataclass(frozen=True)
class Action:
    """One form of a system.

    Attributes:
        id: URL-safe id, unique within the system (``roll``).
        title: English title marked with `N_`.
        fields: the form's inputs, in order.
        run: the handler; it returns what `ActionRequest.execute` returned.
        roles: who may use it (``gm``, ``player``).
        rolled: adds the dice source (fair or typed-in faces) and the visibility.
        odds: computes the exact odds from the same form, or None.
        faces_hint: for rolled actions, what to type in the faces field.
        allowed: ``(state, role) -> whether that role may use it at this table now``, for
            an action the table's house rules open or close (a YBS transfer); None: the
            action's ``roles``.
    """

    id: str
    title: str
    fields: tuple[Field, ...]
    run: Callable[[ActionRequest], Applied[Any]]
    roles: frozenset[str] = GM_ONLY
    rolled: bool = False
    odds: Callable[[ActionRequest], OddsView] | None = None
    faces_hint: str = ""
    allowed: Callable[[TableState[Any], str], bool] | None = None

    def open_to(self, state: TableState[Any], role: str) -> bool:
        """Whether ``role`` (``gm``, ``player``...) may use the action at this table now."""
        if self.allowed is not None:
            return self.allowed(state, role)
        return role in self.roles


class ActionRequest:
    """A form sent by a viewer, read against the table: the handler's whole world.

    Args:
        action: the action.
        form: the submitted fields (text values).
        viewer: who sends it.
        state: the table as last folded (for planning and odds).
        service: the table service, for `execute`.
        command_key: the form's idempotency key, scoped to the link (see
            `tablee.table.service.TableService.run_command`), or None.

    Raises:
        Forbidden: the viewer may not use the action, or gave a game-master-only field.
    """

    def __init__(
        self,
        action: Action,
        form: Mapping[str, str],
        viewer: Viewer,
        state: TableState[Any],
        service: TableService | None = None,
        *,
        command_key: str | None = None,
    ) -> None:
        if not action.open_to(state, viewer.role):
            raise Forbidden()
        self.action, self.form, self.viewer, self.state = action, form, viewer, state
        self._service = service
        self.command_key = command_key
        for item in action.fields:
            given = form.get(item.name, "").strip()
            if item.gm_only and not viewer.is_gm and given not in ("", item.default):
                raise Forbidden(N_("only the game master may set {field}"), field=item.name)

    # -- reading fields -----------------------------------------------------------------

    def text(self, name: str, default: str = "") -> str:
        """A text field, trimmed (``default`` when absent or empty).

        Raises:
            InputError: longer than the field's ``max_length`` (`MAX_TEXT` by default), or
                holding a control character other than a tab or a line end, a text-direction
                control (U+202E...: it would reverse the rest of the log line for every
                viewer), a lone surrogate or a byte-order mark.
        """
        limit = next((f.max_length for f in self.action.fields if f.name == name), MAX_TEXT)
        value = check_text(self.form.get(name, ""), name, limit)
        return value or default

    def optional(self, name: str) -> str | None:
        """A text field, or None when empty."""
        return self.text(name) or None

    def lines(self, name: str) -> list[str]:
        """A ``lines`` field: its non-empty lines, trimmed."""
        return [line.strip() for line in self.text(name).splitlines() if line.strip()]

    def number(self, name: str, default: int = 0) -> int:
        """A whole-number field (``default`` when empty).

        Raises:
            InputError: not a whole number.
        """
        value = self.text(name)
        if not value:
            return default
        number = read_whole(value)
        if number is None:
            raise InputError(
                N_("{field}: {value!r} is not a whole number"), field=name, value=value[:30]
            )
        if not is_whole_in_reach(number):
            raise InputError(
                N_("{field}: {value} is out of range (at most {digits} digits)"),
                field=name,
                value=value[: WHOLE_DIGITS + 1] + "…",
                digits=WHOLE_DIGITS,
            )
        return number

    def optional_number(self, name: str) -> int | None:
        """A whole-number field, or None when empty."""
        return self.number(name) if self.text(name) else None

    def flag(self, name: str) -> bool:
        """A check box: true when sent as ``on``, ``true``, ``yes`` or ``1``."""
        return self.text(name).lower() in ("on", "true", "yes", "1")

    # -- who acts ------------------------------------------------------------------------

    def require_gm(self) -> None:
        """Raises `Forbidden` unless the viewer is the game master."""
        if not self.viewer.is_gm:
            raise Forbidden()

    def acting_as(self, player: str | None) -> None:
        """Check that the viewer may act for ``player`` (None: the game master's side).

        Raises:
            Forbidden: a player acting for someone else or for the game master.
        """
        if not self.viewer.is_gm and not self.viewer.is_player(player):
            raise Forbidden(N_("a player acts only for their own character"))

    def visibility(self) -> str:
        """Who will see the roll: ``all``, ``roller_and_gm`` or ``gm`` (blind).

        Raises:
            InputError: another value.
            Forbidden: a player asking for a blind roll (the game master's call).
        """
        value = self.text("visibility", "all")
        if value not in ("all", "roller_and_gm", "gm"):
            raise InputError(N_("visibility {value!r} is not known"), value=value)
        if value == "gm" and not self.viewer.is_gm:
            raise Forbidden(N_("only the game master makes blind rolls"))
        return value

    # -- dice ----------------------------------------------------------------------------

    def typed(self, name: str = "faces", die: Die | None = None) -> list[int] | None:
        """Faces typed in from physical dice (``1,4,5,6``), or None to roll on the server.

        The grammar is `tablee.dice.faces`', shared with the command line; a blank field
        means nothing was typed.

        Args:
            name: the form field.
            die: the die the faces were read on (``DPM`` reads ``+``, ``-``, ``0``); None
                checks only whole numbers (the die is checked when the faces are thrown).

        Raises:
            InputError: a face that is not a whole number (or not a face of ``die``), named
                with its position.
        """
        faces = typed_faces(self.text(name), die)
        return None if faces is None else list(faces)

    def throw(self, die: Die, count: int, typed: list[int] | None = None) -> list[int]:
        """``count`` faces of ``die``: the typed ones (checked), else from the fair source.

        Raises:
            InputError: typed faces of the wrong number or out of the die's range.
        """
        if typed is None:
            return list(FairSource().roll(die, count))
        source = TypedFaces(typed)
        source.expect(die, count)
        faces = list(source.roll(die, count))
        source.finish()
        return faces

    # -- acting --------------------------------------------------------------------------

    def run_command(
        self, command: Command, dice: RandomSource | None, visibility: str | None
    ) -> Applied[Any]:
        """Run a declared command through the table service (see its ``run_command``).

        With the request's ``command_key``, a command already stored under it is not run
        again: its stored events come back, marked ``replayed``. The request's state is
        the service's first guess at the table (no second read of the store; a state
        behind the store's costs a retry, as a lost race does).
        """
        if self._service is None:
            raise RuntimeError("this request only reads (odds)")
        return self._service.run_command(
            self.viewer.table,
            command,
            dice,
            visibility=visibility,
            command_key=self.command_key,
            known=self.state,
        )

    def execute(
        self, decide: Callable[[TableState[Any]], R], facts_of: Callable[[R], Sequence[Fact]]
    ) -> Applied[R]:
        """Decide and append through the table service (retrying when another writer won)."""
        if self._service is None:
            raise RuntimeError("this request only reads (odds)")
        return self._service.execute(self.viewer.table, decide, facts_of)


class WebSystem(Protocol):
    """What a system module of the web table offers (see the module docstring).

    Attributes:
        id: the system's id (``pouyss``), as in `tablee.systems.SYSTEM_IDS`.
        title: the game's name as shown (``Space Horror Stories``).
    """

    id: str
    title: str

    def actions(self) -> Sequence[Action]:
        """The system's forms, in the order shown."""
        ...

    def live_basis(self, state: TableState[Any]) -> Hashable:
        """What the forms and their choice lists are read from at this state, as one value.

        Two states of a table with equal bases show each viewer the same forms and lists.
        """
        ...

    def resources(self, state: TableState[Any], viewer: Viewer, tr: Translate) -> Sequence[Panel]:
        """The resources at a glance, translated with ``tr`` (only public table state)."""
        ...

    def details(self, event: StoredEvent, state: TableState[Any], tr: Translate) -> Sequence[str]:
        """Extra lines shown under a visible log entry (its trace), possibly none."""
        ...


def web_system(system_id: str) -> WebSystem | None:
    """The web module of a game: generated from its declarations (`tablee.web.declared`).

    None for an id no registered game has.
    """
    found = _FOUND.get(system_id)
    if found is not None:
        return found
    from tablee.web.declared import declared_web

    try:
        found = declared_web(system_id)
    except InputError:
        return None
    if found is not None:  # a game's web module never changes: found once
        _FOUND[system_id] = found
    return found


_FOUND: dict[str, WebSystem] = {}


# --- what the system modules share ---------------------------------------------------------------
