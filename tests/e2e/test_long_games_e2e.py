"""Long games on SimCord's virtual clock: deadlines, reminders, timeouts, restarts, threads, /game mine, /config."""

from __future__ import annotations

import random
import re
import sqlite3
from typing import Any

import discord
import pytest
import simcord

from bot import create_bot
from tests.e2e.driver import choices_in, latest_table_message, open_hand, seats_to_act, use
from tests.e2e.test_reliability_e2e import answer_text, play_randomly


def rows(db_path: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as db:
        return list(db.execute(sql, params))


def timeouts(db_path: str) -> int:
    return rows(db_path, "SELECT COUNT(*) FROM seat_events WHERE kind = 'timeout'")[0][0]


def messages_with(channel: Any, text: str) -> list[Any]:
    return [m for m in channel.history() if text in (m.content or "")]


async def two_player(world: Any, **clock: Any) -> tuple[Any, Any]:
    """alice and bob at a Pentawar table with the given clock; returns (player to act, the other)."""
    alice, bob = world.members["alice"], world.members["bob"]
    created = await alice.slash(world.channel, "game new", game="pentawar", **clock)
    assert not created.ephemeral, answer_text(created)
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    first = seats_to_act(latest_table_message(world.channel))[0]
    return (alice, bob) if first == alice.id else (bob, alice)


async def play_own_move(world: Any, member: Any, channel: Any = None) -> None:
    """The member makes a legal move with /play, as typed with autocomplete."""
    channel = channel or world.channel
    choices = await member.autocomplete(channel, "play", "action", "")
    assert choices, f"{member.name} has no legal move"
    result = await member.slash(channel, "play", action=choices[0]["value"])
    assert answer_text(result).startswith("✅"), answer_text(result)


async def refused_while_the_bot_plays(world: Any, member: Any, db_path: str, why: str) -> None:
    """The member of a seat the bot plays is offered no move, and a typed or clicked move changes nothing."""
    moves = rows(db_path, "SELECT COUNT(*) FROM actions")
    assert await member.autocomplete(world.channel, "play", "action", "") == []
    typed = await member.slash(world.channel, "play", action="pass")
    assert typed.ephemeral and why in answer_text(typed), answer_text(typed)
    panel = await open_hand(member, latest_table_message(world.channel))
    assert why in (panel.content or "") and not choices_in(panel), panel.content
    assert rows(db_path, "SELECT COUNT(*) FROM actions") == moves


async def test_a_deadline_fires_and_the_bot_moves_for_the_seat(world: Any, db_path: str) -> None:
    mover, _ = await two_player(world, turn_time="60s")
    message = latest_table_message(world.channel)
    due = rows(db_path, "SELECT due FROM timers WHERE kind = 'deadline'")
    assert len(due) == 1 and re.search(rf"<@{mover.id}> ⏰ <t:{int(due[0][0])}:R>", message.content), message.content
    await world.env.advance_time(59)
    assert rows(db_path, "SELECT COUNT(*) FROM actions") == [(0,)]
    await world.env.advance_time(2)
    labels = [r[0] for r in rows(db_path, "SELECT label FROM actions")]
    # The bot plays every step of the seat's decision, each saying why.
    assert labels and all("Time ran out" in label and mover.name in label for label in labels)
    assert timeouts(db_path) == 1
    assert "Time ran out" in latest_table_message(world.channel).content
    # The player keeps the seat: one timeout, not a takeover.
    assert rows(db_path, "SELECT timeouts, stand_in FROM seats WHERE user_id = ?", (mover.id,)) == [(1, 0)]


async def test_exactly_one_reminder_at_half_time_mentioning_only_the_player(world: Any) -> None:
    mover, other = await two_player(world, turn_time="60s")
    await world.env.advance_time(29)
    assert not messages_with(world.channel, "half your time")
    await world.env.advance_time(2)
    reminders = messages_with(world.channel, "half your time")
    assert len(reminders) == 1 and f"<@{mover.id}>" in reminders[0].content
    assert f"<@{other.id}>" not in reminders[0].content
    sent = [e for e in world.env.http_requests if isinstance(e.json, dict) and "half your time" in
            str(e.json.get("content", ""))]
    assert [str(u) for u in sent[0].json["allowed_mentions"]["users"]] == [str(mover.id)]
    await world.env.advance_time(20)
    assert len(messages_with(world.channel, "half your time")) == 1


# A restart lands 10 s of virtual time before the timer: SimCord runs a bot timer that is due
# within its settle timeout (5 s) on the real clock, so "just before" keeps clear of that window.
@pytest.mark.parametrize("moment", ["reminder", "deadline"])
async def test_a_reminder_and_a_deadline_fire_once_across_a_restart_just_before(world: Any, db_path: str,
                                                                                 moment: str) -> None:
    await two_player(world, turn_time="10m")
    await world.env.advance_time(290 if moment == "reminder" else 590)
    await world.env.restart_bot(create_bot())
    await world.env.advance_time(12)
    if moment == "reminder":
        assert len(messages_with(world.channel, "half your time")) == 1
        assert timeouts(db_path) == 0
    else:
        assert timeouts(db_path) == 1
    await world.env.restart_bot(create_bot())
    await world.env.advance_time(1)
    assert len(messages_with(world.channel, "half your time")) == 1
    assert timeouts(db_path) == (0 if moment == "reminder" else 1)


async def manager(world: Any) -> Any:
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("mona"), roles=[role])


