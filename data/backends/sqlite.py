"""SQLite in WAL mode: one write connection behind a lock, one read-only connection, both called
on the event loop's own thread.

A statement on an indexed row takes tens of microseconds here (WAL, ``synchronous=NORMAL``: a commit
writes the log and does not wait for the disk). Handing each one to a worker thread, as aiosqlite does,
cost more than the statement itself: a round trip through the event loop per statement, and, because
the write lock was held across those trips, every table's writes queued behind each other's (in a burst
of moves at 56 tables the lock was held for half of the burst). Called inline, a transaction holds the
lock only for its own work.

What could take longer is kept off the loop: the WAL checkpoint, which copies the log into the
database file and waits for the disk. Commits never run it (``wal_autocheckpoint=0``); after every
``CHECKPOINT_EVERY`` commits a worker thread runs a PASSIVE one on a connection of its own, which
never blocks a writer.

The write connection is touched only by :meth:`SqliteBackend.transaction`, one transaction at a time.
The read-only connection in WAL mode sees exactly what has been committed, never another coroutine's
half-done transaction.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager, closing
from typing import Any
from urllib.parse import quote

from data.backends.base import SCHEMA_VERSION_TABLE, IntegrityError, Row, Tx, TxClosed, Written
from data.sql import split_statements, to_sqlite

#: Commits between two checkpoints: SQLite's own default is 1,000 pages, and a move writes two or three.
CHECKPOINT_EVERY = 400


def _run_statement(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> Written:
    with closing(conn.execute(sql, params)) as cursor:
        return Written(cursor.rowcount, cursor.lastrowid)


def _fetch(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    # Read to the end and close at once: a statement left open would hold its read transaction,
    # and a later read on the connection would see that older snapshot.
    with closing(conn.execute(sql, params)) as cursor:
        return cursor.fetchall()


def _connect(target: str, *, uri: bool = False) -> sqlite3.Connection:
    # check_same_thread is off because the store may be opened on one event loop's thread and closed
    # from another's (tests, scripts); calls never overlap: the loop runs them one at a time.
    conn = sqlite3.connect(target, isolation_level=None, uri=uri, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    return conn


def _checkpoint(path: str) -> None:
    """Copy the WAL into the database file without blocking writers (a worker thread runs this)."""
    with closing(_connect(path)) as conn:
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


class SqliteTx(Tx):
    def __init__(self, conn: sqlite3.Connection) -> None:
        super().__init__()
        self._conn = conn

    async def _execute(self, sql: str, params: Sequence[Any]) -> Written:
        try:
            return _run_statement(self._conn, to_sqlite(sql), params)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def _executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            self._conn.executemany(to_sqlite(sql), rows).close()
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def _fetch(self, sql: str, params: Sequence[Any]) -> list[Row]:
        return _fetch(self._conn, to_sqlite(sql), params)


class SqliteBackend:
    name = "sqlite"

    def __init__(self, writer: sqlite3.Connection, reader: sqlite3.Connection, path: str) -> None:
        self._writer = writer
        self._reader = reader
        self.location = path
        # One connection writes for every table; transactions must not interleave on it.
        self._tx_lock = asyncio.Lock()
        self._closed = False
        self._commits = 0
        self._checkpointing: asyncio.Future[None] | None = None

    @classmethod
    async def open(cls, path: str) -> SqliteBackend:
        if path == ":memory:" or path.startswith("file:"):
            raise ValueError("the store needs a file path (a second, read-only connection opens the same file)")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        writer = _connect(path)
        # PRAGMAs return rows; an unread cursor would keep a statement open and block COMMIT.
        for pragma in ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
                       "PRAGMA busy_timeout=5000", "PRAGMA wal_autocheckpoint=0"):
            _fetch(writer, pragma, ())
        reader = _connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)
        _fetch(reader, "PRAGMA busy_timeout=5000", ())
        return cls(writer, reader, path)

    async def close(self) -> None:
        """Wait for the transaction and the checkpoint in flight, then close both connections."""
        self._closed = True
        async with self._tx_lock:
            if self._checkpointing is not None:
                await asyncio.shield(self._checkpointing)
            self._reader.close()
            self._writer.close()

    #: Each statement is a call on this thread, not a network round trip: nothing to gain.
    one_statement_transactions = False

    @asynccontextmanager
    async def transaction(self, one_statement: bool = False) -> AsyncIterator[Tx]:
        """With ``one_statement``, still BEGIN … COMMIT here; only the one-statement limit applies."""
        async with self._tx_lock:
            if self._closed:
                raise TxClosed("the store is closed")
            self._writer.execute("BEGIN IMMEDIATE").close()
            tx = SqliteTx(self._writer)
            tx.one_statement = one_statement
            try:
                yield tx
            except BaseException:
                tx._end()
                self._writer.execute("ROLLBACK").close()
                raise
            tx._end()
            self._writer.execute("COMMIT").close()
            self._committed()

    def _committed(self) -> None:
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY and self._checkpointing is None:
            self._commits = 0
            self._checkpointing = asyncio.get_running_loop().run_in_executor(None, _checkpoint, self.location)
            self._checkpointing.add_done_callback(self._checkpointed)

    def _checkpointed(self, done: asyncio.Future[None]) -> None:
        self._checkpointing = None
        if not done.cancelled() and done.exception() is not None:
            # A failed checkpoint loses nothing (the WAL keeps every commit); the next one retries.
            self._commits = CHECKPOINT_EVERY

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return next(iter(_fetch(self._reader, to_sqlite(sql), params)), None)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return _fetch(self._reader, to_sqlite(sql), params)

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
