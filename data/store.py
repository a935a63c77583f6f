"""The store: tables, seats, the action log and results, on SQLite (default) or PostgreSQL.

Every write goes through :meth:`Store.transaction`, which is the only code
that reaches the backend's write side. It hands out a :class:`Tx` that refuses
to run outside its own ``async with`` block or in another task, so no write
can ride along in another coroutine's transaction and be rolled back with
it. Reads use the backend's read-only side, which sees exactly what has been
committed, never another coroutine's half-done transaction. The SQL below is
portable (see ``data/sql.py``); each backend in ``data/backends`` translates it.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar

from data.backends.base import Backend, IntegrityError, Row, Tx, TxClosed, Written
from data.backends.sqlite import SqliteBackend
from data.schema import MIGRATIONS, SCHEMA_VERSION

__all__ = ["ACTIVE", "ActionRecord", "ChannelBusy", "IntegrityError", "SeatRecord", "StaleVersion", "Store",
           "TableRecord", "Tx", "TxClosed", "Written"]

ACTIVE = ("lobby", "playing")
#: Table and user ids are Discord snowflakes or row ids: both fit a signed 64-bit integer.
MAX_ID = 2**63 - 1


class StaleVersion(Exception):
    """The table moved on between reading it and committing a change."""


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


def _now() -> float:
    return time.time()


class Store:
    """The one store interface: every write through :meth:`transaction`, reads of committed data only."""

    # aiosqlite's worker thread is not a daemon and asyncpg's pools hold sockets: a store
    # left open keeps the process alive at exit, so tests close whatever the bots they drove opened.
    _open: ClassVar[set[Store]] = set()

    @classmethod
    async def close_all(cls) -> None:
        for store in list(cls._open):
            await store.close()

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self.path = backend.location
        self._closed = False
        Store._open.add(self)

    @classmethod
    async def open(cls, path: str) -> Store:
        """The SQLite store in the file at ``path`` (created and migrated as needed)."""
        return await cls._started(await SqliteBackend.open(path))

    @classmethod
    async def connect(cls, target: str) -> Store:
        """The store at ``target``: ``postgresql://…`` (or ``postgres://…``), ``sqlite:PATH`` or a file path."""
        if target.startswith(("postgresql://", "postgres://")):
            # Imported here so that a SQLite-only set-up never loads asyncpg.
            from data.backends.postgres import PostgresBackend

            return await cls._started(await PostgresBackend.open(target))
        return await cls.open(target.removeprefix("sqlite:"))

    @classmethod
    async def _started(cls, backend: Backend) -> Store:
        store = cls(backend)
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
    async def transaction(self) -> AsyncIterator[Tx]:
        """``async with store.transaction() as tx:`` commits on exit, rolls back on any error."""
        async with self._backend.transaction() as tx:
            yield tx

    # ------------------------------------------------------------------ reads

    # Reads go to the backend's read side, which sees only committed data (see data/backends).

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self._backend.fetchone(sql, params)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._backend.fetchall(sql, params)

    async def schema_version(self) -> int:
        row = await self._one("SELECT MAX(version) FROM schema_version")
        return int(row[0] or 0) if row else 0

    async def pragma(self, name: str) -> Any:
        """A backend setting: a read-only PRAGMA's first value on SQLite, a server setting on PostgreSQL."""
        return await self._backend.setting(name)

    async def migrate(self) -> None:
        async with self.transaction() as tx:
            current = await self._backend.schema_version(tx)
            if current > SCHEMA_VERSION:
                raise RuntimeError(f"database schema {current} is newer than this build ({SCHEMA_VERSION})")
            for version in range(current + 1, SCHEMA_VERSION + 1):
                for statement in self._backend.ddl(MIGRATIONS[version - 1]):
                    await tx.execute(statement)
                await self._backend.set_schema_version(tx, version)

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
        except IntegrityError as exc:
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

    async def _with_seats(self, row: Row) -> TableRecord:
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
            await tx.execute("UPDATE game_tables SET posted_version = GREATEST(posted_version, ?) WHERE id = ?",
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
