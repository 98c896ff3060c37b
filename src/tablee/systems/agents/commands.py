"""Every agents command, declared once: its fields, ranges, help, who may use it, its dice.

The command line (``tablee agents ...``, ``tablee odds agents ...``), the web forms and the
JSON API are generated from these classes; `tablee.systems.agents.plugin.Agents.decide`
takes them. ``tablee agents play`` asks its questions at a prompt and runs these same
commands.

Names are typed as people type them (any case, ``Vega,Orso`` or one per line); the rules
read them and name the one they refuse. A game master runs the game, but it may be played
without one (seed 002, "Génération de scénario"): every step of the scenario generator is
open to every player, and a player acts only for the agents they play.

Source: seed ``002_59b03dd224c3b923.txt``; rulings G-M1 to G-M12, G-N2, G-A1 to G-A20.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, ClassVar, Literal, TypeAlias

from tablee.dice import D6, DiceRequest
from tablee.errors import N_
from tablee.systems.agents.actions import HIGHEST_MODIFIER, LOWEST_MODIFIER
from tablee.systems.agents.agent import MAX_RESERVE, Reserve
from tablee.systems.agents.challenge import MAX_SCORE
from tablee.systems.declare import Command, Param, Query, Who

__all__ = [
    "COMMANDS",
    "Abandon",
    "Act",
    "ActionOdds",
    "AgentsCommand",
    "ChallengeOdds",
    "Checklist",
    "Concede",
    "ContestChallenge",
    "ContestClose",
    "ContestSettle",
    "ContestStart",
    "CreateAgent",
    "Draw",
    "FailOnPurpose",
    "Generate",
    "GiveUp",
    "NameWinner",
    "NextScene",
    "OpenChallenge",
    "Quest",
    "Settle",
    "Show",
    "Tables",
]

AGENTS = "agents"
"""The choices source of the table's agents."""
KINDS = "kinds"
"""The choices source of the challenge types (the reserves)."""
LANGUAGES = "languages"
"""The choices source of the starter tables' languages."""

MAX_TABLE_TEXT = 256 * 1024
"""Longest text of one generator table given as one's own, in characters."""

_KIND_LABELS = tuple((r.value, r.title) for r in Reserve)
"""Each challenge type's id and its name as the game writes it (``Muscles``)."""
_OWN_TABLES = N_("Your own tables")
"""The group of a quest's own generator tables, folded in the web form."""
NUMBER = N_("the challenge's number")
KIND = N_("Muscles, Sexe or Intelligence")
AGENT = N_("the agent")


@dataclass(frozen=True)
class CreateAgent(Command):
    """A new agent: Sang 3, and Muscles, Sexe and Intelligence 7, 5 and 3 in any order.

    The organisation and the signature object are required (G-M1: the player chooses both);
    see `tablee.systems.agents.game.check_identity` (ruling G-X3).
    """

    name: ClassVar[str] = "agent"
    title: ClassVar[str] = N_("create an agent: Sang 3, reserves 7, 5, 3")
    who: ClassVar[Who] = Who.ACTOR
    rule: ClassVar[str] = "G-M1"

    name_: Annotated[str, Param(N_("the agent's name"))] = field(metadata={"key": "name"})
    muscles: Annotated[
        int,
        Param(
            N_("Muscles: 7, 5 or 3, each value once"),
            low=0,
            high=MAX_RESERVE,
            placeholder="7|5|3",
            rule="G-M1",
        ),
    ] = 7
    sexe: Annotated[
        int,
        Param(
            N_("Sexe: 7, 5 or 3, each value once"),
            low=0,
            high=MAX_RESERVE,
            placeholder="7|5|3",
            rule="G-M1",
        ),
    ] = 5
    intelligence: Annotated[
        int,
        Param(
            N_("Intelligence: 7, 5 or 3, each value once"),
            low=0,
            high=MAX_RESERVE,
            placeholder="7|5|3",
            rule="G-M1",
        ),
    ] = 3
    organisation: Annotated[
        str, Param(N_("the agency or organisation"), max_length=200, rule="G-M1")
    ] = field(kw_only=True)
    signature: Annotated[
        str, Param(N_("the signature object (no effect)"), max_length=200, rule="G-M1")
    ] = field(kw_only=True)
    owner: Annotated[
        str | None,
        Param(N_("the player who plays the agent"), flag="--player", choices="players", actor=True),
    ] = None


