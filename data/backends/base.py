"""What every backend provides: the transaction handle, and the shape of a backend."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol


class TxClosed(RuntimeError):
    """A write was attempted outside the transaction that owns the connection."""


class IntegrityError(Exception):
    """A constraint refused a write (unique, check, foreign key), on either backend."""


class Row(Protocol):
    """A result row: by column name or by index (``sqlite3.Row`` and ``asyncpg.Record`` both are)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> Any: ...


@dataclass(frozen=True)
class Written:
    rowcount: int
    lastrowid: int | None


class Tx:
    """One open write transaction: the only handle that can write to the database.

    A backend subclasses it with the ``_execute``/``_executemany``/``_fetch`` it runs on its
    connection; the checks here are what keep every write inside its own ``transaction()`` block.
    """

    def __init__(self) -> None:
        self._task = asyncio.current_task()
        self._open = True
        #: Opened with ``transaction(one_statement=True)``: the first statement ends it.
        self.one_statement = False

    def _check(self) -> None:
        if not self._open:
            raise TxClosed("this transaction has already ended")
        if asyncio.current_task() is not self._task:
            raise TxClosed("a transaction may only be used by the task that opened it")
        if self.one_statement:
            self._open = False

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Written:
        self._check()
        return await self._execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._check()
        await self._executemany(sql, rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        self._check()
        return next(iter(await self._fetch(sql, params)), None)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self._check()
        return await self._fetch(sql, params)

    def _end(self) -> None:
        self._open = False

    async def _execute(self, sql: str, params: Sequence[Any]) -> Written:
        raise NotImplementedError

    async def _executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        raise NotImplementedError

    async def _fetch(self, sql: str, params: Sequence[Any]) -> list[Row]:
        raise NotImplementedError


class Backend(Protocol):
    #: "sqlite" or "postgresql": for tools and tests inside data/, never for host/ or cogs/.
    name: str
    #: Where the data lives (a file path or the URL without a password), for messages.
    location: str

    #: Whether ``transaction(one_statement=True)`` saves round trips (the store then sends a write that fits
    #: in one statement that way).
    one_statement_transactions: bool

    def transaction(self, one_statement: bool = False) -> AbstractAsyncContextManager[Tx]: ...

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def close(self) -> None: ...

    def ddl(self, migration: str) -> list[str]: ...

    async def schema_version(self, tx: Tx, at: float) -> int: ...

    async def set_schema_version(self, tx: Tx, version: int, at: float) -> None: ...

    async def setting(self, name: str) -> Any: ...

    async def applied_schema(self) -> int:
        """The schema version the database is at, read without writing anything; 0 when none was made."""
        ...


#: Both backends keep the applied migrations here (SQLite also mirrors it in PRAGMA user_version,
#: which databases made before this table existed carry).
SCHEMA_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL PRIMARY KEY, applied_at REAL NOT NULL)"
)
