"""One contract, run over every registered plugin game and the fifth game of the tests.

For each game: its declarations read; every event kind has a description and a complete
chain of upgrades; every command is reachable from the command line and from the web, with
the same validation (a field folded in a group of the forms is never required, and a
choice's labels name its real values); a table played through the command line replays
equal to its state, passes the verifier, undoes, exports and imports; the exact odds equal
an enumeration of every face through the same rule code; a golden playthrough exists for
every shipped game.
"""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any, get_args, get_origin

import pytest
from fastapi.testclient import TestClient

from tablee import systems
from tablee.cli.main import build_parser, main
from tablee.systems.declare import Command, Query, build_command, fields_of
from tablee.systems.plugin import AnyGame, Game
from tablee.table.projection import fold, verify_log
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tests.games import target

GOLDEN = Path(__file__).parents[1] / "golden"

SHS_CREW = [
    "protagoniste", "create", "--name", "Jake", "--player", "Ana", "--carrure", "6",
    "--motricite", "6", "--science", "7", "--relationnel", "7", "--sang-froid", "8",
]  # fmt: skip

SETUP: dict[str, list[list[str]]] = {
    "pouyss": [["session", "start", "--cagnotte", "6"]],
    "shs": [SHS_CREW],
    "target": [["refill", "--amount", "4"]],
    "agents": [
        ["agent", "--name", "Vega", "--player", "Zoé", "--organisation", "Bureau 9",
         "--signature", "a lighter"],
        ["agent", "--name", "Orso", "--muscles", "3", "--sexe", "7", "--intelligence", "5",
         "--player", "Ana", "--organisation", "Bureau 9", "--signature", "a compass"],
        ["challenge", "--type", "sexe", "--agents", "Vega", "--opposition", "the duke:9"],
        ["challenge", "--type", "muscles", "--agents", "Orso", "--opposition", "a wall:9"],
    ],
    "ybs": [["character", "create", "Okabe", "--choushi", "1"]],
}  # fmt: skip
"""The commands that make each game's table ready to roll."""

PLAYED: dict[str, list[list[str]]] = {
    "pouyss": [
        ["roll", "--player", "Ana", "--bonus", "1", "--malus", "1", "--dice", "2,4,6"],
        ["reward", "--amount", "2"],
        ["roll", "--player", "Zoé", "--bonus", "2", "--dice", "1,1,3"],
    ],
    "shs": [
        [
            "test",
            "--protagoniste",
            "Jake",
            "--characteristic",
            "science",
            "--difficulty",
            "1",
            "--option",
            "surpasser",
            "--dice",
            "7,1,1",
            "--dpm-dice",
            "+,0",
        ],
        ["modifier", "add", "--protagoniste", "Jake", "--malus", "1", "--time", "1 h"],
        [
            "test",
            "--protagoniste",
            "Jake",
            "--characteristic",
            "science",
            "--difficulty",
            "1",
            "--dice",
            "7,1,1",
            "--dpm-dice=-",
        ],
    ],
    "target": [
        ["roll", "--player", "Ana", "--boost", "1", "--dice", "2"],
        ["refill", "--amount", "2"],
        ["roll", "--player", "Zoé", "--boost", "3", "--dice", "1"],
    ],
    "agents": [
        ["act", "--challenge", "1", "--dice", "5"],
        ["act", "--challenge", "2", "--modifier", "environment", "--dice", "2"],
        ["act", "--challenge", "1", "--modifier", "laugh", "--dice", "6"],
    ],
    "ybs": [
        ["test", "Okabe", "--trait", "choushi", "--dice", "5"],
        ["character", "create", "Aki", "--player", "Ana", "--kiyousa", "1"],
        ["gang", "start", "--fighter", "Aki", "--opponent", "Okabe"],
        ["gang", "throw", "--dice", "1,2,3,4,6", "--gm-dice", "1,1,2,2,6"],
        ["damage", "Okabe", "--kega", "1"],
    ],
}
"""A short session per game, undone in the middle by the contract."""

