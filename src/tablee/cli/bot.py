"""``tablee discord``: the Discord bot, on the same store as the command line and the web.

discord.py is an optional dependency (``pip install 'tablee[discord]'``) imported only when
this command runs. The bot's token is read from the environment variable `TOKEN_ENV` or
from the file given with ``--token-file``, never from the command line (where other users
of the machine would read it in the process list and the shell's history).

Source: docs/discord.md.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from tablee.cli.app import Context, add_common
from tablee.errors import N_, InputError

__all__ = ["TOKEN_ENV", "add_parser", "cmd_discord", "read_token"]

Tr = Callable[[str], str]

TOKEN_ENV = "TABLEE_DISCORD_TOKEN"
"""The environment variable holding the bot's token."""


def add_parser(sub: Any, tr: Tr) -> None:
    """Add ``tablee discord [--token-file PATH] [--guild ID] [--db PATH|URL]``."""
    parser = sub.add_parser(
        "discord",
        help=tr("run the Discord bot on this store"),
        description=tr(
            "Runs the Discord bot. Its token is read from the environment variable "
            "TABLEE_DISCORD_TOKEN, or from a file given with --token-file."
        ),
    )
    parser.add_argument("--token-file", metavar="PATH", help=tr("a file holding the bot's token"))
    parser.add_argument(
        "--guild",
        metavar="ID",
        help=tr("publish the slash commands to this server at once (else to every server)"),
    )
    add_common(parser, tr, table=False)
    parser.set_defaults(handler=cmd_discord)


def read_token(token_file: str | None, environ: dict[str, str] | None = None) -> str:
    """The bot's token: from ``token_file`` when given, else from `TOKEN_ENV`.

    Raises:
        InputError: no token found, an empty one, or a file that cannot be read.
    """
    env = os.environ if environ is None else environ
    if token_file:
        try:
            with open(token_file, encoding="utf-8") as handle:
                token = handle.read().strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(
                N_("cannot read {path}: {reason}"), path=token_file, reason=type(exc).__name__
            ) from exc
    else:
        token = env.get(TOKEN_ENV, "").strip()
    if not token:
        raise InputError(
            N_("no Discord bot token"),
            cli_tip=N_("set TABLEE_DISCORD_TOKEN or give a file holding it with --token-file"),
        )
    return token


def cmd_discord(ctx: Context) -> int:
    """Run the bot until stopped (Ctrl+C); 0 once stopped.

    Raises:
        InputError: no token, or a ``--guild`` that is not a number.
    """
    token = read_token(ctx.args.token_file)
    guild = ctx.args.guild
    if guild is not None and not str(guild).isdigit():
        raise InputError(N_("--guild: {value!r} is not a server id"), value=guild)
    try:
        from tablee.discord.bot import run_bot  # lazy: only this command loads discord.py
    except ImportError as exc:
        raise InputError(
            N_("discord.py is not installed"),
            cli_tip=N_("install Tablée with its discord extra: pip install 'tablee[discord]'"),
        ) from exc
    ctx.emit(ctx.tr("The Tablée bot connects to Discord (Ctrl+C stops it)."), markup=False)
    ctx.out.flush()
    run_bot(ctx.service, token, None if guild is None else int(guild))
    return 0