@dataclass(frozen=True)
class Show(Query):
    """The agents, the open challenges and the quest."""

    name: ClassVar[str] = "show"
    title: ClassVar[str] = N_("the agents, the open challenges and the quest")
    who: ClassVar[Who] = Who.ANYONE


@dataclass(frozen=True)
class OpenChallenge(Command):
    """A challenge opened by hand: a type, agents in turn order, oppositions with scores."""

    name: ClassVar[str] = "challenge"
    title: ClassVar[str] = N_("open a challenge by hand")
    rule: ClassVar[str] = "G-M2"

    kind: Annotated[
        str, Param(KIND, flag="--type", choices=KINDS, rule="G-M2", option_labels=_KIND_LABELS)
    ]
    agents: Annotated[tuple[str, ...], Param(N_("involved agents, in turn order"))]
    oppositions: Annotated[
        tuple[str, ...],
        Param(
            N_("an opposition and its score; repeat for several"),
            flag="--opposition",
            placeholder="NAME:SCORE",
        ),
    ]
    label: Annotated[str, Param(N_("a short description"))] = ""


@dataclass(frozen=True)
class Act(Command):
    """An agent acts in a challenge: the ticked modifiers, one d6."""

    name: ClassVar[str] = "act"
    title: ClassVar[str] = N_("an agent acts in a challenge: 1d6 + modifiers")
    who: ClassVar[Who] = Who.ACTOR
    rolled: ClassVar[bool] = True
    rule: ClassVar[str] = "G-M4"
    faces_help: ClassVar[str] = N_("one d6 face, e.g. 4")

    challenge: Annotated[int | None, Param(NUMBER, low=1)] = None
    agent: Annotated[
        str | None,
        Param(N_("who acts (default: the agent due)"), choices=AGENTS, actor=True),
    ] = None
    modifiers: Annotated[
        tuple[str, ...],
        Param(
            N_("a modifier ticked on the type's checklist, by its id there; repeatable"),
            flag="--modifier",
        ),
    ] = ()
    target: Annotated[
        int | None, Param(N_("the opposition targeted, from 1"), low=1, rule="G-A7")
    ] = None
    declaration: Annotated[str, Param(N_("the action as declared"), max_length=1000)] = ""

    def dice(self) -> tuple[DiceRequest, ...]:
        """One d6, whatever the modifiers."""
        return (DiceRequest(D6, 1),)


@dataclass(frozen=True)
class Concede(Command):
    """An agent gives a challenge up before its first turn: the reserve back in full."""

    name: ClassVar[str] = "concede"
    title: ClassVar[str] = N_("give a challenge up before it begins: reserve restored")
    who: ClassVar[Who] = Who.ACTOR
    rule: ClassVar[str] = "G-M8"

    agent: Annotated[str, Param(AGENT, choices=AGENTS, actor=True)]
    challenge: Annotated[int | None, Param(NUMBER, low=1)] = None


@dataclass(frozen=True)
class Abandon(Command):
    """An agent leaves a challenge in progress: the points left doubled."""

    name: ClassVar[str] = "abandon"
    title: ClassVar[str] = N_("leave a challenge in progress: points left doubled")
    who: ClassVar[Who] = Who.ACTOR
    rule: ClassVar[str] = "G-M8"

    agent: Annotated[str, Param(AGENT, choices=AGENTS, actor=True)]
    challenge: Annotated[int | None, Param(NUMBER, low=1)] = None