ODDS_SAMPLES: dict[str, list[tuple[str, dict[str, str]]]] = {
    "shs": [
        ("test", {"protagoniste": "Jake", "characteristic": "science", "difficulty": "1"}),
        ("test", {"protagoniste": "Jake", "characteristic": "motricite", "difficulty": "2",
                  "bonus": "1"}),
        ("test", {"protagoniste": "Jake", "characteristic": "science", "difficulty": "2",
                  "malus": "1", "option": ["surpasser"]}),
    ],
    "agents": [
        ("act", {"challenge": "1"}),
        ("act", {"challenge": "1", "modifiers": ["laugh", "situation"]}),
        ("act", {"challenge": "2", "modifiers": ["generic"]}),
        ("act", {"challenge": "2", "modifiers": ["escalate", "environment", "setup"]}),
    ],
}  # fmt: skip
"""Rolled commands whose odds a game's own samples check (instead of the fields' ranges)."""


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(systems, "GAMES", [*systems.GAMES, target.REGISTRATION])
    yield


def plugin_ids() -> list[str]:
    ids = [game_id for game_id, _ in [*systems.GAMES, target.REGISTRATION]]
    return [g for g in ids if g == "target" or isinstance(systems.system_named(g), Game)]


def game_of(game_id: str) -> AnyGame:
    found = systems.system_named(game_id)
    assert isinstance(found, Game)
    return found


class Cli:
    def __init__(self, db: Path, table: str) -> None:
        self.db, self.table = db, table

    def __call__(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = main([*argv, "--db", str(self.db), "--lang", "en"], out, err)
        return code, out.getvalue(), err.getvalue()

    def game(self, game_id: str, argv: list[str], *extra: str) -> tuple[int, str, str]:
        return self(game_id, *argv, "--table", self.table, *extra)


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "contract.sqlite3", "contract")


def new_table(cli: Cli, game_id: str) -> None:
    code, _, err = cli("table", "new", game_id, "--name", cli.table, "--players", "Zoé,Ana")
    assert code == 0, err
    for argv in SETUP.get(game_id, []):
        code, _, err = cli.game(game_id, argv)
        assert code == 0, err


@pytest.mark.parametrize("game_id", plugin_ids())
def test_declarations_and_events_are_complete(game_id: str) -> None:
    game = game_of(game_id)
    names = [c.name for c in game.commands]
    assert len(names) == len(set(names))
    for command in game.commands:
        assert command.title
        for spec in fields_of(command):
            assert spec.param.help, f"{command.name}.{spec.name} has no help"
    kinds = [e.kind for e in game.event_classes]
    assert len(kinds) == len(set(kinds)) and all(k.startswith(game_id + ".") for k in kinds)
    for event in game.event_classes:
        assert event.about, f"{event.kind} has no description"
        assert set(event.upgrades) == set(range(1, event.version)), event.kind


@pytest.mark.parametrize("game_id", plugin_ids())
def test_groups_hold_no_required_field_and_labels_name_real_choices(game_id: str) -> None:
    game = game_of(game_id)
    for command in game.commands:
        for spec in fields_of(command):
            where = f"{command.name}.{spec.name}"
            if spec.param.group:  # folded in the forms: a field that must be given is not
                assert not spec.required or spec.optional, f"{where} is required and grouped"
            labelled = [value for value, _ in spec.param.option_labels]
            assert len(labelled) == len(set(labelled)), where
            if spec.kind == "word":
                assert set(labelled) <= set(spec.words), f"{where} labels unknown words"
            elif labelled:
                assert spec.param.choices, f"{where} labels values of no choice"
                assert all(label for _, label in spec.param.option_labels), where


@pytest.mark.parametrize("game_id", plugin_ids())
def test_the_type_parameters_name_exactly_the_declared_commands_and_events(game_id: str) -> None:
    game = game_of(game_id)
    (base,) = [b for b in type(game).__orig_bases__ if get_origin(b) is Game]  # type: ignore[attr-defined]
    _state, commands, events = get_args(base)
    deciding = {c for c in game.commands if not issubclass(c, Query)}
    assert set(get_args(commands) or (commands,)) == deciding
    assert set(get_args(events) or (events,)) == set(game.event_classes)


@pytest.mark.parametrize("game_id", plugin_ids())
def test_every_command_is_reachable_from_the_cli_and_the_web(game_id: str) -> None:
    from tablee.web.declared import DeclaredWeb, action_id

    game = game_of(game_id)
    for command in game.commands:
        words = [game_id, *command.name.split()]
        if words[1] == "odds":  # `tablee odds <game>` or `tablee odds <game> <kind>`
            words = ["odds", game_id, *words[2:]]
        parser = build_parser("en", words[0], words[1] if len(words) > 1 else None)
        with pytest.raises(SystemExit) as shown:
            parser.parse_args([*words, "--help"])
        assert shown.value.code == 0, command.name
    web = {a.id for a in DeclaredWeb(game).actions()}
    expected = {action_id(c) for c in game.commands if not issubclass(c, Query)}
    assert web == expected


