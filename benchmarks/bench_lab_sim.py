"""The lab's simulations against a plain Monte Carlo loop of the same rules.

For each simulated lab question (``pouyss/economy``, ``agents/adventure``, ``shs/film``,
``ybs/gang``) this runs:

* the lab: the question's ``answer`` on 2 worker processes (`tablee.lab.runner`), the rules
  driven through the chance protocol;
* a plain loop: the same rules written the obvious way in this file (``random.randint``
  dice, plain ints and lists), the same trials, in this process.

It prints the throughput (trials per second of wall time), the CPU time per trial (the
parent's ``time.process_time`` plus the worker processes' user and system time from
``resource.getrusage(RUSAGE_CHILDREN)``), their ratio (target: the lab at most 2x the
plain loop's CPU per trial) and whether the two runs' statistics agree: for each figure
compared, the difference of the two estimates within 1.96 times its standard error (each
estimate's standard error read from its 95% interval).

To tell the lab's own cost (chunks, seeds, tallies, the pool) from the rule code's, it also
times the question's trial alone: the same rule calls in a bare loop in this process (no
runner, no pool, one `SeededSource`), "rules" below; "runner" is the lab's CPU over that.

The plain loops use two lookups from the rules core where writing them again would only
copy a table: the YBS advisor's keeps (`advised_keep`) and the agents opposition table
(`opposition_score`). The advisor's table is solved once per process (about 0.15 s); it is
solved before either YBS run is timed, so that neither pays for it (the lab, run first, used
to pay for both).

Usage: ``.venv/bin/python benchmarks/bench_lab_sim.py [--quick] [--json] [--seed N]
[--only NAME ...]`` (``--quick``: fewer trials, under 2 minutes on a loaded 2-core machine;
``--seed``: the seed of both runs, 1 by default; ``--only``: the questions named, e.g.
``--only shs/film agents/adventure``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import resource
import sys
import time
from collections.abc import Callable
from typing import Any

from tablee.dice import SeededSource, SourceChance
from tablee.lab.questions import LabContext
from tablee.lab.results import Estimate, LabResult, mean_estimate, proportion_estimate
from tablee.lab.runner import Tally
from tablee.lab.sim_agents import VARIANTS, Adventure
from tablee.lab.sim_pouyss import BONUS_POLICIES, CagnotteEconomy
from tablee.lab.sim_shs import OPTION_POLICIES, Film, film_difficulties
from tablee.lab.sim_ybs import GangFightSim
from tablee.systems.agents.generator import opposition_score
from tablee.systems.agents.options import AgentsOptions
from tablee.systems.ybs.advisor import advised_keep
from tablee.systems.ybs.race import race_keep

Figures = dict[str, Estimate]


def d6(rng: random.Random) -> int:
    return rng.randint(1, 6)


# --- Pouyss: the cagnotte over a session ---------------------------------------------------


def plain_pouyss(q: CagnotteEconomy, rng: random.Random) -> Figures:
    below = {"none": 0, "third": 2, "half": 3, "two_thirds": 4}[q.gm_malus]
    dry: dict[str, int] = {}
    pools: dict[str, list[float]] = {}
    for _ in range(q.trials):
        for policy in BONUS_POLICIES:
            for players in range(q.min_players, q.max_players + 1):
                key = f"{policy}:{players}"
                cagnotte, total, empty, pool_sum = players, players * q.rolls, 0, 0
                for _ in range(total):
                    pool_sum += cagnotte
                    empty += cagnotte == 0
                    if policy == "never":
                        bonus = 0
                    elif policy == "cautious":
                        bonus = 1 if cagnotte >= q.cautious_from else 0
                    else:
                        bonus = min(q.greedy_most, cagnotte)
                    malus = 1 if below and d6(rng) <= below else 0
                    dice = sorted((d6(rng) for _ in range(1 + bonus + malus)), reverse=True)
                    _value = dice[malus]  # the highest die once the malus removed the highest
                    cagnotte = cagnotte - bonus + malus + (bonus if q.bonus_dice_return else 0)
                dry[key] = dry.get(key, 0) + (empty > 0)
                pools.setdefault(key, []).append(pool_sum / total)
    out: Figures = {}
    for key, n in dry.items():
        out[f"{key}:p_session_empty"] = proportion_estimate(n, q.trials)
        values = pools[key]
        out[f"{key}:mean_pool"] = mean_estimate(sum(values), sum(v * v for v in values), q.trials)
    return out


def lab_pouyss(result: LabResult) -> Figures:
    out: Figures = {}
    for row in result.rows:
        key = f"{row['policy']}:{row['players']}"
        for name in ("p_session_empty", "mean_pool"):
            cell = row[name]
            assert isinstance(cell, Estimate)
            out[f"{key}:{name}"] = cell
    return out


# --- agents: whole adventures --------------------------------------------------------------


def _roll_off(rng: random.Random, names: list[int]) -> int:
    while len(names) > 1:
        faces = [d6(rng) for _ in names]
        top = max(faces)
        names = [n for n, f in zip(names, faces, strict=True) if f == top]
    return names[0]


def plain_adventure(
    size: int, options: AgentsOptions, rng: random.Random, max_scenes: int
) -> tuple[str, int, int, int | None]:
    """One adventure with default choices: (status, scenes, Sang lost, favori seat)."""
    orders = ((7, 5, 3), (5, 3, 7), (3, 7, 5), (7, 3, 5), (5, 7, 3), (3, 5, 7))
    reserves = [list(orders[i % 6]) for i in range(size)]
    sang, wins = [3] * size, [0] * size
    progress, scene, sitting = 0, 0, set()
    d6(rng)  # the objective (a d6 table); the arrival's environment
    d6(rng)
    while True:
        if scene >= max_scenes:
            return "abandoned", scene, 3 * size - sum(sang), None
        scene += 1
        for i in sitting:
            sang[i] = 1
        sitting = {i for i in range(size) if sang[i] == 0}
        present = [i for i in range(size) if i not in sitting and sang[i] > 0]
        source = d6(rng)
        relation = (
            "hostile"
            if progress == 3
            else ("hostile", "hostile", "neutral", "neutral", "benevolent", "benevolent")[
                d6(rng) - 1
            ]
        )
        kind = (d6(rng) - 1) // 2
        score = opposition_score(progress, d6(rng), len(present), options)
        if source >= 3 or scene > 1:
            d6(rng)  # the opposition's name, drawn from its table
        spent = dict.fromkeys(present, 0)
        running = [i for i in present if reserves[i][kind] > 0]
        turn = acts = 0
        while score > 0 and running:
            i = present[turn % len(present)]
            turn += 1
            if i not in running:
                continue
            acts += 1
            if d6(rng) >= 4:
                score -= 1
            else:
                reserves[i][kind] -= 1
                spent[i] += 1
                if reserves[i][kind] == 0:
                    running.remove(i)
        won = score <= 0
        if won and acts:
            most = max(spent.values())
            wins[_roll_off(rng, [i for i in present if spent[i] == most])] += 1
        change, gain = {
            ("hostile", False): (-1, -1),
            ("hostile", True): (1, 0),
            ("neutral", False): (0, -1),
            ("neutral", True): (0, 0),
            ("benevolent", False): (0, 0),
            ("benevolent", True): (1, 1),
        }[relation, won]
        for i in present:
            sang[i] = max(0, min(3, sang[i] + gain))
        progress = min(4, progress + change)
        if change > 0:
            d6(rng)  # a boon drawn
        if progress >= 4:
            best = max(wins)
            favori = _roll_off(rng, [i for i in range(size) if wins[i] == best])
            return "won", scene, 3 * size - sum(sang), favori + 1
        if all(s == 0 for s in sang):
            return "failed", scene, 3 * size - sum(sang), None


def plain_agents(q: Adventure, rng: random.Random) -> Figures:
    counts: dict[str, int] = {}
    scenes: dict[str, list[int]] = {}
    for _ in range(q.trials):
        for variant in VARIANTS:
            options = AgentsOptions(**variant.options)  # type: ignore[arg-type]
            for size in range(q.min_agents, q.max_agents + 1):
                key = f"{variant.name}:{size}"
                status, scene, _lost, _favori = plain_adventure(size, options, rng, q.max_scenes)
                counts[f"{key}:{status}"] = counts.get(f"{key}:{status}", 0) + 1
                scenes.setdefault(key, []).append(scene)
    out: Figures = {}
    for key, values in scenes.items():
        out[f"{key}:p_won"] = proportion_estimate(counts.get(f"{key}:won", 0), q.trials)
        out[f"{key}:scenes"] = mean_estimate(sum(values), sum(v * v for v in values), q.trials)
    return out


def lab_agents(result: LabResult) -> Figures:
    out: Figures = {}
    for row in result.rows:
        key = f"{row['variant']}:{row['agents']}"
        for name in ("p_won", "scenes"):
            cell = row[name]
            assert isinstance(cell, Estimate)
            out[f"{key}:{name}"] = cell
    return out


# --- SHS: survivors of a film --------------------------------------------------------------


def plain_shs(q: Film, rng: random.Random) -> Figures:
    difficulties = film_difficulties(q.difficulties, q.tests)
    sides = 10 if q.expertise else 8
    survivors: dict[str, list[int]] = {p: [] for p in OPTION_POLICIES}

    def ps(bonus: int, sacrifice: bool) -> int:
        hits = sum(rng.randint(1, sides) >= q.threshold for _ in range(3))
        hits += sum(rng.randint(1, 3) == 1 for _ in range(bonus))  # a "+" on a D+/-
        return hits + (2 if sacrifice else 0)

    for _ in range(q.trials):
        for policy in OPTION_POLICIES:
            sante = [17 - q.threshold] * q.protagonists
            alive = [True] * q.protagonists
            turn = 0
            for d in difficulties:
                living = [i for i in range(q.protagonists) if alive[i]]
                if not living:
                    break
                if q.group == "one" or len(living) == 1:
                    rollers = [living[turn % len(living)]]
                    turn += 1
                else:
                    rollers = living
                hard = d >= q.option_from
                success = False
                for n, i in enumerate(rollers):
                    surpass = policy == "surpass" and hard
                    sacrifice = policy == "sacrifice" and hard and n == 0
                    bonus = (1 if len(rollers) > 1 else 0) + (2 if surpass or sacrifice else 0)
                    success = ps(bonus, sacrifice) >= d or success
                    if sacrifice:
                        alive[i] = False
                if success:
                    continue
                if q.failure == "kill_one":
                    alive[rollers[0]] = False
                    continue
                for i in rollers:
                    if alive[i]:
                        sante[i] = max(0, sante[i] - q.damage)
                        alive[i] = sante[i] > 0
            survivors[policy].append(sum(alive))
    return {
        f"{p}:survivors": mean_estimate(sum(v), sum(x * x for x in v), q.trials)
        for p, v in survivors.items()
    }


def lab_shs(result: LabResult) -> Figures:
    out: Figures = {}
    for row in result.rows:
        cell = row["survivors"]
        assert isinstance(cell, Estimate)
        out[f"{row['option']}:survivors"] = cell
    return out


# --- YBS: the gang fight -------------------------------------------------------------------


def _straight(hand: list[int]) -> int:
    faces = set(hand)
    for low in (3, 2, 1):
        if {low, low + 1, low + 2, low + 3} <= faces:
            return low
    return 0


def _keep(policy: str, hand: list[int], other: list[int], higher: bool) -> list[int]:
    if policy == "race":  # the table's race advice, looked up in its stored policies
        return list(race_keep(hand, other, higher_straight_wins=higher))
    if policy == "advised":
        return list(advised_keep(tuple(sorted(hand))))
    if policy == "keep_none":
        return []
    best: list[int] = []
    run: list[int] = []
    for face in sorted(set(hand)):
        run = [*run, face] if run and face == run[-1] + 1 else [face]
        if len(run) >= len(best):
            best = run
    return best


POLICIES = ("race", "advised", "keep_best", "keep_none")
"""The players' keep policies of ``ybs/gang`` (4 to 6 dice a side: the race advice plays too)."""


