"""The agents game in the web table: the forms of ``tablee agents ...``, reserves and the quest.

Every handler calls the same ``decide_*`` function as the command line (``tablee agents``
and ``tablee agents play``) through the table service; the odds are
`tablee.systems.agents.action_distribution` (an action's critical, success and failure) and
`challenge_win_probability` (the agents bringing the target to 0), as ``tablee odds
agents``. Actions have one form per challenge type, so the type's checklist of modifiers is
a list of check boxes.

The game may be played without a game master (seed 002, "Génération de scénario"): the
steps of the scenario generator and the artefact contest are open to every player; the
resources say what the adventure needs next (`tablee.systems.agents.next_step`). A player
acts only for their own agents (decisions W-G1 to W-G6 of docs/web.md).

Source: issue 6 points 3 and 5; seed 002; rulings G-M1 to G-M12, G-A2 to G-A20.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tablee.dice import D6, FairSource
from tablee.errors import N_, InputError, RuleError
from tablee.systems import agents
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.access import Viewer
from tablee.web.systems import (
    GM_AND_PLAYERS,
    GM_ONLY,
    Action,
    ActionRequest,
    Field,
    OddsView,
    Panel,
    Translate,
    WebSystem,
    acting_for,
    every,
    every_or_none,
    facts_of,
    owned,
    owner_choices,
    seen_by,
    viewer_translate,
)

__all__ = ["WEB", "AgentsWeb"]

_GM = GM_ONLY
_BOTH = GM_AND_PLAYERS
_RESERVES = tuple((r.value, r.title) for r in agents.Reserve)
_VALUES = (("7", "7"), ("5", "5"), ("3", "3"))
_ROLL_OFF_LIMIT = 100
"""Most rounds of a roll-off before giving up (each round ties with chance below 1)."""


# --- choices -------------------------------------------------------------------------------------


_own = owned("agents")
"""The agents the viewer plays (every agent for the game master)."""
_every = every("agents")
_every_or_none = every_or_none("agents")
_owners = owner_choices(N_("the game master"))


def _challenge_label(challenge: Any) -> str:
    scores = ", ".join(f"{o.name} {o.score}" for o in challenge.oppositions)
    label = f" {challenge.label}" if challenge.label else ""
    return f"{challenge.number}. {challenge.kind.title}{label} ({scores})"


def _open_of(kind: Any) -> Callable[[TableState, Viewer], list[tuple[str, str]]]:
    def choices(state: TableState, viewer: Viewer) -> list[tuple[str, str]]:
        found = agents.open_challenges(state.game)
        return [(str(c.number), _challenge_label(c)) for c in found if c.kind is kind]

    return choices


def _open(state: TableState, viewer: Viewer) -> list[tuple[str, str]]:
    return [(str(c.number), _challenge_label(c)) for c in agents.open_challenges(state.game)]


def _all_challenges(state: TableState, viewer: Viewer) -> list[tuple[str, str]]:
    return [("", "-"), *((str(n), _challenge_label(c)) for n, c in state.game.challenges.items())]


# --- helpers -------------------------------------------------------------------------------------


def _acting_for(req: ActionRequest, agent: str) -> str:
    """The agent's stored name; a player may act only for an agent they play (W-G1)."""
    game = req.state.game
    name: str = agents.agent_named(game, agent)
    acting_for(req, game.owners.get(name))
    return name


def _names(req: ActionRequest, field: str) -> list[str]:
    """Names one per line or separated by commas."""
    return [n.strip() for line in req.lines(field) for n in line.split(",") if n.strip()]


def _chain(*steps: Callable[[Any], Any]) -> Callable[[TableState], Any]:
    """One decision made of several, each on the state the previous one leaves."""

    def decide(state: TableState) -> Any:
        game = state.game
        facts: list[Any] = []
        outcome: Any = None
        for step in steps:
            decision = step(game)
            facts += decision.facts
            outcome, game = decision.outcome, decision.after
        return agents.Decision(tuple(facts), outcome, (), game)

    return decide


def _roll_off(candidates: Sequence[str]) -> str:
    """A d6 each, the highest wins, ties roll again (G-A12, G-A18), on the fair source."""
    tied = list(candidates)
    source = FairSource()
    for _ in range(_ROLL_OFF_LIMIT):
        if len(tied) <= 1:
            break
        rolls = {n: source.roll(D6, 1)[0] for n in tied}
        best = max(rolls.values())
        tied = [n for n in tied if rolls[n] == best]
    return tied[0]


