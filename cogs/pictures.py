"""The process's render pool, the one the presenters draw their pictures with.

Table and hand images are drawn in worker processes, a table in its own one unless that is busier
(render/pool.py): shared by every bot of the process, started by the first bot's set-up, stopped when the
process ends. Built here, with the process's metrics recorder, rather than in a presenter: a presenter
imports nothing of host but read models.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.metrics import PROMETHEUS
from render.pool import RenderPool

RENDER_POOL = RenderPool(recorder=PROMETHEUS)


async def drawn(table_id: int, fn: Callable[..., bytes], /, *args: Any) -> bytes:
    """``fn(*args)``, a PNG of table ``table_id``, drawn off the event loop in a render worker."""
    return await RENDER_POOL.draw(table_id, fn, *args)
