"""Nothing long on the event loop: indexed reads, reads in the reader thread, short waits for outside locks."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from contextlib import closing
from typing import Any

import pytest

from bench.loop_lag import LoopLag
from data.backends import sqlite as backend_module
from data.database import Turns
from data.store import Store
from data.tables import LATEST_TABLE

pytestmark = pytest.mark.asyncio


def plan(path: str, sql: str, params: tuple[Any, ...]) -> str:
    with closing(sqlite3.connect(path)) as conn:
        return " | ".join(str(row[-1]) for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))


async def test_latest_table_is_served_by_an_index_on_the_channel(tmp_path: Any) -> None:
    path = str(tmp_path / "deckhand.sqlite3")
    store = await Store.open(path)
    try:
        for i in range(3):
            await store.tables.create_table(guild_id=1, channel_id=5, game="do_over", options={}, seed=i,
                                            host_id=1, host_name="a")
            await store.tables.close_table(i + 1, 0)
        assert (await store.tables.latest_table(5)).id == 3  # type: ignore[union-attr]
    finally:
        await store.close()
    found = plan(path, LATEST_TABLE, (5,))
    assert "tables_by_channel" in found, found
    assert "SCAN" not in found and "TEMP B-TREE" not in found, found


async def test_the_newest_tournament_and_the_entrants_are_read_by_index(tmp_path: Any) -> None:
    path = str(tmp_path / "deckhand.sqlite3")
    await (await Store.open(path)).close()
    for sql, index in (("SELECT * FROM tournaments WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                        "tournaments_by_channel"),
                       ("SELECT * FROM entrants WHERE tournament_id = ? ORDER BY id", "entrants_by_tournament")):
        found = plan(path, sql, (1,))
        assert index in found and "SCAN" not in found, found


async def test_reads_run_off_the_loops_thread(tmp_path: Any) -> None:
    store = await Store.open(str(tmp_path / "deckhand.sqlite3"))
    threads: list[int] = []
    try:
        reader: Any = store._backend._reader  # type: ignore[attr-defined]
        reader.create_function("which_thread", 0, lambda: threads.append(threading.get_ident()) or 1)
        await store.db.one("SELECT which_thread()")
    finally:
        await store.close()
    assert threads and threads[0] != threading.get_ident()


async def test_the_loop_waits_at_most_100_ms_for_an_outside_lock_and_the_write_goes_through(tmp_path: Any) -> None:
    """A backup or the sqlite3 shell holding the write lock for 0.6 s: the write waits for it off the loop."""
    path = str(tmp_path / "deckhand.sqlite3")
    store = await Store.open(path)
    assert backend_module.LOOP_BUSY_MS <= 100
    writer: Any = store._backend._writer  # type: ignore[attr-defined]
    assert writer.execute("PRAGMA busy_timeout").fetchone()[0] <= 100
    held, release = threading.Event(), threading.Event()

    def outside() -> None:
        with closing(sqlite3.connect(path, isolation_level=None)) as conn:
            conn.execute("BEGIN IMMEDIATE")
            held.set()
            release.wait(5)
            time.sleep(0.6)
            conn.execute("COMMIT")

    thread = threading.Thread(target=outside)
    thread.start()
    try:
        held.wait(5)
        release.set()
        async with LoopLag() as lag:
            await store.settings.set_guild_setting(1, "turn_time", "1d", 7)
        assert await store.settings.guild_settings(1) == {"turn_time": "1d"}
        assert lag.worst_ms < 150, f"the loop was held {lag.worst_ms:.0f} ms by a lock outside the bot"
        assert lag.samples > 10, "the loop ran on while the write waited"
    finally:
        release.set()
        thread.join()
        await store.close()


async def test_a_store_call_after_a_long_turn_of_the_loop_waits_for_the_next_turn() -> None:
    """Many coroutines ready at once each do a slice of work then call the store: once the loop's turn
    has run ``TURN`` seconds, the rest go on in later turns, and a timer due meanwhile fires between."""
    turns = Turns(turn=0.004)
    order: list[str] = []

    async def caller(name: str) -> None:
        await turns.take()
        time.sleep(0.002)  # a slice of work on the loop (an engine's move, say)
        order.append(name)

    async def timer() -> None:
        await asyncio.sleep(0)
        order.append("timer")

    # The timer's coroutine and ten callers are ready in the same turn, the timer's second step comes
    # after that turn: without turns, all ten callers run before it.
    timer_task = asyncio.create_task(timer())
    await asyncio.gather(*(caller(f"c{i}") for i in range(10)), timer_task)
    assert order.index("timer") < 6, order


async def test_a_turn_ends_with_the_loops_turn() -> None:
    turns = Turns(turn=10.0)
    await turns.take()
    assert turns._since is not None
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert turns._since is None, "the next turn of the loop starts a fresh turn"


async def test_a_postgresql_statement_past_its_command_timeout_fails_instead_of_hanging(pg_target: str) -> None:
    store = await Store.connect(pg_target, command_timeout=0.3)
    try:
        started = time.perf_counter()
        with pytest.raises(asyncio.TimeoutError):
            await store.db.one("SELECT pg_sleep(1.5)")
        assert time.perf_counter() - started < 1.2
        assert await store.db.one("SELECT 1") is not None, "the store goes on"
    finally:
        await store.close()
