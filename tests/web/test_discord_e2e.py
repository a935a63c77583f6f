"""The Discord side of the web pages, through SimCord: the setting, link buttons where the issue lists them
(only when pages are on and the channel is public), /profile, /tournament export, /leaderboard's CSV."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import discord
import pytest

from tests.e2e.driver import components, latest_table_message
from tests.e2e.test_misc_languages_e2e import rated_games
from tests.e2e.test_tournament_e2e import rows
from tests.web.conftest import PUBLIC_URL

pytestmark = pytest.mark.asyncio


def links(message: Any) -> list[str]:
    return [c["url"] for c in components(message) if c.get("style") == 5]


def response_links(result: Any) -> list[str]:
    return links(result.response) if result.response is not None else []


async def manager(world: Any) -> Any:
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("mona"), roles=[role])


async def open_table(world: Any, channel: Any) -> int:
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(channel, "game new", game="do_over")
    await bob.slash(channel, "game join")
    await world.members["carol"].slash(channel, "game join")
    await alice.slash(channel, "game start")
    return int(rows(world.env.bot.settings.database_path,
                    "SELECT id FROM game_tables ORDER BY id DESC LIMIT 1")[0]["id"])


async def test_link_buttons_only_when_pages_are_on_and_the_channel_is_public(world: Any, db_path: str) -> None:
    mona = await manager(world)
    g = world.guild
    table = await open_table(world, world.channel)
    assert links(latest_table_message(world.channel)) == []  # pages are off by default
    result = await mona.slash(world.channel, "config set", setting="web_pages", value="on")
    assert "on" in result.response.content
    status = await world.members["alice"].slash(world.channel, "game status")
    assert response_links(status) == [f"{PUBLIC_URL}/s/{g.id}/tables/{table}"]
    # A channel @everyone cannot view: no link, and the pages 404 (tests/web/test_routes.py).
    private = g.create_text_channel("secret", overwrites={
        g.default_role: discord.PermissionOverwrite(view_channel=False),
        **{m: discord.PermissionOverwrite(view_channel=True) for m in world.members.values()},
        world.env.bot.user: discord.PermissionOverwrite(view_channel=True)})
    await world.env.advance_time(3)  # alice's new_cooldown between two /game new
    hidden_table = await open_table(world, private)
    assert links(latest_table_message(private)) == []
    facts = {r["channel_id"]: r["public"] for r in rows(db_path, "SELECT channel_id, public FROM web_channels")}
    assert facts[world.channel.id] == 1 and facts[private.id] == 0 and hidden_table > table
    rating = await world.members["alice"].slash(world.channel, "rating")
    assert rating.acknowledged
    await mona.slash(world.channel, "config set", setting="web_pages", value="off")
    status = await world.members["alice"].slash(world.channel, "game status")
    assert response_links(status) == []


async def test_profile_hides_and_shows_the_player_page(world: Any, db_path: str) -> None:
    alice = world.members["alice"]
    result = await alice.slash(world.channel, "profile", visibility="hidden")
    assert result.response.ephemeral and "hidden" in result.response.content
    assert rows(db_path, "SELECT hidden FROM web_profiles WHERE user_id = ?", (alice.id,))[0][0] == 1
    result = await alice.slash(world.channel, "profile", visibility="visible")
    assert "visible" in result.response.content
    assert rows(db_path, "SELECT hidden FROM web_profiles WHERE user_id = ?", (alice.id,))[0][0] == 0


async def test_tournament_export_attaches_standings_and_every_round(world: Any, db_path: str) -> None:
    mona = await manager(world)
    alice = world.members["alice"]
    await mona.slash(world.channel, "config set", setting="bot_delay", value="0")
    await mona.slash(world.channel, "config set", setting="web_pages", value="on")
    await mona.slash(world.channel, "config set", setting="tournament_creators", value="everyone")
    await alice.slash(world.channel, "tournament new", game="do_over", format="swiss", name="Web Cup")
    await alice.slash(world.channel, "tournament addbot", count=4, level="easy")
    await alice.slash(world.channel, "tournament start")
    for _ in range(40):
        await world.env.advance_time(30)
        if rows(db_path, "SELECT status FROM tournaments")[0]["status"] == "finished":
            break
    result = await alice.slash(world.channel, "tournament export", format="json")
    assert result.response.ephemeral
    data = json.loads(await result.response.attachments[0].read())
    assert [s["place"] for s in data["standings"]] == list(range(1, 5))
    assert data["tie_breakers"] == ["points", "opp", "oopp", "lot"]
    assert {r["round"] for r in data["results"]} == {r["number"] for r in rows(db_path, "SELECT number FROM rounds")}
    assert response_links(result) == [f"{PUBLIC_URL}/s/{world.guild.id}/tournaments/1"]
    result = await alice.slash(world.channel, "tournament export", format="csv")
    text = (await result.response.attachments[0].read()).decode()
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == ["# standings"] and table[1][:3] == ["place", "name", "points"]
    standings = await alice.slash(world.channel, "tournament standings")
    assert f"{PUBLIC_URL}/s/{world.guild.id}/tournaments/1" in "".join(
        response_links(standings) + [u for f in standings.followups for u in links(f)])


async def test_the_leaderboards_csv_names_each_player_and_every_answer_links_its_page(world: Any) -> None:
    """The bot keeps no member list (the guilds intent alone): the CSV's names are the ones the members sat
    under, never "Player <id>". /leaderboard and /rating link their pages even before anyone is rated."""
    mona = await manager(world)
    alice, g = world.members["alice"], world.guild.id
    await mona.slash(world.channel, "config set", setting="web_pages", value="on")
    empty = await alice.slash(world.channel, "leaderboard", game="do_over")
    assert "Nobody has 5 rated games" in empty.response.content
    assert response_links(empty) == [f"{PUBLIC_URL}/s/{g}/leaderboard/do_over"]
    await rated_games(world, 1)
    unrated = await alice.slash(world.channel, "rating", game="pentawar")  # none at Pentawar, yet a player page
    assert "no rated games" in unrated.response.content
    assert response_links(unrated) == [f"{PUBLIC_URL}/s/{g}/players/{alice.id}"]
    await rated_games(world, 4)
    board = await alice.slash(world.channel, "leaderboard", game="do_over")
    assert response_links(board) == [f"{PUBLIC_URL}/s/{g}/leaderboard/do_over"]
    table = list(csv.DictReader(io.StringIO((await board.response.attachments[0].read()).decode())))
    assert [(row["rank"], row["name"]) for row in table] == [("1", "alice"), ("2", "bob")]


async def test_no_link_to_a_player_page_that_is_not_served(world: Any) -> None:
    """A member who never sat at a table nor entered a tournament here has no player page: /profile visible
    offers no link to a 404; once they have played, it does, and hidden takes it away again."""
    mona = await manager(world)
    alice, carol = world.members["alice"], world.members["carol"]
    await mona.slash(world.channel, "config set", setting="web_pages", value="on")
    shown = await carol.slash(world.channel, "profile", visibility="visible")
    assert "visible" in shown.response.content and response_links(shown) == []
    await alice.slash(world.channel, "game new", game="do_over")
    await carol.slash(world.channel, "game join")
    shown = await carol.slash(world.channel, "profile", visibility="visible")
    assert response_links(shown) == [f"{PUBLIC_URL}/s/{world.guild.id}/players/{carol.id}"]
    await carol.slash(world.channel, "profile", visibility="hidden")
    assert response_links(await carol.slash(world.channel, "rating")) == []


async def test_the_first_lobby_and_signup_in_a_new_channel_link_their_pages(world: Any, db_path: str) -> None:
    """A channel's visibility is recorded when a command there completes; the lobby or sign-up that command
    posts is built before, from the bot's own cache of the channel: it links too."""
    mona = await manager(world)
    alice, g = world.members["alice"], world.guild
    await mona.slash(world.channel, "config set", setting="web_pages", value="on")
    await mona.slash(world.channel, "config set", setting="tournament_creators", value="everyone")
    late = g.create_text_channel("opened-later")
    lobby = await alice.slash(late, "game new", game="do_over")
    table = rows(db_path, "SELECT id FROM game_tables ORDER BY id DESC LIMIT 1")[0][0]
    assert response_links(lobby) == [f"{PUBLIC_URL}/s/{g.id}/tables/{table}"]
    later = g.create_text_channel("cup-later")
    signup = await alice.slash(later, "tournament new", game="do_over", format="swiss", name="Late Cup")
    event = rows(db_path, "SELECT id FROM tournaments ORDER BY id DESC LIMIT 1")[0][0]
    assert response_links(signup) == [f"{PUBLIC_URL}/s/{g.id}/tournaments/{event}"]
    hidden = g.create_text_channel("staff-later", overwrites={
        g.default_role: discord.PermissionOverwrite(view_channel=False),
        alice: discord.PermissionOverwrite(view_channel=True),
        world.env.bot.user: discord.PermissionOverwrite(view_channel=True)})
    await world.env.advance_time(3)  # alice's new_cooldown between two /game new
    assert response_links(await alice.slash(hidden, "game new", game="do_over")) == []


