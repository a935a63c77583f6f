"""host.pairing.PairingPool: the same step as next_step, large fields paired in a worker process off
the event loop (the loop keeps its 1 ms timer while 1,024 entrants are paired), small ones inline."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from host.pairing import PairingPool
from host.tournaments import PlayedRound, make_settings, pair_swiss
from host.tournaments.progress import StageRound, next_step
from tests.host.tournaments.helpers import entrants, random_results

pytestmark = pytest.mark.asyncio


def _swiss(n: int, rounds: int, size: int = 2):
    cfg = make_settings("pedwar" if size == 2 else "do_over", "swiss", table_size=size, rounds=rounds + 1)
    field = entrants(n)
    rng = random.Random(n)
    history: list[PlayedRound] = []
    for _ in range(rounds):
        history.append(random_results(pair_swiss(cfg, field, history), rng))
    return cfg, field, [StageRound("swiss", h.results, h.byes) for h in history]


async def test_the_worker_pairs_as_next_step_does_and_small_fields_stay_inline() -> None:
    cfg, field, played = _swiss(20, 2)
    pool = PairingPool(inline_up_to=64)
    try:
        assert await pool.next_step(cfg, field, 3, played, {3}) == next_step(cfg, field, 3, played, {3})
        assert not pool.started, "20 entrants are paired inline"
        pool.inline_up_to = 0
        assert await pool.next_step(cfg, field, 3, played, {3}) == next_step(cfg, field, 3, played, {3})
        assert pool.started
    finally:
        pool.close()
    assert not pool.started
    # Closed: pairing still works, inline.
    assert await pool.next_step(cfg, field, 3, played) == next_step(cfg, field, 3, played)


async def _lag_during(work) -> tuple[float, float]:
    """(the loop's worst lateness of a 1 ms timer in ms, the work's wall time in ms)."""
    worst = 0.0
    done = False

    async def tick() -> None:
        nonlocal worst
        while not done:
            t = time.perf_counter()
            await asyncio.sleep(0.001)
            worst = max(worst, (time.perf_counter() - t - 0.001) * 1000)

    ticker = asyncio.create_task(tick())
    start = time.perf_counter()
    await work()
    took = (time.perf_counter() - start) * 1000
    done = True
    await ticker
    return worst, took


async def test_a_swiss_round_of_1024_leaves_the_loop_free() -> None:
    """A generous bound for a shared test machine (``python -m bench.tournament`` holds the budget of
    50 ms worst and 10 ms p99): the loop is late by far less than the pairing takes inline."""
    cfg, field, played = _swiss(1024, 3)
    pool = PairingPool()
    try:
        await pool.next_step(cfg, field, 4, [])  # start the worker outside the measurement
        inline = time.perf_counter()
        expected = next_step(cfg, field, 4, played)
        inline_ms = (time.perf_counter() - inline) * 1000
        got = None

        async def pair() -> None:
            nonlocal got
            got = await pool.next_step(cfg, field, 4, played)

        worst, _ = await _lag_during(pair)
        assert got == expected
        assert worst < max(50.0, inline_ms / 2), (worst, inline_ms)
    finally:
        pool.close()