@dataclass(frozen=True)
class FailOnPurpose(Command):
    """An agent fails a fairly hard action on purpose outside challenges: +1 reserve."""

    name: ClassVar[str] = "fail"
    title: ClassVar[str] = N_("fail on purpose outside challenges: +1 reserve")
    who: ClassVar[Who] = Who.ACTOR
    rule: ClassVar[str] = "G-M7"

    agent: Annotated[str, Param(AGENT, choices=AGENTS, actor=True)]
    reserve: Annotated[str, Param(KIND, choices=KINDS, option_labels=_KIND_LABELS)]
    reason: Annotated[str, Param(N_("a note kept in the log"))] = ""


@dataclass(frozen=True)
class NameWinner(Command):
    """The winner of a won challenge: the table's choice, else who spent most."""

    name: ClassVar[str] = "winner"
    title: ClassVar[str] = N_("name a won challenge's winner")
    who: ClassVar[Who] = Who.ANYONE
    rolled: ClassVar[bool] = True
    rule: ClassVar[str] = "G-M6"
    faces_help: ClassVar[str] = N_("a d6 each for a roll-off, when the rule leaves a tie")

    challenge: Annotated[int, Param(NUMBER, low=1)]
    agent: Annotated[
        str | None,
        Param(
            N_("the agent whose action marked the scene (default: most points spent)"),
            choices=AGENTS,
        ),
    ] = None


@dataclass(frozen=True)
class Checklist(Query):
    """Each challenge type's modifiers."""

    name: ClassVar[str] = "checklist"
    title: ClassVar[str] = N_("each challenge type's modifiers")
    who: ClassVar[Who] = Who.ANYONE
    needs_table: ClassVar[bool] = False

    kind: Annotated[
        str | None, Param(N_("Muscles, Sexe or Intelligence (default: all)"), flag="--type")
    ] = None


@dataclass(frozen=True)
class Tables(Query):
    """A table file checked, or the starter tables shown."""

    name: ClassVar[str] = "tables"
    title: ClassVar[str] = N_("check a generator table file, or show the starter tables")
    who: ClassVar[Who] = Who.ANYONE
    needs_table: ClassVar[bool] = False

    file: Annotated[
        str | None,
        Param(N_("a table file to check"), positional=True, file=True, max_length=MAX_TABLE_TEXT),
    ] = None
    starter: Annotated[Literal["fr", "en"] | None, Param(N_("the starter tables' language"))] = None
    entries: Annotated[bool, Param(N_("list the entries"), flag="--list")] = False


def _own_table(help_text: str) -> Param:
    return Param(
        help_text, file=True, placeholder="FILE", max_length=MAX_TABLE_TEXT, group=_OWN_TABLES
    )


@dataclass(frozen=True)
class Quest(Command):
    """A quest drawn for every agent: index 0, its objective secret until index 1."""

    name: ClassVar[str] = "quest"
    title: ClassVar[str] = N_("draw a quest: index 0, objective secret")
    who: ClassVar[Who] = Who.ANYONE
    rolled: ClassVar[bool] = True
    rule: ClassVar[str] = "G-M9"
    faces_help: ClassVar[str] = N_("the objective table's face")

    starter: Annotated[
        str | None,
        Param(
            N_("the starter tables' language (default: the table's)"),
            choices=LANGUAGES,
            option_labels=(("fr", "Français"), ("en", "English")),
        ),
    ] = None
    objectives: Annotated[
        str | None, _own_table(N_("your own objectives table (default: the starter one)"))
    ] = None
    environments: Annotated[
        str | None, _own_table(N_("your own environments table (default: the starter one)"))
    ] = None
    creatures: Annotated[
        str | None, _own_table(N_("your own creatures table (default: the starter one)"))
    ] = None
    boons: Annotated[
        str | None, _own_table(N_("your own boons table (default: the starter one)"))
    ] = None
    source: Annotated[
        str, Param(N_("a name for your own tables, shown in the log"), group=_OWN_TABLES)
    ] = ""


