"""YBS lab tables against icepool and a closed form of each reading of s'entêter.

The closed form (written here from Y-M3 and Y-A3, not from the rule code): the first throw
succeeds on a natural 6, or a natural 2 to 5 with ``n + trait + force >= 4``; a reroll on a
natural 6, or a natural 2 to 5 with ``n + trait >= 4`` (forcing no longer counts). A
player who may s'entêter after any failure rerolls each failed throw while tokens last
(``repeat``) or once (``once``); after a natural 1 only (``one``), only a natural 1 is
rerolled.
"""

from collections import Counter
from fractions import Fraction

import icepool

from tablee.lab.questions import LabContext
from tablee.lab.ybs import Ichika, Straights, Tests, Zoromes

SIXTH = Fraction(1, 6)


def _succeeds(n: int, bonus: int) -> bool:
    return n == 6 or (n != 1 and n + bonus >= 4)


def _closed_form(trait: int, force: int, tokens: int, stubborn: str, on: str) -> Fraction:
    first = sum((SIXTH for n in range(1, 7) if _succeeds(n, trait + force)), Fraction(0))
    again = sum((SIXTH for n in range(1, 7) if _succeeds(n, trait)), Fraction(0))
    rerolls = tokens if stubborn == "repeat" else min(tokens, 1)
    if on == "any":
        after = 1 - (1 - again) ** rerolls  # every failed throw rerolled
        return first + (1 - first) * after
    after = Fraction(0)  # only a natural 1 rerolled, and a rerolled 1 again
    for _ in range(rerolls):
        after = again + SIXTH * after
    return first + SIXTH * after


def test_every_reading_equals_the_closed_form() -> None:
    result = Tests(max_tokens=4, compare="both").answer(LabContext())
    names = [v.name for v in result.variants]
    assert names == ["repeat_any", "repeat_one", "once_any", "once_one", "never"]
    for row in result.rows:
        if row["variant"] == "never":
            stubborn, on = "once", "any"
            tokens = 0
        else:
            stubborn, on = row["variant"].split("_")
            tokens = row["tokens"]
        expected = _closed_form(row["trait"], row["force"], tokens, stubborn, on)
        assert row["p_success"] == expected, row


def test_no_reroll_equals_icepool() -> None:
    result = Tests(max_tokens=2).answer(LabContext())
    for row in result.rows:
        if row["variant"] != "never" and row["tokens"]:
            continue
        die = icepool.d6.map(lambda n, b=row["trait"] + row["force"]: int(_succeeds(n, b)))
        assert row["p_success"] == Fraction(die.quantity(1), die.denominator()), row


def test_the_readings_side_by_side() -> None:
    result = Tests(max_tokens=3).answer(LabContext())
    rows = {(r["variant"], r["trait"], r["force"], r["tokens"]): r for r in result.rows}
    for (variant, trait, force, tokens), row in rows.items():
        never = rows["never", trait, force, tokens]
        if variant == "repeat" and tokens >= 2:
            assert row["p_success"] >= rows["once", trait, force, tokens]["p_success"]
        if tokens == 0:
            assert row["p_success"] == never["p_success"]
            # Y-A4: no token left after the roll, no critical success.
            assert row["p_critical"] == 0 and row["mean_rerolls"] == 0
        if variant == "never" and tokens >= 1:
            assert row["p_critical"] == SIXTH
    # Trait -2, no forcing, 3 tokens: rerolling repeatedly lifts 1/6 well above once.
    assert rows["repeat", -2, 0, 3]["p_success"] > rows["once", -2, 0, 3]["p_success"]


def test_straights_equal_icepool() -> None:
    result = Straights(max_dice=7, solo=False).answer(LabContext())
    for row in result.rows:
        die = icepool.d6.pool(row["dice"]).largest_straight_and_outcome()
        best: Counter[str] = Counter()
        for (length, top), weight in die.items():
            best[
                {6: "p_high", 5: "p_middle", 4: "p_low"}.get(top, "") if length >= 4 else "p_none"
            ] += weight
        for key, weight in best.items():
            assert row[key] == Fraction(weight, die.denominator()), (row["dice"], key)
        assert row["p_none"] + row["p_low"] + row["p_middle"] + row["p_high"] == 1
        assert row["p_straight"] == 1 - row["p_none"]
        assert row["mean_throws"] is None
    # Four dice: three runs, each in 4! orders.
    assert result.rows[3]["p_straight"] == Fraction(3 * 24, 6**4)


def test_solo_throws_need_four_dice_and_fall_with_more() -> None:
    result = Straights(max_dice=6).answer(LabContext())
    throws = [r["mean_throws"] for r in result.rows]
    assert throws[:3] == [None, None, None]
    assert throws[3] > throws[4] > throws[5] > 1


def test_zorome_shapes_equal_icepool() -> None:
    result = Zoromes(max_dice=6).answer(LabContext())
    for dice in range(1, 7):
        rows = {r["shape"]: r["p"] for r in result.rows if r["dice"] == dice}
        assert sum(rows.values()) == 1
        counts = icepool.d6.pool(dice).all_counts(filter=2)
        expected = {
            "+".join(str(c) for c in shape) or "-": Fraction(q, counts.denominator())
            for shape, q in counts.items()
        }
        assert rows == expected, dice
        # Y-A15, Y-T7: sets ranked by size first, so the shapes come in that order.
        shapes = [r["shape"] for r in result.rows if r["dice"] == dice]
        ranks = [tuple(int(n) for n in s.split("+")) if s != "-" else () for s in shapes]
        assert ranks == sorted(ranks)
    five = [r["shape"] for r in result.rows if r["dice"] == 5]
    assert five == ["-", "2", "2+2", "3", "3+2", "4", "5"]


def test_ichika_ties_drawn_or_rolled_again() -> None:
    result = Ichika(max_dice=6).answer(LabContext())
    rows = {(r["variant"], r["players_dice"], r["gm_dice"]): r for r in result.rows}
    for (variant, players, gm), row in rows.items():
        assert row["p_win"] + row["p_draw"] + row["p_loss"] == 1
        if players == gm:
            assert row["p_win"] == row["p_loss"]
        if variant == "reroll":
            # Y-A16: a tie thrown again until someone wins.
            drawn = rows["draw", players, gm]
            assert row["p_draw"] == 0
            assert row["p_win"] == drawn["p_win"] / (1 - drawn["p_draw"])
            assert row["mean_throws"] == 1 / (1 - drawn["p_draw"])


def test_ichika_five_dice_a_side_equals_icepool() -> None:
    # Y-A15, Y-A16: sets ranked by size then face, the next set breaking a tie.
    def zorome(*faces: int) -> tuple[tuple[int, int], ...]:
        counts = Counter(faces)
        return tuple(sorted(((c, f) for f, c in counts.items() if c >= 2), reverse=True))

    hand = icepool.d6.pool(5).expand().map(lambda faces: zorome(*faces))
    win = Fraction((hand > hand).quantity(True), (hand > hand).denominator())
    row = next(
        r
        for r in Ichika(max_dice=5).answer(LabContext()).rows
        if (r["variant"], r["players_dice"], r["gm_dice"]) == ("draw", 5, 5)
    )
    assert row["p_win"] == win