def _required(game: AnyGame, state: Any, command: type[Command]) -> dict[str, str]:
    given = {}
    for spec in fields_of(command):
        if spec.required and not spec.optional:
            if spec.param.choices:
                given[spec.name] = game.choices(state, spec.param.choices)[0]
            elif spec.kind == "int":
                given[spec.name] = str(spec.param.low or 0)
            else:
                given[spec.name] = "x"
    return given


@pytest.mark.parametrize("game_id", plugin_ids())
def test_the_same_bad_value_gives_the_same_error_on_the_cli_and_over_http(
    game_id: str, cli: Cli
) -> None:
    from tablee.table.links import issue_table_links
    from tablee.web.app import create_app
    from tablee.web.declared import action_id
    from tablee.web.guard import Settings

    new_table(cli, game_id)
    game = game_of(game_id)
    store = SqliteStore(cli.db)
    try:
        service = TableService(store)
        state = service.state(cli.table)
        gm = next(
            "/t/" + i.token
            for i in issue_table_links(store, state, service.clock())
            if i.info.role == "gm"
        )
        app = create_app(store, Settings(rate_limit="1000/second"))
        with TestClient(app, raise_server_exceptions=False) as client:
            checked = 0
            for command in game.commands:
                if issubclass(command, Query):
                    continue
                base = _required(game, state.game, command)
                for spec in fields_of(command):
                    if spec.kind != "int" or spec.param.low is None or spec.param.positional:
                        continue
                    bad = str(spec.param.low - 1)
                    argv = [*command.name.split()]
                    for name, value in {**base, spec.name: bad}.items():
                        given = next(s for s in fields_of(command) if s.name == name)
                        argv += [value] if given.param.positional else [given.flag, value]
                    code, _, err = cli.game(game_id, argv, "--json")
                    answer = client.post(
                        f"{gm}/api/{action_id(command)}",
                        json={**base, spec.name: bad},
                        headers={"content-type": "application/json"},
                    ).json()
                    expected = json.loads(err)
                    assert (answer["message"], answer["exit_code"]) == (
                        expected["message"],
                        code,
                    ), (command.name, spec.name)
                    checked += 1
            assert checked
    finally:
        store.close()


@pytest.mark.parametrize("game_id", plugin_ids())
def test_a_session_replays_verifies_undoes_exports_and_imports(
    game_id: str, cli: Cli, tmp_path: Path
) -> None:
    new_table(cli, game_id)
    played = PLAYED[game_id]
    for argv in played:
        code, _, err = cli.game(game_id, argv)
        assert code == 0, err
    first = 2 + len(SETUP.get(game_id, []))  # the first played event, after the setup
    code, _, err = cli("table", "undo", "--seq", str(first), "--table", cli.table)
    assert code == 0, err
    store = SqliteStore(cli.db)
    try:
        service = TableService(store)
        state = service.state(cli.table)
        replayed = fold(store.load(state.table_id))
        assert replayed.game == state.game
        assert verify_log(state) == len(played) - 1 + len(SETUP.get(game_id, []))
    finally:
        store.close()
    export = tmp_path / "log.jsonl"
    code, _, err = cli(
        "table", "export", "--format", "jsonl", "--output", str(export), "--table", cli.table
    )
    assert code == 0, err
    code, _, err = cli("table", "import", str(export), "--name", "copy")
    assert code == 0, err
    code, original, _ = cli("table", "show", "--json", "--table", cli.table)
    code, copy, _ = cli("table", "show", "--json", "--table", "copy")
    drop = {"name", "id"}
    assert {k: v for k, v in json.loads(copy).items() if k not in drop} == {
        k: v for k, v in json.loads(original).items() if k not in drop
    }


