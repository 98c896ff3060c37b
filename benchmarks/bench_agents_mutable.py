"""How cheap could the agents' adventure be if its rules kept one mutable state per trial?

The lab's ``agents/adventure`` plays every step through the agents rules (frozen, checked
records rebuilt at each step) and costs 25 - 37 times the plain loop of
``bench_lab_sim.py``. This benchmark measures what a rewrite of those rules around one
mutable state per trial could reach at best, before deciding whether to make it: the same
adventures written in the shape such rules would have, in this file only (it is an
experiment, not rule code of Tablée):

* ``direct``: objects with slots (agents, challenges, the table), one function per rule
  (generate, act, name the winner, settle, next scene, the roll-off) with the least checks
  an action needs, dice through the chance protocol (`SourceChance` over `SeededSource`);
* ``stepped``: the same functions driven as play and the lab drive the rules: a
  ``next_step`` that reads the state and says what the adventure needs, and a dispatch on
  its kind.

Both cover only the lab's default path: one opposition, no modifier, nobody concedes, no
recovery, nobody challenges the favori, the English starter tables' names not drawn (their
d6 is thrown). Everything the real rules also do (several oppositions, modifiers, turn
checks, split groups, late wins, the contest, the traces and facts that play records) would
only add to these figures, so they are a floor.

Each is timed against ``bench_lab_sim.plain_adventure`` over the lab's trial (the four house
rules by 2, 3 and 4 agents: 12 adventures), in the same run, CPU time per trial
(`time.process_time`), and against the lab's own rules trial (the question's trial in a bare
loop, `bench_lab_sim.bare_rules_cpu`). With the same seed the three throw the same dice in
the same order, so the end counts (won, failed, given up) must be equal: the run stops if
they are not.

Usage: ``.venv/bin/python benchmarks/bench_agents_mutable.py [--trials N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from enum import Enum

from bench_lab_sim import bare_rules_cpu, plain_adventure
from tablee.dice import D6, Chance, DiceRequest, SeededSource, SourceChance
from tablee.lab.sim_agents import VARIANTS, Adventure
from tablee.systems.agents.generator import Relation, Source, opposition_score
from tablee.systems.agents.options import AgentsOptions

_ORDERS = ((7, 5, 3), (5, 3, 7), (3, 7, 5), (7, 3, 5), (5, 7, 3), (3, 5, 7))
_RELATIONS = (Relation.HOSTILE, Relation.NEUTRAL, Relation.BENEVOLENT)
_CONSEQUENCES = {
    (Relation.HOSTILE, False): (-1, -1, False),
    (Relation.HOSTILE, True): (1, 0, True),
    (Relation.NEUTRAL, False): (0, -1, False),
    (Relation.NEUTRAL, True): (0, 0, False),
    (Relation.BENEVOLENT, False): (0, 0, False),
    (Relation.BENEVOLENT, True): (1, 1, True),
}
_ONE_D6 = DiceRequest(D6, 1)


class Agent:
    __slots__ = ("reserves", "sang")

    def __init__(self, reserves: tuple[int, int, int]) -> None:
        self.reserves = list(reserves)
        self.sang = 3


class Challenge:
    __slots__ = (
        "actions",
        "active",
        "agents",
        "kind",
        "relation",
        "running",
        "score",
        "spent",
        "turn",
        "winner",
    )

    def __init__(
        self, kind: int, relation: Relation, score: int, agents: list[int], table: Table
    ) -> None:
        self.kind, self.relation, self.score, self.agents = kind, relation, score, agents
        self.running = [table.agents[a].reserves[kind] > 0 for a in agents]
        self.active = sum(self.running)
        self.spent = [0] * len(agents)
        self.turn = self.actions = 0
        self.winner: int | None = None

    @property
    def is_open(self) -> bool:
        return self.score > 0 and self.active > 0

    def next_actor(self) -> int:
        """The index in ``agents`` of whoever acts next (the challenge is open)."""
        count = len(self.agents)
        while True:
            turn = self.turn
            self.turn = (turn + 1) % count
            if self.running[turn]:
                return turn


class Table:
    __slots__ = (
        "agents",
        "arrival",
        "boons",
        "challenge",
        "objective",
        "options",
        "progress",
        "scene",
        "settled",
        "sitting",
        "status",
        "wins",
    )

    def __init__(self, size: int, options: AgentsOptions) -> None:
        self.agents = [Agent(_ORDERS[i % 6]) for i in range(size)]
        self.options = options
        self.progress = self.scene = self.boons = 0
        self.challenge: Challenge | None = None
        self.settled = True
        self.sitting: set[int] = set()
        self.wins = [0] * size
        self.status = "ongoing"
        self.objective = self.arrival = 0


def roll_off(chance: Chance, names: list[int]) -> int:
    while len(names) > 1:
        faces = chance.roll(DiceRequest(D6, len(names)))
        top = max(faces)
        names = [n for n, f in zip(names, faces, strict=True) if f == top]
    return names[0]


def next_scene(table: Table) -> None:
    table.scene += 1
    for i in table.sitting:
        table.agents[i].sang = 1
    table.sitting = {i for i, a in enumerate(table.agents) if a.sang == 0}


def generate(table: Table, chance: Chance) -> Challenge:
    present = [i for i, a in enumerate(table.agents) if i not in table.sitting and a.sang > 0]
    forced = table.progress == 3
    faces = chance.roll(DiceRequest(D6, 3 if forced else 4))
    source = Source.ENVIRONMENT if faces[0] <= 2 else Source.CREATURES
    relation = Relation.HOSTILE if forced else _RELATIONS[(faces[1] - 1) // 2]
    kind = (faces[-2] - 1) // 2
    score = opposition_score(table.progress, faces[-1], len(present), table.options)
    if source is Source.CREATURES or table.scene > 1:
        chance.roll(_ONE_D6)  # the opposition's name
    challenge = Challenge(kind, relation, score, present, table)
    table.challenge, table.settled = challenge, False
    return challenge


def act(table: Table, challenge: Challenge, index: int, face: int) -> None:
    if not 1 <= face <= 6:
        raise ValueError(face)
    if not challenge.running[index]:
        raise ValueError(index)
    if face >= 4:
        challenge.score -= 1
    else:
        agent = table.agents[challenge.agents[index]]
        agent.reserves[challenge.kind] -= 1
        challenge.spent[index] += 1
        if agent.reserves[challenge.kind] == 0:
            challenge.running[index] = False
            challenge.active -= 1
    challenge.actions += 1


def name_winner(challenge: Challenge, chance: Chance) -> None:
    most = max(challenge.spent)
    tied = [a for a, s in zip(challenge.agents, challenge.spent, strict=True) if s == most]
    challenge.winner = roll_off(chance, tied)


def settle(table: Table, challenge: Challenge) -> None:
    won = challenge.score <= 0
    change, sang, helped = _CONSEQUENCES[challenge.relation, won]
    for i in challenge.agents:
        agent = table.agents[i]
        agent.sang = max(0, min(3, agent.sang + sang))
    if challenge.winner is not None:
        table.wins[challenge.winner] += 1
    table.progress = min(4, table.progress + change)
    table.boons += helped
    table.settled = True
    if table.progress >= 4:
        table.status = "won"
    elif all(a.sang == 0 for a in table.agents):
        table.status = "failed"


def direct(size: int, options: AgentsOptions, chance: Chance, max_scenes: int) -> str:
    """One adventure, the rule functions called in a loop: its end (won, failed, abandoned)."""
    table = Table(size, options)
    table.objective = chance.roll(_ONE_D6)[0]
    table.arrival = chance.roll(_ONE_D6)[0]
    while True:
        if table.scene >= max_scenes:
            return "abandoned"
        next_scene(table)
        challenge = generate(table, chance)
        while challenge.is_open:
            act(table, challenge, challenge.next_actor(), chance.roll(_ONE_D6)[0])
        if challenge.score <= 0 and challenge.actions:
            name_winner(challenge, chance)
        settle(table, challenge)
        if table.boons:
            chance.roll(_ONE_D6)
            table.boons = 0
        if table.status == "won":
            best = max(table.wins)
            roll_off(chance, [i for i, w in enumerate(table.wins) if w == best])
            return "won"
        if table.status == "failed":
            return "failed"


class Kind(Enum):
    DRAW = "draw"
    START_SCENE = "start_scene"
    ACT = "act"
    NAME_WINNER = "name_winner"
    CONSEQUENCE = "consequence"
    FAVORI = "favori"
    DONE = "done"


def next_step(table: Table) -> tuple[Kind, int]:
    """What the adventure needs next, read from the state (the shape of the rules' flow)."""
    if table.status == "failed" or table.status == "done":
        return Kind.DONE, 0
    if table.boons:
        return Kind.DRAW, 0
    if table.status == "won":
        return Kind.FAVORI, 0
    challenge = table.challenge
    if challenge is not None and not table.settled:
        if challenge.is_open:
            return Kind.ACT, challenge.next_actor()
        if challenge.score <= 0 and challenge.actions and challenge.winner is None:
            return Kind.NAME_WINNER, 0
        return Kind.CONSEQUENCE, 0
    return Kind.START_SCENE, 0


def stepped(size: int, options: AgentsOptions, chance: Chance, max_scenes: int) -> str:
    """One adventure driven by ``next_step`` and a dispatch on its kind, as play drives it."""
    table = Table(size, options)
    table.objective = chance.roll(_ONE_D6)[0]
    table.arrival = chance.roll(_ONE_D6)[0]
    while True:
        kind, index = next_step(table)
        if kind is Kind.ACT:
            challenge = table.challenge
            assert challenge is not None
            act(table, challenge, index, chance.roll(_ONE_D6)[0])
        elif kind is Kind.START_SCENE:  # the scene and its challenge (play: two steps)
            if table.scene >= max_scenes:
                return "abandoned"
            next_scene(table)
            generate(table, chance)
        elif kind is Kind.NAME_WINNER:
            assert table.challenge is not None
            name_winner(table.challenge, chance)
        elif kind is Kind.CONSEQUENCE:
            assert table.challenge is not None
            settle(table, table.challenge)
        elif kind is Kind.DRAW:
            chance.roll(_ONE_D6)
            table.boons = 0
        elif kind is Kind.FAVORI:
            best = max(table.wins)
            roll_off(chance, [i for i, w in enumerate(table.wins) if w == best])
            table.status = "done"
            return "won"
        elif kind is Kind.DONE:
            return "failed"
        else:
            raise AssertionError(kind)


def _run(
    play: Callable[[int, AgentsOptions, Chance, int], str], trials: int, seed: int
) -> tuple[float, dict[str, int]]:
    chance = SourceChance(SeededSource(seed))
    variants = [AgentsOptions(**v.options) for v in VARIANTS]  # type: ignore[arg-type]
    counts: dict[str, int] = {}
    cpu = time.process_time()
    for _ in range(trials):
        for options in variants:
            for size in (2, 3, 4):
                end = play(size, options, chance, 30)
                counts[end] = counts.get(end, 0) + 1
    return (time.process_time() - cpu) / trials, counts


def _plain(trials: int, seed: int) -> tuple[float, dict[str, int]]:
    rng = random.Random(seed)
    variants = [AgentsOptions(**v.options) for v in VARIANTS]  # type: ignore[arg-type]
    counts: dict[str, int] = {}
    cpu = time.process_time()
    for _ in range(trials):
        for options in variants:
            for size in (2, 3, 4):
                end = plain_adventure(size, options, rng, 30)[0]
                counts[end] = counts.get(end, 0) + 1
    return (time.process_time() - cpu) / trials, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=400, help="trials per timing (400)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, in turn (3)")
    args = parser.parse_args()
    question = Adventure(trials=args.trials)
    for round_ in range(1, args.rounds + 1):
        plain, plain_counts = _plain(args.trials, 1)
        flat, flat_counts = _run(direct, args.trials, 1)
        steps, step_counts = _run(stepped, args.trials, 1)
        if not plain_counts == flat_counts == step_counts:
            raise SystemExit(f"the ends differ: {plain_counts} {flat_counts} {step_counts}")
        rules = bare_rules_cpu(question) / args.trials
        print(
            f"round {round_}: CPU ms/trial plain {1000 * plain:.3f}  direct {1000 * flat:.3f}"
            f" ({flat / plain:.2f}x)  stepped {1000 * steps:.3f} ({steps / plain:.2f}x)"
            f"  the lab's rules {1000 * rules:.3f} ({rules / plain:.1f}x)  ends {plain_counts}",
            flush=True,
        )


if __name__ == "__main__":
    main()
