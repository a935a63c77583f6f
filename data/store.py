"""The store: one interface over two backends (SQLite by default, PostgreSQL with ``DATABASE_URL``).

A :class:`Store` is made of named parts sharing one :class:`~data.database.Database` handle, each given
it in its constructor: ``store.tables`` (tables, seats, the action log, results), ``store.timers``,
``store.tournaments``, ``store.ratings`` and ``store.settings``. Every write goes through
``Database.transaction`` (``store.transaction()`` here), the one path to the backend's write side; reads
see only committed data. The SQL is portable (see ``data/sql.py``); each backend in ``data/backends``
translates it, and nothing above ``data/`` knows which backend runs.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, ClassVar

from data.backends.base import Backend, IntegrityError, Tx, TxClosed, Written
from data.backends.sqlite import ReadOnlySqliteBackend, SqliteBackend
from data.database import Database, DataTimings, Turns
from data.ratings import RatingStore
from data.schema import MIGRATIONS, SCHEMA_VERSION
from data.settings import SettingsStore
from data.tables import (
    ACTIVE,
    FORFEITED,
    PLAYER,
    STAND_IN,
    ActionRecord,
    ChannelBusy,
    SeatEvent,
    SeatRecord,
    StaleVersion,
    TableRecord,
    TableStore,
)
from data.timers import TimerStore
from data.tournaments import TournamentStore
from data.web import WebStore

#: Seconds one PostgreSQL statement may take (asyncpg's ``command_timeout``; DATABASE_COMMAND_TIMEOUT).
COMMAND_TIMEOUT = 10.0

__all__ = ["ACTIVE", "COMMAND_TIMEOUT", "FORFEITED", "PLAYER", "STAND_IN", "ActionRecord", "ChannelBusy",
           "IntegrityError", "SeatEvent", "SeatRecord", "StaleVersion", "Store", "TableRecord", "Tx", "TxClosed",
           "Written"]


class Store:
    """The one store interface: its parts share one database handle; every write through a transaction."""

    # asyncpg's pools hold sockets and a SQLite store's reader and checkpoint run in threads: a store
    # left open can keep the process alive at exit, so tests close whatever the bots they drove opened.
    _open: ClassVar[set[Store]] = set()

    @classmethod
    async def close_all(cls) -> None:
        for store in list(cls._open):
            await store.close()

    def __init__(self, backend: Backend, now: Callable[[], float] = time.time,
                 recorder: DataTimings | None = None, turns: Turns | None = None) -> None:
        self._now = now
        # The parts read the clock through the store's, so that setting it (a test's clock) reaches them all.
        self.db = Database(backend, lambda: self._now(), recorder, turns)
        self.path = backend.location
        self.timers = TimerStore(self.db)
        self.settings = SettingsStore(self.db)
        self.ratings = RatingStore(self.db)
        self.tournaments = TournamentStore(self.db)
        self.tables = TableStore(self.db, self.ratings)
        self.web = WebStore(self.db)
        self._closed = False
        Store._open.add(self)

    @property
    def now(self) -> Callable[[], float]:
        """The one clock every stored time is read from (``store.now()``); settable, for every part at once."""
        return self._now

    @now.setter
    def now(self, now: Callable[[], float]) -> None:
        self._now = now

    @property
    def _backend(self) -> Backend:
        """For tools and tests inside data/ (the copy to PostgreSQL, backend checks); never above it."""
        return self.db.backend

    @classmethod
    async def open(cls, path: str, now: Callable[[], float] = time.time,
                   recorder: DataTimings | None = None, turns: Turns | None = None) -> Store:
        """The SQLite store in the file at ``path`` (created and migrated as needed)."""
        return await cls._started(await SqliteBackend.open(path), now, recorder, turns)

    @classmethod
    async def connect(cls, target: str, now: Callable[[], float] = time.time, *,
                      command_timeout: float = COMMAND_TIMEOUT, recorder: DataTimings | None = None,
                      turns: Turns | None = None) -> Store:
        """The store at ``target``: ``postgresql://…`` (or ``postgres://…``), ``sqlite:PATH`` or a file path.

        ``command_timeout``: on PostgreSQL, seconds one statement may take before it fails (TimeoutError).
        ``recorder``: told each transaction's time and each move committed (the bot's metrics).
        ``turns``: the event loop's turns, shared with other work that takes them (the bot's render pool)."""
        if target.startswith(("postgresql://", "postgres://")):
            # Imported here so that a SQLite-only set-up never loads asyncpg.
            from data.backends.postgres import PostgresBackend

            return await cls._started(await PostgresBackend.open(target, command_timeout=command_timeout), now,
                                      recorder, turns)
        return await cls.open(target.removeprefix("sqlite:"), now, recorder, turns)

    @classmethod
    async def open_read_only(cls, target: str, now: Callable[[], float] = time.time) -> Store:
        """A store that only reads (``python -m web``): the SQLite file opened read-only, or PostgreSQL
        without migrating."""
        if target.startswith(("postgresql://", "postgres://")):
            from data.backends.postgres import PostgresBackend

            return cls(await PostgresBackend.open(target, writers=1, readers=4), now)
        return cls(await ReadOnlySqliteBackend.open(target.removeprefix("sqlite:")), now)  # type: ignore[arg-type]

    @classmethod
    async def _started(cls, backend: Backend, now: Callable[[], float],
                       recorder: DataTimings | None = None, turns: Turns | None = None) -> Store:
        store = cls(backend, now, recorder, turns)
        try:
            await store.migrate()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Wait for the transaction in flight, then close the connections; idempotent."""
        if self._closed:
            return
        self._closed = True
        Store._open.discard(self)
        await self._backend.close()

    @property
    def closed(self) -> bool:
        return self._closed

    @asynccontextmanager
    async def transaction(self, one_statement: bool = False) -> AsyncIterator[Tx]:
        """``async with store.transaction() as tx:`` commits on exit, rolls back on any error.

        ``one_statement``: the block runs exactly one statement, committed by itself where the backend
        can (``Backend.one_statement_transactions``); a second statement raises ``TxClosed``."""
        async with self.db.transaction(one_statement) as tx:
            yield tx

    async def schema_version(self) -> int:
        row = await self.db.one("SELECT MAX(version) FROM schema_version")
        return int(row[0] or 0) if row else 0

    async def applied_schema(self) -> int:
        """The schema version the database is at, read without writing anything (``python -m web``, which must not
        migrate): 0 when no bot has made the schema yet. SQLite also counts PRAGMA user_version, which files made
        before the schema_version table carry (as the bot's migration reads them)."""
        return await self._backend.applied_schema()

    async def pragma(self, name: str) -> Any:
        """A backend setting: a read-only PRAGMA's first value on SQLite, a server setting on PostgreSQL."""
        return await self._backend.setting(name)

    async def migrate(self) -> None:
        async with self.transaction() as tx:
            current = await self._backend.schema_version(tx, self.now())
            if current > SCHEMA_VERSION:
                raise RuntimeError(f"database schema {current} is newer than this build ({SCHEMA_VERSION})")
            for version in range(current + 1, SCHEMA_VERSION + 1):
                for statement in self._backend.ddl(MIGRATIONS[version - 1]):
                    await tx.execute(statement)
                await self._backend.set_schema_version(tx, version, self.now())