@pytest.mark.parametrize("game_id", plugin_ids())
def test_a_snapshot_resumes_to_the_state_of_the_whole_fold(game_id: str, cli: Cli) -> None:
    """A game that keeps snapshots: its state reads back equal, and a command resumed from a
    snapshot sees the state the whole log gives."""
    game = game_of(game_id)
    if game.snapshot_format() is None:
        pytest.skip(f"{game_id} keeps no snapshot of its state (the whole log is folded)")
    new_table(cli, game_id)
    for argv in PLAYED[game_id]:
        assert cli.game(game_id, argv)[0] == 0
    store = SqliteStore(cli.db)
    try:
        service = TableService(store, snapshot_every=1)
        info = store.find_table(cli.table)
        full = service.state(cli.table)
        assert game.decode_state(json.loads(json.dumps(game.encode_state(full.game)))) == (
            full.game
        )
        service._keep_snapshot(replace(full, events=full.events[:-1]), full)
        resumed = TableService(store)._current(info, full=False)
        assert resumed.partial and resumed.game == full.game
    finally:
        store.close()


def _rolled_samples(game: AnyGame, state: Any) -> Iterator[Command]:
    if game.id in ODDS_SAMPLES:
        for name, given in ODDS_SAMPLES[game.id]:
            yield build_command(game.command_named(name), given)
        return
    for command in game.commands:
        if issubclass(command, Query) or not command.rolled:
            continue
        base = _required(game, state, command)
        counts = [s for s in fields_of(command) if s.kind == "int" and not s.param.gm_only]
        for values in itertools.product(range(3), repeat=min(len(counts), 2)):
            given = dict(base)
            for spec, value in zip(counts, values, strict=False):
                given[spec.name] = str(value)
            yield build_command(command, given)


@pytest.mark.parametrize("game_id", plugin_ids())
def test_exact_odds_equal_an_enumeration_through_the_rules(game_id: str, cli: Cli) -> None:
    new_table(cli, game_id)
    store = SqliteStore(cli.db)
    try:
        state = TableService(store).state(cli.table).game
    finally:
        store.close()
    game = game_of(game_id)
    checked = 0
    for command in _rolled_samples(game, state):
        try:
            odds = game.odds(state, command)
        except ValueError:
            continue  # the rules refuse this command here (no fight going on...)
        if odds is None or odds.success is None:
            continue
        wins = Fraction(0)
        try:
            for decision, weight in _every_throw(game, state, command):
                wins += weight * (game.succeeded(decision.events[0]) is True)
        except ValueError:
            continue  # the rules refuse this command here (a cap, an empty pool)
        assert wins == odds.success, command
        checked += 1
    assert checked


class _Unthrown(Exception):
    """A request past the faces given: the enumeration branches on its every face."""

    def __init__(self, die: Any, count: int) -> None:
        self.die, self.count = die, count


class _Prefix:
    """Faces handed out request by request; a request past them is `_Unthrown`."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces, self.used = faces, 0

    def roll(self, request: Any) -> tuple[int, ...]:
        if self.used + request.count > len(self.faces):
            raise _Unthrown(request.die, request.count)
        taken = self.faces[self.used : self.used + request.count]
        self.used += request.count
        return taken


def _every_throw(game: AnyGame, state: Any, command: Command) -> Iterator[tuple[Any, Fraction]]:
    """Every decision of ``command`` with its chance: each request, in the order the rules
    ask for them, enumerated over every face of its die (a die's faces equally likely)."""
    pending: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while pending:
        faces, weight = pending.pop()
        try:
            yield game.decide(state, command, _Prefix(faces)), weight
        except _Unthrown as more:
            share = weight / len(more.die.faces) ** more.count
            for combo in itertools.product(more.die.faces, repeat=more.count):
                pending.append(((*faces, *combo), share))


@pytest.mark.parametrize("game_id", [g for g, _ in systems.GAMES])
def test_every_shipped_game_has_a_golden_playthrough(game_id: str) -> None:
    assert sorted(GOLDEN.glob(f"{game_id}_*.jsonl")), f"no golden playthrough for {game_id}"


def test_a_declaration_is_read_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a command's fields evaluates its type hints once, then serves them cached."""
    import typing

    from tablee.systems import declare

    class Once(target.Refill):
        pass

    calls: list[object] = []
    original = typing.get_type_hints
    monkeypatch.setattr(
        typing, "get_type_hints", lambda obj, *a, **k: calls.append(obj) or original(obj, *a, **k)
    )
    first = declare.fields_of(Once)
    assert declare.fields_of(Once) is first and calls == [Once]
