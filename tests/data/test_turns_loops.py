"""One ``Turns`` outlives an event loop: the process's render pool shares its turns with each bot's store,
and the tests run each bot in a loop of its own. A turn begun in a loop that is gone never ends there, so
the next loop must start afresh instead of waiting for it for ever."""

from __future__ import annotations

import asyncio
import time

from data.database import Turns


def test_a_turn_left_open_by_a_closed_loop_does_not_hold_the_next_loop() -> None:
    turns = Turns()

    async def left_open() -> None:
        await turns.take()
        # Pretend the loop closes before its turn ends (the reset it scheduled never runs).
        turns._since = time.perf_counter() - 1.0

    asyncio.run(left_open())
    turns._since = time.perf_counter() - 1.0  # the reset did run at shutdown: open it again, as a loop left it

    async def next_loop() -> None:
        await asyncio.wait_for(turns.take(), 1.0)

    asyncio.run(next_loop())
