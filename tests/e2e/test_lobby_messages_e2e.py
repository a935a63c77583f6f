"""A lobby message never invites anyone to a table that has gone on: started, finished, abandoned, timed out."""

from __future__ import annotations

from typing import Any

import discord
from simcord.results import to_discord_message

from tests.e2e.driver import components, latest_table_message
from tests.e2e.test_reliability_e2e import answer_text

INVITE = "Join with the button"


def lobby_messages(channel: Any) -> list[discord.Message]:
    """Every lobby message posted in ``channel`` (a thread too), oldest first, as it stands now."""
    env = channel._env
    stored = env.backend.messages.get(channel.id, {})
    found = [to_discord_message(env, stored[i]) for i in sorted(stored)]
    return [m for m in found if not m.flags.ephemeral and m.embeds and "table #" in (m.embeds[0].title or "")
            and m.embeds[0].fields and m.embeds[0].fields[0].name == "Seats"]


def invites(message: discord.Message) -> bool:
    """Whether the message still asks people to join: its footer, or a Join button."""
    footer = message.embeds[0].footer.text or "" if message.embeds else ""
    return INVITE in footer or any(c.get("label") == "Join" for c in components(message))


def assert_settled(channel: Any, says: str) -> None:
    lobbies = lobby_messages(channel)
    assert lobbies, "no lobby message was posted"
    for lobby in lobbies:
        assert not invites(lobby), (lobby.content, lobby.embeds[0].footer.text)
    newest = lobbies[-1]
    assert says in newest.content + (newest.embeds[0].footer.text or ""), (newest.content, newest.embeds[0].footer.text)


async def opened(world: Any, game: str = "pedwar", **kwargs: Any) -> None:
    created = await world.members["alice"].slash(world.channel, "game new", game=game, **kwargs)
    assert not created.ephemeral, answer_text(created)
    assert invites(lobby_messages(world.channel)[-1]), "an open lobby invites"


async def test_every_lobby_message_of_a_table_started_by_command_stops_inviting(world: Any) -> None:
    await opened(world)
    await world.members["bob"].slash(world.channel, "game join")  # a second lobby message, in the channel
    assert [invites(m) for m in lobby_messages(world.channel)] == [True, True], "both invite while it is open"
    await world.members["alice"].slash(world.channel, "game start")
    assert len(lobby_messages(world.channel)) == 2
    assert_settled(world.channel, "The game has started")


async def test_lobby_messages_past_the_newest_five_are_retired_at_once(world: Any) -> None:
    await opened(world)
    bob = world.members["bob"]
    for _ in range(3):  # six more lobby messages
        await bob.slash(world.channel, "game join")
        await bob.slash(world.channel, "game leave")
    retired = [m for m in world.channel.history() if "newer message below" in m.content]
    assert len(retired) == 2 and not any(m.embeds or components(m) for m in retired)
    assert len(lobby_messages(world.channel)) == 5
    await bob.slash(world.channel, "game join")
    await world.members["alice"].slash(world.channel, "game start")
    assert_settled(world.channel, "The game has started")


async def test_a_finished_games_lobby_says_it_is_over(world: Any) -> None:
    await opened(world)
    lobby = lobby_messages(world.channel)[-1]
    await world.members["bob"].click(lobby, custom_id=next(
        c["custom_id"] for c in components(lobby) if c.get("label") == "Join"))
    await world.members["alice"].slash(world.channel, "game start")
    await world.members["alice"].slash(world.channel, "game resign")
    assert "Game over" in latest_table_message(world.channel).content
    assert_settled(world.channel, "This game is over")


async def test_an_abandoned_lobby_and_an_abandoned_game_close_their_lobby(world: Any) -> None:
    await opened(world)
    await world.members["alice"].slash(world.channel, "game abandon")
    assert_settled(world.channel, "This table is closed")

    await world.env.advance_time(3)  # alice's new_cooldown between two /game new
    await opened(world, "do_over")
    await world.members["bob"].slash(world.channel, "game join")
    await world.members["alice"].slash(world.channel, "game start")
    await world.members["alice"].slash(world.channel, "game abandon")
    assert_settled(world.channel, "This table is closed")


async def test_a_lobby_that_times_out_stops_inviting(world: Any) -> None:
    alice = world.members["alice"]
    role = world.guild.create_role("managers", permissions=discord.Permissions(manage_guild=True))
    world.guild.add_member(alice.user, roles=[role])
    await alice.slash(world.channel, "config set", setting="lobby_timeout", value="1m")
    await opened(world)
    await world.env.advance_time(61)
    assert_settled(world.channel, "This table is closed")


async def test_a_thread_tables_lobby_is_edited_in_its_thread(world: Any) -> None:
    made = await world.members["alice"].slash(world.channel, "game new", game="pentawar", thread=True)
    thread = world.channel.threads[-1]
    assert invites(lobby_messages(thread)[-1]), answer_text(made)
    await world.members["bob"].slash(thread, "game join")
    await world.members["alice"].slash(thread, "game start")
    assert_settled(thread, "The game has started")
    await world.members["bob"].slash(thread, "game resign")
    assert_settled(thread, "This game is over")
