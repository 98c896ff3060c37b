"""The first steps of ``tablee agents play``: the agents, the quest, scenes and challenges.

Creating the agents until the team is complete, drawing the quest (the objective secret
until the index reaches 1) and where the agents arrive, the next scene (or failing an action
on purpose, or giving up the quest), and generating each group's challenge: every group's
dice are asked before anything is stored.

Source: seed 002 ("Génération de scénario"); rulings G-M1, G-M7, G-M9.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from tablee.cli.agents.common import names
from tablee.cli.agents.prompting import ABANDON, GIVE_UP, PlayBase
from tablee.errors import N_, InputError

__all__ = ["WHERE", "QuestSteps"]

WHERE = N_("Where the agents arrive, {die} (empty: roll):")


class QuestSteps(PlayBase):
    """The steps before a challenge is played: agents, quest, scenes, generated challenges."""

    def create_agents(self) -> None:
        """Ask for agents until an empty name closes a team of at least one (G-M1)."""
        from tablee.systems.agents.commands import CreateAgent

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
                command = CreateAgent(
                    name_=name, muscles=m, sexe=s, intelligence=i, organisation=org, signature=sig
                )
                return self.run(command)

            self.retry(create)

    def draw_quest(self) -> None:
        """Draw the quest from the starter or the players' tables, then where they arrive."""
        from tablee.systems.agents.adventure import tables_json
        from tablee.systems.agents.commands import Quest
        from tablee.systems_io.agents_tables import load_tables, starter_tables

        if not self.team_closed:  # resumed before the team was complete: more agents?
            self.create_agents()

        def draw() -> Any:
            where = self.ask(
                self.tr(
                    "Generator tables: empty for Tablée's starter tables, or a folder of your own:"
                )
            )
            if where:  # read here; the rules get the tables' texts
                tables = load_tables(Path(where))
                texts = tables_json(tables)
                command = Quest(
                    objectives=texts["objectives"],
                    environments=texts["environments"],
                    creatures=texts["creatures"],
                    boons=texts["boons"],
                    source=Path(where).name or where,
                )
            else:
                lang = "fr" if self.ctx.lang == "fr" else "en"
                tables, command = starter_tables(lang), Quest(starter=lang)
            die = tables.objectives.die
            face = self.faces(
                self.tr("Quest objective, {die} (empty: roll):").format(die=die.name),
                1,
                die,
                secret=True,
            )[0]
            return self.run(command, [face])

        self.retry(draw)
        self.draw("environments", WHERE)

    def start_scene(self) -> None:
        """Start the next scene, fail an action on purpose (G-M7) or give up the quest."""
        from tablee.systems.agents.commands import GiveUp, NextScene

        while True:
            answer = self.ask(
                self.tr(
                    "Next scene: press Enter; or type an agent and a reserve (e.g. {example}) "
                    "to fail an action on purpose for +1; or '{give_up}' to abandon "
                    "the quest:"
                ).format(example=self._example_recovery(), give_up=self.tr(GIVE_UP))
            )
            if not answer:
                self.run(NextScene())
                return
            if self.said(answer, GIVE_UP) or self.said(answer, ABANDON):
                self.run(GiveUp())
                return
            self.retry_once(partial(self._fail_on_purpose, answer))  # then asked again

    def _example_recovery(self) -> str:
        game = self.game()
        first = next(iter(game.agents), "Vega")
        return f"{first} Muscles"

    def _fail_on_purpose(self, answer: str) -> Any:
        from tablee.systems.agents.commands import FailOnPurpose

        who, _, reserve = answer.strip().rpartition(" ")
        if not who.strip():
            raise InputError(
                N_("{value!r} is not an agent and a reserve, e.g. 'Vega Muscles' (rule G-M7)"),
                value=answer,
            )
        return self.run(FailOnPurpose(agent=who.strip(), reserve=reserve))

    def generate(self) -> None:
        """Ask who takes part, each group's challenge dice and opposition; store them (G-M9)."""
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
            InputError, RuleError: as the rules would, before anything is stored.
        """
        from tablee.dice import SourceChance, TypedFaces
        from tablee.systems.agents import CHALLENGE_GENERATOR, ChallengeInputs
        from tablee.systems.agents.commands import Generate
        from tablee.systems.agents.plugin import AGENTS_GAME

        game = self.game()
        if faces is None:
            inputs = ChallengeInputs(game.quest.progress, max(1, len(group)), game.options)
            faces = [1] * CHALLENGE_GENERATOR.dice_for(inputs).count
        named = Generate(agents=tuple(group), opposition="-")  # no table drawn for a check
        AGENTS_GAME.decide(game, named, SourceChance(TypedFaces(faces)))

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
        """Store the opposition's draw from ``table``, then the challenge it opposes."""
        from tablee.systems.agents.commands import Generate

        self.run(Generate(agents=tuple(group)), [*faces, face])  # the draw comes first


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
