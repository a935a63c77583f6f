"""SQLite through aiosqlite, in WAL mode: one write connection behind a lock, one read-only connection.

The write connection is touched only by :meth:`SqliteBackend.transaction`, one
transaction at a time. The read-only connection in WAL mode sees exactly what
has been committed, never another coroutine's half-done transaction.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import quote

import aiosqlite

from data.backends.base import SCHEMA_VERSION_TABLE, IntegrityError, Row, Tx, TxClosed, Written
from data.sql import split_statements, to_sqlite


def _run_statement(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> Written:
    cursor = conn.execute(sql, params)
    try:
        return Written(cursor.rowcount, cursor.lastrowid)
    finally:
        cursor.close()


class SqliteTx(Tx):
    def __init__(self, db: aiosqlite.Connection) -> None:
        super().__init__()
        self._db = db

    async def _execute(self, sql: str, params: Sequence[Any]) -> Written:
        # One trip to the connection's thread: execute, read the counts and close the cursor there
        # (``async with db.execute()`` takes a second trip to close it, and writes are the hot path).
        try:
            return await self._db._execute(_run_statement, self._db._conn, to_sqlite(sql), params)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def _executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._db.executemany(to_sqlite(sql), rows)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def _fetch(self, sql: str, params: Sequence[Any]) -> list[Row]:
        async with self._db.execute(to_sqlite(sql), params) as cur:
            return list(await cur.fetchall())


class SqliteBackend:
    name = "sqlite"

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection, path: str) -> None:
        self._writer = writer
        self._reader = reader
        self.location = path
        # One connection writes for every table; transactions must not interleave on it.
        self._tx_lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def open(cls, path: str) -> SqliteBackend:
        if path == ":memory:" or path.startswith("file:"):
            raise ValueError("the store needs a file path (a second, read-only connection opens the same file)")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        writer = await aiosqlite.connect(path, isolation_level=None)
        writer.row_factory = aiosqlite.Row
        # PRAGMAs return rows; an unread cursor would keep a statement open and block COMMIT.
        for pragma in ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
                       "PRAGMA busy_timeout=5000"):
            await writer.execute_fetchall(pragma)
        reader = await aiosqlite.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True,
                                         isolation_level=None)
        reader.row_factory = aiosqlite.Row
        await reader.execute_fetchall("PRAGMA busy_timeout=5000")
        return cls(writer, reader, path)

    async def close(self) -> None:
        """Wait for the transaction in flight, then close both connections."""
        self._closed = True
        async with self._tx_lock:
            await self._reader.close()
            await self._writer.close()

    #: Each statement is a call on the writer's thread, not a network round trip: nothing to gain.
    one_statement_transactions = False

    @asynccontextmanager
    async def transaction(self, one_statement: bool = False) -> AsyncIterator[Tx]:
        """With ``one_statement``, still BEGIN … COMMIT here; only the one-statement limit applies."""
        async with self._tx_lock:
            if self._closed:
                raise TxClosed("the store is closed")
            await self._writer.execute_fetchall("BEGIN IMMEDIATE")
            tx = SqliteTx(self._writer)
            tx.one_statement = one_statement
            try:
                yield tx
            except BaseException:
                tx._end()
                await self._writer.execute_fetchall("ROLLBACK")
                raise
            tx._end()
            await self._writer.execute_fetchall("COMMIT")

    # Each read runs to completion in one call on the reader's thread. A statement left
    # open between calls (a cursor awaiting its next fetch) would hold the connection's
    # read transaction open, and another coroutine's read would see that older snapshot.

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self._reader.execute_fetchall(to_sqlite(sql), params)
        return next(iter(rows), None)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._reader.execute_fetchall(to_sqlite(sql), params))

    # ------------------------------------------------------------- migrations

    def ddl(self, migration: str) -> list[str]:
        return split_statements(migration)

    async def schema_version(self, tx: Tx, at: float) -> int:
        # Databases made before the schema_version table carry their version in user_version only.
        await tx.execute(SCHEMA_VERSION_TABLE)
        pragma = await tx.fetchone("PRAGMA user_version")
        legacy = int(pragma[0]) if pragma else 0
        rows = {int(r[0]) for r in await tx.fetchall("SELECT version FROM schema_version")}
        for version in range(1, legacy + 1):
            if version not in rows:
                await tx.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                                 (version, at))
        return max([legacy, *rows])

    async def set_schema_version(self, tx: Tx, version: int, at: float) -> None:
        await tx.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", (version, at))
        # Kept in step so that an older build, which reads only user_version, still refuses a newer file.
        await tx.execute(f"PRAGMA user_version = {int(version)}")

    async def setting(self, name: str) -> Any:
        """A read-only PRAGMA's first value (``journal_mode``, ``integrity_check``…)."""
        if not name.replace("_", "").isalpha():
            raise ValueError(f"not a pragma name: {name!r}")
        row = await self.fetchone(f"PRAGMA {name}")
        return None if row is None else row[0]
