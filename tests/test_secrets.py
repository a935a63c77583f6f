"""Secrets stay secret: a printed or logged Settings shows neither the token nor the database password."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import discord
import pytest

from bot import DeckhandBot, Settings, create_bot
from data.store import Store

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.OTk5.c2VjcmV0LXRva2VuLXRoYXQtbXVzdC1uZXZlci1zaG93"
URL = "postgresql://deckhand:hunter2-password@db.example:5432/deckhand"


def test_the_repr_of_settings_shows_neither_the_token_nor_the_database_password(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", URL)
    settings = Settings.from_env()
    assert settings.token == TOKEN and settings.database_url == URL  # still there for the bot to use
    for shown in (repr(settings), str(settings), f"{settings}"):
        assert TOKEN not in shown and "hunter2" not in shown, shown


# ---------------------------------------------------------------- a whole run at DEBUG


def with_password(url: str) -> str:
    """The test server's URL with a password in it (the local server trusts it, so it connects all the same)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc.replace("@", f":{PASSWORD}@", 1), parts.path, parts.query, ""))


PASSWORD = "hunter2-password"


@pytest.fixture
async def simcord_bot(tmp_path: Any, pg_target: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The real bot, built from an environment holding both secrets, on PostgreSQL (DATABASE_URL)."""
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", with_password(pg_target))
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "unused.sqlite3"))
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    monkeypatch.setenv("BOT_DELAY", "0")
    monkeypatch.setenv("BOT_LEVEL", "easy")
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    yield create_bot()
    await DeckhandBot.close_all()
    await Store.close_all()


def assert_no_secret(text: str, where: str) -> None:
    assert TOKEN not in text, f"the token is in {where}"
    assert PASSWORD not in text, f"the database password is in {where}"


async def test_a_debug_run_through_start_a_game_an_error_and_a_stop_shows_neither_secret(
        simcord_env: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.e2e.driver import latest_table_message
    from tests.e2e.test_reliability_e2e import answer_text

    caplog.set_level(logging.DEBUG)
    env = simcord_env
    bot = env.bot
    assert bot.settings.token == TOKEN and PASSWORD in (bot.settings.database_url or "")
    assert bot.store is not None and bot.store._backend.name == "postgresql"
    shown = repr(bot.settings) + str(bot.store._backend.location)  # what a log of the store's place shows
    guild = env.create_guild("Secrets")
    channel = guild.create_text_channel("games")
    managers = guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    alice = guild.add_member(env.create_user("alice"), roles=[managers])
    bob = guild.add_member(env.create_user("bob"))
    answers = [await alice.slash(channel, "config show")]
    answers.append(await alice.slash(channel, "game new", game="pentawar"))
    answers.append(await bob.slash(channel, "game join"))
    answers.append(await alice.slash(channel, "game start"))
    # An error: the hand panel fails inside the handler, which logs it with its traceback.
    monkeypatch.setattr("host.tables.TableService.hand", _broken_hand)
    answers.append(await alice.click(latest_table_message(channel), custom_id=_hand_id(latest_table_message(channel))))
    assert "went wrong" in answer_text(answers[-1]), answer_text(answers[-1])
    assert [r for r in caplog.records if r.levelno >= logging.ERROR], "the error was logged"
    monkeypatch.undo()
    await bot.close()
    assert any("stopped cleanly" in r.getMessage() for r in caplog.records)
    assert any(r.levelno == logging.DEBUG for r in caplog.records), "the run logged at DEBUG"
    for record in caplog.records:
        assert_no_secret(record.getMessage(), f"the log line {record.getMessage()[:80]!r}")
    assert_no_secret(caplog.text, "the formatted log (tracebacks included)")
    for answer in answers:
        assert_no_secret(answer_text(answer), "an answer")
    for entry in env.http_requests:
        assert_no_secret(repr(entry.json), f"a request to {entry.path}")
    assert_no_secret(shown, "the bot's settings and the store's place")


async def _broken_hand(*_: Any, **__: Any) -> Any:
    raise RuntimeError("the hand could not be drawn")


def _hand_id(message: Any) -> str:
    from tests.e2e.driver import hand_button_id

    return hand_button_id(message)


async def test_a_database_that_cannot_be_reached_says_so_without_its_password() -> None:
    import traceback

    from data.store import Store as Connect

    with pytest.raises(Exception) as failed:  # whatever asyncpg raises for a closed port
        await Connect.connect(f"postgresql://deckhand:{PASSWORD}@127.0.0.1:1/deckhand")
    assert_no_secret("".join(traceback.format_exception(failed.value)), "the connection error")


async def test_the_bot_asks_for_no_message_content_and_answers_nothing_to_a_mention(simcord_env: Any) -> None:
    env = simcord_env
    intents = env.bot.intents
    assert not intents.message_content and not intents.members and not intents.presences
    guild = env.create_guild("Mentions")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    mark = len(env.http_requests)
    for text in (f"<@{env.bot.user.id}>", f"<@{env.bot.user.id}> help", f"<@{env.bot.user.id}> game new"):
        await alice.send(channel, text)
    await env.advance_time(5)
    assert not env.http_requests[mark:], [(r.method, r.path) for r in env.http_requests[mark:]]
