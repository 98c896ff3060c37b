"""Fixtures for the event store contract suite: one store per backend.

Backends: ``sqlite3`` (SqliteStore), ``sqlalchemy-sqlite`` (SqlAlchemyStore on a SQLite
file), ``postgresql`` (SqlAlchemyStore on a fresh database of the server at
127.0.0.1:5432, dropped after the test) and ``psycopg`` (PgStore, the store ``tablee``
opens for a PostgreSQL URL, on such a database). PostgreSQL tests are skipped when the server is not
reachable, unless ``TABLEE_REQUIRE_POSTGRES=1``.

A *target* is a plain ``(backend, where)`` tuple of strings, so that it can be sent to
spawned processes, which open their own store with ``open_target``.
"""

from __future__ import annotations

import getpass
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from tablee.table.pg_store import PgStore
from tablee.table.sql_store import SqlAlchemyStore
from tablee.table.sqlite_store import SqliteStore
from tablee.table.store import EventStore

PG_HOST = "127.0.0.1"
PG_PORT = 5432
BACKENDS = ("sqlite3", "sqlalchemy-sqlite", "postgresql", "psycopg")

Target = tuple[str, str]


def open_target(target: Target) -> EventStore:
    """Open a store on a target (also used by the spawned worker processes)."""
    backend, where = target
    if backend == "sqlite3":
        return SqliteStore(Path(where))
    if backend == "psycopg":
        return PgStore(where)
    return SqlAlchemyStore(where)


def target_url(target: Target) -> str:
    """The SQLAlchemy URL of a target's database."""
    backend, where = target
    return "sqlite:///" + where if backend == "sqlite3" else where


def _admin_connection() -> tuple[psycopg.Connection[tuple[object, ...]], str]:
    """An autocommit connection to the ``postgres`` database, as postgres or the current user."""
    problems = []
    for user in dict.fromkeys(("postgres", getpass.getuser())):
        try:
            conn = psycopg.connect(
                host=PG_HOST,
                port=PG_PORT,
                user=user,
                dbname="postgres",
                autocommit=True,
                connect_timeout=3,
            )
        except psycopg.Error as exc:
            problems.append(f"as {user}: {' '.join(str(exc).split())}")
            continue
        return conn, user
    raise ConnectionError("; ".join(problems))


@pytest.fixture(scope="session")
def postgres_user() -> str:
    """The PostgreSQL user that can create databases; skips (or fails) when unreachable."""
    try:
        conn, user = _admin_connection()
    except ConnectionError as exc:
        reason = f"PostgreSQL not reachable at {PG_HOST}:{PG_PORT}: {exc}"
        if os.environ.get("TABLEE_REQUIRE_POSTGRES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    conn.close()
    return user


@pytest.fixture
def postgres_url(postgres_user: str) -> Iterator[str]:
    """The URL of a new, empty database ``tablee_test_<hex>``, dropped after the test."""
    name = f"tablee_test_{uuid.uuid4().hex}"
    conn, _ = _admin_connection()
    try:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        yield f"postgresql://{postgres_user}@{PG_HOST}:{PG_PORT}/{name}"
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        )
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
    finally:
        conn.close()


@pytest.fixture(
    params=[
        "sqlite3",
        "sqlalchemy-sqlite",
        pytest.param("postgresql", marks=pytest.mark.postgres),
        pytest.param("psycopg", marks=pytest.mark.postgres),
    ]
)
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> Target:
    """A database with no schema yet, on each backend in turn."""
    backend: str = request.param
    path = tmp_path / "data" / "tablee.sqlite3"
    if backend == "sqlite3":
        return (backend, str(path))
    if backend == "sqlalchemy-sqlite":
        return (backend, "sqlite:///" + str(path))
    return (backend, request.getfixturevalue("postgres_url"))


@pytest.fixture
def store(store_target: Target) -> Iterator[EventStore]:
    """An open store on each backend in turn, closed after the test."""
    opened = open_target(store_target)
    try:
        yield opened
    finally:
        opened.close()
