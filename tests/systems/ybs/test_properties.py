"""Hypothesis: any sequence of YBS commands through the service keeps the table sound.

After every command, refused or not: every token is with a player or the GM (the sum is the
supply, nobody holds a negative count), no character has more marked boxes than hit points,
a refused command stored nothing, and the state equals a fresh fold of the stored log.
"""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablee.errors import InputError, RuleError
from tablee.systems import ybs as Y
from tablee.table.projection import fold
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore

PLAYERS = ["A", "B"]
CHARS = ["Aki", "Bo", "Thug"]
TRAITS = [t.value for t in Y.Trait]

face = st.integers(1, 6)
char = st.sampled_from(CHARS)
test = st.tuples(
    st.just("test"),
    char,
    st.sampled_from(TRAITS),
    st.lists(char, max_size=2, unique=True),
    st.integers(0, 4),
    st.sampled_from(["plain", "gate", "attack", "defend"]),
    char,
    face,
)
commands = st.lists(
    st.one_of(
        test,
        st.tuples(st.just("reroll"), face),
        st.tuples(st.just("critical")),
        st.tuples(st.just("critical_failure")),
        st.tuples(st.just("session"), st.booleans()),
        st.tuples(st.just("invoke"), char),
        st.tuples(st.just("shichi"), st.sampled_from(PLAYERS)),
        st.tuples(st.just("damage"), char, st.integers(0, 4), st.integers(0, 2)),
        st.tuples(st.just("rest"), char, st.integers(0, 200)),
        st.tuples(st.just("round")),
        st.tuples(st.just("star"), char, st.sampled_from(TRAITS)),
        st.tuples(st.just("transfer"), char, st.sampled_from(TRAITS), st.sampled_from(TRAITS)),
        st.tuples(st.just("trauma"), char, st.sampled_from(TRAITS)),
        st.tuples(st.just("lift"), char, st.sampled_from(TRAITS)),
        st.tuples(st.just("heal"), char, st.integers(1, 3)),
        st.tuples(st.just("undo"), st.integers(0, 10)),
        st.tuples(st.just("gang_start"), st.lists(char, min_size=1, max_size=3, unique=True)),
        st.tuples(
            st.just("gang_throw"),
            st.lists(face, min_size=6, max_size=6),
            st.lists(face, min_size=6, max_size=6),
        ),
        st.tuples(
            st.just("ichika"),
            st.sampled_from(["flee", "gang_fight", "ichika_bachika"]),
            st.lists(face, min_size=5, max_size=5),
            st.lists(face, min_size=5, max_size=5),
        ),
    ),
    max_size=30,
)


def decider(c: tuple[Any, ...]):
    kind = c[0]
    if kind == "test":
        _, who, trait, helpers, force, purpose, other, f = c
        return lambda g: Y.decide_test(
            g,
            character=who,
            trait=trait,
            assistants=helpers,
            force=force,
            purpose=purpose,
            target=other,
            against=other,
            faces=[f],
        )
    if kind == "reroll":
        return lambda g: Y.decide_reroll(g, faces=[c[1]])
    if kind == "critical":
        return Y.decide_critical
    if kind == "critical_failure":
        return Y.decide_critical_failure
    if kind == "session":
        return Y.decide_start_session if c[1] else Y.decide_end_session
    if kind == "invoke":
        return lambda g: Y.decide_invoke(g, character=c[1], attribute="bold")
    if kind == "shichi":
        return lambda g: Y.decide_shichi_fukujin(g, player=c[1])
    if kind == "damage":
        return lambda g: Y.decide_damage(g, character=c[1], uchimi=c[2], kega=c[3])
    if kind == "rest":
        return lambda g: Y.decide_rest(g, character=c[1], minutes=c[2])
    if kind == "round":
        return Y.decide_round
    if kind == "gang_start":
        return lambda g: Y.decide_gang_start(
            g,
            fighters=[n for n in c[1] if n != "Thug"],
            opponents=["Thug"] if "Thug" in c[1] else [],
        )
    if kind == "gang_throw":
        return lambda g: Y.decide_gang_throw(
            g,
            faces=c[1][: g.gang.fight.players_dice] if g.gang else [],
            gm_faces=c[2][: g.gang.fight.gm_dice] if g.gang else [],
        )
    if kind == "ichika":
        bachika = c[1] == "ichika_bachika"
        return lambda g: Y.decide_encounter_at_table(
            g,
            choices={"A": c[1], "B": "flee"},
            opponents=["Thug"] if c[1] != "flee" else [],
            faces=c[2] if bachika else [],
            gm_faces=c[3] if bachika else [],
        )
    if kind == "star":
        return lambda g: Y.decide_star(g, character=c[1], trait=c[2])
    if kind == "trauma":
        return lambda g: Y.decide_trauma(g, character=c[1], trait=c[2])
    if kind == "lift":
        return lambda g: Y.decide_lift_trauma(g, character=c[1], trait=c[2])
    if kind == "heal":
        return lambda g: Y.decide_heal_kega(g, character=c[1], count=c[2])
    return lambda g: Y.decide_transfer(g, character=c[1], lower=c[2], raise_=c[3])


def _sound(state) -> None:
    ledger = state.game.ledger
    assert ledger.gm >= 0 and all(n >= 0 for n in ledger.players.values())
    assert ledger.gm + sum(ledger.players.values()) == ledger.supply
    for hero in state.game.characters.values():
        assert 0 <= hero.uchimi + hero.kega <= hero.hit_points


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(commands)
def test_any_command_sequence_keeps_tokens_and_boxes_sound(sequence):
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "y.sqlite3")
        try:
            service = TableService(store)
            name = f"t-{uuid.uuid4().hex[:8]}"
            service.create(
                system="ybs", name=name, players=PLAYERS, lang="en", options={"token_supply": "12"}
            )
            for hero, owner, nintai in (("Aki", "A", 1), ("Bo", "B", 0), ("Thug", None, -1)):
                service.execute(
                    name,
                    lambda s, h=hero, o=owner, n=nintai: Y.decide_create(
                        s.game,
                        name=h,
                        traits={**dict.fromkeys(TRAITS, 0), "nintai": n},
                        attributes=["bold"],
                        owner=o,
                    ),
                    lambda d: d.facts,
                )
            for command in sequence:
                before = store.load(service.info(name).id)
                try:
                    if command[0] == "undo":
                        service.undo(name, seq=command[1] or None)
                    else:
                        decide = decider(command)
                        service.execute(name, lambda s, d=decide: d(s.game), lambda d: d.facts)
                except (RuleError, InputError):
                    assert store.load(service.info(name).id) == before
                state = service.state(name)
                _sound(state)
                assert fold(store.load(state.table_id)) == state
        finally:
            store.close()