# --- agents and challenges -----------------------------------------------------------------------


def _agent(req: ActionRequest) -> Applied[Any]:
    owner = req.optional("owner")
    if not req.viewer.is_gm:
        req.acting_as(owner)  # W-G2: a player creates only agents they play
    return req.execute(
        lambda s: agents.decide_agent(
            s.game,
            name=req.text("name"),
            muscles=req.number("muscles"),
            sexe=req.number("sexe"),
            intelligence=req.number("intelligence"),
            organisation=req.text("organisation"),
            signature=req.text("signature"),
            owner=owner,
        ),
        facts_of,
    )


def _opposition(line: str) -> tuple[str, int]:
    name, sep, score = line.rpartition(":")
    digits = score.strip()
    if not sep or not name.strip() or not (digits.isascii() and digits.isdigit()):
        raise InputError(N_("{value!r}: expected NAME:SCORE, e.g. Dragon:6"), value=line)
    return name.strip(), int(digits)


def _challenge(req: ActionRequest) -> Applied[Any]:
    oppositions = [_opposition(line) for line in req.lines("oppositions")]
    return req.execute(
        lambda s: agents.decide_challenge(
            s.game,
            kind=req.text("kind"),
            agents=_names(req, "agents"),
            oppositions=oppositions,
            label=req.text("label"),
        ),
        facts_of,
    )


# --- actions, one form per challenge type --------------------------------------------------------


def _ticked(req: ActionRequest, kind: Any) -> list[str]:
    return [m.id for m in agents.CHECKLISTS[kind] if req.flag(m.id)]


def _challenge_of(req: ActionRequest, kind: Any) -> Any:
    number = req.optional_number("challenge")
    if number is None:
        found = [c for c in agents.open_challenges(req.state.game) if c.kind is kind]
        if len(found) != 1:
            raise InputError(
                N_("say which challenge: {count} {kind} challenges are open"),
                count=len(found),
                kind=kind.title,
            )
        return found[0]
    challenge = agents.challenge_numbered(req.state.game, number)
    if challenge.kind is not kind:
        raise InputError(
            N_("challenge {number} is a {kind} challenge: use its form"),
            number=number,
            kind=challenge.kind.title,
        )
    return challenge


def _acting_agent(req: ActionRequest, challenge: Any) -> str:
    given = req.optional("agent")
    due = agents.next_actor(challenge)
    if given is None and due is None:
        raise InputError(N_("say which agent acts"))
    return _acting_for(req, given or str(due))


def _act_run(kind: Any) -> Callable[[ActionRequest], Applied[Any]]:
    def run(req: ActionRequest) -> Applied[Any]:
        challenge = _challenge_of(req, kind)
        agent = _acting_agent(req, challenge)
        ticked = _ticked(req, kind)
        agents.declared_modifier(kind, ticked)  # refuse a bad tick before the roll
        visibility = req.visibility()
        face = req.throw(D6, 1, req.typed())[0]
        return req.execute(
            lambda s: agents.decide_action(
                s.game,
                challenge=challenge.number,
                agent=agent,
                modifiers=ticked,
                face=face,
                target=req.optional_number("target"),
                declaration=req.text("declaration"),
            ),
            seen_by(visibility),
        )

    return run


def _act_odds(kind: Any) -> Callable[[ActionRequest], OddsView]:
    def odds(req: ActionRequest) -> OddsView:
        game = req.state.game
        challenge = _challenge_of(req, kind)
        given = req.optional("agent")
        agent = agents.agent_named(game, given) if given else agents.next_actor(challenge)
        _ids, total = agents.declared_modifier(kind, _ticked(req, kind))
        dist = agents.action_distribution(total)
        tr = viewer_translate(req)
        rows = [
            (tr(N_("critical (opposition -2)")), dist.probability(agents.Result.CRITICAL)),
            (tr(N_("success (opposition -1)")), dist.probability(agents.Result.SUCCESS)),
            (tr(N_("failure (reserve -1)")), dist.probability(agents.Result.FAILURE)),
        ]
        running = [
            a
            for a in challenge.agents
            if challenge.standing[a] is agents.Standing.ACTIVE and game.agents[a].reserve(kind) > 0
        ]
        if agent in running:  # the agents act in turn from this one (G-A20)
            start = running.index(agent)
            running = running[start:] + running[:start]
        target = req.optional_number("target")
        left = [o for o in challenge.oppositions if o.score > 0]
        if target is not None and 1 <= target <= len(challenge.oppositions):
            score = challenge.oppositions[target - 1].score
        else:
            score = min((o.score for o in left), default=0)
        if running:
            modifiers = [total if a == agent else 0 for a in running]
            reserves = [game.agents[a].reserve(kind) for a in running]
            win = agents.challenge_win_probability(reserves, modifiers, score)
            rows.append((tr(N_("the agents win the challenge")), win))
        note = N_(
            "modifier {modifier:+d}; the challenge's odds count the others' actions "
            "without modifier, against a score of {score}"
        )
        return OddsView(
            rows,
            dist.probability_where(lambda r: r is not agents.Result.FAILURE),
            note,
            {"modifier": total, "score": score},
        )

    return odds


