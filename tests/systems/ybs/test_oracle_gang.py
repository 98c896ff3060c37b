"""The worked examples of tests/oracle/ybs/gang_examples.toml, replayed through the rules.

Gang fights run through the pure resolver with the typed faces, then again through the live
driver (`play_throw`) with a `TypedFaces` source, which must use every face.
"""

import tomllib
from itertools import pairwise
from pathlib import Path

import pytest

from tablee.dice import TypedFaces
from tablee.errors import InputError
from tablee.systems.ybs.gang import (
    GangFight,
    GangOptions,
    Hit,
    Keeps,
    dice_per_side,
    play_throw,
    resolve_throw,
)
from tablee.systems.ybs.ichika import (
    IchikaOptions,
    decide_encounter,
    ichika_hits,
    resolve_ichika,
    zorome_of,
)
from tablee.systems.ybs.straights import GangSide, best_straight

ORACLE = Path(__file__).parents[2] / "oracle" / "ybs" / "gang_examples.toml"
EXAMPLES = tomllib.loads(ORACLE.read_text(encoding="utf-8"))["example"]


def _side(word):
    return None if word == "none" else GangSide(word)


def _label(straight):
    return "none" if straight is None else straight.label


def _mark(hp, hits):
    """Marks after ``hits`` on an undamaged sheet, by the overflow rule Y-A19 (test-local)."""
    slashes = crosses = 0
    for hit in hits:
        free = hp - slashes - crosses
        if hit is Hit.UCHIMI and free:
            slashes += 1
        elif free:
            crosses += 1
        elif slashes:
            slashes, crosses = slashes - 1, crosses + 1
    return slashes, crosses


def _fight(inputs):
    options = GangOptions(higher_straight_wins=inputs["higher_straight_wins"])
    return GangFight(inputs["players_dice"], inputs["gm_dice"], options)


def _throws(example):
    for t in example["faces"]["throws"]:
        yield Keeps(tuple(t["keep_players"]), tuple(t["keep_gm"])), (t["players"], t["gm"])


def _kind_dice(example):
    i, e = example["inputs"], example["expected"]
    got = dice_per_side(
        _side(i["outnumbered"]), _side(i["outgunned"]), mixed_disadvantages=i["mixed"]
    )
    assert got == (e["players"], e["gm"])


def _kind_straight_order(example):
    best = [best_straight(h) for h in example["inputs"]["hands"]]
    assert [_label(s) for s in best] == example["expected"]["straights"]
    assert all(a < b for a, b in pairwise(best))


def _check_result(result, e):
    assert result.winner == _side(e["winner"])
    assert (result.draw, result.inglorious) == (e["draw"], e["inglorious"])
    assert (result.throws, result.minutes) == (e["throws"], e["minutes"])
    assert _label(result.players_straight) == e["players_straight"]
    assert _label(result.gm_straight) == e["gm_straight"]
    assert (result.players_uchimi, result.gm_uchimi) == (e["players_uchimi"], e["gm_uchimi"])
    for side in GangSide:
        assert result.hits_for(side) == (Hit.UCHIMI,) * result.uchimi_for(side)


def _kind_gang_fight(example):
    state, outcome = _fight(example["inputs"]), None
    for keeps, faces in _throws(example):
        assert not state.finished
        state, outcome = resolve_throw(state, keeps, faces)
    assert state.finished and outcome.result == state.result
    _check_result(state.result, example["expected"])
    assert state.minutes == example["expected"]["minutes"]
    # the live driver with typed-in faces gives the same fight
    live = _fight(example["inputs"])
    for keeps, (players, gm) in _throws(example):
        source = TypedFaces([*players, *gm])
        live, _ = play_throw(live, keeps, source)
        source.finish()
    assert live == state


def _kind_bad_keep(example):
    state = _fight(example["inputs"])
    *good, (keeps, faces) = list(_throws(example))
    for k, f in good:
        state, _ = resolve_throw(state, k, f)
    with pytest.raises(InputError) as caught:
        resolve_throw(state, keeps, faces)
    for word in example["expected"]["error"]:
        assert word in str(caught.value)


def _kind_zorome_order(example):
    z = [zorome_of(h) for h in example["inputs"]["hands"]]
    assert all(a < b for a, b in pairwise(z))


def _kind_zorome_tie(example):
    a, b = (zorome_of(h) for h in example["inputs"]["hands"])
    assert a == b
    outcome = resolve_ichika((example["inputs"]["hands"][0], example["inputs"]["hands"][1]))
    assert outcome.winner is None and outcome.draw


def _kind_ichika(example):
    f, e = example["faces"], example["expected"]
    outcome = resolve_ichika((f["players"], f["gm"]), IchikaOptions(tie=example["inputs"]["tie"]))
    assert outcome.winner == _side(e["winner"])
    assert (outcome.draw, outcome.reroll) == (e["draw"], e["reroll"])
    assert (outcome.players_uchimi, outcome.gm_uchimi) == (e["players_uchimi"], e["gm_uchimi"])


def _kind_ichika_hits(example):
    i, e = example["inputs"], example["expected"]
    hits = ichika_hits(i["uchimi"], i["hp"], loser=i["loser"])
    assert [h.value for h in hits] == e["hits"]
    assert _mark(i["hp"], hits) == (e["slashes"], e["crosses"])


def _kind_encounter(example):
    e = example["expected"]
    got = decide_encounter(example["inputs"]["choices"])
    assert (got.kind, list(got.fighters), list(got.fleeing)) == (
        e["kind"],
        e["fighters"],
        e["fleeing"],
    )


KINDS = {name[len("_kind_") :]: f for name, f in globals().items() if name.startswith("_kind_")}


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_worked_example(example):
    for key in ("id", "source", "kind", "description", "inputs", "expected"):
        assert key in example, key
    KINDS[example["kind"]](example)


def test_every_ruling_example_is_covered():
    ids = {e["id"] for e in EXAMPLES}
    assert {"Y-T3", "Y-T4", "Y-T5", "Y-T6", "Y-T7", "Y-T8", "Y-T9"} <= ids
    assert {e["kind"] for e in EXAMPLES} == set(KINDS)
