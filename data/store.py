"""The SQLite store (aiosqlite, WAL): tables, seats, the action log and results.

Every write goes through :meth:`Store.transaction`, which is the only code
that touches the write connection. It hands out a :class:`Tx` that refuses
to run outside its own ``async with`` block or in another task, so no write
can ride along in another coroutine's transaction and be rolled back with
it. Reads use a second, read-only connection: in WAL mode it sees exactly
what has been committed, never another coroutine's half-done transaction.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar
from urllib.parse import quote

import aiosqlite

from data.schema import MIGRATIONS, SCHEMA_VERSION

ACTIVE = ("lobby", "playing")
#: Table and user ids are Discord snowflakes or row ids: both fit a signed 64-bit integer.
MAX_ID = 2**63 - 1


class StaleVersion(Exception):
    """The table moved on between reading it and committing a change."""


class ChannelBusy(Exception):
    """The channel already has an active table."""


class TxClosed(RuntimeError):
    """A write was attempted outside the transaction that owns the connection."""


@dataclass
class SeatRecord:
    position: int
    user_id: int | None
    name: str
    is_bot: bool


@dataclass
class TableRecord:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    options: dict[str, Any]
    status: str
    seed: int
    version: int
    snapshot: str | None
    host_id: int
    posted_version: int
    #: Bumped by every change of the table's state (lobby edits, start, moves, abandon):
    #: the optimistic check that non-move changes carry, as moves carry ``version``.
    revision: int = 0
    seats: list[SeatRecord] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return self.status in ACTIVE


@dataclass
class ActionRecord:
    version: int
    seat: int
    action: str
    label: str
    events: list[str]
    at: float


@dataclass(frozen=True)
class Written:
    rowcount: int
    lastrowid: int | None


def _now() -> float:
    return time.time()


class Tx:
    """One open write transaction: the only handle that can write to the database."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._task = asyncio.current_task()
        self._open = True

    def _check(self) -> None:
        if not self._open:
            raise TxClosed("this transaction has already ended")
        if asyncio.current_task() is not self._task:
            raise TxClosed("a transaction may only be used by the task that opened it")

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Written:
        self._check()
        async with self._db.execute(sql, params) as cur:
            return Written(cur.rowcount, cur.lastrowid)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._check()
        await self._db.executemany(sql, rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        self._check()
        async with self._db.execute(sql, params) as cur:
            return await cur.fetchone()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        self._check()
        async with self._db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    def _end(self) -> None:
        self._open = False


class Store:
    """A write connection behind one transaction lock, and a read-only connection."""

    # aiosqlite's worker thread is not a daemon: a store left open keeps the
    # process alive at exit, so tests close whatever the bots they drove opened.
    _open: ClassVar[set[Store]] = set()

    @classmethod
    async def close_all(cls) -> None:
        for store in list(cls._open):
            await store.close()

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection, path: str) -> None:
        self._writer = writer
        self._reader = reader
        self.path = path
        # One connection writes for every table; transactions must not interleave on it.
        self._tx_lock = asyncio.Lock()
        self._closed = False
        Store._open.add(self)

    @classmethod
    async def open(cls, path: str) -> Store:
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
        store = cls(writer, reader, path)
        await store.migrate()
        return store

    async def close(self) -> None:
        """Wait for the transaction in flight, then close both connections; idempotent."""
        if self._closed:
            return
        self._closed = True
        Store._open.discard(self)
        async with self._tx_lock:
            await self._reader.close()
            await self._writer.close()

    @property
    def closed(self) -> bool:
        return self._closed

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """``async with store.transaction() as tx:`` commits on exit, rolls back on any error."""
        async with self._tx_lock:
            if self._closed:
                raise TxClosed("the store is closed")
            await self._writer.execute_fetchall("BEGIN IMMEDIATE")
            tx = Tx(self._writer)
            try:
                yield tx
            except BaseException:
                tx._end()
                await self._writer.execute_fetchall("ROLLBACK")
                raise
            tx._end()
            await self._writer.execute_fetchall("COMMIT")

    # ------------------------------------------------------------------ reads

    # Each read runs to completion in one call on the reader's thread. A statement left
    # open between calls (a cursor awaiting its next fetch) would hold the connection's
    # read transaction open, and another coroutine's read would see that older snapshot.

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        rows = await self._reader.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        return list(await self._reader.execute_fetchall(sql, params))

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def pragma(self, name: str) -> Any:
        """A read-only PRAGMA's first value (``journal_mode``, ``integrity_check``…)."""
        if not name.replace("_", "").isalpha():
            raise ValueError(f"not a pragma name: {name!r}")
        row = await self._one(f"PRAGMA {name}")
        return None if row is None else row[0]

    async def migrate(self) -> None:
        async with self.transaction() as tx:
            row = await tx.fetchone("PRAGMA user_version")
            current = int(row[0]) if row else 0
            if current > SCHEMA_VERSION:
                raise RuntimeError(f"database schema {current} is newer than this build ({SCHEMA_VERSION})")
            for version in range(current + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[version - 1].split(";"):
                    if statement.strip():
                        await tx.execute(statement)
                await tx.execute(f"PRAGMA user_version = {version}")

    # ----------------------------------------------------------------- tables

    async def create_table(self, *, guild_id: int | None, channel_id: int, game: str,
                           options: dict[str, Any], seed: int, host_id: int, host_name: str) -> TableRecord:
        now = _now()
        try:
            async with self.transaction() as tx:
                written = await tx.execute(
                    "INSERT INTO game_tables (guild_id, channel_id, game, options, status, seed, host_id,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                    (guild_id, channel_id, game, json.dumps(options, sort_keys=True), seed, host_id, now, now))
                table_id = int(written.lastrowid or 0)
                await tx.execute(
                    "INSERT INTO seats (table_id, position, user_id, name, is_bot) VALUES (?, 0, ?, ?, 0)",
                    (table_id, host_id, host_name))
        except sqlite3.IntegrityError as exc:
            raise ChannelBusy from exc
        table = await self.get_table(table_id)
        assert table is not None
        return table

    async def get_table(self, table_id: int) -> TableRecord | None:
        if not 0 < table_id <= MAX_ID:
            return None
        row = await self._one("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        return None if row is None else await self._with_seats(row)

    async def active_table(self, channel_id: int) -> TableRecord | None:
        row = await self._one("SELECT * FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
                              (channel_id,))
        return None if row is None else await self._with_seats(row)

    async def playing_tables(self) -> list[TableRecord]:
        rows = await self._all("SELECT * FROM game_tables WHERE status = 'playing' ORDER BY id")
        return [await self._with_seats(r) for r in rows]

    async def all_tables(self) -> list[TableRecord]:
        rows = await self._all("SELECT * FROM game_tables ORDER BY id")
        return [await self._with_seats(r) for r in rows]

    async def _with_seats(self, row: aiosqlite.Row) -> TableRecord:
        seats = [SeatRecord(r["position"], r["user_id"], r["name"], bool(r["is_bot"])) for r in await self._all(
            "SELECT position, user_id, name, is_bot FROM seats WHERE table_id = ? ORDER BY position", (row["id"],))]
        return TableRecord(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], game=row["game"],
            options=json.loads(row["options"]), status=row["status"], seed=row["seed"],
            version=row["version"], snapshot=row["snapshot"], host_id=row["host_id"],
            posted_version=row["posted_version"], revision=row["revision"], seats=seats)

    @staticmethod
    async def _replace_seats(tx: Tx, table_id: int, seats: Sequence[SeatRecord]) -> None:
        await tx.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        await tx.executemany(
            "INSERT INTO seats (table_id, position, user_id, name, is_bot) VALUES (?, ?, ?, ?, ?)",
            [(table_id, s.position, s.user_id, s.name, int(s.is_bot)) for s in seats])

    @staticmethod
    async def _bump(tx: Tx, table_id: int, revision: int, statuses: Sequence[str], sets: str = "",
                    params: Sequence[Any] = ()) -> None:
        """Move the table from ``revision`` to the next, if it is still there and in one of ``statuses``."""
        marks = ", ".join("?" for _ in statuses)
        written = await tx.execute(
            f"UPDATE game_tables SET revision = revision + 1, updated_at = ?{sets}"
            f" WHERE id = ? AND revision = ? AND status IN ({marks})",
            (_now(), *params, table_id, revision, *statuses))
        if written.rowcount != 1:
            raise StaleVersion(f"table {table_id} changed since revision {revision}")

    async def set_lobby_seats(self, table_id: int, revision: int, seats: Sequence[SeatRecord],
                              host_id: int | None = None) -> None:
        """Replace a lobby's seat list (join, leave, add bot), and its host if given, all or nothing."""
        async with self.transaction() as tx:
            if host_id is None:
                await self._bump(tx, table_id, revision, ("lobby",))
            else:
                await self._bump(tx, table_id, revision, ("lobby",), ", host_id = ?", (host_id,))
            await self._replace_seats(tx, table_id, seats)

    async def close_table(self, table_id: int, revision: int, seats: Sequence[SeatRecord] | None = None) -> None:
        """Abandon a lobby or a game in play (with its final seat list, if it changed)."""
        async with self.transaction() as tx:
            await self._bump(tx, table_id, revision, ACTIVE, ", status = 'abandoned'")
            if seats is not None:
                await self._replace_seats(tx, table_id, seats)

    async def start_table(self, table_id: int, revision: int, seats: Sequence[SeatRecord], snapshot: str) -> None:
        """Fix the seat order and store the opening snapshot at version 0."""
        async with self.transaction() as tx:
            await self._bump(tx, table_id, revision, ("lobby",),
                             ", status = 'playing', version = 0, snapshot = ?", (snapshot,))
            await self._replace_seats(tx, table_id, seats)

    async def commit_action(self, table_id: int, expected_version: int, seat: int, action: str,
                            label: str, events: list[str], snapshot: str,
                            results: list[tuple[int, int | None, int]] | None = None) -> int:
        """Append one action and save the new snapshot, all or nothing.

        Raises StaleVersion when the table is not at ``expected_version`` (or no longer playing).
        With ``results`` (seat, user, place) the table is finished in the same transaction.
        """
        new_version = expected_version + 1
        status = "finished" if results is not None else "playing"
        async with self.transaction() as tx:
            written = await tx.execute(
                "UPDATE game_tables SET version = ?, snapshot = ?, status = ?, updated_at = ?,"
                " revision = revision + 1 WHERE id = ? AND version = ? AND status = 'playing'",
                (new_version, snapshot, status, _now(), table_id, expected_version))
            if written.rowcount != 1:
                raise StaleVersion(f"table {table_id} is not at version {expected_version}")
            await tx.execute(
                "INSERT INTO actions (table_id, version, seat, action, label, events, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table_id, new_version, seat, action, label, json.dumps(events), _now()))
            if results is not None:
                await tx.executemany(
                    "INSERT INTO results (table_id, seat, user_id, place) VALUES (?, ?, ?, ?)",
                    [(table_id, s, u, p) for s, u, p in results])
        return new_version

    async def set_posted_version(self, table_id: int, version: int) -> None:
        """Record that the table message for ``version`` went out; never moves backwards."""
        async with self.transaction() as tx:
            await tx.execute("UPDATE game_tables SET posted_version = MAX(posted_version, ?) WHERE id = ?",
                             (version, table_id))

    async def replace_snapshot(self, table_id: int, version: int, snapshot: str) -> None:
        """Store a snapshot rebuilt from the log, only if the table is still at ``version``."""
        async with self.transaction() as tx:
            written = await tx.execute("UPDATE game_tables SET snapshot = ? WHERE id = ? AND version = ?",
                                       (snapshot, table_id, version))
            if written.rowcount != 1:
                raise StaleVersion(f"table {table_id} is not at version {version}")

    async def actions(self, table_id: int, after_version: int = 0) -> list[ActionRecord]:
        rows = await self._all(
            "SELECT version, seat, action, label, events, at FROM actions"
            " WHERE table_id = ? AND version > ? ORDER BY version", (table_id, after_version))
        return [ActionRecord(r["version"], r["seat"], r["action"], r["label"], json.loads(r["events"]), r["at"])
                for r in rows]

    async def results(self, table_id: int) -> list[tuple[int, int | None, int]]:
        rows = await self._all("SELECT seat, user_id, place FROM results WHERE table_id = ? ORDER BY seat",
                               (table_id,))
        return [(r["seat"], r["user_id"], r["place"]) for r in rows]
