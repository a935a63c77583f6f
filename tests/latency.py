"""Real Discord's time inside SimCord: every REST call takes a set time, and chosen routes answer 429.

SimCord answers a REST call at once and never rate limits. :class:`Latency` wraps its two transports
(``FakeHTTPClient.request``, which carries nearly every REST call, and ``FakeWebhookAdapter.request``,
which carries interaction responses and follow-ups) so that each call first sleeps on SimCord's virtual
clock: ``default`` seconds, or the time of the first route pattern it matches, or ``upload`` when it
carries files. SimCord then enforces the 3-second deadline by itself: a first response that lands
later gets 10062 Unknown Interaction.

Chosen routes answer 429 a number of times (:meth:`Latency.rate_limit`) the way Discord does: the call
takes its time, the harness waits ``retry_after`` on the virtual clock and sends it again, as
discord.py's own HTTP client does with a real 429; the bot sees delay, never an exception. Discord's
global bucket, 50 requests a second (interaction responses are outside it), is modelled by a sliding
window: the 51st call in any second waits for the window to move.

Use it through the ``latency`` fixture (tests/e2e/conftest.py) or as a context manager (bench.latency)::

    with Latency(1.0, upload=1.5) as latency:
        latency.rate_limit("POST", "/channels/*/threads", times=2)
        ...
    latency.calls  # every call: method, path, start, end (virtual seconds), status

Move the clock in steps and give the world a longer ``settle_timeout``
(``@pytest.mark.simcord(settle_timeout=60)``): a jump of the clock makes work due that now takes time.
"""

from __future__ import annotations

import asyncio
import collections
import fnmatch
from dataclasses import dataclass, field
from typing import Any


def _utcnow() -> float:
    import discord

    return discord.utils.utcnow().timestamp()


def _unhurried(call_at: Any) -> Any:
    """The call_at under the harness's speed-up, if ``call_at`` is one."""
    return getattr(call_at, "unhurried", call_at)


#: Discord's global limit: requests per second per bot, interaction responses excepted.
GLOBAL_PER_SECOND = 50


@dataclass
class Call:
    method: str
    path: str
    start: float
    end: float = 0.0
    status: int = 200
    upload: bool = False
    #: When it landed, on Discord's (virtual) clock: a POSIX timestamp.
    landed: float = 0.0


@dataclass
class _Limit:
    method: str
    pattern: str
    times: int
    retry_after: float


