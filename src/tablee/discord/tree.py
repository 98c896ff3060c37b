"""The slash commands, generated from the games' command declarations.

One group per game (``/pouyss``, ``/shs``, ``/ybs``, ``/agents``) holds one subcommand per
declared command; a name of two words nests (``/ybs gang throw``), Discord's second and last
level. Each field of a command becomes an option, read from its `tablee.systems.declare.Param`
as the command line and the web forms read it:

* a whole number: an integer option bounded by the field's range;
* a yes/no: a boolean option (left out: the default, or "as the house rules say");
* one of some words: a string option with those words as choices, named by their labels;
* a text whose choices come from the table (players, characters, challenges): a string
  option with autocomplete, from the table's state as it is;
* several texts (``lines``): one string option, the texts separated by ``;``;
* other text: a string option, as long as the field allows (at most Discord's 6,000).

A command that rolls also takes typed-in faces for each kind of die (``faces``,
``faces_dpm``...: `tablee.systems.faces`), who sees the roll (``visibility``), and, when the
game has odds for it, ``odds``: show the exact odds to the asker alone instead of rolling.

Names stay English (Discord's names are identifiers); descriptions and choice names are
translated by `CatalogTranslator` from the project's gettext catalogs. Every value is then
read by `tablee.systems.declare.build_command`, as everywhere else, so a bad value gives the
same error as on the command line.

Source: docs/architecture.md, "Discord"; Discord's application command limits.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from tablee.errors import N_
from tablee.locale import translation
from tablee.systems.declare import Command, FieldSpec, Query, fields_of
from tablee.systems.faces import faces_field, faces_label
from tablee.systems.plugin import AnyGame, Game

__all__ = [
    "DESCRIPTION_LIMIT",
    "LINES_SEPARATOR",
    "CatalogTranslator",
    "Handler",
    "add_game_groups",
    "described",
    "option_value",
]

DESCRIPTION_LIMIT = 100
"""Longest description or choice name Discord takes, in characters."""

TEXT_LIMIT = 6000
"""Longest string option Discord takes, in characters."""

SAFE_INTEGER = 2**53
"""Discord's integer options hold values within ±2**53."""

LINES_SEPARATOR = ";"
"""What separates the texts of a ``lines`` field typed in one option."""

VISIBILITY_CHOICES = (
    ("all", N_("everyone")),
    ("roller_and_gm", N_("secret: the roller and the game master")),
    ("gm", N_("blind: the game master alone")),
)
"""Who may see a roll, as the ``visibility`` option offers it."""


class Handler(Protocol):
    """What the generated commands call: the bot."""

    async def run_declared(
        self,
        interaction: discord.Interaction[Any],
        game: AnyGame,
        command: type[Command],
        values: dict[str, Any],
    ) -> None:
        """Run a declared command or query from the options given."""
        ...

    async def complete(
        self, interaction: discord.Interaction[Any], game: AnyGame, spec: FieldSpec, current: str
    ) -> list[Choice[str]]:
        """The choices of a field read from the table, filtered by what is typed."""
        ...


def _cut(text: str) -> str:
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 1] + "…"


def described(msgid: str, suffix: str = "") -> locale_str:
    """A description in English (cut to Discord's length), its message id kept to translate."""
    return locale_str(_cut(msgid + suffix), msgid=msgid, suffix=suffix)


class CatalogTranslator(app_commands.Translator):
    """Descriptions and choice names in French from the project's gettext catalogs.

    Names are left in English (Discord's names are identifiers typed as they are); any
    other locale keeps the English text.
    """

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The French text of a description or a choice name, cut to Discord's length."""
        msgid = string.extras.get("msgid")
        if locale is not discord.Locale.french or not msgid:
            return None
        if context.location in (
            app_commands.TranslationContextLocation.command_name,
            app_commands.TranslationContextLocation.group_name,
            app_commands.TranslationContextLocation.parameter_name,
        ):
            return None
        text = translation("fr").gettext(msgid) + str(string.extras.get("suffix", ""))
        return _cut(text)


def _annotation(spec: FieldSpec) -> Any:
    """The option's Python annotation, as discord.py reads it (type and bounds)."""
    if spec.kind == "int":
        low, high = spec.param.low, spec.param.high
        low = None if low is None else max(low, -SAFE_INTEGER)
        high = None if high is None else min(high, SAFE_INTEGER)
        if low is None and high is None:
            return int
        return app_commands.Range[int, low, high]
    if spec.kind == "bool":
        return bool
    if spec.kind == "word":
        return str
    return app_commands.Range[str, None, min(spec.param.max_length, TEXT_LIMIT)]


