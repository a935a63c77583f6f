"""Each service records its own metrics through the recorder it was built with (host/metrics.py).

A recorder that keeps what it is told stands in for the process's Prometheus one: what the store, the bot
pool, the render pool, the scheduler and the guard tell it is what /metrics shows in the running bot.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.guard import Guard
from data.store import Store
from data.timers import DEADLINE, TimerPlan, TimerRecord
from host import Refusal, StaleClick, TableService
from host.clock import Scheduler
from host.metrics import PROMETHEUS, SILENT, Recorder
from host.thinking import BotPool
from render.pool import RenderPool
from tests.host.test_store import play_some, started

pytestmark = pytest.mark.asyncio


@dataclass
class Kept:
    calls: list[tuple[Any, ...]] = field(default_factory=list)

    def interaction(self, command: str, outcome: str) -> None:
        self.calls.append(("interaction", command, outcome))

    def acknowledged(self, seconds: float) -> None:
        self.calls.append(("acknowledged", seconds))

    def table_posted(self, seconds: float) -> None:
        self.calls.append(("table_posted", seconds))

    def timer_fired(self, lateness: float | None) -> None:
        self.calls.append(("timer_fired", lateness))

    def move_committed(self) -> None:
        self.calls.append(("move_committed",))

    def picture_drawn(self, kind: str, seconds: float) -> None:
        self.calls.append(("picture_drawn", kind, seconds))

    def bot_thought(self, level: str, seconds: float) -> None:
        self.calls.append(("bot_thought", level, seconds))

    def transaction(self, seconds: float) -> None:
        self.calls.append(("transaction", seconds))

    def rest_error(self, status: int) -> None:
        self.calls.append(("rest_error", status))

    def named(self, name: str) -> list[tuple[Any, ...]]:
        return [c for c in self.calls if c[0] == name]


async def test_the_recorders_have_every_call_of_the_protocol() -> None:
    calls = {name for name in dir(Recorder) if not name.startswith("_")}
    for recorder in (PROMETHEUS, SILENT, Kept()):
        assert all(callable(getattr(recorder, name, None)) for name in calls), recorder


async def test_the_store_times_its_transactions_and_counts_moves(tmp_path: Path) -> None:
    kept = Kept()
    store = await Store.connect(str(tmp_path / "d.sqlite3"), recorder=kept)
    try:
        tables = TableService(store, new_seed=lambda: 3)
        table = await started(tables)
        before = len(kept.named("transaction"))
        await play_some(tables, table.id, 4)
        assert len(kept.named("move_committed")) == 4
        assert len(kept.named("transaction")) >= before + 4
        assert all(seconds >= 0 for _, seconds in kept.named("transaction"))
    finally:
        await store.close()


async def test_a_store_without_a_recorder_records_nothing(store: Store) -> None:
    """No recorder: the move and its transactions go through, and nothing reaches the process's metrics
    (a store built by a test or a tool never falls back on the running bot's recorder)."""
    from prometheus_client import REGISTRY

    def process_metrics() -> tuple[float | None, float | None]:
        return (REGISTRY.get_sample_value("deckhand_moves_committed_total"),
                REGISTRY.get_sample_value("deckhand_db_transaction_seconds_count"))

    assert store.db.recorder is None
    tables = TableService(store, new_seed=lambda: 3)
    table = await started(tables)
    before = process_metrics()
    await play_some(tables, table.id, 1)
    assert (await tables.get(table.id)).version > table.version, "the move was committed"
    assert process_metrics() == before


async def test_the_bot_pool_times_each_move_by_level() -> None:
    kept = Kept()
    pool = BotPool(workers=1, recorder=kept)
    try:
        from engines import get_engine

        engine = get_engine("do_over")
        state = engine.new_game(3, 5)
        seat = engine.to_act(state)[0]
        action = await pool.think("do_over", engine.dump(state), seat, 1, "easy")
        assert action in engine.legal_actions(state, seat)
        assert [c[:2] for c in kept.calls] == [("bot_thought", "easy")]
    finally:
        pool.close()


def square(n: int) -> int:
    return n * n


def table_png(n: int) -> int:
    return n + 1


async def test_the_render_pool_counts_pictures_by_kind() -> None:
    kept = Kept()
    pool = RenderPool(1, recorder=kept)
    try:
        assert await pool.draw(7, table_png, 1) == 2
        assert await pool.draw(7, square, 3) == 9
        assert [c[:2] for c in kept.calls] == [("picture_drawn", "table"), ("picture_drawn", "square")]
    finally:
        pool.close()


async def test_the_scheduler_tells_each_due_timer_and_its_lateness(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "clock.sqlite3"))
    kept = Kept()
    try:
        store.now = lambda: 1000.0  # type: ignore[method-assign]
        async with store.transaction() as tx:
            await tx.execute("INSERT INTO game_tables (id, guild_id, channel_id, game, options, status, seed, host_id,"
                             " created_at, updated_at) VALUES (7, 1, 2, 'do_over', '{}', 'playing', 1, 1, 0, 0)")
        await store.timers.change_timers(7, TimerPlan(add=[TimerRecord(7, DEADLINE, 0, 990.0, None, 0.0),
                                                           TimerRecord(7, DEADLINE, 1, 975.0, None, 0.0)]))

        async def fire(timers: list[TimerRecord]) -> list[TimerRecord]:
            await store.timers.change_timers(7, TimerPlan(drop=[(t.kind, t.seat) for t in timers]))
            return []

        scheduler = Scheduler(store, fire, recorder=kept)
        scheduler.start()
        for _ in range(50):
            await asyncio.sleep(0.01)
            if not await store.timers.due_timers(1000.0, 10):
                break
        await scheduler.close()
        assert sorted(kept.calls) == [("timer_fired", 10.0), ("timer_fired", 25.0)]
    finally:
        await store.close()


