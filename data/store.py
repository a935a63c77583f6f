"""The SQLite store (aiosqlite, WAL): tables, seats, the action log and results."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar

import aiosqlite

from data.schema import MIGRATIONS, SCHEMA_VERSION

ACTIVE = ("lobby", "playing")


class StaleVersion(Exception):
    """The table moved on between reading it and committing an action."""


class ChannelBusy(Exception):
    """The channel already has an active table."""


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


def _now() -> float:
    return time.time()


class Store:
    """One aiosqlite connection; every write is its own transaction."""

    # aiosqlite's worker thread is not a daemon: a store left open keeps the
    # process alive at exit, so tests close whatever the bots they drove opened.
    _open: ClassVar[set[Store]] = set()

    @classmethod
    async def close_all(cls) -> None:
        for store in list(cls._open):
            await store.close()

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        # One connection serves every table; transactions from different
        # tables must not interleave on it.
        self._tx_lock = asyncio.Lock()
        Store._open.add(self)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._tx_lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    @classmethod
    async def open(cls, path: str) -> Store:
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        # PRAGMAs return rows; an unread cursor would keep a statement open and block COMMIT.
        for pragma in ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON"):
            await db.execute_fetchall(pragma)
        store = cls(db)
        await store.migrate()
        return store

    async def close(self) -> None:
        Store._open.discard(self)
        await self.db.close()

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0])

    async def migrate(self) -> None:
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {current} is newer than this build ({SCHEMA_VERSION})")
        for version in range(current + 1, SCHEMA_VERSION + 1):
            async with self.transaction() as db:
                for statement in MIGRATIONS[version - 1].split(";"):
                    if statement.strip():
                        await db.execute_fetchall(statement)
                await db.execute_fetchall(f"PRAGMA user_version = {version}")

    # ----------------------------------------------------------------- tables

    async def create_table(self, *, guild_id: int | None, channel_id: int, game: str,
                           options: dict[str, Any], seed: int, host_id: int, host_name: str) -> TableRecord:
        now = _now()
        try:
            async with self.transaction() as db:
                cur = await db.execute(
                    "INSERT INTO game_tables (guild_id, channel_id, game, options, status, seed, host_id,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                    (guild_id, channel_id, game, json.dumps(options, sort_keys=True), seed, host_id, now, now))
                table_id = int(cur.lastrowid or 0)
                await db.execute(
                    "INSERT INTO seats (table_id, position, user_id, name, is_bot) VALUES (?, 0, ?, ?, 0)",
                    (table_id, host_id, host_name))
        except aiosqlite.IntegrityError as exc:
            raise ChannelBusy from exc
        table = await self.get_table(table_id)
        assert table is not None
        return table

    async def get_table(self, table_id: int) -> TableRecord | None:
        async with self.db.execute("SELECT * FROM game_tables WHERE id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        return await self._with_seats(row)

    async def active_table(self, channel_id: int) -> TableRecord | None:
        async with self.db.execute(
            "SELECT * FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,)) as cur:
            row = await cur.fetchone()
        return None if row is None else await self._with_seats(row)

    async def playing_tables(self) -> list[TableRecord]:
        async with self.db.execute("SELECT * FROM game_tables WHERE status = 'playing' ORDER BY id") as cur:
            rows = await cur.fetchall()
        return [await self._with_seats(r) for r in rows]

    async def _with_seats(self, row: aiosqlite.Row) -> TableRecord:
        async with self.db.execute(
            "SELECT position, user_id, name, is_bot FROM seats WHERE table_id = ? ORDER BY position",
            (row["id"],)) as cur:
            seats = [SeatRecord(r["position"], r["user_id"], r["name"], bool(r["is_bot"]))
                     for r in await cur.fetchall()]
        return TableRecord(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], game=row["game"],
            options=json.loads(row["options"]), status=row["status"], seed=row["seed"],
            version=row["version"], snapshot=row["snapshot"], host_id=row["host_id"],
            posted_version=row["posted_version"], seats=seats)

    async def _replace_seats(self, db: aiosqlite.Connection, table_id: int, seats: Sequence[SeatRecord]) -> None:
        await db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        await db.executemany(
            "INSERT INTO seats (table_id, position, user_id, name, is_bot) VALUES (?, ?, ?, ?, ?)",
            [(table_id, s.position, s.user_id, s.name, int(s.is_bot)) for s in seats])

    async def set_lobby_seats(self, table_id: int, seats: Sequence[SeatRecord]) -> None:
        """Replace a lobby's seat list (join, leave, add bot) in one transaction."""
        async with self.transaction() as db:
            cur = await db.execute("UPDATE game_tables SET updated_at = ? WHERE id = ? AND status = 'lobby'",
                                   (_now(), table_id))
            if cur.rowcount != 1:
                raise StaleVersion("the table is no longer in its lobby")
            await self._replace_seats(db, table_id, seats)

    async def start_table(self, table_id: int, seats: Sequence[SeatRecord], snapshot: str) -> None:
        """Fix the seat order and store the opening snapshot at version 0."""
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE game_tables SET status = 'playing', version = 0, snapshot = ?, updated_at = ?"
                " WHERE id = ? AND status = 'lobby'", (snapshot, _now(), table_id))
            if cur.rowcount != 1:
                raise StaleVersion("the table is no longer in its lobby")
            await self._replace_seats(db, table_id, seats)

    async def commit_action(self, table_id: int, expected_version: int, seat: int, action: str,
                            label: str, events: list[str], snapshot: str,
                            results: list[tuple[int, int | None, int]] | None = None) -> int:
        """Append one action and save the new snapshot, all or nothing.

        Raises StaleVersion when the table is not at ``expected_version``.
        With ``results`` (seat, user, place) the table is finished in the same transaction.
        """
        new_version = expected_version + 1
        status = "finished" if results is not None else "playing"
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE game_tables SET version = ?, snapshot = ?, status = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'playing'",
                (new_version, snapshot, status, _now(), table_id, expected_version))
            if cur.rowcount != 1:
                raise StaleVersion(f"table {table_id} is not at version {expected_version}")
            await db.execute(
                "INSERT INTO actions (table_id, version, seat, action, label, events, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table_id, new_version, seat, action, label, json.dumps(events), _now()))
            if results is not None:
                await db.executemany(
                    "INSERT INTO results (table_id, seat, user_id, place) VALUES (?, ?, ?, ?)",
                    [(table_id, s, u, p) for s, u, p in results])
        return new_version

    async def set_status(self, table_id: int, status: str) -> None:
        await self.db.execute("UPDATE game_tables SET status = ?, updated_at = ? WHERE id = ?",
                              (status, _now(), table_id))

    async def set_host(self, table_id: int, user_id: int) -> None:
        await self.db.execute("UPDATE game_tables SET host_id = ? WHERE id = ?", (user_id, table_id))

    async def set_posted_version(self, table_id: int, version: int) -> None:
        await self.db.execute("UPDATE game_tables SET posted_version = MAX(posted_version, ?) WHERE id = ?",
                              (version, table_id))

    async def replace_snapshot(self, table_id: int, snapshot: str) -> None:
        await self.db.execute("UPDATE game_tables SET snapshot = ? WHERE id = ?", (snapshot, table_id))

    async def actions(self, table_id: int, after_version: int = 0) -> list[ActionRecord]:
        async with self.db.execute(
            "SELECT version, seat, action, label, events, at FROM actions"
            " WHERE table_id = ? AND version > ? ORDER BY version", (table_id, after_version)) as cur:
            rows = await cur.fetchall()
        return [ActionRecord(r["version"], r["seat"], r["action"], r["label"], json.loads(r["events"]), r["at"])
                for r in rows]

    async def results(self, table_id: int) -> list[tuple[int, int | None, int]]:
        async with self.db.execute(
            "SELECT seat, user_id, place FROM results WHERE table_id = ? ORDER BY seat", (table_id,)) as cur:
            return [(r["seat"], r["user_id"], r["place"]) for r in await cur.fetchall()]
