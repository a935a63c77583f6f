"""Store fixtures on both backends: ``store_target`` and ``store`` run each test on SQLite and on PostgreSQL.

PostgreSQL: the server at ``DECKHAND_TEST_PG`` (default 127.0.0.1:5432, user
postgres). The session creates a fresh database and drops it at the end; each
test gets a schema of its own in it, so ids start at 1 as in a new file. With
``CI=true`` a missing server fails the run; elsewhere those tests skip.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import pytest

from data.store import Store

T = TypeVar("T")

PG_SERVER = os.environ.get("DECKHAND_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
BACKENDS = ("sqlite", "postgres")
_schemas = itertools.count(1)


def run_async(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to completion on a loop of its own, in another thread.

    Session set-up happens outside any test's event loop, and must not disturb it.
    """
    async def main() -> T:
        return await make()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


def with_database(url: str, name: str, query: str = "") -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", query, ""))


async def _admin(url: str, *statements: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=5)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """The URL of a database made for this test session (dropped at its end)."""
    name = f"deckhand_test_{os.getpid()}_{secrets.token_hex(3)}"
    try:
        run_async(lambda: _admin(PG_SERVER, f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # noqa: BLE001 - any failure to reach the server means the same thing here
        reason = f"PostgreSQL at {PG_SERVER} unavailable ({type(exc).__name__}: {exc})".replace("\n", " ")
        if os.environ.get("CI", "").strip().lower() == "true":
            pytest.fail(f"{reason}; CI=true requires the PostgreSQL run", pytrace=False)
        pytest.skip(reason)
    try:
        yield with_database(PG_SERVER, name)
    finally:
        run_async(lambda: _admin(PG_SERVER, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def pg_schema(pg_database: str) -> Iterator[str]:
    """A fresh, empty schema in the session's database, as a URL whose search_path starts there."""
    schema = f"t{os.getpid()}_{next(_schemas)}"
    run_async(lambda: _admin(pg_database, f'CREATE SCHEMA "{schema}"'))
    try:
        yield with_database(pg_database, urlsplit(pg_database).path.lstrip("/"), f"search_path={schema}")
    finally:
        # A test that failed may have left a store open; the session's DROP DATABASE … FORCE cleans up then.
        with contextlib.suppress(Exception):
            run_async(lambda: _admin(pg_database, "SET lock_timeout = '2s'", f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture(params=BACKENDS)
def store_target(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """Where a fresh, empty store lives: a SQLite file path or a PostgreSQL URL, for ``Store.connect``."""
    if request.param == "sqlite":
        yield str(tmp_path / "store.sqlite3")
    else:
        yield from pg_schema(request.getfixturevalue("pg_database"))


@pytest.fixture
def pg_target(pg_database: str) -> Iterator[str]:
    """A fresh PostgreSQL schema, for tests that need PostgreSQL alone (the migration tool)."""
    yield from pg_schema(pg_database)


@pytest.fixture
async def store(store_target: str) -> AsyncIterator[Store]:
    s = await Store.connect(store_target)
    yield s
    await s.close()
