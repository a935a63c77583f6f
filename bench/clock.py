"""Turn clocks at scale: start-up with 10⁴ waiting tables, memory, and clicks during a backlog of timeouts.

    .venv/bin/python -m bench.clock [--tables 10000] [--clicks 40]

1. **Ready.** A database holds N playing Pentawar tables, each with a seat whose deadline is pending.
   The real bot (``bot.create_bot()``) starts in SimCord: the figure is the wall time from building
   the bot to the end of ``on_ready`` (store opened and migrated, commands synced, catch-up done,
   scheduler started). Budget: ≤ 2 s at N = 10⁴.
2. **Memory.** RSS of that process after start, at 10³ and at 10⁴ waiting tables. The scheduler keeps
   only its next instant; tables are read when touched, so memory must stay flat in N (budget: the
   difference is under 20 MB, far below what 10⁴ loaded tables would take).
3. **Clicks during a backlog.** Every deadline is moved into the past, as after a long outage, and the
   scheduler starts firing them (each a real timeout: the bot's moves committed through the write-ahead
   path, and the table image drawn as the table message would be). Meanwhile a member acts at another
   table: the figure is the time from the call to ``TableService.act`` to the drawn hand panel, the
   bot's acknowledgement. Budget: median ≤ 50 ms. This runs on the host service and the scheduler
   directly, without SimCord, whose settling would wait for the whole backlog before a click returns.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import tempfile
import time

import render
from bench._common import finish, header, median, percentile, verdict
from data.store import Store
from data.timers import DEADLINE, TimerRecord
from engines import get_engine
from host import TableService
from host.clock import Scheduler
from host.replay import canonical

READY_BUDGET_S = 2.0
CLICK_BUDGET_MS = 50.0
MEMORY_BUDGET_MB = 20.0
GUILD = 1
HOUR = 3600.0


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


async def fill(path: str, count: int) -> None:
    """``count`` playing two-player Pentawar tables, each with a pending deadline, in a few transactions."""
    store = await Store.open(path)
    engine = get_engine("pentawar")
    now = time.time()
    try:
        for start in range(0, count, 1000):
            async with store.transaction() as tx:
                for i in range(start, min(count, start + 1000)):
                    state = engine.new_game(2, i)
                    seat = engine.to_act(state)[0]
                    written = await tx.execute(
                        "INSERT INTO game_tables (guild_id, channel_id, game, options, status, seed, host_id,"
                        " created_at, updated_at, turn_time, on_timeout, snapshot) VALUES"
                        " (?, ?, 'pentawar', '{}', 'playing', ?, 1, ?, ?, 86400, 'bot', ?)",
                        (GUILD, 10_000 + i, i, now, now, canonical(engine.dump(state))))
                    table_id = int(written.lastrowid or 0)
                    await tx.executemany("INSERT INTO seats (table_id, position, user_id, name, is_bot)"
                                         " VALUES (?, ?, ?, ?, 0)",
                                         [(table_id, 0, 100 + 2 * i, f"p{2 * i}"), (table_id, 1, 101 + 2 * i,
                                                                                    f"p{2 * i + 1}")])
                    await tx.execute("INSERT INTO timers (table_id, kind, seat, due, remaining, started)"
                                     " VALUES (?, 'deadline', ?, ?, NULL, ?)", (table_id, seat, now + HOUR, now))
    finally:
        await store.close()


async def ready_time(path: str) -> tuple[float, float]:
    """Seconds from building the bot to the end of on_ready, and the RSS then (MB)."""
    import simcord

    from bot import create_bot

    os.environ["DATABASE_PATH"] = path
    os.environ["BOT_DELAY"] = "0"
    started = time.perf_counter()
    bot = create_bot()
    async with simcord.run(bot, check_errors=False):
        ready = time.perf_counter() - started
        memory = rss_mb()
        await bot.close()
    return ready, memory


async def clicks_during_backlog(path: str, clicks: int) -> tuple[list[float], int]:
    store = await Store.open(path)
    tables = TableService(store)
    fired = 0

    async def fire(timers: list[TimerRecord]) -> list[TimerRecord]:
        nonlocal fired
        for timer in timers:
            if timer.kind != DEADLINE:
                continue
            notice = await tables.timeout(timer)
            if notice is not None and notice.outcomes:
                last = notice.outcomes[-1].table
                view = tables.engine_of(last).view(notice.outcomes[-1].state, None)
                render.table_png(last.game, view, [s.name for s in last.seats])  # the table message's image
                fired += 1
        return []

    # The member's own table, with no clock, opened before the backlog.
    await tables.create(guild_id=GUILD, channel_id=1, game_id="do_over", options=None, user_id=1, user_name="a")
    await tables.join(1, 2, "b")
    own = await tables.start(1, 1, False)
    async with store.transaction() as tx:  # an outage: every deadline has passed
        await tx.execute("UPDATE timers SET due = ? WHERE kind = 'deadline'", (time.time() - 1,))
    scheduler = Scheduler(store, fire)
    scheduler.start()
    times: list[float] = []
    try:
        await asyncio.sleep(0.2)  # the backlog is under way
        for _ in range(clicks):
            table = await tables.get(own.id)
            state = await tables.state(table)
            engine = tables.engine_of(table)
            seat = engine.to_act(state)[0]
            user = table.seats[seat].user_id or 0
            action = engine.legal_actions(state, seat)[0]
            t = time.perf_counter()
            await tables.act(table.id, user, action, table.version)
            info = await tables.hand(table.id, user)
            render.hand_png(table.game, dict(info.picture.view), info.seat, [s.name for s in table.seats])
            times.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(0.05)
    finally:
        await scheduler.close()
        await store.close()
    return times, fired


async def bench(count: int, clicks: int) -> int:
    header("bench.clock: turn clocks at scale")
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="deckhand-clock-") as tmp:
        small, large = os.path.join(tmp, "small.sqlite3"), os.path.join(tmp, "large.sqlite3")
        await fill(small, count // 10)
        await fill(large, count)
        ready_small, rss_small = await ready_time(small)
        ready_large, rss_large = await ready_time(large)
        ok = ready_large <= READY_BUDGET_S
        print(f"ready after start: {count // 10:>6} tables {ready_small:.2f} s; {count:>6} tables "
              f"{ready_large:.2f} s (budget ≤ {READY_BUDGET_S:g} s)  {verdict(ok)}")
        if not ok:
            failures.append(f"ready {ready_large:.2f} s")
        grown = rss_large - rss_small
        ok = grown <= MEMORY_BUDGET_MB
        print(f"RSS after start:   {count // 10:>6} tables {rss_small:.0f} MB; {count:>6} tables {rss_large:.0f} MB;"
              f" +{grown:.1f} MB (budget ≤ {MEMORY_BUDGET_MB:g} MB)  {verdict(ok)}")
        if not ok:
            failures.append(f"memory +{grown:.1f} MB")
        times, fired = await clicks_during_backlog(large, clicks)
        ok = median(times) <= CLICK_BUDGET_MS
        print(f"clicks while {count} expired deadlines fire ({fired} fired meanwhile): median {median(times):.1f} ms,"
              f" p90 {percentile(times, 90):.1f} ms, max {max(times):.1f} ms (budget median ≤ {CLICK_BUDGET_MS:g} ms)"
              f"  {verdict(ok)}")
        if not ok:
            failures.append(f"click median {median(times):.1f} ms")
    print(f"peak RSS of the bench process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return finish(failures)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--clicks", type=int, default=40)
    args = parser.parse_args()
    return asyncio.run(bench(args.tables, args.clicks))


if __name__ == "__main__":
    raise SystemExit(main())
