"""The web table of every plugin game, generated from its declared commands.

`DeclaredWeb` turns a `tablee.systems.plugin.Game` into the web table's `WebSystem`: one form
per declared command (its fields, their ranges, their choices read from the table as it is,
who may use it), the exact odds before rolling, the resource panels and the trace under a
log entry. A form is read by `tablee.systems.declare.build_command`, as the command line and
the JSON API read theirs, so the same bad input gives the same error; the command then runs
through `tablee.table.TableService.run_command`.

Source: architecture.md "One declaration per command".
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from tablee.dice import RandomSource
from tablee.errors import N_, Message, TableeError
from tablee.locale import translation
from tablee.systems.declare import (
    Command,
    FieldSpec,
    Param,
    Query,
    Who,
    build_command,
    fields_of,
)
from tablee.systems.faces import FACES_LABELS, faces_field, faces_label, typed_dice
from tablee.systems.plugin import AnyGame, Game, Text
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.access import Viewer, can_see, error_for
from tablee.web.memo import StateMemo
from tablee.web.systems import (
    Action,
    ActionRequest,
    Choices,
    Field,
    Forbidden,
    OddsView,
    Panel,
    Translate,
)

__all__ = [
    "FACES_LABELS",
    "DeclaredWeb",
    "action_id",
    "check_follows",
    "command_of",
    "declared_web",
    "faces_field",
    "faces_label",
    "form_field",
    "form_placeholder",
    "typed_dice",
]

TRI_STATE = (("", N_("as the house rules say")), ("yes", N_("yes")), ("no", N_("no")))
"""The choices of a ``bool | None`` field: unset, true, false."""

LONG_TEXT = 20_000
"""Longest text pasted in place of a file (a character sheet), in characters."""


def action_id(command: type[Command]) -> str:
    """A command's id in URLs (``session-start``)."""
    return command.name.replace(" ", "-")


def _render(text: Text, tr: Translate) -> str:
    return text.render(tr) if isinstance(text, Message) else text


def _own_first(panels: list[Panel], viewer: Viewer) -> list[Panel]:
    """The panels with a player's own sheets first (in the game's order), then the others."""
    own = [p for p in panels if p.sheet and p.owner is not None and viewer.is_player(p.owner)]
    return own + [p for p in panels if all(p is not o for o in own)]


def _catalog(lang: str) -> Translate:
    """The gettext of the viewer's language (its catalog also chooses plurals)."""
    return translation(lang if lang in ("fr", "en") else "en").gettext


def _choices(game: AnyGame, spec: FieldSpec) -> Choices:
    """The choices of a field whose values come from the table.

    Each value is shown by its `option_labels` label (a Caractéristique's id as the game
    writes it), else as it is (the names of players and characters).
    """

    def choices(state: TableState[Any], viewer: Viewer) -> list[tuple[str, str]]:
        names = _names(game, state.game, spec.param.choices)
        label = spec.param.label_of
        if spec.param.actor and not viewer.is_gm:
            names = tuple(n for n in names if viewer.is_player(game.owner(state.game, n)))
            return [(n, label(n)) for n in names]
        empty = [("", "-")] if spec.optional or not spec.required else []
        return [*empty, *((n, label(n)) for n in names)]

    return choices


def _names(game: AnyGame, now: Any, source: str) -> tuple[str, ...]:
    """The names a choice source offers in a game state (`Game.choices`), once per state."""
    return _MEMO.get(now, ("choices", source), lambda: game.choices(now, source))


def form_placeholder(param: Param) -> str:
    """What a form's empty input shows of a field (its ``placeholder`` attribute), or "".

    The field's `Param.placeholder` when it is an example value (``1,2,2,3``, ``7|5|3``,
    ``5..8``, ``surpasser|sacrifier``). A placeholder that names the command line's
    argument, with a word in capitals (``NAME``, ``N``, ``±N``, ``FACES|advised|none``,
    ``NAME:CARACTERISTIQUE[:option...]``), is left out: in a form it would read as English
    words to type, and the field's label already says what it holds. Quotes around an
    example (``"Test (Science, 3)"``) are the shell's, left out too. The template escapes
    what is shown.
    """
    text = param.placeholder.strip('"')
    if re.search(r"[A-Z]{2,}|^[^a-z0-9]*$", text):
        return ""
    return text


def _field(game: AnyGame, spec: FieldSpec) -> Field:
    param = spec.param
    common: dict[str, Any] = {
        "gm_only": param.gm_only,
        "max_length": param.max_length,
        "group": param.group,
        "placeholder": form_placeholder(param),
    }
    if spec.kind == "int":
        default = "" if spec.default is None else str(spec.default)
        return Field(
            spec.name,
            param.help,
            "int",
            default=default,
            minimum=param.low,
            maximum=param.high,
            **common,
        )
    if spec.kind == "bool" and spec.optional:
        return Field(spec.name, param.help, "choice", TRI_STATE, **common)
    if spec.kind == "bool":
        return Field(spec.name, param.help, "bool", **common)
    if spec.kind == "word":
        words = tuple((w, param.label_of(w)) for w in spec.words)
        if spec.optional:  # a word that may be left out: the first choice is none
            words = (("", "-"), *words)
        default = param.form_default or ("" if spec.default is None else str(spec.default))
        return Field(spec.name, param.help, "choice", words, default, **common)
    if spec.kind == "lines":
        return Field(spec.name, param.help, "lines", **common)
    if param.file:
        common["max_length"] = max(param.max_length, LONG_TEXT)
        return Field(spec.name, param.help, "longtext", **common)
    if param.choices:
        return Field(spec.name, param.help, "choice", _choices(game, spec), **common)
    return Field(spec.name, param.help, "text", **common)


