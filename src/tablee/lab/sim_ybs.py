"""YBS in the lab: a gang fight simulated with the rules, under named keep policies.

Each trial plays the fight with `tablee.systems.ybs.gang.next_throw` (both sides' dice
through the chance protocol, `resolve_throw`, `throw_result`) from the first throw or from
the faces in front of each side now, once for each policy of the players, the GM's side
keeping under its own policy. Where `gang_fight_odds` gives the exact figures (4 to 6 dice
a side, from the first throw, both sides advised) they are given beside the estimates.

Source: seed 004, "Les combats de bande"; rulings Y-M7, Y-A12, Y-A13, Y-A14.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, ClassVar, Literal

from tablee.dice import D6, Chance, parse_faces
from tablee.errors import N_, InputError
from tablee.lab.questions import LabContext, Question, Seed
from tablee.lab.results import Cell, Chart, Column, LabResult, Policy
from tablee.lab.runner import Tally, run_simulation
from tablee.systems.declare import Param
from tablee.systems.ybs.advisor import advised_keep
from tablee.systems.ybs.gang import GangFight, GangOptions, Keeps, next_throw
from tablee.systems.ybs.race import race_keep, race_start_odds
from tablee.systems.ybs.straights import GangSide

__all__ = ["KEEP_POLICIES", "GangFightSim", "keep_best", "kept_by"]

KeepPolicy = Literal["race", "advised", "keep_best", "keep_none"]

KEEP_POLICIES: Mapping[str, Policy] = {
    "race": Policy(
        "race",
        N_(
            "keep what the table advises: the best chance to win the race against a "
            "race-optimal other side (4 to 6 dice a side)"
        ),
    ),
    "advised": Policy(
        "advised",
        N_("keep what the advisor advises (fewest expected throws to a straight)"),
    ),
    "keep_best": Policy(
        "keep_best",
        N_("keep one die of each face of the longest run of consecutive faces (the highest)"),
    ),
    "keep_none": Policy("keep_none", N_("keep nothing: reroll every die")),
}
"""The keep policies a side may follow, by name."""

_POLICY_LABELS = tuple((name, policy.label) for name, policy in KEEP_POLICIES.items())
_OUTCOMES = ("win", "draw", "loss")
_WORD = {GangSide.PLAYERS: "win", GangSide.GM: "loss", None: "draw"}


def keep_best(hand: tuple[int, ...]) -> tuple[int, ...]:
    """One die of each face of the hand's longest run of consecutive faces, the highest on ties.

    ``(1, 2, 2, 5, 6)`` keeps ``(5, 6)``; ``(2, 3, 3, 4, 6)`` keeps ``(2, 3, 4)``.
    """
    faces = sorted(set(hand))
    best: list[int] = []
    run: list[int] = []
    for face in faces:
        run = [*run, face] if run and face == run[-1] + 1 else [face]
        if len(run) >= len(best):
            best = run
    return tuple(best)


def kept_by(
    policy: str, hand: tuple[int, ...], other: tuple[int, ...] = (), higher: bool = True
) -> tuple[int, ...]:
    """The faces ``policy`` keeps from ``hand`` (a hand without a straight).

    Args:
        policy: a name of `KEEP_POLICIES`.
        hand: the side's faces.
        other: the other side's faces (read by ``race`` only).
        higher: the ``higher_straight_wins`` option (read by ``race`` only, Y-A13).

    Raises:
        InputError: an unknown policy, or ``race`` with a side of more than 6 dice.
    """
    if policy == "race":
        return race_keep(hand, other, higher_straight_wins=higher)
    if policy == "advised":
        return advised_keep(hand)
    if policy == "keep_best":
        return keep_best(hand)
    if policy == "keep_none":
        return ()
    raise InputError(N_("{policy!r} is not a keep policy"), policy=policy)


_KEPT: dict[tuple[str, tuple[int, ...], tuple[int, ...], bool], tuple[int, ...]] = {}


def _kept(
    policy: str, hand: tuple[int, ...], other: tuple[int, ...], higher: bool
) -> tuple[int, ...]:
    """`kept_by`, remembered for each policy and hands (a few thousand pairs at most)."""
    key = (policy, hand, other if policy == "race" else (), higher and policy == "race")
    kept = _KEPT.get(key)
    if kept is None:
        kept = _KEPT[key] = kept_by(policy, hand, other, higher)
    return kept


def _side_policy(name: str, side: str) -> Policy:
    """The keep policy ``name`` as one side follows it (``players`` or ``gm``)."""
    policy = KEEP_POLICIES[name]
    return Policy(f"{side}:{name}", policy.label, {**policy.settings, "side": side})


@dataclass(frozen=True)
class _GangTrial:
    """One trial: the fight played once per players' policy (picklable, for the workers)."""

    start: GangFight
    policies: tuple[str, ...]
    gm_keep: str

    def trial(self, chance: Chance, tally: Tally) -> None:
        higher = self.start.options.higher_straight_wins
        for policy in self.policies:
            fight = self.start
            while fight.result is None:
                keeps = (
                    Keeps()
                    if fight.throws == 0
                    else Keeps(
                        _kept(policy, fight.players_hand, fight.gm_hand, higher),
                        _kept(self.gm_keep, fight.gm_hand, fight.players_hand, higher),
                    )
                )
                fight, _ = next_throw(fight, keeps, chance)
            result = fight.result
            tally.count(f"{policy}:{_WORD[result.winner]}")
            tally.add(f"{policy}:throws", result.throws - self.start.throws)
            if result.inglorious:
                tally.count(f"{policy}:inglorious")


