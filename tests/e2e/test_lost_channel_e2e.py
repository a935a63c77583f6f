"""A changing server (issue 26): the bot's own permissions, a channel that refuses it mid-game, a deleted
thread, a server that removes the bot and invites it back, and a member whose DMs are closed."""

from __future__ import annotations

import fnmatch
import sqlite3
from typing import Any

import discord
import pytest
from simcord.backend import serializers
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot import create_bot
from cogs.access import PROBE_EVERY
from tests.e2e.driver import configure, latest_table_message
from tests.e2e.test_long_games_e2e import play_own_move, two_player
from tests.e2e.test_reliability_e2e import answer_text
from tests.latency import Latency

pytestmark = pytest.mark.simcord(settle_timeout=60)

HOUR = 3600


def rows(db_path: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as db:
        return list(db.execute(sql, params))


#: Not the command's doing: every interaction notes the channel's visibility (web pages) and the member's
#: language (direct messages).
BOOKKEEPING = {"web_channels", "member_locales"}


def whole_database(db_path: str) -> list[Any]:
    """Every row of every table: a refusal must leave all of it as it was."""
    names = [r[0] for r in rows(db_path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
             if r[0] not in BOOKKEEPING]
    return [(name, rows(db_path, f"SELECT * FROM {name} ORDER BY 1")) for name in names]


def requests_to(env: Any, channel_id: int, since: int = 0) -> list[Any]:
    """REST calls the bot made to a channel (its messages, edits, threads), interaction answers aside."""
    return [r for r in env.http_requests[since:] if fnmatch.fnmatch(r.path, f"/channels/{channel_id}*")]


def deny_the_bot(world: Any, channel_id: int, *names: str) -> None:
    deny = discord.Permissions(**{name: True for name in names}).value
    world.env.backend.set_overwrite(channel_id, Overwrite(world.env.bot.user.id, OverwriteType.MEMBER, 0, deny))


async def refused_privately(world: Any, latency: Latency, db_path: str, member: Any, channel: Any, command: str,
                            **options: Any) -> str:
    before = whole_database(db_path)
    mark = len(latency.calls)
    result = await member.slash(channel, command, **options)
    assert result.ephemeral, answer_text(result)
    firsts = latency.first_responses()
    assert firsts and all(s < 3 and status in (200, 204) for s, status in firsts.values()), firsts
    assert whole_database(db_path) == before, "a refusal changes nothing"
    assert not [c for c in latency.calls[mark:] if c.path.startswith("/channels/")], "nothing posted"
    return answer_text(result)


async def test_the_bots_missing_permissions_are_named_before_a_table_or_tournament_opens(
        world: Any, db_path: str, latency: Latency) -> None:
    latency.default = 0.3
    alice = world.members["alice"]
    me = world.env.bot.user
    bare = world.guild.create_text_channel("bare", overwrites={
        me: discord.PermissionOverwrite(embed_links=False, attach_files=False)})
    text = await refused_privately(world, latency, db_path, alice, bare, "game new", game="pentawar")
    assert "**Embed Links**" in text and "**Attach Files**" in text, text
    assert "View Channel" not in text and "Threads" not in text, text
    no_threads = world.guild.create_text_channel("no-threads", overwrites={
        me: discord.PermissionOverwrite(manage_threads=False)})
    text = await refused_privately(world, latency, db_path, alice, no_threads, "game new", game="pentawar",
                                   thread=True)
    assert "**Manage Threads**" in text and "Embed Links" not in text, text
    text = await refused_privately(world, latency, db_path, alice, no_threads, "tournament new", game="pentawar",
                                   format="swiss")
    assert "**Manage Threads**" in text, text
    no_events = world.guild.create_text_channel("no-events", overwrites={
        me: discord.PermissionOverwrite(manage_events=False)})
    text = await refused_privately(world, latency, db_path, alice, no_events, "tournament new", game="pentawar",
                                   format="swiss", starts_at="in 2h")
    assert "**Manage Events**" in text and "Manage Threads" not in text, text
    # With every permission, the same command opens the table.
    opened = await alice.slash(world.channel, "game new", game="pentawar")
    assert not opened.ephemeral, answer_text(opened)


async def test_a_channel_that_turns_403_mid_game_pauses_the_table_and_gets_one_request_an_hour(
        world: Any, db_path: str) -> None:
    mover, _ = await two_player(world, turn_time="10m")
    deny_the_bot(world, world.channel.id, "send_messages")
    mark = len(world.env.http_requests)
    await play_own_move(world, mover)  # answered privately; its table message is refused
    assert rows(db_path, "SELECT status, paused FROM game_tables") == [("playing", 2)]
    assert rows(db_path, "SELECT COUNT(*) FROM timers WHERE due IS NOT NULL") == [(0,)], "every clock stopped"
    assert len(requests_to(world.env, world.channel.id, mark)) == 1
    for hour in range(1, 6):
        await world.env.advance_time(HOUR)
        sent = requests_to(world.env, world.channel.id, mark)
        assert len(sent) <= 1 + hour, [(r.method, r.path) for r in sent]
    assert rows(db_path, "SELECT COUNT(*) FROM seat_events WHERE kind = 'timeout'") == [(0,)], "nobody timed out"
    assert rows(db_path, "SELECT status, paused FROM game_tables") == [("playing", 2)]
    # The server fixes the permission: the next hourly try goes through, and the table plays on.
    world.env.backend.delete_overwrite(world.channel.id, world.env.bot.user.id)
    await world.env.advance_time(HOUR)
    assert rows(db_path, "SELECT paused FROM game_tables") == [(0,)]
    assert rows(db_path, "SELECT COUNT(*) FROM timers WHERE kind = 'deadline' AND due IS NOT NULL") == [(1,)]
    assert "can post here again" in latest_table_message(world.channel).content
    await world.env.advance_time(601)
    assert rows(db_path, "SELECT COUNT(*) FROM seat_events WHERE kind = 'timeout'") == [(1,)], "the clock runs again"


async def paused_by_a_refused_post(world: Any, db_path: str, status: int, code: int, message: str) -> Any:
    """A two-player table with a clock whose next table message Discord refuses (``status``/``code``): the mover
    is answered, and the bot pauses the table. Returns the member who did not move."""
    mover, other = await two_player(world, turn_time="10m")
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=status, code=code,
                           message=message)
    await play_own_move(world, mover)
    assert rows(db_path, "SELECT paused FROM game_tables") == [(2,)]
    return other


async def test_an_interaction_in_the_channel_resumes_a_table_the_bot_paused(world: Any, db_path: str) -> None:
    other = await paused_by_a_refused_post(world, db_path, 403, 50001, "Missing Access")
    status = await other.slash(world.channel, "game status")
    assert "Discord refused my messages" in answer_text(status), answer_text(status)
    assert rows(db_path, "SELECT paused FROM game_tables") == [(0,)]
    assert "can post here again" in latest_table_message(world.channel).content


async def test_game_resume_from_a_manager_resumes_a_table_the_bot_paused(world: Any, db_path: str) -> None:
    await paused_by_a_refused_post(world, db_path, 404, 10003, "Unknown Channel")
    resumed = await world.members["alice"].slash(world.channel, "game resume")
    assert "plays on" in answer_text(resumed), answer_text(resumed)
    assert rows(db_path, "SELECT paused FROM game_tables") == [(0,)]


async def test_a_deleted_thread_closes_its_table_with_its_timers(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pentawar", thread=True, turn_time="10m")
    thread = world.channel.threads[0]
    await bob.slash(thread, "game join")
    await alice.slash(thread, "game start")
    assert rows(db_path, "SELECT COUNT(*) FROM timers") != [(0,)]
    world.env.backend.delete_channel(thread.id)
    await world.env.advance_time(1)
    assert rows(db_path, "SELECT status, end_reason FROM game_tables") == [("abandoned", "channel deleted")]
    assert rows(db_path, "SELECT COUNT(*) FROM timers") == [(0,)]
    told = [m.content for m in world.channel.history() if "channel deleted" in (m.content or "")]
    assert len(told) == 1 and "Table #1" in told[0], told
    # Nobody can view a deleted thread, so /game log answers as for a table that never was (privacy); the
    # reason is stored with the table and shown on its web page (tests/web/test_routes.py).
    logged = await alice.slash(world.channel, "game log", table="1")
    assert "There is no table #1 in this server." in answer_text(logged), answer_text(logged)
    mark = len(world.env.http_requests)
    await world.env.advance_time(2 * HOUR)
    assert not requests_to(world.env, thread.id, mark)


async def test_a_deleted_channel_closes_its_table_and_its_thread_tables(world: Any, db_path: str) -> None:
    await two_player(world, turn_time="10m")
    await world.members["carol"].slash(world.channel, "game new", game="do_over", thread=True)
    other = world.guild.create_text_channel("elsewhere")
    await world.members["dave"].slash(other, "game new", game="pentawar")
    world.env.backend.delete_channel(world.channel.id)
    await world.env.advance_time(1)
    assert rows(db_path, "SELECT status, end_reason FROM game_tables ORDER BY id") == [
        ("abandoned", "channel deleted"), ("abandoned", "channel deleted"), ("lobby", None)]
    assert rows(db_path, "SELECT DISTINCT table_id FROM timers") in ([], [(3,)]), "only the other channel's timers"
    mark = len(world.env.http_requests)
    await world.env.advance_time(2 * HOUR)
    assert not requests_to(world.env, world.channel.id, mark)


async def test_a_removed_server_gets_no_request_and_a_reinvite_finds_its_data(world: Any, db_path: str) -> None:
    mover, other = await two_player(world, turn_time="10m")
    await world.members["carol"].slash(world.channel, "game new", game="do_over", thread=True)
    managers = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    organiser = world.guild.add_member(world.env.create_user("erin"), roles=[managers])
    tournament = await organiser.slash(world.channel, "tournament new", game="pentawar", format="swiss",
                                       starts_at="in 2h")
    assert not tournament.ephemeral, answer_text(tournament)
    guild_id, backend = world.guild.id, world.env.backend
    before = rows(db_path, "SELECT id, status, version FROM game_tables ORDER BY id")
    # What Discord keeps of the server while the bot is away (SimCord drops it with the guild).
    games, history = backend.channels[world.channel.id], backend.messages[world.channel.id]
    mark = len(world.env.http_requests)
    backend.remove_guild(guild_id)
    await world.env.advance_time(1)
    assert rows(db_path, "SELECT paused FROM game_tables WHERE status = 'playing'") == [(2,)]
    await world.env.advance_time(4 * 86400)  # past every clock, the lobby's timeout and the tournament's start
    to_server = [r for r in world.env.http_requests[mark:] if r.path.startswith(("/channels/", "/guilds/"))]
    assert not to_server, [(r.method, r.path) for r in to_server]
    assert rows(db_path, "SELECT COUNT(*) FROM seat_events WHERE kind = 'timeout'") == [(0,)]
    assert rows(db_path, "SELECT id, status, version FROM game_tables ORDER BY id") == before
    # Invited back (SimCord keeps a removed guild's id reserved; Discord gives the server back its id and
    # its channels): the tables are still there, and the games the bot paused play on.
    backend._reserved_ids.discard(guild_id)
    back = world.env.create_guild("Deckhand Test", id=guild_id)
    backend.channels[games.id], backend.messages[games.id] = games, history
    backend.get_guild(guild_id).channel_ids.append(games.id)
    backend.emit("CHANNEL_CREATE", serializers.channel_payload(backend, games))
    member = back.add_member(mover.user)
    back.add_member(other.user)
    await world.env.advance_time(1)
    channel = back.channels["games"]
    mine = await member.slash(channel, "game mine")
    assert f"#{before[0][0]}" in answer_text(mine), answer_text(mine)
    assert rows(db_path, "SELECT paused FROM game_tables WHERE status = 'playing'") == [(0,)]
    assert "can post here again" in latest_table_message(channel).content
    assert rows(db_path, "SELECT id, status FROM game_tables ORDER BY id") == [r[:2] for r in before]
    assert rows(db_path, "SELECT status FROM tournaments") == [("registration",)], "it waited for the re-invite"


async def test_a_closed_dm_turns_that_members_dms_off_and_they_are_told_once(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    for member in (alice, bob):
        await member.slash(world.channel, "game notify", dm="on")
    mover, other = await two_player(world, turn_time="1h")
    world.env.inject_error("POST", f"/channels/{other.user.dm_channel.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    mark = len(world.env.http_requests)
    await play_own_move(world, mover)
    told = [m for m in world.channel.history() if "turn DMs off" in (m.content or "")]
    assert len(told) == 1 and f"<@{other.id}>" in told[0].content
    assert rows(db_path, "SELECT dm_notify FROM member_settings WHERE user_id = ?", (other.id,)) == [(0,)]
    await play_own_move(world, other)
    await play_own_move(world, mover)
    dm_path = f"/channels/{other.user.dm_channel.id}/messages"
    assert sum(1 for r in world.env.http_requests[mark:] if r.path == dm_path) == 1, "asked once, not every turn"
    assert len([m for m in world.channel.history() if "turn DMs off" in (m.content or "")]) == 1
    again = await other.slash(world.channel, "game notify", dm="on")
    assert "direct message" in answer_text(again)
    assert rows(db_path, "SELECT dm_notify FROM member_settings WHERE user_id = ?", (other.id,)) == [(1,)]


async def test_a_restart_asks_a_refusing_channel_nothing_before_the_hour_is_out(world: Any, db_path: str) -> None:
    mover, _ = await two_player(world, turn_time="10m")
    deny_the_bot(world, world.channel.id, "send_messages")
    await play_own_move(world, mover)  # its table message is refused: the table pauses, its move unposted
    assert rows(db_path, "SELECT paused, posted_version < version FROM game_tables") == [(2, 1)]
    await world.env.advance_time(HOUR / 2)
    mark = len(world.env.http_requests)
    # The hour's count is not stored: the restarted bot counts the channel as refused at its start, so catching
    # up the unposted move waits for the hourly try like everything else (however often the bot restarts).
    await world.env.restart_bot(create_bot())
    await world.env.advance_time(HOUR - 60)
    assert not requests_to(world.env, world.channel.id, mark), "nothing before the hour since the start"
    await world.env.advance_time(120)
    assert len(requests_to(world.env, world.channel.id, mark)) == 1, "the hourly try"
    world.env.backend.delete_overwrite(world.channel.id, world.env.bot.user.id)
    await world.env.advance_time(HOUR)
    assert rows(db_path, "SELECT paused, posted_version = version FROM game_tables") == [(0, 1)]
    assert "can post here again" in latest_table_message(world.channel).content


async def test_the_hours_one_request_to_a_refusing_channel_is_a_post_never_an_edit(world: Any, db_path: str) -> None:
    await two_player(world, turn_time="10m")
    poster = world.env.bot.services.flow.poster
    [(table_id,)] = rows(db_path, "SELECT id FROM game_tables")
    # The channel refused the bot an hour ago (a reminder, say), while its table message is minutes old: the
    # step to show would be an edit, and an edit whose message was deleted (10008) needs a post after it.
    poster.access.refused(world.channel.id)
    clock = poster.access.now
    poster.access.now = lambda: clock() + PROBE_EVERY
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/*", status=404, code=10008,
                           message="Unknown Message", times=None)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=403, code=50001,
                           message="Missing Access", times=None)
    mark = len(world.env.http_requests)
    await poster.refresh_table(await poster.tables.reload(table_id))
    sent = requests_to(world.env, world.channel.id, mark)
    assert [r.method for r in sent] == ["POST"], [(r.method, r.path) for r in sent]
    assert rows(db_path, "SELECT paused FROM game_tables") == [(2,)]


async def test_thread_tables_tell_a_refusing_parent_channel_their_results_once_an_hour(world: Any) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    threads = []
    for _ in range(2):
        await alice.slash(world.channel, "game new", game="pentawar", thread=True)
        thread = world.channel.threads[-1]
        await bob.slash(thread, "game join")
        await alice.slash(thread, "game start")
        threads.append(thread)
        await world.env.advance_time(3)  # alice's new_cooldown
    # The channel stops taking the bot's messages; its threads still do (Send Messages in Threads).
    deny_the_bot(world, world.channel.id, "send_messages")
    mark = len(world.env.http_requests)
    for thread in threads:  # each game ends; its result is told in the thread, and once in the channel
        await alice.slash(thread, "game resign")
        assert "Game over" in latest_table_message(thread).content
    sent = [r for r in requests_to(world.env, world.channel.id, mark) if r.method == "POST"]
    assert len(sent) == 1, [(r.method, r.path) for r in sent]


async def test_clicks_in_a_channel_that_still_refuses_the_bot_send_it_nothing(world: Any, db_path: str) -> None:
    """An interaction's answer goes through its webhook even where the bot may not post: it proves nothing about
    the channel, so members' commands there must not each cost a refused post (Discord's invalid-request ban)."""
    mover, other = await two_player(world, turn_time="10m")
    deny_the_bot(world, world.channel.id, "send_messages")
    mark = len(world.env.http_requests)
    await play_own_move(world, mover)
    assert rows(db_path, "SELECT paused FROM game_tables") == [(2,)]
    assert len(requests_to(world.env, world.channel.id, mark)) == 1
    for _ in range(5):
        status = await other.slash(world.channel, "game status")
        assert "Discord refused my messages" in answer_text(status), answer_text(status)
    assert len(requests_to(world.env, world.channel.id, mark)) == 1, "no request until the hourly try"
    assert rows(db_path, "SELECT paused FROM game_tables") == [(2,)]
    # Once the server lets the bot post, the next interaction there resumes the table at once.
    world.env.backend.delete_overwrite(world.channel.id, world.env.bot.user.id)
    await other.slash(world.channel, "game status")
    assert rows(db_path, "SELECT paused FROM game_tables") == [(0,)]
    assert "can post here again" in latest_table_message(world.channel).content


async def test_a_deleted_tournament_thread_ends_its_table_as_a_draw_and_the_round_goes_on(
        world: Any, db_path: str) -> None:
    """Abandoned, a tournament table whose thread was deleted left its round waiting for ever (and /tournament
    advance drew nothing): it ends as a draw, as when the round's time is up, and the next round is seated."""
    alice, bob, carol, dave = (world.members[n] for n in ("alice", "bob", "carol", "dave"))
    await configure(world, tournament_creators="everyone")
    await alice.slash(world.channel, "tournament new", game="pentawar", format="swiss", rounds=3, turn_time="10m")
    for member in (alice, bob, carol, dave):
        await member.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament start")
    first, second = (rows(db_path, "SELECT table_id FROM tournament_tables WHERE round = 1 ORDER BY position"))
    threads = {t.id: t for t in world.channel.threads}
    deleted = rows(db_path, "SELECT channel_id FROM game_tables WHERE id = ?", (first[0],))[0][0]
    world.env.backend.delete_channel(deleted)
    await world.env.advance_time(1)
    assert rows(db_path, "SELECT status FROM game_tables WHERE id = ?", (first[0],)) == [("finished",)]
    assert sorted(r[0] for r in rows(db_path, "SELECT place FROM results WHERE table_id = ?", (first[0],))) == [1, 1]
    told = [m.content for m in world.channel.history() if "thread was deleted" in (m.content or "")]
    assert len(told) == 1 and f"Table #{first[0]}" in told[0], told
    other = threads[rows(db_path, "SELECT channel_id FROM game_tables WHERE id = ?", (second[0],))[0][0]]
    resigner = rows(db_path, "SELECT user_id FROM seats WHERE table_id = ? ORDER BY position", (second[0],))[0][0]
    await next(m for m in (alice, bob, carol, dave) if m.id == resigner).slash(other, "game resign")
    await world.env.advance_time(1)
    assert rows(db_path, "SELECT COUNT(*) FROM tournament_tables WHERE round = 2") == [(2,)], "round 2 was seated"


async def test_a_tournament_channel_that_refuses_the_bot_is_asked_at_most_once_an_hour(world: Any,
                                                                                     db_path: str) -> None:
    """A running tournament's channel stops letting the bot post (its threads still do): each round's pairings,
    bracket and final standings went to it anyway and were refused every time; they go through the same gate as
    a table's posts, so after a refusal the channel is asked at most once an hour, and the rounds go on."""
    await configure(world, tournament_creators="everyone", bot_delay=5)  # rounds over some minutes, not at once
    alice = world.members["alice"]
    await alice.slash(world.channel, "tournament new", game="do_over", format="swiss", rounds=3)
    await alice.slash(world.channel, "tournament addbot", count=4, level="easy")
    await alice.slash(world.channel, "tournament start")
    deny_the_bot(world, world.channel.id, "send_messages")
    mark = len(world.env.http_requests)
    for _ in range(6):
        await world.env.advance_time(HOUR // 2)
    assert rows(db_path, "SELECT status FROM tournaments") == [("finished",)]
    asked = [r for r in requests_to(world.env, world.channel.id, mark) if r.method == "POST" and
             r.path.endswith("/messages")]
    assert 1 <= len(asked) <= 2, [(r.method, r.path) for r in asked]  # every round's post, before: 6


async def test_a_channel_deleted_while_the_bot_was_away_closes_its_table_at_the_next_post(world: Any,
                                                                                        db_path: str) -> None:
    """No delete event reaches a bot that is down: at its next post Discord answers 404 Unknown Channel (10003),
    and the channel is not in the bot's cache either. The table ends as a deleted channel's do, instead of being
    paused and asked once an hour for ever. (An Unknown Channel while the channel is still known stays a pause:
    test_game_resume_from_a_manager_resumes_a_table_the_bot_paused.)"""
    await two_player(world, turn_time="10m")
    backend, channel_id = world.env.backend, world.channel.id
    backend.channels.pop(channel_id)
    backend.messages.pop(channel_id, None)
    backend.get_guild(world.guild.id).channel_ids.remove(channel_id)
    await world.env.restart_bot(create_bot())
    await world.env.advance_time(11 * 60)  # the turn's deadline: a bot plays it, and its post meets the 404
    assert rows(db_path, "SELECT status, end_reason FROM game_tables") == [("abandoned", "channel deleted")]
    mark = len(world.env.http_requests)
    await world.env.advance_time(3 * HOUR)
    assert not requests_to(world.env, channel_id, mark)
