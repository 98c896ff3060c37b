"""The schema: Alembic's head, first opens, unknown revisions, the SQLAlchemy mirror."""

from __future__ import annotations

import multiprocessing
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, create_engine, inspect, text

from tablee.errors import StorageError
from tablee.table import migrate
from tablee.table.chain import SECRET_PREFERENCE, first_broken_link
from tablee.table.schema import SCHEMA_HEAD, metadata
from tablee.table.service import TableService
from tablee.table.sql_store import SqlAlchemyStore, engine_url
from tablee.table.sqlite_store import SqliteStore
from tablee.table.store import EventStore

Target = tuple[str, str]
STORE_TABLES = {"alembic_version", "events", "links", "preferences", "tables"}


def open_target(target: Target) -> EventStore:
    """Open a store on a target, in a worker process (same mapping as conftest.py)."""
    backend, where = target
    if backend == "sqlite3":
        return SqliteStore(Path(where))
    if backend == "psycopg":
        from tablee.table.pg_store import PgStore

        return PgStore(where)
    return SqlAlchemyStore(where)


def url_of(target: Target) -> str:
    backend, where = target
    return engine_url("sqlite:///" + where if backend == "sqlite3" else where)


@contextmanager
def connected(target: Target) -> Iterator[Connection]:
    """A plain SQLAlchemy connection to the target's database, committed at the end."""
    engine = create_engine(url_of(target))
    try:
        with engine.begin() as conn:
            yield conn
    finally:
        engine.dispose()


def table_names(target: Target) -> set[str]:
    with connected(target) as conn:
        return set(inspect(conn).get_table_names())


def version_of(target: Target) -> str | None:
    with connected(target) as conn:
        value = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return None if value is None else str(value)


def make_empty(target: Target) -> None:
    """Create the database file, empty (PostgreSQL targets, by either driver, already are)."""
    backend, where = target
    if backend in ("sqlite3", "sqlalchemy-sqlite"):
        path = Path(where.removeprefix("sqlite:///"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()


def test_schema_head_is_alembic_head() -> None:
    script = ScriptDirectory.from_config(migrate.alembic_config())
    assert script.get_heads() == [SCHEMA_HEAD]
    assert migrate.head_revision() == SCHEMA_HEAD == "0004_chain"


def test_an_empty_database_is_migrated_on_open(store_target: Target) -> None:
    make_empty(store_target)
    open_target(store_target).close()
    assert table_names(store_target) == STORE_TABLES
    assert version_of(store_target) == SCHEMA_HEAD


def test_schema_module_mirrors_the_migrations(store_target: Target) -> None:
    open_target(store_target).close()
    with connected(store_target) as conn:
        differences = compare_metadata(MigrationContext.configure(conn), metadata)
    assert differences == []


def test_unknown_revision_is_refused_and_left_alone(store_target: Target) -> None:
    make_empty(store_target)
    with connected(store_target) as conn:
        conn.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)"))
        conn.execute(text("INSERT INTO alembic_version VALUES ('9999_future')"))
    with pytest.raises(StorageError, match="9999_future"):
        open_target(store_target)
    assert table_names(store_target) == {"alembic_version"}
    assert version_of(store_target) == "9999_future"


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"not a database at all, " * 100)
    with pytest.raises(StorageError, match=r"notes\.txt"):
        SqliteStore(path)


def test_upgrade_prints_nothing(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    migrate.upgrade("sqlite:///" + str(tmp_path / "quiet.sqlite3"))
    migrate.upgrade("sqlite:///" + str(tmp_path / "quiet.sqlite3"))
    assert capfd.readouterr() == ("", "")


def _open_worker(target: Target, barrier: Any, results: Any) -> None:
    try:
        barrier.wait(60)
        open_target(target).close()
        results.put("ok")
    except BaseException as exc:
        results.put(f"error: {exc!r}")


def test_concurrent_first_opens_all_succeed(store_target: Target) -> None:
    ctx = multiprocessing.get_context("spawn")
    count = 3
    barrier, results = ctx.Barrier(count), ctx.Queue()
    args = (store_target, barrier, results)
    processes = [ctx.Process(target=_open_worker, args=args) for _ in range(count)]
    for process in processes:
        process.start()
    try:
        outcomes = [results.get(timeout=60) for _ in processes]
    finally:
        for process in processes:
            process.join(60)
            process.close()
        results.close()
        results.join_thread()
    assert outcomes == ["ok"] * count
    assert version_of(store_target) == SCHEMA_HEAD


FIXTURE_DB = Path(__file__).resolve().parents[1] / "fixtures" / "v0_1_0" / "tables.sqlite3"


def _copy_0_1_0_rows(target: Target, secret: str | None = None) -> None:
    """Bring the target to 0002_links and fill it with the 0.1.0 fixture's rows."""
    make_empty(target)
    command.upgrade(migrate.alembic_config(url_of(target)), "0002_links")
    source = sqlite3.connect(f"file:{FIXTURE_DB}?mode=ro", uri=True)
    try:
        rows = {
            name: source.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall()
            for name in ("tables", "events")
        }
    finally:
        source.close()
    with connected(target) as conn:
        conn.execute(
            text("INSERT INTO tables VALUES (:a, :b, :c, :d)"),
            [dict(zip("abcd", row, strict=True)) for row in rows["tables"]],
        )
        conn.execute(
            text("INSERT INTO events VALUES (:a, :b, :c, :d, :e, :f, :g, :h)"),
            [dict(zip("abcdefgh", row, strict=True)) for row in rows["events"]],
        )
        if secret is not None:
            conn.execute(
                text("INSERT INTO preferences VALUES (:k, :v)"),
                {"k": SECRET_PREFERENCE, "v": secret},
            )


def test_0_1_0_events_get_their_chains(store_target: Target) -> None:
    _copy_0_1_0_rows(store_target)
    store = open_target(store_target)
    try:
        assert version_of(store_target) == SCHEMA_HEAD
        service = TableService(store)
        names = [t.name for t in store.tables()]
        assert len(names) == 4
        for name in names:
            events = store.load(store.find_table(name).id)
            assert all(e.chain is not None for e in events)
            assert all(e.rules_version is None and e.command_key is None for e in events)
            assert service.check(name).events == len(events)
    finally:
        store.close()


def test_the_migration_keys_the_chains_with_the_secret_already_there(
    store_target: Target,
) -> None:
    secret = "ab" * 32
    _copy_0_1_0_rows(store_target, secret)
    store = open_target(store_target)
    try:
        assert store.installation_secret() == secret
        for info in store.tables():
            assert first_broken_link(secret, store.load(info.id)) is None
    finally:
        store.close()
