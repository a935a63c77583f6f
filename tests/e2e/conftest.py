"""SimCord fixtures: the real bot (built by bot.create_bot) in an in-memory Discord."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from bot import create_bot
from data.store import Store


@pytest.fixture
def db_path(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    path = str(tmp_path / "deckhand.sqlite3")
    monkeypatch.setenv("DATABASE_PATH", path)
    monkeypatch.setenv("BOT_DELAY", "0")
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    return path


@pytest.fixture
async def simcord_bot(db_path: str) -> Any:
    yield create_bot()
    # SimCord detaches the bot without closing it; close every store a bot opened
    # (restarts included) so no database thread outlives the test.
    await Store.close_all()


@dataclass
class World:
    env: Any
    guild: Any
    channel: Any
    members: dict[str, Any]


@pytest.fixture
def world(simcord_env: Any) -> World:
    guild = simcord_env.create_guild("Deckhand Test")
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol", "dave")}
    return World(simcord_env, guild, channel, members)
