"""host.thinking.BotPool: the same move as bot_action, off the event loop, and a clean shutdown.

(It lives beside the engine tests because it is the engines' bots that it runs; it needs no discord.)
"""

from __future__ import annotations

import asyncio

import pytest

from engines import get_engine
from engines.bots import bot_action
from host.thinking import BotPool, pool_size
from tests.engines.search_states import midgame


async def test_pool_matches_bot_action_and_closes() -> None:
    engine = get_engine("pentawar")
    state, seat = midgame("pentawar", 4, steps=10)
    snap = engine.dump(state)
    pool = BotPool(workers=2)
    assert not pool.started
    easy = await pool.think("pentawar", snap, seat, 9, "easy")
    assert not pool.started, "easy moves are computed inline"
    assert easy == bot_action(engine, state, seat, 9, level="easy")
    moves = await asyncio.gather(*(pool.think("pentawar", snap, seat, 9 + k, "normal") for k in range(3)))
    assert pool.started
    assert moves == [bot_action(engine, state, seat, 9 + k, level="normal") for k in range(3)]
    processes = list(pool._executor._processes.values())  # type: ignore[union-attr]
    assert processes
    pool.close()
    pool.close()
    assert all(not p.is_alive() for p in processes), "close() leaves no worker running"
    with pytest.raises(RuntimeError):
        await pool.think("pentawar", snap, seat, 9, "hard")


async def test_refuses_unknown_level() -> None:
    pool = BotPool(workers=1)
    with pytest.raises(ValueError, match="unknown bot level"):
        await pool.think("pentawar", {}, 0, 1, "expert")
    pool.close()


def test_sized_to_the_machine() -> None:
    assert pool_size() >= 1
    assert BotPool().workers == pool_size()
    with pytest.raises(ValueError):
        BotPool(workers=0)