async def test_a_paced_bot_move_fires_once_across_a_restart(world: Any, db_path: str) -> None:
    mona = await manager(world)
    await mona.slash(world.channel, "config set", setting="bot_delay", value="60")
    alice = world.members["alice"]
    await alice.slash(world.channel, "game new", game="pentawar")
    await alice.slash(world.channel, "game addbot")
    await alice.slash(world.channel, "game start")
    while seats_to_act(latest_table_message(world.channel)) != [alice.id]:
        await world.env.advance_time(61)  # the bot opened
    moves = rows(db_path, "SELECT COUNT(*) FROM actions")[0][0]
    await play_own_move(world, alice)
    await world.env.advance_time(50)
    assert rows(db_path, "SELECT COUNT(*) FROM actions")[0][0] == moves + 1, "the bot waits its delay"
    await world.env.restart_bot(create_bot())
    await world.env.advance_time(12)
    # One paced step after the restart, and the next step waits a full delay again.
    assert rows(db_path, "SELECT COUNT(*) FROM actions")[0][0] == moves + 2, "the bot moved once after the restart"
    await world.env.advance_time(30)
    assert rows(db_path, "SELECT COUNT(*) FROM actions")[0][0] == moves + 2


async def test_a_click_that_races_a_timeout_is_answered_moved_on(world: Any, db_path: str) -> None:
    mover, _ = await two_player(world, turn_time="30s")
    panel = await open_hand(mover, latest_table_message(world.channel))
    await world.env.advance_time(31)
    kind, custom_id, value = choices_in(panel)[0]
    moves = rows(db_path, "SELECT COUNT(*) FROM actions")[0][0]
    late = await use(mover, panel, kind, custom_id, value)
    assert "moved on" in answer_text(late)
    assert timeouts(db_path) == 1 and rows(db_path, "SELECT COUNT(*) FROM actions")[0][0] == moves


async def test_forfeit_ends_a_two_player_game(world: Any, db_path: str) -> None:
    mover, other = await two_player(world, turn_time="30s", on_timeout="forfeit")
    await world.env.advance_time(31)
    assert rows(db_path, "SELECT status FROM game_tables") == [("finished",)]
    places = dict(rows(db_path, "SELECT user_id, place FROM results"))
    assert places == {other.id: 1, mover.id: 2}
    assert "Game over" in latest_table_message(world.channel).content


async def test_forfeit_places_a_larger_games_seat_last_and_bots_play_it(world: Any, db_path: str) -> None:
    alice, bob, carol = (world.members[n] for n in ("alice", "bob", "carol"))
    await alice.slash(world.channel, "game new", game="pentawar", turn_time="30s", on_timeout="forfeit")
    await bob.slash(world.channel, "game join")
    await carol.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    first = seats_to_act(latest_table_message(world.channel))[0]
    await world.env.advance_time(31)
    assert rows(db_path, "SELECT stand_in FROM seats WHERE user_id = ?", (first,)) == [(2,)]
    assert rows(db_path, "SELECT status FROM game_tables") == [("playing",)]
    # Another player resigns: one player is left, who wins; the two who left share last place.
    by_id = {m.id: m for m in (alice, bob, carol)}
    others = [m for uid, m in by_id.items() if uid != first]
    await refused_while_the_bot_plays(world, by_id[first], db_path, "gave up this seat")
    resigned = await others[0].slash(world.channel, "game resign")
    assert "resigns" in answer_text(resigned)
    places = dict(rows(db_path, "SELECT user_id, place FROM results"))
    assert places == {others[1].id: 1, others[0].id: 2, first: 2}