@dataclass
class Latency:
    """Per-call latency on the virtual clock, 429s that are waited out, and the global bucket."""

    default: float = 0.0
    #: Seconds for a call carrying files (a table image); None: as ``default``.
    upload: float | None = None
    #: ``(method, fnmatch pattern) -> seconds``, checked in order before ``upload`` and ``default``.
    routes: dict[tuple[str, str], float] = field(default_factory=dict)
    global_per_second: int | None = GLOBAL_PER_SECOND
    #: How much faster than real time SimCord lets virtual timers fire on their own (inside a member's
    #: slash or click, which wait in real time for what falls due; ``advance_time`` is instant anyway).
    #: 1 keeps SimCord's pace; 10 lets a test at 1 s a call run in a tenth of the time. Real work (a
    #: picture drawn in a worker) then looks ``speed`` times longer on the virtual clock: a pessimistic
    #: reading, never an optimistic one.
    speed: float = 1.0
    calls: list[Call] = field(default_factory=list)
    _limits: list[_Limit] = field(default_factory=list)
    _window: collections.deque[float] = field(default_factory=collections.deque)
    _saved: list[tuple[Any, str, Any]] = field(default_factory=list)
    #: The runtimes whose call_at is sped up, and their loops: put back as they were at exit.
    _runtimes: list[Any] = field(default_factory=list)
    _loops: list[Any] = field(default_factory=list)

    # -------------------------------------------------------------- set-up

    def rate_limit(self, method: str, pattern: str, *, times: int = 1, retry_after: float = 1.0) -> None:
        """The next ``times`` calls matching ``method`` and ``pattern`` answer 429 with ``retry_after``."""
        self._limits.append(_Limit(method, pattern, times, retry_after))

    def __enter__(self) -> Latency:
        from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter, _path_of

        harness = self

        def wrap(cls: Any, of_call: Any) -> None:
            original = cls.request

            async def request(transport: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
                method, path, upload = of_call(route, kwargs)
                return await harness.call(method, path, upload, lambda: original(transport, route, *args, **kwargs))

            self._saved.append((cls, "request", original))
            cls.request = request

        def http_call(route: Any, kwargs: dict[str, Any]) -> tuple[str, str, bool]:
            return route.method, _path_of(route.url), bool(kwargs.get("files"))

        def webhook_call(route: Any, kwargs: dict[str, Any]) -> tuple[str, str, bool]:
            return route.method, _path_of(route.url), bool(kwargs.get("files"))

        wrap(FakeHTTPClient, http_call)
        wrap(FakeWebhookAdapter, webhook_call)
        if self.speed != 1.0:
            self._fast_timers()
        return self

    def _fast_timers(self) -> None:
        """Virtual timers fire ``speed`` times sooner in real time (SimCord's real-time fallback, which
        schedules each virtual timer with its runtime's ``call_at``), in every bot attached from now on."""
        from simcord import _dpy_internals, _runtime

        original_runtime, original_clocks = _runtime._Runtime, _dpy_internals.acquire_clocks
        harness = self

        def runtime(create_task: Any, call_soon: Any, call_later: Any, call_at: Any, *rest: Any) -> Any:
            # A restarted bot's runtime is built from the loop's methods, which detaching the bot before it
            # set back from that bot's runtime: its call_at was ours. Built on it as it is, each restart would
            # speed every timer up ``speed`` times more, SimCord's own settle windows included.
            return original_runtime(create_task, call_soon, call_later, _unhurried(call_at), *rest)

        def acquire_clocks(env: Any) -> None:
            # By now SimCord holds the loop's own call_at for the timers that are not the bot's (its settle
            # windows): only the bot's virtual timers, which go through the runtime, are sped up.
            original_clocks(env)
            harness.attach(env)

        self._saved += [(_runtime, "_Runtime", original_runtime), (_dpy_internals, "acquire_clocks", original_clocks)]
        _runtime._Runtime = runtime
        _dpy_internals.acquire_clocks = acquire_clocks

    def attach(self, env: Any) -> None:
        """Speed up the timers of a bot that is already attached to ``env`` (see ``speed``)."""
        if self.speed != 1.0 and env._runtime is not None:
            self._loops.append(env._loop)
            self.attach_runtime(env._runtime)

    def attach_runtime(self, runtime: Any) -> None:
        from simcord import _dpy_internals

        # Sped up once however often it is attached: wrapping a wrapper would square the speed.
        call_at, speed = _unhurried(runtime.call_at), self.speed

        def sooner(when: float, *rest: Any, **kwargs: Any) -> Any:
            now = _dpy_internals.real_monotonic()
            return call_at(now + max(0.0, when - now) / speed, *rest, **kwargs)

        sooner.unhurried = call_at  # type: ignore[attr-defined]
        runtime.call_at = sooner
        self._runtimes.append(runtime)

    def __exit__(self, *exc: object) -> None:
        while self._saved:
            cls, name, original = self._saved.pop()
            setattr(cls, name, original)
        # SimCord puts a runtime's call_at back on the loop when it detaches that runtime's bot: left sped up,
        # it would hurry every later timer on the loop, the next bot's and SimCord's settle windows included
        # (bench.latency's third run in one process saw its 5 s start-up window end after 50 ms, at 100 times).
        for runtime in self._runtimes:
            runtime.call_at = _unhurried(runtime.call_at)
        for loop in self._loops:
            loop.call_at = _unhurried(loop.call_at)
        self._runtimes.clear()
        self._loops.clear()

    # ---------------------------------------------------------------- calls

    def time_of(self, method: str, path: str, upload: bool) -> float:
        for (m, pattern), seconds in self.routes.items():
            if m in ("*", method) and fnmatch.fnmatch(path, pattern):
                return seconds
        if upload and self.upload is not None:
            return self.upload
        return self.default

    def _limited(self, method: str, path: str) -> _Limit | None:
        for limit in self._limits:
            if limit.times > 0 and limit.method in ("*", method) and fnmatch.fnmatch(path, limit.pattern):
                limit.times -= 1
                return limit
        return None

    async def _bucket(self, path: str) -> None:
        if self.global_per_second is None or path.startswith("/interactions/"):
            return
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            while self._window and self._window[0] <= now - 1.0:
                self._window.popleft()
            if len(self._window) < self.global_per_second:
                self._window.append(now)
                return
            await asyncio.sleep(self._window[0] + 1.0 - now)

    async def call(self, method: str, path: str, upload: bool, send: Any) -> Any:
        loop = asyncio.get_running_loop()
        while True:
            await self._bucket(path)
            record = Call(method, path, loop.time(), upload=upload)
            self.calls.append(record)
            seconds = self.time_of(method, path, upload)
            limit = self._limited(method, path)
            if limit is not None:
                if seconds:
                    await asyncio.sleep(seconds)
                record.status, record.end, record.landed = 429, loop.time(), _utcnow()
                # discord.py waits retry_after and sends the request again: delay, not an exception.
                await asyncio.sleep(limit.retry_after)
                continue
            if seconds:
                await asyncio.sleep(seconds)
            record.landed = _utcnow()
            try:
                return await send()
            except Exception as exc:
                record.status = int(getattr(exc, "status", 0) or 0)
                raise
            finally:
                record.end = loop.time()

    def first_responses(self) -> dict[int, tuple[float, int]]:
        """Each interaction's first response: seconds from the interaction's creation to its landing, and
        its status (404 with 10062 when it came too late)."""
        import discord

        found: dict[int, tuple[float, int]] = {}
        for c in self.calls:
            parts = c.path.split("/")
            callback = len(parts) == 5 and parts[1] == "interactions" and parts[4] == "callback"
            if callback and c.method == "POST" and c.status != 429:
                interaction_id = int(parts[2])
                created = discord.utils.snowflake_time(interaction_id).timestamp()
                found.setdefault(interaction_id, (c.landed - created, c.status))
        return found

    def statuses(self, pattern: str, method: str = "*") -> list[int]:
        return [c.status for c in self.calls
                if method in ("*", c.method) and fnmatch.fnmatch(c.path, pattern)]