def form_field(spec: FieldSpec, game: AnyGame | None = None) -> Field:
    """The form input of one declared field: a number with its range, a choice, a checkbox...

    Used by the table's forms and by the lab's questions (`tablee.web.lab`), which have no
    table: without ``game``, a field whose choices come from a table is a text input.
    """
    if game is None and spec.param.choices:
        return Field(spec.name, spec.param.help, "text", placeholder=form_placeholder(spec.param))
    return _field(game, spec)  # type: ignore[arg-type]  # no game: no table choices read


def _given(command: type[Command], req: ActionRequest) -> dict[str, object]:
    """The form's values for the command's fields (text; lines split; tri-states read)."""
    given: dict[str, object] = {}
    for spec in fields_of(command):
        if spec.kind == "lines":
            given[spec.name] = req.lines(spec.name)
        elif spec.kind == "bool" and spec.optional:
            given[spec.name] = {"yes": True, "no": False}.get(req.text(spec.name))
        elif spec.kind == "bool":
            given[spec.name] = req.flag(spec.name)
        else:
            given[spec.name] = req.text(spec.name)
    actor = next((spec for spec in fields_of(command) if spec.param.actor), None)
    if (
        actor is not None
        and (actor.param.choices == "players" or actor.param.mine)
        and not given.get(actor.name)
        and req.viewer.player
    ):
        given[actor.name] = req.viewer.player  # a player's own form names them
    return given


def command_of(
    game: AnyGame, command: type[Command], req: ActionRequest, *, partial: bool = False
) -> Command:
    """The command a form asks for, checked against who sends it.

    ``partial``: a form still being filled in (for its odds): required fields may be empty.

    Raises:
        InputError: a value that does not fit its field (as on the command line).
        Forbidden: a player acting for another player's character.
    """
    built = build_command(command, _given(command, req), partial=partial)
    check_follows(command, req.state, req.viewer)
    if partial:
        return built
    who = game.who(req.state.game, command)
    if who is Who.ACTOR and not req.viewer.is_gm:
        for name in game.acting(req.state.game, built) or (None,):
            req.acting_as(None if name is None else game.owner(req.state.game, name))
    if who is Who.GM:
        req.require_gm()
    return built


def check_follows(command: type[Command], state: TableState[Any], viewer: Viewer) -> None:
    """Refuse a command continuing an event the viewer may not see (a blind roll's reroll).

    Raises:
        Forbidden: the last event of the command's ``follows`` is hidden from the viewer.
    """
    followed = state.last_event(command.follows) if command.follows else None
    if followed is not None and not can_see(viewer, followed):
        raise Forbidden(
            N_("this continues something hidden from you: the game master takes it from here")
        )