# --- reserves: failing on purpose, conceding, abandoning -----------------------------------------


def _reserves(req: ActionRequest) -> Applied[Any]:
    step = req.text("step", "fail")
    agent = _acting_for(req, req.text("agent"))  # W-G3: only for one's own agent
    if step == "fail":
        return req.execute(
            lambda s: agents.decide_fail_on_purpose(
                s.game, agent=agent, reserve=req.text("reserve"), reason=req.text("reason")
            ),
            facts_of,
        )
    number = req.optional_number("challenge")
    if number is None:
        found = agents.open_challenges(req.state.game, agent)
        if len(found) != 1:
            raise InputError(
                N_("say which challenge: {agent} is in {count} open challenges"),
                agent=agent,
                count=len(found),
            )
        number = found[0].number
    decide = agents.decide_concede if step == "concede" else agents.decide_abandon
    chosen = number
    return req.execute(lambda s: decide(s.game, challenge=chosen, agent=agent), facts_of)


def _winner(req: ActionRequest) -> Applied[Any]:
    number = req.number("challenge")
    given = req.optional("agent")
    game = req.state.game
    if given is None:
        challenge = agents.challenge_numbered(game, number)
        candidates = agents.winner_candidates(challenge) if challenge.outcome == "won" else ()
        if len(candidates) > 1:
            given = _roll_off(candidates)  # G-A12: a roll-off between the tied
    return req.execute(
        lambda s: agents.decide_winner(s.game, challenge=number, agent=given), facts_of
    )


# --- the scenario generator ----------------------------------------------------------------------


