"""PostgreSQL through asyncpg: a pool of write connections and a pool of read-only ones.

Each ``transaction()`` block takes one connection from the write pool and runs a
real transaction on it, so several tables commit at once (one process or many);
the ``UPDATE … WHERE version = $n`` checks, which PostgreSQL re-evaluates on a
row another transaction just changed, keep each table's history linear.
Reads use a pool whose sessions are read-only, outside any transaction: each
read sees what was committed when it ran, never a transaction in flight.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from data.backends.base import SCHEMA_VERSION_TABLE, IntegrityError, Row, Tx, TxClosed, Written
from data.schema import MIGRATIONS
from data.sql import ddl_to_postgres, identity_columns, insert_returning, split_statements, to_postgres

#: Tables whose key PostgreSQL numbers itself: an INSERT into one returns the key as ``lastrowid``.
IDENTITIES = identity_columns(MIGRATIONS)
#: Any number works; every process migrating the same database must use the same one.
MIGRATION_LOCK = 0x6465636B  # "deck"

WRITERS = 8
READERS = 8


def _rowcount(status: str) -> int:
    """``UPDATE 3`` → 3, ``INSERT 0 1`` → 1; statements that count nothing → -1, as sqlite3 does."""
    match = re.search(r"(\d+)\s*$", status or "")
    return int(match.group(1)) if match else -1


def _param(value: Any) -> Any:
    # The schema stores booleans as integers (SQLite has no other); asyncpg will not cast for us.
    return int(value) if isinstance(value, bool) else value


def _params(params: Sequence[Any]) -> list[Any]:
    return [_param(v) for v in params]


async def _keep(_conn: asyncpg.Connection) -> None:
    """Release without asyncpg's default reset (RESET ALL, UNLISTEN…: a round trip per use).

    The store changes no session state: it sets nothing, listens to nothing and takes only
    transaction-scoped locks; asyncpg still rolls back a transaction left open before this.
    """


def redact(url: str) -> str:
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)


class PostgresTx(Tx):
    def __init__(self, conn: asyncpg.Connection) -> None:
        super().__init__()
        self._conn = conn

    async def _execute(self, sql: str, params: Sequence[Any]) -> Written:
        statement = to_postgres(sql)
        try:
            returning = insert_returning(statement, IDENTITIES)
            if returning is not None:
                rows = await self._conn.fetch(returning, *_params(params))
                return Written(len(rows), int(rows[-1][0]) if rows else None)
            return Written(_rowcount(await self._conn.execute(statement, *_params(params))), None)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc

    async def _executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._conn.executemany(to_postgres(sql), [_params(r) for r in rows])
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc

    async def _fetch(self, sql: str, params: Sequence[Any]) -> list[Row]:
        return list(await self._conn.fetch(to_postgres(sql), *_params(params)))


#: The pools are small and busy for the bot's whole life: an idle connection or a cached prepared statement
#: is kept rather than expired, and so asyncpg sets no timer for it each time a connection goes back to its
#: pool or a statement is first prepared (in a burst, a timer per query, each costing the loop work).
_KEEP_OPEN: dict[str, float] = {"max_inactive_connection_lifetime": 0, "max_cached_statement_lifetime": 0}


class PostgresBackend:
    name = "postgresql"

    def __init__(self, writer: asyncpg.Pool, reader: asyncpg.Pool, url: str) -> None:
        self._writer = writer
        self._reader = reader
        self.location = redact(url)
        self._closed = False

    @classmethod
    async def open(cls, url: str, *, writers: int = WRITERS, readers: int = READERS,
                   command_timeout: float | None = None) -> PostgresBackend:
        """``command_timeout``: seconds one statement may take before asyncpg gives it up (TimeoutError),
        so a stuck server fails the command that met it instead of holding it for ever."""
        # Settings in the URL's query (e.g. ?search_path=…) reach the server as well; these are added to them.
        writer = await asyncpg.create_pool(url, min_size=1, max_size=writers, reset=_keep, **_KEEP_OPEN,
                                           command_timeout=command_timeout,
                                           server_settings={"application_name": "deckhand"})
        try:
            reader = await asyncpg.create_pool(url, min_size=1, max_size=readers, reset=_keep, **_KEEP_OPEN,
                                               command_timeout=command_timeout,
                                               server_settings={"application_name": "deckhand-read",
                                                                "default_transaction_read_only": "on"})
        except BaseException:
            await writer.close()
            raise
        return cls(writer, reader, url)

    async def close(self) -> None:
        """Wait for the transactions in flight (the pools wait for their connections), then close."""
        self._closed = True
        await self._reader.close()
        await self._writer.close()

    #: ``transaction(one_statement=True)`` commits its lone statement by itself, in one round trip.
    one_statement_transactions = True

    @asynccontextmanager
    async def transaction(self, one_statement: bool = False) -> AsyncIterator[Tx]:
        if self._closed:
            raise TxClosed("the store is closed")
        async with self._writer.acquire() as conn:
            if one_statement:
                # Sent without BEGIN and COMMIT: PostgreSQL runs a lone statement as a transaction of its own,
                # all of it or nothing, committed (flushed, with synchronous_commit on) before its reply comes
                # back. One round trip instead of three or more.
                single = PostgresTx(conn)
                single.one_statement = True
                try:
                    yield single
                finally:
                    single._end()
                return
            transaction = conn.transaction()
            await transaction.start()
            tx = PostgresTx(conn)
            try:
                yield tx
            except BaseException:
                tx._end()
                # The first error is the one to report; a connection that cannot even roll back
                # is rolled back or discarded by the pool when it is released.
                with contextlib.suppress(Exception):
                    await transaction.rollback()
                raise
            tx._end()
            await transaction.commit()

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self._reader.fetchrow(to_postgres(sql), *_params(params))

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._reader.fetch(to_postgres(sql), *_params(params)))

    # ------------------------------------------------------------- migrations

    def ddl(self, migration: str) -> list[str]:
        return [ddl_to_postgres(s) for s in split_statements(migration)]

    async def schema_version(self, tx: Tx, at: float) -> int:
        # Two processes starting together on a new database must not both run migration 1.
        await tx.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
        await tx.execute(ddl_to_postgres(SCHEMA_VERSION_TABLE))
        row = await tx.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(row[0]) if row else 0

    async def set_schema_version(self, tx: Tx, version: int, at: float) -> None:
        await tx.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", (version, at))

    async def applied_schema(self) -> int:
        """The applied migrations, read only (``python -m web`` must not make the table that migrate makes)."""
        exists = await self.fetchone("SELECT COUNT(*) FROM information_schema.tables"
                                     " WHERE table_schema = current_schema() AND table_name = ?", ("schema_version",))
        if not (exists and exists[0]):
            return 0
        row = await self.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(row[0]) if row else 0

    async def setting(self, name: str) -> Any:
        """A server setting's value (``synchronous_commit``, ``server_version``…), None if there is none."""
        row = await self.fetchone("SELECT current_setting(?, true)", (name,))
        return None if row is None else row[0]
