"""The text's worked examples (tests/oracle/ybs/examples.toml), replayed through the rules.

Test rows are resolved by the pure resolver and by the live driver with typed-in faces, and
must be possible under the exact odds. The gang-fight and Zorome rows are run by
`test_oracle_gang_rows` through the gang-fight modules.
"""

import tomllib
from itertools import pairwise
from pathlib import Path

import pytest

from tablee.dice import TypedFaces, roll
from tablee.systems.ybs import (
    TEST,
    Boxes,
    Trait,
    YbsTest,
    award_star,
    create_character,
    hit_points,
    odds_of_test,
    resolve_test,
    rest,
    rest_minutes,
    spread_warnings,
    take_damage,
    trauma,
)

ORACLE = Path(__file__).parents[2] / "oracle" / "ybs" / "examples.toml"
EXAMPLES = tomllib.loads(ORACLE.read_text(encoding="utf-8"))["example"]
GANG_KINDS = {"gang_dice", "straights", "same_straight", "gang_damage", "zorome"}
MINE = [e for e in EXAMPLES if e["kind"] not in GANG_KINDS]
GANG = [e for e in EXAMPLES if e["kind"] in GANG_KINDS]


def test_every_ruling_example_is_in_the_oracle():
    ids = {e["id"].rstrip("ab") for e in EXAMPLES}
    assert {f"Y-T{i}" for i in range(1, 13)} <= ids


def _hero(**traits):
    base = dict.fromkeys((t.value for t in Trait), 0)
    return create_character("Aki", {**base, **traits})


@pytest.mark.parametrize("example", MINE, ids=[e["id"] for e in MINE])
def test_example(example):
    kind, i, x = example["kind"], example["inputs"], example["expected"]
    if kind == "hit_points":
        assert [hit_points(c) for c in i["choushi"]] == x["hit_points"]
    elif kind == "rest":
        marked = take_damage(Boxes(i["hp"]), uchimi=i["uchimi"])
        assert rest_minutes(marked.uchimi) == x["minutes"]
        assert rest(marked, x["minutes"])[0].uchimi == x["uchimi_after"]
        assert rest(marked, x["minutes"] - 1)[0].uchimi == x["uchimi_after"] + 1
    elif kind == "damage":
        boxes = take_damage(Boxes(i["hp"]), uchimi=i["uchimi"], kega=i["kega"])
        assert (boxes.uchimi, boxes.kega) == (x["uchimi"], x["kega"])
    elif kind == "trauma":
        hero = _hero(kiyousa=i["trait"])
        hero = hero.__class__(hero.name, hero.traits, kega=i["kega"])
        assert trauma(hero, Trait.KIYOUSA).trait(Trait.KIYOUSA) == x["value"]
    elif kind == "spread":
        assert (spread_warnings(i["traits"]) == ()) is x["default"]
    elif kind == "star":
        hero = _hero(chisei=i["value"])
        for _ in range(i["stars"]):
            hero = award_star(hero, Trait.CHISEI).hero
        for _ in range(i["awarded"]):
            hero = award_star(hero, Trait.CHISEI).hero
        assert (hero.trait(Trait.CHISEI), hero.star_count(Trait.CHISEI)) == (x["value"], x["stars"])
    elif kind == "test":
        _check_test(i, x)
    else:
        raise AssertionError(f"unknown kind {kind}")


@pytest.mark.parametrize("example", GANG, ids=[e["id"] for e in GANG])
def test_gang_example(example):
    from tablee.systems.ybs.gang import GangFight, Keeps, dice_per_side, resolve_throw
    from tablee.systems.ybs.ichika import zorome_of
    from tablee.systems.ybs.straights import GangSide, best_straight

    kind, i, x = example["kind"], example["inputs"], example["expected"]
    if kind == "gang_dice":

        def who(disadvantage):
            sides = [
                side
                for side, listed in (
                    (GangSide.PLAYERS, i["players_disadvantages"]),
                    (GangSide.GM, i["gm_disadvantages"]),
                )
                if disadvantage in listed
            ]
            assert len(sides) <= 1, "a disadvantage belongs to one side"
            return sides[0] if sides else None

        assert dice_per_side(who("numbers"), who("weapons")) == (x["players"], x["gm"])
    elif kind == "straights":
        ranks = [best_straight(h) for h in i["hands"]]
        assert all(a < b for a, b in pairwise(ranks))
    elif kind == "zorome":
        ranks = [zorome_of(h) for h in i["hands"]]
        assert all(a < b for a, b in pairwise(ranks))
    else:
        players, gm = i["players"], i["gm"]
        _, outcome = resolve_throw(GangFight(5, 5), Keeps(), (players, gm))
        result = outcome.result
        if kind == "same_straight":
            assert result.winner is None and result.players_uchimi == x["uchimi_each"]
            assert result.gm_uchimi == x["uchimi_each"]
        else:
            winner = GangSide(i["winner"])
            assert result.winner is winner
            loser = GangSide.GM if winner is GangSide.PLAYERS else GangSide.PLAYERS
            assert (result.uchimi_for(winner), result.uchimi_for(loser)) == (
                x["winner_uchimi"],
                x["loser_uchimi"],
            )


def _check_test(i, x):
    test = YbsTest(
        i["trait"],
        i["force"],
        i["tokens"],
        critical=i.get("critical", False),
        critical_failure=i.get("critical_failure", False),
    )
    result = resolve_test(test, i["faces"])
    got = {k: getattr(result, k) for k in x}
    assert got == x
    if len(i["faces"]) == 1:
        typed = TypedFaces(i["faces"])
        assert roll(TEST, test, typed) == result
        typed.finish()
    odds = odds_of_test(i["trait"], force=i["force"], tokens=i["tokens"], policy="any")
    assert 0 < odds.success < 1
