"""Lab questions: declared like a game's commands, answered by the rules core.

A `Question` is a frozen dataclass of `Param`-annotated fields (`tablee.systems.declare`), so
the command line (``tablee lab GAME NAME --field ...``) and the web lab page build it the same
way, through `build_command`, with the same errors. Its `answer` returns a `LabResult`.
Questions are registered in `QUESTIONS` by id and imported on first use.

Source: docs/architecture.md, "The designer's lab".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from tablee.errors import N_, NotFoundError
from tablee.lab.results import Cell, Chart, Column, LabResult

if TYPE_CHECKING:
    from tablee.lab.runner import Run
from tablee.systems.declare import Param, Query, Who, fields_of

__all__ = ["QUESTIONS", "LabContext", "Question", "Seed", "question_named", "questions_of"]


@dataclass(frozen=True)
class LabContext:
    """How a question runs: its processes and who hears of its progress.

    Attributes:
        workers: processes a simulation may use (1: this process only).
        progress: called with ``(done, total)`` trials as a simulation goes; None for none.
    """

    workers: int = 1
    progress: Callable[[int, int], None] | None = None


class Question(Query):
    """Base of every lab question: a declared query that needs no table.

    Class attributes a question sets, besides a command's (`name`, `title`, `description`):
        game: the game's id (``pouyss``, ``agents``, ``shs``, ``ybs``).
        simulated: its figures come from a simulation (it takes ``trials`` and ``seed``
            fields and reports estimates with their intervals).
    """

    who: ClassVar[Who] = Who.ANYONE
    needs_table: ClassVar[bool] = False
    game: ClassVar[str]
    simulated: ClassVar[bool] = False

    @property
    def id(self) -> str:
        """``GAME/NAME``."""
        return f"{self.game}/{self.name}"

    def inputs(self) -> dict[str, object]:
        """Every field as given (name -> value), for `LabResult.inputs`: what replays the run."""
        return {spec.name: getattr(self, spec.attr) for spec in fields_of(type(self))}

    def command_line(self) -> str:
        """The ``tablee lab`` command asking this question again, as a shell would read it.

        Every field with a value (``--max-bonus 3``; a yes as its flag, a no to a yes by
        default as its `FieldSpec.negative_flag`; the seed of a simulation), quoted where
        a shell needs it. Example: ``tablee lab pouyss levels --max-bonus 3 --max-malus 5``.
        """
        import shlex

        words = ["tablee", "lab", self.game, self.name]
        for spec in fields_of(type(self)):
            value = getattr(self, spec.attr, None)
            if value is None or value == "" or spec.param.positional:
                continue
            if value is False:
                if spec.default is True:  # said no to a yes by default
                    words.append(spec.negative_flag)
            elif value is True:
                words.append(spec.flag)
            elif isinstance(value, tuple | list):
                for item in value:
                    words += [spec.flag, str(item)]
            else:
                words += [spec.flag, str(value)]
        return shlex.join(words)

    def result(
        self,
        columns: tuple[Column, ...],
        rows: Sequence[Mapping[str, Cell]],
        charts: Sequence[Chart] = (),
        *,
        run: Run | None = None,
        **details: Any,
    ) -> LabResult:
        """This question's answer: a `LabResult` with its id, title and `inputs` filled in.

        Args:
            columns, rows, charts: the figures and what to draw from them.
            run: a simulation's run (`tablee.lab.runner.Run`): its seed, trials and whether it
                was stopped are recorded, and the figures marked as estimates; None for an
                exact table.
            **details: the other fields of `LabResult` (``policies``, ``variants``, ``notes``).
        """
        if run is not None:
            details.update(seed=run.seed, trials=run.trials, exact=False, stopped=run.stopped)
        return LabResult(
            question=self.id,
            title=self.title,
            columns=columns,
            rows=tuple(rows),
            charts=tuple(charts),
            inputs=self.inputs(),
            **details,
        )

    def answer(self, context: LabContext) -> LabResult:
        """The question's figures.

        Raises:
            InputError: inputs the rules cannot take together (each names the value).
        """
        raise NotImplementedError


Seed = Annotated[int, Param(N_("the seed that replays the run"), low=0, high=2**63 - 1)]
"""The ``seed`` field of a simulated question: the same seed gives the same figures."""


QUESTIONS: dict[str, str] = {
    "pouyss/levels": "tablee.lab.pouyss:Levels",
    "pouyss/success": "tablee.lab.pouyss:Success",
    "pouyss/opposed": "tablee.lab.pouyss:Opposed",
    "shs/ladder": "tablee.lab.shs:Ladder",
    "shs/opposed": "tablee.lab.shs:Opposed",
    "shs/cooperation": "tablee.lab.shs:Cooperate",
    "ybs/test": "tablee.lab.ybs:Tests",
    "ybs/straights": "tablee.lab.ybs:Straights",
    "ybs/zorome": "tablee.lab.ybs:Zoromes",
    "ybs/ichika": "tablee.lab.ybs:Ichika",
    "agents/action": "tablee.lab.agents:Action",
    "agents/challenge": "tablee.lab.agents:ChallengeWin",
    "pouyss/economy": "tablee.lab.sim_pouyss:CagnotteEconomy",
    "ybs/gang": "tablee.lab.sim_ybs:GangFightSim",
    "shs/film": "tablee.lab.sim_shs:Film",
    "agents/adventure": "tablee.lab.sim_agents:Adventure",
    "ybs/race-advice": "tablee.lab.ybs_race:RaceAdvice",
}
"""Every lab question: ``GAME/NAME`` -> ``module:class``, imported on first use."""


def question_named(game: str, name: str) -> type[Question]:
    """The question ``name`` of ``game``.

    Raises:
        NotFoundError: no such question (the message lists the game's questions).
    """
    target = QUESTIONS.get(f"{game}/{name}")
    if target is None:
        known = ", ".join(sorted(q.split("/", 1)[1] for q in QUESTIONS if q.startswith(game + "/")))
        raise NotFoundError(
            N_("the lab has no question {name!r} for {game}; it has: {known}"),
            name=name,
            game=game,
            known=known or "-",
        )
    module, _, attribute = target.partition(":")
    found: type[Question] = getattr(import_module(module), attribute)
    return found


def questions_of(game: str) -> tuple[type[Question], ...]:
    """Every question of ``game``, in the order registered."""
    return tuple(
        question_named(game, q.split("/", 1)[1]) for q in QUESTIONS if q.startswith(game + "/")
    )
