"""Actions committed per second through the store, on SQLite and on PostgreSQL.

    .venv/bin/python -m bench.store [--backend sqlite|postgresql|both] [--actions N] [--pg URL]

SQLite: a real file in a temporary directory (WAL, synchronous=NORMAL, as
``Store.open`` sets it up): the full TableService path and raw Store.commit_action.
PostgreSQL: a database created for the run on the server at ``--pg`` (default
``DECKHAND_TEST_PG`` or postgresql://postgres@127.0.0.1:5432/postgres) and dropped
after; ``synchronous_commit`` as the server has it (on: each commit waits for its
WAL flush). Writers are concurrent ``TableService.act`` loops, each at tables of
its own guild. Do Over! tables with four seats. Each committed action is one
write-ahead transaction: log row + snapshot + version.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import secrets
import tempfile
import time
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bench._common import finish, header, median, percentile, verdict
from bench.loop_lag import LoopLag
from data.store import Store
from engines.bots import RandomBot
from host import TableService
from host.replay import canonical

BUDGET = 1000.0  # committed actions per second, at least
PG_WRITERS = 4  # the PostgreSQL budget holds with this many concurrent writers
PG_SERVER = os.environ.get("DECKHAND_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
GAME = "do_over"
SEATS = 4
HOST = 100


CHANNELS = itertools.count(1000)


class Tables:
    """Opens a fresh 4-seat table in a new channel whenever the last one finishes."""

    def __init__(self, tables: TableService, bots: int, guild: int = 1) -> None:
        self.tables = tables
        self.bots = bots
        self.guild = guild

    async def open(self) -> Any:
        channel = next(CHANNELS)
        await self.tables.create(guild_id=self.guild, channel_id=channel, game_id=GAME, options=None, user_id=HOST,
                                 user_name="host")
        for i in range(1, SEATS - self.bots):
            await self.tables.join(channel, HOST + i, f"player{i}")
        for _ in range(self.bots):
            await self.tables.add_bot(channel, HOST, False)
        return await self.tables.start(channel, HOST, False)


async def human_path(tables: TableService, count: int, guild: int = 1) -> tuple[list[float], int]:
    """TableService.act for every action (four humans); returns per-action seconds and tables used."""
    opener = Tables(tables, bots=0, guild=guild)
    table = await opener.open()
    used = 1
    state = await tables.state(table)
    engine = tables.engine_of(table)
    bot = RandomBot(1)
    times: list[float] = []
    while len(times) < count:
        seat = engine.to_act(state)[0]
        action = bot.choose(engine, state, seat)
        user = table.seats[seat].user_id
        t = time.perf_counter()
        outcome = await tables.act(table.id, user, action, table.version)
        times.append(time.perf_counter() - t)
        table, state = outcome.table, outcome.state
        if outcome.over:
            table = await opener.open()
            used += 1
            state = await tables.state(table)
    return times, used


async def bot_path(tables: TableService, count: int) -> list[float]:
    """TableService.bot_step for bot seats (1 human host + 3 bots; the host moves through act)."""
    opener = Tables(tables, bots=SEATS - 1)
    table = await opener.open()
    engine = tables.engine_of(table)
    host_bot = RandomBot(2)
    times: list[float] = []
    while len(times) < count:
        t = time.perf_counter()
        outcome = await tables.bot_step(table.id)
        if outcome is not None:
            times.append(time.perf_counter() - t)
        else:  # the human host is to act
            state = await tables.state(table)
            seat = engine.to_act(state)[0]
            outcome = await tables.act(table.id, HOST, host_bot.choose(engine, state, seat), table.version)
        table = outcome.table
        if outcome.over:
            table = await opener.open()
    return times


async def raw_commits(tables: TableService, count: int, guild: int = 1) -> tuple[list[float], int]:
    """Store.commit_action alone, with a real mid-game snapshot and label."""
    table = await Tables(tables, bots=0, guild=guild).open()
    state = await tables.state(table)
    engine = tables.engine_of(table)
    for seat in range(SEATS):  # leave the swap step so the snapshot is a typical one
        state = engine.apply(state, seat, "ready")
    snapshot = canonical(engine.dump(state))
    times: list[float] = []
    version = table.version
    for _ in range(count):
        t = time.perf_counter()
        version = await tables.store.tables.commit_action(table.id, version, 0, "play:7", "**player0** plays 7",
                                                          [], snapshot)
        times.append(time.perf_counter() - t)
    return times, len(snapshot)


async def breakdown(tables: TableService, count: int) -> tuple[float, float, float]:
    """A separate, instrumented run of the act path: SQL statements per action and the share of
    time spent awaiting the store (``get_table`` and ``commit_action``) versus everything else."""
    store = tables.store.tables
    statements = 0

    def trace(_sql: str) -> None:
        nonlocal statements
        statements += 1

    spent = {"store": 0.0}
    originals = {name: getattr(store, name) for name in ("get_table", "commit_action")}

    def timed(fn: Any) -> Any:
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                spent["store"] += time.perf_counter() - t
        return wrapper

    for name, fn in originals.items():
        setattr(store, name, timed(fn))
    backend: Any = tables.store._backend
    for connection in (backend._writer, backend._reader):  # counts on both
        connection.set_trace_callback(trace)
    try:
        times, _ = await human_path(tables, count)
        opening = statements  # includes opening the tables; subtract it below
    finally:
        for connection in (backend._writer, backend._reader):
            connection.set_trace_callback(None)
        for name in originals:
            delattr(store, name)  # back to the class methods
    total = sum(times)
    return opening / count, spent["store"] / total, total / count


def line(label: str, times: list[float]) -> tuple[float, str]:
    rate = len(times) / sum(times)
    ms = [t * 1000 for t in times]
    return rate, (f"{label:<34}{len(times):>7}{rate:>11.0f} | {median(ms):>7.2f}{percentile(ms, 99):>7.2f}"
                  f"{max(ms):>7.2f} | {'≥' + format(BUDGET, 'g') + '/s':>8}  {verdict(rate >= BUDGET)}")


async def bench_sqlite(count: int, failures: list[str]) -> None:
    header("store: committed actions per second (SQLite file, WAL)")
    with tempfile.TemporaryDirectory(prefix="deckhand-bench-") as tmp:
        path = os.path.join(tmp, "bench.sqlite3")
        store = await Store.open(path)
        try:
            journal = await store.pragma("journal_mode")
            async with store.transaction() as tx:  # synchronous is per connection: ask the writer
                row = await tx.fetchone("PRAGMA synchronous")
            sync = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(row[0] if row else -1, "?")
            seeds = itertools.count(1)
            tables = TableService(store, new_seed=lambda: next(seeds))
            print(f"   database: temp file, journal_mode={journal}, synchronous={sync}; {GAME} tables, {SEATS} seats")
            print()
            print(f"{'path':<34}{'actions':>7}{'actions/s':>11} | {'ms med':>7}{'p99':>7}{'max':>7} | "
                  f"{'budget':>8}  result")
            async with LoopLag() as lag:
                human, used = await human_path(tables, count)
            rate, text = line("TableService.act (4 humans)", human)
            print(text)
            if rate < BUDGET:
                failures.append(f"TableService.act {rate:.0f}/s")
            bots = await bot_path(tables, count)
            rate, text = line("TableService.bot_step (3 bots)", bots)
            print(text)
            if rate < BUDGET:
                failures.append(f"TableService.bot_step {rate:.0f}/s")
            raw, snap = await raw_commits(tables, count)
            rate, text = line("Store.commit_action (raw)", raw)
            print(text)
            if rate < BUDGET:
                failures.append(f"Store.commit_action {rate:.0f}/s")
            per_action, store_share, mean_s = await breakdown(tables, min(count, 500))
            size = os.path.getsize(path) + (os.path.getsize(path + "-wal") if os.path.exists(path + "-wal") else 0)
        finally:
            await store.close()
        print("   " + lag.line("event loop held during the act run", budgeted=False))
    print()
    print("   actions/s = committed actions per second of time spent inside the call (one SQLite")
    print("   transaction each); ms = latency of one call (median / 99th percentile / max).")
    print("   TableService.act: lock + load table + legality check + engine apply + dump + commit + reload;")
    print(f"   Instrumented act run: ~{per_action:.1f} SQL statements per action (writes a call on the"
          f" event loop's thread, reads in the reader thread); {store_share:.0%} of the {mean_s * 1000:.2f} ms mean is"
          " spent awaiting store.tables.get_table/commit_action.")
    print(f"   {used} tables played. Raw commits used a {snap}-byte mid-game snapshot. DB + WAL at the end: "
          f"{size / 1024 / 1024:.1f} MiB.")


# ----------------------------------------------------------------- PostgreSQL

def _database(url: str, name: str, query: str = "") -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", query, ""))


async def _admin(url: str, statement: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=5)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


async def writers(url: str, n: int, count: int, raw: bool = False) -> tuple[float, list[float]]:
    """``n`` concurrent writers, each at tables of its own guild: total actions/s (wall clock), latencies."""
    store = await Store.connect(url)
    try:
        seeds = itertools.count(1)
        tables = TableService(store, new_seed=lambda: next(seeds))
        path = raw_commits if raw else human_path
        start = time.perf_counter()
        runs = await asyncio.gather(*(path(tables, count, guild=1000 + i) for i in range(n)))
        wall = time.perf_counter() - start
    finally:
        await store.close()
    times = [t for run, _ in runs for t in run]
    return len(times) / wall, times


async def floor(url: str, n: int, count: int) -> tuple[float, list[float]]:
    """The ceiling the disk and server allow: bare asyncpg BEGIN/UPDATE/INSERT/COMMIT, no store, no engine."""
    import asyncpg

    conns = [await asyncpg.connect(url) for _ in range(n)]
    try:
        await conns[0].execute("CREATE TABLE bare_t (id BIGINT PRIMARY KEY, v BIGINT);"
                               " CREATE TABLE bare_l (id BIGINT, v BIGINT, body TEXT)")
        await conns[0].executemany("INSERT INTO bare_t VALUES ($1, 0)", [(i,) for i in range(n)])
        body = "x" * 600  # about a snapshot's size

        async def loop(conn: Any, writer: int) -> list[float]:
            times = []
            for v in range(count):
                t = time.perf_counter()
                async with conn.transaction():
                    await conn.execute("UPDATE bare_t SET v = $1 WHERE id = $2", v, writer)
                    await conn.execute("INSERT INTO bare_l VALUES ($1, $2, $3)", writer, v, body)
                times.append(time.perf_counter() - t)
            return times

        start = time.perf_counter()
        runs = await asyncio.gather(*(loop(c, i) for i, c in enumerate(conns)))
        wall = time.perf_counter() - start
    finally:
        for conn in conns:
            await conn.close()
    return n * count / wall, [t for run in runs for t in run]


def pg_line(label: str, rate: float, times: list[float], budget: bool) -> str:
    ms = [t * 1000 for t in times]
    goal = f"≥{BUDGET:g}/s" if budget else "info"
    result = verdict(rate >= BUDGET) if budget else ""
    return (f"{label:<44}{len(times):>7}{rate:>11.0f} | {median(ms):>7.2f}{percentile(ms, 99):>7.2f}{max(ms):>7.2f}"
            f" | {goal:>8}  {result}")


async def bench_postgres(server: str, count: int, failures: list[str]) -> None:
    header(f"store: committed actions per second (PostgreSQL, {PG_WRITERS} concurrent writers)")
    name = f"deckhand_bench_{os.getpid()}_{secrets.token_hex(3)}"
    try:
        await _admin(server, f'CREATE DATABASE "{name}"')
    except Exception as exc:  # noqa: BLE001 - no server, no PostgreSQL figures: that fails the budget
        print(f"   no PostgreSQL server at {server}: {type(exc).__name__}: {exc}")
        failures.append("PostgreSQL unavailable")
        return
    url = _database(server, name)
    try:
        probe = await Store.connect(url)
        sync, version = await probe.pragma("synchronous_commit"), await probe.pragma("server_version")
        method = await probe.pragma("wal_sync_method")
        await probe.close()
        print(f"   database: {name} on PostgreSQL {version}, synchronous_commit={sync}, wal_sync_method={method};"
              f" {GAME} tables, {SEATS} seats")
        print()
        print(f"{'path':<44}{'actions':>7}{'actions/s':>11} | {'ms med':>7}{'p99':>7}{'max':>7} | "
              f"{'budget':>8}  result")
        per = max(count // PG_WRITERS, 50)
        rate, times = await writers(url, 1, per)
        print(pg_line("TableService.act, 1 writer", rate, times, False))
        async with LoopLag() as lag:
            rate, times = await writers(url, PG_WRITERS, per)
        print(pg_line(f"TableService.act, {PG_WRITERS} writers (4 guilds)", rate, times, True))
        print("   " + lag.line(f"event loop held during act with {PG_WRITERS} writers", budgeted=False))
        if rate < BUDGET:
            failures.append(f"PostgreSQL TableService.act x{PG_WRITERS} {rate:.0f}/s")
        rate, times = await writers(url, PG_WRITERS, per, raw=True)
        print(pg_line(f"Store.commit_action (raw), {PG_WRITERS} writers", rate, times, True))
        if rate < BUDGET:
            failures.append(f"PostgreSQL Store.commit_action x{PG_WRITERS} {rate:.0f}/s")
        rate, times = await writers(url, 16, max(per // 4, 50))
        print(pg_line("TableService.act, 16 writers (16 guilds)", rate, times, False))
        rate, times = await writers(f"{url}?synchronous_commit=off", PG_WRITERS, per)
        print(pg_line(f"act, {PG_WRITERS} writers, synchronous_commit=off *", rate, times, False))
        rate, times = await floor(url, PG_WRITERS, per)
        print(pg_line(f"bare asyncpg commits, {PG_WRITERS} connections **", rate, times, False))
    finally:
        await _admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print()
    print("   actions/s = committed actions per second of wall-clock time, all writers together (table")
    print("   openings included); ms = latency of one call. With synchronous_commit=on every commit waits for")
    print("   its WAL flush (one fdatasync, shared by the commits that arrive together), so each writer's rate")
    print("   is bounded by the disk's flush time; more writers share flushes.")
    print("   * not durable if the database server or its machine crashes (a crash of the bot loses nothing):")
    print("     for comparison only, no budget; the store never sets it.")
    print("   ** no store and no engine: BEGIN, UPDATE, INSERT (a snapshot-sized row), COMMIT straight through")
    print("      asyncpg: the most this server and disk give that many writers; no budget.")


async def bench(backend: str, count: int, server: str) -> int:
    failures: list[str] = []
    if backend in ("sqlite", "both"):
        await bench_sqlite(count, failures)
    if backend in ("postgresql", "both"):
        if backend == "both":
            print()
        await bench_postgres(server, count, failures)
    return finish(failures)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--actions", type=int, default=3000, help="actions per path (default 3000)")
    parser.add_argument("--pg", default=PG_SERVER, help="PostgreSQL server URL (a database is made there and dropped)")
    args = parser.parse_args()
    return asyncio.run(bench(args.backend, args.actions, args.pg))


if __name__ == "__main__":
    raise SystemExit(main())
