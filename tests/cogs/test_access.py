"""cogs/access.py: after a refusal, one request an hour to that channel; none to a server that left."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from cogs.access import PROBE_EVERY, Delivery, LostChannels, channel_of


def test_a_refused_channel_gets_one_probe_an_hour_until_a_post_succeeds() -> None:
    now = [1000.0]
    access = LostChannels(lambda: now[0])
    assert access.claim(1, 10) and access.claim(1, 10), "a channel that never refused is not limited"
    access.refused(10)
    assert not access.claim(1, 10) and access.claim(1, 11), "only the refusing channel waits"
    now[0] += PROBE_EVERY - 1
    assert not access.claim(1, 10)
    now[0] += 1
    assert access.claim(1, 10), "the hourly probe"
    assert not access.claim(1, 10), "one probe, not one per caller"
    now[0] += PROBE_EVERY
    assert access.claim(1, 10)
    assert access.succeeded(10) and not access.succeeded(10)
    assert access.claim(1, 10) and access.claim(1, 10), "free again once a post went through"


def test_a_server_that_removed_the_bot_gets_nothing_until_it_comes_back() -> None:
    access = LostChannels(lambda: 0.0)
    access.gone_guilds.add(1)
    assert not access.claim(1, 10) and access.claim(2, 20)
    access.gone_guilds.discard(1)
    assert access.claim(1, 10)


class _Channel:
    def __init__(self, fail: BaseException | None = None) -> None:
        self.fail = fail
        self.sent: list[str] = []

    async def send(self, text: str, **_: object) -> None:
        if self.fail is not None:
            raise self.fail
        self.sent.append(text)


class _Bot:
    """A client whose cache holds ``cached`` and whose REST fetch gives ``fetched`` (or raises it)."""

    def __init__(self, cached: _Channel | None = None, fetched: _Channel | BaseException | None = None) -> None:
        self.cached, self.fetched, self.fetches = cached, fetched, 0

    def get_channel(self, channel_id: int) -> _Channel | None:
        return self.cached

    async def fetch_channel(self, channel_id: int) -> _Channel:
        self.fetches += 1
        if isinstance(self.fetched, BaseException):
            raise self.fetched
        assert self.fetched is not None
        return self.fetched


def _error(cls: type[discord.HTTPException], status: int) -> discord.HTTPException:
    return cls(SimpleNamespace(status=status, reason="x"), {"code": 0, "message": "x"})


async def test_a_channel_is_taken_from_the_cache_else_fetched() -> None:
    cached, fetched = _Channel(), _Channel()
    bot = _Bot(cached, fetched)
    assert await channel_of(bot, 10) is cached and bot.fetches == 0  # type: ignore[arg-type]
    bot.cached = None
    assert await channel_of(bot, 10) is fetched and bot.fetches == 1  # type: ignore[arg-type]


async def test_send_notes_a_lost_channel_whether_the_fetch_or_the_post_is_refused() -> None:
    access = LostChannels(lambda: 0.0)
    bot = _Bot(fetched=_error(discord.NotFound, 404))
    assert await access.send(bot, 1, 10, "hi") is Delivery.REFUSED  # type: ignore[arg-type]
    assert access.is_refusing(10)
    assert await access.send(bot, 1, 10, "hi") is Delivery.SKIPPED and bot.fetches == 1, \
        "within the hour nothing is asked, not even the fetch"  # type: ignore[arg-type]
    refusing = _Channel(_error(discord.Forbidden, 403))
    assert await access.send(_Bot(refusing), 1, 11, "hi") is Delivery.REFUSED  # type: ignore[arg-type]
    assert access.is_refusing(11)


async def test_send_clears_a_refusal_once_a_post_goes_through_and_raises_other_errors() -> None:
    now = [0.0]
    access = LostChannels(lambda: now[0])
    access.refused(10)
    now[0] += PROBE_EVERY
    channel = _Channel()
    assert await access.send(_Bot(channel), 1, 10, "probe") is Delivery.SENT  # type: ignore[arg-type]
    assert channel.sent == ["probe"] and not access.is_refusing(10)
    busy = _Channel(_error(discord.DiscordServerError, 503))
    with pytest.raises(discord.DiscordServerError):
        await access.send(_Bot(busy), 1, 12, "hi")  # type: ignore[arg-type]
    assert not access.is_refusing(12), "a 503 is worth another try: not a lost channel"
    access.gone_guilds.add(2)
    assert await access.send(_Bot(channel), 2, 13, "hi") is Delivery.SKIPPED and channel.sent == ["probe"]
