"""The agents' challenges in the web table: agents, challenges, actions and reserves.

A new agent, a challenge opened by hand, an action (one form per challenge type, its
checklist of modifiers as check boxes) with its exact odds
(`tablee.systems.agents.action_distribution` and `challenge_win_probability`), failing on
purpose, conceding and abandoning, naming a won challenge's winner; a logged action shows
its trace again, resolved from its stored face and modifier.

Source: docs/web.md, "The agents game at the web table"; seed 002; rulings G-M1 to G-M8, G-A2 to
G-A12, G-A14, G-A20.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tablee.dice import D6
from tablee.errors import N_, InputError
from tablee.systems import agents
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.systems import (
    Action,
    ActionRequest,
    Field,
    OddsView,
    Translate,
    facts_of,
    seen_by,
    viewer_translate,
)
from tablee.web.systems.agents.helpers import (
    BOTH,
    RESERVES,
    VALUES,
    acting_for_agent,
    all_challenges,
    every_agent_or_none,
    open_of,
    own_agents,
    owners,
    roll_off,
    typed_names,
)

__all__ = ["CHALLENGE_ACTIONS", "action_details"]


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
            agents=typed_names(req, "agents"),
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
    return acting_for_agent(req, given or str(due))


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
    agent = acting_for_agent(req, req.text("agent"))  # W-G3: only for one's own agent
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
            given = roll_off(candidates)  # G-A12: a roll-off between the tied
    return req.execute(
        lambda s: agents.decide_winner(s.game, challenge=number, agent=given), facts_of
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
            Field("challenge", N_("Challenge"), "choice", open_of(kind)),
            Field("agent", N_("Agent (empty: the one due)"), "choice", own_agents),
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
        BOTH,
        rolled=True,
        odds=_act_odds(kind),
        faces_hint=_FACE,
    )


CHALLENGE_ACTIONS: tuple[Action, ...] = (
    *(_act_action(kind) for kind in agents.Reserve),
    Action(
        "reserves",
        N_("Reserves: fail on purpose, concede, abandon"),
        (
            Field("agent", N_("Agent"), "choice", own_agents),
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
            Field("reserve", N_("Reserve (failing on purpose)"), "choice", RESERVES),
            Field("challenge", N_("Challenge (conceding, abandoning)"), "choice", all_challenges),
            Field("reason", N_("A note kept in the log")),
        ),
        _reserves,
        BOTH,
    ),
    Action(
        "agent",
        N_("New agent"),
        (
            Field("name", N_("Name")),
            Field("owner", N_("Played by"), "choice", owners),
            Field("muscles", "Muscles", "choice", VALUES, "7"),
            Field("sexe", "Sexe", "choice", VALUES, "5"),
            Field("intelligence", "Intelligence", "choice", VALUES, "3"),
            Field("organisation", N_("Organisation")),
            Field("signature", N_("Signature object")),
        ),
        _agent,
        BOTH,
    ),
    Action(
        "challenge",
        N_("Open a challenge by hand"),
        (
            Field("kind", N_("Type"), "choice", RESERVES),
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
            Field("challenge", N_("Challenge"), "choice", all_challenges),
            Field(
                "agent",
                N_("Whose action marked it most (empty: the rule)"),
                "choice",
                every_agent_or_none,
            ),
        ),
        _winner,
        BOTH,
    ),
)
"""The forms of actions, reserves, agents, challenges and winners, in page order."""


def action_details(event: StoredEvent, state: TableState, tr: Translate) -> Sequence[str]:
    """The trace of an action, resolved again from its stored face and modifier."""
    if event.kind != "agents.action":
        return ()
    p = event.payload
    try:
        result = agents.resolve_action(agents.ActionRoll(int(p["modifier"])), [int(p["face"])])
    except (KeyError, TypeError, ValueError, InputError):
        return ()
    return [step.render(tr) for step in result.trace]