class Answered(Exception):
    pass


def interaction(name: str | None, custom_id: str = "") -> Any:
    command = SimpleNamespace(qualified_name=name) if name else None
    response = SimpleNamespace(is_done=lambda: True)
    return SimpleNamespace(command=command, data={"custom_id": custom_id}, response=response, extras={},
                           user=SimpleNamespace(id=1), locale=None)


@pytest.mark.parametrize("raised, outcome", [(None, "ok"), (Refusal("no"), "refused"), (StaleClick(3), "stale"),
                                             (RuntimeError("boom"), "error")])
async def test_the_guard_counts_each_interaction_by_command_and_outcome(raised: Exception | None,
                                                                       outcome: str) -> None:
    kept = Kept()
    guard = Guard(kept)

    async def work() -> None:
        if raised is not None:
            raise raised

    await guard.run(interaction("game start"), work)
    await guard.run(interaction(None, "dh:a:12:3:play:7"), work)
    assert kept.calls == [("interaction", "game start", outcome), ("interaction", "component dh:a", outcome)]


async def test_a_closing_guard_counts_the_interactions_it_turns_away() -> None:
    kept = Kept()
    guard = Guard(kept)
    assert await guard.drain(0.1)
    ran = asyncio.Event()

    async def work() -> None:
        ran.set()

    await guard.run(interaction("game new"), work)
    assert not ran.is_set() and kept.calls == [("interaction", "game new", "stopping")]


async def test_discords_failed_responses_are_counted_by_status_through_the_http_trace() -> None:
    """The bot gives discord.py's HTTP client ``http_trace=rest_errors(recorder)``: every failed response of
    the session it makes is counted by status; a success is not."""
    import aiohttp
    from aiohttp import web
    from aiohttp.test_utils import TestServer

    from bot import rest_errors

    async def missing(request: web.Request) -> web.Response:
        return web.Response(status=404)

    async def fine(request: web.Request) -> web.Response:
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/missing", missing)
    app.router.add_get("/fine", fine)
    kept = Kept()
    async with TestServer(app) as server, aiohttp.ClientSession(trace_configs=[rest_errors(kept)]) as session:
        for path in ("/missing", "/fine", "/missing"):
            async with session.get(server.make_url(path)):
                pass
    assert kept.calls == [("rest_error", 404), ("rest_error", 404)]
