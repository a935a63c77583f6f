"""SimCord fixtures: the real bot (built by bot.create_bot) in an in-memory Discord."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

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
def world(simcord_env: Any) -> Any:
    guild = simcord_env.create_guild("Deckhand Test")
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol", "dave")}
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
