"""Where the bot's metrics (``host/metrics.py``) are observed: hooks put around the services once, at start.

Wrapping here, at the composition root's call, keeps the measured code free of metrics: the store's
transactions and commits, the scheduler's firing, the bot pool's thinking, the render pool's drawing, the
table posts, every interaction's guard and first answer, and Discord's REST errors.
"""

from __future__ import annotations

import functools
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import discord

from cogs.presenter import RENDER_POOL
from host import Refusal, StaleClick
from host import metrics as m

if TYPE_CHECKING:
    from bot import DeckhandBot

_patched_responses = False


def command_name(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return interaction.command.qualified_name
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    # Components: "dh:a:12:3:play:7" → "component dh:a" (the verb, never the ids).
    return "component " + ":".join(custom_id.split(":")[:2]) if custom_id else "other"


def _patch_first_answers() -> None:
    """The acknowledgement latency: from an interaction's creation to its first answer or deferral."""
    global _patched_responses
    if _patched_responses:
        return
    _patched_responses = True
    for name in ("send_message", "defer", "edit_message", "send_modal"):
        original = getattr(discord.InteractionResponse, name)

        def timed(original: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
            @functools.wraps(original)
            async def answer(self: discord.InteractionResponse, *args: Any, **kwargs: Any) -> Any:
                parent = self._parent
                first = not self.is_done()
                result = await original(self, *args, **kwargs)
                if first:
                    m.ACK_LATENCY.observe(max(0.0, (discord.utils.utcnow() - parent.created_at).total_seconds()))
                return result
            return answer

        setattr(discord.InteractionResponse, name, timed(original))


def _current(obj: Any, name: str) -> Callable[..., Any]:
    """The method ``name`` of ``obj``'s class as it is at each call: a test that patches the class later
    (a failing commit, a slow Discord) still reaches the code it patched."""
    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(type(obj), name)(obj, *args, **kwargs)
    return call


def instrument(bot: DeckhandBot) -> None:
    """Put the metric hooks around the bot's services (call once, in set-up, before anything runs)."""
    _patch_first_answers()
    store, guard = bot.store, bot.guard
    assert store is not None

    transaction = _current(store, "transaction")

    @asynccontextmanager
    async def timed_transaction(one_statement: bool = False) -> AsyncIterator[Any]:
        start = time.perf_counter()
        try:
            async with transaction(one_statement) as tx:
                yield tx
        finally:
            m.DB_TRANSACTION.observe(time.perf_counter() - start)

    store.transaction = timed_transaction  # type: ignore[method-assign]

    commit = _current(store, "commit_action")

    async def counted_commit(*args: Any, **kwargs: Any) -> int:
        version = await commit(*args, **kwargs)
        m.MOVES.inc()
        return version

    store.commit_action = counted_commit  # type: ignore[method-assign]

    run = _current(guard, "run")

    async def counted_run(interaction: discord.Interaction, work: Callable[[], Awaitable[None]],
                          **kwargs: Any) -> None:
        outcome = "stopping" if guard.closing else "ok"

        async def watched() -> None:
            nonlocal outcome
            try:
                await work()
            except StaleClick:
                outcome = "stale"
                raise
            except Refusal:
                outcome = "refused"
                raise
            except Exception:
                outcome = "error"
                raise

        try:
            await run(interaction, watched, **kwargs)
        finally:
            m.INTERACTIONS.labels(command_name(interaction), outcome).inc()

    guard.run = counted_run  # type: ignore[method-assign]

    if bot.scheduler is not None:
        fire = bot.scheduler.fire

        async def timed_fire(timers: list[Any]) -> Any:
            now = store.now()
            for timer in timers:
                m.TIMERS_DUE.inc()
                if timer.due is not None:
                    m.TIMER_LATENESS.observe(max(0.0, now - timer.due))
            return await fire(timers)

        bot.scheduler.fire = timed_fire

    if bot.tables is not None:
        think = bot.tables.think

        async def timed_think(game: str, snapshot: dict[str, Any], seat: int, salt: int, level: str) -> str:
            start = time.perf_counter()
            try:
                return await think(game, snapshot, seat, salt, level)
            finally:
                m.BOT_THINKING.labels(level).observe(time.perf_counter() - start)

        bot.tables.think = timed_think

    if bot.flow is not None and hasattr(type(bot.flow), "post_table"):
        post = _current(bot.flow, "post_table")

        async def timed_post(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await post(*args, **kwargs)
            finally:
                m.TABLE_POST_LATENCY.observe(time.perf_counter() - start)

        bot.flow.post_table = timed_post  # type: ignore[union-attr]

    request = _current(bot.http, "request")

    async def counted_request(*args: Any, **kwargs: Any) -> Any:
        try:
            return await request(*args, **kwargs)
        except discord.HTTPException as exc:
            m.REST_ERRORS.labels(str(exc.status)).inc()
            raise

    bot.http.request = counted_request  # type: ignore[method-assign]
    _time_drawings()


_drawings_timed = False


def _time_drawings() -> None:
    global _drawings_timed
    if _drawings_timed:
        return
    _drawings_timed = True
    draw = _current(RENDER_POOL, "draw")

    async def timed_draw(table_id: int, fn: Callable[..., bytes], /, *args: Any) -> bytes:
        start = time.perf_counter()
        try:
            return await draw(table_id, fn, *args)
        finally:
            kind = getattr(fn, "__name__", "picture").removesuffix("_png")
            m.PICTURES.labels(kind).inc()
            m.PICTURE_TIME.labels(kind).observe(time.perf_counter() - start)

    RENDER_POOL.draw = timed_draw  # type: ignore[method-assign]
