"""The lab's exact tables against icepool computing the same tables.

For each exact lab question (its default fields, as ``tablee lab GAME NAME`` asks it), in
one process: CPU time (``time.process_time``) of ``answer`` and of icepool 2.1.3 building
the same figures, interleaved, ``-n`` rounds (default 3). The first round is "cold" for
Tablée (the rule code's caches cleared before it); icepool keeps its own caches, so only its
first round is cold. Every round checks that both give exactly the same fractions, else the
script stops. Tables icepool cannot express (an absorbing chain: a whole agents challenge,
the mean throws to a straight) are timed for Tablée alone.

Usage: ``.venv/bin/python benchmarks/bench_lab_exact.py [-n 3] [--json]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import icepool

from tablee.lab.agents import Action, ChallengeWin
from tablee.lab.pouyss import Opposed as PouyssOpposed
from tablee.lab.pouyss import Success
from tablee.lab.questions import LabContext, Question
from tablee.lab.shs import Cooperate, Ladder
from tablee.lab.shs import Opposed as ShsOpposed
from tablee.lab.ybs import Ichika, Straights, Tests, Zoromes

Rows = list[Mapping[str, Any]]


def _clear() -> None:
    from tablee.dice import enumeration
    from tablee.systems.agents.odds import result_weights
    from tablee.systems.pouyss.odds import _cumulative
    from tablee.systems.shs.odds import _action_dice_weights
    from tablee.systems.ybs import advisor, gang_odds

    enumeration._outcomes.cache_clear()
    result_weights.cache_clear()
    _cumulative.cache_clear()
    _action_dice_weights.cache_clear()
    advisor._solve.cache_clear()
    advisor._outcomes.cache_clear()
    gang_odds._side_step.cache_clear()


def _p(die: icepool.Die) -> Fraction:
    return Fraction(die.quantity(True), die.denominator())


# --- icepool's tables, each from the rule as the rulings state it --------------------------


def _pouyss_value(bonus: int, malus: int) -> icepool.Die:
    return icepool.d6.pool(1 + bonus + malus).highest(keep=1, drop=malus).sum()


def ice_pouyss_success(q: Success) -> Rows:
    rows = []
    for t in range(1, 7):
        for b in range(q.max_bonus + 1):
            for m in range(q.max_malus + 1):
                value = _pouyss_value(b, m)
                rows.append({"p_success": _p(value >= t), "p_triomphe": _p(value == 6)})
    return rows


def ice_pouyss_opposed(q: PouyssOpposed) -> Rows:
    rows = []
    for a in range(q.max_bonus + 1):
        for p in range(q.max_bonus + 1):
            value = _pouyss_value(a + q.passive_malus, q.active_malus + p)
            rows.append(
                {
                    "p_active_success": _p(value >= q.threshold),
                    "p_passive_success": _p(7 - value >= q.threshold),
                }
            )
    return rows


DPM = icepool.Die([1, 1, -1, -1, 0, 0])
PLUS, MINUS = DPM.map(lambda f: int(f == 1)), DPM.map(lambda f: int(f == -1))


def _shs_ps(threshold: int, d10: bool, net: int, sacrifice: bool = False) -> icepool.Die:
    ps = 3 @ ((icepool.d10 if d10 else icepool.d8) >= threshold)
    if net > 0:
        ps = ps + net @ PLUS
    elif net < 0:
        ps = ps - (-net) @ MINUS
    return ps + 2 if sacrifice else ps


def ice_shs_ladder(q: Ladder) -> Rows:
    rows = []
    for reading in ("net", "apart"):
        for option in ("none", "se_surpasser", "se_sacrifier"):
            for d10 in (False, True):
                for t in (5, 6, 7, 8):
                    for m in range(-q.max_modifier, q.max_modifier + 1):
                        extra = option != "none"
                        net = m + (2 if extra and reading == "net" else 0)
                        ps = _shs_ps(t, d10, net, option == "se_sacrifier")
                        if extra and reading == "apart":
                            ps = ps + 2 @ PLUS
                        for d in range(1, q.max_difficulty + 1):
                            rows.append({"p_success": _p(ps >= d)})
    return rows


def ice_shs_opposed(q: ShsOpposed) -> Rows:
    rows = []
    for reading in ("signed", "zero"):
        for one in (5, 6, 7, 8):
            for two in (5, 6, 7, 8):
                for m in range(-q.max_modifier, q.max_modifier + 1):
                    a, b = _shs_ps(one, False, m), _shs_ps(two, False, 0)
                    if reading == "zero":
                        a, b = a.map(lambda v: max(v, 0)), b.map(lambda v: max(v, 0))
                    wins = _p(a > b)
                    rows.append({"p_first": wins, "p_second": 1 - wins, "p_tie": _p(a == b)})
    return rows


def ice_shs_cooperation(q: Cooperate) -> Rows:
    rows = []
    for k in range(1, q.max_members + 1):
        for t in (5, 6, 7, 8):
            for d in range(1, q.max_difficulty + 1):
                p = _p(_shs_ps(t, False, 0 if k == 1 else 1) >= d)
                rows.append({"p_group": p if k == 1 else 1 - (1 - p) ** k})
    return rows


def _or_else(again: icepool.Die) -> Callable[[bool], object]:
    """A success stays; a failure throws ``again`` (a Die default argument confuses icepool)."""
    return lambda s: True if s else again


def ice_ybs_test(q: Tests) -> Rows:
    def succeeds(bonus: int) -> icepool.Die:
        return icepool.d6.map(lambda n: n == 6 or (n != 1 and n + bonus >= 4))

    rows = []
    for reading in ("repeat", "once", "never"):
        for trait in (-2, -1, 0, 1, 2):
            for force in range(4):
                for tokens in range(q.max_tokens + 1):
                    rerolls = {"repeat": tokens, "once": min(tokens, 1), "never": 0}[reading]
                    first = succeeds(trait + force)
                    if rerolls:
                        again = succeeds(trait).reroll([False], depth=rerolls - 1)
                        first = first.map(_or_else(again))
                    rows.append({"p_success": _p(first)})
    return rows


def ice_ybs_straights(q: Straights) -> Rows:
    rows = []
    for n in range(1, q.max_dice + 1):
        die = icepool.d6.pool(n).largest_straight_and_outcome()
        best: Counter[str] = Counter()
        for (length, top), weight in die.items():
            key = {6: "p_high", 5: "p_middle", 4: "p_low"}[top] if length >= 4 else "p_none"
            best[key] += weight
        rows.append(
            {
                k: Fraction(best[k], die.denominator())
                for k in ("p_none", "p_low", "p_middle", "p_high")
            }
        )
    return rows


def _shape(counts: tuple[int, ...]) -> str:
    return "+".join(str(c) for c in counts) or "-"


def ice_ybs_zorome(q: Zoromes) -> Rows:
    rows = []
    for n in range(1, q.max_dice + 1):
        die = icepool.d6.pool(n).all_counts(filter=2)
        ordered = sorted(die.items(), key=lambda item: item[0])
        rows += [{"p": Fraction(w, die.denominator())} for _, w in ordered]
    return rows


def _zorome(*faces: int) -> tuple[tuple[int, int], ...]:
    counts = Counter(faces)
    return tuple(sorted(((c, f) for f, c in counts.items() if c >= 2), reverse=True))


def ice_ybs_ichika(q: Ichika) -> Rows:
    hands = {
        n: icepool.d6.pool(n).expand().map(lambda f: _zorome(*f)) for n in range(2, q.max_dice + 1)
    }
    rows = []
    for tie in ("draw", "reroll"):
        for p in range(2, q.max_dice + 1):
            for g in range(2, q.max_dice + 1):
                win, loss = _p(hands[p] > hands[g]), _p(hands[p] < hands[g])
                if tie == "reroll":
                    win, loss = win / (win + loss), loss / (win + loss)
                rows.append({"p_win": win, "p_loss": loss})
    return rows


def ice_agents_action(q: Action) -> Rows:
    rows = []
    for low, high in ((-2, 3), (0, 2), (-1, 1)):
        for m in range(low, high + 1):
            roll = icepool.d6 + m
            rows.append({"p_critical": _p(roll >= 7), "p_failure": _p(roll <= 3)})
    return rows


CASES: list[tuple[Question, Callable[[Any], Rows] | None, str]] = [
    (Success(), ice_pouyss_success, "pouyss/success"),
    (PouyssOpposed(), ice_pouyss_opposed, "pouyss/opposed"),
    (Ladder(), ice_shs_ladder, "shs/ladder"),
    (ShsOpposed(), ice_shs_opposed, "shs/opposed"),
    (Cooperate(), ice_shs_cooperation, "shs/cooperation"),
    (Tests(), ice_ybs_test, "ybs/test"),
    (Straights(solo=False), ice_ybs_straights, "ybs/straights (one throw)"),
    (Straights(), None, "ybs/straights (with solo throws)"),
    (Zoromes(), ice_ybs_zorome, "ybs/zorome"),
    (Ichika(), ice_ybs_ichika, "ybs/ichika"),
    (Action(), ice_agents_action, "agents/action"),
    (ChallengeWin(), None, "agents/challenge (generated)"),
    (ChallengeWin(opposition="score"), None, "agents/challenge (score)"),
]


def _same(ours: Rows, theirs: Rows, label: str) -> None:
    if len(ours) != len(theirs):
        raise SystemExit(f"{label}: {len(ours)} rows, icepool {len(theirs)}")
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        for key, value in b.items():
            if a[key] != value:
                raise SystemExit(f"{label}: row {i} {key}: {a[key]} != icepool {value}")


def _timed(run: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    out = run()
    return time.process_time() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    results = []
    for question, ice, label in CASES:
        ours: list[float] = []
        theirs: list[float] = []
        rows = 0
        for round_ in range(args.n):
            if round_ == 0:
                _clear()
            took, result = _timed(lambda q=question: q.answer(LabContext()))
            ours.append(took)
            rows = len(result.rows)
            if ice is not None:
                took, table = _timed(lambda f=ice, q=question: f(q))
                theirs.append(took)
                _same(list(result.rows), table, label)
        results.append(
            {
                "table": label,
                "rows": rows,
                "tablee_cold_ms": ours[0] * 1000,
                "tablee_ms": statistics.median(ours[1:] or ours) * 1000,
                "icepool_cold_ms": theirs[0] * 1000 if theirs else None,
                "icepool_ms": statistics.median(theirs[1:] or theirs) * 1000 if theirs else None,
            }
        )
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        f"{'table':34} {'rows':>5} {'Tablée cold':>12} {'Tablée':>9} "
        f"{'icepool cold':>13} {'icepool':>9} {'icepool/Tablée':>15}"
    )
    for r in results:
        ice_cold = "-" if r["icepool_cold_ms"] is None else f"{r['icepool_cold_ms']:.1f}"
        ice = "-" if r["icepool_ms"] is None else f"{r['icepool_ms']:.1f}"
        ratio = (
            "-"
            if r["icepool_ms"] is None
            else f"{r['icepool_ms'] / max(r['tablee_ms'], 1e-6):.1f}x"
        )
        print(
            f"{r['table']:34} {r['rows']:>5} {r['tablee_cold_ms']:>12.1f} {r['tablee_ms']:>9.1f} "
            f"{ice_cold:>13} {ice:>9} {ratio:>15}"
        )
    print("CPU milliseconds (time.process_time); Tablée = median of the warm rounds.")


if __name__ == "__main__":
    main()
