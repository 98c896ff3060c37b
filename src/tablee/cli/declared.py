"""The command line of every plugin game, generated from its declared commands.

For a game registered as a plugin (`tablee.systems.plugin.Game`), ``tablee <game> ...`` has
one subcommand per declared command (a name of several words, such as ``session start``,
makes nested subcommands), one option per field, and ``tablee odds <game>`` runs the game's
``odds`` query (``tablee odds <game> action`` its ``odds action`` query, when it has
several). argparse only splits the line: every value is then read by
`tablee.systems.declare.build_command`, exactly as the web table and the JSON API read theirs,
so the same bad input gives the same error. Results are printed from the game's `Report`
(text, or its data with ``--json``).

Source: architecture.md "One declaration per command".
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from tablee.cli.app import Context, add_common
from tablee.cli.report import emit_report, odds_json, render_odds
from tablee.dice import Die, FacesByKind, RandomSource, SeededSource, TypedFaces, typed_faces
from tablee.errors import N_, InputError, TableeError
from tablee.systems.declare import Command, FieldSpec, Query, fields_of
from tablee.systems.plugin import AnyGame

__all__ = [
    "add_field",
    "add_game_parser",
    "add_odds_parser",
    "command_words",
    "declared_values",
    "description_of",
    "dice_flag",
    "run_declared",
]

Tr = Callable[[str], str]


def command_words(game: AnyGame) -> tuple[str, ...]:
    """The first words of a game's command names (what may follow ``tablee <game>``)."""
    words: list[str] = []
    for command in game.commands:
        first = command.name.split()[0]
        if first != "odds" and first not in words:
            words.append(first)
    return tuple(words)


RULE_NOTE = (N_("Rule: {rule}."), N_("Rules: {rule}."))
"""How a command's help names its ruling id(s), once, after its description."""

FIELD_RULE = (N_("rule {rule}"), N_("{range}; rule {rule}"))
"""How an option's help names the ruling id behind its range (alone, after the range)."""


def _rule_words(rule: str, tr: Tr, forms: tuple[str, str]) -> str:
    several = any(mark in rule for mark in (",", " to "))
    template = forms[1] if several else forms[0]
    return tr(template).format(rule=rule)


def description_of(command: type[Command], tr: Tr) -> str | None:
    """The help text under a command's usage: its description, then its ruling id.

    The ruling ids belong in the help and the docs, not in what players read while playing
    (titles, log lines, reports): this is the one place the command line names a command's
    ``rule`` (``Rule: G-M1.``, in French ``Règle : G-M1.``). None when the command has
    neither a description nor a rule.
    """
    parts = [tr(command.description)] if command.description else []
    if command.rule:
        parts.append(_rule_words(command.rule, tr, RULE_NOTE))
    return " ".join(parts) or None


FIELD_DEFAULT = (N_("default {value}"), N_("{range}; default {value}"))
"""How an option's help names the value it takes when left out (alone, after the range)."""


def _help(spec: FieldSpec, tr: Tr) -> str:
    text = tr(spec.param.help)
    low, high = spec.param.low, spec.param.high
    span = ""
    if spec.kind == "int" and (low is not None or high is not None):
        span = f"{'' if low is None else low}..{'' if high is None else high}"
    note = span
    if spec.kind in ("int", "word") and spec.default is not None and not spec.param.positional:
        template = FIELD_DEFAULT[1] if span else FIELD_DEFAULT[0]
        note = tr(template).format(range=span, value=spec.default)
    if spec.param.rule:
        template = FIELD_RULE[1] if note else FIELD_RULE[0]
        note = tr(template).format(range=note, rule=spec.param.rule)
    return f"{text} ({note})" if note else text


