"""Each table's timers run on their own: concurrently across tables, in due order within one, each once;
a table whose handler keeps failing holds up nobody else; a lane is cancelled cleanly at stop."""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict
from typing import Any

import pytest

from data.store import Store
from data.timers import BOT, DEADLINE, REMINDER, TimerPlan, TimerRecord
from host import TableService
from host.clock import RETRY, Scheduler, lost_access, retry_delay

NOW = 1000.0
#: Each handler's wait on Discord (real seconds here): one after another, 50 tables would take 50 times it.
POST = 0.05


async def playing_tables(store: Store, count: int) -> list[int]:
    async with store.transaction() as tx:
        for i in range(count):
            await tx.execute("INSERT INTO game_tables (id, guild_id, channel_id, game, options, status, seed, host_id,"
                             " created_at, updated_at) VALUES (?, 1, ?, 'do_over', '{}', 'playing', 1, 1, 0, 0)",
                             (i + 1, 100 + i))
    return [i + 1 for i in range(count)]


async def run_until_fired(scheduler: Scheduler, store: Store, done: Any, seconds: float = 10.0) -> float:
    started = time.monotonic()
    scheduler.start()
    while time.monotonic() - started < seconds and not done():
        await asyncio.sleep(0.01)
    elapsed = time.monotonic() - started
    await scheduler.close()
    return elapsed


async def test_timers_of_fifty_tables_run_concurrently_each_once_in_due_order_per_table(store: Store) -> None:
    store.now = lambda: NOW  # type: ignore[method-assign]
    tables = await playing_tables(store, 50)
    rng = random.Random(5)
    for table_id in tables:
        # Three timers a table, due at different past instants, written in a shuffled order.
        timers = [TimerRecord(table_id, REMINDER, seat, NOW - 30 + rng.random() * 20, None, float(seat))
                  for seat in range(3)]
        rng.shuffle(timers)
        await store.timers.change_timers(table_id, TimerPlan(add=timers))
    expected = {t: [r.seat for r in sorted(await store.timers.timers_of(t), key=lambda r: r.due or 0)] for t in tables}
    fired: dict[int, list[int]] = defaultdict(list)
    running = 0
    most = 0

    async def fire(batch: list[TimerRecord]) -> list[TimerRecord]:
        nonlocal running, most
        running += 1
        most = max(most, running)
        for timer in batch:
            fired[timer.table_id].append(timer.seat)
        await asyncio.sleep(POST)  # the table's post, waiting on Discord
        await store.timers.change_timers(batch[0].table_id, TimerPlan(drop=[(t.kind, t.seat) for t in batch]))
        running -= 1
        return []

    scheduler = Scheduler(store, fire, batch=1)
    elapsed = await run_until_fired(scheduler, store,
                                    lambda: sum(map(len, fired.values())) >= 150 and not scheduler.busy_tables)
    assert dict(fired) == expected, "every timer once, in due order within its table"
    assert most > 10, f"tables ran one after another (at most {most} at once)"
    assert elapsed < 150 * POST / 3, f"{elapsed:.2f} s: the tables waited for each other"
    assert await store.timers.due_timers(NOW, 10) == []


async def test_a_table_whose_post_keeps_failing_delays_no_other_table(store: Store) -> None:
    clock = [NOW]
    store.now = lambda: clock[0]  # type: ignore[method-assign]
    tables = await playing_tables(store, 5)
    broken = tables[0]
    for table_id in tables:
        await store.timers.change_timers(table_id, TimerPlan(add=[TimerRecord(table_id, BOT, -1, NOW - 10, None, 0.0)]))
    fired_at: dict[int, float] = {}

    async def fire(batch: list[TimerRecord]) -> list[TimerRecord]:
        table_id = batch[0].table_id
        if table_id == broken:
            await asyncio.sleep(1.0)  # a post that times out, again and again
            return batch
        fired_at[table_id] = time.monotonic()
        await store.timers.change_timers(table_id, TimerPlan(drop_kinds=[BOT]))
        return []

    started = time.monotonic()
    scheduler = Scheduler(store, fire)
    await run_until_fired(scheduler, store, lambda: len(fired_at) == 4 and not scheduler.busy_tables, 5.0)
    assert set(fired_at) == set(tables[1:])
    assert max(fired_at.values()) - started < 0.5, "the other tables did not wait for the broken one"
    left = await store.timers.timers_of(broken)
    assert [t.due for t in left] == [NOW + RETRY], "the broken table's timer is retried later"


