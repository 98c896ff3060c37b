"""A challenge: its type, oppositions, involved agents, turns, end and winner.

A challenge pits the agents involved against one or more oppositions, each with a score
(G-M2, G-A7). The agents act one after another in the order they were listed (G-A20); each
action targets one opposition (G-A7) and its result lowers that opposition's score or the
acting agent's reserve of the challenge's type (G-M4). An agent whose reserve reaches 0 is
out of action for the challenge; one may also concede before the first action or abandon
later (G-M8). The challenge ends when every opposition is at 0 (the agents win, G-A4) or no
agent is still in the running (the opposition wins, G-A15). A won challenge then gets a
winner: the agent the table names, else the one who spent most reserve points (G-M6, G-A12).

These functions are pure and know nothing of the agents' reserves beyond what they are
given: several challenges may run at once on the same agents (G-M2, G-T3), and the game
(`tablee.systems.agents.game`) applies each action's reserve change to the agent. They go
through `Course`, the one mutable record of a challenge being played, which play (one
action at a time) and the lab's simulations (a whole challenge) share.

Source: seed ``002_59b03dd224c3b923.txt`` ("Challenge", "Opposition", "Résolution de
challenge", "Fin du challenge"); rulings G-M2, G-M4 to G-M6, G-A4, G-A7, G-A12, G-A15,
G-A19, G-A20.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from tablee.dice import D6, Chance, DiceRequest
from tablee.errors import N_, InputError, Message, RuleError
from tablee.systems.agents.actions import OPPOSITION_LOSS, Result, result_of
from tablee.systems.agents.agent import Reserve
from tablee.systems.agents.words import OUTCOME_WORDS, STANDING_WORDS, word
from tablee.systems.base import clean_name, name_key
from tablee.systems.common import replaced, whole

__all__ = [
    "MAX_OPPOSITIONS",
    "MAX_SCORE",
    "Challenge",
    "Course",
    "Opposition",
    "Standing",
    "abandon",
    "act",
    "concede",
    "mark_out",
    "name_winner",
    "next_actor",
    "open_challenge",
    "winner_candidates",
]

MAX_SCORE = 1000
"""Highest opposition score Tablée takes (the text sets no bound)."""
MAX_OPPOSITIONS = 10
"""Most oppositions in one challenge (Tablée's bound against typing mistakes)."""


class Standing(Enum):
    """Where an involved agent stands in a challenge; the value is a stable id.

    Source: G-M4, G-M8, G-A15.
    """

    ACTIVE = "active"
    OUT = "out"
    CONCEDED = "conceded"
    ABANDONED = "abandoned"


_ACTIVE, _OUT = Standing.ACTIVE, Standing.OUT
_ONE_D6 = DiceRequest(D6, 1)
_UNMODIFIED = {
    face: (OPPOSITION_LOSS[result_of(face)], result_of(face).reserve_loss) for face in D6.values
}
"""Each d6 face's losses for an action with no modifier (opposition's, reserve's)."""


@dataclass(frozen=True)
class Opposition:
    """One opposition of a challenge (a person, a group, an obstacle, a place).

    Attributes:
        name: what it is (free text, 1 to 100 characters).
        score: its score now, 0 or more.
        start: its score when the challenge opened.

    Source: G-M2, G-A7.
    """

    name: str
    score: int
    start: int


@dataclass(frozen=True)
class Challenge:
    """A challenge's state.

    Attributes:
        number: its number at the table, from 1.
        kind: its type (the reserve its failures cost).
        agents: the involved agents' names, in turn order (G-A20).
        oppositions: one or more oppositions (G-A7).
        standing: each involved agent's standing.
        spent: reserve points each involved agent lost in this challenge (G-M6).
        turn: index in ``agents`` from which the next actor is sought.
        actions: actions taken so far (0: the first turn has not come yet, G-M8).
        outcome: None while open, ``won`` or ``lost``.
        winner: the winning agent's name once named (won challenges only).
        label: a short free description (may be empty).

    Source: G-M2, G-M5, G-M6.
    """

    number: int
    kind: Reserve
    agents: tuple[str, ...]
    oppositions: tuple[Opposition, ...]
    standing: Mapping[str, Standing] = field(default_factory=dict)
    spent: Mapping[str, int] = field(default_factory=dict)
    turn: int = 0
    actions: int = 0
    outcome: str | None = None
    winner: str | None = None
    label: str = ""

    @property
    def is_open(self) -> bool:
        """Whether the challenge is still being played."""
        return self.outcome is None

    def running(self) -> tuple[str, ...]:
        """The involved agents still in the running, in turn order."""
        return tuple(a for a in self.agents if self.standing[a] is Standing.ACTIVE)

    def involves(self, agent: str) -> bool:
        """Whether ``agent`` (a stored name) is involved."""
        return agent in self.standing


def _score(value: object) -> int:
    return whole(value, Message(N_("opposition score")), 0, MAX_SCORE, rule="G-M2")


def open_challenge(
    number: int,
    kind: Reserve,
    agents: Sequence[str],
    oppositions: Iterable[tuple[str, int]],
    reserves: Mapping[str, int],
    *,
    label: str = "",
) -> Challenge:
    """Open a challenge; it is settled at once if nothing is left to play.

    Args:
        number: the challenge's number at the table.
        kind: its type.
        agents: the involved agents' stored names, in turn order, 1 or more, distinct.
        oppositions: ``(name, score)`` pairs, 1 to `MAX_OPPOSITIONS`, scores 0 to `MAX_SCORE`.
        reserves: each agent's current reserve of ``kind``; an agent at 0 is out at once.
        label: a short free description.

    Returns:
        The challenge: won at once when every score is 0 (G-A2), lost at once when no agent
        can act.

    Raises:
        InputError: no agent, an agent twice, no opposition or too many, a bad score or name.

    Source: G-M2, G-A2, G-A7.
    """
    if not agents:
        raise InputError(N_("a challenge needs at least one agent (rule G-M2)"))
    if len({name_key(a) for a in agents}) != len(agents):
        raise InputError(N_("an agent is listed twice: {agents}"), agents=", ".join(agents))
    opposed = tuple(
        Opposition(clean_name(n, what=N_("an opposition's name")), _score(s), s)
        for n, s in oppositions
    )
    if not 1 <= len(opposed) <= MAX_OPPOSITIONS:
        raise InputError(
            N_("a challenge has 1 to {maximum} oppositions, not {count} (rule G-A7)"),
            maximum=MAX_OPPOSITIONS,
            count=len(opposed),
        )
    course = Course.opened([o.score for o in opposed], [reserves.get(a, 0) for a in agents])
    return Challenge(
        number,
        kind,
        tuple(agents),
        opposed,
        dict(zip(agents, course.standing, strict=True)),
        {a: 0 for a in agents},
        outcome=course.outcome,
        label=label.strip(),
    )


def _outcome(open_oppositions: int, running: int) -> str | None:
    """A challenge's end: won when no opposition is left, lost when nobody runs (G-A4, G-A15)."""
    if open_oppositions == 0:
        return "won"
    if running == 0:
        return "lost"
    return None


def _settled(challenge: Challenge) -> Challenge:
    """The challenge with its outcome set when it is over (G-M5, G-A4, G-A15)."""
    if not challenge.is_open:
        return challenge
    outcome = _outcome(
        sum(1 for o in challenge.oppositions if o.score > 0), len(challenge.running())
    )
    return challenge if outcome is None else replaced(challenge, outcome=outcome)


def _check_open(challenge: Challenge) -> None:
    if not challenge.is_open:
        raise RuleError(
            N_("challenge {number} is over ({outcome})"),
            number=challenge.number,
            outcome=word(OUTCOME_WORDS, challenge.outcome),
        )


def _check_active(challenge: Challenge, agent: str) -> None:
    standing = challenge.standing.get(agent)
    if standing is None:
        raise RuleError(
            N_("{agent} is not involved in challenge {number}"),
            tip=N_("involved: {agents}"),
            agent=agent,
            number=challenge.number,
            agents=", ".join(challenge.agents),
        )
    if standing is not Standing.ACTIVE:
        raise RuleError(
            N_("{agent} is no longer in the running in challenge {number} ({standing}; G-M4)"),
            agent=agent,
            number=challenge.number,
            standing=word(STANDING_WORDS, standing.value),
        )


def _due(standing: Sequence[Standing], turn: int) -> int:
    """The index of the first agent in the running from ``turn`` on, -1 if none (G-A20)."""
    count = len(standing)
    if 0 <= turn < count and standing[turn] is _ACTIVE:  # the commonest case, no loop
        return turn
    for step in range(count):
        index = (turn + step) % count
        if standing[index] is _ACTIVE:
            return index
    return -1


def next_actor(challenge: Challenge) -> str | None:
    """Whose turn it is: the first agent in the running from ``turn`` on, or None if over.

    Source: G-M5, G-A14, G-A20.
    """
    if not challenge.is_open:
        return None
    agents = challenge.agents
    index = _due([challenge.standing[a] for a in agents], challenge.turn)
    return None if index < 0 else agents[index]


def _target(challenge: Challenge, target: int | None) -> int:
    if target is None:
        open_ones = [i for i, o in enumerate(challenge.oppositions) if o.score > 0]
        if len(open_ones) != 1:
            raise InputError(
                N_(
                    "challenge {number} has several oppositions: say which one the action "
                    "targets (rule G-A7)"
                ),
                tip=N_("oppositions: {names}"),
                number=challenge.number,
                names=", ".join(f"{i + 1} {o.name}" for i, o in enumerate(challenge.oppositions)),
            )
        return open_ones[0]
    whole(target, Message(N_("the target opposition")), rule="G-M5")
    if not 0 <= target < len(challenge.oppositions):
        raise InputError(
            N_("challenge {number} has no opposition {value} (1 to {count})"),
            number=challenge.number,
            value=target + 1,
            count=len(challenge.oppositions),
        )
    if challenge.oppositions[target].score == 0:
        raise RuleError(
            N_("opposition {name!r} is already at 0 (rule G-A7)"),
            name=challenge.oppositions[target].name,
        )
    return target


def act(
    challenge: Challenge,
    agent: str,
    reserve: int,
    result: Result,
    *,
    target: int | None = None,
    strict_turns: bool = True,
) -> tuple[Challenge, int, int]:
    """Apply one action's result to the challenge.

    Args:
        challenge: an open challenge.
        agent: the acting agent's stored name.
        reserve: that agent's current reserve of the challenge's type (1 or more).
        result: the action's result.
        target: index of the targeted opposition (0-based); None when only one is left.
        strict_turns: the agent must be the one whose turn it is (G-A20).

    Returns:
        The challenge after the action, the agent's reserve after it, and the target index.

    Raises:
        RuleError: the challenge is over; the agent is not involved, out, conceded or
            abandoned, at reserve 0, or it is not their turn; the target is already at 0.
        InputError: a target that does not exist, or none with several oppositions left.

    Source: G-M4, G-M5, G-A4, G-A7, G-A14, G-A20.
    """
    if agent not in challenge.standing:
        _check_act(challenge, agent, reserve, strict_turns)  # raises: not involved
    course = Course(challenge)
    after, hit = course.act(
        challenge.agents.index(agent), reserve, result, target, strict_turns=strict_turns
    )
    return course.frozen(), after, hit


def _check_act(challenge: Challenge, agent: str, reserve: int, strict_turns: bool) -> None:
    """Refuse an action the challenge does not allow now (see `act`)."""
    _check_open(challenge)
    _check_active(challenge, agent)
    if reserve <= 0:
        raise RuleError(
            N_("{agent} has no {reserve} left and cannot act (rule G-M4)"),
            agent=agent,
            reserve=challenge.kind.title,
        )
    due = next_actor(challenge)
    if strict_turns and agent != due:
        raise RuleError(
            N_("it is {due}'s turn in challenge {number}, not {agent}'s (rule G-A20)"),
            tip=N_("agents act in the order they were listed; option turn_order=free lifts it"),
            due=due,
            number=challenge.number,
            agent=agent,
        )


class Course:
    """A challenge being played, as one mutable record that actions change in place.

    Every action of every challenge goes through `act` (or `run`, which applies the same
    rule to a whole challenge): play makes a course of the stored `Challenge` for each
    action (the module's `act`) and stores `frozen`; the lab's simulations keep one course
    for a challenge's whole run (`tablee.systems.agents.game.play_course`,
    `tablee.lab.sim_agents.play_lean`), so that an action costs a few list updates instead
    of new checked records. `opened` makes one from values, as `open_challenge` opens a
    challenge.

    Attributes (lists in the order of ``challenge.agents``, and of its oppositions):
        challenge: the challenge as it was when the course was made (None: `opened`).
        scores: each opposition's score now.
        standing: each involved agent's standing now.
        spent: reserve points each involved agent has lost in the challenge.
        turn: index in ``agents`` from which the next actor is sought.
        actions: actions taken so far.
        outcome: None while open, ``won`` or ``lost``.
        left: oppositions with a score above 0; running: agents still active.

    Source: G-M4, G-M5, G-A4, G-A7, G-A14, G-A15, G-A20.
    """

    __slots__ = (
        "actions",
        "challenge",
        "left",
        "outcome",
        "running",
        "scores",
        "spent",
        "standing",
        "turn",
    )

    challenge: Challenge | None
    scores: list[int]
    standing: list[Standing]
    spent: list[int]
    turn: int
    actions: int
    outcome: str | None
    left: int
    running: int

    def __init__(self, challenge: Challenge) -> None:
        agents = challenge.agents
        self.challenge = challenge
        self.scores = [o.score for o in challenge.oppositions]
        self.standing = [challenge.standing[a] for a in agents]
        self.spent = [challenge.spent[a] for a in agents]
        self.turn, self.actions, self.outcome = challenge.turn, challenge.actions, challenge.outcome
        self.left = sum(1 for score in self.scores if score > 0)
        self.running = self.standing.count(_ACTIVE)

    @classmethod
    def opened(cls, scores: Sequence[int], reserves: Sequence[int]) -> Course:
        """A challenge's course as it opens, made of values (no stored `Challenge`).

        Args:
            scores: each opposition's score, 0 or more.
            reserves: each involved agent's reserve of the challenge's type; an agent at 0
                is out at once.

        Returns:
            The course: won at once when every score is 0 (G-A2), lost at once when no
            agent can act (see `open_challenge`). It has no `frozen` form.
        """
        course = cls.__new__(cls)
        course.challenge = None
        course.scores = list(scores)
        course.standing = standing = [_ACTIVE if r > 0 else _OUT for r in reserves]
        course.spent = [0] * len(reserves)
        course.turn = course.actions = 0
        course.left = len(scores) - course.scores.count(0)
        course.running = standing.count(_ACTIVE)
        course.outcome = _outcome(course.left, course.running)
        return course

    def candidates(self) -> list[int]:
        """The indices the fallback rule names as winner: the eligible who spent most.

        Eligible agents neither conceded nor abandoned (G-M6, G-A12); empty when none is.
        """
        left = (Standing.CONCEDED, Standing.ABANDONED)
        eligible = [i for i, standing in enumerate(self.standing) if standing not in left]
        if not eligible:
            return []
        spent = self.spent
        most = max(spent[i] for i in eligible)
        return [i for i in eligible if spent[i] == most]

    def run(
        self,
        reserves: list[int],
        chance: Chance,
        due: Callable[[int], None] | None = None,
    ) -> None:
        """Play the challenge to its end: the agent due acts, with no modifier, until over.

        Args:
            reserves: each involved agent's reserve of the challenge's type, updated in
                place.
            chance: one request of one d6 per action.
            due: called with the index of each agent due before their action (a check
                that may raise), or None.

        Raises:
            InputError: several oppositions left (each action must name its target, G-A7);
                a face that a d6 cannot show. ValueError: several left in a course made by
                `opened`, which has no stored challenge to name them.

        Source: G-M4, G-M5, G-A5, G-A14, G-A20.
        """
        one_d6, roll, faces, standing = _ONE_D6, chance.roll, D6.values, self.standing
        applied, single = self._applied, len(self.scores) == 1
        if self.outcome is None and not 0 <= self.turn < len(standing):
            self.turn %= len(standing)  # a hand-built turn: the same agent is due (`_due`)
        while self.outcome is None:
            # the agent due acts (in the running, so with reserve left): `act`'s checks hold
            index = self.turn  # within the list: `_applied` keeps it there
            if standing[index] is not _ACTIVE:
                index = _due(standing, index)
            if due is not None:
                due(index)
            face = roll(one_d6)[0]
            if face.__class__ is not int or face not in faces:
                D6.check_face(face)  # raises, naming the face
            hit = 0 if single else _target(self.frozen(), None)  # open: one score above 0
            reserves[index] = applied(index, reserves[index], _UNMODIFIED[face], hit)

    def next_index(self) -> int:
        """The index in ``agents`` of whoever is due to act, -1 when the challenge is over."""
        return -1 if self.outcome is not None else _due(self.standing, self.turn)

    def act(
        self,
        index: int,
        reserve: int,
        result: Result,
        target: int | None = None,
        *,
        strict_turns: bool = True,
    ) -> tuple[int, int]:
        """Apply one action's result (see `act` for the rules and the errors).

        Args:
            index: the acting agent's index in ``agents``.
            reserve: that agent's current reserve of the challenge's type.
            result: the action's result.
            target: index of the targeted opposition (0-based), None when one is left.
            strict_turns: the agent must be the one due (G-A20).

        Returns:
            The agent's reserve after the action and the index of the opposition hit.

        Raises:
            RuleError, InputError: as `act`; the course is then unchanged.
        """
        if not (
            self.outcome is None
            and self.standing[index] is _ACTIVE
            and reserve > 0
            and (not strict_turns or index == self.next_index())
        ):
            frozen = self.frozen()
            _check_act(frozen, frozen.agents[index], reserve, strict_turns)
        scores = self.scores
        if target is None and len(scores) == 1 and scores[0] > 0:
            hit = 0
        else:
            hit = _target(self.frozen(), target)
        losses = OPPOSITION_LOSS[result], result.reserve_loss
        return self._applied(index, reserve, losses, hit), hit

    def _applied(self, index: int, reserve: int, losses: tuple[int, int], hit: int) -> int:
        """Apply an action allowed by `act`'s checks on opposition ``hit``: the reserve after.

        ``losses`` are the result's (`OPPOSITION_LOSS`, `Result.reserve_loss`): the
        opposition's score falls by the first (a success 1, a critical 2, not below 0), the
        agent's reserve by the second (a failure 1), the agent out at 0 and the points
        counted as spent; the turn passes to the next agent in the list, and the challenge
        ends when no opposition or no agent is left (G-M4, G-M5, G-A4, G-A5, G-A15, G-A20).
        """
        self.turn = (index + 1) % len(self.standing)
        self.actions += 1
        opposition_loss, reserve_loss = losses
        if reserve_loss:
            reserve -= reserve_loss
            self.spent[index] += reserve_loss
            if reserve == 0:
                self.standing[index] = _OUT
                self.running -= 1
                self.outcome = _outcome(self.left, self.running)
        if opposition_loss:
            scores = self.scores
            score = scores[hit] - opposition_loss
            scores[hit] = score if score > 0 else 0
            if score <= 0:
                self.left -= 1
                self.outcome = _outcome(self.left, self.running)
        return reserve

    def frozen(self) -> Challenge:
        """The challenge as the course has it now, as a table stores it.

        Raises:
            ValueError: a course made by `opened`, of no stored challenge.
        """
        challenge = self.challenge
        if challenge is None:
            raise ValueError("a course opened from values has no stored challenge")
        agents, scores = challenge.agents, self.scores
        return replaced(
            challenge,
            oppositions=tuple(
                o if o.score == score else replaced(o, score=score)
                for o, score in zip(challenge.oppositions, scores, strict=True)
            ),
            standing=dict(zip(agents, self.standing, strict=True)),
            spent=dict(zip(agents, self.spent, strict=True)),
            turn=self.turn,
            actions=self.actions,
            outcome=self.outcome,
        )


def mark_out(challenge: Challenge, agent: str) -> Challenge:
    """The challenge once ``agent``'s reserve of its type fell to 0 elsewhere (G-M4, G-T3).

    An agent not involved, or no longer active, leaves it unchanged.
    """
    if not challenge.is_open or challenge.standing.get(agent) is not Standing.ACTIVE:
        return challenge
    return _settled(replaced(challenge, standing={**challenge.standing, agent: Standing.OUT}))


def concede(challenge: Challenge, agent: str) -> Challenge:
    """An agent gives the challenge up before its first turn (G-M8, G-A15).

    Before anyone has acted, an agent who is out because their reserve of the challenge's
    type is already 0 may concede too (they surrender rather than fight on empty), even when
    that left the challenge lost at once: conceding is how such an agent gets the reserve
    back in full. Tablée's reading of G-M8; the outcome does not change.

    Raises:
        RuleError: the challenge has already begun, or is over otherwise than lost at once;
            the agent is not involved, or already conceded.

    Source: G-M8 (the reserve's restore is applied by the game), G-A9, G-A15.
    """
    before_first_turn = challenge.actions == 0
    if not (before_first_turn and challenge.outcome == "lost"):
        _check_open(challenge)
    if not (before_first_turn and challenge.standing.get(agent) is Standing.OUT):
        _check_active(challenge, agent)
    if challenge.actions:
        raise RuleError(
            N_("challenge {number} has begun: {agent} can only abandon now (rule G-M8)"),
            tip=N_("abandoning doubles the points left instead of restoring them"),
            number=challenge.number,
            agent=agent,
        )
    return _settled(replaced(challenge, standing={**challenge.standing, agent: Standing.CONCEDED}))


def abandon(challenge: Challenge, agent: str) -> Challenge:
    """An agent leaves a challenge in progress (G-M8, G-A8, G-A15).

    Raises:
        RuleError: the challenge is over or has not begun (concede instead); the agent is
            not active.

    Source: G-M8 (the doubling is applied by the game), G-A8, G-A15.
    """
    _check_open(challenge)
    _check_active(challenge, agent)
    if not challenge.actions:
        raise RuleError(
            N_("challenge {number} has not begun: {agent} may concede instead (rule G-M8)"),
            number=challenge.number,
            agent=agent,
        )
    return _settled(replaced(challenge, standing={**challenge.standing, agent: Standing.ABANDONED}))


def winner_candidates(challenge: Challenge) -> tuple[str, ...]:
    """Who the fallback rule names: the eligible agents who spent most (G-M6, G-A12).

    Eligible agents are the involved ones who neither conceded nor abandoned.
    """
    agents = challenge.agents
    return tuple(agents[i] for i in Course(challenge).candidates())


def name_winner(challenge: Challenge, agent: str | None) -> Challenge:
    """Name the winner of a won challenge.

    Args:
        challenge: a won challenge without a winner yet.
        agent: the agent whose action marked the scene most, chosen by the table; None for
            the fallback rule (the one who spent most reserve points).

    Raises:
        RuleError: the challenge is not won, already has a winner, the agent conceded,
            abandoned or is not involved; or (fallback) several agents tie (G-A12).

    Source: G-M6, G-A12.
    """
    if challenge.outcome != "won":
        raise RuleError(
            N_("challenge {number} is not won by the agents: it has no winner (rule G-M6)"),
            number=challenge.number,
        )
    if challenge.winner is not None:
        raise RuleError(
            N_("challenge {number} already has a winner: {winner}"),
            number=challenge.number,
            winner=challenge.winner,
        )
    candidates = winner_candidates(challenge)
    if agent is None:
        if len(candidates) != 1:
            raise RuleError(
                N_(
                    "{agents} tie for the most reserve points spent: the table names the "
                    "winner (rule G-A12)"
                ),
                tip=N_("name one of them, or roll a d6 each and take the highest"),
                agents=", ".join(candidates) or "-",
            )
        return replaced(challenge, winner=candidates[0])
    if challenge.standing.get(agent) in (None, Standing.CONCEDED, Standing.ABANDONED):
        raise RuleError(
            N_("{agent} cannot win challenge {number}: not involved, or left it (rule G-M6)"),
            agent=agent,
            number=challenge.number,
        )
    return replaced(challenge, winner=agent)
