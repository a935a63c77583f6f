"""The render pool: images drawn in worker processes, a table in its own lane unless that lane is busy."""

from __future__ import annotations

import asyncio
import os
import signal

import render
from engines import get_engine
from render.pool import RenderPool


def lane_pid() -> int:
    return os.getpid()


async def test_an_image_drawn_in_a_worker_is_the_image_drawn_here() -> None:
    engine = get_engine("do_over")
    state = engine.new_game(3, 5)
    view, names = engine.view(state, None), ["Ada", "Kofi", "王芳"]
    pool = RenderPool(2)
    try:
        drawn = await pool.draw(7, render.table_png, "do_over", view, names, "Ada plays 7")
        assert drawn == render.table_png("do_over", view, names, "Ada plays 7")
        assert pool.in_hand == [0, 0]
    finally:
        pool.close()


def test_a_table_keeps_its_lane_until_that_lane_has_two_more_images_in_hand() -> None:
    pool = RenderPool(2)
    assert pool.lane_for(6) == 0 and pool.lane_for(7) == 1
    pool.in_hand = [1, 0]
    assert pool.lane_for(6) == 0, "one more in hand: the table's own lane still"
    pool.in_hand = [2, 0]
    assert pool.lane_for(6) == 1 and pool.lane_for(7) == 1
    pool.in_hand = [3, 2]
    assert pool.lane_for(6) == 0


async def test_a_lane_whose_worker_died_draws_on_a_fresh_one() -> None:
    pool = RenderPool(1)
    try:
        first = await pool.draw(1, lane_pid)
        os.kill(first, signal.SIGKILL)
        await asyncio.sleep(0.2)
        second = await pool.draw(1, lane_pid)
        assert second != first
    finally:
        pool.close()


async def test_a_closed_pool_stops_its_workers_and_starts_again_when_asked() -> None:
    pool = RenderPool(2)
    warmed = [f.result(timeout=60) for f in pool.start()]
    assert len(set(warmed)) == 2 and pool.started
    pool.close()
    assert not pool.started
    for pid in warmed:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        raise AssertionError(f"worker {pid} still runs after close()")
    try:
        assert await pool.draw(3, lane_pid) not in warmed
    finally:
        pool.close()