async def test_three_timeouts_hand_the_seat_to_a_bot_and_return_takes_it_back(world: Any, db_path: str) -> None:
    mover, other = await two_player(world, turn_time="30s")
    for _ in range(3):
        while seats_to_act(latest_table_message(world.channel)) == [other.id]:
            await play_own_move(world, other)
        await world.env.advance_time(31)
    assert rows(db_path, "SELECT timeouts, stand_in FROM seats WHERE user_id = ?", (mover.id,)) == [(3, 1)]
    assert messages_with(world.channel, "a bot plays their seat from now on")
    # The bot plays the seat without waiting for a deadline now: it is the other player's turn again.
    assert seats_to_act(latest_table_message(world.channel)) == [other.id]
    await play_own_move(world, other)
    assert seats_to_act(latest_table_message(world.channel)) == [other.id]
    assert rows(db_path, "SELECT COUNT(*) FROM timers WHERE kind = 'deadline' AND seat IN"
                         " (SELECT position FROM seats WHERE user_id = ?)", (mover.id,)) == [(0,)]
    # While the bot plays the seat, its member has no move to make: it would race the bot's.
    await refused_while_the_bot_plays(world, mover, db_path, "/game return")
    back = await mover.slash(world.channel, "game return")
    assert "back" in answer_text(back)
    assert rows(db_path, "SELECT timeouts, stand_in FROM seats WHERE user_id = ?", (mover.id,)) == [(0, 0)]


async def test_replace_moves_a_seat_to_a_new_member(world: Any, db_path: str) -> None:
    mover, other = await two_player(world)
    carol = world.members["carol"]
    alice = world.members["alice"]
    refused = await world.members["dave"].slash(world.channel, "game replace", player=other, **{"with": carol})
    assert "Only the table's host" in answer_text(refused)
    done = await alice.slash(world.channel, "game replace", player=other, **{"with": carol})
    assert f"<@{carol.id}> takes over" in answer_text(done)
    message = latest_table_message(world.channel)
    mine = await world.members["carol"].click(message, label="Hand / act")
    assert mine.ephemeral and "you are **carol**" in answer_text(mine)
    gone = await other.click(message, label="Hand / act")
    assert "not playing" in answer_text(gone)
    assert rows(db_path, "SELECT kind, user_id FROM seat_events") == [("replace", carol.id)]
    del mover


async def test_pause_stops_the_clock_and_resume_gives_the_time_left(world: Any, db_path: str) -> None:
    await two_player(world, turn_time="60s")
    alice = world.members["alice"]
    await world.env.advance_time(20)
    paused = await alice.slash(world.channel, "game pause")
    assert "paused" in answer_text(paused)
    status = await alice.slash(world.channel, "game status")
    assert "Paused" in answer_text(status) and "turn_time: 1m" in answer_text(status), answer_text(status)
    await world.env.advance_time(3600)
    assert rows(db_path, "SELECT COUNT(*) FROM actions") == [(0,)]
    await alice.slash(world.channel, "game resume")
    await world.env.advance_time(39)
    assert rows(db_path, "SELECT COUNT(*) FROM actions") == [(0,)]
    await world.env.advance_time(2)
    assert timeouts(db_path) == 1


async def test_two_thread_tables_in_one_channel_play_to_the_end_side_by_side(world: Any, db_path: str) -> None:
    alice, bob, carol, dave = (world.members[n] for n in ("alice", "bob", "carol", "dave"))
    for host in (alice, carol):
        opened = await host.slash(world.channel, "game new", game="pentawar", thread=True)
        assert "plays in" in answer_text(opened), answer_text(opened)
    threads = world.channel.threads
    assert len(threads) == 2
    pairs = [(threads[0], alice, bob), (threads[1], carol, dave)]
    for thread, host, guest in pairs:
        await guest.slash(thread, "game join")
        started = await host.slash(thread, "game start")
        assert "The game begins" in answer_text(started)
    by_id = {m.id: m for m in (alice, bob, carol, dave)}
    rng = random.Random(4)
    for _ in range(400):
        active = [(t, h, g) for t, h, g in pairs if "Game over" not in latest_table_message(t).content]
        if not active:
            break
        thread, _, _ = rng.choice(active)
        member = by_id[seats_to_act(latest_table_message(thread))[0]]
        choices = await member.autocomplete(thread, "play", "action", "")
        await member.slash(thread, "play", action=rng.choice(choices)["value"])
    assert rows(db_path, "SELECT status FROM game_tables") == [("finished",), ("finished",)]
    assert {r[0] for r in rows(db_path, "SELECT channel_id FROM game_tables")} == {t.id for t in threads}
    # The result is posted in the parent channel too, and the threads are archived a little later.
    assert len(messages_with(world.channel, "Game over")) == 2
    await world.env.advance_time(200)
    assert rows(db_path, "SELECT COUNT(*) FROM timers") == [(0,)]


