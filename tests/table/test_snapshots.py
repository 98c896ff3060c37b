"""Snapshots of a game's state in the store: a cache, always equal to the full fold."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tablee.dice import SeededSource, TypedFaces
from tablee.errors import InputError, RuleError
from tablee.systems import agents as ag
from tablee.systems.agents import commands as agents_cmd
from tablee.systems.declare import Command
from tablee.systems.pouyss.commands import Penalty, Reward, Roll, StartSession
from tablee.table.projection import fold
from tablee.table.service import SNAPSHOT, TableService
from tablee.table.sqlite_store import SqliteStore


@pytest.fixture
def store(tmp_path: Path) -> SqliteStore:
    return SqliteStore(tmp_path / "snap.sqlite3")


def cold(store: SqliteStore, name: str) -> object:
    """A command's view of the table from a new process: snapshot plus the events since."""
    service = TableService(store, snapshot_every=4)
    return service._current(store.find_table(name), full=False)


def test_snapshot_plus_tail_equals_the_full_fold_after_every_command(store: SqliteStore) -> None:
    rng = random.Random(7)
    service = TableService(store, snapshot_every=4)
    service.create(system="pouyss", name="s", players=["A", "B"], lang="en")
    service.run_command("s", StartSession(cagnotte=5))
    resumed_once = False
    for _ in range(60):
        choice = rng.random()
        try:
            if choice < 0.5:
                bonus, malus = rng.randint(0, 2), rng.randint(0, 2)
                faces = [rng.randint(1, 6) for _ in range(1 + bonus + malus)]
                service.run_command(
                    "s", Roll(player=rng.choice("AB"), bonus=bonus, malus=malus), TypedFaces(faces)
                )
            elif choice < 0.7:
                service.run_command("s", Reward(amount=rng.randint(1, 2)))
            elif choice < 0.85:
                service.run_command("s", Penalty(amount=1))
            else:
                service.undo("s")
        except RuleError:
            continue
        full = fold(store.load(store.find_table("s").id))
        resumed = cold(store, "s")
        assert resumed.game == full.game  # type: ignore[attr-defined]
        assert resumed.last_seq == full.last_seq  # type: ignore[attr-defined]
        resumed_once = resumed_once or resumed.partial  # type: ignore[attr-defined]
    assert resumed_once, "no command was ever resumed from a snapshot"


def _adventure_command(game: ag.AgentsState, rng: random.Random) -> Command:
    """The next step of an agents adventure without a game master, chosen at random."""
    step = ag.next_step(game)
    kind = step.kind
    if kind in (ag.StepKind.DRAW_QUEST, ag.StepKind.DONE):
        return agents_cmd.Quest(starter=rng.choice(["fr", "en"]))
    if kind is ag.StepKind.START_SCENE:
        return agents_cmd.NextScene()
    if kind is ag.StepKind.DRAW:
        return agents_cmd.Draw(kind=step.table)  # type: ignore[arg-type]
    if kind is ag.StepKind.GENERATE:
        assert game.quest is not None
        present = [
            n for n in game.agents if n not in game.quest.sitting_out and game.agents[n].sang
        ]
        if not present:
            return agents_cmd.NextScene()
        group = rng.sample(present, rng.randint(1, len(present)))
        return agents_cmd.Generate(agents=tuple(group))
    if kind is ag.StepKind.ACT:
        assert step.challenge is not None
        checklist = ag.CHECKLISTS[game.challenges[step.challenge].kind]
        best = max(checklist, key=lambda m: m.value)  # the agents want to win
        ticked = (best.id,) if rng.random() < 0.8 else (rng.choice(checklist).id,)
        return agents_cmd.Act(challenge=step.challenge, agent=step.agent, modifiers=ticked)
    if kind is ag.StepKind.NAME_WINNER:
        return agents_cmd.NameWinner(challenge=step.challenge or 0)
    if kind is ag.StepKind.CONSEQUENCE:
        return agents_cmd.Settle(challenge=step.challenge or 0)
    if kind is ag.StepKind.START_CONTEST:
        return agents_cmd.ContestStart()
    if kind is ag.StepKind.CONTEST_CHALLENGE:
        assert game.contest is not None
        contest = game.contest
        wanting = [n for n in game.agents if n != contest.holder and n not in contest.challenged]
        if not wanting or contest.bouts >= 3:
            return agents_cmd.ContestClose()
        return agents_cmd.ContestChallenge(
            challengers=(wanting[0],),
            attribute=rng.choice(["muscles", "sexe", "intelligence"]),
            wanting=(wanting[0],),
        )
    assert kind is ag.StepKind.SETTLE_BOUT
    return agents_cmd.ContestSettle(challenge=step.challenge or 0)