@dataclass(frozen=True)
class GangFightSim(Question):
    """A gang fight simulated to its end, for each keep policy of the players.

    Rows: one per players' keep policy (`KEEP_POLICIES`); measures: the players' chance of
    a win, a draw and a loss, of an inglorious end (won by the higher of two straights
    shown together), and the mean number of throws still to come (the first throw
    included, from the start). Every figure is an estimate with its 95% interval; the
    advised row, from the first throw with 4 to 6 dice a side and the GM's side advised too,
    carries the exact figures of `tablee.systems.ybs.gang_odds.gang_fight_odds`.

    Raises (from `answer`):
        InputError: faces given for one side only, faces that do not match the dice, or
            faces with which a side already shows a straight (the fight is over).

    Source: seed 004; Y-M7, Y-A13 (``higher_straight_wins``), Y-A14.
    """

    name: ClassVar[str] = "gang"
    title: ClassVar[str] = N_("A gang fight, simulated under keep policies")
    game: ClassVar[str] = "ybs"
    rule: ClassVar[str] = "Y-M7"
    simulated: ClassVar[bool] = True

    players_dice: Annotated[int, Param(N_("the players' dice"), low=4, high=8, rule="Y-M7")] = 5
    gm_side_dice: Annotated[int, Param(N_("the GM's side's dice"), low=4, high=8, rule="Y-M7")] = 5
    players_faces: Annotated[
        str,
        Param(
            N_("the faces in front of the players now (empty: before the first throw)"),
            placeholder="1,2,2,5,6",
            max_length=40,
        ),
    ] = ""
    gm_faces: Annotated[
        str,
        Param(
            N_("the faces in front of the GM's side now (empty: before the first throw)"),
            placeholder="1,1,3,4,6",
            max_length=40,
        ),
    ] = ""
    gm_keep: Annotated[
        KeepPolicy,
        Param(N_("what the GM's side keeps between throws"), option_labels=_POLICY_LABELS),
    ] = "race"
    higher_straight_wins: Annotated[
        bool, Param(N_("the higher of two straights shown together wins"), rule="Y-A13")
    ] = True
    trials: Annotated[int, Param(N_("fights simulated per policy"), low=1, high=200_000)] = 4000
    seed: Seed = 1

    def start(self) -> GangFight:
        """The fight to simulate: before its first throw, or after one with the faces given.

        Raises:
            InputError: see the class.
        """
        fight = GangFight(
            self.players_dice,
            self.gm_side_dice,
            GangOptions(higher_straight_wins=self.higher_straight_wins),
        )
        players = parse_faces(self.players_faces, D6)
        gm = parse_faces(self.gm_faces, D6)
        if not players and not gm:
            return fight
        if not players or not gm:
            raise InputError(
                N_("give the faces in front of both sides, or neither (rule Y-M7)"),
            )
        data = {**fight.to_json(), "throws": 1, "players_hand": list(players), "gm_hand": list(gm)}
        started = GangFight.from_json(data)
        if started.result is not None:
            raise InputError(
                N_("with these faces a side already shows a straight: the fight is over (Y-M7)")
            )
        return started

    def answer(self, context: LabContext) -> LabResult:
        """Simulate the fight ``trials`` times per players' policy (see the class)."""
        start = self.start()
        small = max(self.players_dice, self.gm_side_dice) <= 6
        if self.gm_keep == "race" and not small:
            raise InputError(
                N_(
                    "the race policy plays 4 to 6 dice a side: choose another policy for "
                    "the GM's side (Y-X9)"
                )
            )
        policies = tuple(p for p in KEEP_POLICIES if p != "race" or small)
        exact: dict[str, tuple[Fraction, Fraction, Fraction, Fraction | None]] = {}
        if start.throws == 0 and small and self.gm_keep == "advised":
            from tablee.systems.ybs.gang_odds import gang_fight_odds

            odds = gang_fight_odds(
                self.players_dice, self.gm_side_dice, higher_straight_wins=self.higher_straight_wins
            )
            exact["advised"] = (odds.win, odds.draw, odds.loss, odds.expected_throws)
        if start.throws == 0 and small and self.gm_keep == "race":
            race = race_start_odds(
                self.players_dice, self.gm_side_dice, higher_straight_wins=self.higher_straight_wins
            )
            if race.equilibrium:  # both sides then play the one pair of race policies
                exact["race"] = (race.win, race.draw, race.loss, None)
        # solved here once, before the workers start (a forked worker inherits the caches)
        for dice in {self.players_dice, self.gm_side_dice}:
            advised_keep((1,) * dice)
        if small:
            players, gm = (1,) * self.players_dice, (1,) * self.gm_side_dice
            race_keep(players, gm, higher_straight_wins=self.higher_straight_wins)
            race_keep(gm, players, higher_straight_wins=self.higher_straight_wins)
        run = run_simulation(
            _GangTrial(start, policies, self.gm_keep),
            self.trials,
            self.seed,
            workers=context.workers,
            progress=context.progress,
        )
        tally = run.tally
        rows: list[dict[str, Cell]] = []
        for policy in policies:
            known = exact.get(policy)
            row: dict[str, Cell] = {"players_keep": policy}
            for i, outcome in enumerate(_OUTCOMES):
                row[f"p_{outcome}"] = tally.proportion(
                    f"{policy}:{outcome}", exact=None if known is None else known[i]
                )
            row["p_inglorious"] = tally.proportion(f"{policy}:inglorious")
            row["throws"] = tally.mean(f"{policy}:throws", None if known is None else known[3])
            rows.append(row)
        columns = (
            Column("players_keep", N_("players keep"), "input"),
            Column("p_win", N_("players win"), percent=True),
            Column("p_draw", N_("draw"), percent=True),
            Column("p_loss", N_("players lose"), percent=True),
            Column("p_inglorious", N_("inglorious end"), percent=True),
            Column("throws", N_("mean throws")),
        )
        charts = (
            Chart("bars", N_("Players' win by keep policy"), x="players_keep", value="p_win"),
            Chart("bars", N_("Mean throws by keep policy"), x="players_keep", value="throws"),
        )
        notes = [
            N_(
                "Exact figures, where given, are the race from the first throw with both "
                "sides following the same policy (the advisor, or the race advice when its "
                "best responses settle)."
            )
        ]
        return self.result(
            columns=columns,
            rows=rows,
            charts=charts,
            policies=(
                *(_side_policy(p, "players") for p in policies),
                _side_policy(self.gm_keep, "gm"),
            ),
            notes=tuple(notes),
            run=run,
        )