async def test_a_thread_whose_archiving_fails_is_archived_on_the_retry(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pentawar", thread=True, turn_time="30s",
                      on_timeout="forfeit")
    thread = world.channel.threads[0]
    await bob.slash(thread, "game join")
    await alice.slash(thread, "game start")
    await world.env.advance_time(31)  # the first player forfeits: a two-player game is over
    assert rows(db_path, "SELECT status FROM game_tables") == [("finished",)]
    world.env.inject_error("PATCH", "/channels/*", status=500)
    await world.env.advance_time(121)
    assert not world.env.backend.archived_threads(world.channel.id, private=False)
    assert rows(db_path, "SELECT kind FROM timers") == [("archive",)], "kept for the retry"
    await world.env.advance_time(61)
    assert rows(db_path, "SELECT COUNT(*) FROM timers") == [(0,)]
    assert [t["id"] if isinstance(t, dict) else t.id for t in
            world.env.backend.archived_threads(world.channel.id, private=False)] == [thread.id]


async def test_thread_limit_is_refused_plainly_and_opens_no_table(world: Any, db_path: str) -> None:
    world.env.inject_error("POST", "/channels/*/threads", status=400, code=160006,
                           message="Maximum number of active threads reached")
    result = await world.members["alice"].slash(world.channel, "game new", game="pentawar", thread=True)
    assert result.ephemeral and "limit of active threads" in answer_text(result)
    assert rows(db_path, "SELECT COUNT(*) FROM game_tables") == [(0,)]


async def test_a_thread_that_cannot_be_posted_in_leaves_no_table(world: Any, db_path: str) -> None:
    world.env.inject_error("POST", "/channels/*/messages", status=403, code=50013, message="Missing Permissions")
    result = await world.members["alice"].slash(world.channel, "game new", game="pentawar", thread=True)
    assert result.ephemeral and "Send Messages in Threads" in answer_text(result), answer_text(result)
    assert rows(db_path, "SELECT status, end_reason FROM game_tables") == [
        ("abandoned", "the bot could not post in its thread")]
    assert not world.channel.threads
    again = await world.members["alice"].slash(world.channel, "game new", game="pentawar", thread=True)
    assert "plays in" in answer_text(again), answer_text(again)


async def test_a_channel_that_cannot_hold_threads_is_refused_plainly(world: Any, db_path: str) -> None:
    voice = world.guild.create_voice_channel("voice")
    result = await world.members["alice"].slash(voice, "game new", game="pentawar", thread=True)
    assert result.ephemeral and "Threads can't be opened" in answer_text(result), answer_text(result)
    assert rows(db_path, "SELECT COUNT(*) FROM game_tables") == [(0,)]


async def test_game_mine_lists_tables_in_two_channels_with_your_turn_first(world: Any) -> None:
    second = world.guild.create_text_channel("slow-games")
    alice, bob = world.members["alice"], world.members["bob"]
    for channel in (world.channel, second):
        await world.env.advance_time(3)  # alice's new_cooldown between two /game new
        await alice.slash(channel, "game new", game="pentawar", turn_time="1d")
        await bob.slash(channel, "game join")
        await alice.slash(channel, "game start")
    # Make it alice's turn in one channel and bob's in the other.
    for channel, wanted in ((world.channel, alice.id), (second, bob.id)):
        while seats_to_act(latest_table_message(channel)) != [wanted]:
            mover = alice if seats_to_act(latest_table_message(channel)) == [alice.id] else bob
            await play_own_move(world, mover, channel)
    listing = answer_text(await alice.slash(second, "game mine"))
    lines = [line for line in listing.splitlines() if "table #" in line]
    assert len(lines) == 2
    assert "your turn" in lines[0] and f"/{world.channel.id}" in lines[0]
    assert "waiting for bob" in lines[1] and f"/{second.id}" in lines[1] and "<t:" in lines[1]
    tables = answer_text(await bob.slash(world.channel, "game tables"))
    assert "Running tables" in tables and tables.count("table #") == 2


