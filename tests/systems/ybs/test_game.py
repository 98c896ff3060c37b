"""A YBS table through the service: tokens, tests, fights, evolution, replay and bad input.

Every refused command leaves the stored log as it was (same length, same events).
"""

from pathlib import Path

import pytest

from tablee.errors import InputError, RuleError
from tablee.systems import ybs as Y
from tablee.table.projection import fold, verify_log
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore

ZERO = dict.fromkeys((t.value for t in Y.Trait), 0)


@pytest.fixture
def service(tmp_path: Path):
    store = SqliteStore(tmp_path / "y.sqlite3")
    svc = TableService(store)
    svc.create(system="ybs", name="t", players=["A", "B"], lang="en")
    yield svc
    store.close()


def run(svc, decide):
    return svc.execute("t", lambda s: decide(s.game), lambda d: d.facts)


def refused(svc, decide, error=RuleError, match=None):
    before = svc.store.load(svc.info("t").id)
    with pytest.raises(error, match=match):
        run(svc, decide)
    assert svc.store.load(svc.info("t").id) == before


@pytest.fixture
def table(service):
    run(
        service,
        lambda g: Y.decide_create(
            g,
            name="Aki",
            traits={**ZERO, "choushi": 1, "kiyousa": 1, "chikaku": -1},
            attributes=["surfer"],
            owner="A",
        ),
    )
    run(service, lambda g: Y.decide_create(g, name="Bo", traits={**ZERO, "nintai": 1}, owner="B"))
    run(service, lambda g: Y.decide_create(g, name="Thug", traits={**ZERO, "choushi": 1}))
    run(service, Y.decide_start_session)
    return service


def tokens(svc):
    ledger = svc.state("t").game.ledger
    assert ledger.gm + sum(ledger.players.values()) == ledger.supply
    return dict(ledger.players)


def test_a_session_gives_two_tokens_and_takes_them_back(table):
    assert tokens(table) == {"A": 2, "B": 2}
    run(table, lambda g: Y.decide_invoke(g, character="aki", attribute="SURFER"))
    assert tokens(table) == {"A": 3, "B": 2}
    run(table, Y.decide_end_session)
    assert tokens(table) == {"A": 0, "B": 0}
    run(table, Y.decide_start_session)
    assert tokens(table) == {"A": 2, "B": 2}


def test_a_test_moves_assist_force_reroll_and_critical_tokens(table):
    applied = run(
        table,
        lambda g: Y.decide_test(
            g, character="Aki", trait="kiyousa", assistants=["Bo"], force=1, faces=[2]
        ),
    )
    moves = applied.events[-1].payload["moves"]
    assert [(m["from"], m["to"], m["count"], m["reason"]) for m in moves] == [
        ("B", "A", 1, "assist"),
        ("A", "gm", 1, "force"),
    ]
    assert applied.events[-1].payload["modified"] == 4 and applied.events[-1].payload["success"]
    run(table, lambda g: Y.decide_reroll(g, faces=[6]))
    run(table, Y.decide_critical)
    assert tokens(table) == {"A": 0, "B": 1}
    refused(table, Y.decide_critical, match="no test in progress|already decided")


def test_a_gm_character_rolls_without_tokens(table):
    refused(
        table,
        lambda g: Y.decide_test(g, character="Thug", trait="choushi", force=1, faces=[3]),
        match="GM character",
    )
    refused(
        table,
        lambda g: Y.decide_test(
            g, character="Thug", trait="choushi", assistants=["Aki"], faces=[3]
        ),
    )
    run(table, lambda g: Y.decide_test(g, character="Thug", trait="choushi", faces=[1]))
    run(table, Y.decide_critical_failure)  # no token moves for a GM character
    assert tokens(table) == {"A": 2, "B": 2}


def test_bad_input_is_refused_and_nothing_is_stored(table):
    refused(
        table,
        lambda g: Y.decide_test(g, character="Aki", trait="chisei", force=4, faces=[3]),
        InputError,
        "force 4 must be a whole number from 0 to 3",
    )
    refused(
        table,
        lambda g: Y.decide_test(g, character="Aki", trait="chisei", force=3, faces=[3]),
        RuleError,
        "cannot give 3",
    )
    refused(
        table,
        lambda g: Y.decide_shichi_fukujin(g, player="A", proposal="a lucky wave"),
        RuleError,
        "needs 7",
    )
    refused(
        table,
        lambda g: Y.decide_create(
            g, name="Cy", traits={**ZERO, "chisei": 2, "nintai": 2, "yuuben": 2}
        ),
        InputError,
        "at most two",
    )
    refused(
        table,
        lambda g: Y.decide_create(g, name="Cy", traits={**ZERO, "chisei": 3}),
        InputError,
        "Chisei 3 must be a whole number from -2 to 2",
    )
    refused(
        table,
        lambda g: Y.decide_test(g, character="Nobody", trait="chisei", faces=[3]),
        InputError,
        "no character",
    )
    refused(
        table,
        lambda g: Y.decide_test(g, character="Aki", trait="chisei", faces=[7]),
        InputError,
        "face 7",
    )
    refused(table, lambda g: Y.decide_reroll(g, faces=[3]), RuleError, "no test in progress")


