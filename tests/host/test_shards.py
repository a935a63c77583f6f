"""Several processes on one database: who owns a guild, timers per shard, wrong writers, takeover.

Below the Discord layer: each "process" is a Store, a TableService and a Scheduler of its own,
as the bot builds them, on one database. Two SimCord worlds can hand out the same ids, so
the two-instance tests live here; tests/e2e/test_shards_e2e.py runs the real bot over shards.
"""

from __future__ import annotations

import asyncio
import itertools
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from data.store import StaleVersion, Store
from data.timers import BOT, DEADLINE, REMINDER, TimerPlan, TimerRecord
from host import StaleClick, TableService
from host.clock import Scheduler
from host.shards import Shards, shard_of

ROOT = Path(__file__).resolve().parents[2]


def guild_on(shard: int, count: int = 2, n: int = 1) -> int:
    """A snowflake-like guild id that Discord would send to ``shard`` of ``count``."""
    return ((n * count + shard) << 22) | 12345


# ------------------------------------------------------------------ the pure rule

def test_a_guild_belongs_to_the_shard_of_its_id() -> None:
    assert shard_of(81384788765712384, 1) == 0
    # (id >> 22) % count, the rule Discord documents.
    assert shard_of(81384788765712384, 4) == (81384788765712384 >> 22) % 4
    assert [shard_of(guild_on(s, 3), 3) for s in range(3)] == [0, 1, 2]
    assert shard_of(None, 5) == 0, "no guild (a direct message) is shard 0"
    assert Shards.of(2, [1]).owns(guild_on(1)) and not Shards.of(2, [1]).owns(guild_on(0))
    assert Shards.of(2, [0]).owns(None)


def test_shard_settings_are_read_and_checked() -> None:
    assert Shards.parse("", "") is None
    assert Shards.parse("4", "") == Shards(4, (0, 1, 2, 3))
    assert Shards.parse("4", " 3, 2 ") == Shards(4, (2, 3))
    assert Shards.parse("4", "2,3").everything is False and Shards.parse("2", "0,1").everything  # type: ignore[union-attr]
    for count, ids in (("", "0"), ("2", "2"), ("2", "0,0"), ("0", ""), ("two", ""), ("2", "a")):
        with pytest.raises(ValueError):
            Shards.parse(count, ids)


# ------------------------------------------------------------- the store's filter

async def test_the_store_loads_only_the_timers_and_catch_up_of_owned_guilds(store: Store) -> None:
    tables = TableService(store, new_seed=itertools.count(1).__next__)
    owned: dict[int, list[int]] = {0: [], 1: []}
    for i, guild in enumerate([guild_on(0), guild_on(1), guild_on(0, n=7), guild_on(1, n=9), None]):
        table = await tables.create(guild_id=guild, channel_id=100 + i, game_id="do_over", options=None,
                                    user_id=1, user_name="a")
        await store.timers.change_timers(table.id,
                                         TimerPlan(add=[TimerRecord(table.id, DEADLINE, 0, 1000.0 + i, None, 0)]))
        await store.tables.set_posted_version(table.id, -1)
        async with store.transaction() as tx:  # a committed move never posted
            await tx.execute("UPDATE game_tables SET status = 'playing', version = 1 WHERE id = ?", (table.id,))
        owned[shard_of(guild, 2)].append(table.id)
    zero, one = Shards.of(2, [0]), Shards.of(2, [1])
    assert await store.timers.next_due() == 1000.0
    assert await store.timers.next_due(zero) == 1000.0 and await store.timers.next_due(one) == 1001.0
    assert [t.table_id for t in await store.timers.due_timers(5000.0, 10, zero)] == owned[0]
    assert [t.table_id for t in await store.timers.due_timers(5000.0, 10, one)] == owned[1]
    assert [t.table_id for t in await store.timers.due_timers(5000.0, 1, one)] == owned[1][:1]
    assert await store.timers.due_timers(1000.5, 10, one) == []
    everything = await store.timers.due_timers(5000.0, 10)
    assert await store.timers.due_timers(5000.0, 10, Shards.of(2)) == everything and len(everything) == 5
    assert [t.id for t in await store.tables.unposted_tables(one)] == owned[1]
    assert [t.id for t in await store.tables.unposted_tables(zero)] == owned[0]
    assert len(await store.tables.unposted_tables()) == 5
    # Real snowflakes are large: the rule holds up to the top of the 64-bit range.
    big = (2**63 - 1) >> 22 << 22
    table = await tables.create(guild_id=big, channel_id=999, game_id="do_over", options=None, user_id=1,
                                user_name="a")
    await store.timers.change_timers(table.id, TimerPlan(add=[TimerRecord(table.id, BOT, -1, 1.0, None, 0)]))
    mine = Shards.of(3, [shard_of(big, 3)])
    assert [t.table_id for t in await store.timers.due_timers(2.0, 10, mine)] == [table.id]


