"""The scenario generator and the quest: d6 tables, exact odds, Sang, sitting out, the end."""

from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablee.dice import SeededSource, roll
from tablee.errors import InputError, RuleError
from tablee.systems.agents.agent import Reserve, create_agent
from tablee.systems.agents.generator import (
    CHALLENGE_GENERATOR,
    GENERATOR_OPTION_RULES,
    ChallengeInputs,
    GeneratorOptions,
    Relation,
    Source,
    challenge_distribution,
    opposition_score,
)
from tablee.systems.agents.quest import (
    QuestStatus,
    abandon_quest,
    apply_consequence,
    check_involved,
    draw_quest,
    generate_challenge,
    quest_status,
    start_scene,
    with_agent,
)
from tablee.systems.options import with_changes
from tablee.systems_io.agents_tables import starter_tables

TABLES = starter_tables("en")
ROWS_BY_TEXT = {0: 0, 1: 1, 2: 2, 3: 3}
"""Index -> the bonus of its row, read off G-N3 (row k + 1 adds k)."""


def _agents(*sangs):
    names = ["Ana", "Bo", "Cy", "Di", "Eve"]
    return [
        create_agent(names[i], muscles=7, sexe=5, intelligence=3).with_sang(s)
        for i, s in enumerate(sangs)
    ]


def _quest(*sangs, face=1):
    return draw_quest(_agents(*sangs), TABLES.objectives, [face]).quest


# -- the d6 tables, over every face ---------------------------------------------------------


@pytest.mark.parametrize("progress", [-3, 0, 1, 2, 3])
def test_every_roll_reads_the_tables(progress):
    inputs = ChallengeInputs(progress, 2)
    count = CHALLENGE_GENERATOR.dice_for(inputs).count
    assert count == (3 if progress == 3 else 4)
    for faces in product(range(1, 7), repeat=count):
        drawn = CHALLENGE_GENERATOR.resolve(inputs, faces)
        assert drawn.source is (Source.ENVIRONMENT if faces[0] <= 2 else Source.CREATURES)
        if progress == 3:
            assert drawn.relation is Relation.HOSTILE and drawn.relation_forced
            kind_face = faces[1]
        else:
            expected = {1: "hostile", 2: "hostile", 3: "neutral", 4: "neutral"}.get(
                faces[1], "benevolent"
            )
            assert drawn.relation.value == expected and not drawn.relation_forced
            kind_face = faces[2]
        kinds = [Reserve.MUSCLES] * 2 + [Reserve.SEXE] * 2 + [Reserve.INTELLIGENCE] * 2
        assert drawn.kind is kinds[kind_face - 1]
        row = ROWS_BY_TEXT[max(0, progress)]
        assert drawn.score == ([0, 1, 1, 2, 2, 3][faces[-1] - 1] + row) * 2
        assert drawn.faces == faces


