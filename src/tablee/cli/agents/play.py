"""``tablee agents play``: a whole adventure without a game master, step by step.

The loop asks `tablee.systems.agents.flow.next_step` what the adventure needs, asks the
players for that step's answers (an empty answer takes the default: roll the dice, no
modifier, everyone together, the fallback winner, nobody challenges), and stores the decision
at once. Stopping anywhere (end of input, Ctrl-D, the end of a script) loses nothing: running
``play`` again resumes from the table's log. ``--script FILE`` reads the answers from a file,
one per line (an empty line is an empty answer) or a JSON list of strings.

Only prompting lives here (`tablee.cli.agents.prompting`, and the step handlers of
`quest_steps`, `challenge_steps` and `contest_steps`); every rule is decided by
`tablee.systems.agents`.

Source: seed 002 ("Génération de scénario"); rulings G-M3 to G-M12.
"""

from __future__ import annotations

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

__all__ = ["add_play", "cmd_play"]

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


def cmd_play(ctx: Context) -> int:
    """``tablee agents play``: walk the group through the adventure, saving every step."""
    a = ctx.args
    answers = read_script(a.script) if a.script else None
    play = _Play(ctx, Prompter(ctx, answers), Dice(ctx))
    try:
        finished = _run(play)
    except Paused:
        finished = False
    except TableeError:
        raise
    if not finished:
        play.say(
            ctx.tr("Paused: everything so far is saved; run 'tablee agents play' again to go on.")
        )
    if ctx.json:
        from tablee.systems.agents import AGENTS

        ctx.emit_json({"finished": finished, **AGENTS.summary(play.game())})
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
