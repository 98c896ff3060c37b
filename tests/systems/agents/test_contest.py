"""The artefact contest: the favori, the order of challengers, alliances, the end."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablee.errors import InputError, RuleError
from tablee.systems.agents.agent import Reserve, create_agent
from tablee.systems.agents.contest import (
    close_contest,
    launch_challenge,
    next_challengers,
    opposition_for,
    settle_challenge,
    start_contest,
)

NAMES = ["Ana", "Bo", "Cy", "Di", "Eve"]


def _agents(count=4):
    return [create_agent(n, muscles=7, sexe=5, intelligence=3) for n in NAMES[:count]]


def test_the_favori_gets_reserves_back():
    agents = _agents(3)
    agents[1] = agents[1].with_reserve(Reserve.MUSCLES, 1).with_reserve(Reserve.SEXE, 0)
    start = start_contest(agents, [0, 2, 1])
    assert start.contest.favori == start.contest.holder == "Bo"
    assert start.favori.current == (7, 5, 3)
    assert "Bo is the favori with 2 wins" in start.trace[0].render()


def test_a_lone_agent_keeps_the_artefact_at_once():
    start = start_contest(_agents(1), [0])
    assert start.contest.finished
    with pytest.raises(RuleError, match="contest is over"):
        next_challengers(start.contest, ["Ana"])


def test_bad_starts():
    with pytest.raises(InputError):
        start_contest([], [])
    with pytest.raises(InputError):
        start_contest(_agents(2), [1])
    with pytest.raises(
        InputError, match=r"^Bo's win count -1 must be a whole number 0 or more \(rule G-M12\)"
    ):
        start_contest(_agents(2), [1, -1])
    with pytest.raises(InputError, match="'Zed' cannot be the favori"):
        start_contest(_agents(2), [1, 0], favori="Zed")


def test_opposition_is_the_defenders_reserves():
    agents = _agents(4)
    agents[2] = agents[2].with_reserve(Reserve.SEXE, 2)
    contest = start_contest(agents, [3, 0, 1, 1]).contest
    alone = launch_challenge(contest, ["Bo"], Reserve.SEXE)
    assert alone.defenders == ("Ana",)
    assert opposition_for(alone, agents) == 5
    allied = launch_challenge(contest, ["Bo"], Reserve.SEXE, allies=["Cy"])
    assert allied.defenders == ("Ana", "Cy")
    assert opposition_for(allied, agents) == 7
    with pytest.raises(InputError, match="no agent record"):
        opposition_for(allied, agents[:2])


def test_sides_must_be_distinct():
    contest = start_contest(_agents(4), [3, 0, 1, 1]).contest
    with pytest.raises(InputError, match="distinct"):
        launch_challenge(contest, ["Bo"], Reserve.SEXE, allies=["Bo"])
    with pytest.raises(InputError, match="distinct"):
        launch_challenge(contest, [], Reserve.SEXE)
    with pytest.raises(InputError, match="distinct"):
        launch_challenge(contest, ["Bo"], Reserve.SEXE, allies=["Ana"])
    with pytest.raises(RuleError, match="cannot challenge Ana"):
        launch_challenge(contest, ["Ana"], Reserve.SEXE)
    with pytest.raises(InputError, match="twice"):
        launch_challenge(contest, ["Bo", "Bo"], Reserve.SEXE)


def test_an_alliance_names_its_taker():
    contest = start_contest(_agents(3), [2, 0, 0]).contest
    bout = launch_challenge(contest, ["Bo", "Cy"], Reserve.INTELLIGENCE)
    with pytest.raises(InputError, match="which of the winning challengers Bo, Cy") as left:
        settle_challenge(contest, bout, challengers_won=True)
    assert "None" not in str(left.value)
    assert "--taker" in left.value.render(cli=True)
    with pytest.raises(InputError, match="taker 'Ana'"):
        settle_challenge(contest, bout, challengers_won=True, taker="Ana")
    with pytest.raises(InputError, match="nobody takes"):
        settle_challenge(contest, bout, challengers_won=False, taker="Bo")
    step = settle_challenge(contest, bout, challengers_won=True, taker="Cy")
    assert step.holder == "Cy"
    # the partner may now challenge the taker (G-M12: they settle it between them)
    assert next_challengers(step.contest, ["Bo", "Ana"]) == ("Bo",)
    with pytest.raises(RuleError, match="launched against Ana"):
        settle_challenge(step.contest, bout, challengers_won=False)


def test_tied_fewest_wins_may_go_in_any_order():
    contest = start_contest(_agents(4), [3, 1, 1, 2]).contest
    assert next_challengers(contest, ["Bo", "Cy", "Di"]) == ("Bo", "Cy")
    launch_challenge(contest, ["Cy"], Reserve.MUSCLES, wanting=["Bo", "Di"])
    with pytest.raises(RuleError, match="Bo or Cy goes first"):
        launch_challenge(contest, ["Di"], Reserve.MUSCLES, wanting=["Bo", "Cy"])


def test_cannot_close_while_someone_wants_to_challenge():
    contest = start_contest(_agents(2), [1, 0]).contest
    with pytest.raises(RuleError, match="Bo still want"):
        close_contest(contest, ["Bo"])
    done = close_contest(contest, [])
    assert done.contest.finished and done.holder == "Ana"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 5), min_size=2, max_size=5),
    st.lists(st.tuples(st.integers(0, 31), st.booleans(), st.integers(0, 4)), max_size=60),
)
def test_contest_invariants(wins, script):
    agents = _agents(len(wins))
    best = max(wins)
    favori = NAMES[wins.index(best)]
    contest = start_contest(agents, wins, favori=favori).contest
    assert wins[NAMES.index(contest.favori)] == best
    for mask, won, pick in script:
        wanting = [n for i, n in enumerate(contest.agents) if mask >> i & 1]
        due = next_challengers(contest, wanting)
        if not due:
            contest = close_contest(contest, wanting).contest
            break
        eligible = [n for n in wanting if n != contest.holder and n not in contest.challenged]
        assert set(due) <= set(eligible)
        assert all(contest.wins_of(d) <= contest.wins_of(e) for d in due for e in eligible)
        alliance = [due[pick % len(due)]]
        bout = launch_challenge(contest, alliance, Reserve.SEXE, wanting=wanting)
        holder = contest.holder
        contest = settle_challenge(contest, bout, challengers_won=won).contest
        if won:
            assert contest.holder == alliance[0] and not contest.challenged
        else:
            assert contest.holder == holder and alliance[0] in contest.challenged
        assert contest.holder not in contest.challenged
    if contest.finished:
        with pytest.raises(RuleError):
            next_challengers(contest, [])
