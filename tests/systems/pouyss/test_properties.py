"""Properties of any sequence of Pouyss commands (Hypothesis).

Commands go through ``decide_*`` and their facts through `evolve`. A command the rules refuse
(RuleError) adds no fact. After every step the cagnotte is never negative and equals the
decided move's ``after``; at the end, folding every fact again from the initial state gives
the same state (replay equals state).
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from tablee.errors import RuleError
from tablee.systems.pouyss import (
    OpposedRoll,
    decide_end_session,
    decide_opposed,
    decide_options,
    decide_penalty,
    decide_reward,
    decide_roll,
    decide_start_session,
    evolve,
    initial_state,
)

PLAYERS = ["Simon", "Alice"]
COUNT = st.integers(0, 3)
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "bonus_cap": st.sampled_from(["none", "0", "1", "3"]),
        "bonus_dice_return": st.sampled_from(["true", "false"]),
        "penalty_floor": st.sampled_from(["clamp", "refuse"]),
        "opposed_accounting": st.sampled_from(["roll", "sides"]),
        "reward_limit_scope": st.sampled_from(["session", "campaign"]),
        "carry_over": st.sampled_from(["true", "false"]),
    },
)


def _faces(data, pool):
    return data.draw(st.lists(st.integers(1, 6), min_size=pool, max_size=pool))


def _start(state, data):
    cagnotte = data.draw(st.none() | st.integers(0, 4))
    carry = data.draw(st.sampled_from([None, False, True]))
    return decide_start_session(state, carry_over=carry, cagnotte=cagnotte)


def _roll(state, data):
    bonus, malus, imposed_bonus, imposed_malus = (data.draw(COUNT) for _ in range(4))
    double = data.draw(st.booleans()) and bonus + imposed_bonus > 0
    pool = 1 + bonus + imposed_bonus + int(double) + malus + imposed_malus
    return decide_roll(
        state,
        player=data.draw(st.sampled_from(PLAYERS)),
        bonus=bonus,
        malus=malus,
        imposed_bonus=imposed_bonus,
        imposed_malus=imposed_malus,
        double_bonus=double,
        faces=_faces(data, pool),
    )


def _opposed(state, data):
    counts = OpposedRoll(*(data.draw(COUNT) for _ in range(4)))
    npc = data.draw(st.booleans())
    return decide_opposed(
        state,
        active="Simon",
        passive="Le Rôdeur" if npc else "Alice",
        passive_is_npc=npc,
        counts=counts,
        faces=_faces(data, counts.as_action().pool),
    )


def _reward(state, data):
    return decide_reward(state, amount=data.draw(st.sampled_from([1, 2])))


def _penalty(state, data):
    return decide_penalty(state, amount=data.draw(st.sampled_from([1, 2])))


def _options(state, data):
    return decide_options(state, data.draw(OPTIONS))


COMMANDS = {
    "start": _start,
    "end": lambda state, data: decide_end_session(state),
    "roll": _roll,
    "opposed": _opposed,
    "reward": _reward,
    "penalty": _penalty,
    "options": _options,
}


@settings(max_examples=200, deadline=None)
@given(data=st.data(), options=OPTIONS)
def test_any_command_sequence_keeps_the_cagnotte_valid_and_replays(data, options):
    created = {"players": PLAYERS, "options": options}
    state = initial_state(created)
    log = []
    steps = data.draw(st.lists(st.sampled_from(sorted(COMMANDS)), max_size=30))
    for name in ["start", *steps]:
        try:
            decision = COMMANDS[name](state, data)
        except RuleError:
            continue  # refused: no fact, the state is left as it was
        for fact in decision.facts:
            state = evolve(state, fact.kind, fact.payload)
            log.append(fact)
        if decision.move is not None:
            assert state.cagnotte == decision.move.after
        assert state.cagnotte is None or state.cagnotte >= 0
    replayed = initial_state(created)
    for fact in log:
        replayed = evolve(replayed, fact.kind, fact.payload)
    assert replayed == state