def plain_ybs(q: GangFightSim, rng: random.Random) -> Figures:
    results: dict[str, int] = {}
    for _ in range(q.trials):
        for policy in POLICIES:
            mine = [d6(rng) for _ in range(q.players_dice)]
            theirs = [d6(rng) for _ in range(q.gm_side_dice)]
            while True:
                a, b = _straight(mine), _straight(theirs)
                if a or b:
                    if a and b:
                        word = (
                            "draw"
                            if a == b or not q.higher_straight_wins
                            else ("win" if a > b else "loss")
                        )
                    else:
                        word = "win" if a else "loss"
                    results[f"{policy}:{word}"] = results.get(f"{policy}:{word}", 0) + 1
                    break
                higher = q.higher_straight_wins
                kept = _keep(policy, mine, theirs, higher)
                kept_gm = _keep(q.gm_keep, theirs, mine, higher)
                mine = kept + [d6(rng) for _ in range(q.players_dice - len(kept))]
                theirs = kept_gm + [d6(rng) for _ in range(q.gm_side_dice - len(kept_gm))]
    return {
        f"{p}:{w}": proportion_estimate(results.get(f"{p}:{w}", 0), q.trials)
        for p in POLICIES
        for w in ("win", "draw", "loss")
    }


def lab_ybs(result: LabResult) -> Figures:
    out: Figures = {}
    for row in result.rows:
        for word in ("win", "draw", "loss"):
            cell = row[f"p_{word}"]
            assert isinstance(cell, Estimate)
            out[f"{row['players_keep']}:{word}"] = cell
    return out


