"""Issue 30 through SimCord on its virtual clock: a tournament on the calendar (its Discord scheduled
event created, moved, cancelled and completed; the check-in opening and pinging once; the start with
only the checked-in players; a restart in between), registration rules, penalties and notes."""

from __future__ import annotations

import json
import random
from datetime import datetime
from typing import Any

import discord
import pytest

from bot import create_bot
from tests.e2e.test_reliability_e2e import answer_text
from tests.e2e.test_tournament_commands_e2e import refused
from tests.e2e.test_tournament_e2e import pace_bots, play_round, rows, tournament

# Members other than managers open tournaments here (issue 26's tournament_creators, set through /config).
pytestmark = [pytest.mark.asyncio, pytest.mark.usefixtures("open_tournaments")]

SCHEDULED, ACTIVE, COMPLETED, CANCELLED = 1, 2, 3, 4


def events(world: Any) -> list[Any]:
    return list(world.env.backend.get_guild(world.guild.id).scheduled_events.values())


def instant(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def now(world: Any) -> float:
    return world.env.now().timestamp()


def checkin_pings(world: Any) -> list[Any]:
    return [m for m in world.channel.history() if "Check-in is open for" in (m.content or "")]


async def test_a_scheduled_tournament_checks_in_starts_and_completes_its_event(world: Any, db_path: str) -> None:
    alice = await pace_bots(world)
    bob, carol, dave = (world.members[n] for n in ("bob", "carol", "dave"))
    ch = world.channel
    start = now(world) + 2 * 3600
    await alice.slash(ch, "tournament new", game="pedwar", format="swiss", rounds=1, starts_at="in 2h",
                      checkin_minutes=30)
    [event] = events(world)
    assert instant(event.scheduled_start_time) == pytest.approx(start, abs=2)
    assert event.entity_type == 3 and event.status == SCHEDULED
    assert event.entity_metadata["location"] == f"https://discord.com/channels/{world.guild.id}/{ch.id}"
    assert "Swiss" in event.description
    assert instant(event.scheduled_end_time) > start
    assert tournament(db_path)["event_id"] == event.id
    for member in (alice, bob, carol, dave):
        await member.slash(ch, "tournament join")
    await world.env.advance_time(89 * 60)
    assert not checkin_pings(world) and not tournament(db_path)["checkin"], "the check-in opened early"
    await world.env.advance_time(2 * 60)
    [ping] = checkin_pings(world)
    assert tournament(db_path)["checkin"]
    pinged = {m.id for m in ping.mentions}
    assert pinged == {m.id for m in (alice, bob, carol, dave)}
    for member in (alice, bob, carol):
        result = await member.slash(ch, "tournament checkin")
        assert result.ephemeral and "checked in" in answer_text(result)
    await world.env.restart_bot(create_bot())  # between the check-in and the start: nothing changes
    await world.env.advance_time(20 * 60)
    assert len(checkin_pings(world)) == 1, "the check-in pinged twice"
    assert tournament(db_path)["status"] == "registration"
    await world.env.advance_time(10 * 60)
    assert tournament(db_path)["status"] == "playing"
    played = {r["user_id"] for r in rows(db_path, "SELECT user_id FROM entrants WHERE left_reason IS NULL")}
    assert played == {alice.id, bob.id, carol.id}, "only the checked-in players start"
    assert any("has started with 3 entrants" in (m.content or "") for m in ch.history())
    [event] = events(world)
    assert event.status == ACTIVE
    first_end = instant(event.scheduled_end_time)
    # The round runs past the announced end: the end is pushed later before it comes, so the event stays on.
    await world.env.advance_time(first_end - now(world) + 60)
    [event] = events(world)
    assert event.status == ACTIVE and instant(event.scheduled_end_time) > now(world) > first_end
    await play_round(world, db_path, random.Random(3))
    assert tournament(db_path)["status"] == "finished"
    [event] = events(world)
    assert event.status == COMPLETED, "the scheduled event did not end completed"


async def test_moving_and_cancelling_update_the_event_and_too_few_wait_for_the_organiser(world: Any,
                                                                                        db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    ch = world.channel
    await alice.slash(ch, "tournament new", game="pedwar", format="swiss", starts_at="in 1h")
    await refused(bob, ch, db_path, "tournament schedule", "Only the organiser", starts_at="in 3h")
    await refused(alice, ch, db_path, "tournament schedule", "starts_at", starts_at="yesterday")
    moved = await alice.slash(ch, "tournament schedule", starts_at="in 5h")
    assert "now starts" in answer_text(moved)
    [event] = events(world)
    assert instant(event.scheduled_start_time) == pytest.approx(now(world) + 5 * 3600, abs=2)
    await alice.slash(ch, "tournament cancel")
    [event] = events(world)
    assert event.status == CANCELLED
    # Too few checked in at the start: it says so and waits for the organiser.
    await world.env.advance_time(3)  # alice's new_cooldown between two /tournament new
    await alice.slash(ch, "tournament new", game="pedwar", format="swiss", starts_at="in 1h", checkin_minutes=10)
    await bob.slash(ch, "tournament join")
    await world.env.advance_time(3601)
    assert tournament(db_path)["status"] == "registration"
    assert any("could not start at its time" in (m.content or "") for m in ch.history())
    await alice.slash(ch, "tournament addbot", count=1, level="easy")
    await bob.slash(ch, "tournament checkin")
    await alice.slash(ch, "tournament start")
    assert tournament(db_path)["status"] == "playing"
    await alice.slash(ch, "tournament cancel")
    completed = [e for e in events(world) if e.status == COMPLETED]
    assert len(completed) == 1, "a cancelled event that had begun is completed"


async def test_moving_a_start_discord_already_began_makes_a_new_scheduled_event(world: Any, db_path: str) -> None:
    """Discord begins a scheduled event at its time even when the tournament could not start (too few players);
    moved with /tournament schedule, the begun event is ended and a new one is scheduled at the new start (an
    active event's times were edited and it stayed "live" while registration went on)."""
    alice, bob = world.members["alice"], world.members["bob"]
    ch = world.channel
    await alice.slash(ch, "tournament new", game="pedwar", format="swiss", starts_at="in 1h", checkin_minutes=10)
    await bob.slash(ch, "tournament join")
    await world.env.advance_time(3601)
    assert [e.status for e in events(world)] == [ACTIVE]
    moved = await alice.slash(ch, "tournament schedule", starts_at="in 2h")
    assert "now starts" in answer_text(moved)
    scheduled = [e for e in events(world) if e.status == SCHEDULED]
    assert len(scheduled) == 1 and instant(scheduled[0].scheduled_start_time) == pytest.approx(
        now(world) + 2 * 3600, abs=2)
    assert tournament(db_path)["event_id"] == scheduled[0].id
    assert [e.status for e in events(world) if e.id != scheduled[0].id] == [COMPLETED]


async def test_starts_at_needs_manage_events_and_a_readable_time(world: Any, db_path: str) -> None:
    alice = world.members["alice"]
    ch = world.channel
    await refused(alice, ch, db_path, "tournament new", "can't read", game="pedwar", format="swiss",
                  starts_at="soonish")
    await refused(alice, ch, db_path, "tournament new", "checkin_minutes", game="pedwar", format="swiss",
                  checkin_minutes=5)
    backend = world.env.backend
    guild = backend.get_guild(world.guild.id)
    bot_role = next(r for r in guild.roles.values() if r.managed)
    perms = discord.Permissions(bot_role.permissions)
    perms.manage_events = False
    backend.edit_role(world.guild.id, bot_role.id, {"permissions": perms.value})
    await world.env.advance_time(1)
    await refused(alice, ch, db_path, "tournament new", "Manage Events", game="pedwar", format="swiss",
                  starts_at="in 2h")
    assert events(world) == []
    # Without a start time it opens; giving it one later needs the same permission, read the same way.
    await alice.slash(ch, "tournament new", game="pedwar", format="swiss")
    await refused(alice, ch, db_path, "tournament schedule", "Manage Events", starts_at="in 2h")
    assert events(world) == [] and tournament(db_path)["starts_at"] is None


async def test_timezone_setting_reads_local_start_times(world: Any, db_path: str) -> None:
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    bad = await mona.slash(world.channel, "config set", setting="timezone", value="Mars/Olympus")
    assert bad.ephemeral and "not a time zone" in answer_text(bad)
    await mona.slash(world.channel, "config set", setting="timezone", value="Europe/Paris")
    await mona.slash(world.channel, "tournament new", game="pedwar", format="swiss", starts_at="2026-01-03 18:00")
    assert tournament(db_path)["starts_at"] == datetime.fromisoformat("2026-01-03T17:00:00+00:00").timestamp()


async def test_registration_rules_and_penalties_through_discord(world: Any, db_path: str) -> None:
    alice, bob, carol, dave = (world.members[n] for n in ("alice", "bob", "carol", "dave"))
    ch = world.channel
    players = world.guild.create_role("players")
    await alice.slash(ch, "tournament new", game="pedwar", format="swiss", rounds=2, role=players,
                      max_entrants=2)
    await refused(carol, ch, db_path, "tournament join", "role")
    world.env.backend.add_member_role(world.guild.id, carol.id, players.id)
    world.env.backend.add_member_role(world.guild.id, dave.id, players.id)
    world.env.backend.add_member_role(world.guild.id, bob.id, players.id)
    await world.env.advance_time(1)
    await bob.slash(ch, "tournament join")
    await carol.slash(ch, "tournament join")
    waiting = await dave.slash(ch, "tournament join")
    assert "waiting list" in answer_text(waiting)
    await carol.slash(ch, "tournament leave")  # dave moves up
    await alice.slash(ch, "tournament note", player=bob, text="asked about the rules twice")
    result = await alice.slash(ch, "tournament penalty", player=dave, kind="warning", reason="late")
    assert result.ephemeral
    await refused(bob, ch, db_path, "tournament penalty", "Only the organiser", player=dave, kind="warning",
                  reason="x")
    await alice.slash(ch, "tournament start")
    entrants = {r["user_id"] for r in rows(db_path, "SELECT user_id FROM entrants WHERE left_reason IS NULL")}
    assert entrants == {bob.id, dave.id}
    mine = await alice.slash(ch, "tournament status")
    assert mine.ephemeral and "asked about the rules twice" in answer_text(mine) and "late" in answer_text(mine)
    theirs = await bob.slash(ch, "tournament status")
    assert "asked about the rules" not in answer_text(theirs), "a note was shown to a player"
    # The organiser's export carries the penalties and notes; a player's never does.
    for who, sees in ((alice, True), (bob, False)):
        for fmt in ("json", "csv"):
            exported = await who.slash(ch, "tournament export", format=fmt)
            data = (await exported.response.attachments[0].read()).decode()
            assert ("asked about the rules twice" in data and "late" in data) is sees, (who.name, fmt, data[-400:])
            if fmt == "json":
                assert ("penalties" in json.loads(data)) is sees
    await alice.slash(ch, "tournament penalty", player=dave, kind="disqualify", reason="collusion")
    record = rows(db_path, "SELECT kind, text, organiser_id FROM tournament_penalties ORDER BY id")
    assert [tuple(r) for r in record] == [("note", "asked about the rules twice", alice.id),
                                          ("warning", "late", alice.id), ("disqualify", "collusion", alice.id)]
    for _ in range(5):
        if tournament(db_path)["status"] == "finished":
            break
        await world.env.advance_time(60)
    assert tournament(db_path)["status"] == "finished"
    dave_id = rows(db_path, "SELECT id FROM entrants WHERE user_id = ?", (dave.id,))[0]["id"]
    assert str(dave_id) not in (tournament(db_path)["champion"] or "")


async def test_a_drop_while_the_thread_could_not_be_made_is_a_walkover_through_discord(world: Any,
                                                                                     db_path: str) -> None:
    alice, bob, carol, dave = (world.members[n] for n in ("alice", "bob", "carol", "dave"))
    ch = world.channel
    await alice.slash(ch, "tournament new", game="pedwar", format="swiss", rounds=2)
    for member in (alice, bob, carol, dave):
        await member.slash(ch, "tournament join")
    world.env.inject_error("POST", "/channels/*/threads", status=400, code=160006,
                           message="Maximum number of active threads reached", times=2)
    await alice.slash(ch, "tournament start")
    assert rows(db_path, "SELECT COUNT(*) FROM tournament_tables WHERE status = 'pending'")[0][0] == 2
    await world.env.restart_bot(create_bot())  # the tables still wait for their threads after a restart
    await bob.slash(ch, "tournament drop")
    bob_id = rows(db_path, "SELECT id FROM entrants WHERE user_id = ?", (bob.id,))[0]["id"]
    seats = [g["user_id"] for g in rows(db_path, "SELECT s.user_id FROM seats s JOIN tournament_tables t"
                                                 " ON t.table_id = s.table_id")]
    assert bob.id not in seats, "the dropped player was seated"
    walkover = [r for r in rows(db_path, "SELECT * FROM tournament_tables WHERE round = 1")
                if str(bob_id) in r["seats"]]
    assert walkover[0]["status"] == "finished" and walkover[0]["table_id"] is None
    assert len([t for t in ch.threads]) == 1, "the other table was seated once the threads worked again"


async def test_late_join_and_a_game_loss_through_discord(world: Any, db_path: str) -> None:
    alice, bob, carol, dave = (world.members[n] for n in ("alice", "bob", "carol", "dave"))
    ch = world.channel
    await alice.slash(ch, "tournament new", game="pedwar", format="swiss", rounds=3, late_join_rounds=2)
    for member in (alice, bob, carol):
        await member.slash(ch, "tournament join")
    await alice.slash(ch, "tournament start")
    late = await dave.slash(ch, "tournament join")
    assert late.ephemeral and "joined **" in answer_text(late) and "loss with no opponent" in answer_text(late)
    # A game loss for a player at a table in play forfeits it at once.
    seated = rows(db_path, "SELECT s.user_id, g.channel_id FROM seats s JOIN game_tables g ON g.id = s.table_id"
                           " WHERE g.status = 'playing'")
    loser = next(m for m in (alice, bob, carol) if m.id in {r["user_id"] for r in seated})
    resting = next(m for m in (alice, bob, carol) if m.id not in {r["user_id"] for r in seated})
    # The player with the bye has no table in play: the game loss forfeits their next one.
    waiting = await alice.slash(ch, "tournament penalty", player=resting, kind="game_loss", reason="rude")
    assert "next table" in answer_text(waiting)
    given = await alice.slash(ch, "tournament penalty", player=loser, kind="game_loss", reason="marked cards")
    assert given.ephemeral and "forfeited" in answer_text(given)
    assert rows(db_path, "SELECT MAX(number) FROM rounds")[0][0] == 2, "the forfeit finished round 1"
    forfeited = rows(db_path, "SELECT r.place FROM results r JOIN tournament_tables t ON t.table_id = r.table_id"
                              " WHERE t.round = 2 AND r.user_id = ?", (resting.id,))
    assert [r["place"] for r in forfeited] == [2], "the waiting game loss did not forfeit the next table"
    assert not rows(db_path, "SELECT * FROM tournament_penalties WHERE pending = 1")
    standings = await carol.slash(ch, "tournament standings")
    text = answer_text(standings)
    assert "dave" in text and "lost with no opponent (joined late)" in text


async def test_the_servers_organiser_role_runs_another_members_tournament(world: Any, db_path: str) -> None:
    alice, bob, carol = (world.members[n] for n in ("alice", "bob", "carol"))
    ch = world.channel
    mods = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[mods])
    tos = world.guild.create_role("TO")
    world.env.backend.add_member_role(world.guild.id, bob.id, tos.id)
    await world.env.advance_time(1)
    bad = await mona.slash(ch, "config set", setting="tournament_organiser_role", value="someone")
    assert bad.ephemeral and "role" in answer_text(bad)
    await mona.slash(ch, "config set", setting="tournament_organiser_role", value=f"<@&{tos.id}>")
    await alice.slash(ch, "tournament new", game="pedwar", format="swiss", rounds=1, round_time="1h")
    await refused(carol, ch, db_path, "tournament addbot", "Only the organiser", count=1)
    await carol.slash(ch, "tournament join")
    await bob.slash(ch, "tournament addbot", count=1, level="easy")
    await bob.slash(ch, "tournament start")
    assert tournament(db_path)["status"] == "playing"
    await world.env.advance_time(3601)
    await refused(carol, ch, db_path, "tournament advance", "Only the organiser")
    ended = await bob.slash(ch, "tournament advance")
    assert "The round is over" in answer_text(ended)
