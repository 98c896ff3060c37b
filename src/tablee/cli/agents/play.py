"""``tablee agents play``: a whole adventure without a game master, step by step.

The loop asks `tablee.systems.agents.flow.next_step` what the adventure needs, asks the
players for that step's answers (an empty answer takes the default: roll the dice, no
modifier, everyone together, the fallback winner, nobody challenges; between scenes it
pauses), and stores the decision at once. Stopping anywhere (an empty answer between
scenes, Ctrl+C, end of input, Ctrl-D, the end of a script) loses nothing: running ``play``
again resumes from the table's log, a table draw still owed included, and the answers
typed for an agent not yet created are kept. ``--script FILE`` reads the answers from a
file, one per line (an empty line is an empty answer) or a JSON list of strings.
``--seed`` rolls from the seed and the log's length when the run starts (`run_seed`), so a
resumed game does not roll the first dice again.

Only prompting lives here (`tablee.cli.agents.prompting`, and the step handlers of
`quest_steps`, `challenge_steps` and `contest_steps`); each answer runs one of the game's
declared commands (`tablee.systems.agents.commands`) through the table service, so every
rule is decided by the agents plugin, as for the generated commands.

Source: seed 002 ("Génération de scénario"); rulings G-M3 to G-M12.
"""

from __future__ import annotations

import hashlib
from typing import Any

from tablee.cli.agents.challenge_steps import HELP as HELP
from tablee.cli.agents.challenge_steps import HINTS as HINTS
from tablee.cli.agents.challenge_steps import ChallengeSteps
from tablee.cli.agents.common import Dice, Tr, add_dice
from tablee.cli.agents.contest_steps import ContestSteps
from tablee.cli.agents.contest_steps import game_of_name as game_of_name
from tablee.cli.agents.prompting import ABANDON as ABANDON
from tablee.cli.agents.prompting import CONCEDE as CONCEDE
from tablee.cli.agents.prompting import GIVE_UP as GIVE_UP
from tablee.cli.agents.prompting import Paused, Prompter, read_script
from tablee.cli.agents.quest_steps import WHERE as WHERE
from tablee.cli.agents.quest_steps import QuestSteps
from tablee.cli.app import Context, add_common
from tablee.errors import TableeError

__all__ = ["add_play", "cmd_play", "run_seed"]

MAX_STEPS = 10_000
"""Most steps one ``play`` run takes (a guard against a loop)."""


class _Play(QuestSteps, ChallengeSteps, ContestSteps):
    """One ``play`` run: the context, the prompter and the dice, and every step handler."""


def _run(play: _Play) -> bool:
    """Play until the adventure is done (True) or the answers run out (False)."""
    from tablee.systems.agents import StepKind, next_step

    for _ in range(MAX_STEPS):
        step = next_step(play.game())
        kind = step.kind
        if kind is StepKind.DONE:
            play.done()
            return True
        if kind is StepKind.CREATE_AGENTS:
            play.create_agents()
        elif kind is StepKind.DRAW_QUEST:
            play.draw_quest()
        elif kind is StepKind.DRAW:
            assert step.table is not None
            play.draw(step.table, WHERE if step.table == "environments" else HELP)
        elif kind is StepKind.START_SCENE:
            play.start_scene()
        elif kind is StepKind.GENERATE:
            play.generate()
        elif kind is StepKind.ACT:
            assert step.challenge is not None and step.agent is not None
            play.act(step.challenge, step.agent)
        elif kind is StepKind.NAME_WINNER:
            assert step.challenge is not None
            play.name_winner(step.challenge, step.candidates)
        elif kind is StepKind.CONSEQUENCE:
            assert step.challenge is not None
            play.consequence(step.challenge)
        elif kind is StepKind.START_CONTEST:
            play.start_contest()
        elif kind is StepKind.CONTEST_CHALLENGE:
            play.contest_challenge()
        elif kind is StepKind.SETTLE_BOUT:
            assert step.challenge is not None
            play.settle(step.challenge)
    return False


def run_seed(seed: int, position: int) -> int:
    """The seed a ``play`` run rolls from: ``--seed`` mixed with where the log stands.

    The same seed on the same log rolls the same dice; a game resumed later in its log
    rolls new ones instead of the first run's again.

    Args:
        seed: the ``--seed`` value.
        position: the table's last event number when the run starts (1 or more).

    Returns:
        A seed for `tablee.dice.SeededSource`, 0 to 2**64 - 1 (the first 8 bytes of a
        SHA-256 of both, so nearby seeds and positions give unrelated dice).
    """
    digest = hashlib.sha256(f"tablee-agents-play/{seed}/{position}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def cmd_play(ctx: Context) -> int:
    """``tablee agents play``: walk the group through the adventure, saving every step.

    Ctrl+C pauses as an empty answer between scenes does: no traceback, the line ended and
    a word that everything so far is saved.
    """
    a = ctx.args
    answers = read_script(a.script) if a.script else None
    if getattr(a, "seed", None) is not None:
        name = ctx.service.resolve_name(a.table)
        a.seed = run_seed(a.seed, ctx.service.state(name).last_seq)
    prompter = Prompter(ctx, answers)
    play = _Play(ctx, prompter, Dice(ctx))
    try:
        finished = _run(play)
    except Paused:
        finished = False
    except KeyboardInterrupt:
        finished = False
        prompter.end_line()  # the prompt's line, where the terminal echoed ^C
    except TableeError:
        raise
    if not finished:
        play.say(
            ctx.tr("Paused: everything so far is saved; run 'tablee agents play' again to go on.")
        )
    if ctx.json:
        from tablee.systems.agents.plugin import AGENTS_GAME

        ctx.emit_json({"finished": finished, **AGENTS_GAME.summary(play.game())})
    return 0


def add_play(cmds: Any, tr: Tr) -> None:
    """Add ``tablee agents play``."""
    p = cmds.add_parser(
        "play",
        help=tr("play an adventure without a game master, saving every step (resumable)"),
    )
    p.add_argument(
        "--script",
        metavar="FILE",
        help=tr("read the answers from a file: one per line, or a JSON list of strings"),
    )
    add_dice(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_play)