class DeclaredWeb:
    """A plugin game's `WebSystem`, generated from its declarations.

    Args:
        game: the plugin.
    """

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.id = game.id
        self.title = game.title
        self._commands = tuple(c for c in game.commands if not issubclass(c, Query))
        self._actions = tuple(self._action(c) for c in self._commands)
        specs = [spec for c in self._commands for spec in fields_of(c) if spec.param.choices]
        self._sources = tuple(dict.fromkeys(spec.param.choices for spec in specs))
        self._actor_sources = tuple(
            dict.fromkeys(spec.param.choices for spec in specs if spec.param.actor)
        )

    def _action(self, command: type[Command]) -> Action:
        game = self.game
        roles = frozenset({"gm"}) if command.who is Who.GM else frozenset({"gm", "player"})

        def allowed(state: TableState[Any], role: str) -> bool:
            if role == "gm":
                return True
            if role != "player":
                return False
            who = _MEMO.get(state.game, ("who", command), lambda: game.who(state.game, command))
            return who is not Who.GM

        def run(req: ActionRequest) -> Applied[Any]:
            try:
                built = command_of(game, command, req)
                dice: RandomSource | None = None
                visibility = None
                if command.rolled:
                    visibility = req.visibility()
                    dice = typed_dice(command, lambda die, main: req.text(faces_field(die, main)))
                return req.run_command(built, dice, visibility)
            except TableeError as exc:
                raise error_for(exc, req.viewer, req.state.events) from None

        def odds(req: ActionRequest) -> OddsView:
            try:
                built = command_of(game, command, req, partial=True)
                view = game.odds(req.state.game, built)
            except TableeError as exc:
                raise error_for(exc, req.viewer, req.state.events) from None
            if view is None:
                return OddsView(())
            tr = _catalog(req.viewer.lang)
            rows = [(_render(label, tr), p) for label, p in view.rows]
            note, values = "", {}
            if view.note is not None:
                note = view.note.template
                values = {
                    k: v.render(tr) if isinstance(v, Message) else v
                    for k, v in view.note.params.items()
                }
            return OddsView(rows, view.success, note, values)

        has_odds = command.rolled and type(game).odds is not Game.odds
        hint = faces_label(command, command.dice_kinds[0], True) if command.rolled else ""
        fields = tuple(_field(game, spec) for spec in fields_of(command))
        if command.rolled:
            fields += tuple(
                Field(
                    faces_field(die, False),
                    faces_label(command, die, False),
                    gm_only=die.name in command.gm_dice,
                    faces=True,
                )
                for die in command.dice_kinds[1:]
            )
        return Action(
            action_id(command),
            command.title,
            fields,
            run,
            roles,
            rolled=command.rolled,
            odds=odds if has_odds else None,
            faces_hint=hint,
            allowed=allowed,
        )

    def actions(self) -> Sequence[Action]:
        """One form per declared command, in the game's order."""
        return self._actions

    def live_basis(self, state: TableState[Any]) -> Hashable:
        """Everything the forms' choice lists are read from at this state, as one value.

        The names each choice source offers (`Game.choices`), who may use each command
        (`Game.who`) and the player who acts as each name an actor field offers
        (`Game.owner`): two states with equal bases give every viewer the same forms and
        lists (`tablee.web.live.live_choices`). Computed once per game state.
        """
        return _MEMO.get(state.game, "live", lambda: self._live_basis(state))

    def _live_basis(self, state: TableState[Any]) -> Hashable:
        game, now = self.game, state.game
        names = tuple(_names(game, now, source) for source in self._sources)
        who = tuple(game.who(now, command) for command in self._commands)
        acting = {n for source in self._actor_sources for n in _names(game, now, source)}
        owners = tuple((n, game.owner(now, n)) for n in sorted(acting))
        return names, who, owners

    def resources(self, state: TableState[Any], viewer: Viewer, tr: Translate) -> Sequence[Panel]:
        """The game's panels, in the viewer's language."""
        raw = _MEMO.get(state, "panels", lambda: self._raw_panels(state))
        seen = tuple(followed is None or can_see(viewer, followed) for _, followed in raw)
        lang = viewer.lang
        shown = _MEMO.get(state, ("shown", lang, seen), lambda: self._shown(raw, seen, state, lang))
        return _own_first(list(shown), viewer)

    def _raw_panels(self, state: TableState[Any]) -> list[tuple[Any, StoredEvent | None]]:
        """The game's panels, each with the last event it follows (None when it follows none)."""
        return [
            (panel, state.last_event(panel.follows) if panel.follows else None)
            for panel in self.game.panels(state.game)
        ]

    def _shown(
        self,
        raw: list[tuple[Any, StoredEvent | None]],
        seen: tuple[bool, ...],
        state: TableState[Any],
        lang: str,
    ) -> tuple[Panel, ...]:
        """The panels drawn in ``lang`` for a viewer who may see ``seen`` of their events."""
        tr = _catalog(lang)
        shown = []
        for (panel, _), visible in zip(raw, seen, strict=True):
            if not visible:
                if panel.masked is None:
                    continue
                panel = panel.masked
            rows = [(_render(a, tr), _render(b, tr)) for a, b in panel.rows]
            title = _render(panel.title, tr)
            sheet = panel.brief is not None
            gauges = [
                replace(g, label=_render(g.label, tr), described=_render(g.described, tr))
                for g in panel.gauges
            ]
            brief = [(str(g.label), g.text) for g in gauges if g.brief]
            brief += [rows[i] for i in panel.brief or () if 0 <= i < len(rows)]
            shown.append(
                Panel(
                    title,
                    rows,
                    gauges=gauges,
                    muted=panel.muted,
                    sheet=sheet,
                    owner=self.game.owner(state.game, title) if sheet else None,
                    brief=brief,
                    cells=[(_render(a, tr), _render(b, tr)) for a, b in panel.cells],
                )
            )
        return tuple(shown)

    def details(self, event: StoredEvent, state: TableState[Any], tr: Translate) -> Sequence[str]:
        """The lines the game shows under a log entry (a roll's trace)."""
        if event.kind not in self.game.kinds():
            return ()
        try:
            typed = self.game.event_of(event.kind, state.payload_of(event))
        except (ValueError, KeyError, TypeError):
            return ()
        after = state.after.get(event.seq)
        return [_render(line, tr) for line in self.game.details_after(typed, after)]


_MEMO = StateMemo()
"""What every game's web module computes once per state (see `StateMemo`)."""


@cache
def declared_web(game_id: str) -> DeclaredWeb | None:
    """The generated web module of a plugin game (None for any other system)."""
    from tablee.systems import system_named

    game = system_named(game_id)
    return DeclaredWeb(game) if isinstance(game, Game) else None
