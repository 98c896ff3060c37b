"""The artefact contest: who of the agents takes the artefact home once the quest is won.

The agent with the most challenge wins is the favori and holds the artefact, reserves
restored. Others may challenge the holder on a reserve of their choice, alone or allied (one
of an alliance takes the artefact); some may side with the holder. Several would-be
challengers go in order of fewest wins. A challenger who loses cannot challenge the same
holding again; a challenger alliance that wins hands the artefact to its taker, who becomes
the holder, and everyone may challenge them. The contest ends when nobody left wants, or is
able, to challenge the holder: that agent has won every challenge launched against them.

This module keeps the order and the books only. Each challenge is played by the challenge
rules (`tablee.systems.agents.challenge`) with `opposition_for` as the opposition score, and
its result comes back through `settle_challenge`.

Source: seed 002, "Conclusion du scénario"; rulings G-M12, G-A18, G-A9.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tablee.dice import Trace, TraceStep
from tablee.errors import N_, InputError, Message, RuleError
from tablee.systems.agents.agent import Agent, Reserve
from tablee.systems.common import replaced, whole

__all__ = [
    "Bout",
    "Contest",
    "ContestChallenge",
    "ContestStart",
    "ContestStep",
    "close_contest",
    "launch_challenge",
    "most_wins",
    "next_challengers",
    "opposition_for",
    "settle_challenge",
    "start_contest",
]


@dataclass(frozen=True)
class Contest:
    """The contest's books.

    Attributes:
        agents: the agents' names, in seating order.
        wins: challenges each won during the quest (G-M6), aligned with ``agents``.
        favori: the first holder (most wins).
        holder: who holds the artefact now.
        challenged: agents who already challenged the current holder and lost.
        bouts: challenges settled so far.
        finished: nobody challenges the holder any more; the holder keeps the artefact.
    """

    agents: tuple[str, ...]
    wins: tuple[int, ...]
    favori: str
    holder: str
    challenged: frozenset[str] = frozenset()
    bouts: int = 0
    finished: bool = False

    def wins_of(self, name: str) -> int:
        """Challenges won during the quest by ``name``.

        Raises:
            InputError: no agent of the contest has that name.
        """
        if name not in self.agents:
            raise InputError(
                N_("no agent called {name!r} in this contest; agents: {known}"),
                name=name,
                known=", ".join(self.agents),
            )
        return self.wins[self.agents.index(name)]


@dataclass(frozen=True)
class ContestStart:
    """The contest opened.

    Attributes:
        contest: its books.
        favori: the favori's agent record with every reserve restored (G-M12, G-A9).
        trace: the steps.
    """

    contest: Contest
    favori: Agent
    trace: Trace


def most_wins(wins: Sequence[int]) -> list[int]:
    """The indices of the agents with the most challenges won: the favori, or those tied.

    Args:
        wins: each agent's count, 1 or more counts.

    Source: G-M12 step 1, G-A18.
    """
    best = max(wins)
    return [i for i, count in enumerate(wins) if count == best]


def start_contest(
    agents: Sequence[Agent], wins: Sequence[int], *, favori: str | None = None
) -> ContestStart:
    """Name the favori (most wins), restore their reserves and hand them the artefact.

    Args:
        agents: the agents, 1 or more, distinct names (a won quest's agents).
        wins: challenges each won during the quest, 0 or more, aligned with ``agents``.
        favori: the pick among agents tied for most wins (by agreement or a roll-off,
            G-A18); may name the only one with most wins, or be None when there is no tie.

    Returns:
        The contest, finished at once when there is a single agent.

    Raises:
        InputError: no agent, repeated names, wins not aligned or negative, an unknown
            ``favori`` or one without the most wins.
        RuleError: several agents tie for most wins and ``favori`` is None.

    Source: G-M12 step 1, G-A9, G-A18.
    """
    names = tuple(a.name for a in agents)
    counts = tuple(wins)
    if not names or len(set(names)) != len(names) or len(counts) != len(names):
        raise InputError(
            N_("a contest needs 1 or more distinct agents, each with a win count; got {names}"),
            names=", ".join(names) or "none",
        )
    for name, count in zip(names, counts, strict=True):
        whole(count, Message(N_("{name}'s win count"), name=name), 0, rule="G-M12")
    best = max(counts)
    tied = [names[i] for i in most_wins(counts)]
    if favori is None and len(tied) > 1:
        raise RuleError(
            N_("{names} tie with {wins} wins each: who is the favori? (rule G-M12, G-A18)"),
            tip=N_("agree on one, or roll off, and name them"),
            names=", ".join(tied),
            wins=best,
        )
    chosen = favori if favori is not None else tied[0]
    if chosen not in tied:
        raise InputError(
            N_("{name!r} cannot be the favori: the most wins ({wins}) are {names}'s (G-M12)"),
            name=chosen,
            wins=best,
            names=", ".join(tied),
        )
    restored = agents[names.index(chosen)].restored()
    contest = Contest(names, counts, chosen, chosen, finished=len(names) == 1)
    steps = [
        TraceStep(
            N_("{name} is the favori with {wins} wins; reserves restored; holds the artefact"),
            {"name": chosen, "wins": best},
        )
    ]
    if contest.finished:
        steps.append(TraceStep(N_("nobody else to challenge: {name} keeps it"), {"name": chosen}))
    return ContestStart(contest, restored, tuple(steps))


def _require_open(contest: Contest) -> None:
    if contest.finished:
        raise RuleError(
            N_("the contest is over: {name} keeps the artefact (rule G-M12)"),
            name=contest.holder,
        )


def _known(contest: Contest, names: Iterable[str]) -> tuple[str, ...]:
    listed = tuple(names)
    for name in listed:
        contest.wins_of(name)
    if len(set(listed)) != len(listed):
        raise InputError(N_("{names} names an agent twice"), names=", ".join(listed))
    return listed


def next_challengers(contest: Contest, wanting: Iterable[str]) -> tuple[str, ...]:
    """Who may challenge the holder now: among those wanting, the fewest quest wins.

    Args:
        contest: the contest, open.
        wanting: agents who want (and are able) to challenge the holder now.

    Returns:
        The agents due, in seating order: several when tied (they agree or roll off,
        G-A18); empty when nobody eligible wants to (the holder and those who already lost
        to this holder are not eligible).

    Raises:
        InputError: an unknown or repeated name. RuleError: the contest is over.

    Source: G-M12 steps 2-4, G-A18.
    """
    _require_open(contest)
    listed = set(_known(contest, wanting))
    eligible = [
        n
        for n in contest.agents
        if n in listed and n != contest.holder and n not in contest.challenged
    ]
    if not eligible:
        return ()
    fewest = min(contest.wins_of(n) for n in eligible)
    return tuple(n for n in eligible if contest.wins_of(n) == fewest)


@dataclass(frozen=True)
class Bout:
    """One challenge of the contest as a table keeps it (without the steps of its launch).

    Attributes:
        challengers: the challenging alliance (one agent or more), the one due first.
        defenders: the holder first, then the agents allied with the holder.
        attribute: the reserve the challengers chose (the challenge's type).
    """

    challengers: tuple[str, ...]
    defenders: tuple[str, ...]
    attribute: Reserve


@dataclass(frozen=True)
class ContestChallenge(Bout):
    """One challenge of the contest, to be played by the challenge rules, with its steps.

    Attributes:
        trace: the steps (the other attributes are `Bout`'s).
    """

    trace: Trace

    def bout(self) -> Bout:
        """The challenge without its trace, as a table's state keeps it."""
        return Bout(self.challengers, self.defenders, self.attribute)


def launch_challenge(
    contest: Contest,
    challengers: Sequence[str],
    attribute: Reserve,
    *,
    wanting: Iterable[str] = (),
    allies: Sequence[str] = (),
) -> ContestChallenge:
    """Open a challenge against the holder, checking who may and the order.

    Args:
        contest: the contest, open.
        challengers: the alliance (1 or more eligible agents).
        attribute: Muscles, Sexe or Intelligence, chosen by the challengers.
        wanting: other agents who also want to challenge now (the alliance counts too);
            the alliance must hold an agent with the fewest wins among them all.
        allies: agents siding with the holder (not the holder, not a challenger).

    Returns:
        The challenge; its opposition is `opposition_for`.

    Raises:
        InputError: an unknown or repeated name, no challenger, an agent on both sides.
        RuleError: the contest is over; a challenger is the holder or already lost to this
            holder; someone with fewer wins is waiting (G-M12 step 3).

    Source: G-M12 steps 2-3, G-A18.
    """
    _require_open(contest)
    alliance = _known(contest, challengers)
    side = _known(contest, allies)
    if not alliance or set(alliance) & set(side) or contest.holder in side:
        raise InputError(
            N_("challengers {challengers} and allies {allies} must be distinct non-empty sides"),
            challengers=", ".join(alliance) or "none",
            allies=", ".join(side) or "none",
        )
    for name in alliance:
        if name == contest.holder or name in contest.challenged:
            raise RuleError(
                N_("{name} cannot challenge {holder} again: holder, or already lost (G-M12)"),
                name=name,
                holder=contest.holder,
            )
    others = [n for n in _known(contest, set(wanting) - set(alliance))]
    due = next_challengers(contest, [*alliance, *others])
    if not set(due) & set(alliance):
        raise RuleError(
            N_("{due} goes first: fewest challenge wins (rule G-M12)"),
            tip=N_("let them challenge first, or ally with them"),
            due=" or ".join(due),
        )
    first = next(n for n in alliance if n in due)
    ordered = (first, *(n for n in alliance if n != first))
    step = TraceStep(
        N_("{challengers} challenge {defenders} on {attribute}"),
        {
            "challengers": ", ".join(ordered),
            "defenders": ", ".join((contest.holder, *side)),
            "attribute": attribute.title,
        },
    )
    return ContestChallenge(ordered, (contest.holder, *side), attribute, (step,))


def opposition_for(challenge: Bout, agents: Sequence[Agent]) -> int:
    """The opposition score of a contest challenge: the defenders' current reserves.

    The holder's current reserve in the chosen attribute (G-A18), plus each ally's in the
    same attribute (Tablée's reading: the holder and allies are one opposition, G-M2).

    Raises:
        InputError: a defender missing from ``agents``.

    Source: G-A18, G-M2.
    """
    by_name = {a.name: a for a in agents}
    missing = [n for n in challenge.defenders if n not in by_name]
    if missing:
        raise InputError(N_("no agent record for {names}"), names=", ".join(missing))
    return sum(by_name[n].reserve(challenge.attribute) for n in challenge.defenders)


@dataclass(frozen=True)
class ContestStep:
    """The contest after a settled challenge, or closed.

    Attributes:
        contest: the books afterwards.
        holder: who holds the artefact now.
        trace: the steps.
    """

    contest: Contest
    holder: str
    trace: Trace


def settle_challenge(
    contest: Contest,
    challenge: Bout,
    *,
    challengers_won: bool,
    taker: str | None = None,
) -> ContestStep:
    """Record a contest challenge's result.

    Args:
        contest: the contest, open, whose holder the challenge was launched against.
        challenge: the challenge from `launch_challenge` (or its `Bout`).
        challengers_won: the challengers brought the opposition to 0.
        taker: on a win, which challenger takes the artefact (needed for an alliance of
            two or more; the lone challenger otherwise). None on a loss.

    Returns:
        The step. On a win the taker holds the artefact and everyone may challenge them;
        on a loss the challengers may not challenge this holder again.

    Raises:
        InputError: a taker outside the alliance, a missing taker for an alliance, or a
            taker on a loss.
        RuleError: the contest is over, or the holder changed since the launch.

    Source: G-M12 steps 2 and 4, G-A18.
    """
    _require_open(contest)
    if challenge.defenders[0] != contest.holder:
        raise RuleError(
            N_("this challenge was launched against {old}; {holder} holds the artefact now"),
            old=challenge.defenders[0],
            holder=contest.holder,
        )
    if not challengers_won:
        if taker is not None:
            raise InputError(N_("nobody takes the artefact from a lost challenge"))
        new = replaced(
            contest,
            challenged=contest.challenged | set(challenge.challengers),
            bouts=contest.bouts + 1,
        )
        step = TraceStep(
            N_("{holder} holds off {names}"),
            {"holder": contest.holder, "names": ", ".join(challenge.challengers)},
        )
        return ContestStep(new, new.holder, (step,))
    if taker is None and len(challenge.challengers) == 1:
        taker = challenge.challengers[0]
    if taker is None:
        raise InputError(
            N_("say which of the winning challengers {names} takes the artefact (rule G-M12)"),
            cli_tip=N_("name them with --taker"),
            names=", ".join(challenge.challengers),
        )
    if taker not in challenge.challengers:
        raise InputError(
            N_("the taker {name!r} must be one of the winning challengers {names} (G-M12)"),
            name=taker,
            names=", ".join(challenge.challengers),
        )
    new = replaced(contest, holder=taker, challenged=frozenset(), bouts=contest.bouts + 1)
    step = TraceStep(
        N_("{names} beat {holder}; {taker} takes the artefact"),
        {"names": ", ".join(challenge.challengers), "holder": contest.holder, "taker": taker},
    )
    return ContestStep(new, taker, (step,))


def close_contest(contest: Contest, wanting: Iterable[str] = ()) -> ContestStep:
    """End the contest when nobody eligible wants, or is able, to challenge the holder.

    Args:
        contest: the contest, open.
        wanting: agents who still want (and are able) to challenge.

    Returns:
        The finished contest; the holder keeps the artefact.

    Raises:
        RuleError: an eligible agent still wants to challenge, or the contest is over.

    Source: G-M12 step 4.
    """
    due = next_challengers(contest, wanting)
    if due:
        raise RuleError(
            N_("{names} still wants to challenge {holder} (rule G-M12)")
            if len(due) == 1
            else N_("{names} still want to challenge {holder} (rule G-M12)"),
            names=", ".join(due),
            holder=contest.holder,
        )
    new = replaced(contest, finished=True)
    step = TraceStep(
        N_("nobody challenges {holder} any more: {holder} takes the artefact home"),
        {"holder": contest.holder},
    )
    return ContestStep(new, new.holder, (step,))