@pytest.mark.parametrize("progress", [-1, 0, 1, 2, 3])
@pytest.mark.parametrize("involved", [1, 2, 5])
def test_score_odds_equal_icepool(progress, involved):
    ours = challenge_distribution(ChallengeInputs(progress, involved), lambda c: c.score)
    pool = ((icepool.d6 // 2) + max(0, progress)) * involved
    theirs = {int(k): Fraction(int(w), pool.denominator()) for k, w in pool.items()}
    assert {k: ours.probability(k) for k in ours.weights} == theirs


def test_relation_odds_and_the_showdown():
    open_odds = challenge_distribution(ChallengeInputs(2, 1), lambda c: c.relation)
    assert {r: open_odds.probability(r) for r in Relation} == {r: Fraction(1, 3) for r in Relation}
    showdown = challenge_distribution(ChallengeInputs(3, 1), lambda c: c.relation)
    assert showdown.probability(Relation.HOSTILE) == 1


def test_free_win_chance_at_index_zero():
    odds = challenge_distribution(ChallengeInputs(0, 3), lambda c: c.score == 0)
    assert odds.probability(True) == Fraction(1, 6)
    minimum = GeneratorOptions(opposition_minimum="one_per_agent")
    odds = challenge_distribution(ChallengeInputs(0, 3, minimum), lambda c: c.score == 0)
    assert odds.probability(True) == 0


def test_bad_generator_inputs():
    with pytest.raises(InputError, match="has ended the quest"):
        ChallengeInputs(4, 1)
    with pytest.raises(
        InputError, match=r"agents involved 0 must be a whole number from 1 to 100 \(rule G-M2\)"
    ):
        ChallengeInputs(0, 0)
    with pytest.raises(InputError, match="takes 4 d6, not 3"):
        CHALLENGE_GENERATOR.resolve(ChallengeInputs(0, 1), [1, 2, 3])
    with pytest.raises(InputError, match="not a face"):
        CHALLENGE_GENERATOR.resolve(ChallengeInputs(0, 1), [1, 2, 3, 7])
    with pytest.raises(InputError):
        opposition_score(0, 0, 1)


def test_options_read_from_text_and_from_a_wider_object():
    options = with_changes(
        GeneratorOptions(), {"opposition_rows": "literal"}, GENERATOR_OPTION_RULES
    )
    assert options.opposition_rows == "literal"
    with pytest.raises(InputError, match="opposition_rounding"):
        GeneratorOptions(opposition_rounding="nearest")


def test_seeded_draw_is_reproducible():
    inputs = ChallengeInputs(1, 2)
    assert roll(CHALLENGE_GENERATOR, inputs, SeededSource(7)) == roll(
        CHALLENGE_GENERATOR, inputs, SeededSource(7)
    )


# -- the quest ------------------------------------------------------------------------------


def test_draw_quest_keeps_the_objective_secret():
    drawn = draw_quest(_agents(3, 3), TABLES.objectives, [4])
    assert drawn.quest.objective == TABLES.objectives.entry_for(4)
    assert drawn.quest.progress == 0 and not drawn.quest.objective_revealed
    assert quest_status(drawn.quest) is QuestStatus.ONGOING
    assert len(drawn.trace) == 2
    with pytest.raises(InputError, match="distinct names"):
        draw_quest(_agents(3) * 2, TABLES.objectives, [1])
    with pytest.raises(InputError):
        draw_quest([], TABLES.objectives, [1])


def test_sang_zero_sits_out_the_next_scene_then_returns_at_one():
    quest = start_scene(_quest(1, 3)).quest
    hostile = generate_challenge(quest, ["Ana", "Bo"], [3, 1, 1, 1])
    quest = apply_consequence(quest, hostile, won=False).quest
    assert [a.sang for a in quest.agents] == [0, 2]
    with pytest.raises(RuleError, match="sits out"):
        check_involved(quest, ["Ana"])
    scene = start_scene(quest)
    assert scene.sitting_out == ("Ana",) and scene.returned == ()
    quest = scene.quest
    with pytest.raises(RuleError, match="G-A16"):
        generate_challenge(quest, ["Ana", "Bo"], [3, 3, 1, 1])
    neutral = generate_challenge(quest, ["Bo"], [3, 3, 1, 1])
    quest = apply_consequence(quest, neutral, won=True, winner="Bo").quest
    scene = start_scene(quest)
    assert scene.returned == ("Ana",) and scene.sitting_out == ()
    assert [a.sang for a in scene.quest.agents] == [1, 2]
    check_involved(scene.quest, ["Ana", "Bo"])


def test_quest_fails_when_nobody_has_sang_even_one_sitting_out():
    quest = start_scene(_quest(1, 1)).quest
    hostile = generate_challenge(quest, ["Ana"], [1, 1, 1, 1])
    quest = apply_consequence(quest, hostile, won=False).quest
    quest = start_scene(quest).quest
    neutral = generate_challenge(quest, ["Bo"], [1, 3, 1, 1])
    result = apply_consequence(quest, neutral, won=False)
    assert result.quest.status is QuestStatus.FAILED
    with pytest.raises(RuleError, match="quest is over"):
        start_scene(result.quest)


def test_a_whole_quest_to_index_four():
    quest = _quest(3, 3)
    for faces in ([3, 1, 1, 6], [3, 6, 3, 2], [3, 2, 5, 4], [3, 5, 6]):
        quest = start_scene(quest).quest
        challenge = generate_challenge(quest, ["Ana", "Bo"], faces)
        assert challenge.relation in (Relation.HOSTILE, Relation.BENEVOLENT)
        quest = apply_consequence(quest, challenge, won=True, winner="Ana").quest
    assert quest.progress == 4 and quest.status is QuestStatus.WON
    assert quest.wins_by_name() == {"Ana": 4, "Bo": 0}
    assert quest.objective_revealed and quest.challenges == 4


def test_consequence_input_errors():
    quest = _quest(3, 3)
    challenge = generate_challenge(quest, ["Ana"], [1, 1, 1, 6])
    with pytest.raises(InputError, match="G-M6"):
        apply_consequence(quest, challenge, won=True, winner="Bo")
    with pytest.raises(InputError, match="G-M6"):
        apply_consequence(quest, challenge, won=False, winner="Ana")
    bare = CHALLENGE_GENERATOR.resolve(ChallengeInputs(0, 1), [1, 1, 1, 6])
    with pytest.raises(InputError, match="names no involved agent"):
        apply_consequence(quest, bare, won=True)
    with pytest.raises(InputError, match="no agent called 'Zed'"):
        check_involved(quest, ["Zed"])
    with pytest.raises(InputError):
        check_involved(quest, ["Ana", "Ana"])


def test_abandon_and_with_agent():
    quest = _quest(3)
    tired = quest.agents[0].with_reserve(Reserve.MUSCLES, 2)
    assert with_agent(quest, tired).agents[0].reserve(Reserve.MUSCLES) == 2
    over = abandon_quest(quest)
    assert quest_status(over) is QuestStatus.ABANDONED
    with pytest.raises(RuleError):
        abandon_quest(over)


# -- invariants under random play ----------------------------------------------------------

_STEP = st.tuples(
    st.lists(st.integers(1, 6), min_size=4, max_size=4),
    st.integers(0, 31),
    st.booleans(),
    st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=5), st.lists(_STEP, max_size=40))
def test_quest_invariants(sangs, steps):
    quest = start_scene(_quest(*[max(1, s) for s in sangs])).quest
    highest = 0
    for faces, mask, won, name_winner in steps:
        if quest.status is not QuestStatus.ONGOING:
            with pytest.raises(RuleError):
                start_scene(quest)
            break
        able = [a.name for a in quest.agents if a.name not in quest.sitting_out and a.sang > 0]
        chosen = [n for i, n in enumerate(able) if mask >> i & 1] or able[:1]
        if not chosen:
            quest = start_scene(quest).quest
            continue
        need = CHALLENGE_GENERATOR.dice_for(ChallengeInputs(quest.progress, 1)).count
        challenge = generate_challenge(quest, chosen, faces[:need])
        before = quest
        winner = chosen[-1] if won and name_winner else None
        quest = apply_consequence(quest, challenge, won=won, winner=winner).quest
        assert abs(quest.progress - before.progress) <= 1
        assert -quest.challenges <= quest.progress <= 4
        assert all(0 <= a.sang <= 3 for a in quest.agents)
        for old, new in zip(before.agents, quest.agents, strict=True):
            if old.name not in chosen:
                assert old.sang == new.sang
        highest = max(highest, quest.progress)
        assert quest.objective_revealed is (highest >= 1)
        assert (quest.status is QuestStatus.WON) is (quest.progress == 4)
        assert (quest.status is QuestStatus.FAILED) is all(a.sang == 0 for a in quest.agents)
        assert sum(quest.wins) <= quest.challenges
        if quest.status is QuestStatus.ONGOING:
            quest = start_scene(quest).quest
            assert all(quest.agents[quest.index_of(n)].sang == 0 for n in quest.sitting_out)