# --- measuring -----------------------------------------------------------------------------


def simulation_of(question: Any) -> Any:
    """The trial object a question hands the runner (caught on a run of one trial)."""
    module = sys.modules[type(question).__module__]
    real = module.run_simulation
    caught: list[Any] = []

    def spy(simulation: Any, trials: int, seed: int, **_: Any) -> Any:
        caught.append(simulation)
        return real(simulation, 1, seed)

    module.run_simulation = spy
    try:
        question.answer(LabContext())
    finally:
        module.run_simulation = real
    return caught[0]


def bare_rules_cpu(question: Any) -> float:
    """CPU seconds of the question's trials called in a bare loop, in this process."""
    simulation = simulation_of(question)
    chance, tally = SourceChance(SeededSource(question.seed)), Tally()
    cpu = time.process_time()
    for _ in range(question.trials):
        simulation.trial(chance, tally)
    return time.process_time() - cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _agree(lab: Figures, plain: Figures) -> tuple[int, int, list[str]]:
    """Figures compared, figures whose difference is within 1.96 standard errors, the others."""
    agree, off = 0, []
    for key, a in lab.items():
        b = plain[key]
        se = math.hypot((a.high - a.low) / (2 * 1.96), (b.high - b.low) / (2 * 1.96))
        if abs(a.value - b.value) <= 1.96 * se + 1e-12:
            agree += 1
        else:
            off.append(f"{key}: lab {a.value:.4f}, plain {b.value:.4f}")
    return len(lab), agree, off


