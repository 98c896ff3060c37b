"""The agents' scenario generator and artefact contest in the web table.

Drawing a quest and from its tables, the next scene or giving up, generating the scene's
challenge, applying a challenge's consequences, and the artefact contest's steps (start,
a challenge for the artefact, settling it, closing it). Without a game master these forms
are open to every player (seed 002, "Génération de scénario").

Source: docs/web.md, "The agents game at the web table"; seed 002; rulings G-M9 to G-M12, G-A13,
G-A15 to G-A18.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablee.dice import D6
from tablee.errors import N_, InputError, RuleError
from tablee.systems import agents
from tablee.systems_io.agents_tables import starter_tables
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.systems import (
    Action,
    ActionRequest,
    Field,
    facts_of,
    seen_by,
)
from tablee.web.systems.agents.helpers import (
    BOTH,
    RESERVES,
    acting_for_agent,
    all_challenges,
    chain,
    every_agent_or_none,
    roll_off,
    typed_names,
)

__all__ = ["SCENARIO_ACTIONS"]


# --- the scenario generator ----------------------------------------------------------------------


def _quest(req: ActionRequest) -> Applied[Any]:
    lang = req.text("tables", "fr" if req.viewer.lang == "fr" else "en")
    if lang not in ("fr", "en"):
        raise InputError(N_("starter tables {value!r}: fr or en"), value=lang)
    tables = starter_tables(lang)
    visibility = req.visibility()
    face = req.throw(tables.objectives.die, 1, req.typed())[0]
    env = req.throw(tables.environments.die, 1)[0] if req.flag("environment") else None
    steps: list[Callable[[Any], Any]] = [
        lambda g: agents.decide_quest(g, tables=tables, source=f"starter:{lang}", face=face)
    ]
    if env is not None:
        steps.append(lambda g: agents.decide_draw(g, table="environments", face=env))
    return req.execute(chain(*steps), seen_by(visibility))


def _tables_of(req: ActionRequest) -> Any:
    tables = req.state.game.tables
    if tables is None:
        raise RuleError(N_("no quest drawn yet: draw one first (rule G-M9)"))
    return tables


def _draw(req: ActionRequest) -> Applied[Any]:
    kind = req.text("table", "environments")
    try:
        die = _tables_of(req).table(agents.TableKind(kind)).die
    except ValueError:
        raise InputError(N_("{value!r} is not a generator table"), value=kind) from None
    visibility = req.visibility()
    face = req.throw(die, 1, req.typed())[0]
    return req.execute(
        lambda s: agents.decide_draw(s.game, table=kind, face=face), seen_by(visibility)
    )


def _scene(req: ActionRequest) -> Applied[Any]:
    if req.text("step", "scene") == "give_up":
        return req.execute(lambda s: agents.decide_quest_abandon(s.game), facts_of)
    return req.execute(lambda s: agents.decide_scene(s.game), facts_of)


def _generate(req: ActionRequest) -> Applied[Any]:
    game = req.state.game
    tables = _tables_of(req)
    group = typed_names(req, "agents") or [
        n
        for n in game.agents
        if (game.quest is None or n not in game.quest.sitting_out) and game.agents[n].sang > 0
    ]
    progress = game.quest.progress if game.quest is not None else 0
    inputs = agents.ChallengeInputs(progress, len(group) or 1, game.options)
    count = agents.CHALLENGE_GENERATOR.dice_for(inputs).count
    visibility = req.visibility()
    faces = req.throw(D6, count, req.typed())
    opposition = req.optional("opposition")
    steps: list[Callable[[Any], Any]] = []
    if opposition is None:  # drawn from the table the challenge's source names, as `play`
        drawn = agents.CHALLENGE_GENERATOR.resolve(inputs, faces)
        table = "creatures" if drawn.source is agents.Source.CREATURES else "environments"
        die = tables.table(agents.TableKind(table)).die
        face = req.throw(die, 1)[0]
        steps.append(lambda g: agents.decide_draw(g, table=table, face=face))

    def draw_then_generate(state: TableState) -> Any:
        g = state.game
        facts: list[Any] = []
        name = opposition
        for step in steps:
            decision = step(g)
            facts += decision.facts
            name = str(decision.outcome.entry.text)
            g = decision.after
        decision = agents.decide_generate(g, agents=group, faces=faces, opposition=name)
        return agents.Decision((*facts, *decision.facts), decision.outcome, (), decision.after)

    return req.execute(draw_then_generate, seen_by(visibility))


def _consequence(req: ActionRequest) -> Applied[Any]:
    number = req.number("challenge")
    tables = req.state.game.tables
    boon = None if tables is None else req.throw(tables.boons.die, 1)[0]

    def decide(state: TableState) -> Any:
        decision = agents.decide_consequence(state.game, challenge=number)
        if boon is None or not getattr(decision.outcome, "helped", False):
            return decision
        drawn = agents.decide_draw(decision.after, table="boons", face=boon)
        return agents.Decision((*decision.facts, *drawn.facts), decision.outcome, (), drawn.after)

    return req.execute(decide, facts_of)


def _contest(req: ActionRequest) -> Applied[Any]:
    step = req.text("step", "start")
    game = req.state.game
    if step == "start":
        favori = req.optional("favori")
        quest = game.quest
        if favori is None and quest is not None:
            wins = quest.wins_by_name()
            best = [n for n, w in wins.items() if wins and w == max(wins.values())]
            if len(best) > 1:
                favori = roll_off(best)  # G-A18: the tied roll off
        return req.execute(lambda s: agents.decide_contest_start(s.game, favori=favori), facts_of)
    if step == "challenge":
        challengers = typed_names(req, "challengers")
        for name in challengers:  # W-G5: a player challenges only with their own agents
            acting_for_agent(req, name)
        return req.execute(
            lambda s: agents.decide_contest_challenge(
                s.game,
                challengers=challengers,
                attribute=req.text("attribute", "muscles"),
                wanting=typed_names(req, "wanting"),
                allies=typed_names(req, "allies"),
            ),
            facts_of,
        )
    if step == "settle":
        return req.execute(
            lambda s: agents.decide_contest_settle(
                s.game, challenge=req.number("challenge"), taker=req.optional("taker")
            ),
            facts_of,
        )
    return req.execute(
        lambda s: agents.decide_contest_close(s.game, wanting=typed_names(req, "wanting")), facts_of
    )


# --- the forms -----------------------------------------------------------------------------------

SCENARIO_ACTIONS: tuple[Action, ...] = (
    Action(
        "quest",
        N_("Draw a quest"),
        (
            Field(
                "tables",
                N_("Starter tables"),
                "choice",
                (("en", N_("English")), ("fr", N_("French"))),
            ),
            Field("environment", N_("Also draw where the agents arrive"), "bool", default="on"),
        ),
        _quest,
        BOTH,
        rolled=True,
        faces_hint=N_("the objective table's face"),
    ),
    Action(
        "draw",
        N_("Draw from a quest table"),
        (
            Field(
                "table",
                N_("Table"),
                "choice",
                (
                    ("environments", N_("where: environments")),
                    ("creatures", N_("who: creatures")),
                    ("boons", N_("what helps: boons")),
                ),
            ),
        ),
        _draw,
        BOTH,
        rolled=True,
        faces_hint=N_("the table's die face"),
    ),
    Action(
        "scene",
        N_("Next scene, or give up the quest"),
        (
            Field(
                "step",
                N_("What happens"),
                "choice",
                (("scene", N_("the next scene starts")), ("give_up", N_("the agents give up"))),
            ),
        ),
        _scene,
        BOTH,
    ),
    Action(
        "generate",
        N_("Generate the scene's challenge"),
        (
            Field("agents", N_("Agents taking part (empty: everyone present)"), "lines"),
            Field("opposition", N_("Who or what opposes them (empty: drawn from the tables)")),
        ),
        _generate,
        BOTH,
        rolled=True,
        faces_hint=N_("the generator's d6s: source, relation, type, score"),
    ),
    Action(
        "consequence",
        N_("Apply a challenge's consequences"),
        (Field("challenge", N_("Challenge"), "choice", all_challenges),),
        _consequence,
        BOTH,
    ),
    Action(
        "contest",
        N_("The artefact contest"),
        (
            Field(
                "step",
                N_("Step"),
                "choice",
                (
                    ("start", N_("start: the favori holds the artefact")),
                    ("challenge", N_("a challenge for the artefact")),
                    ("settle", N_("settle a contest challenge")),
                    ("close", N_("close: nobody else challenges")),
                ),
            ),
            Field("favori", N_("Favori (start, when tied)"), "choice", every_agent_or_none),
            Field("challengers", N_("Challengers (one per line)"), "lines"),
            Field("attribute", N_("Reserve challenged on"), "choice", RESERVES),
            Field("allies", N_("Agents siding with the holder (one per line)"), "lines"),
            Field("wanting", N_("Who else wants to challenge (one per line)"), "lines"),
            Field("challenge", N_("Contest challenge to settle"), "choice", all_challenges),
            Field(
                "taker", N_("Who of the alliance takes the artefact"), "choice", every_agent_or_none
            ),
        ),
        _contest,
        BOTH,
    ),
)
"""The forms of the scenario generator and the artefact contest, in page order."""
