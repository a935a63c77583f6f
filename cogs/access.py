"""Channels and servers the bot has lost, so that they are not asked again and again.

Each request Discord refuses (403, 404) counts towards its limit of 10,000 invalid requests in ten
minutes, past which Cloudflare bans the bot's IP for an hour. After a refusal in a channel, at most one
request an hour goes there (a probe) until a post there succeeds; a server that removed the bot gets
none until it invites the bot back.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from host.clock import lost_access

#: After a refusal, the wait before the next request to that channel.
PROBE_EVERY = 3600.0


async def channel_of(bot: discord.Client, channel_id: int) -> Any:
    """A channel from the cache, else from Discord (which may refuse: 403, 404)."""
    return bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)


#: Discord's code for a channel that does not exist (any more).
UNKNOWN_CHANNEL = 10003


def gone(bot: discord.Client, channel_id: int, exc: BaseException) -> bool:
    """Whether ``exc`` says the channel no longer exists: Unknown Channel, and the bot's cache lacks it too (an
    Unknown Channel for a channel the bot still sees is taken as any refusal: the table waits, paused)."""
    return getattr(exc, "code", None) == UNKNOWN_CHANNEL and bot.get_channel(channel_id) is None


class Delivery(enum.Enum):
    """What became of a message :meth:`LostChannels.send` was given."""

    SENT = "sent"
    #: No request went: the channel refused the bot within the hour, or its server removed the bot.
    SKIPPED = "skipped"
    #: Discord refused it for good (403, 404): noted, so the channel's next request waits an hour.
    REFUSED = "refused"


def _discord_now() -> float:
    return discord.utils.utcnow().timestamp()


class LostChannels:
    """The channels that refused the bot and the servers that removed it: whether a request may go there now.

    Not ``host.privacy.ChannelAccess``, what Discord lets one *member* see in a channel."""

    def __init__(self, now: Callable[[], float] = _discord_now) -> None:
        self.now = now
        #: Channel id -> when a request there was last refused, or last let through as a probe.
        self._refused_at: dict[int, float] = {}
        #: Servers that removed the bot (``on_guild_remove``), until it is invited back.
        self.gone_guilds: set[int] = set()
        #: Told of a channel Discord no longer knows (10003) and the bot's cache lacks: deleted while the bot
        #: was away, when no delete event could reach it (the table flow's ``channel_deleted``).
        self.on_gone: Callable[[int], Awaitable[None]] | None = None

    def claim(self, guild_id: int | None, channel_id: int) -> bool:
        """Whether a request to ``channel_id`` may go now. The first request an hour after a refusal is the
        probe: it is let through and the next waits another hour, unless it succeeds."""
        if guild_id is not None and guild_id in self.gone_guilds:
            return False
        refused = self._refused_at.get(channel_id)
        if refused is None:
            return True
        if self.now() - refused < PROBE_EVERY:
            return False
        self._refused_at[channel_id] = self.now()
        return True

    def refused(self, channel_id: int) -> None:
        self._refused_at[channel_id] = self.now()

    def succeeded(self, channel_id: int) -> bool:
        """A request there went through; returns whether the channel had been refusing."""
        return self._refused_at.pop(channel_id, None) is not None

    def is_refusing(self, channel_id: int) -> bool:
        return channel_id in self._refused_at

    def forget(self, channel_id: int) -> None:
        """The channel was deleted: nothing will be sent there again."""
        self._refused_at.pop(channel_id, None)

    async def send(self, bot: discord.Client, guild_id: int | None, channel_id: int, *args: Any,
                   **kwargs: Any) -> Delivery:
        """Send ``channel.send(*args, **kwargs)`` in a channel (cached, else fetched) unless it may not be asked
        now. A lost-access answer, to the fetch or the send, is noted and told as ``REFUSED``; any other
        Discord error is raised, for the caller to log or retry."""
        if not self.claim(guild_id, channel_id):
            return Delivery.SKIPPED
        try:
            channel = await channel_of(bot, channel_id)
            await channel.send(*args, **kwargs)
        except discord.HTTPException as exc:
            if not lost_access(exc):
                raise
            self.refused(channel_id)
            if gone(bot, channel_id, exc) and self.on_gone is not None:
                await self.on_gone(channel_id)
            return Delivery.REFUSED
        self.succeeded(channel_id)
        return Delivery.SENT
