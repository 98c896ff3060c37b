"""The generator, consequence and contest examples (tests/oracle/agents/generator_examples.toml).

Generated challenges are drawn by the pure resolver and by `tablee.dice.roll` with typed-in
faces; consequences are applied to a quest built from the inputs; contests are scripted.
"""

import tomllib
from pathlib import Path

import pytest

from tablee import errors
from tablee.dice import TypedFaces, roll
from tablee.systems.agents.agent import Agent, create_agent, reserve_named
from tablee.systems.agents.contest import (
    close_contest as close,
)
from tablee.systems.agents.contest import (
    launch_challenge,
    next_challengers,
    settle_challenge,
    start_contest,
)
from tablee.systems.agents.generator import (
    CHALLENGE_GENERATOR,
    ChallengeInputs,
    GeneratedChallenge,
    GeneratorOptions,
    Relation,
    Source,
    opposition_score,
)
from tablee.systems.agents.quest import Quest, apply_consequence, generate_challenge
from tablee.systems.agents.tables import Entry

ORACLE = Path(__file__).parents[2] / "oracle" / "agents" / "generator_examples.toml"
EXAMPLES = tomllib.loads(ORACLE.read_text(encoding="utf-8"))["example"]
OBJECTIVE = Entry(1, 1, "The test objective", 1)


def _by_kind(kind):
    return [pytest.param(e, id=e["id"]) for e in EXAMPLES if e["kind"] == kind]


def _agent(name: str, sang: int = 3) -> Agent:
    return create_agent(name, muscles=7, sexe=5, intelligence=3).with_sang(sang)


def test_every_kind_is_tested():
    kinds = {e["kind"] for e in EXAMPLES}
    assert kinds == {"opposition", "generate", "split", "consequence", "contest"}


@pytest.mark.parametrize("example", _by_kind("opposition"))
def test_opposition(example):
    i = example["inputs"]
    options = GeneratorOptions(**i.get("options", {}))
    score = opposition_score(i["progress"], i["face"], i["involved"], options)
    assert score == example["expected"]["score"]


@pytest.mark.parametrize("example", _by_kind("generate"))
def test_generate(example):
    i, e = example["inputs"], example["expected"]
    inputs = ChallengeInputs(i["progress"], i["involved"])
    assert CHALLENGE_GENERATOR.dice_for(inputs).count == e["dice"]
    direct = CHALLENGE_GENERATOR.resolve(inputs, example["faces"])
    typed = TypedFaces(example["faces"])
    rolled = roll(CHALLENGE_GENERATOR, inputs, typed)
    typed.finish()
    for drawn in (direct, rolled):
        assert drawn.source is Source(e["source"])
        assert drawn.relation is Relation(e["relation"])
        assert drawn.relation_forced is e["relation_forced"]
        assert drawn.kind is reserve_named(e["kind"])
        assert drawn.score == e["score"]
        assert len(drawn.trace) == 4


@pytest.mark.parametrize("example", _by_kind("split"))
def test_split_groups(example):
    i, e = example["inputs"], example["expected"]
    names = [n for group in i["groups"] for n in group]
    quest = Quest(OBJECTIVE, 1, tuple(_agent(n) for n in names), (0,) * len(names), i["progress"])
    drawn = [
        generate_challenge(quest, group, faces)
        for group, faces in zip(i["groups"], example["faces"], strict=True)
    ]
    assert len(drawn) == e["challenges"]
    assert [len(c.involved) for c in drawn] == e["involved"]
    assert [c.score for c in drawn] == e["scores"]
    assert [c.kind.value for c in drawn] == e["kinds"]


@pytest.mark.parametrize("example", _by_kind("consequence"))
def test_consequence(example):
    i, e = example["inputs"], example["expected"]
    agents = tuple(_agent(n, s) for n, s in i["sang"].items())
    quest = Quest(
        OBJECTIVE, 1, agents, (0,) * len(agents), i["progress"], objective_revealed=i["revealed"]
    )
    challenge = GeneratedChallenge(
        progress=i["progress"],
        source=Source.CREATURES,
        relation=Relation(i["relation"]),
        relation_forced=False,
        kind=reserve_named("muscles"),
        opposition_face=1,
        score=1,
        involved=tuple(i["involved"]),
        faces=(),
        trace=(),
    )
    result = apply_consequence(quest, challenge, won=i["won"], winner=i.get("winner"))
    after = result.quest
    assert after.progress == e["progress"]
    assert {a.name: a.sang for a in after.agents} == e["sang"]
    assert result.helped is e["helped"]
    assert result.revealed_now is e["revealed_now"]
    assert after.objective_revealed is (i["revealed"] or e["revealed_now"])
    assert after.status.value == e["status"]
    assert after.wins_by_name() == e["wins"]


def _contest_step(contest, launched, step):
    if step["do"] == "due":
        assert list(next_challengers(contest, step["wanting"])) == step["expect"]
        return contest, launched
    if step["do"] == "launch":
        call = lambda: launch_challenge(  # noqa: E731
            contest,
            step["challengers"],
            reserve_named(step["attribute"]),
            wanting=step.get("wanting", ()),
        )
        if "error" in step:
            with pytest.raises(getattr(errors, step["error"])):
                call()
            return contest, launched
        launched = call()
        assert list(launched.challengers) == step["expect"]
        assert launched.defenders[0] == contest.holder
        return contest, launched
    if step["do"] == "settle":
        done = settle_challenge(
            contest, launched, challengers_won=step["won"], taker=step.get("taker")
        )
        assert done.holder == step["expect"]
        return done.contest, None
    done = close(contest, step["wanting"])
    assert done.contest.finished
    assert done.holder == step["expect"]
    return done.contest, None


@pytest.mark.parametrize("example", _by_kind("contest"))
def test_contest(example):
    i, e = example["inputs"], example["expected"]
    agents = [_agent(n) for n in i["wins"]]
    wins = list(i["wins"].values())
    if "favori_error" in e:
        with pytest.raises(getattr(errors, e["favori_error"])):
            start_contest(agents, wins)
        with pytest.raises(getattr(errors, e["bad_favori_error"])):
            start_contest(agents, wins, favori=e["bad_favori"])
        assert (
            start_contest(agents, wins, favori=e["named_favori"]).contest.holder
            == (e["named_favori"])
        )
        return
    start = start_contest(agents, wins)
    assert start.contest.favori == e["favori"]
    contest, launched = start.contest, None
    for step in example["steps"]:
        contest, launched = _contest_step(contest, launched, step)
    assert contest.holder == e["holder"]
    assert contest.bouts == e["bouts"]