async def test_config_is_for_managers_and_its_defaults_apply_to_the_next_table(world: Any, db_path: str) -> None:
    bob = world.members["bob"]
    with pytest.raises(simcord.SetupError):
        await bob.slash(world.channel, "config show")
    mona = await manager(world)
    bad = await mona.slash(world.channel, "config set", setting="turn_time", value="5s")
    assert "between" in answer_text(bad)
    assert rows(db_path, "SELECT COUNT(*) FROM guild_settings") == [(0,)]
    for setting, value in (("turn_time", "2h"), ("on_timeout", "forfeit"), ("thread", "on")):
        done = await mona.slash(world.channel, "config set", setting=setting, value=value)
        assert "is now" in answer_text(done), answer_text(done)
    shown = answer_text(await mona.slash(world.channel, "config show"))
    assert "2h" in shown and "forfeit" in shown
    assert len(rows(db_path, "SELECT user_id FROM settings_log WHERE user_id = ?", (mona.id,))) == 3
    await bob.slash(world.channel, "game new", game="pentawar")
    assert rows(db_path, "SELECT turn_time, on_timeout, parent_id FROM game_tables") == [
        (7200, "forfeit", world.channel.id)]


async def test_turn_time_is_checked_and_a_bad_one_opens_no_table(world: Any, db_path: str) -> None:
    for bad in ("10", "5s", "15d", "1x", "1d 2h", "-3m", "²m"):
        result = await world.members["alice"].slash(world.channel, "game new", game="pentawar", turn_time=bad)
        assert (result.ephemeral and "90s" in answer_text(result)) or "between" in answer_text(result), bad
    assert rows(db_path, "SELECT COUNT(*) FROM game_tables") == [(0,)]


SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


async def test_the_king_pedro_log_never_shows_a_hidden_card(world: Any, db_path: str) -> None:
    alice = world.members["alice"]
    await alice.slash(world.channel, "game new", game="king_pedro", options="target=30 max_rounds=1")
    for _ in range(3):
        await alice.slash(world.channel, "game addbot")
    await alice.slash(world.channel, "game start")
    await play_randomly(world, random.Random(2))
    result = await alice.slash(world.channel, "game log")
    attachment = result.response.attachments[0]
    text = (await attachment.read()).decode()
    hidden = [a for a, label in rows(db_path, "SELECT action, label FROM actions") if "face down" in label]
    assert hidden, "the game had face-down discards"
    for action in hidden:
        card = action.split(":")[1]
        pretty = card[:-1] + SUITS[card[-1]]
        assert card not in text and pretty not in text, f"{card} was discarded face down but shows in the log"
    assert len([line for line in text.splitlines() if re.match(r"\s+\d+\s+\d{4}-", line)]) == len(
        rows(db_path, "SELECT 1 FROM actions"))
    replayed = await alice.slash(world.channel, "game replay", move=3)
    assert replayed.ephemeral and replayed.response.attachments[0].description


async def test_direct_messages_at_your_turn_and_a_closed_dm_falls_back_to_the_channel(
        world: Any, caplog: pytest.LogCaptureFixture) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    for member in (alice, bob):
        done = await member.slash(world.channel, "game notify", dm="on")
        assert "direct message" in answer_text(done)
    mover, other = await two_player(world, turn_time="1h")
    dms = [m.content for m in mover.user.dm_channel.history()]
    assert len(dms) == 1 and "your turn" in dms[0] and "Deckhand Test" in dms[0] and "Pentawar" in dms[0]
    assert f"/{world.channel.id}/" in dms[0], "the DM links to the table message"
    # The other player's DMs are closed: the move still goes through and the channel ping still names them.
    world.env.inject_error("POST", f"/channels/{other.user.dm_channel.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user")
    caplog.set_level("INFO")
    await play_own_move(world, mover)
    assert f"<@{other.id}>" in latest_table_message(world.channel).content
    assert [r for r in caplog.records if "refused" in r.getMessage() and r.levelname == "INFO"]
    await world.env.advance_time(1800)
    assert len(messages_with(world.channel, "half your time")) == 1