# ------------------------------------------------------ two processes, one database

class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0


@dataclass(eq=False)
class Instance:
    """One process's host service: its own store (connections), tables, scheduler and shards."""

    shards: Shards
    store: Store
    tables: TableService
    scheduler: Scheduler
    fired: list[TimerRecord] = field(default_factory=list)

    @classmethod
    async def start(cls, target: str, shards: Shards, clock: Clock, seeds: Callable[[], int]) -> Instance:
        store = await Store.connect(target, lambda: clock.now)
        tables = TableService(store, new_seed=seeds, bot_delay=0.0)
        instance = cls(shards, store, tables, Scheduler(store, lambda timers: instance.fire(timers), shards=shards))
        tables.on_timers = instance.scheduler.poke
        instance.scheduler.start()
        return instance

    async def fire(self, timers: list[TimerRecord]) -> list[TimerRecord]:
        """What cogs/flow.py does with each timer, minus Discord."""
        for timer in timers:
            self.fired.append(timer)
            if timer.kind == BOT:
                try:
                    if await self.tables.bot_step(timer.table_id) is None:
                        await self.store.timers.change_timers(timer.table_id, TimerPlan(drop_kinds=[BOT]))
                except StaleClick:
                    pass
            elif timer.kind == DEADLINE:
                await self.tables.timeout(timer)
            else:
                await self.store.timers.change_timers(timer.table_id, TimerPlan(drop=[(timer.kind, timer.seat)]))
        return []

    async def close(self) -> None:
        await self.scheduler.close()
        await self.store.close()

    async def die(self) -> None:
        """An abrupt death: tasks cancelled, connections dropped without a clean close (no drain)."""
        task = self.scheduler._task
        if task is not None:
            task.cancel()
        backend: Any = self.store._backend
        if backend.name == "postgresql":
            backend._writer.terminate()
            backend._reader.terminate()
            Store._open.discard(self.store)
        else:
            await self.store.close()


def advance(clock: Clock, seconds: float, *instances: Instance) -> None:
    """Move the shared clock; each scheduler sleeps on the real clock, so wake it to look again."""
    clock.now += seconds
    for instance in instances:
        instance.scheduler.poke(None)


async def settle(*instances: Instance, rounds: int = 400) -> None:
    """Let the schedulers fire until nothing owned is due (real time, in small steps)."""
    for _ in range(rounds):
        await asyncio.sleep(0.01)
        pending = [await i.store.timers.due_timers(i.store.now(), 1, i.shards) for i in instances]
        if not any(pending) and all(i.scheduler._sleeping or i.scheduler._task is None
                                    or i.scheduler._task.done() for i in instances):
            return
    raise AssertionError("the schedulers did not settle")


@pytest.fixture
async def pair(pg_target: str) -> AsyncIterator[tuple[Instance, Instance, Clock]]:
    """Two processes on one PostgreSQL database: shard 0 of 2, and shard 1 of 2."""
    clock, seeds = Clock(), itertools.count(7).__next__
    a = await Instance.start(pg_target, Shards.of(2, [0]), clock, seeds)
    b = await Instance.start(pg_target, Shards.of(2, [1]), clock, seeds)
    yield a, b, clock
    for instance in (a, b):
        if not instance.store.closed:
            await instance.close()
    await Store.close_all()


async def human_and_bots(tables: TableService, guild: int, channel: int, turn_time: int | None = 60) -> Any:
    """A Do Over! table: one human (user ``channel``) and two bots, started, with a turn clock."""
    await tables.create(guild_id=guild, channel_id=channel, game_id="do_over", options={"max_turns": 60},
                        user_id=channel, user_name=f"u{channel}", turn_time=turn_time)
    await tables.add_bot(channel, channel, False)
    await tables.add_bot(channel, channel, False)
    return await tables.start(channel, channel, False)