def test_retries_back_off_and_lost_access_is_not_retried() -> None:
    assert [retry_delay(n) for n in (1, 2, 3)] == [RETRY, 2 * RETRY, 4 * RETRY]
    assert retry_delay(50) <= 3600

    class Refused(Exception):
        def __init__(self, status: int, code: int) -> None:
            self.status, self.code = status, code

    assert lost_access(Refused(403, 50013)) and lost_access(Refused(404, 10003))
    assert lost_access(Refused(403, 50007))
    assert not lost_access(Refused(503, 0)) and not lost_access(Refused(429, 0)) and not lost_access(TimeoutError())


async def test_stop_cancels_lanes_in_flight_and_their_timers_fire_after_a_restart(store: Store) -> None:
    store.now = lambda: NOW  # type: ignore[method-assign]
    [table_id] = await playing_tables(store, 1)
    await store.timers.change_timers(table_id, TimerPlan(add=[TimerRecord(table_id, DEADLINE, 0, NOW - 1, None, 0.0)]))
    entered = asyncio.get_running_loop().create_future()

    async def hang(batch: list[TimerRecord]) -> list[TimerRecord]:
        entered.set_result(None)
        await asyncio.sleep(3600)
        return []

    scheduler = Scheduler(store, hang)
    scheduler.start()
    await asyncio.wait_for(entered, 5)
    assert scheduler.busy_tables == 1
    await asyncio.wait_for(scheduler.close(), 5)
    assert scheduler.busy_tables == 0
    assert len(await store.timers.due_timers(NOW, 10)) == 1, "the cut-short timer is still there for the next start"


@pytest.mark.parametrize("tables_count", [50])
async def test_fifty_tables_with_bots_due_together_each_move_once(store: Store, tables_count: int) -> None:
    """Real bot moves (TableService.bot_step) through the lanes: every table moves, each exactly once."""
    clock = [NOW]
    store.now = lambda: clock[0]  # type: ignore[method-assign]
    service = TableService(store, bot_delay=0.0)
    ids = []
    for i in range(tables_count):
        table = await service.create(guild_id=1, channel_id=500 + i, game_id="pentawar", options=None,
                                     user_id=10 + i, user_name=f"p{i}")
        await service.add_bot(500 + i, 10 + i, False, level="easy")
        table = await service.start(500 + i, 10 + i, False, table.id)
        if not await service.bots_to_act(table.id):
            hand = await service.hand(table.id, 10 + i)
            await service.act(table.id, 10 + i, hand.choices[0][0])
        ids.append(table.id)
    versions = {t: (await service.get(t)).version for t in ids}
    moved: list[int] = []

    async def fire(batch: list[TimerRecord]) -> list[TimerRecord]:
        for timer in batch:
            outcome = await service.bot_step(timer.table_id)
            if outcome is None:
                await service.drop_idle_bot_timer(timer.table_id)
                continue
            moved.append(timer.table_id)
            await asyncio.sleep(POST)  # its table message
        return []

    scheduler = Scheduler(store, fire)
    service.on_timers = scheduler.poke
    started = time.monotonic()
    await run_until_fired(scheduler, store, lambda: len(moved) >= tables_count and not scheduler.busy_tables, 20)
    assert sorted(moved) == sorted(ids), "each table's bot moved exactly once"
    for t in ids:
        assert (await service.get(t)).version == versions[t] + 1
    assert time.monotonic() - started < tables_count * POST / 2
