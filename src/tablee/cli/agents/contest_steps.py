"""The last steps of ``tablee agents play``: the artefact contest and the end of the adventure.

Starting the contest (the favori holds the artefact; a roll-off among tied favoris), each
challenge for the artefact with its allies on both sides, settling it (who of the alliance
takes the artefact), and the closing words.

Source: seed 002 ("Génération de scénario"); rulings G-M12, G-A18.
"""

from __future__ import annotations

from typing import Any

from tablee.cli.agents.common import names, quest_word
from tablee.cli.agents.prompting import PlayBase

__all__ = ["ContestSteps", "game_of_name"]


class ContestSteps(PlayBase):
    """The steps of the artefact contest, then the end of the adventure."""

    def start_contest(self) -> None:
        """Start the artefact contest; a tie for favori is asked or rolled off (G-M12)."""
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
        """Ask for a challenge for the artefact, or close the contest, until one is stored."""
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
        """Settle a contest challenge; a won alliance says who takes the artefact (G-M12)."""
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
        """Say how the adventure ended: who takes the artefact home, or the quest's status."""
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
                self.tr("The adventure is over: the quest has failed.")
                if quest["status"] == "failed"
                else self.tr("The adventure is over: the quest is {status}.").format(
                    status=quest_word(self.tr, quest["status"])
                )
            )


def game_of_name(game: Any, name: str) -> str:
    """The stored name of an agent typed in any case."""
    from tablee.systems.agents import agent_named

    return agent_named(game, name)