def add_field(parser: argparse.ArgumentParser, spec: FieldSpec, tr: Tr) -> None:
    """Add one declared field to a parser: an option (``--bonus N``), a flag or a positional.

    Its help names the range, the default (`FIELD_DEFAULT`) and the ruling id (`FIELD_RULE`);
    the value is kept as typed, for `tablee.systems.declare.build_command` to read. Used by
    every game's commands and by the lab's questions (``tablee lab``).
    """
    kwargs: dict[str, Any] = {"dest": spec.name, "help": _help(spec, tr)}
    if spec.kind == "bool":
        flags = (spec.flag, *spec.param.aliases)
        if spec.optional or spec.default is True:  # a yes by default needs a way to say no
            group = parser.add_mutually_exclusive_group()
            group.add_argument(*flags, action="store_true", default=None, **kwargs)
            group.add_argument(spec.negative_flag, action="store_false", dest=spec.name)
        else:
            parser.add_argument(*flags, action="store_true", default=None, **kwargs)
        return
    if spec.kind == "lines":
        kwargs.update(action="append", metavar=spec.param.placeholder or "TEXT")
    elif spec.kind == "word":
        kwargs.update(choices=spec.words)
    else:
        kwargs["metavar"] = spec.param.placeholder or ("N" if spec.kind == "int" else "TEXT")
    if spec.param.positional:
        kwargs.pop("dest")
        nargs: str | None = None if spec.required else "?"
        if spec.kind == "text" and not spec.param.file:  # words of one text: 30 min
            nargs = "+" if spec.required else "*"
        parser.add_argument(spec.name, nargs=nargs, **kwargs)
        return
    flags = (spec.flag, *spec.param.aliases)
    parser.add_argument(*flags, required=spec.required and not spec.optional, **kwargs)


FACES_HELP = {
    "": N_("{die} faces read on physical dice instead of rolling"),
    "gm": N_("the game master's faces read on physical dice instead of rolling"),
}
"""The help of the faces option of a kind of die after a command's main one (``gm``: the
game master's own dice)."""


def dice_flag(die: Die, main: bool) -> str:
    """The option taking typed-in faces of a kind of die: ``--dice``, ``--dpm-dice``..."""
    return "--dice" if main else f"--{die.name}-dice"


def _said(die: Die, tr: Tr) -> str:
    """The dice as players name them (``+/- dice``), in the reader's language."""
    said = die.said
    return said if isinstance(said, str) else said.render(tr)


def _add_dice(parser: argparse.ArgumentParser, command: type[Command], tr: Tr) -> None:
    source = parser.add_mutually_exclusive_group()
    for index, die in enumerate(command.dice_kinds):
        flag = dice_flag(die, index == 0)
        flags = (flag, *command.dice_aliases[index : index + 1])
        help_text = tr(FACES_HELP.get(die.name, FACES_HELP[""])).format(die=_said(die, tr))
        if index == 0:
            help_text = tr("faces read on physical dice instead of rolling")
            source.add_argument(*flags, dest=flag[2:], metavar="1,4,5,6", help=help_text)
        else:
            dest = flag[2:].replace("-", "_")
            parser.add_argument(*flags, dest=dest, metavar="1,4,5,6", help=help_text)
    source.add_argument("--seed", metavar="N", help=tr("roll reproducibly from this seed"))
    parser.add_argument("--odds", action="store_true", help=tr("show the exact odds first"))


def _add_command(
    cmds: Any, nested: dict[str, Any], game: AnyGame, command: type[Command], tr: Tr
) -> None:
    game_id = game.id
    words = command.name.split()
    target = cmds
    for word in words[:-1]:
        if word not in nested:
            holder = cmds.add_parser(word, help=tr(game.group_titles.get(word, command.title)))
            nested[word] = holder.add_subparsers(
                dest="step", required=True, metavar="{" + word + "}"
            )
        target = nested[word]
    description = description_of(command, tr)
    parser = target.add_parser(words[-1], help=tr(command.title), description=description)
    for spec in fields_of(command):
        add_field(parser, spec, tr)
    if command.rolled:
        _add_dice(parser, command, tr)
    needs_table = not isinstance(command, type) or not issubclass(command, Query)
    needs_table = needs_table or command.needs_table  # type: ignore[attr-defined]
    needs_table = needs_table or getattr(command, "table_optional", False)
    add_common(parser, tr, table=needs_table)
    parser.set_defaults(handler=run_declared, game_id=game_id, command_class=command)


