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
        assert niceness_of(worker.pid) == min(19, niceness_of(os.getpid()) + THINKING_NICENESS)
    finally:
        pool.close()


def test_searches_and_pairings_run_below_the_pictures_which_run_below_the_bot() -> None:
    """The event loop first, then the pictures of members' moves, then the bots' searches and the pairings."""
    from host.pairing import PAIRING_NICENESS
    from render.pool import RENDER_NICENESS

    assert 0 < RENDER_NICENESS < THINKING_NICENESS <= 19
    assert RENDER_NICENESS < PAIRING_NICENESS <= 19


async def test_render_workers_run_below_the_bot_s_priority() -> None:
    import render
    from render.pool import RENDER_NICENESS, RenderPool

    pool = RenderPool(lanes=1)
    try:
        await pool.draw(1, render.warm)
        (worker,) = pool._executors[0]._processes.values()  # type: ignore[union-attr]
        assert niceness_of(worker.pid) == min(19, niceness_of(os.getpid()) + RENDER_NICENESS)
    finally:
        pool.close()
