"""SQLite in WAL mode: one write connection behind a lock, called on the event loop's own thread, and one
read-only connection in a reader thread of its own.

Writes are short transactions on indexed rows (WAL, ``synchronous=NORMAL``: a commit writes the log and
does not wait for the disk), so they run inline: handed to a thread, each statement would cost a round
trip through the event loop, and the write lock, held across those trips, would queue every table's
writes behind each other's (bench/README.md has the figures). Called inline, a transaction holds the
lock only for its own work.

Reads can grow with a game or a server (a game's log, lists over many tables), so they all run in the
reader thread, on a read-only connection: the event loop goes on while one runs. In WAL mode that
connection sees exactly what has been committed, never another coroutine's half-done transaction. The
thread is a one-worker executor of the event loop's (``run_in_executor``), which is what aiosqlite does
with a thread of its own; aiosqlite's answers, though, come back through futures that the loop's tools
cannot tell from a wait for ever (an in-process Discord that waits for the bot's work to settle took them
for stuck work, and the offline sandbox stalled), while executor work is known to them.

Nothing on the loop's thread waits long for a lock held outside the bot (a backup, the ``sqlite3``
shell): the write connection's ``busy_timeout`` is ``LOOP_BUSY_MS``; when it runs out, the transaction's
BEGIN is retried in a worker thread that waits up to ``BUSY_MS`` while the loop goes on.

The WAL checkpoint, which copies the log into the database file and waits for the disk, is kept off
the loop too. Commits never run it (``wal_autocheckpoint=0``). After every ``CHECKPOINT_EVERY`` commits,
the next transaction first runs one in a worker thread, on the write connection and holding the write
lock: with no writer running meanwhile it copies the whole log, so the log starts again from its
beginning instead of growing for as long as writes keep coming (a checkpoint beside a busy writer never
catches up). Only writes wait meanwhile.

The write connection is touched only by :meth:`SqliteBackend.transaction`, one transaction at a time.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, closing
from typing import Any
from urllib.parse import quote

from data.backends.base import SCHEMA_VERSION_TABLE, IntegrityError, Row, Tx, TxClosed, Written
from data.sql import split_statements, to_sqlite

log = logging.getLogger(__name__)

#: Commits between two checkpoints: SQLite's own default is 1,000 pages, and a move writes two or three.
CHECKPOINT_EVERY = 400
#: How long the write connection, on the loop's thread, waits for a lock held by another process.
LOOP_BUSY_MS = 20
#: How long a transaction waits for that lock in all, in a worker thread, before it fails.
BUSY_MS = 5000


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


def _open_reader(path: str) -> sqlite3.Connection:
    """The read-only connection (the reader thread runs this): it may wait for a lock, off the loop."""
    reader = _connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)
    _fetch(reader, f"PRAGMA busy_timeout={BUSY_MS}", ())
    return reader


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    return getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) \
        or "locked" in str(exc) or "busy" in str(exc)


def _begin_waiting(conn: sqlite3.Connection) -> None:
    """BEGIN IMMEDIATE, waiting up to ``BUSY_MS`` for another process's lock (a worker thread runs this)."""
    _fetch(conn, f"PRAGMA busy_timeout={BUSY_MS}", ())
    try:
        conn.execute("BEGIN IMMEDIATE").close()
    finally:
        _fetch(conn, f"PRAGMA busy_timeout={LOOP_BUSY_MS}", ())