async def human_move(tables: TableService, table_id: int, user: int) -> str | None:
    """The human's lowest legal move, if it is to act; returns the action (acknowledged) or None."""
    table = await tables.reload(table_id)
    if table.status != "playing":
        return None
    state = await tables.state(table)
    engine = tables.engine_of(table)
    seat = tables.seat_of(table, user)
    if seat not in engine.to_act(state):
        return None
    action = engine.legal_actions(state, seat)[0]
    await tables.act(table_id, user, action, table.version)
    return action


async def test_two_instances_drive_their_own_guilds_tables_without_interfering(
        pair: tuple[Instance, Instance, Clock]) -> None:
    a, b, clock = pair
    mine: dict[Instance, list[int]] = {a: [], b: []}
    for instance, shard in ((a, 0), (b, 1)):
        for n in range(3):
            channel = 1000 * (shard + 1) + n
            table = await human_and_bots(instance.tables, guild_on(shard, n=n + 1), channel)
            mine[instance].append(table.id)
    acked: dict[int, list[str]] = {t: [] for ts in mine.values() for t in ts}
    for _ in range(12):
        await settle(a, b)  # each scheduler plays the bots of its own tables
        for instance in (a, b):
            for n, table_id in enumerate(mine[instance]):
                action = await human_move(instance.tables, table_id, 1000 * (1 + (instance is b)) + n)
                if action is not None:
                    acked[table_id].append(action)
    # Every human deadline now expires: each instance times out its own tables' seats, once.
    advance(clock, 61, a, b)
    await settle(a, b)
    for instance, other in ((a, b), (b, a)):
        assert instance.fired, "each instance fired its own timers"
        assert {t.table_id for t in instance.fired} <= set(mine[instance]), "an instance fired another's timer"
        assert not {t.table_id for t in instance.fired} & set(mine[other])
    for instance in (a, b):
        for table_id in mine[instance]:
            table = await instance.store.tables.get_table(table_id)
            assert table is not None and acked[table_id] and table.version > len(acked[table_id]), \
                "bots and humans played on"
            human = [r.action for r in await instance.store.tables.actions(table_id)
                     if r.seat == instance.tables.seat_of(table, table.host_id)]
            it = iter(human)
            assert all(m in it for m in acked[table_id]), "an acknowledged move is missing"
            assert await instance.tables.verify_replay(table_id)
            deadlines = [(t.seat, t.started) for t in instance.fired if t.table_id == table_id and t.kind == DEADLINE]
            assert len(deadlines) == len(set(deadlines)), "a deadline fired twice"
            timeouts = [e for e in await instance.store.tables.seat_events(table_id) if e[2] == "timeout"]
            assert len(timeouts) == len(deadlines)


async def test_a_write_by_the_wrong_instance_meets_the_version_check(pair: tuple[Instance, Instance, Clock]) -> None:
    a, b, _ = pair
    await a.tables.create(guild_id=guild_on(0), channel_id=5, game_id="do_over", options=None, user_id=1,
                          user_name="a")
    await a.tables.join(5, 2, "b")
    table = await a.tables.start(5, 1, False)
    # b has read a's table once (say, a stray click routed to the wrong process), and cached it.
    seen = await b.tables.get(table.id)
    for user in (1, 2):  # a, the owner, moves the table on: both leave the swap step
        current = await a.tables.get(table.id)
        await a.tables.act(table.id, user, "ready", current.version)
    owner = await a.store.tables.get_table(table.id)
    assert owner is not None and owner.version == seen.version + 2
    log = await a.store.tables.actions(table.id)
    # b applies a move on its stale copy: the version check refuses it, nothing is overwritten.
    engine = a.tables.engine_of(seen)
    state = await b.tables.state(seen)
    stale_action = engine.legal_actions(state, 0)[0]
    with pytest.raises(StaleClick):
        await b.tables.act(table.id, seen.seats[0].user_id, stale_action, seen.version)
    assert await a.store.tables.actions(table.id) == log
    after = await a.store.tables.get_table(table.id)
    assert after is not None and (after.version, after.snapshot) == (owner.version, owner.snapshot)
    # Non-move changes carry the revision check: a pause written from b's stale copy is refused too.
    with pytest.raises(StaleVersion):
        await b.store.tables.change_table(table.id, seen.revision, paused=True)
    assert not (await a.store.tables.get_table(table.id)).paused  # type: ignore[union-attr]
    assert await a.store.tables.actions(table.id) == log
    # The refusal reloaded b's copy: a click drawn for the current version now works there,
    # as a plain sequential write with the version check, never a blind overwrite.
    current = await b.tables.reload(table.id)
    state = await b.tables.state(current)
    seat = engine.to_act(state)[0]
    action = engine.legal_actions(state, seat)[0]
    await b.tables.act(table.id, current.seats[seat].user_id, action, current.version)
    assert len(await a.store.tables.actions(table.id)) == len(log) + 1


