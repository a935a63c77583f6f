"""Privacy follows Discord's: /game mine, tables, log and replay show only tables in channels and threads
the member can view, and a hidden table's id is answered exactly like an id that does not exist."""

from __future__ import annotations

import sqlite3
from typing import Any

import discord
from simcord.backend.models import Overwrite
from simcord.enums import ChannelType, OverwriteType

from tests.e2e.test_reliability_e2e import answer_text

#: A table number no test ever reaches.
NO_SUCH_TABLE = 987654


def table_ids(db_path: str) -> list[int]:
    with sqlite3.connect(db_path) as db:
        return [row[0] for row in db.execute("SELECT id FROM game_tables ORDER BY id")]


def everything(db_path: str) -> list[Any]:
    """The tables, seats and moves as stored: a refusal must leave them as they were."""
    with sqlite3.connect(db_path) as db:
        return [list(db.execute(f"SELECT * FROM {name}")) for name in ("game_tables", "seats", "actions")]


async def open_game(host: Any, guest: Any, channel: Any) -> None:
    created = await host.slash(channel, "game new", game="pentawar", turn_time="1d")
    assert not created.ephemeral, answer_text(created)
    await guest.slash(channel, "game join")
    started = await host.slash(channel, "game start")
    assert "The game begins" in answer_text(started), answer_text(started)


def private(result: Any) -> bool:
    """Answered, and only privately: the first response and every follow-up (a deferred answer's edit too)."""
    answers = [m for m in (result.response, *result.followups) if m is not None]
    return bool(answers) and all(m.flags.ephemeral for m in answers)


def listed(text: str, table_id: int) -> bool:
    return f"table #{table_id} " in text or text.rstrip().endswith(f"table #{table_id}")


async def history_answers(member: Any, channel: Any, table: int) -> tuple[str, str]:
    """What /game log and /game replay answer ``member`` for ``table``, with its number blanked out."""
    log = await member.slash(channel, "game log", table=str(table))
    replay = await member.slash(channel, "game replay", move=0, table=str(table))
    for result in (log, replay):
        assert result.acknowledged
        assert private(result), answer_text(result)  # every answer, the deferred one's follow-up included
    return tuple(answer_text(r).replace(str(table), "N") for r in (log, replay))  # type: ignore[return-value]


async def assert_hidden(member: Any, channel: Any, table: int, db_path: str) -> None:
    before = everything(db_path)
    assert not listed(answer_text(await member.slash(channel, "game tables")), table)
    assert not listed(answer_text(await member.slash(channel, "game mine")), table)
    hidden = await history_answers(member, channel, table)
    missing = await history_answers(member, channel, NO_SUCH_TABLE)
    assert hidden == missing, (hidden, missing)
    assert "There is no table #N in this server." in hidden[0]
    assert everything(db_path) == before


async def assert_seen(member: Any, channel: Any, table: int, seated: bool) -> None:
    assert listed(answer_text(await member.slash(channel, "game tables")), table)
    assert listed(answer_text(await member.slash(channel, "game mine")), table) == seated
    log = await member.slash(channel, "game log", table=str(table))
    files = [a.filename for m in (log.response, *log.followups) if m is not None for a in m.attachments]
    assert files == [f"table-{table}-log.txt"], answer_text(log)
    replay = await member.slash(channel, "game replay", move=0, table=str(table))
    assert f"table #{table} · after move 0" in answer_text(replay), answer_text(replay)