@dataclass(frozen=True)
class Draw(Command):
    """One entry of a quest table: where the agents are, who they meet, what helps."""

    name: ClassVar[str] = "draw"
    title: ClassVar[str] = N_("draw from a quest table: where, who, what helps")
    who: ClassVar[Who] = Who.ANYONE
    rolled: ClassVar[bool] = True
    rule: ClassVar[str] = "G-M9"
    faces_help: ClassVar[str] = N_("the table's die face")

    kind: Annotated[
        Literal["environments", "creatures", "boons"],
        Param(
            N_("the table to draw from (the objective is drawn with the quest)"),
            positional=True,
            option_labels=(
                ("environments", N_("the environments table")),
                ("creatures", N_("the creatures table")),
                ("boons", N_("the boons table")),
            ),
        ),
    ]


@dataclass(frozen=True)
class NextScene(Command):
    """The quest's next scene."""

    name: ClassVar[str] = "scene"
    title: ClassVar[str] = N_("start the quest's next scene")
    who: ClassVar[Who] = Who.ANYONE
    rule: ClassVar[str] = "G-A16"


@dataclass(frozen=True)
class Generate(Command):
    """The scene's challenge drawn for some agents (and its opposition from a table)."""

    name: ClassVar[str] = "generate"
    title: ClassVar[str] = N_("draw the scene's challenge")
    who: ClassVar[Who] = Who.ANYONE
    rolled: ClassVar[bool] = True
    rule: ClassVar[str] = "G-M9"
    faces_help: ClassVar[str] = N_(
        "the generator's d6s (source, relation, type, score), then the opposition's table die"
    )

    agents: Annotated[
        tuple[str, ...], Param(N_("the agents involved (default: all who take part)"))
    ] = ()
    opposition: Annotated[
        str | None,
        Param(
            N_("who or what opposes them (default: drawn from the table its source names)"),
            placeholder="NAME",
        ),
    ] = None


@dataclass(frozen=True)
class Settle(Command):
    """A finished drawn challenge's consequences applied to the quest."""

    name: ClassVar[str] = "consequence"
    title: ClassVar[str] = N_("apply a drawn challenge's consequences")
    who: ClassVar[Who] = Who.ANYONE
    rule: ClassVar[str] = "G-M10"

    challenge: Annotated[int, Param(NUMBER, low=1)]


@dataclass(frozen=True)
class GiveUp(Command):
    """The agents give their quest up."""

    name: ClassVar[str] = "give-up"
    title: ClassVar[str] = N_("the agents abandon their quest")
    who: ClassVar[Who] = Who.ANYONE
    rule: ClassVar[str] = "G-M9"


@dataclass(frozen=True)
class ContestStart(Command):
    """The artefact contest opens: the favori, reserves restored, holds the artefact."""

    name: ClassVar[str] = "contest start"
    title: ClassVar[str] = N_("the artefact contest, step by step")
    who: ClassVar[Who] = Who.ANYONE
    rolled: ClassVar[bool] = True
    rule: ClassVar[str] = "G-M12"
    faces_help: ClassVar[str] = N_("a d6 each for a roll-off, when the rule leaves a tie")

    favori: Annotated[
        str | None, Param(N_("the favori among agents tied for most wins"), choices=AGENTS)
    ] = None


@dataclass(frozen=True)
class ContestChallenge(Command):
    """A challenge for the artefact against its holder, alone or allied."""

    name: ClassVar[str] = "contest challenge"
    title: ClassVar[str] = N_("challenge the artefact's holder")
    who: ClassVar[Who] = Who.ACTOR
    rule: ClassVar[str] = "G-M12"

    challengers: Annotated[tuple[str, ...], Param(N_("the alliance"), actor=True)]
    attribute: Annotated[str, Param(KIND, choices=KINDS, option_labels=_KIND_LABELS)] = "muscles"
    wanting: Annotated[tuple[str, ...], Param(N_("who else wants to challenge"))] = ()
    allies: Annotated[tuple[str, ...], Param(N_("agents siding with the holder"))] = ()


