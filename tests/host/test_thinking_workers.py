"""The bot players' worker processes think below the bot's priority (they start as the render workers do,
with render.pool.worker_start, and so also die with the bot: tests/render/test_pool.py)."""

from __future__ import annotations

import os

from host.thinking import THINKING_NICENESS, BotPool
from tests.engines.search_states import midgame


def niceness_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[16])


async def test_thinking_workers_run_below_the_bot_s_priority() -> None:
    from engines import get_engine

    engine = get_engine("do_over")
    state, seat = midgame("do_over", 3, steps=4)
    pool = BotPool(workers=1)
    try:
        await pool.think("do_over", engine.dump(state), seat, 3, "normal")
        (worker,) = pool._executor._processes.values()  # type: ignore[union-attr]
        assert niceness_of(worker.pid) == niceness_of(os.getpid()) + THINKING_NICENESS
    finally:
        pool.close()