async def test_a_table_in_a_thread_is_not_served_once_its_channel_turns_private(world: Any, db_path: str) -> None:
    """A table opened inside an existing thread is recorded under the thread, whose visibility is its parent's:
    when the parent turns private, so does the thread's record."""
    from simcord.backend.models.channel import Overwrite
    from simcord.enums import ChannelType, OverwriteType

    mona = await manager(world)
    alice, bob = world.members["alice"], world.members["bob"]
    await mona.slash(world.channel, "config set", setting="web_pages", value="on")
    backend = world.env.backend
    made = backend.create_thread(world.channel.id, "side room", alice.id, type=ChannelType.PUBLIC_THREAD)
    thread = next(t for t in world.channel.threads if t.id == made.id)
    await alice.slash(thread, "game new", game="do_over")
    await bob.slash(thread, "game join")

    def recorded(channel_id: int) -> int:
        return rows(db_path, "SELECT public FROM web_channels WHERE channel_id = ?", (channel_id,))[0][0]

    assert recorded(thread.id) == 1
    deny = discord.Permissions(view_channel=True).value
    backend.set_overwrite(world.channel.id, Overwrite(world.guild.id, OverwriteType.ROLE, 0, deny))
    await world.env.settle()
    assert recorded(world.channel.id) == 0 and recorded(thread.id) == 0
