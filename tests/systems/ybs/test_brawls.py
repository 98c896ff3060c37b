"""Gang fights and Ichika Bachika at a table: throws, damage to every fighter, bad keeps."""

from pathlib import Path

import pytest

from tablee.errors import InputError, RuleError
from tablee.systems import ybs as Y
from tablee.table.projection import fold
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore

ZERO = dict.fromkeys((t.value for t in Y.Trait), 0)


@pytest.fixture
def table(tmp_path: Path):
    store = SqliteStore(tmp_path / "g.sqlite3")
    svc = TableService(store)
    svc.create(system="ybs", name="t", players=["A", "B"], lang="en")
    for name, owner, choushi in (("Aki", "A", -1), ("Bo", "B", 0), ("Thug", None, 1)):
        run(
            svc,
            lambda g, n=name, o=owner, c=choushi: Y.decide_create(
                g, name=n, traits={**ZERO, "choushi": c}, owner=o
            ),
        )
    yield svc
    store.close()


def run(svc, decide):
    return svc.execute("t", lambda s: decide(s.game), lambda d: d.facts)


def refused(svc, decide, error, match):
    before = svc.store.load(svc.info("t").id)
    with pytest.raises(error, match=match):
        run(svc, decide)
    assert svc.store.load(svc.info("t").id) == before


def boxes(svc, name):
    hero = svc.state("t").game.characters[name]
    return hero.uchimi, hero.kega


def test_a_gang_fight_throw_by_throw_marks_default_damage(table):
    applied = run(
        table,
        lambda g: Y.decide_gang_start(
            g,
            fighters=["Aki", "Bo"],
            opponents=["Thug"],
            outnumbered="players",
            outgunned="players",
        ),
    )
    assert applied.events[-1].payload["players_dice"] == 4  # Y-T3
    assert applied.events[-1].payload["gm_dice"] == 6
    run(table, lambda g: Y.decide_gang_throw(g, faces=[1, 1, 6, 6], gm_faces=[1, 1, 2, 2, 6, 6]))
    refused(
        table,
        lambda g: Y.decide_gang_throw(g, keep=[5], faces=[1, 2, 3], gm_faces=[1] * 6),
        InputError,
        "its dice show",
    )
    applied = run(
        table,
        lambda g: Y.decide_gang_throw(
            g, keep=[1], gm_keep=[2, 2], faces=[2, 3, 4], gm_faces=[1, 1, 1, 1]
        ),
    )
    payload = applied.events[-1].payload
    assert payload["winner"] == "players" and payload["minutes"] == 1
    # Y-T6: each winner 1 Uchimi, each loser 3; Aki has 3 boxes
    assert boxes(table, "Aki") == (1, 0) and boxes(table, "Bo") == (1, 0)
    assert boxes(table, "Thug") == (3, 0)
    refused(
        table,
        lambda g: Y.decide_gang_throw(g, faces=[1] * 4, gm_faces=[1] * 6),
        RuleError,
        "no gang fight",
    )


def test_identical_straights_are_a_draw_with_two_uchimi_each(table):
    run(table, lambda g: Y.decide_gang_start(g, fighters=["Bo"], opponents=["Thug"]))
    applied = run(
        table, lambda g: Y.decide_gang_throw(g, faces=[2, 3, 4, 5, 5], gm_faces=[1, 2, 3, 4, 5])
    )
    # the GM's hand holds 1-2-3-4 and 2-3-4-5: its best is 2-3-4-5, like the players' (Y-T5)
    assert applied.events[-1].payload["draw"] is True
    assert boxes(table, "Bo") == (2, 0) and boxes(table, "Thug") == (2, 0)


def test_the_gm_sets_the_damage_and_can_stop(table):
    run(table, lambda g: Y.decide_gang_start(g, fighters=["Bo"], winner_uchimi=0, loser_uchimi=5))
    refused(table, lambda g: Y.decide_gang_start(g, fighters=["Aki"]), RuleError, "already")
    run(table, lambda g: Y.decide_gang_stop(g))
    run(table, lambda g: Y.decide_gang_start(g, fighters=["Bo"], loser_uchimi=5))
    run(table, lambda g: Y.decide_gang_throw(g, faces=[1, 1, 1, 1, 1], gm_faces=[3, 4, 5, 6, 6]))
    assert boxes(table, "Bo") == (3, 1)  # 4 boxes: 5 Uchimi overflow into a Kega
    refused(table, lambda g: Y.decide_gang_start(g, fighters=["Bo", "bo"]), InputError, "twice")


def test_ichika_bachika_hurts_the_losers_with_the_three_hp_kega(table):
    applied = run(
        table,
        lambda g: Y.decide_encounter_at_table(
            g,
            choices={"a": "ichika_bachika", "B": "flee"},
            opponents=["Thug"],
            faces=[1, 1, 2, 3, 4],
            gm_faces=[5, 5, 5, 1, 2],
        ),
    )
    assert applied.events[-1].payload["winner"] == "gm"
    assert boxes(table, "Aki") == (2, 1)  # Y-T8: 3 hit points
    assert boxes(table, "Bo") == (4, 0)  # Y-T9: 4 hit points
    assert boxes(table, "Thug") == (0, 0)  # Y-A17


def test_an_encounter_without_ichika_starts_a_gang_fight_or_flees(table):
    run(table, lambda g: Y.decide_encounter_at_table(g, choices={"A": "flee", "B": "flee"}))
    assert table.state("t").game.gang is None
    refused(
        table,
        lambda g: Y.decide_encounter_at_table(
            g, choices={"A": "flee"}, faces=[1] * 5, gm_faces=[1] * 5
        ),
        InputError,
        "no dice",
    )
    refused(
        table, lambda g: Y.decide_encounter_at_table(g, choices={"A": "dance"}), InputError, "dance"
    )
    run(
        table,
        lambda g: Y.decide_encounter_at_table(
            g, choices={"A": "gang_fight", "B": "flee"}, outnumbered="players"
        ),
    )
    gang = table.state("t").game.gang
    assert gang.fighters == ("Aki",) and (gang.fight.players_dice, gang.fight.gm_dice) == (4, 5)
    state = table.state("t")
    assert fold(table.store.load(state.table_id)) == state
