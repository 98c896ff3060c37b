"""Every agents form of the web table (generated from the declared commands), its odds
against brute force, roles and the flow.

The brute forces use their own few lines of the rules (seed 002, G-M4, G-A5, G-A20), not the
rules core: an action is one d6 plus the ticked modifiers; 7 or more is a critical (the
opposition loses 2), 4 to 6 a success (it loses 1), 3 or less a failure (the agent loses a
point of the challenge type's reserve); agents act in turn, an agent at 0 is out.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from fastapi.testclient import TestClient

from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.web.conftest import Links, Running, make_table, race
from tests.web.test_stream import collect
from tests.web.test_systems import act, fractions_in

HOSTILE = "<img src=x onerror=alert(1)><i>Nyx</i> 🕶" + "q" * 40


def team(client: TestClient, store: SqliteStore) -> Links:
    """Table 'ops' for Ana and Bo: Vega (Ana's, 7/5/3) and Orso (Bo's, 3/7/5)."""
    links = make_table(store, system="agents", name="ops", players=("Ana", "Bo"))
    code, text = act(
        client, links.players["Ana"], "agent", name="Vega", owner="Ana",
        muscles="7", sexe="5", intelligence="3", organisation="Bureau 9",
        signature="a silver lighter",
    )  # fmt: skip
    assert code == 200, text
    code, text = act(
        client, links.gm, "agent", name="Orso", owner="Bo", muscles="3", sexe="7",
        intelligence="5", organisation="Ordre du Lotus", signature="a compass",
    )  # fmt: skip
    assert code == 200, text
    return links


def game(store: SqliteStore) -> object:
    return TableService(store).state("ops").game


def outcome_counts(modifier: int) -> tuple[int, int, int]:
    """Faces of a d6 giving a critical, a success, a failure."""
    totals = [face + modifier for face in range(1, 7)]
    return (
        sum(t >= 7 for t in totals),
        sum(4 <= t <= 6 for t in totals),
        sum(t <= 3 for t in totals),
    )


def brute_win(reserves: tuple[int, ...], modifiers: tuple[int, ...], score: int) -> Fraction:
    @cache
    def win(left: int, pools: tuple[int, ...], turn: int) -> Fraction:
        if left <= 0:
            return Fraction(1)
        if all(p == 0 for p in pools):
            return Fraction(0)
        while pools[turn] == 0:
            turn = (turn + 1) % len(pools)
        crit, hit, miss = outcome_counts(modifiers[turn])
        after = (turn + 1) % len(pools)
        drained = tuple(p - (i == turn) for i, p in enumerate(pools))
        total = crit * win(left - 2, pools, after) + hit * win(left - 1, pools, after)
        return (total + miss * win(left, drained, after)) / 6

    return win(score, reserves, 0)


def test_action_odds_match_brute_force(client: TestClient, store: SqliteStore) -> None:
    links = team(client, store)
    gm, ana = links.gm, links.players["Ana"]
    code, text = act(
        client, gm, "challenge", kind="sexe", agents="Vega\nOrso", oppositions="the duke:3"
    )
    assert code == 200, text
    for ticks, modifier in (("", 0), ("laugh", 1), ("laugh\nsituation", 2)):
        text = client.get(ana + "/odds/act", params={"agent": "Vega", "modifiers": ticks}).text
        crit, hit, miss = outcome_counts(modifier)
        got = fractions_in(text)
        assert got[:3] == [Fraction(crit, 6), Fraction(hit, 6), Fraction(miss, 6)], text
        # Vega (Sexe 5) acts first with the ticks, then Orso (Sexe 7) without
        assert got[3] == brute_win((5, 7), (modifier, 0), 3), text
    bad = client.get(ana + "/odds/act", params={"modifiers": "escalate"}).text
    assert "odds-error" in bad and "not on the Sexe checklist" in bad and "G-N2" not in bad
    wrong = client.get(ana + "/odds/act", params={"challenge": "2"}).text
    assert "odds-error" in wrong  # there is no challenge 2


def test_actions_and_reserves(client: TestClient, store: SqliteStore) -> None:
    links = team(client, store)
    gm, ana, bo = links.gm, links.players["Ana"], links.players["Bo"]
    assert act(client, ana, "agent", name="Mira", owner="Bo", muscles="7", sexe="5",
               intelligence="3", organisation="B9", signature="a pen")[0] == 403  # fmt: skip
    assert act(client, ana, "challenge", kind="sexe", agents="Vega", oppositions="x:1")[0] == 403
    code, text = act(
        client, gm, "challenge", kind="sexe", agents="Vega\nOrso", oppositions="the duke:3"
    )
    assert code == 200, text
    assert act(client, ana, "act", agent="Orso", faces="6")[0] == 403
    code, text = act(
        client, ana, "act", agent="Vega", modifiers="laugh", declaration="une réplique", faces="6"
    )
    assert code == 200, text
    assert game(store).challenges[1].oppositions[0].score == 1  # a critical: -2
    code, text = act(client, ana, "act", faces="6")
    assert code == 403  # Orso is due, and he is Bo's
    code, text = act(client, bo, "act", faces="1")
    assert code == 200, text
    assert game(store).agents["Orso"].reserve(game(store).challenges[1].kind) == 6
    assert act(client, ana, "abandon", agent="Orso", challenge="1")[0] == 403
    code, text = act(client, bo, "abandon", agent="Orso", challenge="1")
    assert code == 200, text
    code, text = act(client, ana, "fail", agent="Vega", reserve="sexe")
    assert code == 409, text  # in the running in an open challenge (G-M7)
    code, text = act(client, ana, "act", agent="Vega", faces="4")
    assert code == 200, text
    assert game(store).challenges[1].outcome == "won"
    assert 'class="trace"' in client.get(gm).text  # the action's trace
    code, text = act(client, bo, "winner", challenge="1", agent="Vega")
    assert code == 200, text
    assert game(store).challenges[1].winner == "Vega"
    code, text = act(client, ana, "fail", agent="Vega", reserve="sexe")
    assert code == 200, text
    code, text = act(
        client, gm, "challenge", kind="muscles", agents="Vega, Orso", oppositions="a:2\nb:2"
    )
    assert code == 200, text
    code, text = act(client, bo, "concede", agent="Orso", challenge="2")
    assert code == 200, text
    code, text = act(client, ana, "act", agent="Vega", faces="5", target="3")
    assert code == 422, text  # no third opposition
    code, text = act(client, ana, "act", agent="Vega", modifiers="escalate", faces="6",
                     target="2")  # fmt: skip
    assert code == 200, text
    assert [o.score for o in game(store).challenges[2].oppositions] == [2, 0]
    code, text = act(client, ana, "act", modifiers="escalate\ndeescalate", faces="5")
    assert code == 422  # two exclusive ticks (G-A6)
    page = client.get(links.spectator).text
    assert "Bureau 9" in page and "Sang" in page


def test_blind_action_never_reaches_a_player(
    client: TestClient, store: SqliteStore, server: Running
) -> None:
    links = team(client, store)
    gm, ana = links.gm, links.players["Ana"]
    act(client, gm, "challenge", kind="intelligence", agents="Vega", oppositions="the vault:2")
    assert act(client, ana, "act", faces="5", visibility="gm")[0] == 403
    code, text = act(client, gm, "act", declaration="SECRETPLAN", faces="5", visibility="gm")
    assert code == 200, text
    seq = TableService(store).state("ops").last_seq
    mine = collect(f"{server.url}{ana}/stream?after={seq - 1}", seq)
    assert [int(e.id) for e in mine] == [seq]
    assert (
        "SECRETPLAN" not in mine[0].data and "the vault" not in mine[0].data.split("resources")[0]
    )
    assert "SECRETPLAN" not in client.get(ana).text
    theirs = collect(f"{server.url}{gm}/stream?after={seq - 1}", seq)
    assert "vault" in theirs[0].data


def _round(
    client: TestClient,
    store: SqliteStore,
    links: Links,
    path: str,
    faces: str,
    acts: list[str],
    *,
    arrived: bool = False,
) -> None:
    """One scene without a game master: generate for Vega, Ana acts, name, apply.

    The opposition is the environment (the source's d6 is 1): in the first scene
    (``arrived``) where the agents arrived (G-X2), else drawn from its table with a 1.
    """
    assert act(client, path, "scene")[0] == 200
    drawn = "" if arrived else ",1"
    code, text = act(client, path, "generate", agents="Vega", faces=faces + drawn)
    assert code == 200, text
    number = max(game(store).challenges)
    for face in acts:
        code, text = act(client, links.players["Ana"], "act", agent="Vega", faces=face)
        assert code == 200, text
    if acts:
        code, text = act(client, path, "winner", challenge=str(number))
        assert code == 200, text
    code, text = act(client, path, "consequence", challenge=str(number))
    assert code == 200, text


def test_a_whole_adventure_without_a_game_master(client: TestClient, store: SqliteStore) -> None:
    links = team(client, store)
    ana, bo = links.players["Ana"], links.players["Bo"]
    assert act(client, ana, "scene")[0] == 409  # no quest yet
    assert "draw a quest" in client.get(ana).text  # the next step, at a glance
    code, text = act(client, ana, "quest", starter="en", faces="3")
    assert code == 200, text
    code, text = act(client, ana, "draw", kind="environments", faces="7")
    assert code == 200, text
    kinds = [e.kind for e in TableService(store).state("ops").events]
    assert kinds[-2:] == ["agents.quest_drawn", "agents.table_drawn"]
    assert "secret until the index reaches 1" in client.get(bo).text
    code, text = act(client, bo, "draw", kind="creatures", faces="2")
    assert code == 200, text
    arrival = game(store).arrival
    assert arrival  # the environment drawn with the face 7
    # score 0 at index 0: won at once (G-A2); opposed by where the agents arrived (G-X2)
    _round(client, store, links, ana, "1,1,1,1", [], arrived=True)
    assert game(store).challenges[1].oppositions[0].name == arrival
    quest = game(store).quest
    assert quest.progress == 1
    page = client.get(bo).text
    assert "secret until the index reaches 1" not in page  # the objective is revealed
    _round(client, store, links, bo, "1,1,1,1", ["6"])  # index 1: score 1, a success
    _round(client, store, links, ana, "1,1,1,1", ["6", "5"])  # index 2: score 2
    _round(client, store, links, bo, "1,1,1", ["6", "5", "4"])  # index 3: score 3
    assert game(store).quest.status.value == "won"
    code, text = act(client, ana, "contest-start")
    assert code == 200, text
    assert game(store).contest.holder == "Vega"
    assert act(client, ana, "contest-challenge", challengers="Orso")[0] == 403
    code, text = act(client, bo, "contest-challenge", challengers="Orso", attribute="intelligence")
    assert code == 200, text
    number = max(game(store).challenges)
    for _ in range(20):
        challenge = game(store).challenges[number]
        if not challenge.is_open:
            break
        from tablee.systems.agents import next_actor

        due = next_actor(challenge)
        who = ana if due == "Vega" else bo
        code, text = act(client, who, "act", challenge=str(number), faces="6")
        assert code == 200, text
    code, text = act(client, bo, "contest-settle", challenge=str(number))
    assert code == 200, text
    code, text = act(client, ana, "contest-close")
    assert code == 200, text
    assert "the adventure is over" in client.get(ana).text


def test_give_up_and_hostile_names(client: TestClient, store: SqliteStore) -> None:
    links = team(client, store)
    gm, ana = links.gm, links.players["Ana"]
    code, text = act(client, ana, "agent", name=HOSTILE, owner="Ana", muscles="3", sexe="5",
                     intelligence="7", organisation=HOSTILE, signature=HOSTILE)  # fmt: skip
    assert code == 200, text
    code, text = act(
        client, gm, "challenge", kind="sexe", agents=HOSTILE, oppositions=f"{HOSTILE}:2"
    )
    assert code == 200, text
    for path in (gm, ana, links.spectator):
        page = client.get(path).text
        assert "<img src=x" not in page and "<i>Nyx</i>" not in page
        assert "&lt;img src=x" in page and "🕶" in page
    code, text = act(
        client, ana, "agent", name="Bad", owner="Ana", muscles="7", sexe="7", intelligence="3",
        organisation="B9", signature="a pen",
    )  # fmt: skip
    assert code == 422 and "G-M1" in text
    assert act(client, ana, "quest", faces="2")[0] == 200
    code, text = act(client, ana, "give-up")
    assert code == 200, text
    assert game(store).quest.status.value == "abandoned"


def test_one_reserve_point_spent_twice_at_once(server: Running) -> None:
    """Ana posts the same action from two tabs at once: one is stored, the other refused."""
    from tablee.systems.agents import commands as cmd

    store = server.store
    links = make_table(store, system="agents", name="ops", players=("Ana", "Bo"))
    service = TableService(store)
    service.run_command(
        "ops",
        cmd.CreateAgent(organisation="Bureau 9", signature="a lighter", name_="Vega", owner="Ana"),
    )
    service.run_command(
        "ops", cmd.OpenChallenge(kind="muscles", agents=("Vega",), oppositions=("wall:1",))
    )
    data = {"agent": "Vega", "challenge": "1", "faces": "5"}
    results = race(server.url, links.players["Ana"], "act", data)
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 409], [r.text for r in results]
    state = TableService(store).state("ops")
    assert [e.seq for e in state.events] == list(range(1, len(state.events) + 1))
    assert [e.kind for e in state.events].count("agents.action") == 1
    assert state.game.challenges[1].outcome == "won"