async def test_a_lobby_that_never_starts_closes_itself(world: Any, db_path: str) -> None:
    await world.members["alice"].slash(world.channel, "game new", game="pentawar")
    await world.env.advance_time(3 * 86400 - 60)
    assert rows(db_path, "SELECT status FROM game_tables") == [("lobby",)]
    await world.env.advance_time(120)
    assert rows(db_path, "SELECT status FROM game_tables") == [("abandoned",)]
    assert messages_with(world.channel, "closed itself")


async def test_a_missing_thread_permission_is_refused_plainly(world: Any, db_path: str) -> None:
    me = world.guild.me if hasattr(world.guild, "me") else None
    if me is None:
        pytest.skip("SimCord handle has no bot member")
    locked = world.guild.create_text_channel(
        "locked", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)})
    result = await world.members["alice"].slash(locked, "game new", game="pentawar", thread=True)
    assert result.ephemeral and "Create Public Threads" in answer_text(result)
    assert rows(db_path, "SELECT COUNT(*) FROM game_tables") == [(0,)]


async def test_every_stored_time_comes_from_discords_clock(world: Any, db_path: str) -> None:
    """SimCord's virtual clock starts on 2026-01-01; a wall-clock read anywhere would show today's date."""
    await two_player(world, turn_time="60s")
    await world.env.advance_time(61)
    latest = world.env.now().timestamp()
    times = [r[0] for r in rows(db_path, "SELECT applied_at FROM schema_version")]
    times += [t for r in rows(db_path, "SELECT created_at, updated_at FROM game_tables") for t in r]
    times += [r[0] for r in rows(db_path, "SELECT at FROM actions")]
    times += [r[0] for r in rows(db_path, "SELECT at FROM seat_events")]
    assert times and all(latest - 3600 <= t <= latest for t in times), (times, latest)


async def test_seats_due_at_the_same_instant_share_one_reminder(world: Any) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="do_over", turn_time="60s")
    lobby = latest_lobby(world)
    assert "turn_time: 1m" in lobby, "the lobby shows the clock"
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    # Do Over!'s swap step: both seats come to act at once, each with its own deadline.
    await world.env.advance_time(31)
    reminders = messages_with(world.channel, "half your time")
    assert len(reminders) == 1
    assert f"<@{alice.id}>" in reminders[0].content and f"<@{bob.id}>" in reminders[0].content


def latest_lobby(world: Any) -> str:
    for message in reversed(world.channel.history()):
        for embed in message.embeds:
            if "table #" in (embed.title or ""):
                return "\n".join(f"{f.name}: {f.value}" for f in embed.fields)
    raise AssertionError("no lobby message")


async def test_reminders_off_posts_none(world: Any) -> None:
    mona = await manager(world)
    await mona.slash(world.channel, "config set", setting="reminders", value="off")
    await two_player(world, turn_time="60s")
    await world.env.advance_time(45)
    assert not messages_with(world.channel, "half your time")


async def test_game_channels_limits_where_tables_open(world: Any, db_path: str) -> None:
    mona = await manager(world)
    other = world.guild.create_text_channel("the-card-room")
    done = await mona.slash(world.channel, "config set", setting="game_channels", value=f"<#{other.id}>")
    assert "is now" in answer_text(done)
    refused = await world.members["alice"].slash(world.channel, "game new", game="pentawar")
    assert refused.ephemeral and f"<#{other.id}>" in answer_text(refused)
    assert rows(db_path, "SELECT COUNT(*) FROM game_tables") == [(0,)]
    opened = await world.members["alice"].slash(other, "game new", game="pentawar")
    assert not opened.ephemeral


async def test_a_move_committed_but_never_posted_is_posted_at_start(world: Any, db_path: str) -> None:
    mover, _ = await two_player(world)
    tables = world.env.bot.tables
    table_id = rows(db_path, "SELECT id FROM game_tables")[0][0]
    table = await tables.get(table_id)
    state = await tables.state(table)
    engine = tables.engine_of(table)
    seat = engine.to_act(state)[0]
    # A crash between the commit and the post: the move is in the log, the channel never heard of it.
    outcome = await tables.act(table_id, mover.id, engine.legal_actions(state, seat)[0], table.version)
    assert rows(db_path, "SELECT posted_version < version FROM game_tables") == [(1,)]
    await world.env.restart_bot(create_bot())
    assert rows(db_path, "SELECT posted_version = version FROM game_tables") == [(1,)]
    assert outcome.line.replace("**", "") in latest_table_message(world.channel).content.replace("**", "")