@dataclass(frozen=True)
class ContestSettle(Command):
    """A finished contest challenge settled: the artefact changes hands on a win."""

    name: ClassVar[str] = "contest settle"
    title: ClassVar[str] = N_("settle a contest challenge")
    who: ClassVar[Who] = Who.ANYONE
    rule: ClassVar[str] = "G-M12"

    challenge: Annotated[int, Param(NUMBER, low=1)]
    taker: Annotated[
        str | None, Param(N_("who of the alliance takes the artefact"), choices=AGENTS)
    ] = None


@dataclass(frozen=True)
class ContestClose(Command):
    """The contest ends: nobody eligible wants to challenge the holder any more."""

    name: ClassVar[str] = "contest close"
    title: ClassVar[str] = N_("close the contest: nobody else challenges")
    who: ClassVar[Who] = Who.ANYONE
    rule: ClassVar[str] = "G-M12"

    wanting: Annotated[tuple[str, ...], Param(N_("who still wants to challenge"))] = ()


@dataclass(frozen=True)
class ActionOdds(Query):
    """Exact odds of one action's result for a total modifier (no table needed).

    The modifier is one the checklists can total: -2 to +3 (G-N2, G-A6).
    """

    name: ClassVar[str] = "odds action"
    title: ClassVar[str] = N_("one action's outcome for a modifier")
    who: ClassVar[Who] = Who.ANYONE
    needs_table: ClassVar[bool] = False

    modifier: Annotated[
        int,
        Param(
            N_("the total modifier, e.g. -1 or 2"),
            low=LOWEST_MODIFIER,
            high=HIGHEST_MODIFIER,
            placeholder="M",
            rule="G-N2",
        ),
    ] = 0


@dataclass(frozen=True)
class ChallengeOdds(Query):
    """The agents' exact chance to win a challenge against one opposition (no table)."""

    name: ClassVar[str] = "odds challenge"
    title: ClassVar[str] = N_("the chance the agents win a challenge (exact)")
    who: ClassVar[Who] = Who.ANYONE
    needs_table: ClassVar[bool] = False

    reserves: Annotated[
        str,
        Param(
            N_("each agent's reserve of the challenge's type, in turn order"),
            placeholder="7,5,3",
        ),
    ]
    score: Annotated[
        int, Param(N_("the opposition's score"), low=0, high=MAX_SCORE, placeholder="N")
    ]
    modifiers: Annotated[
        str,
        Param(N_("each agent's modifier on every action (default: 0 each)"), placeholder="0,1,0"),
    ] = ""


COMMANDS = (
    CreateAgent,
    Show,
    OpenChallenge,
    Act,
    Concede,
    Abandon,
    FailOnPurpose,
    NameWinner,
    Checklist,
    Tables,
    Quest,
    Draw,
    NextScene,
    Generate,
    Settle,
    GiveUp,
    ContestStart,
    ContestChallenge,
    ContestSettle,
    ContestClose,
    ActionOdds,
    ChallengeOdds,
)

AgentsCommand: TypeAlias = (
    CreateAgent
    | OpenChallenge
    | Act
    | Concede
    | Abandon
    | FailOnPurpose
    | NameWinner
    | Quest
    | Draw
    | NextScene
    | Generate
    | Settle
    | GiveUp
    | ContestStart
    | ContestChallenge
    | ContestSettle
    | ContestClose
)
"""Every command that decides events (queries apart): the union a plugin's ``decide`` takes."""
"""Every agents command and query, in the order the interfaces show them."""
