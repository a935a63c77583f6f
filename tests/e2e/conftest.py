"""SimCord fixtures: the real bot (built by bot.create_bot) in an in-memory Discord."""

from __future__ import annotations

import asyncio
import itertools
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import simcord._runtime
from simcord import SetupError
from simcord.env import Env

from bot import DeckhandBot, create_bot
from data.store import Store
from tests.e2e.driver import configure
from tests.latency import Latency
from tests.limits import request_violations


@pytest.fixture
def db_path(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    path = str(tmp_path / "deckhand.sqlite3")
    monkeypatch.setenv("DATABASE_PATH", path)
    monkeypatch.setenv("BOT_DELAY", "0")
    # Bots play by rules of thumb in end-to-end tests: search levels are tested in tests/engines.
    monkeypatch.setenv("BOT_LEVEL", "easy")
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    return path


@pytest.fixture(autouse=True)
def fixed_table_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test deals the same games every run: table seeds come from a counter, not the OS."""
    seeds = itertools.count(1000)
    monkeypatch.setattr("host.tables.secrets.randbits", lambda bits: next(seeds) % (1 << bits))


#: How often (real seconds) SimCord looks again while it waits for the bot to settle. Its default, 50 ms, is
#: slept in full even when all that is left is a callback due at the loop's next turn (a finished task's
#: bookkeeping), which made about a third of a plain game's real time. Only the polling changes: settling
#: still waits for the same work, within the same ``settle_timeout``.
SETTLE_POLL = 0.002


@pytest.fixture(autouse=True)
def quick_settle_polling(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(Env._settle_internal.__kwdefaults__, "idle", SETTLE_POLL)


async def _sleep_on_the_virtual_clock(delay: float) -> None:
    """The scheduler's sleep until its next due timer, declared to SimCord as a wait for the virtual clock.

    SimCord gives every virtual timer a real-time fallback too: a bot move paced 10 s ahead fell due inside
    whichever click settled within ``settle_timeout`` of that real instant, so bots moved when the machine
    was slow enough, and the test waited in real time for them. Declared (``Env.external_wait``), the
    scheduler's timers fall due only when the test moves the clock (``env.advance_time``) or a new timer
    pokes the scheduler, as tests/README.md says time works here."""
    env = simcord._runtime._LIVE_LOOPS.get(asyncio.get_running_loop())
    if env is not None and delay > 0:
        try:
            await env.external_wait(asyncio.sleep(delay), reason="the scheduler sleeps until its next due timer")
            return
        except SetupError:  # not a task of the bot's (a tool's scheduler): a plain sleep, as before
            pass
    await asyncio.sleep(delay)


@pytest.fixture(autouse=True)
def scheduler_on_the_virtual_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """``host.clock`` sees asyncio with its ``sleep`` declared as above; the rest of asyncio is untouched."""
    import host.clock

    shim = types.ModuleType("asyncio")
    shim.__dict__.update(asyncio.__dict__)
    shim.sleep = _sleep_on_the_virtual_clock  # type: ignore[attr-defined]
    monkeypatch.setattr(host.clock, "asyncio", shim)


@pytest.fixture
async def simcord_bot(db_path: str) -> Any:
    yield create_bot()
    # SimCord detaches a bot without closing it. Close every bot the test built
    # (restarts included) through the same path that SIGINT and SIGTERM take, so
    # no database thread outlives the test; then any store left over.
    await DeckhandBot.close_all()
    await Store.close_all()


@dataclass
class World:
    env: Any
    guild: Any
    channel: Any
    members: dict[str, Any]


def assert_within_limits(env: Any) -> None:
    bad = [v for entry in env.http_requests for v in request_violations(entry.method, entry.path, entry.json)]
    assert not bad, "payloads over Discord's limits:\n" + "\n".join(bad[:20])


@pytest.fixture
async def world(simcord_env: Any) -> Any:
    guild = simcord_env.create_guild("Deckhand Test")
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol", "dave")}
    # The bot has seen the server arrive (it stores its Discord language) before the test looks at anything.
    await simcord_env.settle()
    yield World(simcord_env, guild, channel, members)
    # After every end-to-end test: everything the bot sent fits Discord's limits.
    assert_within_limits(simcord_env)


@pytest.fixture
async def open_tournaments(world: World) -> World:
    """A server where every member may open tournaments: its manager sets ``tournament_creators`` to
    ``everyone`` through /config, as a server that runs open events would (the default is managers only)."""
    await configure(world, tournament_creators="everyone")
    return world


@pytest.fixture
def latency(simcord_env: Any) -> Iterator[Latency]:
    """Real Discord's time (tests/latency.py): set ``latency.default`` (seconds per REST call) and the rest.

    Virtual timers run ten times faster than real time inside a member's action (``speed``), so a test
    at 1 s a call takes a tenth of the time; restarted bots get the same."""
    with Latency(speed=10.0) as harness:
        harness.attach(simcord_env)
        yield harness


@pytest.fixture
def member_locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Each member's Discord client language: ``member_locales[member.id] = "fr"``. SimCord sends every
    interaction with locale ``en-US``; this gives the members named here their own (others keep en-US)."""
    import simcord.interactions

    chosen: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def with_locale(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        if kwargs.get("user_id") in chosen:
            payload["locale"] = chosen[kwargs["user_id"]]
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locale)
    return chosen