def test_an_agents_adventure_snapshot_plus_tail_equals_the_full_fold(store: SqliteStore) -> None:
    """The agents state (quest, generator tables, drawn challenges, contest) reads back from
    a snapshot: after every command of a random adventure with undos, equal to the fold."""
    rng = random.Random(12)  # an adventure that reaches the contest
    service = TableService(store, snapshot_every=4)
    service.create(system="agents", name="s", players=["A", "B"], lang="en")
    team = (("Vega", 7, 5, 3, "A"), ("Orso", 3, 7, 5, "B"), ("Lune", 5, 3, 7, None))
    for name, muscles, sexe, intelligence, owner in team:
        service.run_command(
            "s",
            agents_cmd.CreateAgent(
                name_=name,
                muscles=muscles,
                sexe=sexe,
                intelligence=intelligence,
                owner=owner,
                organisation="Bureau 9",
                signature="a lighter",
            ),
        )
    resumed_with: set[str] = set()
    for turn in range(220):
        try:
            if rng.random() < 0.1:
                service.undo("s")
            else:
                command = _adventure_command(service.state("s").game, rng)
                service.run_command("s", command, SeededSource(turn))
        except (RuleError, InputError):
            continue
        full = fold(store.load(store.find_table("s").id))
        resumed = cold(store, "s")
        assert resumed.game == full.game  # type: ignore[attr-defined]
        assert resumed.last_seq == full.last_seq  # type: ignore[attr-defined]
        if resumed.partial:  # type: ignore[attr-defined]
            game = full.game
            resumed_with |= {"quest"} if game.quest is not None else set()
            resumed_with |= {"generated"} if game.generated else set()
            resumed_with |= {"contest"} if game.contest is not None else set()
            resumed_with |= {"bouts"} if game.bouts else set()
    assert resumed_with == {"quest", "generated", "contest", "bouts"}


def test_a_snapshot_is_written_every_so_many_events_not_every_command(
    store: SqliteStore,
) -> None:
    service = TableService(store, snapshot_every=4)
    service.create(system="pouyss", name="s", players=["A"], lang="en")
    table_id = store.find_table("s").id
    service.run_command("s", StartSession(cagnotte=9))  # seq 2
    service.run_command("s", Reward(amount=1))  # seq 3
    assert store.get_preference(SNAPSHOT + table_id) is None
    service.run_command("s", Reward(amount=1))  # seq 4: a multiple of 4
    stored = json.loads(store.get_preference(SNAPSHOT + table_id) or "{}")
    assert stored["seq"] == 4 and stored["state"]["cagnotte"] == 11


def test_a_snapshot_of_another_version_or_unreadable_is_ignored(store: SqliteStore) -> None:
    service = TableService(store, snapshot_every=2)
    service.create(system="pouyss", name="s", players=["A"], lang="en")
    service.run_command("s", StartSession(cagnotte=3))
    service.run_command("s", Reward(amount=2))
    table_id = store.find_table("s").id
    doc = json.loads(store.get_preference(SNAPSHOT + table_id) or "{}")
    doc["state"]["cagnotte"] = 99  # a forged or stale snapshot of another release
    doc["format"] = "pouyss/1/0.0.1"
    store.set_preference(SNAPSHOT + table_id, json.dumps(doc))
    assert cold(store, "s").game.cagnotte == 5  # type: ignore[attr-defined]
    store.set_preference(SNAPSHOT + table_id, "{not json")
    assert cold(store, "s").game.cagnotte == 5  # type: ignore[attr-defined]


def test_an_undo_after_the_snapshot_folds_the_whole_log(store: SqliteStore) -> None:
    service = TableService(store, snapshot_every=2)
    service.create(system="pouyss", name="s", players=["A"], lang="en")
    service.run_command("s", StartSession(cagnotte=3))  # seq 2: snapshot
    service.run_command("s", Reward(amount=2))  # seq 3
    service.run_command("s", Reward(amount=1))  # seq 4: snapshot, cagnotte 6
    service.undo("s", seq=3)  # voids a reward folded into the snapshot
    state = cold(store, "s")
    assert not state.partial  # type: ignore[attr-defined]
    assert state.game.cagnotte == 4  # type: ignore[attr-defined]


def test_a_state_that_cannot_be_written_leaves_no_snapshot_and_the_command_stands(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tablee.systems.pouyss.plugin import Pouyss

    def broken(self: object, state: object) -> object:
        raise TypeError("not storable")

    monkeypatch.setattr(Pouyss, "encode_state", broken)
    service = TableService(store, snapshot_every=2)
    service.create(system="pouyss", name="s", players=["A"], lang="en")
    applied = service.run_command("s", StartSession(cagnotte=3))  # seq 2: a snapshot is due
    assert applied.state.game.cagnotte == 3
    assert store.get_preference(SNAPSHOT + store.find_table("s").id) is None
