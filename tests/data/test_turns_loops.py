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


def test_callers_waiting_for_a_turn_go_in_the_order_they_came_without_looking_again_at_every_turn() -> None:
    """A caller that finds the turn spent waits in line and is woken once, when its turn comes: waiting
    callers used to ``sleep(0)`` and look again at every turn, so 56 moves of a burst scheduled some 120
    wake-ups each, more CPU than their own work."""
    turns = Turns(turn=0.0)  # every turn is spent at once: each caller after a turn's first waits
    order: list[int] = []
    scheduled = 0

    async def caller(i: int) -> None:
        await turns.take()
        order.append(i)

    async def main() -> None:
        nonlocal scheduled
        loop = asyncio.get_running_loop()
        call_soon = loop.call_soon

        def counting(*args: object, **kwargs: object) -> asyncio.Handle:
            nonlocal scheduled
            scheduled += 1
            return call_soon(*args, **kwargs)  # type: ignore[arg-type]

        loop.call_soon = counting  # type: ignore[method-assign]
        try:
            await asyncio.gather(*(caller(i) for i in range(40)))
        finally:
            loop.call_soon = call_soon  # type: ignore[method-assign]

    asyncio.run(main())
    assert order == list(range(40))
    # Each caller's task starts, is woken once and ends, with one turn's reset each: a few callbacks per
    # caller, not one per caller per turn (40 callers looking again at each of 40 turns: over 800).
    assert scheduled < 6 * 40, scheduled

