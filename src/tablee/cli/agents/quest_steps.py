"""The first steps of ``tablee agents play``: the agents, the quest, scenes and challenges.

Creating the agents until the team is complete (the answers typed for an agent not yet
created are kept across a pause), drawing the quest (the objective secret until the index
reaches 1), the question between scenes (the next scene, failing an action on purpose,
giving up the quest, or an empty answer to pause), and generating each group's challenge:
every group's dice are asked before anything is stored.

Source: seed 002 ("Génération de scénario"); rulings G-M1, G-M7, G-M9; G-X2, G-X3.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

from tablee.cli.agents.common import names
from tablee.cli.agents.prompting import ABANDON, GIVE_UP, NEXT, Paused, PlayBase
from tablee.errors import N_, InputError, RuleError

__all__ = ["DRAFT", "WHERE", "QuestSteps"]

WHERE = N_("Where the agents arrive, {die} (empty: roll):")
DRAFT = "agents-play-draft:"
"""The preference (then the table's id) keeping the answers typed for an agent not yet
created, so that a pause loses none of them (a preference of the database, not an event)."""

_DRAFTED = ("name", "organisation", "signature")


class QuestSteps(PlayBase):
    """The steps before a challenge is played: agents, quest, scenes, generated challenges."""

    def create_agents(self) -> None:
        """Ask for agents until an empty name closes a team of at least one (G-M1, G-X3).

        The name, organisation and signature object typed for an agent are kept (`DRAFT`)
        until it is created: a play resumed after a pause asks only what is still missing.
        """
        while True:
            draft = self._draft()
            if "name" in draft and self._taken(draft["name"]) is not None:
                draft = self._keep({})  # created meanwhile: nothing left to ask for it
            if draft:
                self.say(
                    self.tr("Kept from before the pause: {answers}").format(
                        answers=", ".join(draft[k] for k in _DRAFTED if k in draft)
                    )
                )
            if "name" not in draft:
                name = self.retry(self._agent_name)
                if not name:
                    if self.game().agents:
                        self.team_closed = True
                        return
                    continue
                draft = self._keep({"name": name})
            for key, question in (
                ("organisation", N_("Organisation:")),
                ("signature", N_("Signature object:")),
            ):
                if key not in draft:
                    answer = self.retry(partial(self._identity, key, question))
                    draft = self._keep({**draft, key: answer})
            self.retry(partial(self._create, draft))
            self._keep({})

    def _agent_name(self) -> str:
        """A new agent's name, or empty (the team is complete).

        Raises:
            InputError: not a name; RuleError: an agent has it already (asked again).
        """
        name = self.ask(self.tr("Agent's name (empty when the team is complete):"))
        taken = self._taken(name) if name else None
        if taken is not None:
            raise RuleError(N_("an agent named {name!r} already exists"), name=taken)
        return name

    def _taken(self, name: str) -> str | None:
        """The agent already called ``name`` (any case), or None (InputError: not a name)."""
        from tablee.systems.common import find_name

        return find_name(self.game().agents, name, N_("an agent's name"))

    def _identity(self, key: str, question: str) -> str:
        """The organisation or the signature object, refused when empty (G-M1, G-X3)."""
        from tablee.systems.agents.game import check_identity

        answer = self.ask(self.tr(question))
        check_identity(**{key: answer})
        return answer

    def _create(self, draft: dict[str, str]) -> Any:
        """Ask the three values and create the drafted agent (G-M1)."""
        from tablee.systems.agents.commands import CreateAgent

        values = self.ask(self.tr("Muscles, Sexe, Intelligence (7, 5 and 3 in any order):"))
        m, s, i = _three_values(values)
        command = CreateAgent(
            name_=draft["name"],
            muscles=m,
            sexe=s,
            intelligence=i,
            organisation=draft["organisation"],
            signature=draft["signature"],
        )
        return self.run(command)

    def _draft_key(self) -> str:
        name = self.ctx.service.resolve_name(self.ctx.args.table)
        return DRAFT + self.ctx.service.state(name).table_id

    def _draft(self) -> dict[str, str]:
        """The answers kept for the agent being created (empty: none)."""
        raw = self.ctx.service.store.get_preference(self._draft_key())
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: str(data[k]) for k in _DRAFTED if isinstance(data.get(k), str) and data[k]}

    def _keep(self, draft: dict[str, str]) -> dict[str, str]:
        """Keep the answers typed so far for the agent being created; empty: forget them."""
        text = json.dumps(draft, ensure_ascii=False) if draft else ""
        self.ctx.service.store.set_preference(self._draft_key(), text)
        return draft

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

        self.retry(draw)  # where the agents arrive is the next step (`flow.next_step`)

    def start_scene(self) -> None:
        """Between scenes: the next scene, fail on purpose (G-M7), give up, or pause.

        An empty answer pauses the game (everything is saved): the README's way to stop.

        Raises:
            Paused: the answer is empty.
        """
        from tablee.systems.agents.commands import GiveUp, NextScene

        while True:
            answer = self.ask(
                self.tr(
                    "Between scenes: type '{next}' for the next scene; an agent and a reserve "
                    "(e.g. {example}) to fail an action on purpose for +1; '{give_up}' to "
                    "abandon the quest; or press Enter to pause here (everything is saved):"
                ).format(
                    next=self.tr(NEXT),
                    example=self._example_recovery(),
                    give_up=self.tr(GIVE_UP),
                )
            )
            if not answer:
                raise Paused
            if self.said(answer, NEXT):
                self.run(NextScene())
                return
            if self.said(answer, GIVE_UP) or self.said(answer, ABANDON):
                self.run(GiveUp())
                return
            self.retry_once(partial(self._fail_on_purpose, answer))  # then asked again

    def _example_recovery(self) -> str:
        """An agent and a reserve as typed to fail on purpose, from the agents in play.

        The first agent with a reserve below its start (the one a recovery would raise),
        else the first agent and its first reserve.
        """
        from tablee.systems.agents.agent import Reserve

        agents = list(self.game().agents.values())
        for agent in agents:
            for reserve in Reserve:
                if agent.reserve(reserve) < agent.start(reserve):
                    return f"{agent.name} {reserve.title}"
        return f"{agents[0].name} {Reserve.MUSCLES.title}" if agents else Reserve.MUSCLES.title

    def _fail_on_purpose(self, answer: str) -> Any:
        from tablee.systems.agents.commands import FailOnPurpose

        who, _, reserve = answer.strip().rpartition(" ")
        if not who.strip():
            raise InputError(
                N_("{value!r} is not an agent and a reserve, e.g. {example!r} (rule G-M7)"),
                value=answer,
                example=self._example_recovery(),
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
        for group, faces, face in plans:
            self._store_generated(group, faces, face)

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

    def _generate(self, group: list[str]) -> tuple[list[str], list[int], int | None]:
        """Ask one group's challenge dice and its opposition's face; store nothing yet.

        In the quest's first scene an environment source is where the agents arrived: no
        face is asked (None), the rules take that environment (G-X2).
        """
        from tablee.systems.agents import CHALLENGE_GENERATOR, ChallengeInputs, Source, TableKind
        from tablee.systems.agents.decide import arrived_in

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
        arrival = arrived_in(game, drawn.source)
        if arrival is not None:
            self.say(
                self.tr("The environment where the agents arrived opposes them: {text}").format(
                    text=arrival
                )
            )
            return group, faces, None
        table = "creatures" if drawn.source is Source.CREATURES else "environments"
        die = game.tables.table(TableKind(table)).die
        face = self.faces(
            self.tr("Who or what opposes them, from {table} ({die}; empty: roll):").format(
                table=self._table(table), die=die.name
            ),
            1,
            die,
        )[0]
        return group, faces, face

    def _store_generated(self, group: list[str], faces: list[int], face: int | None) -> None:
        """Store the opposition's draw (its face, when one was asked), then the challenge."""
        from tablee.systems.agents.commands import Generate

        drawn = [] if face is None else [face]
        self.run(Generate(agents=tuple(group)), [*faces, *drawn])  # the draw comes first


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
