"""The web pages at scale: page times over 10⁴ stored tables and 10² tournaments, live pages left open, and a
burst of moves while pages follow the tables.

    .venv/bin/python -m bench.web [--tables 10000] [--requests 500] [--live 200] [--idle 10] [--follow 50]
                                  [--no-burst]

1. **Pages.** A SQLite file with ``--tables`` stored tables (the five games, each a real game of about 40
   random moves, copied) and 100 tournaments (99 small ones in registration, one of 256 entrants with round 1
   played by bots and round 2 seated). Each request goes through aiohttp's test client; the figure is the
   server's own time (the ``Server-Timing`` header: from the request reaching the app to its response being
   ready). Table pages of random tables (each table's state loaded cold the first time), and the tournament
   page of 256 entrants. Budget: p99 ≤ 50 ms each. A table picture is its own request, drawn once per version:
   printed for information.
2. **Live pages left open.** ``python -m web`` on that file (its own process); ``--live`` server-sent-event
   streams are opened on playing tables and left idle; the server process's CPU time (``/proc``) over
   ``--idle`` seconds. Budget: ≤ 5 % of a core.
3. **A burst while pages follow.** ``bench.burst``'s SQLite run (the real bot in SimCord, 56 tables, 3
   bursts) with ``WEB_PORT`` set, the server's pages turned on, and ``--follow`` pages following the tables
   from another process: each holds the table's event stream **and** fetches the table's live part once a
   second (what a polling page would cost, more than a stream; SimCord's virtual clock may hold the stream's
   watcher still). Budget: bench.burst's own (p99 ≤ 300 ms, ≥ 150 actions/s).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from typing import Any

from bench._common import finish, header, median, percentile, verdict

P99_BUDGET_MS = 50.0
IDLE_BUDGET = 5.0  # % of one core
GUILD = 1
CHANNEL = 500
GAMES = (("do_over", 4), ("pedwar", 4), ("king_pedro", 4), ("ogre_cheerleaders", 4), ("pentawar", 5))


async def build(path: str, tables: int) -> dict[str, Any]:
    """The stored world: ``tables`` tables copied from five real games, 100 tournaments (one of 256)."""
    from data.store import Store
    from host.tournaments.service import TournamentService
    from tests.web.helpers import new_table, play, service

    store = await Store.open(path)
    svc = service(store)
    rng = random.Random(3)
    await store.settings.set_guild_setting(GUILD, "web_pages", "on", 1)
    await store.web.set_channel_public(GUILD, CHANNEL, True)
    templates = []
    for i, (game, players) in enumerate(GAMES):
        tid = await new_table(svc, game, 10 + i, players, parent=CHANNEL)
        await play(svc, tid, 40, rng)
        templates.append(tid)
    t = time.perf_counter()
    events = TournamentService(svc)
    big = (await events.create(guild_id=GUILD, channel_id=CHANNEL, organiser_id=101, game="pentawar", fmt="swiss",
                               rounds=3, table_size=2, top_cut=None, turn_time=86400, round_time=None, options=None,
                               name="Big Open")).record.id
    await events.add_bots(big, 101, False, 32, "random")
    for n in range(224):  # 32 bots at once is the command's limit: the rest are members
        await events.join(big, 10_000 + n, f"Player {n:03d}")
    await events.start(big, 101, False)
    for round_number in (1, 2):
        seated = [(await events.seat(place, 200_000 + round_number * 1000 + i)).id
                  for i, place in enumerate(await events.pending(big))]
        if round_number == 2:
            break
        for table_id in seated:
            while (await svc.get(table_id)).status == "playing":
                if await svc.bot_step(table_id) is None:
                    await play(svc, table_id, 1, rng)
            await events.table_finished(table_id)
    for n in range(99):
        small = (await events.create(guild_id=GUILD, channel_id=CHANNEL + 1 + n, organiser_id=101, game="do_over",
                                     fmt="swiss", rounds=None, table_size=None, top_cut=None, turn_time=86400,
                                     round_time=None, options=None, name=f"Weekly {n}")).record.id
        await events.add_bots(small, 101, False, 8, "easy")
    event_time = time.perf_counter() - t
    await store.close()
    t = time.perf_counter()
    copy(path, templates, tables - len(templates) - 256)
    return {"big": big, "templates": templates, "event_time": event_time, "copy_time": time.perf_counter() - t}


def copy(path: str, templates: list[int], count: int) -> None:
    """``count`` more tables, each a copy of a template (its seats and its action log), as threads of CHANNEL."""
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    shapes = []
    for tid in templates:
        table = dict(db.execute("SELECT * FROM game_tables WHERE id = ?", (tid,)).fetchone())
        seats = [dict(r) for r in db.execute("SELECT * FROM seats WHERE table_id = ?", (tid,))]
        actions = [dict(r) for r in db.execute("SELECT * FROM actions WHERE table_id = ?", (tid,))]
        shapes.append((table, seats, actions))
    next_id = db.execute("SELECT MAX(id) FROM game_tables").fetchone()[0] + 1
    with db:
        for n in range(count):
            table, seats, actions = shapes[n % len(shapes)]
            row = {**table, "id": next_id + n, "channel_id": 1_000_000 + n}
            db.execute(f"INSERT INTO game_tables ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                       list(row.values()))
            for rows, name in ((seats, "seats"), (actions, "actions")):
                if rows:
                    cols = list(rows[0])
                    db.executemany(f"INSERT INTO {name} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                                   [[next_id + n if c == "table_id" else r[c] for c in cols] for r in rows])
    db.close()


async def page_times(path: str, requests: int, big: int) -> dict[str, list[float]]:
    from aiohttp.test_utils import TestClient, TestServer

    from data.store import Store
    from host.web import PublicSite
    from web.app import make_app

    store = await Store.open_read_only(path)
    ids = [r[0] for r in await store.db.all("SELECT id FROM game_tables WHERE status = 'playing'")]
    rng = random.Random(9)
    out: dict[str, list[float]] = defaultdict(list)

    async def timed(c: Any, url: str, into: str) -> None:
        response = await c.get(url)
        assert response.status == 200, (url, response.status)
        await response.read()
        timing = dict(part.strip().split(";dur=") for part in response.headers["Server-Timing"].split(","))
        out[into].append(float(timing["app"]))
        out["cpu " + into].append(float(timing["cpu"]))

    site = PublicSite(store)
    async with TestClient(TestServer(make_app(site))) as c:
        for _ in range(20):  # templates and fonts loaded, as in a server that has run a while
            await c.get(f"/s/{GUILD}/tables/{rng.choice(ids)}")
        await c.get(f"/s/{GUILD}/tournaments/{big}")
        gc.collect()
        gc.freeze()  # as python -m web does once started
        gc.set_threshold(7000, *gc.get_threshold()[1:])
        for _ in range(requests):
            await timed(c, f"/s/{GUILD}/tables/{rng.choice(ids)}", "table")
        for _ in range(max(20, requests // 5)):
            await timed(c, f"/s/{GUILD}/tournaments/{big}", "tournament")
        for _ in range(10):
            await timed(c, f"/s/{GUILD}", "server")
        for _ in range(10):  # the first request after the tournament changed: standings computed again
            site._events.clear()
            await timed(c, f"/s/{GUILD}/tournaments/{big}", "changed")
        for tid in rng.sample(ids, 20):
            version = (await store.tables.get_table(tid)).version
            await timed(c, f"/s/{GUILD}/tables/{tid}/v{version}.png", "picture")
        # A table's live part as following pages fetch it: the first fetch of a version, then nine more (the
        # other pages following it, or one page polling) until the table moves again.
        for tid in rng.sample(ids, 50):
            await timed(c, f"/s/{GUILD}/tables/{tid}/part", "part first")
            for _ in range(9):
                await timed(c, f"/s/{GUILD}/tables/{tid}/part", "part again")
    await store.close()
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def idle_live(path: str, live: int, idle: float) -> tuple[float, float, int]:
    """CPU % of a core of ``python -m web`` with ``live`` open streams, and without any (for comparison)."""
    import aiohttp

    port = free_port()
    env = {**os.environ, "DATABASE_PATH": path, "WEB_PORT": str(port), "WEB_HOST": "127.0.0.1",
           "DATABASE_URL": "", "LOG_LEVEL": "WARNING"}
    proc = subprocess.Popen([sys.executable, "-m", "web"], env=env, stdout=subprocess.DEVNULL)
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            for _ in range(100):
                try:
                    async with session.get(f"http://127.0.0.1:{port}/healthz") as r:
                        if r.status == 200:
                            break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.1)
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            ids = [r[0] for r in db.execute("SELECT id FROM game_tables WHERE status = 'playing' LIMIT ?", (live,))]
            db.close()
            c0, t0 = cpu_seconds(proc.pid), time.perf_counter()
            await asyncio.sleep(idle / 2)
            baseline = (cpu_seconds(proc.pid) - c0) / (time.perf_counter() - t0) * 100
            streams = []
            for tid in ids:
                response = await session.get(f"http://127.0.0.1:{port}/s/{GUILD}/tables/{tid}/live?since=x",
                                             timeout=aiohttp.ClientTimeout(total=None))
                assert response.status == 200
                streams.append(response)
            await asyncio.sleep(2)  # the streams are open and the first look is done
            c0, t0 = cpu_seconds(proc.pid), time.perf_counter()
            await asyncio.sleep(idle)
            busy = (cpu_seconds(proc.pid) - c0) / (time.perf_counter() - t0) * 100
            for response in streams:
                response.close()
            return busy, baseline, len(streams)
    finally:
        proc.terminate()
        proc.wait(10)


# ------------------------------------------------------------------ 3. a burst while pages follow


async def follow(urls: list[str], seconds: float, record: str | None = None) -> None:
    """Each page: its event stream open, and its live part fetched once a second. With ``record``, each
    fetch's server time and CPU time (its ``Server-Timing``) are appended to that file, a line each."""
    import aiohttp

    out = open(record, "a", buffering=1) if record else None  # noqa: SIM115 - kept open while following
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        async def page(url: str) -> None:
            stream = await session.get(url + "/live?since=x", timeout=aiohttp.ClientTimeout(total=None))
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                async with session.get(url + "/part") as r:
                    await r.read()
                    timing = r.headers.get("Server-Timing", "")
                if out is not None and timing:
                    parts = dict(p.strip().split(";dur=") for p in timing.split(","))
                    out.write(f"{parts['app']} {parts['cpu']}\n")
                await asyncio.sleep(1.0)
            stream.close()

        await asyncio.gather(*(page(u) for u in urls))


