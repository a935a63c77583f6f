"""The store's guarantees on each backend: snowflake ids, schema versions, and several stores on one database."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import pytest

from data.schema import MIGRATIONS, SCHEMA_VERSION
from data.store import SeatRecord, StaleVersion, Store
from host import TableService
from tests.host.test_store import play_some, started

SNOWFLAKE = 1_398_765_432_109_876_543  # a real-sized Discord id: needs 64 bits


async def test_snowflake_ids_round_trip(store: Store) -> None:
    guild, channel, user = SNOWFLAKE, SNOWFLAKE + 1, 2**63 - 1
    table = await store.tables.create_table(guild_id=guild, channel_id=channel, game="do_over", options={},
                                            seed=2**62 + 3, host_id=user, host_name="big")
    assert (table.guild_id, table.channel_id, table.host_id, table.seed) == (guild, channel, user, 2**62 + 3)
    seats = [SeatRecord(0, user, "big", False), SeatRecord(1, None, "Robo Ada", True)]
    await store.tables.set_lobby_seats(table.id, table.revision, seats)
    again = await store.tables.active_table(channel)
    assert again is not None and again.seats == seats
    await store.tables.start_table(table.id, again.revision, seats, "{}")
    await store.tables.commit_action(table.id, 0, 0, "done", "done", ["e"], "{}", [(0, user, 1), (1, None, 2)])
    assert await store.tables.results(table.id) == [(0, user, 1), (1, None, 2)]


async def test_new_tables_get_increasing_ids(store: Store) -> None:
    ids = [(await store.tables.create_table(guild_id=1, channel_id=c, game="do_over", options={}, seed=1, host_id=1,
                                            host_name="a")).id for c in (1, 2, 3)]
    assert ids == [1, 2, 3]


async def test_a_database_from_a_newer_build_is_refused(store_target: str) -> None:
    store = await Store.connect(store_target)
    async with store.transaction() as tx:
        await tx.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", (SCHEMA_VERSION + 1, 0.0))
    await store.close()
    with pytest.raises(RuntimeError, match="newer than this build"):
        await Store.connect(store_target)


async def test_a_version_2_sqlite_file_opens_and_migrates_forward(tmp_path: Any) -> None:
    """Files made before the schema_version table carried their version in PRAGMA user_version only."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        for script in MIGRATIONS[:2]:
            db.executescript(script)
        db.execute("PRAGMA user_version = 2")
        db.execute("INSERT INTO game_tables (guild_id, channel_id, game, options, status, seed, host_id, created_at,"
                   " updated_at) VALUES (1, 5, 'do_over', '{}', 'lobby', 9, 1, 0, 0)")
    db.close()
    store = await Store.connect(f"sqlite:{path}")
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert [int(r[0]) for r in await store.db.all("SELECT version FROM schema_version ORDER BY version")] == \
            list(range(1, SCHEMA_VERSION + 1))
        assert await store.pragma("user_version") == SCHEMA_VERSION
        table = await store.tables.active_table(5)
        assert table is not None and table.seed == 9
    finally:
        await store.close()
    store = await Store.open(str(path))  # and again: nothing left to do
    assert await store.schema_version() == SCHEMA_VERSION
    await store.close()


async def test_two_stores_on_one_database_meet_the_version_check(store_target: str) -> None:
    """Two processes on one database: a commit made for a version another one already moved on is refused."""
    first, second = await Store.connect(store_target), await Store.connect(store_target)
    try:
        tables = TableService(first, new_seed=lambda: 4)
        table = await started(tables, 3)
        await play_some(tables, table.id, 4)
        at = (await second.tables.get_table(table.id)).version  # type: ignore[union-attr]
        assert at == 4
        results = await asyncio.gather(
            first.tables.commit_action(table.id, at, 0, "a", "a", [], "{}"),
            second.tables.commit_action(table.id, at, 1, "b", "b", [], "{}"), return_exceptions=True)
        assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "int"]
        log = await second.tables.actions(table.id)
        assert [a.version for a in log] == [1, 2, 3, 4, 5]
        with pytest.raises(StaleVersion):
            await second.tables.commit_action(table.id, at, 0, "c", "c", [], "{}")
        with pytest.raises(StaleVersion):  # lobby-style changes carry the revision check the same way
            await second.tables.close_table(table.id, 0)
    finally:
        await first.close()
        await second.close()


async def test_reads_never_see_a_transaction_in_flight(store: Store) -> None:
    tables = TableService(store, new_seed=lambda: 2)
    table = await started(tables, 2)
    inside, release = asyncio.Event(), asyncio.Event()

    async def slow_write() -> None:
        async with store.transaction() as tx:
            await tx.execute("UPDATE game_tables SET status = 'abandoned' WHERE id = ?", (table.id,))
            inside.set()
            await release.wait()

    task = asyncio.create_task(slow_write())
    await inside.wait()
    assert (await store.tables.get_table(table.id)).status == "playing"  # type: ignore[union-attr]
    release.set()
    await task
    assert (await store.tables.get_table(table.id)).status == "abandoned"  # type: ignore[union-attr]


@pytest.mark.parametrize("where", ["between statements", "inside a statement"])
async def test_a_cancelled_transaction_rolls_back_and_the_store_goes_on(store: Store, where: str) -> None:
    tables = TableService(store, new_seed=lambda: 2)
    table = await started(tables, 2)
    inside = asyncio.Event()
    slow = "SELECT pg_sleep(5)" if store._backend.name == "postgresql" else None

    async def doomed() -> None:
        async with store.transaction() as tx:
            await tx.execute("UPDATE game_tables SET status = 'abandoned' WHERE id = ?", (table.id,))
            inside.set()
            if where == "inside a statement" and slow:
                await tx.execute(slow)
            await asyncio.sleep(5)

    task = asyncio.create_task(doomed())
    await inside.wait()
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert (await store.tables.get_table(table.id)).status == "playing"  # type: ignore[union-attr]
    await play_some(tables, table.id, 2)  # the write side works on
    assert (await store.tables.get_table(table.id)).version == 2  # type: ignore[union-attr]