def _checkpoint(conn: sqlite3.Connection) -> None:
    """Copy the WAL into the database file (a worker thread runs this, under the write lock)."""
    _fetch(conn, "PRAGMA wal_checkpoint(PASSIVE)", ())


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

    def __init__(self, writer: sqlite3.Connection, reader: sqlite3.Connection, reads: ThreadPoolExecutor,
                 path: str) -> None:
        self._writer = writer
        self._reader = reader
        #: The reader thread: every use of ``_reader`` runs there, one at a time.
        self._reads = reads
        self.location = path
        # One connection writes for every table; transactions must not interleave on it.
        self._tx_lock = asyncio.Lock()
        self._closed = False
        self._commits = 0

    @classmethod
    async def open(cls, path: str) -> SqliteBackend:
        if path == ":memory:" or path.startswith("file:"):
            raise ValueError("the store needs a file path (a second, read-only connection opens the same file)")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        writer = _connect(path)
        # PRAGMAs return rows; an unread cursor would keep a statement open and block COMMIT.
        for pragma in ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
                       f"PRAGMA busy_timeout={LOOP_BUSY_MS}", "PRAGMA wal_autocheckpoint=0"):
            _fetch(writer, pragma, ())
        reads = ThreadPoolExecutor(1, thread_name_prefix="deckhand-sqlite-reader")
        try:
            reader = await asyncio.get_running_loop().run_in_executor(reads, _open_reader, path)
        except BaseException:
            reads.shutdown(wait=False)
            writer.close()
            raise
        return cls(writer, reader, reads, path)

    async def close(self) -> None:
        """Wait for the transaction in flight, then close both connections."""
        self._closed = True
        async with self._tx_lock:
            await asyncio.get_running_loop().run_in_executor(self._reads, self._reader.close)
            self._reads.shutdown(wait=False)
            self._writer.close()

    #: Each statement is a call on this thread, not a network round trip: nothing to gain.
    one_statement_transactions = False

    @asynccontextmanager
    async def transaction(self, one_statement: bool = False) -> AsyncIterator[Tx]:
        """With ``one_statement``, still BEGIN … COMMIT here; only the one-statement limit applies."""
        async with self._tx_lock:
            if self._closed:
                raise TxClosed("the store is closed")
            if self._commits >= CHECKPOINT_EVERY:
                await self._checkpoint(self._writer)
            try:
                self._writer.execute("BEGIN IMMEDIATE").close()
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc):
                    raise
                # Another process holds the write lock (a backup, the sqlite3 shell): wait for it off the loop.
                await asyncio.get_running_loop().run_in_executor(None, _begin_waiting, self._writer)
            tx = SqliteTx(self._writer)
            tx.one_statement = one_statement
            try:
                yield tx
            except BaseException:
                tx._end()
                if self._writer.in_transaction:  # SQLite may have rolled back on its own already
                    self._writer.execute("ROLLBACK").close()
                raise
            tx._end()
            try:
                self._writer.execute("COMMIT").close()
            except BaseException:
                # A failed COMMIT (disk full, an I/O error, a deferred constraint) can leave the transaction
                # open, and every later BEGIN on this connection would fail: end it. Nothing was committed.
                if self._writer.in_transaction:
                    self._writer.execute("ROLLBACK").close()
                raise
            self._commits += 1

    async def _checkpoint(self, writer: sqlite3.Connection) -> None:
        """Run under the write lock, before a transaction begins."""
        self._commits = 0
        try:
            await asyncio.get_running_loop().run_in_executor(None, _checkpoint, writer)
        except sqlite3.Error as exc:
            # Nothing is lost (the WAL keeps every commit), and the transaction goes ahead; try again soon.
            log.warning("SQLite checkpoint failed (%s); the log grows until one succeeds", exc)
            self._commits = CHECKPOINT_EVERY // 2

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return next(iter(await self.fetchall(sql, params)), None)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        # One trip to the reader thread: the statement runs to its end there (no read transaction left
        # open, so the next read sees the newest commit).
        return await asyncio.get_running_loop().run_in_executor(self._reads, _fetch, self._reader, to_sqlite(sql),
                                                                params)

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

    async def applied_schema(self) -> int:
        return await applied_schema(self.fetchone)

    async def setting(self, name: str) -> Any:
        """A read-only PRAGMA's first value (``journal_mode``, ``integrity_check``…)."""
        if not name.replace("_", "").isalpha():
            raise ValueError(f"not a pragma name: {name!r}")
        row = await self.fetchone(f"PRAGMA {name}")
        return None if row is None else row[0]


async def applied_schema(fetchone: Callable[..., Awaitable[Any]]) -> int:
    """The schema version a SQLite file is at, read only: files made before the schema_version table carry it in
    PRAGMA user_version alone (as the migration reads them)."""
    exists = await fetchone("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
                            ("schema_version",))
    legacy = await fetchone("PRAGMA user_version")
    version = int(legacy[0]) if legacy else 0
    if exists and exists[0]:
        row = await fetchone("SELECT MAX(version) FROM schema_version")
        version = max(version, int(row[0] or 0) if row else 0)
    return version


class ReadOnlySqliteBackend:
    """SQLite for a process that only reads (``python -m web``): one read-only connection, no writer."""

    name = "sqlite"
    one_statement_transactions = False

    def __init__(self, reader: sqlite3.Connection, path: str) -> None:
        self._reader = reader
        self.location = path

    @classmethod
    async def open(cls, path: str) -> ReadOnlySqliteBackend:
        if not os.path.isfile(path):
            raise FileNotFoundError(f"no database at {path} (start the bot once to create it)")
        reader = _connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)
        _fetch(reader, f"PRAGMA busy_timeout={BUSY_MS}", ())
        return cls(reader, path)

    async def close(self) -> None:
        self._reader.close()

    @asynccontextmanager
    async def transaction(self, one_statement: bool = False) -> Any:
        raise TxClosed("this store is read-only")
        yield  # pragma: no cover

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return next(iter(_fetch(self._reader, to_sqlite(sql), params)), None)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return _fetch(self._reader, to_sqlite(sql), params)

    async def applied_schema(self) -> int:
        return await applied_schema(self.fetchone)
