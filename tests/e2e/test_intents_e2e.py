"""The bot asks Discord for its servers' events alone (the ``guilds`` intent): it answers interactions and never
reads a message, so no message, reaction or typing notice of any server is sent to it, parsed or cached."""

from __future__ import annotations

from typing import Any

import discord

import bot


def test_the_bot_asks_for_the_guilds_intent_alone() -> None:
    client = bot.create_bot()
    assert client.intents == discord.Intents(guilds=True)
    assert not (client.intents.guild_messages or client.intents.dm_messages or client.intents.message_content
                or client.intents.members or client.intents.presences)


async def test_a_game_goes_on_without_a_message_reaching_the_bot(world: Any) -> None:
    """A whole move (a lobby, a start, a table message and a click on it) with members chatting beside it: every
    answer comes, and the bot holds none of the messages, its own table messages included."""
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.send(world.channel, "who's in for a game?")
    await alice.slash(world.channel, "game new", game="pedwar")
    await bob.slash(world.channel, "game join")
    started = await alice.slash(world.channel, "game start")
    assert "The game begins" in started.response.content
    await bob.send(world.channel, "good luck")
    status = await bob.slash(world.channel, "game status")
    assert status.response is not None
    client = world.env.bot
    assert not list(client.cached_messages), [m.content for m in client.cached_messages]
    dropped = [entry for entry in world.env.backend.transcript if entry[0] == "DROPPED"]
    assert any(entry[1] == "MESSAGE_CREATE" for entry in dropped), dropped[:3]
