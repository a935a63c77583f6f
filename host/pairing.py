"""Tournament pairing off the event loop: a worker process that runs ``next_step``.

Pairing a Swiss round of 1,024 entrants (a maximum-weight matching, or the pods' swap search)
takes a tenth of a second to a second of CPU. On the loop that would freeze every table's clock
and every click; in a thread it would still hold the loop up, since the matching is pure Python
and a thread gives the GIL back only every few milliseconds (measured: the loop's 1 ms timer then
fires about 6 ms late on every tick, up to 35 ms on a busy machine). So large fields are paired in
a process of their own, like the bots' searches (``host.thinking``); small fields, a few
milliseconds of work, are paired inline, with no process to start or pickling to pay.

``next_step`` is a pure function of plain, picklable data, so the worker needs nothing else.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from concurrent.futures.process import BrokenProcessPool

from host.tournaments.models import Entrant, EntrantId
from host.tournaments.progress import NextStep, StageRound, next_step
from host.tournaments.settings import Settings
from host.workers import WorkerProcesses

#: Fields up to this size are paired on the caller's thread (a few ms at most).
INLINE_UP_TO = 64
#: The worker's priority below the bot's, as for the bots' searches: a round can wait a moment.
PAIRING_NICENESS = 10


class PairingPool:
    """One lazily started worker process for the pairings of large fields; ``close()`` stops it."""

    def __init__(self, inline_up_to: int | None = None) -> None:
        #: ``None``: the module's ``INLINE_UP_TO`` at each call.
        self.inline_up_to = inline_up_to
        self._workers = WorkerProcesses(1, PAIRING_NICENESS, "pairing pool")

    @property
    def started(self) -> bool:
        return self._workers.started

    async def next_step(self, settings: Settings, entrants: Sequence[Entrant], planned_rounds: int,
                        played: Sequence[StageRound], dropped: Collection[EntrantId] = (),
                        cut: Sequence[EntrantId] | None = None) -> NextStep:
        """``progress.next_step``, in the worker when the field is large (or always, once closed: inline)."""
        args = (settings, list(entrants), planned_rounds, list(played), frozenset(dropped),
                None if cut is None else list(cut))
        limit = INLINE_UP_TO if self.inline_up_to is None else self.inline_up_to
        if len(entrants) <= limit or self._workers.closed:
            return next_step(*args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._workers.get(), next_step, *args)
        except BrokenProcessPool:
            # The worker died (killed, out of memory): start a fresh one and pair once more.
            self._workers.discard()
            return await loop.run_in_executor(self._workers.get(), next_step, *args)

    def close(self) -> None:
        """Stop the worker (waiting for it to exit); later pairings run inline. Safe to call twice."""
        self._workers.close()