def _quest(req: ActionRequest) -> Applied[Any]:
    lang = req.text("tables", "fr" if req.viewer.lang == "fr" else "en")
    if lang not in ("fr", "en"):
        raise InputError(N_("starter tables {value!r}: fr or en"), value=lang)
    tables = agents.starter_tables(lang)
    visibility = req.visibility()
    face = req.throw(tables.objectives.die, 1, req.typed())[0]
    env = req.throw(tables.environments.die, 1)[0] if req.flag("environment") else None
    steps: list[Callable[[Any], Any]] = [
        lambda g: agents.decide_quest(g, tables=tables, source=f"starter:{lang}", face=face)
    ]
    if env is not None:
        steps.append(lambda g: agents.decide_draw(g, table="environments", face=env))
    return req.execute(_chain(*steps), seen_by(visibility))


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
    group = _names(req, "agents") or [
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
                favori = _roll_off(best)  # G-A18: the tied roll off
        return req.execute(lambda s: agents.decide_contest_start(s.game, favori=favori), facts_of)
    if step == "challenge":
        challengers = _names(req, "challengers")
        for name in challengers:  # W-G5: a player challenges only with their own agents
            _acting_for(req, name)
        return req.execute(
            lambda s: agents.decide_contest_challenge(
                s.game,
                challengers=challengers,
                attribute=req.text("attribute", "muscles"),
                wanting=_names(req, "wanting"),
                allies=_names(req, "allies"),
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
        lambda s: agents.decide_contest_close(s.game, wanting=_names(req, "wanting")), facts_of
    )


# --- the forms -----------------------------------------------------------------------------------

_FACE = N_("one d6 face, e.g. 4")


def _act_action(kind: Any) -> Action:
    checks = tuple(Field(m.id, m.label, "bool") for m in agents.CHECKLISTS[kind])
    return Action(
        "act_" + kind.value,
        {
            agents.Reserve.MUSCLES: N_("Action in a Muscles challenge"),
            agents.Reserve.SEXE: N_("Action in a Sexe challenge"),
            agents.Reserve.INTELLIGENCE: N_("Action in an Intelligence challenge"),
        }[kind],
        (
            Field("challenge", N_("Challenge"), "choice", _open_of(kind)),
            Field("agent", N_("Agent (empty: the one due)"), "choice", _own),
            Field("declaration", N_("The action as declared")),
            *checks,
            Field(
                "target",
                N_("Targeted opposition, from 1 (when several are left)"),
                "int",
                default="",
                minimum=1,
            ),
        ),
        _act_run(kind),
        _BOTH,
        rolled=True,
        odds=_act_odds(kind),
        faces_hint=_FACE,
    )


ACTIONS: tuple[Action, ...] = (
    *(_act_action(kind) for kind in agents.Reserve),
    Action(
        "reserves",
        N_("Reserves: fail on purpose, concede, abandon"),
        (
            Field("agent", N_("Agent"), "choice", _own),
            Field(
                "step",
                N_("What the agent does"),
                "choice",
                (
                    ("fail", N_("fails on purpose outside challenges: +1 reserve")),
                    ("concede", N_("concedes a challenge before it begins")),
                    ("abandon", N_("abandons a challenge under way")),
                ),
                "fail",
            ),
            Field("reserve", N_("Reserve (failing on purpose)"), "choice", _RESERVES),
            Field("challenge", N_("Challenge (conceding, abandoning)"), "choice", _all_challenges),
            Field("reason", N_("A note kept in the log")),
        ),
        _reserves,
        _BOTH,
    ),
    Action(
        "agent",
        N_("New agent"),
        (
            Field("name", N_("Name")),
            Field("owner", N_("Played by"), "choice", _owners),
            Field("muscles", "Muscles", "choice", _VALUES, "7"),
            Field("sexe", "Sexe", "choice", _VALUES, "5"),
            Field("intelligence", "Intelligence", "choice", _VALUES, "3"),
            Field("organisation", N_("Organisation")),
            Field("signature", N_("Signature object")),
        ),
        _agent,
        _BOTH,
    ),
    Action(
        "challenge",
        N_("Open a challenge by hand"),
        (
            Field("kind", N_("Type"), "choice", _RESERVES),
            Field("agents", N_("Involved agents, in turn order (one per line)"), "lines"),
            Field("oppositions", N_("Oppositions, one per line: NAME:SCORE"), "lines"),
            Field("label", N_("A short description")),
        ),
        _challenge,
    ),
    Action(
        "winner",
        N_("Name a won challenge's winner"),
        (
            Field("challenge", N_("Challenge"), "choice", _all_challenges),
            Field(
                "agent",
                N_("Whose action marked it most (empty: the rule)"),
                "choice",
                _every_or_none,
            ),
        ),
        _winner,
        _BOTH,
    ),
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
        _BOTH,
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
        _BOTH,
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
        _BOTH,
    ),
    Action(
        "generate",
        N_("Generate the scene's challenge"),
        (
            Field("agents", N_("Agents taking part (empty: everyone present)"), "lines"),
            Field("opposition", N_("Who or what opposes them (empty: drawn from the tables)")),
        ),
        _generate,
        _BOTH,
        rolled=True,
        faces_hint=N_("the generator's d6s: source, relation, type, score"),
    ),
    Action(
        "consequence",
        N_("Apply a challenge's consequences"),
        (Field("challenge", N_("Challenge"), "choice", _all_challenges),),
        _consequence,
        _BOTH,
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
            Field("favori", N_("Favori (start, when tied)"), "choice", _every_or_none),
            Field("challengers", N_("Challengers (one per line)"), "lines"),
            Field("attribute", N_("Reserve challenged on"), "choice", _RESERVES),
            Field("allies", N_("Agents siding with the holder (one per line)"), "lines"),
            Field("wanting", N_("Who else wants to challenge (one per line)"), "lines"),
            Field("challenge", N_("Contest challenge to settle"), "choice", _all_challenges),
            Field("taker", N_("Who of the alliance takes the artefact"), "choice", _every_or_none),
        ),
        _contest,
        _BOTH,
    ),
)


# --- resources -----------------------------------------------------------------------------------

