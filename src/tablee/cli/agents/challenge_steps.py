"""The challenge steps of ``tablee agents play``: actions, concessions, winners, consequences.

An agent's turn (the type's hint, the declaration, the checklist of modifiers, the target and
the d6), conceding before the first turn or abandoning during the challenge, naming a won
challenge's winner (a roll-off on a tie), then its consequences and the boon it may bring.

Source: seed 002; rulings G-M3 to G-M6, G-M8, G-M10, G-A12.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from tablee.cli.agents.common import names
from tablee.cli.agents.prompting import ABANDON, CONCEDE, PlayBase
from tablee.dice import read_whole
from tablee.errors import N_, InputError

__all__ = ["HELP", "HINTS", "ChallengeSteps"]

HELP = N_("What helps the quest, {die} (empty: roll):")
HINTS = {
    "muscles": N_("Muscles: describe the action, ideally raising the stakes"),
    "sexe": N_("Sexe: a pick-up line, a sexual metaphor or a double entendre"),
    "intelligence": N_("Intelligence: how the agent out-thought the opposition"),
}


class ChallengeSteps(PlayBase):
    """The steps of a challenge: each agent's action, its winner, its consequences."""

    def act(self, number: int, agent: str) -> None:
        """An agent's turn: concede, abandon, or declare and roll an action (G-M3, G-M4)."""
        from tablee.cli.report import report_text
        from tablee.systems.agents import CHECKLISTS, challenge_json
        from tablee.systems.agents.reports import challenge_lines
        from tablee.systems.plugin import Report

        game = self.game()
        challenge = game.challenges[number]
        if not self.ctx.json:
            lines = challenge_lines(challenge_json(challenge))
            self.ctx.emit(report_text(self.ctx, Report(tuple(lines))))
        if challenge.actions == 0 and number not in self.offered:
            self.offered.add(number)
            if self.offer_concessions(number):
                return  # someone conceded: the next step is read again
        kind = challenge.kind
        self.say(self.tr(HINTS[kind.value]))
        declaration = self.ask(
            (
                self.tr(
                    "{agent}, declare your action, or type '{leave}' to leave before the "
                    "first turn, getting your reserve back in full:"
                )
                if challenge.actions == 0
                else self.tr(
                    "{agent}, declare your action, or type '{leave}' to leave the challenge, "
                    "doubling the points you have left:"
                )
            ).format(agent=agent, leave=self.tr(CONCEDE if challenge.actions == 0 else ABANDON))
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
        from tablee.systems.agents import Standing
        from tablee.systems.agents.commands import Concede

        game = self.game()
        challenge = game.challenges[number]
        kind = challenge.kind
        able = [
            a
            for a in challenge.agents
            if (challenge.is_open and challenge.standing[a] is Standing.ACTIVE)
            or (
                challenge.standing[a] is Standing.OUT
                and game.agents[a].reserve(kind) < game.agents[a].start(kind)
            )
        ]  # only those for whom conceding still changes something (docs/rules/agents.md)
        if not able:
            return False
        choices = ", ".join(
            f"{a} {game.agents[a].reserve(kind)} → {game.agents[a].start(kind)}" for a in able
        )
        question = self.tr(
            "Before the first turn of challenge {number}, who concedes, getting their "
            "{kind} back to its starting value? Names separated by commas "
            "({agents}; empty: nobody):"
        ).format(number=number, kind=kind.title, agents=choices)
        who = self.retry(partial(self._conceding, question, able))  # a bad name: asked again
        conceded = False
        for name in who:
            done = self.retry_once(partial(self.run, Concede(agent=name, challenge=number)))
            conceded = conceded or done
        return conceded

    def _conceding(self, question: str, able: list[str]) -> list[str]:
        """The agents named to concede, each one of ``able``; none stored yet.

        Raises:
            InputError: a name that is not one of ``able``, listing them (asked again, so
                that a typing slip costs nobody their chance to concede).
        """
        from tablee.systems.common import find_name

        chosen: list[str] = []
        for typed in names(self.ask(question)):
            found = find_name(able, typed, N_("an agent's name"))
            if found is None:
                raise InputError(
                    N_("{name!r} cannot concede here: name one of {agents}, or nobody"),
                    name=typed,
                    agents=", ".join(able),
                )
            if found not in chosen:
                chosen.append(found)
        return chosen

    def _leave(self, how: str, number: int, agent: str) -> Any:
        from tablee.systems.agents.commands import Abandon, Concede

        leave = Abandon if how == ABANDON else Concede
        return self.run(leave(agent=agent, challenge=number))

    def _act(self, number: int, agent: str, declaration: str) -> Any:
        from tablee.systems.agents import declared_modifier
        from tablee.systems.agents.commands import Act

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
            target = read_whole(answer, negative=False) or 0
        face = self.faces(self.tr("d6 (empty: roll):"), 1)[0]
        command = Act(
            challenge=number,
            agent=agent,
            modifiers=tuple(ticked),
            target=target,
            declaration=declaration,
        )
        return self.run(command, [face])

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
        """Name a won challenge's winner; empty: the rule, a roll-off on a tie (G-A12)."""
        from tablee.systems.agents.commands import NameWinner

        def name() -> Any:
            answer = self.ask(
                self.tr(
                    "Whose action marked challenge {number} most? Empty: most reserve points "
                    "spent ({agents}):"
                ).format(number=number, agents=", ".join(candidates))
            )
            # empty: the rule; a tie is rolled off (G-A12) with the run's dice
            return self.run(NameWinner(challenge=number, agent=answer or None), rolled=True)

        self.retry(name)

    def consequence(self, number: int) -> None:
        """Apply a challenge's consequences (G-M10); the boon it may bring is drawn next."""
        from tablee.systems.agents.commands import Settle

        played = self.game().challenges[number]
        if played.actions == 0 and played.outcome == "lost" and number not in self.offered:
            self.offered.add(number)  # nobody could act: an agent may still surrender (G-M8)
            self.say(
                self.tr(
                    "Challenge {number} is lost at once: no involved agent has {kind} left. It "
                    "stays lost, but conceding now still gives an agent their {kind} back."
                ).format(number=number, kind=played.kind.title)
            )
            self.offer_concessions(number)
        self.run(Settle(challenge=number))  # a boon it owes is the next step (G-A13)
