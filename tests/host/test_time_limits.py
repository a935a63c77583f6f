"""A search that never returns is cut: its worker is killed and replaced, and the seat plays the easy move.
A timed-out seat's bot thinks outside the table's lock, so other players' clicks never wait for it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from data.store import Store
from engines import get_engine
from host import TableService
from host.thinking import BotPool, think_now
from tests.engines.search_states import midgame


def hang(*args: Any) -> str:
    """A search that never returns (a worker stuck in a loop)."""
    time.sleep(3600)
    return ""


async def test_a_search_that_never_returns_is_cut_and_the_seat_plays_the_easy_move() -> None:
    engine = get_engine("do_over")
    state, seat = midgame("do_over", 3, steps=4)
    snapshot = engine.dump(state)
    pool = BotPool(workers=1, time_limit=1.0, work=hang)
    try:
        started = time.monotonic()
        action = await pool.think("do_over", snapshot, seat, 3, "normal")
        assert time.monotonic() - started < 10
        assert action == think_now("do_over", snapshot, seat, 3, "easy")
        assert pool.cut == 1
        assert pool._executor is None, "the hung worker's pool was discarded"
        # The replacement thinks as before.
        pool.work = think_now
        assert await pool.think("do_over", snapshot, seat, 3, "normal") == think_now("do_over", snapshot, seat, 3,
                                                                                     "normal")
    finally:
        pool.close()


async def test_a_hung_search_at_a_bot_seat_still_moves_the_table(store: Store) -> None:
    pool = BotPool(workers=1, time_limit=1.0, work=hang)
    tables = TableService(store)
    tables.think = pool.think
    try:
        table = await tables.create(guild_id=1, channel_id=5, game_id="pentawar", options=None, user_id=10,
                                    user_name="host")
        await tables.add_bot(5, 10, False, level="normal")
        table = await tables.start(5, 10, True, table.id)
        if not await tables.bots_to_act(table.id):  # the host moves first: then it is the bot's turn
            hand = await tables.hand(table.id, 10)
            await tables.act(table.id, 10, hand.choices[0][0])
        before = await tables.get(table.id)
        outcome = await tables.bot_step(table.id)
        assert outcome is not None and outcome.table.version == before.version + 1
        assert pool.cut == 1
    finally:
        pool.close()


async def test_a_timed_out_seat_s_bot_thinks_outside_the_table_lock(store: Store) -> None:
    from data.timers import DEADLINE

    tables = TableService(store)
    held_while_thinking: list[bool] = []

    async def think(game_id: str, snapshot: dict[str, Any], seat: int, salt: int, level: str) -> str:
        held_while_thinking.append(tables.lock(table.id).locked())
        await asyncio.sleep(0)
        return think_now(game_id, snapshot, seat, salt, "easy")

    tables.think = think
    tables.level_for = lambda guild_id: "normal"
    table = await tables.create(guild_id=1, channel_id=6, game_id="pentawar", options=None, user_id=10,
                                user_name="a", turn_time=60)
    await tables.join(6, 11, "b")
    await tables.start(6, 10, False, table.id)
    deadline = next(t for t in await store.timers.timers_of(table.id) if t.kind == DEADLINE)
    store.now = lambda: (deadline.due or 0) + 1  # type: ignore[method-assign]
    notice = await tables.timeout(deadline)
    assert notice is not None and notice.outcomes
    assert held_while_thinking and not any(held_while_thinking)
