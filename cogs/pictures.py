"""The process's render pool, the one the presenters draw their pictures with, and pictures begun early.

Table and hand images are drawn in worker processes, a table in its own one unless that is busier
(render/pool.py): shared by every bot of the process, started by the first bot's set-up, stopped when the
process ends. Built here, with the process's metrics recorder, rather than in a presenter: a presenter
imports nothing of host but read models.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from host.metrics import PROMETHEUS
from render.pool import RenderPool

RENDER_POOL = RenderPool(recorder=PROMETHEUS)


async def drawn(table_id: int, fn: Callable[..., bytes], /, *args: Any) -> bytes:
    """``fn(*args)``, a PNG of table ``table_id``, drawn off the event loop in a render worker."""
    return await RENDER_POOL.draw(table_id, fn, *args)


class EarlyPictures:
    """Table pictures begun as soon as a move is committed, before the table's message is built.

    After a member's move the bot answers them first (their panel, one REST call) and only then posts the
    table message, whose picture was until then not even asked for: the picture waited out the answer's
    round trip to Discord, and in a burst of moves the render worker sat idle while the event loop answered
    every member before any table's picture was asked for. Begun here, the picture is drawn meanwhile.

    A begun picture is used only by a message whose picture has exactly the same arguments (a later move
    at the table, folded into the same post, draws its own); at most one is kept a table, the newest."""

    def __init__(self, spawn: Callable[[Coroutine[Any, Any, bytes], str], asyncio.Task[Any] | None]) -> None:
        #: Starts the drawing as a task kept and cancelled at stop (``host.tasks.Tasks.spawn``).
        self._spawn = spawn
        self._begun: dict[int, tuple[tuple[Any, ...], asyncio.Task[bytes]]] = {}

    def begin(self, table_id: int, fn: Callable[..., bytes], /, *args: Any) -> None:
        # Handed to its worker here and now: a task would only start once every other move of a burst had
        # taken its current step (render.pool.RenderPool.submit).
        drawing = RENDER_POOL.submit(table_id, fn, *args)
        task = self._spawn(RENDER_POOL.finish(drawing), f"deckhand-picture-{table_id}")
        older = self._begun.pop(table_id, None)
        if older is not None:
            older[1].cancel()
        if task is not None:
            self._begun[table_id] = ((fn, *args), task)

    def take(self, table_id: int, fn: Callable[..., bytes], /, *args: Any) -> asyncio.Task[bytes] | None:
        """The picture begun for exactly these arguments, if any; any other begun for the table is dropped."""
        begun = self._begun.pop(table_id, None)
        if begun is None:
            return None
        if begun[0] != (fn, *args):
            begun[1].cancel()
            return None
        return begun[1]

    def __len__(self) -> int:
        return len(self._begun)