def add_game_parser(
    sub: Any,
    game_id: str,
    game: AnyGame,
    tr: Tr,
    only: str | None = None,
    extra: tuple[str, ...] = (),
) -> Any:
    """Add ``tablee <game> ...`` with one subcommand per declared command.

    Args:
        sub: the top-level subparsers.
        game_id: the game's id.
        game: the plugin.
        tr: translation of help texts.
        only: build just the commands starting with this word (to start faster); None
            builds them all.
        extra: first words of hand-wired commands the caller adds itself.

    Returns:
        The group's subparsers, for the hand-wired commands.
    """
    if only not in (*command_words(game), *extra):
        only = None
    group = sub.add_parser(game_id, help=tr(N_("play {game}")).format(game=game.title))
    cmds = group.add_subparsers(dest="command", required=True, metavar="COMMAND")
    nested: dict[str, Any] = {}
    for command in game.commands:
        first = command.name.split()[0]
        if first == "odds" or (only is not None and first != only):
            continue
        _add_command(cmds, nested, game, command, tr)
    return cmds


def _add_odds_query(
    parser: argparse.ArgumentParser, game_id: str, command: type[Command], tr: Tr
) -> None:
    for spec in fields_of(command):
        add_field(parser, spec, tr)
    add_common(parser, tr, table=getattr(command, "table_optional", False))
    parser.set_defaults(handler=run_declared, game_id=game_id, command_class=command)


def add_odds_parser(sub: Any, game_id: str, game: AnyGame, tr: Tr) -> None:
    """Add ``tablee odds <game>`` when the game declares an ``odds`` query.

    A game with several kinds of odds declares queries named ``odds test``, ``odds
    straight``...: they become ``tablee odds <game> test``, ``tablee odds <game> straight``.
    """
    nested = [c for c in game.commands if c.name.startswith("odds ")]
    for command in game.commands:
        if command.name == "odds":
            parser = sub.add_parser(
                game_id, help=tr(command.title), description=description_of(command, tr)
            )
            _add_odds_query(parser, game_id, command, tr)
    if nested:
        title = game.group_titles.get("odds", N_("exact odds of {game}"))
        help_text = tr(title).format(game=game.title)
        kinds = sub.add_parser(game_id, help=help_text).add_subparsers(
            dest="kind", required=True, metavar="KIND"
        )
        for command in nested:
            parser = kinds.add_parser(
                command.name.split()[1],
                help=tr(command.title),
                description=description_of(command, tr),
            )
            _add_odds_query(parser, game_id, command, tr)


def _dice(ctx: Context, command: type[Command]) -> RandomSource | None:
    """The faces typed in (``--dice``, ``--dpm-dice``...), a ``--seed``, or None (fair)."""
    from tablee.systems.declare import Param, parse_field

    typed: dict[str, TypedFaces] = {}
    for index, die in enumerate(command.dice_kinds):
        flag = dice_flag(die, index == 0)
        text = getattr(ctx.args, flag[2:].replace("-", "_"), None)
        try:
            faces = typed_faces(text, die if index else None)  # main dice: counted, checked
        except InputError as exc:
            if not index:
                raise
            raise InputError(N_("{flag}: {error}"), flag=flag, error=exc) from None
        if faces is not None:
            typed[die.name] = TypedFaces(faces)
    if typed:
        if len(command.dice_kinds) == 1:
            return typed[command.dice_kinds[0].name]
        others = frozenset(die.name for die in command.dice_kinds[1:])
        return FacesByKind(typed, command.dice_kinds[0].name, others)
    if ctx.args.seed is not None:
        seed_field = FieldSpec("seed", "int", False, True, None, (), Param(N_("seed")))
        return SeededSource(parse_field(seed_field, ctx.args.seed))
    return None


