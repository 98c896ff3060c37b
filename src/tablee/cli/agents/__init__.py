"""``tablee agents ...`` and ``tablee odds agents ...``: the agents game at the command line.

A group creates its agents, opens challenges by hand or lets the scenario generator draw
them, and rolls each action (typed in, seeded or fair). ``tablee agents play`` walks the
group through a whole adventure without a game master, saving every step.

Modules: `commands` (agent, show, challenge, act, concede, abandon, fail, winner, checklist,
tables), `adventure` (quest, draw, scene, generate, consequence, give-up, contest: the
generator step by step), `play` (the guided adventure), `odds` (``tablee odds agents``),
`common`.

Source: seed 002; docs/rules/agents.md.
"""

from __future__ import annotations

from typing import Any

from tablee.cli.agents.adventure import ADVENTURE_BUILDERS
from tablee.cli.agents.commands import BUILDERS, agent_lines, challenge_lines, quest_line
from tablee.cli.agents.common import Tr
from tablee.cli.agents.odds import add_odds_parser
from tablee.cli.agents.play import add_play
from tablee.cli.app import Context

__all__ = ["COMMANDS", "add_odds_parser", "add_parser", "format_summary"]

COMMANDS = (*BUILDERS, *ADVENTURE_BUILDERS, "play")
"""The commands of ``tablee agents`` (each may be built alone, to start faster)."""


def add_parser(sub: Any, tr: Tr, only: str | None = None) -> None:
    """Add ``tablee agents ...`` to the top-level subparsers.

    Args:
        sub: the top-level subparsers.
        tr: translation of help texts.
        only: build just this command (one of `COMMANDS`), to start faster; None for all.
    """
    group = sub.add_parser("agents", help=tr("play the agents game (seed 002)"))
    cmds = group.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, build in {**BUILDERS, **ADVENTURE_BUILDERS}.items():
        if only in (None, name):
            build(cmds, tr)
    if only in (None, "play"):
        add_play(cmds, tr)


def format_summary(ctx: Context, game: Any) -> list[str]:
    """The agents lines of ``table show``: each agent, the open challenges, the quest."""
    from tablee.systems.agents import AGENTS

    summary = AGENTS.summary(game)
    lines: list[str] = []
    for name, doc in summary["agents"].items():
        lines += agent_lines(ctx, name, doc)
    for doc in summary["challenges"]:
        lines += challenge_lines(ctx, doc)
    if summary["quest"] is not None:
        lines.append(quest_line(ctx, summary["quest"]))
    return lines