CASES: list[tuple[str, Callable[[int], Any], Callable[..., Figures], Callable[..., Figures]]] = [
    (
        "pouyss/economy",
        lambda n: CagnotteEconomy(trials=n),
        plain_pouyss,
        lab_pouyss,
    ),
    ("agents/adventure", lambda n: Adventure(trials=n), plain_agents, lab_agents),
    ("shs/film", lambda n: Film(trials=n), plain_shs, lab_shs),
    ("ybs/gang", lambda n: GangFightSim(trials=n), plain_ybs, lab_ybs),
]

TRIALS = {"pouyss/economy": 2000, "agents/adventure": 2000, "shs/film": 2000, "ybs/gang": 4000}
QUICK = {"pouyss/economy": 500, "agents/adventure": 500, "shs/film": 400, "ybs/gang": 1500}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer trials (under 2 minutes)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--seed", type=int, default=1, help="the seed of the lab and of the plain loops (1)"
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=[case[0] for case in CASES],
        help="run only these questions",
    )
    args = parser.parse_args()
    trials = QUICK if args.quick else TRIALS
    rows = []
    for name, make, plain, read in CASES:
        if args.only and name not in args.only:
            continue
        question = dataclasses.replace(make(trials[name]), seed=args.seed)
        if isinstance(question, GangFightSim):  # the advisor's and race tables: see above
            for dice in {question.players_dice, question.gm_side_dice}:
                advised_keep((1,) * dice)
            players, gm = (1,) * question.players_dice, (1,) * question.gm_side_dice
            higher = question.higher_straight_wins
            race_keep(players, gm, higher_straight_wins=higher)
            race_keep(gm, players, higher_straight_wins=higher)
        wall, cpu, kids = time.perf_counter(), time.process_time(), _children_cpu()
        result = question.answer(LabContext(workers=2))
        lab_wall = time.perf_counter() - wall
        lab_cpu = time.process_time() - cpu + _children_cpu() - kids
        wall, cpu = time.perf_counter(), time.process_time()
        plain_figures = plain(question, random.Random(question.seed))
        plain_wall = time.perf_counter() - wall
        plain_cpu = time.process_time() - cpu
        rules_cpu = bare_rules_cpu(question)
        compared, agree, off = _agree(read(result), plain_figures)
        n = question.trials
        row = {
            "question": name,
            "trials": n,
            "lab_trials_per_s": n / lab_wall,
            "plain_trials_per_s": n / plain_wall,
            "lab_cpu_ms_per_trial": 1000 * lab_cpu / n,
            "plain_cpu_ms_per_trial": 1000 * plain_cpu / n,
            "rules_cpu_ms_per_trial": 1000 * rules_cpu / n,
            "ratio": lab_cpu / plain_cpu,
            "rules_ratio": rules_cpu / plain_cpu,
            "runner_ratio": lab_cpu / rules_cpu,
            "figures": compared,
            "agree": agree,
            "off": off,
        }
        rows.append(row)
        if not args.json:
            print(
                f"{name:17} {n:5} trials  lab {row['lab_trials_per_s']:7.1f}/s "
                f"{row['lab_cpu_ms_per_trial']:8.3f} ms CPU/trial  plain "
                f"{row['plain_trials_per_s']:8.1f}/s {row['plain_cpu_ms_per_trial']:7.3f} ms  "
                f"rules {row['rules_cpu_ms_per_trial']:8.3f} ms  lab/plain {row['ratio']:6.2f}  "
                f"lab/rules {row['runner_ratio']:4.2f}  agree {agree}/{compared}",
                flush=True,
            )
            for line in off:
                print(f"    outside: {line}")
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