def test_shichi_fukujin_spends_seven(table):
    for _ in range(5):
        run(table, lambda g: Y.decide_invoke(g, character="Aki", attribute="surfer"))
    run(table, lambda g: Y.decide_shichi_fukujin(g, player="a", proposal="the tide turns"))
    assert tokens(table)["A"] == 0


def test_a_fight_round_with_the_gate_and_a_defence(table):
    run(table, lambda g: Y.decide_damage(g, character="Aki", uchimi=3))  # 3 of 5: the gate applies
    refused(
        table,
        lambda g: Y.decide_test(
            g, character="Aki", trait="choushi", purpose="attack", target="Thug", faces=[5]
        ),
        match="Nintai",
    )
    run(
        table,
        lambda g: Y.decide_test(g, character="Aki", trait="nintai", purpose="gate", faces=[5]),
    )
    run(
        table,
        lambda g: Y.decide_test(
            g,
            character="Aki",
            trait="choushi",
            purpose="attack",
            target="Thug",
            damage="kega",
            faces=[6],
        ),
    )
    run(table, Y.decide_critical)
    run(
        table,
        lambda g: Y.decide_test(
            g, character="Thug", trait="choushi", purpose="defend", against="Aki", faces=[5]
        ),
    )
    run(
        table,
        lambda g: Y.decide_test(
            g, character="Bo", trait="choushi", purpose="attack", target="Thug", faces=[4]
        ),
    )
    applied = run(table, Y.decide_round)
    thug = applied.state.game.characters["Thug"]
    # Aki's critical is not cancelled by a plain defence: 2 Kega; Bo's hit: 1 Uchimi
    assert (thug.kega, thug.uchimi) == (2, 1)
    refused(table, Y.decide_round, match="no test")


def test_a_failed_gate_forbids_the_attack(table):
    run(
        table, lambda g: Y.decide_test(g, character="Bo", trait="nintai", purpose="gate", faces=[1])
    )
    refused(
        table,
        lambda g: Y.decide_test(
            g,
            character="Bo",
            trait="choushi",
            purpose="attack",
            target="Thug",
            target_armed=True,
            faces=[5],
        ),
        match="failed the Nintai gate",
    )
    run(table, lambda g: Y.decide_retreat(g, character="Bo"))
    refused(
        table,
        lambda g: Y.decide_test(
            g, character="Thug", trait="choushi", purpose="attack", target="Bo", faces=[5]
        ),
        match="Bo retreated",
    )
    refused(
        table,
        lambda g: Y.decide_test(
            g, character="Bo", trait="choushi", purpose="defend", against="Thug", faces=[5]
        ),
        match="retreated",
    )


def test_evolution_at_the_table(table):
    for _ in range(5):
        run(table, lambda g: Y.decide_star(g, character="Bo", trait="chisei"))
    assert table.state("t").game.characters["Bo"].trait("chisei") == 1
    run(table, lambda g: Y.decide_transfer(g, character="Aki", lower="choushi", raise_="chisei"))
    assert table.state("t").game.characters["Aki"].hit_points == 4
    refused(table, lambda g: Y.decide_trauma(g, character="Aki", trait="choushi"), match="3")
    run(table, lambda g: Y.decide_damage(g, character="Aki", kega=3, note="broken arm"))
    run(table, lambda g: Y.decide_trauma(g, character="Aki", trait="kiyousa"))
    assert table.state("t").game.characters["Aki"].trait("kiyousa") == -1


def test_undo_that_breaks_a_later_test_is_refused(table):
    run(table, lambda g: Y.decide_invoke(g, character="Aki", attribute="surfer"))
    run(table, lambda g: Y.decide_test(g, character="Aki", trait="chisei", force=3, faces=[3]))
    seq = table.state("t").last_seq - 1
    with pytest.raises(RuleError, match="cannot give 3"):
        table.undo("t", seq=seq)


def test_an_edited_result_is_caught_on_replay(table):
    run(table, lambda g: Y.decide_test(g, character="Aki", trait="chisei", faces=[3]))
    events = list(table.store.load(table.info("t").id))
    last = events[-1]
    edited = last.__class__(**{**last.__dict__, "payload": {**last.payload, "success": True}})
    state = fold([*events[:-1], edited])  # the fold applies what was recorded...
    with pytest.raises(InputError, match="success"):
        verify_log(state)  # ...and the verifier decides it again
