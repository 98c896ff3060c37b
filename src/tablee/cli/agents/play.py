"""``tablee agents play``: a whole adventure without a game master, step by step.

The loop asks `tablee.systems.agents.flow.next_step` what the adventure needs, asks the
players for that step's answers (an empty answer takes the default: roll the dice, no
modifier, everyone together, the fallback winner, nobody challenges), and stores the decision
at once. Stopping anywhere (end of input, Ctrl-D, the end of a script) loses nothing: running
``play`` again resumes from the table's log. ``--script FILE`` reads the answers from a file,
one per line (an empty line is an empty answer) or a JSON list of strings.

Only prompting lives here; every rule is decided by `tablee.systems.agents`.

Source: issue 5 point 5; seed 002 ("Génération de scénario"); rulings G-M3 to G-M12.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from tablee.cli.agents.common import Dice, Tr, add_dice, execute, game_of, names, quest_word
from tablee.cli.app import Context, add_common
from tablee.dice import D6, Die
from tablee.errors import N_, InputError, RuleError, TableeError

__all__ = ["add_play", "cmd_play"]

MAX_STEPS = 10_000
"""Most steps one ``play`` run takes (a guard against a loop)."""

WHERE = N_("Where the agents arrive, {die} (empty: roll):")
ABANDON = N_("abandon")
CONCEDE = N_("concede")
GIVE_UP = N_("give up")
HELP = N_("What helps the quest, {die} (empty: roll):")
HINTS = {
    "muscles": N_("Muscles: describe the action, ideally raising the stakes (G-M3)"),
    "sexe": N_("Sexe: a pick-up line, a sexual metaphor or a double entendre (G-M3)"),
    "intelligence": N_("Intelligence: how the agent out-thought the opposition (G-M3)"),
}


class _Paused(Exception):
    """The answers ran out: stop here, the log keeps everything so far."""


class Prompter:
    """Asks questions on the output and reads answers from a script or standard input.

    Args:
        ctx: the command's context (output, translation).
        answers: the scripted answers, or None to read standard input.
    """

    def __init__(self, ctx: Context, answers: list[str] | None) -> None:
        self.ctx = ctx
        self._script: Iterator[str] | None = iter(answers) if answers is not None else None

    def ask(self, question: str) -> str:
        """One answer, trimmed.

        Raises:
            _Paused: no answer is left (end of the script or of standard input).
        """
        out = sys.stderr if self.ctx.json else self.ctx.out
        out.write(question + " ")
        out.flush()
        if self._script is not None:
            answer = next(self._script, None)
            if answer is not None:
                out.write(answer + "\n")
        else:
            line = sys.stdin.readline()
            answer = line.rstrip("\n") if line else None
        if answer is None:
            out.write("\n")
            raise _Paused
        return answer.strip()


def _read_script(path: str) -> list[str]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(
            N_("cannot read the script {path!r}: {error}"), path=path, error=str(exc)
        ) from exc
    if text.lstrip().startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(
                N_("script {path!r} is not valid JSON: {error}"), path=path, error=str(exc)
            ) from exc
        return [str(item) for item in data]
    return text.splitlines()


class _Play:
    """One ``play`` run: the context, the prompter and the dice."""

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
        name = self.ctx.service.resolve_name(self.ctx.args.table)
        return game_of(self.ctx.service.state(name))

    def say(self, text: str) -> None:
        from rich.markup import escape

        if not self.ctx.json:
            self.ctx.emit(escape(text))

    def store(self, decide: Callable[[Any], Any]) -> Any:
        applied = execute(self.ctx, decide)
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
                self.say(self.tr("error: {message}").format(message=exc.render(self.tr)))

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
                self.say(self.tr("rolled, and kept secret until the index reaches 1 (G-M9)"))
            else:
                self.say(self.tr("rolled: {faces}").format(faces=", ".join(map(str, rolled))))
            return rolled
        parts = [p for p in answer.replace(" ", ",").split(",") if p]
        if len(parts) != count or not all(p.isascii() and p.isdigit() for p in parts):
            raise InputError(
                N_("{value!r} is not {count} faces of a {die}: type e.g. {example}, or nothing"),
                value=answer,
                count=count,
                die=die.name,
                example=",".join(["4"] * count),
            )
        return [die.check_face(int(p)) for p in parts]

    def draw(self, table: str, question: str) -> Any:
        """Draw one entry of a quest table, the face typed in or rolled, and store it."""
        from tablee.systems.agents import TableKind, decide_draw

        die = self.game().tables.table(TableKind(table)).die

        def once() -> Any:
            face = self.faces(
                self.tr(question).format(die=die.name, table=self._table(table)), 1, die
            )[0]
            return self.store(lambda g: decide_draw(g, table=table, face=face))

        return self.retry(once)

    # --- the steps -----------------------------------------------------------------------

    def create_agents(self) -> None:
        from tablee.systems.agents import decide_agent

        while True:
            name = self.ask(self.tr("Agent's name (empty when the team is complete):"))
            if not name:
                if self.game().agents:
                    self.team_closed = True
                    return
                continue
            organisation = self.ask(self.tr("Organisation:"))
            signature = self.ask(self.tr("Signature object:"))

            def create(name: str = name, org: str = organisation, sig: str = signature) -> Any:
                values = self.ask(self.tr("Muscles, Sexe, Intelligence (7, 5 and 3 in any order):"))
                m, s, i = _three_values(values)
                return self.store(
                    lambda g: decide_agent(
                        g,
                        name=name,
                        muscles=m,
                        sexe=s,
                        intelligence=i,
                        organisation=org,
                        signature=sig,
                    )
                )

            self.retry(create)

    def draw_quest(self) -> None:
        from tablee.systems.agents import decide_quest, load_tables, starter_tables

        if not self.team_closed:  # resumed before the team was complete: more agents?
            self.create_agents()

        def draw() -> Any:
            where = self.ask(
                self.tr(
                    "Generator tables: empty for Tablée's starter tables, or a folder of your own:"
                )
            )
            if where:
                tables, source = load_tables(Path(where)), Path(where).name or where
            else:
                lang = "fr" if self.ctx.lang == "fr" else "en"
                tables, source = starter_tables(lang), f"starter:{lang}"
            die = tables.objectives.die
            face = self.faces(
                self.tr("Quest objective, {die} (empty: roll):").format(die=die.name),
                1,
                die,
                secret=True,
            )[0]
            return self.store(lambda g: decide_quest(g, tables=tables, source=source, face=face))

        self.retry(draw)
        self.draw("environments", WHERE)

    def start_scene(self) -> None:
        from tablee.systems.agents import decide_quest_abandon, decide_scene

        while True:
            answer = self.ask(
                self.tr(
                    "Next scene: press Enter; or type an agent and a reserve (e.g. {example}) "
                    "to fail an action on purpose for +1 (G-M7); or '{give_up}' to abandon "
                    "the quest:"
                ).format(example=self._example_recovery(), give_up=self.tr(GIVE_UP))
            )
            if not answer:
                self.store(decide_scene)
                return
            if self.said(answer, GIVE_UP) or self.said(answer, ABANDON):
                self.store(decide_quest_abandon)
                return
            self.retry_once(partial(self._fail_on_purpose, answer))  # then asked again

    def _example_recovery(self) -> str:
        game = self.game()
        first = next(iter(game.agents), "Vega")
        return f"{first} Muscles"

    def _fail_on_purpose(self, answer: str) -> Any:
        from tablee.systems.agents import decide_fail_on_purpose

        who, _, reserve = answer.strip().rpartition(" ")
        if not who.strip():
            raise InputError(
                N_("{value!r} is not an agent and a reserve, e.g. 'Vega Muscles' (rule G-M7)"),
                value=answer,
            )
        return self.store(lambda g: decide_fail_on_purpose(g, agent=who.strip(), reserve=reserve))

    def generate(self) -> None:
        game = self.game()
        present = [
            n for n in game.agents if n not in game.quest.sitting_out and game.agents[n].sang > 0
        ]

        def groups() -> list[list[str]]:
            answer = self.ask(
                self.tr(
                    "Who takes part? Empty: everyone together ({agents}); or groups like A,B;C:"
                ).format(agents=", ".join(present))
            )
            chosen = [present] if not answer else [names(p) for p in answer.split(";") if names(p)]
            if not chosen:
                raise InputError(N_("{value!r} names no agent"), value=answer)
            for group in chosen:  # refuse a bad group now, while it can be typed again
                self._check_group(group)
            return chosen

        # every group's dice are asked before anything is stored, so that a pause cannot
        # leave a split group without its challenge (the groups are not stored otherwise)
        plans = [self.retry(partial(self._generate, group)) for group in self.retry(groups)]
        for group, faces, table, face in plans:
            self._store_generated(group, faces, table, face)

    def _check_group(self, group: list[str], faces: list[int] | None = None) -> None:
        """Refuse a group (or faces) the scene's challenge cannot be drawn for; store nothing.

        Raises:
            InputError, RuleError: as `decide_generate` would, before anything is stored.
        """
        from tablee.systems.agents import CHALLENGE_GENERATOR, ChallengeInputs, decide_generate

        game = self.game()
        if faces is None:
            inputs = ChallengeInputs(game.quest.progress, max(1, len(group)), game.options)
            faces = [1] * CHALLENGE_GENERATOR.dice_for(inputs).count
        decide_generate(game, agents=group, faces=faces, opposition=None)

    def _generate(self, group: list[str]) -> tuple[list[str], list[int], str, int]:
        """Ask one group's challenge dice and its opposition's face; store nothing yet."""
        from tablee.systems.agents import CHALLENGE_GENERATOR, ChallengeInputs, Source, TableKind

        game = self.game()
        inputs = ChallengeInputs(game.quest.progress, len(group), game.options)
        count = CHALLENGE_GENERATOR.dice_for(inputs).count
        question = (
            N_(
                "Challenge for {agents}: {count} d6 for source, type and score; the relation "
                "is hostile at index 3 (empty: roll):"
            )
            if inputs.forced_hostile
            else N_(
                "Challenge for {agents}: {count} d6 for source, relation, type and score "
                "(empty: roll):"
            )
        )
        faces = self.faces(self.tr(question).format(agents=", ".join(group), count=count), count)
        self._check_group(group, faces)  # nothing is stored before this passes
        drawn = CHALLENGE_GENERATOR.resolve(inputs, faces)
        table = "creatures" if drawn.source is Source.CREATURES else "environments"
        die = game.tables.table(TableKind(table)).die
        face = self.faces(
            self.tr("Who or what opposes them, from {table} ({die}; empty: roll):").format(
                table=self._table(table), die=die.name
            ),
            1,
            die,
        )[0]
        return group, faces, table, face

    def _store_generated(self, group: list[str], faces: list[int], table: str, face: int) -> None:
        """Store the opposition's draw, then the challenge it opposes."""
        from tablee.systems.agents import decide_draw, decide_generate

        drawn_entry = self.store(lambda g: decide_draw(g, table=table, face=face))
        opposition = drawn_entry.decision.outcome.entry.text
        self.store(lambda g: decide_generate(g, agents=group, faces=faces, opposition=opposition))

    def act(self, number: int, agent: str) -> None:
        from tablee.cli.agents.commands import challenge_lines
        from tablee.systems.agents import CHECKLISTS, challenge_json

        game = self.game()
        challenge = game.challenges[number]
        if not self.ctx.json:
            self.ctx.emit("\n".join(challenge_lines(self.ctx, challenge_json(challenge))))
        if challenge.actions == 0 and number not in self.offered:
            self.offered.add(number)
            if self.offer_concessions(number):
                return  # someone conceded: the next step is read again
        kind = challenge.kind
        self.say(self.tr(HINTS[kind.value]))
        leave = CONCEDE if challenge.actions == 0 else ABANDON
        declaration = self.ask(
            self.tr("{agent}, declare your action (or type '{leave}'):").format(
                agent=agent, leave=self.tr(leave)
            )
        )
        for how in (ABANDON, CONCEDE):
            if self.said(declaration, how):
                self.retry_once(partial(self._leave, how, number, agent))
                return  # refused or not, the next step asks again
        for index, m in enumerate(CHECKLISTS[kind], start=1):
            self.say(f"  {index}. {m.value:+d}  {self.tr(m.label)}")
        self.retry(lambda: self._act(number, agent, declaration))

    def offer_concessions(self, number: int) -> bool:
        """Before the first turn, any involved agent may concede: reserve back in full (G-M8).

        Returns:
            Whether someone conceded.
        """
        from tablee.systems.agents import Standing, decide_concede

        challenge = self.game().challenges[number]
        able = [
            a for a in challenge.agents if challenge.standing[a] in (Standing.ACTIVE, Standing.OUT)
        ]
        if not able:
            return False
        answer = self.ask(
            self.tr(
                "Before the first turn of challenge {number}, who concedes, getting their "
                "{kind} back to its starting value (G-M8)? Names separated by commas "
                "({agents}; empty: nobody):"
            ).format(number=number, kind=challenge.kind.title, agents=", ".join(able))
        )
        conceded = False
        for who in names(answer):
            done = self.retry_once(
                partial(self.store, partial(decide_concede, challenge=number, agent=who))
            )
            conceded = conceded or done
        return conceded

    def retry_once(self, attempt: Callable[[], Any]) -> bool:
        """Run ``attempt``; show a refusal instead of raising. Whether it was stored."""
        try:
            attempt()
        except (InputError, RuleError) as exc:
            self.say(self.tr("error: {message}").format(message=exc.render(self.tr)))
            return False
        return True

    def _table(self, kind: str) -> str:
        from tablee.systems.agents.words import TABLE_WORDS, word

        return word(TABLE_WORDS, kind).render(self.tr)

    def _leave(self, how: str, number: int, agent: str) -> Any:
        from tablee.systems.agents import decide_abandon, decide_concede

        decide = decide_abandon if how == ABANDON else decide_concede
        return self.store(lambda g: decide(g, challenge=number, agent=agent))

    def _act(self, number: int, agent: str, declaration: str) -> Any:
        from tablee.systems.agents import decide_action, declared_modifier

        game = self.game()
        challenge = game.challenges[number]
        ticked = self._ticked(
            challenge.kind,
            self.ask(self.tr("Modifiers ticked: their numbers separated by commas (empty: none):")),
        )
        declared_modifier(challenge.kind, ticked)  # refuse a bad tick before the roll
        target = None
        left = [i for i, o in enumerate(challenge.oppositions, start=1) if o.score > 0]
        if len(left) > 1:
            answer = self.ask(
                self.tr("Which opposition does the action target? ({choices}):").format(
                    choices=", ".join(f"{i} {challenge.oppositions[i - 1].name}" for i in left)
                )
            )
            target = int(answer) if answer.isdigit() else 0
        face = self.faces(self.tr("d6 (empty: roll):"), 1)[0]
        return self.store(
            lambda g: decide_action(
                g,
                challenge=number,
                agent=agent,
                modifiers=ticked,
                face=face,
                target=target,
                declaration=declaration,
            )
        )

    def _ticked(self, kind: Any, answer: str) -> list[str]:
        """The ids of the modifiers typed by number (``1,3``), id or word, in any case."""
        from tablee.systems.agents import CHECKLISTS
        from tablee.systems.agents.words import MODIFIER_WORDS

        checklist = CHECKLISTS[kind]
        out = []
        for part in names(answer):
            if part.isascii() and part.isdigit() and 1 <= int(part) <= len(checklist):
                out.append(checklist[int(part) - 1].id)
                continue
            key = part.casefold()
            found = [
                m.id
                for m in checklist
                if key in (m.id, self.tr(MODIFIER_WORDS.get(m.id, m.id)).casefold())
            ]
            out.append(found[0] if found else part)  # an unknown one is refused by the rules
        return out

    def name_winner(self, number: int, candidates: tuple[str, ...]) -> None:
        from tablee.systems.agents import decide_winner

        def name() -> Any:
            answer = self.ask(
                self.tr(
                    "Whose action marked challenge {number} most? Empty: most reserve points "
                    "spent ({agents}):"
                ).format(number=number, agents=", ".join(candidates))
            )
            agent = answer or (self._roll_off(candidates) if len(candidates) > 1 else None)
            return self.store(lambda g: decide_winner(g, challenge=number, agent=agent))

        self.retry(name)

    def _roll_off(self, candidates: tuple[str, ...]) -> str:
        """A d6 each, highest wins, ties roll again (G-A12, G-A18)."""
        tied = list(candidates)
        while len(tied) > 1:
            rolls = {n: self.dice.roll()[0] for n in tied}
            self.say(
                self.tr("roll-off: {rolls}").format(
                    rolls=", ".join(f"{n} {r}" for n, r in rolls.items())
                )
            )
            best = max(rolls.values())
            tied = [n for n in tied if rolls[n] == best]
        return tied[0]

    def consequence(self, number: int) -> None:
        from tablee.systems.agents import decide_consequence

        played = self.game().challenges[number]
        if played.actions == 0 and played.outcome == "lost" and number not in self.offered:
            self.offered.add(number)  # nobody could act: an agent may still surrender (G-M8)
            self.say(
                self.tr(
                    "Challenge {number} is lost at once: no involved agent has {kind} left."
                ).format(number=number, kind=played.kind.title)
            )
            self.offer_concessions(number)
        applied = self.store(lambda g: decide_consequence(g, challenge=number))
        result = applied.decision.outcome
        if result.helped:
            self.draw("boons", HELP)

    def start_contest(self) -> None:
        from tablee.systems.agents import decide_contest_start

        game = self.game()
        wins = game.quest.wins_by_name()
        best = [n for n, w in wins.items() if w == max(wins.values())]

        def start() -> Any:
            favori = None
            if len(best) > 1:  # asked inside, so that a refused name is asked again
                answer = self.ask(
                    self.tr("Who is the favori among {agents}? (empty: roll-off):").format(
                        agents=", ".join(best)
                    )
                )
                favori = answer or self._roll_off(tuple(best))
            return self.store(lambda g: decide_contest_start(g, favori=favori))

        self.retry(start)

    def contest_challenge(self) -> None:
        self.retry(self._contest_challenge)

    def _contest_challenge(self) -> Any:
        from tablee.systems.agents import (
            Reserve,
            decide_contest_challenge,
            decide_contest_close,
            next_challengers,
        )

        game = self.game()
        holder = game.contest.holder
        wanting = names(
            self.ask(
                self.tr(
                    "{holder} holds the artefact. Who challenges them? Names separated by "
                    "commas (empty: nobody):"
                ).format(holder=holder)
            )
        )
        if not wanting:
            return self.store(lambda g: decide_contest_close(g))
        due = next_challengers(game.contest, [game_of_name(game, n) for n in wanting])
        first = due[0] if due else wanting[0]
        hero = game.agents.get(first)
        default = max(Reserve, key=hero.reserve).value if hero else "muscles"
        attribute = (
            self.ask(
                self.tr("{agent} challenges on which reserve? (empty: {default}):").format(
                    agent=first, default=default.capitalize()
                )
            )
            or default
        )
        joining = names(
            self.ask(
                self.tr("Agents allied with {agent} in this challenge (empty: none):").format(
                    agent=first
                )
            )
        )
        allies = names(
            self.ask(self.tr("Agents siding with {holder} (empty: none):").format(holder=holder))
        )
        return self.store(
            lambda g: decide_contest_challenge(
                g,
                challengers=[first, *joining],
                attribute=attribute,
                wanting=[*wanting, *joining],
                allies=allies,
            )
        )

    def settle(self, number: int) -> None:
        from tablee.systems.agents import decide_contest_settle

        game = self.game()
        challengers = game.bouts[number].challengers
        taker = None
        if game.challenges[number].outcome == "won" and len(challengers) > 1:

            def settle() -> Any:
                answer = self.ask(
                    self.tr("Who of {agents} takes the artefact? (empty: {first}):").format(
                        agents=", ".join(challengers), first=challengers[0]
                    )
                )
                who = answer or challengers[0]
                return self.store(lambda g: decide_contest_settle(g, challenge=number, taker=who))

            self.retry(settle)
            return
        self.retry(
            lambda: self.store(lambda g: decide_contest_settle(g, challenge=number, taker=taker))
        )

    def done(self) -> None:
        from tablee.systems.agents import quest_json

        quest = quest_json(self.game())
        if quest is None:
            return
        if quest["contest"] is not None:
            self.say(
                self.tr("The adventure is over: {holder} takes the artefact home.").format(
                    holder=quest["contest"]["holder"]
                )
            )
        else:
            self.say(
                self.tr("The adventure is over: the quest is {status}.").format(
                    status=quest_word(self.tr, quest["status"])
                )
            )


def game_of_name(game: Any, name: str) -> str:
    """The stored name of an agent typed in any case."""
    from tablee.systems.agents import agent_named

    return agent_named(game, name)


def _three_values(text: str) -> tuple[int, int, int]:
    """Muscles, Sexe and Intelligence typed as ``7,5,3`` (commas or spaces).

    Raises:
        InputError: not three whole numbers (the permutation itself is checked by G-M1).
    """
    parts = [p for p in text.replace(" ", ",").split(",") if p]
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        raise InputError(
            N_("{value!r} is not three numbers for Muscles, Sexe and Intelligence, e.g. 7,5,3"),
            value=text,
        )
    return int(parts[0]), int(parts[1]), int(parts[2])


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
    answers = _read_script(a.script) if a.script else None
    play = _Play(ctx, Prompter(ctx, answers), Dice(ctx))
    try:
        finished = _run(play)
    except _Paused:
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
