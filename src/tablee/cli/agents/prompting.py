"""The prompting of ``tablee agents play``: questions, scripted answers and shared helpers.

`Prompter` asks a question and reads one answer from a script or standard input; running out
of answers raises `Paused` (the log keeps everything so far). `PlayBase` holds what every
step handler of a ``play`` run shares: the table's current game, running a declared command
and printing its events, asking again after a refusal, faces typed in or rolled, drawing
from a quest table.

Source: seed 002 ("Génération de scénario"); rulings G-M9, G-A12, G-A18.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tablee.cli.agents.common import Dice, Rolls, Tr, game_of
from tablee.cli.app import Context
from tablee.dice import D6, Die, TypedFaces, check_typed_faces, parse_faces
from tablee.errors import N_, InputError, Plural, RuleError
from tablee.systems.declare import Command, check_text

__all__ = [
    "ABANDON",
    "CONCEDE",
    "GIVE_UP",
    "NEXT",
    "Paused",
    "PlayBase",
    "Prompter",
    "read_script",
]

ABANDON = N_("abandon")
CONCEDE = N_("concede")
GIVE_UP = N_("give up")
NEXT = N_("next")

MAX_ANSWER = 1000
"""Longest answer to one question, in characters: the longest text a question asks for (an
action's declaration). A command given an answer still checks its own field's limit."""

MAX_SCRIPT = 1024 * 1024
"""Longest ``--script`` file read, in characters (about a thousand times a long game's)."""


class Paused(Exception):
    """Stop here: the log keeps everything so far.

    Raised when the answers run out, or when the players press Enter between scenes.
    """


class Prompter:
    """Asks questions on the output and reads answers from a script or standard input.

    Args:
        ctx: the command's context (output, translation).
        answers: the scripted answers, or None to read standard input.
    """

    def __init__(self, ctx: Context, answers: list[str] | None) -> None:
        self.ctx = ctx
        self._script: Iterator[str] | None = iter(answers) if answers is not None else None

    def _out(self) -> Any:
        return sys.stderr if self.ctx.json else self.ctx.out

    def end_line(self) -> None:
        """End the line a question was asked on (after Ctrl+C)."""
        out = self._out()
        out.write("\n")
        out.flush()

    def ask(self, question: str) -> str:
        """One answer, trimmed, checked as any free text (`check_text`, ``answer``).

        Raises:
            Paused: no answer is left (end of the script or of standard input).
            InputError: an answer longer than `MAX_ANSWER` characters or holding a control
                or text-direction character; a scripted one is not echoed.
        """
        out = self._out()
        out.write(question + " ")
        out.flush()
        if self._script is not None:
            answer = next(self._script, None)
            if answer is not None:
                try:
                    answer = check_text(answer, "answer", MAX_ANSWER)
                except InputError:
                    out.write("\n")
                    raise
                out.write(answer + "\n")
        else:
            answer = _typed_line()
        if answer is None:
            out.write("\n")
            raise Paused
        return check_text(answer, "answer", MAX_ANSWER)


def _typed_line() -> str | None:
    """One line of standard input without its end, or None at its end.

    A line longer than `MAX_ANSWER` is read to its end in pieces (never whole into memory)
    and then refused.

    Raises:
        InputError: the line is longer than `MAX_ANSWER` characters.
    """
    line = sys.stdin.readline(MAX_ANSWER + 2)
    if not line:
        return None
    if not line.endswith("\n") and len(line) > MAX_ANSWER:
        while (rest := sys.stdin.readline(64 * 1024)) and not rest.endswith("\n"):
            pass
        raise InputError(
            N_("{field}: at most {maximum} characters"), field="answer", maximum=MAX_ANSWER
        )
    return line.rstrip("\n")


def read_script(path: str) -> list[str]:
    """The answers of a ``--script`` file: one per line, or a JSON list of strings.

    Raises:
        InputError: the file cannot be read, or is longer than `MAX_SCRIPT` characters, or
            its JSON is not valid.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(MAX_SCRIPT + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(
            N_("cannot read the script {path!r}: {error}"), path=path, error=str(exc)
        ) from exc
    if len(text) > MAX_SCRIPT:
        raise InputError(
            N_("{field}: at most {maximum} characters"), field="--script", maximum=MAX_SCRIPT
        )
    if text.lstrip().startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(
                N_("script {path!r} is not valid JSON: {error}"), path=path, error=str(exc)
            ) from exc
        return [str(item) for item in data]
    return text.splitlines()


class PlayBase:
    """What the step handlers of one ``play`` run share: the context, prompter and dice."""

    def __init__(self, ctx: Context, prompter: Prompter, dice: Dice) -> None:
        self.ctx = ctx
        self.tr: Tr = ctx.tr
        self.prompter = prompter
        self.dice = dice
        self.team_closed = False
        self.offered: set[int] = set()
        self.answers = 0

    # --- helpers -------------------------------------------------------------------------

    def game(self) -> Any:
        """The game of the table as stored now."""
        name = self.ctx.service.resolve_name(self.ctx.args.table)
        return game_of(self.ctx.service.state(name))

    def say(self, text: str) -> None:
        """Print a line (not in ``--json`` mode); any markup in it is shown as typed."""
        from rich.markup import escape

        if not self.ctx.json:
            self.ctx.emit(escape(text))

    def run(self, command: Command, faces: Sequence[int] = (), *, rolled: bool = False) -> Any:
        """Run a declared command on the table; print each event it stored.

        Args:
            command: the command (`tablee.systems.agents.commands`).
            faces: the faces its dice show (asked or rolled before).
            rolled: its dice (a roll-off's) come from the run's dice instead, as needed.

        Returns:
            What the table service applied.
        """
        from tablee.systems.agents.decide import RollOff
        from tablee.systems.agents.reports import roll_off_line

        name = self.ctx.service.resolve_name(self.ctx.args.table)
        game_of(self.ctx.service.state(name))  # another game's table is refused by name
        dice = Rolls(self.dice) if rolled else TypedFaces(faces)
        applied = self.ctx.service.run_command(name, command, dice)
        outcome = applied.decision.outcome
        if isinstance(outcome, RollOff):
            self.say(roll_off_line(outcome.rounds).render(self.tr))
        for event in applied.events:
            line = applied.state.system.describe(event.kind, event.payload, None)
            self.say(f"  #{event.seq} " + line.render(self.tr))
        return applied

    def ask(self, question: str) -> str:
        """One answer (see `Prompter.ask`), counted so that `retry` knows one was read."""
        self.answers += 1
        return self.prompter.ask(question)

    def retry(self, attempt: Callable[[], Any]) -> Any:
        """Run ``attempt`` until it is not refused, showing each refusal.

        ``attempt`` must ask its question itself: a refusal of an attempt that read no
        answer would only repeat, so it is raised instead of looping.
        """
        while True:
            read = self.answers
            try:
                return attempt()
            except (InputError, RuleError) as exc:
                if self.answers == read:
                    raise
                self.say(self.tr("error: {message}").format(message=exc.render(self.tr, cli=True)))

    def said(self, answer: str, keyword: str) -> bool:
        """Whether ``answer`` is ``keyword``, in English or in the reader's language."""
        typed = answer.strip().casefold()
        return typed in (keyword.casefold(), self.tr(keyword).casefold())

    def faces(self, question: str, count: int, die: Die = D6, *, secret: bool = False) -> list[int]:
        """Faces typed in (``4`` or ``1,4,6``), or rolled on an empty answer.

        Args:
            question: the prompt.
            count: how many faces.
            die: their die.
            secret: a roll is not shown (the quest objective's, secret until index 1).
        """
        answer = self.ask(question)
        if not answer:
            rolled = self.dice.roll(count, die)
            if secret:
                self.say(self.tr("rolled, and kept secret until the index reaches 1"))
            else:
                self.say(self.tr("rolled: {faces}").format(faces=", ".join(map(str, rolled))))
            return rolled
        faces = parse_faces(answer)
        if len(faces) != count:
            raise InputError(
                N_("{value!r} is not {faces} of a {die}: type e.g. {example}, or nothing"),
                value=answer,
                faces=Plural("{n} face", "{n} faces", count),
                die=die.name,
                example=",".join(["4"] * count),
            )
        return list(check_typed_faces(faces, die))

    def draw(self, table: str, question: str) -> Any:
        """Draw one entry of a quest table, the face typed in or rolled, and store it."""
        from tablee.systems.agents.commands import Draw
        from tablee.systems.agents.tables import TableKind

        die = self.game().tables.table(TableKind(table)).die

        def once() -> Any:
            face = self.faces(
                self.tr(question).format(die=die.name, table=self._table(table)), 1, die
            )[0]
            return self.run(Draw(kind=table), [face])  # type: ignore[arg-type]

        return self.retry(once)

    def retry_once(self, attempt: Callable[[], Any]) -> bool:
        """Run ``attempt``; show a refusal instead of raising. Whether it was stored."""
        try:
            attempt()
        except (InputError, RuleError) as exc:
            self.say(self.tr("error: {message}").format(message=exc.render(self.tr, cli=True)))
            return False
        return True

    def _table(self, kind: str) -> str:
        from tablee.systems.agents.words import TABLE_WORDS, word

        return word(TABLE_WORDS, kind).render(self.tr)
