"""The tournament commands one by one: every refusal is clear and changes nothing; check-in, drop,
advance, paged standings, status, cancel, restarts in registration and mid-round; /rating and
/leaderboard."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import discord
import pytest
from simcord.backend.errors import OptionError

from bot import create_bot
from cogs.guard import APOLOGY
from cogs.tournament import TournamentCog
from tests.e2e.driver import components, latest_table_message
from tests.e2e.test_reliability_e2e import answer_text
from tests.e2e.test_tournament_e2e import BOT_PACE, human_turn, pace_bots, playing_threads, rows, tournament

# Members other than managers open tournaments here (issue 26's tournament_creators, set through /config).
pytestmark = [pytest.mark.asyncio, pytest.mark.usefixtures("open_tournaments")]


def snapshot(db_path: str) -> list[Any]:
    """Everything a tournament command could change."""
    out = []
    for table in ("tournaments", "entrants", "rounds", "tournament_tables", "byes", "game_tables", "ratings"):
        try:
            out.append([tuple(r) for r in rows(db_path, f"SELECT * FROM {table} ORDER BY 1")])
        except sqlite3.OperationalError:
            out.append(None)
    return out


async def refused(member: Any, channel: Any, db_path: str, command: str, needle: str, **options: Any) -> None:
    before = snapshot(db_path)
    result = await member.slash(channel, command, **options)
    text = answer_text(result)
    assert needle.lower() in text.lower(), text
    assert result.ephemeral
    assert snapshot(db_path) == before, f"/{command} {options} changed something"


def button(message: Any, label: str) -> str:
    return next(c["custom_id"] for c in components(message) if c.get("label") == label)


def signup(world: Any) -> Any:
    return next(m for m in world.channel.history() if m.embeds and m.embeds[0].fields
                and m.embeds[0].title.startswith("🏆"))


async def test_every_refusal_is_clear_and_changes_nothing(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    ch = world.channel
    await refused(alice, ch, db_path, "tournament new", "seats 2 to 5", game="pentawar", format="swiss",
                  table_size=7)
    await refused(alice, ch, db_path, "tournament new", "Use format swiss", game="do_over", format="round_robin",
                  table_size=4)
    await refused(alice, ch, db_path, "tournament new", "top_cut:4", game="do_over", format="single_elimination",
                  table_size=4)
    await refused(alice, ch, db_path, "tournament new", "power of two", game="pedwar", format="swiss", top_cut=3)
    await refused(alice, ch, db_path, "tournament new", "must be 0 or 4", game="do_over", format="swiss",
                  table_size=4, top_cut=8)
    await refused(alice, ch, db_path, "tournament new", "isn't a duration", game="pedwar", format="swiss",
                  turn_time="soon")
    # Discord keeps rounds within the option's bounds, 1 to 20 (the host refuses past them all the same:
    # tests/host/tournaments/test_service_rules.py).
    rounds = next(p for p in TournamentCog.tournament.get_command("new").parameters if p.name == "rounds")
    assert (rounds.min_value, rounds.max_value) == (1, 20)
    with pytest.raises(OptionError, match="must be ≤ 20"):
        await alice.slash(ch, "tournament new", game="pedwar", format="swiss", rounds=21)
    await refused(alice, ch, db_path, "tournament join", "no tournament in this channel")
    await alice.slash(ch, "tournament new", game="pedwar", format="swiss", top_cut=4)
    await refused(bob, ch, db_path, "tournament new", "already runs a tournament", game="do_over", format="swiss")
    await bob.slash(ch, "tournament join")
    await refused(bob, ch, db_path, "tournament join", "already entered")
    await refused(bob, ch, db_path, "tournament addbot", "Only the organiser")
    await refused(bob, ch, db_path, "tournament start", "Only the organiser")
    await refused(bob, ch, db_path, "tournament checkin", "Only the organiser")
    await refused(bob, ch, db_path, "tournament cancel", "Only the organiser")
    await refused(bob, ch, db_path, "tournament drop", "has not started")
    await refused(alice, ch, db_path, "tournament start", "needs at least 4 entrants")
    await alice.slash(ch, "tournament addbot", count=3, level="easy")
    await pace_bots(world)
    await alice.slash(ch, "tournament start")
    await refused(world.members["carol"], ch, db_path, "tournament join", "already started")
    await refused(bob, ch, db_path, "tournament leave", "/tournament drop")
    await refused(bob, ch, db_path, "tournament advance", "Only the organiser")
    await refused(alice, ch, db_path, "tournament advance", "no `round_time`")


async def test_check_in_drops_those_who_did_not_and_tells_them(world: Any, db_path: str) -> None:
    alice, bob, carol = world.members["alice"], world.members["bob"], world.members["carol"]
    await pace_bots(world)
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss", rounds=1)
    for member in (alice, bob, carol):
        await member.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament checkin")
    message = signup(world)
    assert "Check in" in [c.get("label") for c in components(message)]
    for member in (alice, bob):
        result = await member.click(message, custom_id=button(message, "Check in"))
        assert result.acknowledged
    again = await bob.click(signup(world), custom_id=button(signup(world), "Check in"))
    assert "already checked in" in answer_text(again)
    result = await alice.slash(world.channel, "tournament start")
    told = answer_text(result)
    assert "Dropped for not checking in" in told and f"<@{carol.id}>" in told
    assert rows(db_path, "SELECT left_reason FROM entrants WHERE user_id = ?", (carol.id,))[0][0] == "no_show"
    seated = {json_id for r in rows(db_path, "SELECT seats FROM tournament_tables") for json_id in json.loads(r[0])}
    entrant = rows(db_path, "SELECT id FROM entrants WHERE user_id = ?", (carol.id,))[0][0]
    assert entrant not in seated


async def test_drop_forfeits_the_seat_and_advance_draws_the_rest(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    carol, dave = world.members["carol"], world.members["dave"]
    await pace_bots(world)
    await alice.slash(world.channel, "tournament new", game="do_over", format="swiss", rounds=2, round_time="1d")
    for member in (alice, bob, carol, dave):
        await member.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament start")
    threads = playing_threads(world, db_path)
    assert len(threads) == 2
    # Bob drops: his table ends at once (his opponent is the only one left), and he is not paired again.
    result = await bob.slash(world.channel, "tournament drop")
    assert "dropped" in answer_text(result)
    bob_table = rows(db_path, "SELECT g.id, g.status FROM game_tables g JOIN seats s ON s.table_id = g.id"
                              " WHERE s.user_id = ?", (bob.id,))[0]
    assert bob_table[1] == "finished"
    # Too early to end the round.
    result = await alice.slash(world.channel, "tournament advance")
    assert "runs until" in answer_text(result)
    await world.env.advance_time(86400 + 60)
    result = await alice.slash(world.channel, "tournament advance")
    assert "ended as draws" in answer_text(result)
    drawn = rows(db_path, "SELECT table_id FROM tournament_tables WHERE round = 1 AND drawn = 1")
    assert len(drawn) == 1
    assert {r[0] for r in rows(db_path, "SELECT place FROM results WHERE table_id = ?", (drawn[0][0],))} == {1}
    thread = next(t for t in world.channel.threads if t.id == rows(
        db_path, "SELECT channel_id FROM game_tables WHERE id = ?", (drawn[0][0],))[0][0])
    said = [" ".join([m.content or "", *(e.description or "" for e in m.embeds)]) for m in thread.history()]
    assert any("ends as a **draw**" in (c or "") for c in said), said[-3:]
    # Round 2 was paired without bob.
    assert rows(db_path, "SELECT COUNT(*) FROM rounds")[0][0] == 2
    bob_entrant = rows(db_path, "SELECT id FROM entrants WHERE user_id = ?", (bob.id,))[0][0]
    for r in rows(db_path, "SELECT seats FROM tournament_tables WHERE round = 2"):
        assert bob_entrant not in json.loads(r[0])


async def test_standings_page_with_buttons_that_survive_a_restart(world: Any, db_path: str) -> None:
    alice = world.members["alice"]
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss")
    await alice.slash(world.channel, "tournament addbot", count=25, level="easy")
    await world.env.restart_bot(create_bot())  # registration survives a restart
    await alice.slash(world.channel, "tournament join")
    assert rows(db_path, "SELECT COUNT(*) FROM entrants")[0][0] == 26
    result = await alice.slash(world.channel, "tournament standings")
    page = result.response
    assert page.embeds[0].title.endswith("(1/2)")
    ids = [c["custom_id"] for c in components(page)]
    assert ids == ["dh:p:1:1", "dh:p:1:2"]
    await world.env.restart_bot(create_bot())
    nxt = await alice.click(page, custom_id="dh:p:1:2")
    assert nxt.response.embeds[0].title.endswith("(2/2)")


async def test_status_links_the_tables_and_a_restart_mid_round_loses_nothing(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await pace_bots(world)
    await alice.slash(world.channel, "tournament new", game="do_over", format="round_robin")
    await alice.slash(world.channel, "tournament join")
    await bob.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament addbot", count=2, level="easy")
    await alice.slash(world.channel, "tournament start")
    result = await bob.slash(world.channel, "tournament status")
    text = answer_text(result)
    threads = playing_threads(world, db_path)
    assert all(f"<#{t.id}>" in text for t in threads) and "0 of 2 tables finished" in text
    by_id = {m.id: m for m in world.members.values()}
    for thread in threads:
        await human_turn(thread, by_id, __import__("random").Random(1))
    before = snapshot(db_path)
    await world.env.restart_bot(create_bot())
    assert snapshot(db_path) == before
    await world.env.advance_time(BOT_PACE * 3)
    text = answer_text(await bob.slash(threads[0], "tournament status"))  # from a table's thread too
    assert "Round 1 of 3" in text


async def alice_and_bob_playing(world: Any) -> Any:
    """A Pedwar Swiss event of alice and bob, started (bots paced); returns alice, its organiser."""
    alice = await pace_bots(world)
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss")
    await alice.slash(world.channel, "tournament join")
    await world.members["bob"].slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament start")
    return alice


async def test_cancel_closes_the_tables_in_play(world: Any, db_path: str) -> None:
    alice = await alice_and_bob_playing(world)
    [thread] = playing_threads(world, db_path)
    result = await alice.slash(world.channel, "tournament cancel")
    assert "cancelled" in answer_text(result)
    assert tournament(db_path)["status"] == "cancelled"
    assert [r[0] for r in rows(db_path, "SELECT status FROM game_tables")] == ["abandoned"]
    # Its thread says why, and the table message there offers no more controls.
    said = [m.content or "" for m in thread.history()]
    assert any("was cancelled" in text and "closed" in text for text in said), said
    table = latest_table_message(thread)
    assert "abandoned" in table.content and not table.components
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss")  # the channel is free again


async def test_rating_and_leaderboard(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    result = await alice.slash(world.channel, "rating")
    assert "no rated games" in answer_text(result)
    for _ in range(5):
        await world.env.advance_time(3)  # alice's new_cooldown between two /game new
        await alice.slash(world.channel, "game new", game="do_over")
        await bob.slash(world.channel, "game join")
        await alice.slash(world.channel, "game start")
        await bob.slash(world.channel, "game resign")  # a finished table with two humans: rated
    text = answer_text(await bob.slash(world.channel, "rating", member=alice, game="do_over"))
    stored = rows(db_path, "SELECT mu, sigma, games FROM ratings WHERE user_id = ?", (alice.id,))[0]
    # One plain number on a familiar scale (a new player starts at 1,000); μ and σ in the details view.
    shown = round(1000 + 40 * (stored[0] - 3 * stored[1]))
    assert f"**{shown:,}** · 5 rated games" in text and "μ" not in text, text
    detailed = answer_text(await bob.slash(world.channel, "rating", member=alice, game="do_over", details=True))
    assert f"**{shown:,}**" in detailed and f"μ {stored[0]:.2f}, σ {stored[1]:.2f}" in detailed, detailed
    board = await alice.slash(world.channel, "leaderboard", game="do_over")
    lines = board.response.embeds[0].description.splitlines()
    assert lines[0].startswith(f"1. <@{alice.id}>") and lines[1].startswith(f"2. <@{bob.id}>")
    result = await alice.slash(world.channel, "leaderboard", game="pentawar")
    assert "Nobody has 5 rated games" in answer_text(result)


async def one_round_signed_up(world: Any) -> Any:
    """A one-round Pedwar Swiss event of alice and bob, not started (bots paced); returns alice."""
    alice = await pace_bots(world)
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss", rounds=1)
    await alice.slash(world.channel, "tournament join")
    await world.members["bob"].slash(world.channel, "tournament join")
    return alice


async def test_a_round_is_seated_once_even_when_threads_fail_and_the_bot_restarts(world: Any, db_path: str) -> None:
    alice = await one_round_signed_up(world)
    await alice.slash(world.channel, "tournament addbot", count=2, level="easy")
    # Discord refuses the second thread: the round is already committed, one table is seated.
    world.env.inject_error("POST", "/channels/*/threads", status=400, code=160006,
                           message="Maximum number of active threads reached")
    await alice.slash(world.channel, "tournament start")
    assert rows(db_path, "SELECT COUNT(*) FROM rounds")[0][0] == 1
    assert [r[0] for r in rows(db_path, "SELECT status FROM tournament_tables ORDER BY position")] == \
        ["pending", "pending"]
    assert any("couldn't open a thread" in (m.content or "") for m in world.channel.history())
    pairings = [m for m in world.channel.history() if m.embeds and "Round 1 of 1" in (m.embeds[0].title or "")]
    assert pairings == [], "pairings wait until every table is seated"
    # After a restart, the pending tables are seated where the round stopped, and announced once.
    await world.env.restart_bot(create_bot())
    assert [r[0] for r in rows(db_path, "SELECT status FROM tournament_tables ORDER BY position")] == \
        ["playing", "playing"]
    assert rows(db_path, "SELECT COUNT(*) FROM rounds")[0][0] == 1
    assert len(rows(db_path, "SELECT * FROM game_tables")) == 2
    await world.env.restart_bot(create_bot())
    pairings = [m for m in world.channel.history() if m.embeds and "Round 1 of 1" in (m.embeds[0].title or "")]
    assert len(pairings) == 1 and len(world.channel.threads) == 2


async def test_game_channels_also_limits_where_tournaments_open(world: Any, db_path: str) -> None:
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    other = world.guild.create_text_channel("the-card-room")
    await mona.slash(world.channel, "config set", setting="game_channels", value=f"<#{other.id}>")
    await refused(world.members["alice"], world.channel, db_path, "tournament new", f"<#{other.id}>",
                  game="pedwar", format="swiss")
    opened = await world.members["alice"].slash(other, "tournament new", game="pedwar", format="swiss")
    assert not opened.ephemeral and tournament(db_path)["channel_id"] == other.id


async def click_all(messages: list[Any], clickers: list[Any]) -> int:
    """Click every enabled button of every message as each clicker: each gets a real answer."""
    clicks = 0
    for message in messages:
        for component in components(message):
            if component.get("type") != 2 or component.get("disabled"):
                continue
            for member in clickers:
                text = answer_text(await member.click(message, custom_id=component["custom_id"]))
                assert text.strip() and APOLOGY not in text, f"{member.name} on {component['custom_id']}: {text}"
                clicks += 1
    return clicks


async def test_every_tournament_control_is_answered_before_and_after_a_restart(world: Any, db_path: str) -> None:
    alice, carol = world.members["alice"], world.members["carol"]
    await pace_bots(world)
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss", rounds=1)
    await alice.slash(world.channel, "tournament addbot", count=24, level="easy")
    await alice.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament checkin")
    pages = (await carol.slash(world.channel, "tournament standings")).response

    def ours() -> list[Any]:
        return [m for m in world.channel.history() if not m.flags.ephemeral and components(m)]

    clicks = await click_all(ours(), [alice, carol]) + await click_all([pages], [carol])
    await world.env.restart_bot(create_bot())
    clicks += await click_all(ours(), [alice, carol]) + await click_all([pages], [carol])
    await alice.slash(world.channel, "tournament start")
    clicks += await click_all(ours(), [alice, carol])
    assert clicks >= 20
    assert tournament(db_path)["status"] == "playing"


async def test_a_tournament_table_cannot_be_abandoned_while_the_event_runs(world: Any, db_path: str) -> None:
    alice = await alice_and_bob_playing(world)
    [thread] = playing_threads(world, db_path)
    await refused(alice, thread, db_path, "game abandon", "/tournament advance")
    await alice.slash(world.channel, "tournament cancel")
    assert [r[0] for r in rows(db_path, "SELECT status FROM game_tables")] == ["abandoned"]


async def test_a_table_dealt_just_before_a_restart_gets_its_first_message_after_it(world: Any, db_path: str) -> None:
    alice = await one_round_signed_up(world)
    # The round is committed, but the bot stops before any thread: a thread is opened and its table
    # dealt as the bot would, then the bot stops before posting the table's first message.
    bot = world.env.bot
    record = await bot.tournaments.require(world.channel.id)
    world.env.inject_error("POST", "/channels/*/threads", status=400, code=160006, message="limit")
    await alice.slash(world.channel, "tournament start")
    [place] = await bot.tournaments.pending(record.id)
    thread = await bot.get_channel(world.channel.id).create_thread(name="table", type=discord.ChannelType.public_thread)
    await bot.tournaments.seat(place, thread.id)
    assert rows(db_path, "SELECT message_id FROM game_tables")[0][0] is None
    await world.env.restart_bot(create_bot())
    posted = rows(db_path, "SELECT message_id FROM game_tables")[0][0]
    assert posted is not None
    opened = next(t for t in world.channel.threads if t.id == thread.id)
    assert any("The game begins" in (m.content or "") for m in opened.history())
    assert len([m for m in world.channel.history() if m.embeds and "Round 1 of 1" in (m.embeds[0].title or "")]) == 1


async def test_a_tournament_whose_answer_fails_still_gets_its_signup_message(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    world.env.inject_error("POST", "/interactions/*/callback", status=500)
    opened = await alice.slash(world.channel, "tournament new", game="pentawar", format="swiss", name="Cup")
    assert "open for registration" in answer_text(opened), answer_text(opened)
    assert rows(db_path, "SELECT message_id IS NOT NULL FROM tournaments")[0][0] == 1
    await bob.slash(world.channel, "tournament join")
    assert "bob" in str(signup(world).embeds[0].fields), "the sign-up message still follows the entrants"