def _required(spec: FieldSpec) -> bool:
    """Whether Discord asks for the option: required, unless a player's own name fills it."""
    fills = spec.param.actor and (spec.param.choices == "players" or spec.param.mine)
    return spec.required and not spec.optional and not fills


def option_value(spec: FieldSpec, value: Any) -> object:
    """What an option's value gives `build_command`: ``lines`` split at `LINES_SEPARATOR`."""
    if spec.kind == "lines" and isinstance(value, str):
        return [part.strip() for part in value.split(LINES_SEPARATOR) if part.strip()]
    return value


def _options(
    game: AnyGame, command: type[Command], handler: Handler
) -> tuple[list[inspect.Parameter], dict[str, Any], dict[str, Any], dict[str, Any]]:
    params: list[inspect.Parameter] = []
    descriptions: dict[str, locale_str] = {}
    choices: dict[str, list[Choice[str]]] = {}
    completes: dict[str, Callable[..., Awaitable[list[Choice[str]]]]] = {}

    def add(name: str, annotation: Any, required: bool, description: locale_str) -> None:
        default = inspect.Parameter.empty if required else None
        kind = inspect.Parameter.KEYWORD_ONLY
        params.append(inspect.Parameter(name, kind, annotation=annotation, default=default))
        descriptions[name] = description

    for spec in fields_of(command):
        suffix = f" (a{LINES_SEPARATOR} b)" if spec.kind == "lines" else ""
        add(spec.name, _annotation(spec), _required(spec), described(spec.param.help, suffix))
        if spec.kind == "word":
            choices[spec.name] = [
                Choice(name=described(spec.param.label_of(w)), value=w) for w in spec.words
            ]
        elif spec.param.choices:
            completes[spec.name] = _completer(game, spec, handler)
    if command.rolled:
        for index, die in enumerate(command.dice_kinds):
            name = faces_field(die, index == 0)
            add(name, str, False, described(faces_label(command, die, index == 0)))
        add("visibility", str, False, described(N_("who sees the roll")))
        choices["visibility"] = [Choice(name=described(t), value=v) for v, t in VISIBILITY_CHOICES]
        if type(game).odds is not Game.odds:
            add("odds", bool, False, described(N_("show the exact odds to you alone, no roll")))
    return params, descriptions, choices, completes


def _completer(
    game: AnyGame, spec: FieldSpec, handler: Handler
) -> Callable[..., Awaitable[list[Choice[str]]]]:
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        return await handler.complete(interaction, game, spec, current)

    return complete


def _command(game: AnyGame, command: type[Command], handler: Handler, name: str) -> Any:
    """One subcommand: a callback whose signature is the command's options."""

    async def callback(interaction: discord.Interaction[Any], /, **values: Any) -> None:
        await handler.run_declared(interaction, game, command, values)

    params, descriptions, choices, completes = _options(game, command, handler)
    first = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
    )
    callback.__signature__ = inspect.Signature([first, *params])  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = descriptions  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_choices__ = choices  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_autocomplete__ = completes  # type: ignore[attr-defined]
    title = described(command.title)
    return app_commands.Command(name=name, description=title, callback=callback)


def game_group(game: AnyGame, handler: Handler) -> app_commands.Group:
    """The group of a game's commands (``/ybs``), its two-word commands in subgroups."""
    group = app_commands.Group(name=game.id, description=described(game.title))
    nested: dict[str, app_commands.Group] = {}
    for command in game.commands:
        words = command.name.split()
        parent = group
        if len(words) == 2:
            if words[0] not in nested:
                title = game.group_titles.get(words[0], command.title)
                sub = app_commands.Group(name=words[0], description=described(title), parent=group)
                nested[words[0]] = sub
            parent = nested[words[0]]
        elif len(words) > 2:
            raise ValueError(f"{game.id} {command.name!r}: Discord nests two levels at most")
        parent.add_command(_command(game, command, handler, words[-1]))
    return group


def add_game_groups(tree: app_commands.CommandTree[Any], handler: Handler) -> Sequence[str]:
    """Add every registered plugin game's group to a command tree.

    Returns:
        The ids of the games added, in the registry's order.
    """
    from tablee.systems import game_ids, system_named

    added = []
    for game_id in game_ids():
        game = system_named(game_id)
        if isinstance(game, Game):
            tree.add_command(game_group(game, handler))
            added.append(game_id)
    return added


def is_query(command: type[Command]) -> bool:
    """Whether a declared command only reads (its answer goes to the asker alone)."""
    return issubclass(command, Query)
