"""Choosing the store: argument, then environment, then the default file; the fast path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tablee.errors import InputError, StorageError
from tablee.table.connect import DATABASE_URL_ENV, default_database_path, open_store
from tablee.table.pg_store import PgStore
from tablee.table.sql_store import SqlAlchemyStore
from tablee.table.sqlite_store import SqliteStore


def opened_path(db: str | None) -> Path:
    store = open_store(db)
    try:
        assert isinstance(store, SqliteStore)
        return Path(store.path)
    finally:
        store.close()


def test_the_argument_wins_over_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATABASE_URL_ENV, str(tmp_path / "env.sqlite3"))
    assert opened_path(str(tmp_path / "arg.sqlite3")) == tmp_path / "arg.sqlite3"
    assert opened_path(None) == tmp_path / "env.sqlite3"


def test_the_default_file_is_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_database_path() == tmp_path / "xdg" / "tablee" / "tablee.sqlite3"
    assert opened_path(None) == default_database_path()
    assert default_database_path().is_file()


def test_a_sqlite_url_takes_the_fast_path(tmp_path: Path) -> None:
    assert opened_path("sqlite:///" + str(tmp_path / "url.sqlite3")) == tmp_path / "url.sqlite3"


@pytest.mark.postgres
@pytest.mark.parametrize("scheme", ["postgresql", "postgresql+psycopg"])
def test_a_postgresql_url_opens_the_psycopg_store(postgres_url: str, scheme: str) -> None:
    store = open_store(postgres_url.replace("postgresql", scheme, 1))
    try:
        assert isinstance(store, PgStore)
        assert store.url.startswith("postgresql+psycopg://")
        assert store.tables() == []
    finally:
        store.close()


@pytest.mark.parametrize(
    "value", ["mysql://user:s3cret@host/db", "sqlite://", "sqlite:///:memory:", "http://x/y"]
)
def test_other_urls_are_refused(value: str) -> None:
    with pytest.raises(InputError, match="unsupported database") as caught:
        open_store(value)
    assert "s3cret" not in str(caught.value)
    assert value.split("://")[0] in str(caught.value)


HEAVY = "sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'alembic'))"


def run_python(code: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_importing_the_sqlite_store_does_not_import_sqlalchemy() -> None:
    code = f"import sys, tablee.table.sqlite_store, tablee.table.connect; print({HEAVY})"
    assert run_python(code) == "[]"


def test_using_a_migrated_sqlite_file_does_not_import_sqlalchemy(tmp_path: Path) -> None:
    path = tmp_path / "fast.sqlite3"
    SqliteStore(path).close()
    code = (
        "import sys, uuid\n"
        "from datetime import UTC, datetime\n"
        "from tablee.systems.base import Fact\n"
        "from tablee.table.connect import open_store\n"
        "for db in (sys.argv[1], 'sqlite:///' + sys.argv[1]):\n"
        "    store = open_store(db)\n"
        "    tid = str(uuid.uuid4())\n"
        "    store.create_table(tid, tid, 'pouyss', Fact('table.created'), datetime.now(UTC))\n"
        "    store.append(tid, 1, [Fact('test.roll', {'n': 1})], datetime.now(UTC))\n"
        "    assert len(store.load(tid)) == 2\n"
        "    store.close()\n"
        f"print({HEAVY})\n"
    )
    assert run_python(code, str(path)) == "[]"


@pytest.mark.parametrize("url", ["mysql://u@h/db", "sqlite://", "sqlite:///:memory:", "nonsense"])
def test_sqlalchemy_store_refuses_other_databases(url: str) -> None:
    with pytest.raises(InputError):
        SqlAlchemyStore(url)


def test_an_unreachable_server_is_a_storage_error_without_the_password() -> None:
    with pytest.raises(StorageError, match=r"127\.0\.0\.1:1/") as caught:
        SqlAlchemyStore("postgresql://someone:pa55word@127.0.0.1:1/nothing")
    assert "pa55word" not in str(caught.value)


def test_an_unreachable_server_is_a_storage_error_without_the_password_psycopg() -> None:
    with pytest.raises(StorageError, match=r"127\.0\.0\.1:1/") as caught:
        PgStore("postgresql://someone:pa55word@127.0.0.1:1/nothing")
    assert "pa55word" not in str(caught.value)
    assert "someone:***@" in str(caught.value)


@pytest.mark.parametrize("form", ["{path}", "sqlite:///{path}"])
def test_a_file_in_a_missing_folder_is_refused_and_nothing_is_made(
    tmp_path: Path, form: str
) -> None:
    path = tmp_path / "typo" / "deeper" / "t.sqlite3"
    with pytest.raises(InputError, match=r"the folder .* does not exist") as info:
        open_store(form.format(path=path))
    assert str(path) in str(info.value)
    assert not (tmp_path / "typo").exists()