async def test_a_table_in_a_channel_a_member_cannot_view_is_hidden_from_them(world: Any, db_path: str) -> None:
    alice, bob, carol, dave = (world.members[n] for n in ("alice", "bob", "carol", "dave"))
    staff = world.guild.create_text_channel(
        "staff", overwrites={dave: discord.PermissionOverwrite(view_channel=False)})
    await open_game(alice, bob, staff)
    table = table_ids(db_path)[-1]
    # dave never could view the channel; bob sat down, then lost the channel to a moderator's overwrite.
    world.env.backend.set_overwrite(staff.id, Overwrite(bob.id, OverwriteType.MEMBER,
                                                        deny=discord.Permissions(view_channel=True).value))
    # An open lobby in a channel dave cannot view is no invitation to him either.
    lounge = world.guild.create_text_channel(
        "lounge", overwrites={dave: discord.PermissionOverwrite(view_channel=False)})
    await carol.slash(lounge, "game new", game="pentawar")
    lobby = table_ids(db_path)[-1]
    assert listed(answer_text(await alice.slash(world.channel, "game tables")), lobby)
    await assert_hidden(dave, world.channel, lobby, db_path)
    await assert_hidden(dave, world.channel, table, db_path)
    await assert_hidden(bob, world.channel, table, db_path)
    await assert_seen(alice, world.channel, table, seated=True)
    await assert_seen(carol, world.channel, table, seated=False)
    # Given the channel back, bob finds his table again.
    world.env.backend.delete_overwrite(staff.id, bob.id)
    await assert_seen(bob, world.channel, table, seated=True)


async def test_a_private_threads_table_is_hidden_from_members_not_in_the_thread(world: Any, db_path: str) -> None:
    alice, bob, carol = (world.members[n] for n in ("alice", "bob", "carol"))
    backend = world.env.backend
    made = backend.create_thread(world.channel.id, "back room", alice.id, type=ChannelType.PRIVATE_THREAD)
    backend.add_thread_member(made.id, bob.id)
    thread = next(t for t in world.channel.threads if t.id == made.id)
    await open_game(alice, bob, thread)
    table = table_ids(db_path)[-1]
    # carol views the parent channel: a permission check alone would let her into the thread.
    viewing = backend.compute_permissions(world.guild.id, carol.id, made.id)
    assert viewing & discord.Permissions(view_channel=True).value
    await assert_hidden(carol, world.channel, table, db_path)
    await assert_seen(alice, world.channel, table, seated=True)
    await assert_seen(bob, thread, table, seated=True)
    # Removed from the thread, bob no longer sees its table, not even in his own list.
    backend.remove_thread_member(made.id, bob.id)
    await assert_hidden(bob, world.channel, table, db_path)
    # A moderator with Manage Threads opens every private thread, on Discord as here.
    mods = world.guild.create_role("mods", permissions=discord.Permissions(manage_threads=True))
    moderator = world.guild.add_member(world.env.create_user("erin"), roles=[mods])
    await assert_seen(moderator, world.channel, table, seated=False)


async def test_a_finished_table_in_an_archived_thread_is_still_read_by_those_who_view_it(world: Any,
                                                                                         db_path: str) -> None:
    alice, bob, dave = (world.members[n] for n in ("alice", "bob", "dave"))
    opened = await alice.slash(world.channel, "game new", game="pentawar", thread=True, turn_time="30s",
                               on_timeout="forfeit")
    assert "plays in" in answer_text(opened), answer_text(opened)
    thread = world.channel.threads[0]
    await bob.slash(thread, "game join")
    await alice.slash(thread, "game start")
    await world.env.advance_time(31)  # the first player forfeits: a two-player game is over
    await world.env.advance_time(200)  # and its thread is archived, out of discord.py's cache
    assert [t.id for t in world.env.backend.archived_threads(world.channel.id, private=False)] == [thread.id]
    assert world.guild.me.guild.get_thread(thread.id) is None
    table = table_ids(db_path)[-1]
    for member in (alice, dave):
        log = await member.slash(world.channel, "game log", table=str(table))
        files = [a.filename for m in (log.response, *log.followups) if m is not None for a in m.attachments]
        assert files == [f"table-{table}-log.txt"], answer_text(log)
    # dave loses the parent channel: the archived thread's table goes with it.
    world.env.backend.set_overwrite(world.channel.id, Overwrite(dave.id, OverwriteType.MEMBER,
                                                                deny=discord.Permissions(view_channel=True).value))
    elsewhere = world.guild.create_text_channel("elsewhere")
    hidden = await history_answers(dave, elsewhere, table)
    assert hidden == await history_answers(dave, elsewhere, NO_SUCH_TABLE)
    assert "There is no table #N in this server." in hidden[0]