async def burst_with_pages(pages: int) -> int:
    from bench import burst
    from bench._common import percentile as pct

    port = free_port()
    os.environ["WEB_PORT"] = str(port)
    os.environ["WEB_HOST"] = "127.0.0.1"
    os.environ.pop("PUBLIC_URL", None)
    opened = burst.open_tables
    followers: list[subprocess.Popen[bytes]] = []
    record = tempfile.mktemp(prefix="deckhand-follow-", suffix=".txt")

    async def open_and_follow(env: Any, guild: Any, members: Any, tables: int) -> Any:
        channels = await opened(env, guild, members, tables)
        bot = env.bot
        await bot.services.server_settings.set(guild.id, "web_pages", "on", members[0].id)
        for channel in channels:
            await bot.store.web.set_channel_public(guild.id, channel.id, True)
        ids = [r[0] for r in await bot.store.db.all("SELECT id FROM game_tables WHERE status = 'playing' ORDER BY id")]
        urls = [f"http://127.0.0.1:{port}/s/{guild.id}/tables/{tid}" for tid in ids[:pages]]
        followers.append(subprocess.Popen([sys.executable, "-m", "bench.web", "--follower", json.dumps(urls),
                                           "--record", record]))
        await asyncio.sleep(3)  # the pages are open and fetching
        return channels

    burst.open_tables = open_and_follow  # type: ignore[assignment]
    failures: list[str] = []
    try:
        header(f"burst: 56 moves at 56 tables, 3 bursts, SQLite, with {pages} pages following the tables")
        with tempfile.TemporaryDirectory() as tmp:
            target = os.path.join(tmp, "burst.sqlite3")
            run = await burst.run_backend(target, 56, 3, seed=7)
    finally:
        burst.open_tables = opened  # type: ignore[assignment]
        for f in followers:
            f.terminate()
            f.wait(10)
    from host.metrics import WEB_REQUESTS

    served = {(s.labels["route"], s.labels["status"]): s.value for m in WEB_REQUESTS.collect() for s in m.samples
              if s.name.endswith("_total")}
    print(f"   the bot served {served.get(('table_part', '200'), 0):.0f} live parts and "
          f"{served.get(('live', '200'), 0):.0f} event streams to the following pages (other answers: "
          f"{sum(v for k, v in served.items() if k[1] != '200'):.0f})")
    fetched = []
    if os.path.exists(record):
        with open(record) as f:
            fetched = [tuple(float(v) for v in line.split()) for line in f if line.strip()]
        os.unlink(record)
    if fetched:
        app, cpu = [t[0] for t in fetched], [t[1] for t in fetched]
        print(f"   each live part fetched (the bot's Server-Timing, bursts and their set-up included; CPU of the "
              f"whole process meanwhile): median {median(app):.2f} ms, p99 {pct(app, 99):.2f} ms; CPU median "
              f"{median(cpu):.2f} ms, p99 {pct(cpu, 99):.2f} ms")
    ms = run["times"]
    p99 = pct(ms, 99)
    rates = [56 / wall for wall in run["walls"]]
    ok_p99, ok_rate = p99 <= burst.P99_BUDGET_MS, min(rates) >= burst.RATE_BUDGET
    print(f"move → acknowledged + table message posted: {len(ms)} moves, median {median(ms):.0f} ms, "
          f"p99 {p99:.0f} ms (budget ≤ {burst.P99_BUDGET_MS:g} ms)  {verdict(ok_p99)}")
    print(f"actions/s per burst: {', '.join(f'{r:.0f}' for r in rates)} (budget ≥ {burst.RATE_BUDGET:g})  "
          f"{verdict(ok_rate)}")
    print(f"   CPU per move in the bot's process (all threads, pages served meanwhile): "
          f"{sum(c[0] for c in run['cpus']) / len(ms) * 1000:.1f} ms, its picture workers "
          f"{sum(c[1] for c in run['cpus']) / len(ms) * 1000:.1f} ms;"
          f" load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if not ok_p99:
        failures.append(f"burst with pages p99 {p99:.0f} ms")
    if not ok_rate:
        failures.append(f"burst with pages {min(rates):.0f} actions/s")
    return len(failures)


async def bench(tables: int, requests: int, live: int, idle: float, pages: int, with_burst: bool) -> int:
    failures: list[str] = []
    header(f"web: {tables} stored tables, 100 tournaments (one of 256 entrants)")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "web.sqlite3")
        built = await build(path, tables)
        print(f"   built: tournaments in {built['event_time']:.1f} s, {tables} tables copied in "
              f"{built['copy_time']:.1f} s")
        times = await page_times(path, requests, built["big"])
        for name, label in (("table", "table page (random tables)"), ("tournament", "tournament page, 256 entrants")):
            ms = times[name]
            p99 = percentile(ms, 99)
            ok = p99 <= P99_BUDGET_MS
            cpu = times["cpu " + name]
            print(f"{label}: {len(ms)} requests, median {median(ms):.1f} ms, p99 {p99:.1f} ms, max {max(ms):.1f} ms "
                  f"server time (budget p99 ≤ {P99_BUDGET_MS:g} ms)  {verdict(ok)}")
            print(f"   its CPU time: median {median(cpu):.1f} ms, p99 {percentile(cpu, 99):.1f} ms; load average "
                  f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (info)")
            if not ok:
                failures.append(f"{name} page p99 {p99:.0f} ms")
        for name, label in (("changed", "tournament page, first request after a change"),
                            ("picture", "table picture, first request of a version (drawn)"),
                            ("server", "server page"),
                            ("part first", "a table's live part, first fetch of a version"),
                            ("part again", "a table's live part, each later fetch of the same version")):
            ms, cpu = times[name], times["cpu " + name]
            print(f"   {label}: median {median(ms):.2f} ms, p99 {percentile(ms, 99):.2f} ms; CPU median "
                  f"{median(cpu):.2f} ms (info)")
        busy, baseline, opened = await idle_live(path, live, idle)
        ok = busy <= IDLE_BUDGET
        print(f"{opened} live table pages open and idle: python -m web uses {busy:.2f} % of a core over {idle:g} s "
              f"(with none open: {baseline:.2f} %) (budget ≤ {IDLE_BUDGET:g} %)  {verdict(ok)}")
        if not ok:
            failures.append(f"idle live pages {busy:.1f} %")
    if with_burst:
        print()
        if await burst_with_pages(pages):
            failures.append("burst with pages following")
    return finish(failures)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--live", type=int, default=200)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--follow", type=int, default=50)
    parser.add_argument("--no-burst", action="store_true")
    parser.add_argument("--burst-only", action="store_true")
    parser.add_argument("--follower", help=argparse.SUPPRESS)
    parser.add_argument("--record", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.follower:
        asyncio.run(follow(json.loads(args.follower), 600, args.record))
        return 0
    os.environ.pop("DEV_GUILD_ID", None)
    if args.burst_only:
        return finish(["burst with pages following"] if asyncio.run(burst_with_pages(args.follow)) else [])
    return asyncio.run(bench(args.tables, args.requests, args.live, args.idle, args.follow, not args.no_burst))


if __name__ == "__main__":
    raise SystemExit(main())