_STEPS = {
    "create_agents": N_("create the agents"),
    "draw_quest": N_("draw a quest"),
    "start_scene": N_("start the next scene"),
    "generate": N_("generate the scene's challenge"),
    "act": N_("{agent} acts in challenge {challenge}"),
    "name_winner": N_("name the winner of challenge {challenge}"),
    "consequence": N_("apply the consequences of challenge {challenge}"),
    "start_contest": N_("start the artefact contest"),
    "contest_challenge": N_("a challenge for the artefact, or close the contest"),
    "settle_bout": N_("settle contest challenge {challenge}"),
    "done": N_("the adventure is over"),
}
_STATUS = {
    "ongoing": N_("under way"),
    "won": N_("accomplished"),
    "failed": N_("failed"),
    "abandoned": N_("given up"),
}
"""A quest's status, as ``tablee agents show`` words it."""


def _next_text(game: Any, tr: Translate) -> str:
    step = agents.next_step(game)
    return tr(_STEPS[step.kind.value]).format(agent=step.agent or "", challenge=step.challenge)


class AgentsWeb:
    """The agents module of the web table (see `tablee.web.systems.WebSystem`)."""

    id = "agents"
    title = "Agents"

    def actions(self) -> Sequence[Action]:
        """The forms: actions per type, reserves, agents, challenges, the generator, contest."""
        return ACTIONS

    def resources(self, state: TableState, viewer: Viewer, tr: Translate) -> Sequence[Panel]:
        """The quest and the next step, each open challenge, then each agent's reserves."""
        game = state.game
        quest = agents.quest_json(game)
        rows = [(tr(N_("Next step")), _next_text(game, tr))]
        if quest is not None:
            objective = quest["objective"] or tr(N_("secret until the index reaches 1"))
            rows += [
                (tr(N_("Progress index")), str(quest["progress"])),
                (tr(N_("Quest")), tr(_STATUS.get(str(quest["status"]), str(quest["status"])))),
                (tr(N_("Scene")), str(quest["scene"])),
                (tr(N_("Objective")), str(objective)),
            ]
            contest = quest["contest"]
            if contest is not None:
                rows.append((tr(N_("Artefact held by")), str(contest["holder"])))
        panels = [Panel(tr(N_("Adventure")), rows)]
        for challenge in agents.open_challenges(game):
            doc = agents.challenge_json(challenge)
            c_rows = [(str(o["name"]), f"{o['score']}/{o['start']}") for o in doc["oppositions"]]
            c_rows += [
                (str(a["name"]), f"{tr(_standing(a['standing']))}, {a['spent']}")
                for a in doc["agents"]
            ]
            if doc["next"]:
                c_rows.append((tr(N_("Next to act")), str(doc["next"])))
            title = tr(N_("Challenge {number} ({kind})")).format(
                number=doc["number"], kind=challenge.kind.title
            )
            panels.append(Panel(title, c_rows))
        for name in game.agents:
            doc = agents.agent_json(game, name)
            a_rows = [(tr(N_("Played by")), str(doc["owner"] or tr(N_("the game master"))))]
            a_rows += [
                (r.title, f"{doc[r.value]}/{doc['starting'][r.value]}") for r in agents.Reserve
            ]
            a_rows += [("Sang", str(doc["sang"])), (tr(N_("Challenges won")), str(doc["wins"]))]
            if doc["organisation"]:
                a_rows.append((tr(N_("Organisation")), str(doc["organisation"])))
            panels.append(
                Panel(
                    name,
                    a_rows,
                    boxes=(int(doc["sang"]), max(int(doc["sang"]), agents.STARTING_SANG)),
                    muted=int(doc["sang"]) <= 0,
                )
            )
        return panels

    def details(self, event: StoredEvent, state: TableState, tr: Translate) -> Sequence[str]:
        """The trace of an action, resolved again from its stored face and modifier."""
        if event.kind != "agents.action":
            return ()
        p = event.payload
        try:
            result = agents.resolve_action(agents.ActionRoll(int(p["modifier"])), [int(p["face"])])
        except (KeyError, TypeError, ValueError, InputError):
            return ()
        return [step.render(tr) for step in result.trace]


def _standing(value: object) -> str:
    return {
        "active": N_("active"),
        "out": N_("out"),
        "conceded": N_("conceded"),
        "abandoned": N_("abandoned"),
    }.get(str(value), str(value))


WEB: WebSystem = AgentsWeb()
"""The module's `WebSystem` object."""
