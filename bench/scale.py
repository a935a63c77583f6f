"""Many stored tables, on SQLite and on PostgreSQL: start-up, memory, and click acknowledgements.

    .venv/bin/python -m bench.scale [--backend sqlite|postgresql|both] [--tables 10000]
                                    [--stored 100000] [--clicks 200] [--pg URL]

Per backend, one database (a temporary SQLite file, or a PostgreSQL database made on the
server at ``--pg`` and dropped after) grows in three steps:

1. **Ready.** 10³, then 10⁴ playing two-player Pentawar tables, each waiting on a seat's
   deadline (a day away). The real bot (``bot.create_bot()``) starts in SimCord in a fresh
   process: the figure is the wall time from building the bot to the end of ``on_ready``
   (store opened and migrated, commands synced, catch-up done, scheduler started).
   Budget: ≤ 2 s at 10⁴. The tables alternate between a server on shard 0 and one on shard 1:
   a process started with ``SHARD_COUNT=2 SHARD_IDS=0`` is timed too, its scheduler loading
   only its own servers' timers.
2. **Memory.** That process's RSS once ready, at 10³ and at 10⁴ tables. Tables are read when
   touched, and the scheduler keeps only its next instant, so memory is flat in the number of
   idle tables. Budget: ≤ 20 MB more at 10⁴ than at 10³ (10⁴ loaded tables would take far more).
3. **Clicks.** 9·10⁴ finished tables join them: 10⁵ stored, 10⁴ of them active. In a fresh
   process the bot starts in SimCord; ``--clicks`` of the active tables, chosen at random, are
   placed in SimCord channels and given a table message. Then at each such table, cold (never
   touched since the message went out), the member to act clicks **Hand / act** (the ephemeral
   panel) and then a move in that panel (after five such pairs not counted, as a warm-up). The
   figure is the time from the click to the bot's acknowledgement, its interaction response
   reaching SimCord's Discord (``bench.click.AckClock``).
   Budget: p99 < 100 ms, for the panel and for the move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench._common import finish, header, median, percentile, verdict
from bench.loop_lag import LoopLag
from bench.store import PG_SERVER, _admin, _database

READY_BUDGET_S = 2.0
MEMORY_BUDGET_MB = 20.0
CLICK_BUDGET_MS = 100.0
GAME = "pentawar"
DEALS = 64  # distinct opening deals; table i is dealt with seed i % DEALS
#: Tables alternate between two servers, one on each shard of two.
GUILDS = (42 << 22, 43 << 22)
DAY = 86400.0
#: Click pairs made first and not counted, as in bench.click: a running bot has its fonts and card faces cached.
WARMUP = 5
ROOT = Path(__file__).resolve().parent.parent


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


# ------------------------------------------------------------------------- filling

async def fill(target: str, start: int, stop: int, status: str) -> None:
    """Tables ``start``..``stop`` (their ids): two seats each; a playing one waits on a deadline."""
    from data.store import Store
    from engines import get_engine
    from host.replay import canonical

    engine = get_engine(GAME)
    deals = [engine.new_game(2, seed) for seed in range(DEALS)]
    snapshots = [canonical(engine.dump(s)) for s in deals]
    to_act = [engine.to_act(s)[0] for s in deals]
    store = await Store.connect(target)
    now = time.time()
    try:
        for first in range(start, stop, 5000):
            ids = range(first + 1, min(stop, first + 5000) + 1)
            async with store.transaction() as tx:
                await tx.executemany(
                    "INSERT INTO game_tables (id, guild_id, channel_id, game, options, status, seed, host_id,"
                    " created_at, updated_at, turn_time, on_timeout, snapshot, version, posted_version)"
                    " VALUES (?, ?, ?, ?, '{}', ?, ?, 1, ?, ?, 86400, 'bot', ?, 0, 0)",
                    [(i, GUILDS[i % 2], 10**9 + i, GAME, status, i % DEALS, now, now, snapshots[i % DEALS])
                     for i in ids])
                await tx.executemany(
                    "INSERT INTO seats (table_id, position, user_id, name, is_bot) VALUES (?, ?, ?, ?, 0)",
                    [(i, p, 10**6 + 2 * i + p, f"p{2 * i + p}") for i in ids for p in (0, 1)])
                if status == "playing":
                    await tx.executemany(
                        "INSERT INTO timers (table_id, kind, seat, due, remaining, started)"
                        " VALUES (?, ?, ?, ?, NULL, ?)",
                        [(i, "deadline", to_act[i % DEALS], now + DAY, now) for i in ids])
        if store._backend.name == "postgresql":  # explicit ids: move the identity on past them
            async with store.transaction() as tx:
                await tx.execute("SELECT setval(pg_get_serial_sequence('game_tables', 'id'),"
                                 " (SELECT MAX(id) FROM game_tables))")
    finally:
        await store.close()


# ----------------------------------------------------------------- child processes

def child(*args: str) -> dict[str, Any]:
    """Run one measurement in a fresh process (so its RSS is its own); returns what it printed."""
    out = subprocess.run([sys.executable, "-m", "bench.scale", "--child", *args], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"bench.scale child {args[0]} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def settings_env(target: str, shard_ids: str = "") -> None:
    key = "DATABASE_URL" if target.startswith("postgresql://") else "DATABASE_PATH"
    os.environ[key] = target
    os.environ["BOT_DELAY"] = "0"
    os.environ["BOT_LEVEL"] = "easy"
    for name in ("SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID"):
        os.environ.pop(name, None)
    if shard_ids:
        os.environ["SHARD_COUNT"], os.environ["SHARD_IDS"] = "2", shard_ids


async def ready_child(target: str, shard_ids: str = "") -> dict[str, Any]:
    import simcord

    from bot import create_bot

    settings_env(target, shard_ids)
    started = time.perf_counter()
    bot = create_bot()
    async with simcord.run(bot, check_errors=False):
        ready = time.perf_counter() - started
        memory = rss_mb()
        # Ready means on_ready ran to its end: the scheduler is started, sleeping until the next deadline.
        assert bot.is_ready() and bot.scheduler is not None and bot.scheduler._task is not None
        for _ in range(100):
            if bot.scheduler._sleeping:
                break
            await asyncio.sleep(0.01)
        due = bot.scheduler._sleeping_until
        await bot.close()
    return {"ready": ready, "rss": memory, "due": due}


async def clicks_child(target: str, clicks: int, seed: int) -> dict[str, Any]:
    import simcord

    from bench.click import ACKS
    from bot import create_bot
    from data.store import Store
    from tests.e2e.driver import choices_in, hand_button_id, latest_table_message, seats_to_act

    settings_env(target)
    rng = random.Random(seed)
    ACKS.install()
    bot = create_bot()
    runner = simcord.run(bot, check_errors=False)
    env = runner._env
    guild = env.create_guild("Scale")
    members = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
    channels = [guild.create_text_channel(f"t{i}") for i in range(WARMUP + clicks)]
    # Some of the active tables move into these channels, seating alice and bob, before the bot starts.
    store = await Store.connect(target)
    try:
        active = [r[0] for r in await store.db.all("SELECT id FROM game_tables WHERE status = 'playing'")]
        chosen = rng.sample(active, WARMUP + clicks)
        async with store.transaction() as tx:
            await tx.executemany("UPDATE game_tables SET guild_id = ?, channel_id = ? WHERE id = ?",
                                 [(guild.id, ch.id, t) for t, ch in zip(chosen, channels, strict=True)])
            await tx.executemany("UPDATE seats SET user_id = ? WHERE table_id = ? AND position = ?",
                                 [(m.id, t, p) for t in chosen for p, m in enumerate(members)])
    finally:
        await store.close()
    by_id = {m.id: m for m in members}
    panel_ms: list[float] = []
    move_ms: list[float] = []
    async with runner:
        assert bot.flow is not None and bot.tables is not None
        for table_id in chosen:
            await bot.flow.post_table(await bot.tables.get(table_id), [])
        bot.tables._records.clear()  # every click below meets a cold table, read from the database
        bot.tables._states.clear()
        started = time.perf_counter()
        lag = LoopLag()
        await lag.__aenter__()
        for n, channel in enumerate(channels):
            message = latest_table_message(channel)
            member = by_id[seats_to_act(message)[0]]
            mark, t = ACKS.mark(), time.perf_counter()
            opened = await member.click(message, custom_id=hand_button_id(message))
            if n >= WARMUP:
                panel_ms.append(ACKS.since(mark, t))
            panel = opened.response
            for _ in range(6):  # follow a nested menu to a move
                options = [o for o in choices_in(panel) if o[0] == "button"] or choices_in(panel)
                kind, custom_id, value = options[0]
                mark, t = ACKS.mark(), time.perf_counter()
                result = await (member.click(panel, custom_id=custom_id) if kind == "button"
                                else member.select(panel, [value], custom_id=custom_id))
                if value.startswith(">"):
                    panel = result.response
                    continue
                if n >= WARMUP:
                    move_ms.append(ACKS.since(mark, t))
                break
        wall = time.perf_counter() - started
        await lag.__aexit__(None, None, None)
        await bot.close()
    return {"panel": panel_ms, "move": move_ms, "wall": wall, "lags": lag.lags}


# ------------------------------------------------------------------------ the bench

class Database:
    """A fresh store per backend: a SQLite file in a temporary directory, or a PostgreSQL database."""

    def __init__(self, backend: str, server: str) -> None:
        self.backend = backend
        self.server = server
        self.name = f"deckhand_scale_{os.getpid()}_{secrets.token_hex(3)}"
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self.target = ""

    async def __aenter__(self) -> str:
        if self.backend == "sqlite":
            self._tmp = tempfile.TemporaryDirectory(prefix="deckhand-scale-")
            self.target = os.path.join(self._tmp.name, "scale.sqlite3")
        else:
            await _admin(self.server, f'CREATE DATABASE "{self.name}"')
            self.target = _database(self.server, self.name)
        return self.target

    async def __aexit__(self, *exc: object) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
        else:
            await _admin(self.server, f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def backend_label(backend: str) -> str:
    return "SQLite" if backend == "sqlite" else "PostgreSQL"


async def open_database(backend: str, server: str, failures: list[str]) -> tuple[Database, str] | None:
    """A fresh database for ``backend`` and its target; None, with a failure noted, when PostgreSQL at
    ``server`` cannot be reached (no server: no figures, and that fails the budget)."""
    database = Database(backend, server)
    try:
        return database, await database.__aenter__()
    except Exception as exc:  # noqa: BLE001 - whatever stops the connection is reported the same way
        print(f"   PostgreSQL at {server} unavailable ({type(exc).__name__}: {exc}): FAIL")
        failures.append(f"{backend_label(backend)} unavailable")
        return None


async def bench_backend(backend: str, server: str, tables: int, stored: int, clicks: int,
                        failures: list[str]) -> None:
    label = backend_label(backend)
    header(f"scale: {label}, {tables // 10:,} → {tables:,} idle tables, then {stored:,} stored with {tables:,} active")
    opened = await open_database(backend, server, failures)
    if opened is None:
        return
    database, target = opened
    try:
        small = tables // 10
        t = time.perf_counter()
        await fill(target, 0, small, "playing")
        first = await asyncio.to_thread(child, "ready", target)
        await fill(target, small, tables, "playing")
        second = await asyncio.to_thread(child, "ready", target)
        ok = second["ready"] <= READY_BUDGET_S
        print(f"ready after start: {small:>7,} tables {first['ready']:.2f} s; {tables:>7,} tables "
              f"{second['ready']:.2f} s (budget ≤ {READY_BUDGET_S:g} s at {tables:,})  {verdict(ok)}")
        if not ok:
            failures.append(f"{label} ready {second['ready']:.2f} s")
        grown = second["rss"] - first["rss"]
        ok = grown <= MEMORY_BUDGET_MB
        print(f"RSS once ready:    {small:>7,} tables {first['rss']:.0f} MB; {tables:>7,} tables "
              f"{second['rss']:.0f} MB; {grown:+.1f} MB (budget ≤ +{MEMORY_BUDGET_MB:g} MB)  {verdict(ok)}")
        if not ok:
            failures.append(f"{label} memory {grown:+.1f} MB")
        sharded = await asyncio.to_thread(child, "ready", target, "0")
        ok = sharded["ready"] <= READY_BUDGET_S and sharded["due"] == second["due"] != float("inf")
        print(f"ready, as the process holding shard 0 of 2 (half the {tables:,} tables its own): "
              f"{sharded['ready']:.2f} s, {sharded['rss']:.0f} MB; scheduler asleep until its next deadline"
              f"  {verdict(ok)}")
        if not ok:
            failures.append(f"{label} sharded ready {sharded['ready']:.2f} s")
        await fill(target, tables, stored, "finished")
        filled = time.perf_counter() - t
        run = await asyncio.to_thread(child, "clicks", target, str(clicks), "1")
        for name, what in (("panel", "Hand / act → panel"), ("move", "a move in the panel")):
            ms = run[name]
            p99 = percentile(ms, 99)
            ok = p99 < CLICK_BUDGET_MS and len(ms) == clicks
            print(f"click ack, {what:<20} {len(ms):>4} clicks at cold tables among {stored:,} stored "
                  f"({tables:,} active): median {median(ms):.1f} ms, p99 {p99:.1f} ms, max {max(ms):.1f} ms "
                  f"(budget p99 < {CLICK_BUDGET_MS:g} ms)  {verdict(ok)}")
            if not ok:
                failures.append(f"{label} {name} p99 {p99:.1f} ms")
        lag = LoopLag()
        lag.lags = run["lags"]
        print("   " + lag.line("event loop held during the clicks", budgeted=False))
        print(f"   filling took {filled:.0f} s in all; the {clicks} click pairs {run['wall']:.1f} s of wall time"
              " (SimCord settles each click, and the move's table message is drawn after the acknowledgement).")
    finally:
        await database.__aexit__()


async def bench(backend: str, server: str, tables: int, stored: int, clicks: int) -> int:
    failures: list[str] = []
    backends = ("sqlite", "postgresql") if backend == "both" else (backend,)
    for i, name in enumerate(backends):
        if i:
            print()
        await bench_backend(name, server, tables, stored, clicks, failures)
    return finish(failures)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--tables", type=int, default=10_000, help="active tables (the ready figure's size)")
    parser.add_argument("--stored", type=int, default=100_000, help="stored tables for the click figure")
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--pg", default=PG_SERVER, help="PostgreSQL server URL (a database is made there and dropped)")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, target, *rest = args.child
        if kind == "ready":
            result = asyncio.run(ready_child(target, *rest))
        else:
            result = asyncio.run(clicks_child(target, int(rest[0]), int(rest[1])))
        print(json.dumps(result))
        return 0
    return asyncio.run(bench(args.backend, args.pg, args.tables, args.stored, args.clicks))


if __name__ == "__main__":
    raise SystemExit(main())