async def test_a_click_drawn_after_a_newer_write_elsewhere_reloads_instead_of_refusing(
        pair: tuple[Instance, Instance, Clock]) -> None:
    a, b, _ = pair
    await a.tables.create(guild_id=guild_on(0), channel_id=6, game_id="do_over", options=None, user_id=1,
                          user_name="a")
    await a.tables.join(6, 2, "b")
    table = await a.tables.start(6, 1, False)
    await b.tables.get(table.id)  # b's copy is at version 0
    await a.tables.act(table.id, 1, "ready", 0)
    await a.tables.act(table.id, 2, "ready", 1)
    # A control drawn by a at version 2 reaches b: b's cache is older than the click, so b reloads.
    current = await a.tables.get(table.id)
    state = await a.tables.state(current)
    engine = a.tables.engine_of(current)
    seat = engine.to_act(state)[0]
    outcome = await b.tables.act(table.id, current.seats[seat].user_id, engine.legal_actions(state, seat)[0], 2)
    assert outcome.table.version == 3


# ----------------------------------------------------------------------- takeover

async def test_takeover_after_an_abrupt_death_loses_nothing_and_fires_each_deadline_once(
        pair: tuple[Instance, Instance, Clock], pg_target: str) -> None:
    a, b, clock = pair
    tables: list[int] = []
    for n in range(4):
        tables.append((await human_and_bots(a.tables, guild_on(0, n=n + 1), 3000 + n)).id)
    other = (await human_and_bots(b.tables, guild_on(1), 4000)).id
    acked: dict[int, list[str]] = {t: [] for t in tables}
    for _ in range(5):
        await settle(a, b)
        for n, table_id in enumerate(tables):
            if (action := await human_move(a.tables, table_id, 3000 + n)) is not None:
                acked[table_id].append(action)
    await settle(a, b)
    # Every human now waits on a pending deadline. Mid-game, with moves in flight, a dies:
    # its tasks are cancelled and its connections dropped, with no clean close.
    in_flight = []
    for n, table_id in enumerate(tables):
        in_flight.append(asyncio.create_task(human_move(a.tables, table_id, 3000 + n)))
    await asyncio.sleep(0)
    await a.die()
    for task in in_flight:
        task.cancel()
    results = await asyncio.gather(*in_flight, return_exceptions=True)
    for table_id, result in zip(tables, results, strict=True):
        if isinstance(result, str):  # acknowledged before the death
            acked[table_id].append(result)
    pending = {t: [r for r in await b.store.timers.timers_of(t) if r.kind == DEADLINE] for t in tables}
    assert sum(map(len, pending.values())) >= 2, "deadlines are pending at the death"
    # b holds the other shard: however long it runs, it never fires a's timers.
    advance(clock, 61, b)
    await settle(b)
    assert not {t.table_id for t in b.fired} & set(tables)
    # A replacement starts with a's shards, on its own connections, and resumes every table.
    c = await Instance.start(pg_target, a.shards, clock, a.tables._new_seed)
    try:
        await settle(c, b)
        for n, table_id in enumerate(tables):
            log = await c.store.tables.actions(table_id)
            table = await c.store.tables.get_table(table_id)
            assert table is not None
            human_seat = c.tables.seat_of(table, 3000 + n)
            it = iter([r.action for r in log if r.seat == human_seat])
            assert all(m in it for m in acked[table_id]), f"table {table_id}: an acknowledged move was lost"
            assert await c.tables.verify_replay(table_id)
            fired = [t for t in c.fired if t.table_id == table_id and t.kind == DEADLINE]
            for deadline in pending[table_id]:
                assert [t for t in fired if t.started == deadline.started] == [deadline], \
                    f"table {table_id}: the pending deadline must fire exactly once"
            timeouts = [e for e in await c.store.tables.seat_events(table_id) if e[2] == "timeout"]
            assert len(timeouts) == len(pending[table_id])
        # Later deadlines fire once too, and the tables play on under the new owner.
        advance(clock, 61, c, b)
        await settle(c, b)
        for table_id in tables:
            deadlines = [(t.seat, t.started) for t in c.fired if t.table_id == table_id and t.kind == DEADLINE]
            assert len(deadlines) == len(set(deadlines)), "a deadline fired twice"
        assert not {t.table_id for t in c.fired} & {other}
    finally:
        await c.close()


