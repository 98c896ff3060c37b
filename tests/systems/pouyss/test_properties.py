"""Properties of any sequence of Pouyss commands (Hypothesis).

Commands are decided by the plugin (`POUYSS.decide`) and their events folded with `evolve`.
A command the rules refuse (RuleError) adds no event. After every step the cagnotte is never
negative and equals the decided move's ``after``, and the stored event decided again against
the state before it gives the same payload; at the end, folding every event again from the
initial state gives the same state (replay equals state).
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from tablee.dice import SourceChance, TypedFaces
from tablee.errors import RuleError
from tablee.systems.pouyss import initial_state
from tablee.systems.pouyss.commands import (
    EndSession,
    Opposed,
    Penalty,
    Reward,
    Roll,
    StartSession,
)
from tablee.systems.pouyss.plugin import POUYSS

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


def _decide(state, command, faces=()):
    source = TypedFaces(faces)
    decision = POUYSS.decide(state, command, SourceChance(source))
    source.finish()
    return decision


def _faces(data, pool):
    return data.draw(st.lists(st.integers(1, 6), min_size=pool, max_size=pool))


def _start(state, data):
    cagnotte = data.draw(st.none() | st.integers(0, 4))
    carry = data.draw(st.sampled_from([None, False, True]))
    return _decide(state, StartSession(carry_over=carry, cagnotte=cagnotte))


def _roll(state, data):
    bonus, malus, imposed_bonus, imposed_malus = (data.draw(COUNT) for _ in range(4))
    double = data.draw(st.booleans()) and bonus + imposed_bonus > 0
    pool = 1 + bonus + imposed_bonus + int(double) + malus + imposed_malus
    command = Roll(
        player=data.draw(st.sampled_from(PLAYERS)),
        bonus=bonus,
        malus=malus,
        imposed_bonus=imposed_bonus,
        imposed_malus=imposed_malus,
        double_bonus=double,
    )
    return _decide(state, command, _faces(data, pool))


def _opposed(state, data):
    active_bonus, active_malus, passive_bonus, passive_malus = (data.draw(COUNT) for _ in range(4))
    npc = data.draw(st.booleans())
    command = Opposed(
        active="Simon",
        passive=None if npc else "Alice",
        passive_npc="Le Rôdeur" if npc else None,
        active_bonus=active_bonus,
        active_malus=active_malus,
        passive_bonus=passive_bonus,
        passive_malus=passive_malus,
    )
    pool = 1 + active_bonus + active_malus + passive_bonus + passive_malus
    return _decide(state, command, _faces(data, pool))


def _reward(state, data):
    return _decide(state, Reward(amount=data.draw(st.sampled_from([1, 2]))))


def _penalty(state, data):
    return _decide(state, Penalty(amount=data.draw(st.sampled_from([1, 2]))))


def _options(state, data):
    return POUYSS.change_options(state, data.draw(OPTIONS))


COMMANDS = {
    "start": _start,
    "end": lambda state, data: _decide(state, EndSession()),
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
            continue  # refused: no event, the state is left as it was
        before = state
        for fact in POUYSS.facts(decision):
            assert POUYSS.verify(before, fact.kind, fact.payload)[1] is None
            state = POUYSS.evolve(state, fact.kind, fact.payload)
            log.append(fact)
        assert state == decision.after
        move = getattr(decision.events[0], "cagnotte", None)
        if hasattr(move, "after"):
            assert state.cagnotte == move.after
        assert state.cagnotte is None or state.cagnotte >= 0
    replayed = initial_state(created)
    for fact in log:
        replayed = POUYSS.evolve(replayed, fact.kind, fact.payload)
    assert replayed == state