def _read(path: str, limit: int) -> str:
    """A file's text, for a field declared as read from a file, read up to its limit.

    At most ``limit + 1`` characters are read, so a file longer than the field accepts (or
    one that never ends, ``/dev/zero``) is refused by the field's own length check instead of
    filling the memory.

    Raises:
        InputError: the file cannot be read or is not UTF-8 text, naming it.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read(limit + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(
            N_("cannot read {path}: {reason}"), path=path, reason=exc.__class__.__name__
        ) from exc


def declared_values(
    args: argparse.Namespace, cls: type[Command]
) -> tuple[dict[str, Any], list[str]]:
    """The values typed for a declared command's fields, as `build_command` reads them.

    The words of a positional text are joined; a field read from a file holds the file's
    text (`_read`).

    Returns:
        field name -> value (None when not given), and the paths of the files read.

    Raises:
        InputError: a file cannot be read.
    """
    given = {spec.name: getattr(args, spec.name, None) for spec in fields_of(cls)}
    for spec in fields_of(cls):
        value = given.get(spec.name)
        if spec.param.positional and spec.kind == "text" and isinstance(value, list):
            given[spec.name] = " ".join(value) or None
    paths = [str(given[s.name]) for s in fields_of(cls) if s.param.file and given.get(s.name)]
    for spec in fields_of(cls):
        if spec.param.file and isinstance(given.get(spec.name), str):
            given[spec.name] = _read(str(given[spec.name]), spec.param.max_length)
    return given, paths


def run_declared(ctx: Context) -> int:
    """Run a declared command or query from parsed arguments, then print its report."""
    from tablee.systems import system_named

    game = system_named(ctx.args.game_id)
    cls: type[Command] = ctx.args.command_class
    given, paths = declared_values(ctx.args, cls)
    if not paths:
        return _run(ctx, game, cls, given)
    try:
        return _run(ctx, game, cls, given)
    except TableeError as exc:  # an error in a file's content names the file, keeps its tip
        raise type(exc)(
            N_("{path}: {error}"),
            tip=exc.tip,
            cli_tip=exc.cli_tip,
            secret_in=exc.secret_in,
            path=paths[0],
            error=exc,
        ) from None


def _run(ctx: Context, game: AnyGame, cls: type[Command], given: dict[str, Any]) -> int:
    from tablee.systems.declare import build_command

    command = build_command(cls, given)
    if isinstance(command, Query):
        state = None
        named = command.table_optional and getattr(ctx.args, "table", None) is not None
        if command.needs_table or named:
            table = ctx.service.state(ctx.service.resolve_name(ctx.args.table))
            if table.system.id != game.id:
                raise InputError(
                    N_("table {name} plays {system}, not {game}"),
                    name=table.name,
                    system=table.system.id,
                    game=game.title,
                )
            state = table.game
        emit_report(ctx, game.answer(state, command), {})
        return 0
    name = ctx.service.resolve_name(ctx.args.table)
    dice = _dice(ctx, cls) if cls.rolled else None
    before = ctx.service.state(name) if getattr(ctx.args, "odds", False) else None
    applied = ctx.service.run_command(name, command, dice)
    report = game.report(command, applied.decision)
    head = {"table": applied.state.name, "seq": applied.events[-1].seq}
    odds = game.odds(before.game, command) if before is not None else None
    if odds is not None and not ctx.json:
        ctx.emit(ctx.tr("Odds before rolling:") + "\n" + render_odds(ctx, odds))
    extra = {"odds": odds_json(odds)} if odds is not None else {}
    emit_report(ctx, report, head, extra, warnings=applied.decision.warnings, command=True)
    return 0
