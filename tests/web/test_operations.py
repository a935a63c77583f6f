"""/healthz, /metrics and LOG_FORMAT=json: the database probe on both backends (a SQLite file moved away, a
TCP proxy in front of PostgreSQL closed and opened again; the shared server is never stopped), the gateway
check, the metrics parsed by prometheus_client's parser with counters that move with a game."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from prometheus_client.parser import text_string_to_metric_families

from data.backends.base import TxClosed
from data.store import Store
from host.web import PublicSite
from tests.e2e.driver import choices_in, latest_table_message, open_hand, use
from tests.web.helpers import client
from web.app import make_app
from web.logs import JsonFormatter

pytestmark = pytest.mark.asyncio


async def health(c: Any) -> tuple[int, dict[str, Any]]:
    response = await c.get("/healthz")
    return response.status, await response.json()


async def until(c: Any, status: int, seconds: float = 8.0) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while True:
        got, body = await health(c)
        if got == status or loop.time() > end:
            assert got == status, body
            return body
        await asyncio.sleep(0.2)


async def test_healthz_on_sqlite_turns_503_when_the_file_is_unreadable_and_back(tmp_path: Any) -> None:
    path = str(tmp_path / "deckhand.sqlite3")
    writer = await Store.open(path)
    store = await Store.open_read_only(path)  # as python -m web opens it
    try:
        with pytest.raises(TxClosed):
            async with store.transaction() as tx:
                await tx.execute("DELETE FROM game_tables")
        async with client(store) as c:
            status, body = await health(c)
            assert status == 200 and body == {"status": "ok", "checks": {"database": "ok"}}
            moved = {p: p + ".away" for p in (path, path + "-wal", path + "-shm") if os.path.exists(p)}
            for a, b in moved.items():
                os.rename(a, b)
            body = await until(c, 503)
            assert body["status"] == "fail" and body["checks"]["database"] != "ok"
            for a, b in moved.items():
                os.rename(b, a)
            await until(c, 200)
            # Made unreadable in place (chmod 000): a 503 even for a process running as root, which could read it.
            mode = os.stat(path).st_mode
            os.chmod(path, 0)
            try:
                body = await until(c, 503)
                assert "readable" in body["checks"]["database"]
            finally:
                os.chmod(path, mode)
            await until(c, 200)
    finally:
        await store.close()
        await writer.close()


class Proxy:
    """A TCP proxy to PostgreSQL that the test closes (every connection cut) and opens again on its port."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def open(self) -> None:
        self.server = await asyncio.start_server(self._pipe, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        assert self.server is not None
        self.server.close()
        for w in list(self.writers):
            w.close()
        self.writers.clear()
        await self.server.wait_closed()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self.writers |= {writer, up_writer}

        async def copy(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(copy(reader, up_writer), copy(up_reader, writer))


async def test_healthz_on_postgres_turns_503_when_the_proxy_closes_and_back(pg_target: str) -> None:
    (await Store.connect(pg_target)) and None  # the schema, made through the real address
    parts = urlsplit(pg_target)
    proxy = Proxy((parts.hostname or "127.0.0.1", parts.port or 5432))
    await proxy.open()
    netloc = f"{parts.username}@127.0.0.1:{proxy.port}" if parts.username else f"127.0.0.1:{proxy.port}"
    store = await Store.open_read_only(urlunsplit((parts.scheme, netloc, parts.path, parts.query, "")))
    try:
        async with client(store) as c:
            assert (await health(c))[0] == 200
            await proxy.close()
            body = await until(c, 503)
            assert body["checks"]["database"] != "ok"
            await proxy.open()
            await until(c, 200, 15)
    finally:
        await proxy.close()
        await store.close()
        await Store.close_all()


async def test_healthz_reports_the_gateway_in_the_bot(store: Store) -> None:
    problem: list[str | None] = ["the gateway is not ready"]
    async with client(store, gateway=lambda: problem[0]) as c:
        status, body = await health(c)
        assert status == 503 and body["checks"] == {"database": "ok", "gateway": "the gateway is not ready"}
        problem[0] = None
        status, body = await health(c)
        assert status == 200 and body["checks"] == {"database": "ok", "gateway": "ok"}


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


async def scrape(store: Store) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    from aiohttp.test_utils import TestClient, TestServer

    async with TestClient(TestServer(make_app(PublicSite(store), gateway_latency=lambda: 0.05))) as c:
        response = await c.get("/metrics")
        assert response.status == 200
        text = await response.text()
        found = samples(text)
        found.update({("# family " + f.name, ()): 1.0 for f in text_string_to_metric_families(text)})
        return found


async def test_metrics_parse_and_move_with_a_game(world: Any, db_path: str) -> None:
    store = world.env.bot.store
    before = await scrape(store)
    for name in ("deckhand_interactions_total", "deckhand_ack_latency_seconds", "deckhand_table_post_seconds",
                 "deckhand_timers_fired_total", "deckhand_timer_lateness_seconds", "deckhand_moves_committed_total",
                 "deckhand_pictures_drawn_total", "deckhand_picture_seconds", "deckhand_bot_thinking_seconds",
                 "deckhand_db_transaction_seconds", "deckhand_discord_rest_errors_total",
                 "deckhand_gateway_latency_seconds", "deckhand_open_tables", "deckhand_open_tournaments"):
        assert ("# family " + name.removesuffix("_total"), ()) in before, name
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pentawar")
    await bob.slash(world.channel, "game join")
    await world.members["carol"].slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    by_id = {m.id: m for m in world.members.values()}
    for _ in range(3):
        message = latest_table_message(world.channel)
        to_act = message.content.split("To act:")[-1]
        actor = next(by_id[int(u)] for u in re.findall(r"<@(\d+)>", to_act))
        panel = await open_hand(actor, message)
        kind, cid, value = choices_in(panel)[0]
        await use(actor, panel, kind, cid, value)
    after = await scrape(store)
    moves = ("deckhand_moves_committed_total", ())
    assert after[moves] - before.get(moves, 0) >= 3
    started = ("deckhand_interactions_total", (("command", "game start"), ("outcome", "ok")))
    assert after[started] - before.get(started, 0) == 1
    assert after[("deckhand_open_tables", ())] == 1
    assert after[("deckhand_gateway_latency_seconds", ())] == 0.05
    assert after[("deckhand_db_transaction_seconds_count", ())] > before.get(
        ("deckhand_db_transaction_seconds_count", ()), 0)
    assert after[("deckhand_ack_latency_seconds_count", ())] > before.get(("deckhand_ack_latency_seconds_count", ()), 0)
    drawn = ("deckhand_pictures_drawn_total", (("kind", "table"),))
    assert after[drawn] > before.get(drawn, 0)


async def test_log_format_json_writes_one_object_a_line() -> None:
    record = logging.LogRecord("deckhand", logging.WARNING, __file__, 1, "table %s is \"late\"\nreally", (7,), None)
    line = JsonFormatter().format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "WARNING" and entry["logger"] == "deckhand"
    assert entry["message"] == 'table 7 is "late"\nreally'


async def test_healthz_turns_503_while_the_gateway_connection_is_down(world: Any) -> None:
    """discord.py stays "ready" while it reconnects after a dropped connection: /healthz looks at the
    connection itself, so a probe sees the drop, and the recovery."""
    from bot import WebServing

    bot = world.env.bot
    serving = WebServing(bot, None, None, None)  # type: ignore[arg-type]  # only its gateway check
    async with client(bot.store, gateway=serving.gateway_problem) as c:
        assert (await health(c))[0] == 200
        await bot.ws.close()  # the connection drops; discord.py would reconnect
        assert bot.is_ready()
        status, body = await health(c)
        assert status == 503 and "closed" in body["checks"]["gateway"]
        bot.ws.open = True  # reconnected (SimCord's shard reconnect does the same)
        assert (await health(c))[0] == 200
