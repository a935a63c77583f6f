"""The render pool: images drawn in worker processes, a table in its own lane unless that lane is busy."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import subprocess
import sys
import time
import weakref
from pathlib import Path
from typing import Any

import pytest

import render
from engines import get_engine
from render.pool import RenderPool

ROOT = Path(__file__).resolve().parents[2]


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
    # In an event loop the warm-up's answers are read by the loop: awaited, not waited for.
    warmed = await asyncio.gather(*(asyncio.wrap_future(f) for f in pool.start()))
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


def test_the_workers_die_with_the_bot_when_it_is_killed() -> None:
    """A killed bot closes nothing: its workers must not linger (holding its output pipes open)."""
    script = ("from render.pool import RenderPool; import time; pool = RenderPool(2); "
              "print(*[f.result(timeout=60) for f in pool.start()], flush=True); time.sleep(60)")
    bot = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE)
    assert bot.stdout is not None
    workers = [int(pid) for pid in bot.stdout.readline().split()]
    assert len(workers) == 2
    bot.send_signal(signal.SIGKILL)
    bot.wait(timeout=10)
    deadline = time.monotonic() + 10
    alive = workers
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = [pid for pid in workers if _running(pid)]
    assert not alive, f"workers {alive} outlived the killed bot"
    bot.stdout.close()


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has exited
    except FileNotFoundError:
        return False


def slow_once(marker: str) -> int:
    """Hangs the first time (a stuck worker), then draws at once: the retry is a fresh worker's."""
    if not os.path.exists(marker):
        Path(marker).write_text("hung")
        time.sleep(3600)
    return os.getpid()


async def test_a_picture_past_its_time_limit_has_its_worker_replaced_and_is_drawn_again(tmp_path: Path) -> None:
    pool = RenderPool(1, time_limit=1.0)
    try:
        hung = await pool.draw(1, lane_pid)
        started = time.monotonic()
        fresh = await pool.draw(1, slow_once, str(tmp_path / "marker"))
        assert time.monotonic() - started < 10
        assert fresh != hung and pool.cut == 1
        await asyncio.sleep(0.2)
        assert not Path(f"/proc/{hung}").exists() or "Z" in Path(f"/proc/{hung}/stat").read_text().split()[2]
    finally:
        pool.close()


async def test_pictures_in_hand_together_share_one_timer_for_their_time_limit() -> None:
    """One timer watches every picture in hand (SimCord keeps each cancelled timer until it settles and looks
    through them for every callback: a timer per picture made a burst's every callback dearer)."""
    pool = RenderPool(2)
    loop = asyncio.get_running_loop()
    call_at = loop.call_at
    timers = 0

    def counting(*args: Any, **kwargs: Any) -> asyncio.TimerHandle:
        nonlocal timers
        timers += 1
        return call_at(*args, **kwargs)

    try:
        await pool.draw(1, lane_pid)  # the workers started
        loop.call_at = counting  # type: ignore[method-assign]
        pids = await asyncio.gather(*(pool.draw(key, lane_pid) for key in range(20)))
        assert len(set(pids)) == 2
        assert timers == 1, timers
    finally:
        loop.call_at = call_at  # type: ignore[method-assign]
        pool.close()


def test_the_watch_over_pictures_in_hand_does_not_keep_a_closed_loop_alive() -> None:
    """The pool outlives loops (tests run each bot in a loop of its own): its watches hold theirs weakly."""
    pool = RenderPool(1)
    try:
        loops = [asyncio.new_event_loop() for _ in range(2)]
        for loop in loops:  # the second loop takes over the pool's turns from the first
            assert loop.run_until_complete(pool.draw(1, lane_pid)) > 0
            loop.close()
        gone = weakref.ref(loops[0])
        del loops[0], loop
        gc.collect()
        assert gone() is None, "the pool's watch kept a closed loop alive"
        assert len(pool._watches) == 1
    finally:
        pool.close()


@pytest.mark.parametrize(("cores", "lanes"), [(None, 1), (1, 1), (2, 1), (4, 3), (8, 7)])
def test_a_core_is_left_to_the_event_loop(monkeypatch: pytest.MonkeyPatch, cores: int | None, lanes: int) -> None:
    """As many lanes as cores kept the loop off its core for the workers' time slices in a burst of moves."""
    import render.pool

    monkeypatch.setattr(render.pool.os, "cpu_count", lambda: cores)
    assert render.pool.lane_count() == lanes
    assert render.pool.RenderPool().lanes == lanes


def leave_marker(marker: str) -> int:
    Path(marker).write_text("drawn")
    return os.getpid()


async def test_a_submitted_picture_reaches_its_worker_before_the_loop_turns_again(tmp_path: Path) -> None:
    """``submit`` hands the picture over at once: the worker draws it while the caller goes on with its
    step, without the event loop turning (a task would start only at the loop's next turn, in a burst after
    every other move's step). ``finish`` then gives the result, and the lane's count goes back down."""
    pool = RenderPool(1)
    marker = tmp_path / "marker"
    try:
        await pool.draw(1, lane_pid)  # the worker started and warm
        drawing = pool.submit(1, leave_marker, str(marker))
        assert pool.in_hand == [1]
        deadline = time.monotonic() + 30
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.01)  # the event loop is held here on purpose: no turn of it runs meanwhile
        assert marker.exists(), "drawn with the event loop held"
        assert await pool.finish(drawing) > 0 and pool.in_hand == [0]
    finally:
        pool.close()