async def test_a_reminder_fired_by_two_instances_at_once_is_taken_by_one(
        pair: tuple[Instance, Instance, Clock]) -> None:
    """Should two processes fire one reminder (shards given twice), it still goes out once."""
    a, b, clock = pair
    for instance in (a, b):
        await instance.scheduler.close()  # fire by hand, both at the same instant
    table = await human_and_bots(a.tables, guild_on(0), 7000, turn_time=600)
    reminder = next(t for t in await a.store.timers.timers_of(table.id) if t.kind == REMINDER)
    clock.now = (reminder.due or 0) + 1
    found = await asyncio.gather(a.tables.reminder(reminder), b.tables.reminder(reminder))
    assert len([r for r in found if r is not None]) == 1
    assert REMINDER not in {t.kind for t in await a.store.timers.timers_of(table.id)}
    # A reminder that a newer clock replaced is taken by nobody.
    assert await a.store.timers.take_timer(reminder) is False


async def test_takeover_after_a_sigkill_loses_nothing_acknowledged_and_fires_each_deadline_once(
        pg_target: str, tmp_path: Path) -> None:
    """The owner of shard 0 is a real process, SIGKILLed mid-game; a replacement with shard 0 resumes."""
    from tests.host.shard_driver import TABLES

    acks_path = tmp_path / "acks.txt"
    owner = subprocess.Popen([sys.executable, "-m", "tests.host.shard_driver", pg_target, str(acks_path)],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(600):  # wait (real time: a real process) for enough acknowledged moves
            await asyncio.sleep(0.05)
            if acks_path.exists() and len(acks_path.read_text().splitlines()) >= 3 * TABLES:
                break
            assert owner.poll() is None, owner.communicate()[1].decode()[-2000:]
        else:
            raise AssertionError("the owner acknowledged too few moves")
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.communicate(timeout=30)
    acked: dict[int, list[str]] = {}
    for line in acks_path.read_text().splitlines():
        table_id, _, action = line.partition(" ")
        if action:
            acked.setdefault(int(table_id), []).append(action)
    clock = Clock()
    clock.now = time.time() + 120  # every 60 s deadline pending at the kill is now due
    c = await Instance.start(pg_target, Shards.of(2, [0]), clock, itertools.count(99).__next__)
    try:
        tables = await c.store.tables.all_tables()
        assert len(tables) == TABLES and set(acked) <= {t.id for t in tables}
        pending = {t.id: [r for r in await c.store.timers.timers_of(t.id) if r.kind == DEADLINE] for t in tables}
        assert any(pending.values()), "deadlines are pending at the kill"
        c.scheduler.poke(None)
        await settle(c)
        for table in tables:
            seat = c.tables.seat_of(table, table.host_id)  # the human, who opened the table
            it = iter([r.action for r in await c.store.tables.actions(table.id) if r.seat == seat])
            assert all(m in it for m in acked.get(table.id, [])), f"table {table.id}: an acknowledged move was lost"
            assert await c.tables.verify_replay(table.id)
            fired = [t for t in c.fired if t.table_id == table.id and t.kind == DEADLINE]
            for deadline in pending[table.id]:
                assert [t for t in fired if t.started == deadline.started] == [deadline], \
                    f"table {table.id}: the pending deadline must fire exactly once"
            timeouts = [e for e in await c.store.tables.seat_events(table.id) if e[2] == "timeout"]
            assert len(timeouts) == len(pending[table.id])
    finally:
        await c.close()
